// iosim engine tests — campaigns under faults and hostile names (issue 13): the Slurm script quotes every name and
// path (checked by running it through bash), a campaign name that is not one safe path component is rejected, `merge`
// respects a live sweep's lock, `--out FILE` says it is not a directory, runs die with a sweep killed by SIGKILL, and
// a run that failed on a transient system error (here a file size limit) is run again on resume.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace iosim_test;

namespace {

const char *kTwoApps = R"({"platform": "platform.xml", "workload": {"applications": [
    {"name": "A", "profile": {"1": 1e9}, "io": 1e9},
    {"name": "B", "profile": {"1": 1e9}, "io": 1e9}]},
  "allocation": {"policy": "fixed", "n": 1}})";

// A campaign directory: the tiny platform, a base scenario and the campaign file.
struct Dir {
  std::shared_ptr<TempDir> dir = std::make_shared<TempDir>();
  std::string campaign;
  explicit Dir(const std::string &campaign_json, const std::string &base = kTwoApps) {
    dir->write("platform.xml", tiny_platform_xml({1e9}, 4, 100e9));
    dir->write("base.json", base);
    campaign = dir->write("campaign.json", campaign_json);
  }
  Process iosim(const std::vector<std::string> &args) const { return run_iosim(args, dir->path(), dir->path()); }
};

bool contains(const std::string &hay, const std::string &needle) {
  return hay.find(needle) != std::string::npos;
}

int sh(const std::string &cmd) {
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// `s` as one single-quoted shell word.
std::string q(const std::string &s) {
  std::string o = "'";
  for (char c : s)
    o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

// The pids whose parent is `ppid` (from /proc).
std::vector<pid_t> children_of(pid_t ppid) {
  std::vector<pid_t> kids;
  DIR *d = opendir("/proc");
  for (dirent *e; d != nullptr && (e = readdir(d)) != nullptr;) {
    pid_t pid = (pid_t)atoi(e->d_name);
    if (pid <= 0) continue;
    std::string stat = read_text("/proc/" + std::string(e->d_name) + "/stat");
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state;
    pid_t parent;
    rest >> state >> parent;
    if (parent == ppid) kids.push_back(pid);
  }
  if (d != nullptr) closedir(d);
  return kids;
}

// Whether `pid` is gone (or a zombie waiting for a reaper that is not iosim).
bool gone(pid_t pid) {
  std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return true;
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z';
}

} // namespace

// An output path and a campaign path with quotes, spaces and command substitutions (campaign names are restricted to
// [A-Za-z0-9._-] by the campaign reader; the sweep checks them again): the script parses, `submit` runs nothing but
// sbatch (a stand-in logging its arguments), a task and the merge run under bash and write where they should, and no
// substitution ever runs.
TEST(engine_sweep_faults, SlurmScriptQuotesEverything) {
  Dir c(R"({"name": "x-y", "base": "base.json", "seeds": {"from": 1, "count": 2}})");
  c.campaign = c.dir->write("camp'aign $(touch PWNED3).json", read_text(c.campaign));
  std::string out = c.dir->file("o'ut $(touch PWNED) `touch PWNED2` dir");
  Process e = c.iosim({"sweep", c.campaign, "--out", out, "--emit-slurm", "--shards", "1", "--jobs", "1"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::string script = out + "/sweep.slurm";
  std::string text = read_text(script);
  EXPECT_EQ(sh("bash -n " + q(script)), 0) << text;
  EXPECT_TRUE(contains(text, "#SBATCH --job-name=iosim-x-y\n")) << text;

  c.dir->write("bin/sbatch", "#!/bin/sh\nfor a in \"$@\"; do echo \"[$a]\"; done >> " + q(c.dir->file("sbatch.log")) +
                                 "\necho 4242\n");
  ASSERT_EQ(sh("chmod +x " + q(c.dir->file("bin/sbatch"))), 0);
  std::string env = "cd " + q(c.dir->path()) + " && PATH=" + q(c.dir->file("bin")) + ":\"$PATH\" ";
  ASSERT_EQ(sh(env + "bash " + q(script) + " submit >/dev/null"), 0);
  std::string log = read_text(c.dir->file("sbatch.log"));
  EXPECT_TRUE(contains(log, "[--output=" + out + "/slurm-%A_%a.out]\n[--parsable]\n[" + script + "]")) << log;
  EXPECT_TRUE(contains(log, "[--dependency=afterany:4242]")) << log;

  ASSERT_EQ(sh(env + "SLURM_ARRAY_TASK_ID=1 bash " + q(script) + " >/dev/null 2>&1"), 0);
  EXPECT_TRUE(file_exists(out + "/shard-1/runs.csv"));
  ASSERT_EQ(sh(env + "bash " + q(script) + " merge >/dev/null 2>&1"), 0);
  EXPECT_EQ(parse_csv(read_text(out + "/runs.csv")).size(), 2u);
  EXPECT_FALSE(file_exists(c.dir->file("PWNED")));
  EXPECT_FALSE(file_exists(c.dir->file("PWNED2")));
  EXPECT_FALSE(file_exists(c.dir->file("PWNED3")));
  EXPECT_FALSE(file_exists(out + "/PWNED"));
}

// A name that is not one safe path component: exit 2 before anything is written (a campaign named ".." used to
// write runs/ and runs.csv into the current directory).
TEST(engine_sweep_faults, UnsafeCampaignNameRejected) {
  for (const char *name : {"..", ".", "a/b", "", "-rf", "tab\there"}) {
    std::string json = std::string(R"({"name": ")") + (std::string(name) == "tab\there" ? "tab\\there" : name) +
                       R"(", "base": "base.json", "seeds": {"count": 1}})";
    Dir c(json);
    Process p = c.iosim({"sweep", c.campaign});
    EXPECT_EQ(p.exit_code, 2) << name << ": " << p.err;
    EXPECT_TRUE(contains(p.err, c.campaign + ": name: ")) << p.err;
    EXPECT_FALSE(file_exists(c.dir->file("runs"))) << name;
    EXPECT_FALSE(file_exists(c.dir->file("runs.csv"))) << name;
    EXPECT_FALSE(file_exists(c.dir->file("results"))) << name;
  }
  Dir ok(R"({"name": "fine-name_1.0", "base": "base.json", "seeds": {"count": 1}})");
  Process p = ok.iosim({"sweep", ok.campaign, "--jobs", "1"});
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(file_exists(ok.dir->file("results/fine-name_1.0/runs.csv")));
}

TEST(engine_sweep_faults, OutThatIsAFile) {
  Dir c(R"({"name": "t", "base": "base.json", "seeds": {"count": 1}})");
  ASSERT_EQ(c.iosim({"sweep", c.campaign, "--out", c.dir->file("done"), "--jobs", "1"}).exit_code, 0);
  c.dir->write("afile", "x\n");
  for (const char *cmd : {"sweep", "merge"}) {
    Process p = std::string(cmd) == "sweep" ? c.iosim({"sweep", c.campaign, "--out", c.dir->file("afile")})
                                            : c.iosim({"merge", c.dir->file("done"), "--out", c.dir->file("afile")});
    EXPECT_EQ(p.exit_code, 2) << p.err;
    EXPECT_TRUE(contains(p.err, "names a file, not a directory")) << cmd << ": " << p.err;
    EXPECT_FALSE(contains(p.err, "another")) << p.err;
  }
  EXPECT_EQ(read_text(c.dir->file("afile")), "x\n");
}

// While a sweep holds DIR's lock, `merge --out DIR` exits 2 and leaves DIR's runs.csv alone; once free, it merges.
TEST(engine_sweep_faults, MergeRespectsTheSweepLock) {
  Dir c(R"({"name": "t", "base": "base.json", "seeds": {"count": 2}})");
  ASSERT_EQ(c.iosim({"sweep", c.campaign, "--out", c.dir->file("done"), "--jobs", "1"}).exit_code, 0);
  std::string live = c.dir->file("live");
  c.dir->write("live/runs.csv", "being written\n");
  int fd = open((live + "/.lock").c_str(), O_RDWR | O_CREAT, 0666);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  Process p = c.iosim({"merge", c.dir->file("done"), "--out", live});
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_TRUE(contains(p.err, "an iosim sweep is running in this directory")) << p.err;
  EXPECT_EQ(read_text(live + "/runs.csv"), "being written\n");
  close(fd);
  Process again = c.iosim({"merge", c.dir->file("done"), "--out", live});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(parse_csv(read_text(live + "/runs.csv")).size(), 2u);
}

// kill -9 of a sweep: its runs die too (they used to run on as orphans).
TEST(engine_sweep_faults, RunsDieWithASweepKilledBySigkill) {
  std::ostringstream base;
  base << R"({"platform": {"kind": "forwarding", "compute": 128, "ionodes": 4}, "workload": {"applications": [)";
  for (int j = 0; j < 120; j++)
    base << (j ? "," : "") << R"({"name": "a)" << j << R"(", "nodes": 1, "iterations": 5000, "work": )" << 50 + j % 7
         << R"(, "io": )" << 2e8 + 1e7 * (j % 5) << "}";
  base << "]}}";
  Dir c(R"({"name": "slow", "base": "base.json", "seeds": {"count": 4}})", base.str());
  pid_t sweep = fork();
  if (sweep == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    std::string out = c.dir->file("out");
    execl(IOSIM_BIN, "iosim", "sweep", c.campaign.c_str(), "--out", out.c_str(), "--jobs", "2", (char *)nullptr);
    _exit(127);
  }
  std::vector<pid_t> runs;
  for (int i = 0; i < 1000 && runs.size() < 2; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    runs = children_of(sweep);
  }
  ASSERT_FALSE(runs.empty()) << "the sweep started no run";
  kill(sweep, SIGKILL);
  waitpid(sweep, nullptr, 0);
  for (pid_t r : runs) {
    bool dead = false;
    for (int i = 0; i < 200 && !dead; i++) { // 2 s; a run lasts much longer
      dead = gone(r);
      if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(dead) << "run " << r << " outlived its sweep";
    if (!dead) kill(r, SIGKILL);
  }
}

// Under a 256 KiB file size limit (SIGXFSZ ignored: writes fail with EFBIG) each run fails writing its events.csv
// (3,000 iterations of two applications: about 0.5 MB); it is recorded as failed with "transient": true, and the
// next sweep runs it again (a permanent failure is not). The limit leaves room for the sweep's own files (its
// database: a few pages per failed run).
TEST(engine_sweep_faults, TransientFailureRerunOnResume) {
  Dir c(R"({"name": "t", "base": "base.json", "seeds": {"count": 2}})",
        R"({"platform": "platform.xml", "workload": {"applications": [
    {"name": "A", "profile": {"1": 1e9}, "io": 1e6, "work": 1, "iterations": 3000},
    {"name": "B", "profile": {"1": 1e9}, "io": 1e6, "work": 1, "iterations": 3000}]},
  "allocation": {"policy": "fixed", "n": 1}, "output": {"events": true}})");
  std::string out = c.dir->file("out");
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {256 << 10, 256 << 10};
    setrlimit(RLIMIT_FSIZE, &rl);
    execl(IOSIM_BIN, "iosim", "sweep", c.campaign.c_str(), "--out", out.c_str(), "--jobs", "1", "--run-dirs",
          (char *)nullptr);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 1);
  CsvTable first = parse_csv(read_text(out + "/runs.csv"));
  ASSERT_EQ(first.size(), 2u);
  for (auto &row : first) {
    EXPECT_EQ(row["status"], "failed");
    EXPECT_TRUE(contains(row["error"], "File too large")) << row["error"];
    std::string run = read_text(out + "/runs/" + row["run_id"] + "/run.json");
    EXPECT_TRUE(contains(run, "\"transient\":\ttrue")) << run;
  }
  Process again = c.iosim({"sweep", c.campaign, "--out", out, "--jobs", "1"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(contains(again.err, "2 points, 2 to run")) << again.err;
  for (auto &row : parse_csv(read_text(out + "/runs.csv")))
    EXPECT_EQ(row["status"], "complete");
}

// A permanent failure (a bad platform: exit 2) stays failed on resume without --retry-failed.
TEST(engine_sweep_faults, PermanentFailureIsNotRerun) {
  std::string base = kTwoApps;
  base.replace(base.find("platform.xml"), 12, "bad.xml");
  Dir c(R"({"name": "t", "base": "base.json", "seeds": {"count": 1}})", base);
  c.dir->write("bad.xml", read_text(std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/platforms-bad/duplicate-link.xml"));
  std::string out = c.dir->file("out");
  Process first = c.iosim({"sweep", c.campaign, "--out", out, "--jobs", "1"});
  EXPECT_EQ(first.exit_code, 1) << first.err;
  CsvTable rows = parse_csv(read_text(out + "/runs.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(contains(rows[0]["error"], "declared several times")) << rows[0]["error"];
  EXPECT_FALSE(contains(read_text(out + "/runs/" + rows[0]["run_id"] + "/run.json"), "transient"));
  Process again = c.iosim({"sweep", c.campaign, "--out", out, "--jobs", "1"});
  EXPECT_TRUE(contains(again.err, "1 points, 0 to run")) << again.err;
}
