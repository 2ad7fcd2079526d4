// iosim engine tests — the bad inputs of issue 13. Each one must make both `iosim check` and `iosim run` exit with
// code 2 before simulating, with one line naming the file, the field, the value and the fix (the exact words are
// compared); a good control next to them shows that the same path accepts valid values.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kBad = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/bad/";

// One resource of 1 GB/s, 4 compute nodes.
std::string platform1() {
  return tiny_platform_xml({1e9}, 4, 100e9);
}

// A valid scenario; `app` replaces the application, `extra` adds top-level members (",\n  \"k\": v").
std::string scenario(const std::string &app = R"({"name": "A", "profile": {"1": 8e8}, "work": 1, "io": 1e9})",
                     const std::string &extra = "") {
  return "{\n  \"workload\": {\"applications\": [" + app + "]},\n  \"output\": {\"progress\": false}" + extra + "\n}\n";
}

struct Case {
  std::string name;
  std::string scenario;          // scenario.json
  std::vector<std::string> sets; // --set overrides
  std::vector<std::string> needles;
};

// Runs `check` then `run` on the case; both must exit 2 with every needle on one "iosim: error:" line and leave no
// results.json.
void expect_rejected(const Case &c) {
  for (const char *command : {"check", "run"}) {
    SCOPED_TRACE(c.name + " (" + command + ")");
    SimRun r = run_scenario(c.scenario, platform1(), options(command, c.sets));
    EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
    EXPECT_FALSE(r.has_results);
    size_t at = r.proc.err.find("iosim: error: ");
    ASSERT_NE(at, std::string::npos) << r.proc.err;
    std::string line = r.proc.err.substr(at, r.proc.err.find('\n', at) - at);
    for (const auto &n : c.needles)
      EXPECT_NE(line.find(n), std::string::npos) << "the error line does not say '" << n << "':\n" << line;
  }
}

} // namespace

// Control: the base scenario, a unit string through --set and a sample file pass check.
TEST(engine_badinput, ControlsAreAccepted) {
  for (const auto &sets : std::vector<std::vector<std::string>>{
           {}, {"controller.tick_s=2min"}, {"window.begin_s=1s", "window.end_s=\"2s\""}, {"knowledge.noise=0.5"}}) {
    SimRun r = run_scenario(scenario(), platform1(), options("check", sets));
    EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
  }
  SimRun r = run_scenario(scenario(), platform1(),
                          options("check", {"workload.applications=[]", "workload.file=" + kBad + "../rr9502-good.txt",
                                            "workload.bandwidth_unit=1GB/s"}));
  EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
}

// null where an object or a value is expected, in the file and on --set: no crash, the field named.
TEST(engine_badinput, NullForAnObjectOrValue) {
  for (const char *field :
       {"window", "controller", "knowledge", "workload", "window.mode", "knowledge.profiles", "seed", "queue.enabled"})
    expect_rejected({std::string("--set ") + field + "=null",
                     scenario(),
                     {std::string(field) + "=null"},
                     {"scenario.json: " + std::string(field) + ": is null but must be", "remove the field"}});
  expect_rejected({"window null in the file",
                   scenario("{\"io\": 1}", ",\n  \"window\": null"),
                   {},
                   {"scenario.json: window: is null but must be an object"}});
}

// Fields whose default is null take only their own type.
TEST(engine_badinput, WrongTypesAreRefused) {
  expect_rejected({"workload.file number",
                   scenario(),
                   {"workload.file=3"},
                   {"workload.file: is 3 (a number): give a workload file path (string)"}});
  expect_rejected({"generator string",
                   scenario(),
                   {"workload.generator=\"rr9549\""},
                   {"workload.generator: is \"rr9549\" (a string): give a generator object"}});
  expect_rejected(
      {"only array", scenario(), {"workload.only=[1]"}, {"workload.only: is [1] (an array): give the name of one"}});
  expect_rejected({"begin_s boolean",
                   scenario(),
                   {"window.begin_s=true"},
                   {"window.begin_s: is true (a boolean): give the window's start in s"}});
  expect_rejected({"end_s bad duration",
                   scenario(),
                   {"window.begin_s=0", "window.end_s=soon"},
                   {"window.end_s: is \"soon\": give a duration in [0, 1e+12]"}});
  expect_rejected({"applications object",
                   scenario(),
                   {"workload.applications={}"},
                   {"workload.applications: is an object but must be an array"}});
}

// --set values are typed as in the file: a value that is not entirely valid JSON is a string, never a number read
// from its first characters.
TEST(engine_badinput, SetValuesAreNotCutToALeadingNumber) {
  expect_rejected({"5e-1x",
                   scenario(),
                   {"knowledge.noise=5e-1x"},
                   {"knowledge.noise: is \"5e-1x\" (a string): give a number in [0, 10]"}});
  expect_rejected({"50GBps seed", scenario(), {"seed=50GBps"}, {"seed: is \"50GBps\" (a string)"}});
  expect_rejected({".seed", scenario(), {".seed=1"}, {"--set: .seed: is not a dotted field name"}});
  expect_rejected({"a..b", scenario(), {"window..mode=v1"}, {"--set: window..mode: is not a dotted field name"}});
}

// Doubles that would overflow an int, infinite values, values with units that overflow.
TEST(engine_badinput, OverflowsAndInfinities) {
  expect_rejected({"nodes 2^31",
                   scenario(R"({"nodes": 2147483648, "io": 1})"),
                   {},
                   {"workload.applications[0].nodes: is 2147483648: give an integer in [1, 1e+07]"}});
  expect_rejected({"io_resources 1e308",
                   scenario(R"({"io_resources": 1e308, "io": 1})"),
                   {},
                   {"workload.applications[0].io_resources: is 1e+308: give an integer in [0, 1e+06]"}});
  expect_rejected({"io 1e308GiB",
                   scenario(R"({"io": "1e308GiB"})"),
                   {},
                   {"workload.applications[0].io: is \"1e308GiB\": give a size in [0, 1e+21]"}});
  expect_rejected({"work 1e308d",
                   scenario(R"({"work": "1e308d"})"),
                   {},
                   {"workload.applications[0].work: is \"1e308d\": give a duration in [0, 1e+12]"}});
  expect_rejected({"profile 1e308GB/s",
                   scenario(R"({"profile": {"1": "1e308GB/s"}, "io": 1})"),
                   {},
                   {"workload.applications[0]: profile point \"1\""}});
  expect_rejected({"length_fraction 1e999",
                   scenario(),
                   {"window.length_fraction=1e999"},
                   {"window.length_fraction: is inf: give a number in (0, 1e+06]"}});
  expect_rejected({"iterations",
                   scenario(R"({"iterations": 1e7, "phases": [{"io": 1}, {"work": 1}, {"io": 1}, )"
                            R"({"work": 1}, {"io": 1}, {"work": 1}]})"),
                   {},
                   {"workload.applications[0].iterations: is 10000000: with 6 phases per iteration"}});
}

// Periods that would make a run never finish are bounded by the workload's time scale (here 1 + 1e9/8e8 = 2.25 s).
TEST(engine_badinput, PeriodsThatNeverFinish) {
  expect_rejected({"tick 1e-9",
                   scenario(),
                   {"controller.tick_s=1e-9"},
                   {"controller.tick_s: is 1e-09 s: give 0 (no periodic decision) or at least 2.25e-06 s"}});
  expect_rejected({"tick 5e-324", scenario(), {"controller.tick_s=5e-324"}, {"controller.tick_s: is 4.94066e-324 s"}});
  expect_rejected({"delta 1e-12",
                   scenario(),
                   {"sharing={\"policy\": \"periodic-greedy-yield\", \"delta_s\": 1e-12}"},
                   {"sharing.delta_s: is 1e-12 s: give 0 (automatic, RR-9502 Eq. 5) or at least 2.25e-06 s"}});
  SimRun ok = run_scenario(scenario(), platform1(), options("check", {"controller.tick_s=2.25e-6"}));
  EXPECT_EQ(ok.proc.exit_code, 0) << ok.describe();
}

// Policy parameters are checked against their range at load, naming the parameter.
TEST(engine_badinput, PolicyParametersOutOfRange) {
  expect_rejected({"delta_s -5",
                   scenario(),
                   {"sharing={\"policy\": \"periodic-greedy-yield\", \"delta_s\": -5}"},
                   {"sharing.delta_s: is -5: give a duration in [0, 1e+12]"}});
  expect_rejected({"ties 7",
                   scenario(),
                   {"sharing={\"policy\": \"greedy-yield\", \"ties\": 7}"},
                   {"sharing.ties: is 7: give an integer in [0, 1]"}});
  expect_rejected({"interference kappa -1",
                   scenario(),
                   {"sharing={\"policy\": \"interference\", \"kappa\": -1}"},
                   {"sharing.kappa: is -1: give a bandwidth in [0, 1e+300]"}});
  expect_rejected({"mckp divisors",
                   scenario(),
                   {"allocation={\"policy\": \"mckp\", \"divisors\": 3}"},
                   {"allocation.divisors: is 3: give an integer in [0, 1]"}});
  expect_rejected({"fixed n",
                   scenario(),
                   {"allocation={\"policy\": \"fixed\", \"n\": 300}"},
                   {"allocation.n: is 300 but the platform's pool has 1 resources: give 0..1"}});
}

// Workload files: an empty JSON workload, RR-9502 sample files that overflowed or were accepted wrongly.
TEST(engine_badinput, WorkloadFiles) {
  Case empty{"[]",
             scenario(),
             {"workload.applications=[]", "workload.file=empty.json"},
             {"empty.json: workload.applications: holds no application"}};
  for (const char *command : {"check", "run"}) {
    RunOptions o = options(command, empty.sets);
    o.extra_files["empty.json"] = "[]\n";
    SimRun r = run_scenario(empty.scenario, platform1(), o);
    EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
    EXPECT_NE(r.proc.err.find(empty.needles[0]), std::string::npos) << r.proc.err;
  }
  const std::vector<std::pair<std::string, std::string>> samples = {
      {"sample-nphases-2p60.txt",
       "line 1, field nphases: is '1152921504606846976': give an integer in [1, 5e+07] — the number of phase values"},
      {"sample-nphases-1e30.txt", "line 1, field nphases: is '1e30': give an integer in [1, 5e+07]"},
      {"sample-duplicate-names.txt", "workload.file: two applications are named 'App0': names must be unique"},
      {"sample-progress-over-age.txt", "line 1, field progress: is 5 but age is 2"},
  };
  for (const auto &s : samples)
    expect_rejected({s.first,
                     scenario(),
                     {"workload.applications=[]", "workload.file=" + kBad + s.first},
                     {s.first + ": " + s.second}});
}

// The FORGE CSV and the rr9549 generator's parameters.
TEST(engine_badinput, ForgeProfilesAndGenerator) {
  auto gen = [](const std::string &csv, const std::string &params) {
    return std::vector<std::string>{"workload.applications=[]", "workload.generator={\"kind\": \"rr9549\", "
                                                                "\"io_load\": 0.1, \"profiles\": \"" +
                                                                    kBad + csv + "\"" + params + "}"};
  };
  SimRun ok = run_scenario(scenario(), platform1(), options("check", gen("forge-good.csv", ", \"count\": 1")));
  EXPECT_EQ(ok.proc.exit_code, 2) << "a pattern of 8 nodes cannot fit 4 compute nodes: " << ok.describe();
  EXPECT_NE(ok.proc.err.find("needs 8 compute nodes but the platform has 4"), std::string::npos) << ok.proc.err;
  expect_rejected({"clients 1e12",
                   scenario(),
                   gen("forge-clients-1e12.csv", ", \"count\": 1"),
                   {"forge-clients-1e12.csv: line 2, column clients: is '1e12': give an integer in [1, 1e+06]"}});
  expect_rejected({"negative bw",
                   scenario(),
                   gen("forge-negative-bw.csv", ", \"count\": 1"),
                   {"forge-negative-bw.csv: line 2, column bw_1ion: is '-169.1': give a number in (0, 1e+12]"}});
  expect_rejected({"zero bw",
                   scenario(),
                   gen("forge-zero-bw.csv", ", \"count\": 1"),
                   {"forge-zero-bw.csv: line 2, column bw_1ion: is '0': give a number in (0, 1e+12]"}});
  expect_rejected({"phases_max 1e300",
                   scenario(),
                   gen("forge-good.csv", ", \"count\": 1, \"phases_max\": 1e300"),
                   {"workload.generator.phases_max: is 1.0000000000000001e+300: give an integer in [1, 1e+07]"}});
  expect_rejected({"phases_max 1e7",
                   scenario(),
                   gen("forge-good.csv", ", \"phases_max\": 1e7, \"count\": 3"),
                   {"workload.generator.phases_max: is 1e+07: 3 applications of up to 1e+07 iterations"}});
  expect_rejected({"horizon 1e308",
                   scenario(),
                   gen("forge-good.csv", ", \"count\": 1, \"horizon_s\": 1e308"),
                   {"workload.generator.horizon_s: is 1e+308: give a number in (0, 1e+09]"}});
}

// Paths: an empty platform and directories are named before SimGrid's parser sees them.
TEST(engine_badinput, PathsThatAreNotFiles) {
  Case empty{"platform \"\"", scenario(), {}, {"scenario.json: platform: is empty or a directory name"}};
  for (const char *command : {"check", "run"}) {
    RunOptions o = options(command);
    o.set_platform = false;
    SimRun r = run_scenario(scenario("{\"io\": 1}", ",\n  \"platform\": \"\""), "", o);
    EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
    EXPECT_NE(r.proc.err.find(empty.needles[0]), std::string::npos) << r.proc.err;
  }
  expect_rejected({"workload dir",
                   scenario(),
                   {"workload.applications=[]", "workload.file=" + kBad},
                   {"cannot read the sample file (Is a directory)"}});
  // a device would give one line without end (it used to grow until memory ran out)
  expect_rejected({"workload device",
                   scenario(),
                   {"workload.applications=[]", "workload.file=/dev/zero"},
                   {"/dev/zero: workload.file: is not a regular file (a device, a pipe or a socket)"}});
  TempDir d;
  Process p = run_iosim({"check", d.path()}, d.path());
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(p.err.find(d.path() + ": cannot read the scenario (Is a directory): give the path of a scenario JSON file"),
            std::string::npos)
      << p.err;
}

// A very long value: the message keeps its field and its fix (the value is cut, not the message).
TEST(engine_badinput, LongValueKeepsFieldAndFix) {
  std::string big(5000, 'x');
  expect_rejected({"long window.mode",
                   scenario(),
                   {"window.mode=" + big},
                   {"scenario.json: window.mode: is \"xxx", "...", "give \"v1\" or \"v2\""}});
}

// Campaigns: seeds as an array, null in a grid, an unsafe name; exit 2 before any run.
TEST(engine_badinput, Campaigns) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"base": "base.json", "seeds": [1, 2]})", "campaign.json: seeds: is [1,2] (an array): give an object"},
      {R"({"base": "base.json", "grid": {"window": [null]}})", "window: is null but must be an object"},
      {R"({"base": "base.json", "set": {"controller": null}, "seeds": {"count": 2}})",
       "controller: is null but must be an object"},
      {R"({"name": "..", "base": "base.json", "seeds": {"count": 2}})",
       "campaign.json: name: is \"..\": give a string"},
      {R"({"name": "x$(touch F)y", "base": "base.json", "seeds": {"count": 2}})",
       "campaign.json: name: is \"x$(touch F)y\""},
  };
  for (const auto &c : cases) {
    TempDir d;
    d.write("platform.xml", platform1());
    d.write("base.json", scenario("{\"io\": 1}", ",\n  \"platform\": \"platform.xml\""));
    std::string path = d.write("campaign.json", c.first);
    Process p = run_iosim({"sweep", path, "--out", d.file("out")}, d.path());
    EXPECT_EQ(p.exit_code, 2) << c.first << "\n" << p.err;
    EXPECT_NE(p.err.find(c.second), std::string::npos) << c.first << "\n" << p.err;
    EXPECT_FALSE(file_exists(d.file("out/runs.csv"))) << c.first;
    EXPECT_FALSE(file_exists(d.file("F"))) << c.first;
  }
}
