// iosim engine tests — bad input. Every bad input must make `iosim run` exit with code 2 and a message on stderr
// naming the file and the field (or line) at fault; a good control case next to each shows the test can tell.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kFixtures = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures";

std::string platform1() {
  return tiny_platform_xml({1e9}, 4, 100e9);
}

// A valid scenario with one inline application; `app` replaces the application object when given.
std::string good_scenario(const std::string &app = R"({"name": "A", "profile": {"1": 8e8}, "work": 1, "io": 1e9})") {
  return "{\n  \"workload\": {\"applications\": [\n    " + app +
         "\n  ]},\n  \"sharing\": {\"policy\": \"fairshare\"},\n  \"output\": {\"progress\": false}\n}\n";
}

// Expects exit code 2, no results.json, and every one of `needles` in stderr.
void expect_bad_input(const SimRun &r, const std::vector<std::string> &needles) {
  EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
  EXPECT_FALSE(file_exists(r.out_dir + "/results.json")) << "a failed run left " << r.out_dir << "/results.json";
  for (const auto &n : needles)
    EXPECT_NE(r.proc.err.find(n), std::string::npos) << "stderr does not mention '" << n << "':\n" << r.proc.err;
  EXPECT_NE(r.proc.err.find("error"), std::string::npos) << r.proc.err;
}

} // namespace

// Control: the scenario the bad cases are derived from is valid and runs.
TEST(engine_inputs, GoodScenarioRuns) {
  SimRun r = run_scenario(good_scenario(), platform1());
  EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_TRUE(r.has_results);
  EXPECT_EQ(r.apps.size(), 1u);
}

// ---------------------------------------------------------------------------------------------------------------
// scenario file

// Line 4 lacks its trailing comma; the parser stops at the next member, on line 5: the message names the file and
// "line 5".
TEST(engine_inputs, MalformedJsonNamesTheLine) {
  std::string text = "{\n"
                     "  \"workload\": {\"applications\": [\n"
                     "    {\"name\": \"A\", \"io\": 1e9}]},\n"
                     "  \"sharing\": {\"policy\": \"fairshare\"}\n"
                     "  \"seed\": 3\n"
                     "}\n";
  SimRun r = run_scenario(text, platform1());
  expect_bad_input(r, {r.scenario_path, "line 5", "malformed JSON"});
}

// A JSON file whose top level is an array, not an object.
TEST(engine_inputs, TopLevelNotAnObject) {
  SimRun r = run_scenario("[1, 2, 3]\n", platform1());
  expect_bad_input(r, {r.scenario_path, "line 1"});
}

TEST(engine_inputs, UnknownTopLevelField) {
  SimRun r = run_scenario(R"({"workload": {"applications": [{"name": "A", "io": 1e9}]}, "sharring": {}})", platform1());
  expect_bad_input(r, {r.scenario_path, "sharring", "unknown field"});
}

TEST(engine_inputs, UnknownNestedField) {
  SimRun r = run_scenario(
      R"({"workload": {"applications": [{"name": "A", "io": 1e9}]}, "window": {"lenght_fraction": 0.5}})", platform1());
  expect_bad_input(r, {r.scenario_path, "window.lenght_fraction", "unknown field", "length_fraction"});
}

TEST(engine_inputs, UnknownApplicationField) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "volume": 1e9, "io": 1e9})"), platform1());
  expect_bad_input(r, {r.scenario_path, "workload.applications[0]", "volume"});
}

TEST(engine_inputs, FieldOfTheWrongType) {
  SimRun r =
      run_scenario(R"({"workload": {"applications": [{"name": "A", "io": 1e9}]}, "seed": "seven"})", platform1());
  expect_bad_input(r, {r.scenario_path, "seed"});
}

TEST(engine_inputs, UnknownSharingPolicyListsValidNames) {
  SimRun r = run_scenario(
      R"({"workload": {"applications": [{"name": "A", "io": 1e9}]}, "sharing": {"policy": "fifo"}})", platform1());
  expect_bad_input(r, {r.scenario_path, "sharing.policy", "fifo", "fairshare", "fcfs", "maxmin"});
}

TEST(engine_inputs, UnknownAllocationPolicyListsValidNames) {
  SimRun r = run_scenario(good_scenario(), platform1(), options("run", {"allocation.policy=clairvoyant"}));
  expect_bad_input(r, {r.scenario_path, "allocation.policy", "clairvoyant", "static", "fixed"});
}

TEST(engine_inputs, UnknownPlacementPolicyListsValidNames) {
  SimRun r = run_scenario(good_scenario(), platform1(), options("run", {"placement.policy=roundrobin"}));
  expect_bad_input(r, {r.scenario_path, "placement.policy", "roundrobin", "random", "greedy-non-clairvoyant"});
}

TEST(engine_inputs, UnknownPolicyParameter) {
  SimRun r = run_scenario(good_scenario(), platform1(), options("run", {"sharing.delta_s=10"}));
  expect_bad_input(r, {r.scenario_path, "sharing.delta_s", "fairshare"});
}

TEST(engine_inputs, MissingScenarioFile) {
  TempDir d;
  std::string missing = d.file("no-such-scenario.json");
  Process p = run_iosim({"run", missing, "--out", d.file("out")}, d.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_NE(p.err.find(missing), std::string::npos) << p.err;
  EXPECT_FALSE(file_exists(d.file("out/results.json")));
}

TEST(engine_inputs, MissingPlatformFile) {
  SimRun r = run_scenario(good_scenario(), "", options("run", {"platform=no-such-platform.xml"}));
  expect_bad_input(r, {r.dir->file("no-such-platform.xml"), "platform"});
}

// A relative platform path in the scenario file is relative to the scenario's directory.
TEST(engine_inputs, RelativePlatformPathIsRelativeToTheScenario) {
  RunOptions opt;
  opt.set_platform = false;
  opt.scenario_name = "sub/scenario.json";
  opt.extra_files["sub/plat/p.xml"] = platform1();
  std::string text = good_scenario();
  text.insert(1, "\n  \"platform\": \"plat/p.xml\",");
  SimRun r = run_scenario(text, "", opt);
  EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.str("scenario.platform"), r.dir->file("sub/plat/p.xml"));
}

// ---------------------------------------------------------------------------------------------------------------
// platform file

// A platform without a controller host runs: the controller's actors go to the first compute host, where they only
// wait (platforms/README.md); the results are those of the same platform with a controller host.
TEST(engine_inputs, PlatformWithoutControllerRunsAsWithOne) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}};
  SimRun with = run_scenario(good_scenario(), tiny_platform_xml(p));
  p.controller = false;
  SimRun without = run_scenario(good_scenario(), tiny_platform_xml(p));
  ASSERT_EQ(with.proc.exit_code, 0) << with.describe();
  ASSERT_EQ(without.proc.exit_code, 0) << without.describe();
  EXPECT_EQ(read_text(without.out_dir + "/apps.csv"), read_text(with.out_dir + "/apps.csv"));
  EXPECT_EQ(without.metric("min_yield"), with.metric("min_yield"));
}

TEST(engine_inputs, PlatformWithoutComputeHosts) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}};
  p.compute = 0;
  SimRun r = run_scenario(good_scenario(), tiny_platform_xml(p));
  expect_bad_input(r, {r.dir->file("platform.xml"), "compute"});
}

TEST(engine_inputs, ResourceWithoutLinkProperty) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}, {"r1", 1e9, false}};
  SimRun r = run_scenario(good_scenario(), tiny_platform_xml(p));
  expect_bad_input(r, {r.dir->file("platform.xml"), "r1", "link"});
}

TEST(engine_inputs, UnreachableResource) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}, {"r1", 1e9, true, false}};
  SimRun r = run_scenario(good_scenario(), tiny_platform_xml(p));
  expect_bad_input(r, {r.dir->file("platform.xml"), "r1", "unreachable"});
}

TEST(engine_inputs, PlatformThatIsNotXml) {
  SimRun r = run_scenario(good_scenario(), "this is not a platform\n");
  expect_bad_input(r, {r.dir->file("platform.xml")});
}

// ---------------------------------------------------------------------------------------------------------------
// inline applications

TEST(engine_inputs, NegativeVolume) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "work": 1, "io": -1e9})"), platform1());
  expect_bad_input(r, {r.scenario_path, "workload.applications[0]", "io"});
}

TEST(engine_inputs, NegativeVolumeInPhases) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "phases": [{"work": 1}, {"io": -5}]})"), platform1());
  expect_bad_input(r, {r.scenario_path, "workload.applications[0]", "phases[1]"});
}

TEST(engine_inputs, NonNumericVolume) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "work": 1, "io": "lots"})"), platform1());
  expect_bad_input(r, {r.scenario_path, "workload.applications[0]", "io"});
}

TEST(engine_inputs, NonNumericVolumeOfTheWrongJsonType) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "work": 1, "io": true})"), platform1());
  expect_bad_input(r, {r.scenario_path, "workload.applications[0]", "io"});
}

// Control: a volume with a unit is numeric.
TEST(engine_inputs, VolumeWithUnitIsAccepted) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "profile": {"1": "1GB/s"}, "io": "2GB"})"), platform1());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_DOUBLE_EQ(r.app("A").io_volume, 2e9);
  EXPECT_DOUBLE_EQ(r.app("A").io_time, 2.0);
}

TEST(engine_inputs, SecondApplicationIsNamedInTheMessage) {
  std::string text =
      R"({"workload": {"applications": [{"name": "A", "io": 1e9}, {"name": "B", "nodes": 0, "io": 1}]}})";
  SimRun r = run_scenario(text, platform1());
  expect_bad_input(r, {r.scenario_path, "workload.applications[1]", "nodes"});
}

// An application name holding a comma must not corrupt apps.csv: either the name is rejected (exit 2 naming the
// application) or apps.csv quotes it, so that every row has as many cells as the header.
TEST(engine_inputs, ApplicationNameWithACommaKeepsAppsCsvWellFormed) {
  SimRun r = run_scenario(good_scenario(R"({"name": "solver,v2", "profile": {"1": 8e8}, "io": 1e9})"), platform1());
  if (r.proc.exit_code == 2) {
    EXPECT_NE(r.proc.err.find("workload.applications[0]"), std::string::npos) << r.proc.err;
    return;
  }
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.apps_csv.size(), 1u);
  EXPECT_EQ(r.apps_csv[0].count("__bad_width"), 0u)
      << "apps.csv row has " << r.apps_csv[0].at("__bad_width") << " cells for 12 columns:\n"
      << read_text(r.out_dir + "/apps.csv");
  EXPECT_EQ(r.apps[0].name, "solver,v2");
}

// ---------------------------------------------------------------------------------------------------------------
// RR-9502 sample files

// Control: the good fixture loads and runs (2 applications, 4 phases each).
TEST(engine_inputs, Rr9502SampleFileRuns) {
  std::string text = R"({"workload": {"file": ")" + kFixtures + R"(/rr9502-good.txt"},
                         "allocation": {"policy": "fixed", "n": 1}, "output": {"progress": false}})";
  SimRun r = run_scenario(text, platform1());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.apps.size(), 2u);
  // app0: bandwidth 0.4 of the pool (1e9) → 4e8; volumes 0.5 + 0.5 pool units = 1e9 B
  EXPECT_DOUBLE_EQ(r.app("app0").bandwidth, 4e8);
  EXPECT_DOUBLE_EQ(r.app("app0").io_volume, 1e9);
  EXPECT_DOUBLE_EQ(r.app("app0").work_time, 20.0);
}

TEST(engine_inputs, Rr9502SampleWithWrongPhaseCount) {
  std::string sample = kFixtures + "/rr9502-bad-nphases.txt";
  std::string text = R"({"workload": {"file": ")" + sample + R"("}, "allocation": {"policy": "fixed", "n": 1}})";
  SimRun r = run_scenario(text, platform1());
  expect_bad_input(r, {sample, "line 4", "nphases"});
}

TEST(engine_inputs, Rr9502SampleWithNonNumericField) {
  RunOptions opt;
  opt.extra_files["bad.txt"] = "app0 0.4 zero 0 0 2 10 W 10 0.5\n";
  SimRun r =
      run_scenario(R"({"workload": {"file": "bad.txt"}, "allocation": {"policy": "fixed", "n": 1}})", platform1(), opt);
  expect_bad_input(r, {r.dir->file("bad.txt"), "line 1", "age"});
}

// ---------------------------------------------------------------------------------------------------------------
// check, policies, and what a failed run leaves behind

TEST(engine_inputs, CheckAcceptsAGoodScenario) {
  SimRun r = run_scenario(good_scenario(), platform1(), options("check", {}));
  EXPECT_EQ(r.proc.exit_code, 0) << r.proc.err;
  EXPECT_NE(r.proc.out.find("ok"), std::string::npos) << r.proc.out;
  EXPECT_FALSE(file_exists(r.out_dir + "/results.json"));
}

TEST(engine_inputs, CheckRejectsABadScenario) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "io": -1})"), platform1(), options("check", {}));
  EXPECT_EQ(r.proc.exit_code, 2) << r.proc.err;
  EXPECT_NE(r.proc.err.find("workload.applications[0]"), std::string::npos) << r.proc.err;
}

TEST(engine_inputs, CheckAcceptsTheDefaultScenario) {
  TempDir d;
  Process p = run_iosim({"check", std::string(IOSIM_SOURCE_DIR) + "/deploy/default.json"}, d.path(), d.path());
  EXPECT_EQ(p.exit_code, 0) << p.err;
}

TEST(engine_inputs, PoliciesListsEveryPolicy) {
  TempDir d;
  Process p = run_iosim({"policies"}, d.path());
  EXPECT_EQ(p.exit_code, 0) << p.err;
  for (const char *name : {"fairshare", "fcfs", "maxmin", "static", "fixed", "random", "greedy-non-clairvoyant"})
    EXPECT_NE(p.out.find(name), std::string::npos) << "`iosim policies` does not list " << name << ":\n" << p.out;
}

TEST(engine_inputs, UnknownCommandExits2) {
  TempDir d;
  Process p = run_iosim({"simulate", "x.json"}, d.path());
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(p.err.find("simulate"), std::string::npos) << p.err;
}

// A failed run into a fresh output directory leaves no results.json.
TEST(engine_inputs, FailedRunLeavesNoResultsInAFreshDirectory) {
  SimRun r = run_scenario(good_scenario(R"({"name": "A", "io": -1})"), platform1());
  EXPECT_EQ(r.proc.exit_code, 2);
  EXPECT_FALSE(file_exists(r.out_dir + "/results.json"));
}

// A failed run into an output directory holding the results of an earlier successful run leaves no results.json
// there (a stale results.json would pass for the failed run's): errors found by the engine (the applications need
// more compute nodes than the platform has), in the platform and in the workload.
TEST(engine_inputs, FailedRunRemovesAnEarlierResults) {
  struct Case {
    const char *what;
    std::string scenario;
    std::vector<std::string> sets;
  } cases[] = {
      {"engine: too many nodes", good_scenario(R"({"name": "A", "nodes": 64, "io": 1e9})"), {}},
      {"platform: missing file", good_scenario(), {"platform=missing.xml"}},
      {"workload: negative volume", good_scenario(R"({"name": "A", "io": -1})"), {}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    TempDir d;
    std::string platform = d.write("platform.xml", platform1());
    std::string good = d.write("good.json", good_scenario());
    std::string bad = d.write("bad.json", c.scenario);
    std::string out = d.file("out");
    Process p1 = run_iosim({"run", good, "--set", "platform=" + platform, "--out", out}, d.path(), d.path());
    ASSERT_EQ(p1.exit_code, 0) << p1.err;
    ASSERT_TRUE(file_exists(out + "/results.json"));
    std::vector<std::string> args = {"run", bad, "--set", "platform=" + platform, "--out", out};
    for (const auto &s : c.sets) {
      args.push_back("--set");
      args.push_back(s);
    }
    Process p2 = run_iosim(args, d.path(), d.path());
    EXPECT_EQ(p2.exit_code, 2) << p2.err;
    EXPECT_FALSE(file_exists(out + "/results.json")) << "the failed run left the earlier results.json in " << out;
  }
}
