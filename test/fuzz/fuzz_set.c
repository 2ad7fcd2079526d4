/* Fuzz target: --set. Each input line is one `key=value` override applied to a fixed valid scenario (as
 * `iosim check SCENARIO --set LINE...`); when the result is valid its workload is built for a hand-made platform. */
#include "fuzz_common.h"
#include "ios_scenario.h"
#include "ios_workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char base[] = "{\"platform\": \"/dev/null\", \"workload\": {\"applications\": [{\"name\": \"A\", "
                           "\"profile\": {\"1\": 8e8}, \"work\": 1, \"io\": 1e9}]}, \"output\": {\"progress\": false}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char path[256];
  if (path[0] == '\0') {
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/iosim-fuzz-set-%ld.json", dir != NULL && dir[0] != '\0' ? dir : "/tmp",
             (long)getpid());
    FILE *f = fopen(path, "w");
    if (f == NULL) return 0;
    ios_fuzz_remove_at_exit(path);
    fputs(base, f);
    fclose(f);
  }
  char *text = malloc(size + 1);
  char *sets[16];
  int n = 0;
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line != NULL && n < 16;
       line = strtok_r(NULL, "\n", &save))
    sets[n++] = line;
  ios_scenario_t s;
  if (ios_scenario_load(path, n, sets, &s) == 0) {
    if (s.platform_spec == NULL && s.storage == NULL) {
      ios_workload_t w = {0};
      if (ios_workload_build(&s, ios_fuzz_platform(), &w) == 0) ios_workload_free(&w);
    }
    ios_scenario_free(&s);
  }
  free(text);
  return 0;
}
