// iosim engine tests — traps a new user met with the scenario's inputs (issue 22): a generator parameter of the
// platform (--set platform.ionodes=24) on a scenario whose platform is an XML file, in a run and in a campaign.
// Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kDefault = std::string(IOSIM_SOURCE_DIR) + "/deploy/default.json";

void expect_all(const std::string &text, const std::vector<std::string> &needles) {
  for (const std::string &n : needles)
    EXPECT_NE(text.find(n), std::string::npos) << "lacks '" << n << "': " << text;
}

} // namespace

// Expectations: deploy/default.json runs on the XML file platforms/mn4-forwarding.xml; `--set platform.ionodes=24`
// is refused (exit 2, nothing written) by a message that says the platform is a file without generator parameters,
// names the file, and gives both fixes (iosim platform ... -o FILE, or a generated platform object).
TEST(engine_traps_inputs, GeneratorParameterOnAFilePlatformSaysSo) {
  TempDir d;
  Process p = run_iosim({"run", kDefault, "--set", "platform.ionodes=24", "--out", d.file("out")}, d.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  expect_all(p.err, {"platform.ionodes", "XML file", "mn4-forwarding.xml", "no generator parameters",
                     "iosim platform forwarding --set ionodes=VALUE -o my.xml", "--set platform=my.xml",
                     "\"kind\": \"forwarding\""});
  EXPECT_EQ(p.err.find("kind: missing"), std::string::npos) << p.err;
  EXPECT_FALSE(file_exists(d.file("out/results.json")));

  // iosim check says the same
  Process c = run_iosim({"check", kDefault, "--set", "platform.ionodes=24"}, d.path());
  EXPECT_EQ(c.exit_code, 2) << c.err;
  expect_all(c.err, {"platform.ionodes", "no generator parameters"});
}

// Expectations: a scenario that names no platform runs on the default XML file; a generator parameter alone gives a
// platform object without "kind": refused, naming the parameter, the missing kind and the default file.
TEST(engine_traps_inputs, GeneratorParameterWithoutKindNamesTheDefaultFile) {
  SimRun r = run_scenario(R"({"workload": {"applications": [{"name": "a", "nodes": 8, "io": "1GB"}]}})", "",
                          options("run", {"platform.ionodes=24"}));
  EXPECT_EQ(r.proc.exit_code, 2) << r.proc.err;
  expect_all(r.proc.err,
             {"platform", "'ionodes'", "no \"kind\"", "platform.kind=forwarding", "platforms/mn4-forwarding.xml"});
  EXPECT_FALSE(r.has_results);
}

// System: deploy/default.json with --set platform.kind=forwarding --set platform.ionodes=24: a generated forwarding
// platform. Expectations: it runs (exit 0) on 24 I/O nodes (resources.csv has 24 rows).
TEST(engine_traps_inputs, KindThenParameterMakesAGeneratedPlatform) {
  SimRun r = run_scenario_file(kDefault, {"platform.kind=forwarding", "platform.ionodes=24"});
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.resources.size(), 24u);
}

// Expectations: a campaign whose base runs on an XML file and whose grid sweeps platform.ionodes is refused before
// anything runs (exit 2, no runs/ directory), the message naming the campaign, the point and the fix.
TEST(engine_traps_inputs, CampaignSweepingAParameterOfAFilePlatformExitsTwo) {
  TempDir d;
  std::string campaign =
      d.write("c.json", R"({"name": "c", "base": ")" + kDefault + R"(", "grid": {"platform.ionodes": [8, 24]}})");
  Process p = run_iosim({"sweep", campaign, "--out", d.file("out")}, d.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  expect_all(p.err, {"c.json: point 0 (platform.ionodes=8)", "XML file", "no generator parameters"});
  EXPECT_FALSE(file_exists(d.file("out/runs")));
}
