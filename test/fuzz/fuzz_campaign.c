/* Fuzz target: the campaign reader (ios_campaign_load): axes, zips, seeds, set, and every point's scenario
 * validated. Nothing is run. */
#include "fuzz_common.h"
#include "ios_campaign.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = ios_fuzz_file(data, size, ".json");
  ios_campaign_t c;
  if (path != NULL && ios_campaign_load(path, &c) == 0) ios_campaign_free(&c);
  return 0;
}
