/* Fuzz target: the scenario reader. The input is a scenario file: loaded and validated (ios_scenario_load), and
 * when valid its workload is built for a hand-made platform (inline applications, JSON workload files, sample files
 * and generators the scenario names). Nothing is simulated. */
#include "fuzz_common.h"
#include "ios_scenario.h"
#include "ios_workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = ios_fuzz_file(data, size, ".json");
  if (path == NULL) return 0;
  ios_scenario_t s;
  if (ios_scenario_load(path, 0, NULL, &s) != 0) return 0;
  if (s.platform_spec == NULL && s.storage == NULL) {
    ios_workload_t w = {0};
    if (ios_workload_build(&s, ios_fuzz_platform(), &w) == 0) ios_workload_free(&w);
  }
  ios_scenario_free(&s);
  return 0;
}
