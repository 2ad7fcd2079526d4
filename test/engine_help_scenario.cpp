// iosim engine tests — `iosim help scenario` (src/inputs/ios_scenario.h ios_scenario_print_keys): the keys it prints
// are the loader's own. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace iosim_test;

// System: `iosim help scenario`, then `iosim check deploy/default.json --set KEY=DEFAULT` for every printed row (the
// default as printed, JSON), and `--set` of a key it does not print. Expectations: exit 0 and a header; at least the
// 30 keys of docs/scenario.md's table (platform .. output.progress), none "(undocumented)"; every printed key with its
// printed default passes the loader's check (exit 0; but platform and output.dir, paths, and
// workload.applications, which would empty default.json's workload), so the list is the loader's; a key not printed
// (output.colour) is refused by the loader (exit 2, "unknown field").
TEST(engine_help_scenario, PrintsTheLoadersKeysWithTheirDefaults) {
  TempDir dir;
  Process h = run_iosim({"help", "scenario"}, dir.path());
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_EQ(h.out.find("(undocumented)"), std::string::npos) << h.out;
  std::vector<std::string> lines = split_lines(h.out);
  ASSERT_GT(lines.size(), 2u);
  EXPECT_EQ(split_words(lines[0])[0], "key");
  const std::string scenario = std::string(IOSIM_SOURCE_DIR) + "/deploy/default.json";
  const size_t col = lines[0].find("default"); // the default column starts under its header
  ASSERT_NE(col, std::string::npos);
  int keys = 0;
  for (size_t i = 1; i + 1 < lines.size(); i++) { // the last line is a note
    std::vector<std::string> w = split_words(lines[i]);
    ASSERT_GT(lines[i].size(), col) << lines[i];
    std::string def = split_words(lines[i].substr(col))[0];
    keys++;
    if (w[0] == "platform" || w[0] == "output.dir" || w[0] == "workload.applications")
      continue; // paths relative to the scenario, and default.json's own applications (tested elsewhere)
    Process c = run_iosim({"check", scenario, "--set", w[0] + "=" + def}, dir.path());
    EXPECT_EQ(c.exit_code, 0) << w[0] << "=" << def << ": " << c.err;
  }
  EXPECT_GE(keys, 30) << h.out;
  Process bad = run_iosim({"check", scenario, "--set", "output.colour=1"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown field"), std::string::npos) << bad.err;
}
