/* Fuzz target: the Darshan log reader (ios_darshan_parse: header, regions, zlib/bzip2, job, names, module records),
 * then the mapping of the log to an application (phases from DXT and from the counters; the OSTs of its files, as
 * io_resources and as recorded or restriped layouts on a pool of OSTs). */
#include "fuzz_common.h"
#include "ios_darshan.h"
#include "ios_model.h"

#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ios_darshan_log_t log;
  if (ios_darshan_parse(data, size, "fuzz.darshan", &log) != 0) return 0;
  ios_darshan_options_t opt = ios_darshan_options_default();
  for (int counters = 0; counters < 2; counters++) {
    ios_app_t a = {0};
    int dxt;
    opt.phases_counters = counters;
    ios_darshan_app(&log, &opt, "fuzz.darshan", &a, &dxt);
    free(a.phases);
  }
  ios_darshan_free(&log);
  /* the whole path of workload.darshan, from a file, with the Lustre layouts as io_resources */
  const char *path = ios_fuzz_file(data, size, ".darshan");
  if (path != NULL) {
    char *paths[1] = {(char *)path};
    ios_platform_t osts = *ios_fuzz_platform(); /* the same pool as OSTs: the recorded layouts, then restriped */
    osts.pool_role = "ost";
    osts.noss = 1;
    for (int k = 0; k < 3; k++) {
      ios_workload_t w = {0};
      opt.stripe_count = k == 2 ? 3 : -2;
      ios_darshan_workload(paths, 1, &opt, k == 0 ? ios_fuzz_platform() : &osts, &w, NULL);
      ios_workload_free(&w);
    }
    unlink(path); /* tests leave nothing in /tmp */
  }
  return 0;
}
