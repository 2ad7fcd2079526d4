// iosim engine tests — streams that keep going (workload.skip_bad, `--skip-bad`; docs/scenario.md): a job that cannot
// run on the platform (more compute nodes than it has, more I/O resources than its pool) is refused with the flag
// named, or skipped with its name and reason, counted in the summary and listed in results.json, and the others run
// as they would without it. Full job names in the summary.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

// The Darshan sample logs ($IOSIM_DATA_DIR/darshan-logs, else ../shared/datasets beside the source).
std::string logs_dir() {
  const char *env = std::getenv("IOSIM_DATA_DIR");
  std::string dir = env != nullptr && env[0] != '\0' ? env : std::string(IOSIM_SOURCE_DIR) + "/../shared/datasets";
  setenv("IOSIM_DATA_DIR", dir.c_str(), 1);
  return dir + "/darshan-logs";
}

const char *kTwo = R"({"platform": {"kind": "pfs-single", "compute": 4, "nic_bw": "100GBps", "pfs_bw": "1GBps"},
  "workload": {"applications": [
    {"name": "a-job-whose-name-is-longer-than-sixteen", "nodes": 1, "iterations": 1, "work": "5s", "io": "10GB"},
    {"name": "big", "nodes": 8, "iterations": 1, "work": "5s", "io": "10GB"}]},
  "sharing": {"policy": "fairshare"}})";

} // namespace

TEST(EngineSkipBad, InlineJobThatCannotFitIsRefusedNamingTheFlagOrSkipped) {
  // System: a pfs-single platform of 4 compute nodes and a 1 GB/s PFS; `big` asks for 8 nodes, the other job
  // (1 node) works 5 s then writes 10 GB.
  // Expectations: without the flag exit 2, the message naming big, "needs 8 compute nodes but the platform has 4"
  // and the fix --skip-bad; with --skip-bad exit 0: the other job alone writes 10 GB / 1 GB/s = 10 s, ends at 15 s;
  // results.json "skipped" = [{big, "needs 8 compute nodes but the platform has 4: it could never start"}]; standard
  // error lists it ("iosim: skipped: ...big..."); the summary counts it and prints the long name in full.
  SimRun no = run_scenario(kTwo);
  EXPECT_EQ(no.proc.exit_code, 2) << no.describe();
  EXPECT_NE(no.proc.err.find("application 'big': needs 8 compute nodes but the platform has 4"), std::string::npos)
      << no.proc.err;
  EXPECT_NE(no.proc.err.find("--skip-bad"), std::string::npos) << no.proc.err;
  SimRun yes = run_scenario(kTwo, "", options("run", {"workload.skip_bad=true"}));
  ASSERT_EQ(yes.proc.exit_code, 0) << yes.describe();
  ASSERT_EQ(yes.apps.size(), 1u);
  EXPECT_REL(yes.app("a-job-whose-name-is-longer-than-sixteen").io_time, 10.0, 1e-12);
  EXPECT_REL(yes.app("a-job-whose-name-is-longer-than-sixteen").end, 15.0, 1e-12);
  const cJSON *sk = yes.json("skipped");
  ASSERT_TRUE(cJSON_IsArray(sk)) << yes.describe();
  ASSERT_EQ(cJSON_GetArraySize(sk), 1);
  EXPECT_STREQ(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 0), "name")->valuestring, "big");
  EXPECT_STREQ(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 0), "reason")->valuestring,
               "needs 8 compute nodes but the platform has 4: it could never start");
  EXPECT_NE(yes.proc.err.find("iosim: skipped: "), std::string::npos) << yes.proc.err;
  EXPECT_NE(yes.proc.out.find("skipped 1 job(s) that could not run"), std::string::npos) << yes.proc.out;
  EXPECT_NE(yes.proc.out.find("\na-job-whose-name-is-longer-than-sixteen "), std::string::npos) << yes.proc.out;
  // every job skipped: nothing left to run, exit 2 saying so
  SimRun none = run_scenario(kTwo, "", options("run", {"workload.skip_bad=true", "workload.only=big"}));
  EXPECT_EQ(none.proc.exit_code, 2) << none.describe();
  EXPECT_NE(none.proc.err.find("every application was skipped (1, each listed above)"), std::string::npos)
      << none.proc.err;
}

TEST(EngineSkipBad, DarshanStreamRunsTheRestAndNamesTheTooBigJobs) {
  // System: the six Darshan sample logs as a stream (as recorded, years apart) on a generated oss-ost platform of 32
  // compute nodes; sample and sample-badost (2048 processes: 64 nodes at 32 per node) cannot start there.
  // Expectations: without the flag exit 2 naming the job and --skip-bad; with --skip-bad (iosim run's flag) exit 0,
  // 4 jobs in apps.csv, both big jobs in results.json "skipped" with "needs 64 compute nodes but the platform has
  // 32", and each remaining job's I/O time equal to a run of those 4 logs alone (never concurrent with the skipped
  // ones: nothing else changes); workload.darshan.skip_bad (the Darshan option) skips them too.
  std::string dir = logs_dir();
  std::string plat = R"("platform": {"kind": "oss-ost", "compute": 32}, "queue": {"enabled": true}, )";
  std::string all = "{" + plat + R"("workload": {"darshan": ")" + dir + R"("}})";
  SimRun no = run_scenario(all);
  EXPECT_EQ(no.proc.exit_code, 2) << no.describe();
  EXPECT_NE(no.proc.err.find("needs 64 compute nodes but the platform has 32"), std::string::npos) << no.proc.err;
  EXPECT_NE(no.proc.err.find("--skip-bad"), std::string::npos) << no.proc.err;
  TempDir scratch;
  std::string path = scratch.write("s.json", all);
  Process p = run_iosim({"run", path, "--skip-bad", "--out", scratch.file("out")}, scratch.path());
  ASSERT_EQ(p.exit_code, 0) << p.err;
  SimRun out;
  parse_outputs(scratch.file("out"), out);
  ASSERT_EQ(out.apps.size(), 4u);
  const cJSON *sk = out.json("skipped");
  ASSERT_TRUE(cJSON_IsArray(sk));
  ASSERT_EQ(cJSON_GetArraySize(sk), 2);
  std::vector<std::string> names;
  for (int k = 0; k < 2; k++) {
    names.push_back(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, k), "name")->valuestring);
    EXPECT_STREQ(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, k), "reason")->valuestring,
                 "needs 64 compute nodes but the platform has 32: it could never start");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"sample-badost", "sample"}));
  std::string four = "{" + plat + R"("workload": {"darshan": [")" + dir + R"(/noposix.darshan", ")" + dir +
                     R"(/noposixopens.darshan", ")" + dir + R"(/sample-dxt-simple.darshan", ")" + dir +
                     R"(/sample-goodost.darshan"]}})";
  SimRun alone = run_scenario(four);
  ASSERT_EQ(alone.proc.exit_code, 0) << alone.describe();
  for (const char *job : {"noposix", "noposixopens", "sample-dxt-simple", "sample-goodost"})
    EXPECT_REL(out.app(job).io_time, alone.app(job).io_time, 1e-6) << job;
  std::string opt = "{" + plat + R"("workload": {"darshan": {"logs": ")" + dir + R"(", "skip_bad": true}}})";
  SimRun own = run_scenario(opt);
  ASSERT_EQ(own.proc.exit_code, 0) << own.describe();
  EXPECT_EQ(own.apps.size(), 4u);
}
