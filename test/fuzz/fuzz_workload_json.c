/* Fuzz target: the JSON workload reader. The input is a workload file (an array of applications) named by
 * workload.file of a fixed scenario; it is read and validated for a hand-made platform. */
#include "fuzz_common.h"
#include "ios_scenario.h"
#include "ios_workload.h"

#include <cjson/cJSON.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = ios_fuzz_file(data, size, ".json");
  if (path == NULL) return 0;
  cJSON *user = cJSON_CreateObject(), *wl = cJSON_AddObjectToObject(user, "workload");
  cJSON_AddStringToObject(user, "platform", "/dev/null");
  cJSON_AddStringToObject(wl, "file", path);
  cJSON_AddStringToObject(wl, "format", "json");
  ios_scenario_t s;
  if (ios_scenario_from_json(user, "fuzz.json", &s) == 0) {
    ios_workload_t w = {0};
    if (ios_workload_build(&s, ios_fuzz_platform(), &w) == 0) ios_workload_free(&w);
    ios_scenario_free(&s);
  }
  cJSON_Delete(user);
  return 0;
}
