/* Fuzz target: the FORGE per-pattern bandwidth CSV reader (ios_read_forge). */
#include "fuzz_common.h"
#include "ios_workload.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = ios_fuzz_file(data, size, ".csv");
  int n = 0, *nodes = NULL;
  ios_profile_t *prof = NULL;
  if (path != NULL && ios_read_forge(path, &n, &nodes, &prof) == 0) {
    free(nodes);
    free(prof);
  }
  return 0;
}
