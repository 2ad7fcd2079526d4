// iosim engine tests — the command line (issue 14): one getopt_long parser for every subcommand (-h/--help exits 0
// with a usage, --opt=value and --opt value, -o/--out, --version with the iosim and SimGrid versions, unknown options
// exit 2), SimGrid's --cfg/--log flags (the settings iosim fixes refused), `iosim policies --family`, and
// `iosim sweep --set/--seeds`. Every binary runs in its own process (run_helpers.h).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

// Two applications, each 1e9 bytes of I/O and no work, capped at 1e9 B/s, on one 1e9 B/s resource (as in
// engine_sweep.cpp). Alone each would finish at 1 s: window [0, 1] s.
//   fcfs:      A gets the whole resource, B moves nothing by 1 s: MinYield = 0.
//   fairshare: 5e8 B/s each: yields 0.5 and 0.5, MinYield = 0.5.
const char *kTwoApps = R"({"platform": "platform.xml", "workload": {"applications": [
    {"name": "A", "profile": {"1": 1e9}, "io": 1e9},
    {"name": "B", "profile": {"1": 1e9}, "io": 1e9}]},
  "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "fcfs"}})";

struct CliDir {
  TempDir dir;
  std::string scenario;
  CliDir() {
    dir.write("platform.xml", tiny_platform_xml({1e9}, 4, 100e9));
    scenario = dir.write("base.json", kTwoApps);
  }
  Process iosim(const std::vector<std::string> &args) const { return run_iosim(args, dir.path(), dir.path()); }
};

double min_yield_of(const std::string &results_dir) {
  SimRun r;
  parse_outputs(results_dir, r);
  return r.metric("min_yield");
}

} // namespace

// Every subcommand answers -h and --help on standard output with its usage and exit code 0, before any other
// check (no scenario, campaign or kind needed).
TEST(engine_cli, HelpEverywhereExitsZero) {
  CliDir s;
  for (const char *cmd :
       {"run", "check", "policies", "platform", "generate", "sweep", "merge", "report", "compare", "whatif"})
    for (const char *flag : {"--help", "-h"}) {
      Process p = s.iosim({cmd, flag});
      EXPECT_EQ(p.exit_code, 0) << cmd << " " << flag << "\n" << p.err;
      EXPECT_NE(p.out.find("usage"), std::string::npos) << cmd << " " << flag << "\n" << p.out;
    }
  Process top = s.iosim({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("iosim sweep CAMPAIGN"), std::string::npos) << top.out;
}

// --out=DIR, --out DIR and -o DIR all put the run's outputs in DIR; the option may come before the scenario.
TEST(engine_cli, RunOutForms) {
  CliDir s;
  const std::vector<std::vector<std::string>> forms = {
      {"run", s.scenario, "--out=" + s.dir.file("eq")},
      {"run", s.scenario, "-o", s.dir.file("short")},
      {"run", "--out", s.dir.file("before"), s.scenario},
      {"run", s.scenario, "--set=sharing.policy=fairshare", "-o", s.dir.file("setq")}};
  for (const auto &args : forms) {
    Process p = s.iosim(args);
    ASSERT_EQ(p.exit_code, 0) << args[2] << "\n" << p.err;
  }
  for (const char *d : {"eq", "short", "before"}) {
    EXPECT_TRUE(file_exists(s.dir.file(std::string(d) + "/results.json"))) << d;
    EXPECT_NEAR(min_yield_of(s.dir.file(d)), 0.0, 1e-9) << d; // fcfs
  }
  EXPECT_NEAR(min_yield_of(s.dir.file("setq")), 0.5, 1e-9); // --set=... applied: fairshare
}

// --version, at the top level and after any subcommand, prints both versions and exits 0.
TEST(engine_cli, VersionShowsIosimAndSimGrid) {
  CliDir s;
  for (std::vector<std::string> args : {std::vector<std::string>{"--version"},
                                        {"run", "--version"},
                                        {"sweep", "--version"},
                                        {"platform", "--version"},
                                        {"generate", "--version"},
                                        {"policies", "--version"},
                                        {"merge", "--version"}}) {
    Process p = s.iosim(args);
    EXPECT_EQ(p.exit_code, 0) << args[0];
    EXPECT_NE(p.out.find("iosim " IOSIM_VERSION), std::string::npos) << args[0] << "\n" << p.out;
    EXPECT_NE(p.out.find("SimGrid 3."), std::string::npos) << args[0] << "\n" << p.out;
  }
}

// Unknown options and stray arguments exit 2 with the usage on stderr, for every subcommand.
TEST(engine_cli, UnknownOptionsExitTwoWithUsage) {
  CliDir s;
  for (std::vector<std::string> args : {std::vector<std::string>{"run", s.scenario, "--frobnicate"},
                                        {"check", s.scenario, "-x"},
                                        {"run", s.scenario, "extra.json"},
                                        {"policies", "--frobnicate"},
                                        {"sweep", "c.json", "--frobnicate"},
                                        {"merge", "d", "--frobnicate"},
                                        {"run", s.scenario, "--out"}}) {
    Process p = s.iosim(args);
    EXPECT_EQ(p.exit_code, 2) << args[0] << " " << args.back() << "\n" << p.err;
    EXPECT_NE(p.err.find("usage"), std::string::npos) << args[0] << " " << args.back() << "\n" << p.err;
  }
}

// A --cfg that would change a setting iosim fixes is refused (exit 2) naming the setting and why, before any output
// is written; in both spellings, for run, check and sweep.
TEST(engine_cli, FixedSimGridSettingsAreRefused) {
  CliDir s;
  struct Case {
    std::vector<std::string> args;
    std::string setting;
  };
  const std::vector<Case> cases = {
      {{"run", s.scenario, "--cfg=network/model:LV08", "-o", s.dir.file("o1")}, "network/model"},
      {{"run", s.scenario, "--cfg", "network/crosstraffic:1", "-o", s.dir.file("o2")}, "network/crosstraffic"},
      {{"check", s.scenario, "--cfg=contexts/stack_size:8192"}, "contexts/stack"},
      {{"sweep", "campaign.json", "--cfg=network/model:SMPI"}, "network/model"}};
  for (const auto &c : cases) {
    Process p = s.iosim(c.args);
    EXPECT_EQ(p.exit_code, 2) << c.setting << "\n" << p.err;
    EXPECT_NE(p.err.find(c.setting), std::string::npos) << p.err;
    EXPECT_NE(p.err.find("iosim fixes it to"), std::string::npos) << p.err;
  }
  EXPECT_NE(s.iosim(cases[0].args).err.find("CM02"), std::string::npos);
  EXPECT_FALSE(file_exists(s.dir.file("o1/results.json")));
  // a setting SimGrid does not know, and a malformed one: exit 2, never an abort inside SimGrid
  for (const char *bad : {"--cfg=no/such-setting:1", "--cfg=tracing", "--log=root.thres:loud", "--log=nonsense"}) {
    Process p = s.iosim({"run", s.scenario, bad, "-o", s.dir.file("o3")});
    EXPECT_EQ(p.exit_code, 2) << bad << "\n" << p.err;
    EXPECT_NE(p.err.find(bad), std::string::npos) << p.err;
  }
}

// SimGrid flags iosim does not fix reach SimGrid: --log=root.thres:critical silences SimGrid's logging and the run
// gives the same result; a --cfg SimGrid accepts runs.
TEST(engine_cli, SimGridFlagsAreAccepted) {
  CliDir s;
  Process p =
      s.iosim({"run", s.scenario, "--log=root.thres:critical", "--cfg=maxmin/precision:1e-9", "-o", s.dir.file("out")});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NEAR(min_yield_of(s.dir.file("out")), 0.0, 1e-9);
  Process c = s.iosim({"check", s.scenario, "--log", "iosim.thres:warning"});
  EXPECT_EQ(c.exit_code, 0) << c.err;
}

// `iosim policies` lists the five families; --family keeps one.
TEST(engine_cli, PoliciesFamilies) {
  CliDir s;
  Process all = s.iosim({"policies"});
  ASSERT_EQ(all.exit_code, 0);
  for (const char *f : {"allocation (", "placement (", "sharing (", "storage (", "striping ("})
    EXPECT_NE(all.out.find(f), std::string::npos) << f;
  for (const char *p : {"fairshare", "bpio", "best-bandwidth", "split", "requeue", "mckp"})
    EXPECT_NE(all.out.find(p), std::string::npos) << p;

  Process striping = s.iosim({"policies", "--family", "striping"});
  ASSERT_EQ(striping.exit_code, 0);
  EXPECT_NE(striping.out.find("bpio"), std::string::npos) << striping.out;
  EXPECT_NE(striping.out.find("lustre-default"), std::string::npos) << striping.out;
  EXPECT_NE(striping.out.find("TAPP-IO"), std::string::npos) << striping.out;
  EXPECT_EQ(striping.out.find("fairshare"), std::string::npos) << striping.out;
  EXPECT_EQ(striping.out.find("allocation ("), std::string::npos) << striping.out;

  Process storage = s.iosim({"policies", "--family=storage"});
  ASSERT_EQ(storage.exit_code, 0);
  EXPECT_NE(storage.out.find("round-robin"), std::string::npos);
  EXPECT_NE(storage.out.find("requeue"), std::string::npos);
  EXPECT_EQ(storage.out.find("bpio"), std::string::npos);

  Process bad = s.iosim({"policies", "--family", "scheduling"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("striping"), std::string::npos) << bad.err;
}

// `iosim sweep --seeds N --set key=value`: 2 policies x 3 seeds in the file; --seeds 1 leaves 2 points, and --set
// pins a field in every run as a column of runs.csv. Pinning the swept policy leaves 1 point, whose MinYield is the
// pinned policy's (fairshare: 0.5).
TEST(engine_cli, SweepSetAndSeeds) {
  CliDir s;
  std::string campaign = s.dir.write("campaign.json", R"({"name": "cli", "base": "base.json",
      "grid": {"sharing.policy": ["fcfs", "fairshare"]}, "seeds": {"from": 1, "count": 3}})");
  Process p = s.iosim({"sweep", campaign, "--seeds", "1", "--set", "allocation.n=1", "-o", s.dir.file("a")});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  CsvTable rows = parse_csv(read_text(s.dir.file("a/runs.csv")));
  ASSERT_EQ(rows.size(), 2u);
  for (auto &r : rows) {
    EXPECT_EQ(r["allocation.n"], "1");
    EXPECT_EQ(r["seed"], "1");
    EXPECT_EQ(r["status"], "complete");
  }

  Process q = s.iosim({"sweep", campaign, "--seeds=2", "--set=sharing.policy=fairshare", "--out=" + s.dir.file("b")});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  rows = parse_csv(read_text(s.dir.file("b/runs.csv")));
  ASSERT_EQ(rows.size(), 2u);
  for (size_t i = 0; i < rows.size(); i++) {
    EXPECT_EQ(rows[i]["sharing.policy"], "fairshare");
    EXPECT_EQ(rows[i]["seed"], std::to_string(i + 1));
    EXPECT_NEAR(std::stod(rows[i]["min_yield"]), 0.5, 1e-9);
  }

  // a bad --set or --seeds is bad input: exit 2, nothing run
  for (std::vector<std::string> bad :
       {std::vector<std::string>{"--set", "noequals"}, {"--set", "sharing.policy=nosuch"}, {"--seeds", "0"}}) {
    std::vector<std::string> args = {"sweep", campaign, "-o", s.dir.file("c")};
    args.insert(args.end(), bad.begin(), bad.end());
    Process r = s.iosim(args);
    EXPECT_EQ(r.exit_code, 2) << bad[1] << "\n" << r.err;
    EXPECT_FALSE(file_exists(s.dir.file("c/runs.csv"))) << bad[1];
  }
}
