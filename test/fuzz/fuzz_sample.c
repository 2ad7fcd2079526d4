/* Fuzz target: the RR-9502 reference simulator's sample-file reader (ios_read_sample). */
#include "fuzz_common.h"
#include "ios_workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = ios_fuzz_file(data, size, ".txt");
  ios_workload_t w = {0};
  if (path != NULL && ios_read_sample(path, 1e9, &w) == 0) ios_workload_free(&w);
  return 0;
}
