// iosim engine tests — campaigns: `iosim sweep` (points, ids, runs.csv, failures recorded, bad campaigns rejected
// before anything runs, resume after an interruption or a crash), `iosim merge` of shards and the Slurm script.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace iosim_test;

namespace {

// Two applications, each 1e9 bytes of I/O and no work, capped at 1e9 B/s, on one 1e9 B/s resource. Alone, each
// would finish at t = 1 s, so the automatic window is [0, 1] s.
//   fcfs:      A (posted first) gets the whole resource and finishes at 1 s; B has moved nothing by then:
//              yields 1 and 0, MinYield = 0.
//   fairshare: 5e8 B/s each; at 1 s each has moved 5e8 bytes: yields 0.5 and 0.5, MinYield = 0.5.
const char *kTwoApps = R"({"workload": {"applications": [
    {"name": "A", "profile": {"1": 1e9}, "io": 1e9},
    {"name": "B", "profile": {"1": 1e9}, "io": 1e9}]},
  "allocation": {"policy": "fixed", "n": 1}})";

std::vector<std::string> list_dir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A campaign directory: the tiny platform, a base scenario and the campaign file.
struct Campaign {
  std::shared_ptr<TempDir> dir = std::make_shared<TempDir>();
  std::string path;
  Campaign(const std::string &campaign_json, const std::string &base_json = kTwoApps) {
    dir->write("platform.xml", tiny_platform_xml({1e9}, 4, 100e9));
    std::string base = base_json;
    if (base.find("\"platform\"") == std::string::npos) base.insert(1, "\"platform\": \"platform.xml\", ");
    dir->write("base.json", base);
    path = dir->write("campaign.json", campaign_json);
  }
  Process sweep(const std::string &out, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"sweep", path, "--out", dir->file(out), "--run-dirs"}; // these tests read them
    args.insert(args.end(), extra.begin(), extra.end());
    return run_iosim(args, dir->path());
  }
  CsvTable runs(const std::string &out) const { return parse_csv(read_text(dir->file(out + "/runs.csv"))); }
};

// runs.csv rows with the wall times removed (the only columns that differ between two runs of one campaign).
CsvTable without_wall(CsvTable t) {
  for (auto &row : t) {
    row.erase("wall_time_s");
    row.erase("sim_wall_s");
  }
  return t;
}

std::string header(const std::string &csv_path) {
  std::string text = read_text(csv_path);
  return text.substr(0, text.find('\n'));
}

// A workload slow enough to interrupt a sweep in the middle: about 0.5 s per run (and about 1 s for the smaller one
// under sanitizers, which slow the engine down some 30 times).
#ifdef IOSIM_SANITIZE
constexpr int kSlowApps = 30, kSlowIterations = 40;
#else
constexpr int kSlowApps = 120, kSlowIterations = 100;
#endif
std::string slow_base() {
  std::ostringstream o;
  o << R"({"platform": {"kind": "forwarding", "compute": 128, "ionodes": 4}, "workload": {"applications": [)";
  for (int j = 0; j < kSlowApps; j++)
    o << (j ? "," : "") << R"({"name": "a)" << j << R"(", "nodes": 1, "iterations": )" << kSlowIterations
      << R"(, "work": )" << 50 + j % 7 << R"(, "io": )" << 2e8 + 1e7 * (j % 5) << "}";
  o << "]}}";
  return o.str();
}

const char *kSlowCampaign =
    R"({"name": "slow", "base": "base.json", "grid": {"sharing.policy": ["fairshare", "maxmin"]}, "seeds": {"count": 3}})";

// Starts `iosim sweep` without waiting (its own process group, so a signal can reach it alone).
pid_t start_sweep(const Campaign &c, const std::string &out) {
  pid_t pid = fork();
  if (pid == 0) {
    std::string log = c.dir->file(out + ".log");
    freopen(log.c_str(), "a", stderr);
    freopen("/dev/null", "w", stdout);
    std::string o = c.dir->file(out);
    execl(IOSIM_BIN, "iosim", "sweep", c.path.c_str(), "--out", o.c_str(), "--jobs", "1", "--run-dirs",
          (char *)nullptr);
    _exit(127);
  }
  return pid;
}

// Waits until `n` runs are complete in out/runs (or the sweep ended); returns how many are.
size_t wait_for_runs(const std::string &runs_dir, size_t n, pid_t pid) {
  for (int i = 0; i < 6000; i++) {
    size_t k = list_dir(runs_dir).size();
    if (k >= n) return k;
    int st;
    if (waitpid(pid, &st, WNOHANG) == pid) return list_dir(runs_dir).size();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return list_dir(runs_dir).size();
}

} // namespace

// Every point runs once, in expansion order (grid axes, then seeds fastest), with the hand-computed MinYield of
// its policy; ids are stable across sweeps and distinct between points; the header lists the swept field.
TEST(engine_sweep, RunsEveryPointWithHandComputedMetrics) {
  Campaign c(R"({"name": "two", "base": "base.json",
                 "grid": {"sharing.policy": ["fcfs", "fairshare"]}, "seeds": {"from": 5, "count": 2}})");
  Process p = c.sweep("out", {"--jobs", "2"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  CsvTable rows = c.runs("out");
  ASSERT_EQ(rows.size(), 4u);
  const char *policy[] = {"fcfs", "fcfs", "fairshare", "fairshare"};
  const char *seed[] = {"5", "6", "5", "6"};
  const double min_yield[] = {0.0, 0.0, 0.5, 0.5};
  for (size_t i = 0; i < rows.size(); i++) {
    EXPECT_EQ(rows[i]["index"], std::to_string(i));
    EXPECT_EQ(rows[i]["sharing.policy"], policy[i]);
    EXPECT_EQ(rows[i]["seed"], seed[i]);
    EXPECT_EQ(rows[i]["status"], "complete");
    EXPECT_EQ(rows[i]["error"], "");
    EXPECT_LE(std::abs(std::stod(rows[i]["min_yield"]) - min_yield[i]), 1e-9) << rows[i]["min_yield"];
    EXPECT_GT(std::stod(rows[i]["wall_time_s"]), 0.0);
    EXPECT_EQ(rows[i]["run_id"].size(), 16u);
    EXPECT_TRUE(file_exists(c.dir->file("out/runs/" + rows[i]["run_id"] + "/results.json")));
  }
  EXPECT_EQ(header(c.dir->file("out/runs.csv")).rfind("run_id,index,sharing.policy,seed,status,wall_time_s,error,", 0),
            0u)
      << header(c.dir->file("out/runs.csv"));
  for (size_t i = 1; i < rows.size(); i++)
    EXPECT_NE(rows[i]["run_id"], rows[i - 1]["run_id"]);
  // a second sweep of the same campaign into another directory gives the same ids and the same numbers
  ASSERT_EQ(c.sweep("again").exit_code, 0);
  EXPECT_EQ(without_wall(c.runs("again")), without_wall(rows));
  // re-running into the same directory runs nothing
  Process again = c.sweep("out");
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.err.find("4 points, 0 to run"), std::string::npos) << again.err;
}

// A zip group varies its fields together: 2 zipped values x 2 grid values = 4 points, not 8.
TEST(engine_sweep, ZipGroupsVaryTogether) {
  Campaign c(R"({"base": "base.json", "grid": {"sharing.policy": ["fcfs", "fairshare"]},
                 "zip": [{"seed": [1, 2], "window.length_fraction": [1, 0.5]}]})");
  Process p = c.sweep("out");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  CsvTable rows = c.runs("out");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1]["sharing.policy"], "fcfs");
  EXPECT_EQ(rows[1]["seed"], "2");
  EXPECT_EQ(rows[1]["window.length_fraction"], "0.5");
  EXPECT_EQ(rows[2]["sharing.policy"], "fairshare");
  EXPECT_EQ(rows[2]["window.length_fraction"], "1");
}

// Bad campaigns exit 2 with the file and the field named, and nothing runs.
TEST(engine_sweep, BadCampaignsExitTwoBeforeAnyRun) {
  struct Case {
    std::string campaign, needle;
  } cases[] = {
      {R"({"base": "base.json", "grdi": {"seed": [1]}})", "grdi"},
      {R"({"base": "base.json", "grid": {"sharing.policy": []}})", "grid.sharing.policy"},
      {R"({"base": "base.json", "grid": {}})", "sweeps nothing"},
      {R"({"base": "base.json", "seeds": {"from": 1, "count": "ten"}})", "seeds.count"},
      {R"({"base": "base.json", "seeds": {"count": 2.5}})", "seeds.count"},
      {R"({"base": "base.json", "grid": {"sharing.polcy": ["fcfs"]}})", "sharing.polcy"},
      {R"({"base": "base.json", "grid": {"sharing.policy": ["fcfs", "nosuch"]}})", "point 1"},
      {R"({"base": "base.json", "grid": {"output.dir": ["x"]}})", "output.dir"},
      {R"({"base": "base.json", "grid": {"seed": [1, 1]}})", "same run"},
      {R"({"base": "nosuch.json", "grid": {"seed": [1]}})", "nosuch.json"},
      {R"({"base": "base.json", "zip": [{"seed": [1, 2], "sharing.policy": ["fcfs"]}]})", "same length"},
      {R"({"base": "base.json", "grid": {"seed": [1]}, "seeds": {"count": 2}})", "seeds"},
      {R"({"base": "base.json", "grid": {"platform": ["missing.xml"]}})", "missing.xml"},
  };
  for (const auto &k : cases) {
    Campaign c(k.campaign);
    Process p = c.sweep("out");
    EXPECT_EQ(p.exit_code, 2) << k.campaign << "\n" << p.err;
    EXPECT_NE(p.err.find(c.path), std::string::npos) << "the message does not name the campaign file:\n" << p.err;
    EXPECT_NE(p.err.find(k.needle), std::string::npos) << "'" << k.needle << "' not in:\n" << p.err;
    EXPECT_FALSE(file_exists(c.dir->file("out/runs"))) << "a run directory exists for " << k.campaign;
  }
  // control: the base and the grid the cases start from are fine
  Campaign ok(R"({"base": "base.json", "grid": {"sharing.policy": ["fcfs"]}})");
  EXPECT_EQ(ok.sweep("out").exit_code, 0);
}

// A run that fails (here a generated platform with fewer compute nodes than the workload needs) is recorded with
// its error; the other runs finish; the exit code says some failed. A generated platform is kept beside the run.
TEST(engine_sweep, FailedRunIsRecordedAndTheOthersFinish) {
  Campaign c(R"({"base": "base.json", "grid": {"platform.compute": [4, 1, 2]}})",
             R"({"platform": {"kind": "pfs-single", "pfs_bw": 1e9}, "workload": {"applications": [
                  {"name": "A", "nodes": 1, "profile": {"1": 1e9}, "io": 1e9},
                  {"name": "B", "nodes": 1, "profile": {"1": 1e9}, "io": 1e9}]}})");
  Process p = c.sweep("out");
  EXPECT_EQ(p.exit_code, 1) << p.err;
  CsvTable rows = c.runs("out");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["status"], "complete");
  EXPECT_EQ(rows[1]["status"], "failed");
  EXPECT_NE(rows[1]["error"].find("compute nodes"), std::string::npos) << rows[1]["error"];
  EXPECT_EQ(rows[1]["min_yield"], "");
  EXPECT_EQ(rows[2]["status"], "complete");
  // two 1e9-byte transfers sharing 1e9 B/s under fairshare end together at 2 s
  EXPECT_LE(std::abs(std::stod(rows[0]["makespan_s"]) - 2.0), 1e-9);
  std::string run0 = c.dir->file("out/runs/" + rows[0]["run_id"]);
  EXPECT_NE(read_text(run0 + "/platform.xml").find("id=\"c3\""), std::string::npos);
  // the run can be replayed from what it kept
  Process replay = run_iosim({"run", run0 + "/scenario.json", "--out", c.dir->file("replay")}, c.dir->path());
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  // a resumed sweep keeps the failure (deterministic) unless asked to retry it
  Process again = c.sweep("out");
  EXPECT_NE(again.err.find("0 to run"), std::string::npos) << again.err;
  Process retry = c.sweep("out", {"--retry-failed"});
  EXPECT_NE(retry.err.find("1 to run"), std::string::npos) << retry.err;
  EXPECT_EQ(without_wall(c.runs("out")), without_wall(rows));
}

// Ctrl-C in the middle: completed runs are kept, nothing looks complete (no runs.csv), the re-run finishes only
// the missing runs, and the final runs.csv equals an uninterrupted sweep's.
TEST(engine_sweep, InterruptedSweepResumesToTheSameResult) {
  Campaign c(kSlowCampaign, slow_base());
  ASSERT_EQ(c.sweep("whole", {"--jobs", "2"}).exit_code, 0);

  pid_t pid = start_sweep(c, "cut");
  size_t done = wait_for_runs(c.dir->file("cut/runs"), 2, pid);
  kill(pid, SIGINT);
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 130) << read_text(c.dir->file("cut.log"));
  EXPECT_FALSE(file_exists(c.dir->file("cut/runs.csv")));
  std::vector<std::string> kept = list_dir(c.dir->file("cut/runs"));
  ASSERT_GE(kept.size(), done);
  ASSERT_LT(kept.size(), 6u) << "the sweep finished before the interruption: make the runs slower";
  std::vector<std::string> kept_runs;
  for (const auto &id : kept)
    kept_runs.push_back(read_text(c.dir->file("cut/runs/" + id + "/run.json")));

  Process resumed = c.sweep("cut");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  std::string expect = "6 points, " + std::to_string(6 - kept.size()) + " to run";
  EXPECT_NE(resumed.err.find(expect), std::string::npos) << expect << " not in:\n" << resumed.err;
  for (size_t i = 0; i < kept.size(); i++) // kept runs were not run again
    EXPECT_EQ(read_text(c.dir->file("cut/runs/" + kept[i] + "/run.json")), kept_runs[i]);
  EXPECT_EQ(without_wall(c.runs("cut")), without_wall(c.runs("whole")));
  EXPECT_EQ(list_dir(c.dir->file("cut/runs")).size(), 6u);
}

// A crash of the runner (SIGKILL) leaves at most a temporary directory, which the re-run discards.
TEST(engine_sweep, CrashedSweepResumesToTheSameResult) {
  Campaign c(kSlowCampaign, slow_base());
  ASSERT_EQ(c.sweep("whole", {"--jobs", "2"}).exit_code, 0);
  pid_t pid = start_sweep(c, "crash");
  wait_for_runs(c.dir->file("crash/runs"), 1, pid);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  Process resumed = c.sweep("crash");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(without_wall(c.runs("crash")), without_wall(c.runs("whole")));
}

// Three shards (7 points: 3 + 2 + 2) merged give exactly the rows of one unsharded sweep; a missing shard shows as
// status "missing" and exit code 1; shards of another campaign are refused.
TEST(engine_sweep, ShardsPlusMergeEqualOneRun) {
  Campaign seven(R"({"base": "base.json", "grid": {"sharing.policy": ["fcfs", "fairshare", "maxmin"],
                     "window.length_fraction": [1, 0.5]}, "seeds": {"count": 1}})");
  Campaign odd(R"({"base": "base.json", "seeds": {"from": 1, "count": 7}})");
  ASSERT_EQ(odd.sweep("whole").exit_code, 0);
  for (int i = 1; i <= 3; i++) {
    Process p = odd.sweep("shard-" + std::to_string(i), {"--shard", std::to_string(i) + "/3"});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    CsvTable rows = odd.runs("shard-" + std::to_string(i));
    ASSERT_EQ(rows.size(), i == 1 ? 3u : 2u);
    for (auto &row : rows)
      EXPECT_EQ(std::stoi(row["index"]) % 3, i - 1);
  }
  Process m = run_iosim({"merge", odd.dir->file("shard-1"), odd.dir->file("shard-2"), odd.dir->file("shard-3"), "--out",
                         odd.dir->file("merged")},
                        odd.dir->path());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(without_wall(odd.runs("merged")), without_wall(odd.runs("whole")));
  EXPECT_EQ(header(odd.dir->file("merged/runs.csv")), header(odd.dir->file("whole/runs.csv")));
  EXPECT_TRUE(file_exists(odd.dir->file("merged/runs/" + odd.runs("whole")[0]["run_id"] + "/results.json")));

  Process part = run_iosim({"merge", odd.dir->file("shard-1"), "--out", odd.dir->file("part")}, odd.dir->path());
  EXPECT_EQ(part.exit_code, 1);
  CsvTable prow = odd.runs("part");
  ASSERT_EQ(prow.size(), 7u);
  EXPECT_EQ(prow[0]["status"], "complete");
  EXPECT_EQ(prow[1]["status"], "missing");

  ASSERT_EQ(seven.sweep("other").exit_code, 0);
  Process mixed = run_iosim({"merge", odd.dir->file("shard-1"), seven.dir->file("other")}, odd.dir->path());
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("another campaign"), std::string::npos) << mixed.err;
}

// The Slurm script: valid bash, one array task per shard with the right shard arithmetic, a merge job depending on
// the array; running its tasks and its merge step by hand gives the unsharded result.
TEST(engine_sweep, SlurmScriptRunsShardsAndMerge) {
  Campaign c(R"({"name": "slurmtest", "base": "base.json", "seeds": {"from": 1, "count": 5}})");
  Process e = c.sweep("out", {"--emit-slurm", "--shards", "3", "--jobs", "2"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::string script = c.dir->file("out/sweep.slurm");
  std::string text = read_text(script);
  EXPECT_NE(text.find("#SBATCH --array=1-3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#SBATCH --cpus-per-task=2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("SHARDS=3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("--shard \"$task/$SHARDS\""), std::string::npos) << text;
  EXPECT_EQ(std::system(("bash -n '" + script + "'").c_str()), 0);

  // submit mode with a stand-in sbatch that logs its arguments and answers job id 4242
  c.dir->write("bin/sbatch", "#!/bin/sh\necho \"$@\" >> \"" + c.dir->file("sbatch.log") + "\"\necho 4242\n");
  std::system(("chmod +x '" + c.dir->file("bin/sbatch") + "'").c_str());
  std::string path_env = "PATH='" + c.dir->file("bin") + "':\"$PATH\"";
  ASSERT_EQ(std::system((path_env + " bash '" + script + "' submit >/dev/null").c_str()), 0);
  std::string log = read_text(c.dir->file("sbatch.log"));
  EXPECT_NE(log.find("--parsable " + script), std::string::npos) << log;
  EXPECT_NE(log.find("--dependency=afterany:4242"), std::string::npos) << log;
  EXPECT_NE(log.find("merge"), std::string::npos) << log;

  for (int i = 1; i <= 3; i++)
    ASSERT_EQ(std::system(("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash '" + script + "' 2>/dev/null").c_str()),
              0);
  ASSERT_EQ(std::system(("bash '" + script + "' merge >/dev/null").c_str()), 0);
  ASSERT_EQ(c.sweep("whole").exit_code, 0);
  EXPECT_EQ(without_wall(c.runs("out")), without_wall(c.runs("whole")));
  EXPECT_EQ(c.runs("out").size(), 5u);
}

// --time, --partition, --account, --mem (as --opt=val and --opt val) and the campaign's "slurm" object become #SBATCH
// lines of the array job and of the merge job (the heredoc `submit` feeds sbatch); the command line wins.
TEST(engine_sweep, SlurmOptionsBecomeDirectivesOfBothJobs) {
  Campaign c(R"({"name": "opts", "base": "base.json", "seeds": {"count": 2},
                 "slurm": {"time": "1:00:00", "partition": "batch", "account": "proj"}})");
  Process e = c.sweep("out", {"--emit-slurm", "--shards", "2", "--jobs", "1", "--time=30", "--mem", "4G"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::string script = c.dir->file("out/sweep.slurm"), text = read_text(script);
  auto count = [](const std::string &hay, const std::string &needle) {
    int n = 0;
    for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
      n++;
    return n;
  };
  for (const char *line :
       {"#SBATCH --time=30\n", "#SBATCH --partition=batch\n", "#SBATCH --account=proj\n", "#SBATCH --mem=4G\n"})
    EXPECT_EQ(count(text, line), 2) << line << text;
  EXPECT_EQ(count(text, "1:00:00"), 0) << text;
  EXPECT_EQ(std::system(("bash -n '" + script + "'").c_str()), 0);

  // a stand-in sbatch: the array is submitted with the script as argument, the merge job's script comes on stdin
  c.dir->write("bin/sbatch", "#!/bin/sh\ncase \"$*\" in *sweep.slurm) ;; *) cat > '" + c.dir->file("merge.sh") +
                                 "' ;; esac\necho 4242\n");
  ASSERT_EQ(std::system(("chmod +x '" + c.dir->file("bin/sbatch") + "'").c_str()), 0);
  ASSERT_EQ(
      std::system(("PATH='" + c.dir->file("bin") + "':\"$PATH\" bash '" + script + "' submit >/dev/null").c_str()), 0);
  std::string merge = read_text(c.dir->file("merge.sh"));
  EXPECT_EQ(merge.rfind("#!/bin/bash\n#SBATCH --time=30\n#SBATCH --partition=batch\n#SBATCH --account=proj\n"
                        "#SBATCH --mem=4G\nexec bash ",
                        0),
            0u)
      << merge;
  for (int i = 1; i <= 2; i++)
    ASSERT_EQ(std::system(("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash '" + script + "' 2>/dev/null").c_str()),
              0);
  ASSERT_EQ(std::system(("bash '" + c.dir->file("merge.sh") + "' >/dev/null").c_str()), 0);
  EXPECT_EQ(c.runs("out").size(), 2u);
}

// Bad Slurm options: exit 2 before anything is written, naming the value and the expected form; unknown keys and
// non-string values of the campaign's "slurm" object are refused like other unknown campaign fields.
TEST(engine_sweep, SlurmOptionsChecked) {
  Campaign c(R"({"name": "bad", "base": "base.json", "seeds": {"count": 2}})");
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case &k : std::vector<Case>{{{"--time", "1h"}, "'1h' is not a Slurm time limit"},
                                         {{"--time=1:2:3:4"}, "HOURS:MINUTES:SECONDS"},
                                         {{"--time=3-"}, "DAYS-HOURS"},
                                         {{"--mem=4GB"}, "'4GB' is not a memory size"},
                                         {{"--mem", "-1"}, "megabytes"},
                                         {{"--partition=a,,b"}, "partition name"},
                                         {{"--partition", "a;touch x"}, "partition name"},
                                         {{"--account=a b"}, "'a b' is not an account name"},
                                         {{"--account="}, "account name"}}) {
    std::vector<std::string> args = {"--emit-slurm"};
    args.insert(args.end(), k.args.begin(), k.args.end());
    Process p = c.sweep("out", args);
    EXPECT_EQ(p.exit_code, 2) << k.args[0];
    EXPECT_NE(p.err.find(k.says), std::string::npos) << p.err;
    EXPECT_FALSE(file_exists(c.dir->file("out/sweep.slurm")));
  }
  for (const char *ok : {"--time=90", "--time=5:30", "--time=2-12", "--time=2-12:30", "--time=2-12:30:00",
                         "--time=UNLIMITED", "--mem=0", "--mem=512", "--mem=16g", "--partition=a.b,c_d-1"}) {
    Process p = c.sweep("ok", {"--emit-slurm", ok});
    EXPECT_EQ(p.exit_code, 0) << ok << p.err;
  }
  Process no_emit = c.sweep("run", {"--partition", "batch"});
  EXPECT_EQ(no_emit.exit_code, 2);
  EXPECT_NE(no_emit.err.find("--emit-slurm"), std::string::npos) << no_emit.err;
  EXPECT_FALSE(file_exists(c.dir->file("run")));

  for (const Case &k :
       std::vector<Case>{{{R"({"tme": "10"})"}, "slurm: unknown field 'tme'; valid fields are: time, partition"},
                         {{R"({"mem": 4096})"}, "slurm.mem: is 4096 (a number): give a string"},
                         {{R"({"time": "soon"})"}, "slurm.time: 'soon' is not a Slurm time limit"},
                         {{R"(["1:00:00"])"}, "slurm: is [\"1:00:00\"] (an array): give an object"}}) {
    Campaign b(R"({"name": "bad", "base": "base.json", "seeds": {"count": 2}, "slurm": )" + k.args[0] + "}");
    Process p = b.sweep("out", {"--emit-slurm"});
    EXPECT_EQ(p.exit_code, 2) << k.args[0];
    EXPECT_NE(p.err.find(k.says), std::string::npos) << p.err;
    EXPECT_EQ(b.sweep("out").exit_code, 2) << "a plain sweep reads the same campaign";
  }
}

// The script's paths are absolute though the campaign, the output directory and IOSIM_DATA_DIR were given relative:
// a task started from another directory with the same relative IOSIM_DATA_DIR still finds the platform it names.
TEST(engine_sweep, SlurmScriptPathsAbsolute) {
  Campaign c(R"({"name": "abs", "base": "data-base.json", "seeds": {"count": 2}})");
  c.dir->write("data/platform.xml", read_text(c.dir->file("platform.xml")));
  std::string base = read_text(c.dir->file("base.json"));
  base.replace(base.find("\"platform.xml\""), 14, "\"${IOSIM_DATA_DIR}/platform.xml\"");
  c.dir->write("data-base.json", base);
  ASSERT_EQ(setenv("IOSIM_DATA_DIR", "data", 1), 0);
  Process e = run_iosim({"sweep", "campaign.json", "--emit-slurm", "--shards", "1", "--jobs", "1", "--out", "o"},
                        c.dir->path(), c.dir->path());
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::string text = read_text(c.dir->file("o/sweep.slurm"));
  char *real = realpath(c.dir->path().c_str(), nullptr);
  ASSERT_NE(real, nullptr);
  std::string dir = real;
  free(real);
  EXPECT_NE(text.find("\nexport IOSIM_DATA_DIR='" + dir + "/data'\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nCAMPAIGN='" + dir + "/campaign.json'\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nOUT='" + dir + "/o'\n"), std::string::npos) << text;
  int st =
      std::system(("cd / && SLURM_ARRAY_TASK_ID=1 bash '" + c.dir->file("o/sweep.slurm") + "' 2>/dev/null").c_str());
  EXPECT_EQ(st, 0);
  ASSERT_EQ(std::system(("cd / && bash '" + c.dir->file("o/sweep.slurm") + "' merge >/dev/null").c_str()), 0);
  CsvTable rows = c.runs("o");
  ASSERT_EQ(rows.size(), 2u);
  for (auto &row : rows)
    EXPECT_EQ(row["status"], "complete") << row["error"];
  unsetenv("IOSIM_DATA_DIR");
}

// Merging with a shard directory deleted (a task that failed before its sweep started, or never ran) and a run of
// another shard lost: the rest is merged, the points of the deleted shard (7 points in 3 shards: shard 2 holds
// indices 1 and 4) and the lost run are "missing", exit 1; the Slurm script's merge step does the same. With no
// shard left, exit 2.
TEST(engine_sweep, MergeToleratesMissingShards) {
  Campaign c(R"({"name": "holes", "base": "base.json", "seeds": {"from": 1, "count": 7}})");
  ASSERT_EQ(c.sweep("whole").exit_code, 0);
  ASSERT_EQ(c.sweep("out", {"--emit-slurm", "--shards", "3", "--jobs", "1"}).exit_code, 0);
  std::string script = c.dir->file("out/sweep.slurm");
  for (int i = 1; i <= 3; i++)
    ASSERT_EQ(std::system(("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash '" + script + "' 2>/dev/null").c_str()),
              0);
  ASSERT_EQ(std::system(("rm -rf '" + c.dir->file("out/shard-2") + "'").c_str()), 0);
  CsvTable whole = without_wall(c.runs("whole"));
  ASSERT_EQ(whole.size(), 7u);
  std::string lost = whole[5]["run_id"]; // index 5: shard 3
  ASSERT_EQ(std::system(("rm -rf '" + c.dir->file("out/shard-3/runs/" + lost) + "'").c_str()), 0);
  sqlite3 *db = nullptr; // the run lost from the shard's database too (its runs row: what makes a run recorded)
  ASSERT_EQ(sqlite3_open(c.dir->file("out/shard-3/campaign.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, ("DELETE FROM runs WHERE run_id = '" + lost + "'").c_str(), nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);

  Process m = run_iosim({"merge", c.dir->file("out/shard-1"), c.dir->file("out/shard-2"), c.dir->file("out/shard-3"),
                         "--out", c.dir->file("merged")},
                        c.dir->path());
  EXPECT_EQ(m.exit_code, 1) << m.err;
  EXPECT_NE(m.err.find(c.dir->file("out/shard-2") + "/sweep.json: missing"), std::string::npos) << m.err;
  EXPECT_NE(m.out.find("4 complete, 0 failed, 3 missing"), std::string::npos) << m.out;
  CsvTable merged = without_wall(c.runs("merged"));
  ASSERT_EQ(merged.size(), 7u);
  for (int i = 0; i < 7; i++) {
    bool missing = i == 1 || i == 4 || i == 5;
    EXPECT_EQ(merged[i]["run_id"], whole[i]["run_id"]);
    EXPECT_EQ(merged[i]["status"], missing ? "missing" : "complete") << i;
    EXPECT_EQ(merged[i]["min_yield"], missing ? "" : whole[i]["min_yield"]) << i;
    if (!missing) {
      EXPECT_EQ(merged[i], whole[i]) << i;
    }
  }

  EXPECT_EQ(std::system(("bash '" + script + "' merge >/dev/null 2>&1").c_str()), 1 << 8);
  CsvTable via_script = without_wall(c.runs("out"));
  EXPECT_EQ(via_script, merged);

  Process none = run_iosim({"merge", c.dir->file("out/shard-2"), c.dir->file("nowhere"), "--out", c.dir->file("m2")},
                           c.dir->path());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("none of the 2 directories holds a sweep.json"), std::string::npos) << none.err;
}

// `iosim report` on a finished sweep: a Markdown report embedding PNG figures (the figures themselves are tested in
// test/analysis), the Gantt chart of a run with events.csv among them.
TEST(engine_sweep, ReportOnASweep) {
  Campaign c(R"({"name": "rep", "base": "base.json", "set": {"output.events": true},
                 "grid": {"sharing.policy": ["fcfs", "fairshare"], "window.length_fraction": [1, 0.5]},
                 "seeds": {"count": 2}})");
  ASSERT_EQ(c.sweep("out").exit_code, 0);
  Process p = run_iosim({"report", c.dir->file("out")}, c.dir->path());
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  std::string md = read_text(c.dir->file("out/report/report.md"));
  EXPECT_NE(md.find("min_yield"), std::string::npos) << md;
  std::vector<std::string> pngs;
  for (const auto &f : list_dir(c.dir->file("out/report")))
    if (f.size() > 4 && f.substr(f.size() - 4) == ".png") pngs.push_back(f);
  EXPECT_GE(pngs.size(), 4u);
  bool gantt = false;
  for (const auto &f : pngs) {
    EXPECT_NE(md.find(f), std::string::npos) << f << " is not embedded in report.md";
    gantt |= f.rfind("gantt", 0) == 0;
  }
  EXPECT_TRUE(gantt);
  Process missing = run_iosim({"report", c.dir->file("nothing-here")}, c.dir->path());
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
}
