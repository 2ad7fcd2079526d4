// iosim engine tests — SimGrid conventions a new user tried (issue 22): --cfg=help lists SimGrid's settings, and a
// --cfg that gives a setting iosim fixes the value iosim gives it is accepted (another value is still refused).
// Each command is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

// Two applications of 1e9 bytes capped at 1e9 B/s on one 1e9 B/s resource under fairshare: each gets 5e8 B/s and
// both end at 2 s; the window is [0, 1] s (their dedicated end), each has moved 5e8 bytes: MinYield 0.5.
const char *kScenario = R"({"workload": {"applications": [
    {"name": "A", "profile": {"1": 1e9}, "io": 1e9},
    {"name": "B", "profile": {"1": 1e9}, "io": 1e9}]},
  "allocation": {"policy": "fixed", "n": 1}, "output": {"progress": false}})";

} // namespace

// Expectations: `iosim run --cfg=help` (no scenario needed), `iosim check --cfg=help` and `iosim sweep --cfg=help`
// print SimGrid's configuration items (exit 0), with the values iosim runs with for the settings it fixes.
TEST(engine_traps_cli, CfgHelpPrintsSimGridSettings) {
  TempDir d;
  for (std::vector<std::string> args :
       {std::vector<std::string>{"run", "--cfg=help"}, {"check", "--cfg", "help"}, {"sweep", "--cfg=help"}}) {
    Process p = run_iosim(args, d.path());
    EXPECT_EQ(p.exit_code, 0) << args[0] << ": " << p.err;
    for (const char *needle : {"maxmin/precision", "network/crosstraffic", "contexts/stack-size", "tracing",
                               "iosim fixes network/model:CM02, network/crosstraffic:0 and contexts/stack-size:256"})
      EXPECT_NE(p.out.find(needle), std::string::npos) << args[0] << " lacks " << needle;
    size_t at = p.out.find("   contexts/stack-size:");
    ASSERT_NE(at, std::string::npos) << p.out;
    EXPECT_NE(p.out.substr(at, 200).find("Current value: 256"), std::string::npos) << p.out.substr(at, 200);
    at = p.out.find("   network/crosstraffic:");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(p.out.substr(at, 200).find("Current value: 0"), std::string::npos) << p.out.substr(at, 200);
  }
}

// System: kScenario. Expectations: giving the fixed settings iosim's own values (CM02, crosstraffic 0 also spelt
// "no", stack size 256) runs as without them: exit 0, MinYield 0.5 (by hand above); crosstraffic 1 or another model
// is refused (exit 2) naming the setting, iosim's value and why, and nothing is written.
TEST(engine_traps_cli, CfgEqualToTheFixedValueIsAccepted) {
  SimRun same = run_scenario(kScenario, tiny_platform_xml({1e9}, 4, 100e9), options("run", {}));
  ASSERT_EQ(same.proc.exit_code, 0) << same.describe();
  TempDir d;
  std::string scenario = same.scenario_path, platform = same.dir->file("platform.xml");
  Process ok = run_iosim({"run", scenario, "--set", "platform=" + platform, "--cfg=network/model:CM02",
                          "--cfg=network/crosstraffic:0", "--cfg", "network/crosstraffic:no",
                          "--cfg=contexts/stack-size:256", "--out", d.file("ok")},
                         d.path());
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  SimRun parsed;
  parse_outputs(d.file("ok"), parsed);
  EXPECT_NEAR(parsed.metric("min_yield"), 0.5, 1e-9);
  EXPECT_NEAR(same.metric("min_yield"), 0.5, 1e-9);
  Process chk =
      run_iosim({"check", scenario, "--set", "platform=" + platform, "--cfg=network/crosstraffic:0"}, d.path());
  EXPECT_EQ(chk.exit_code, 0) << chk.err;
  for (const char *bad :
       {"--cfg=network/crosstraffic:1", "--cfg=network/model:LV08", "--cfg=contexts/stack-size:512"}) {
    Process p = run_iosim({"run", scenario, "--set", "platform=" + platform, bad, "--out", d.file("bad")}, d.path());
    EXPECT_EQ(p.exit_code, 2) << bad;
    EXPECT_NE(p.err.find("iosim fixes it to"), std::string::npos) << p.err;
    EXPECT_NE(p.err.find("or give iosim's own value"), std::string::npos) << p.err;
    EXPECT_FALSE(file_exists(d.file("bad/results.json"))) << bad;
  }
}
