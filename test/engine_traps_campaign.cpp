// iosim engine tests — traps of a researcher's campaign (issue 22): the inputs and datasets of every point are
// checked before the first run (exit 2, nothing run), and a sweep with failed runs says how to run them again
// (--retry-failed), also when re-run without it. Each command is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

void expect_all(const std::string &text, const std::vector<std::string> &needles) {
  for (const std::string &n : needles)
    EXPECT_NE(text.find(n), std::string::npos) << "lacks '" << n << "': " << text;
}

// IOSIM_DATA_DIR set for the commands of one test, restored after.
struct DataDir {
  std::string old;
  bool had;
  explicit DataDir(const std::string &dir) {
    const char *v = std::getenv("IOSIM_DATA_DIR");
    had = v != nullptr;
    if (had) old = v;
    setenv("IOSIM_DATA_DIR", dir.c_str(), 1);
  }
  ~DataDir() {
    if (had)
      setenv("IOSIM_DATA_DIR", old.c_str(), 1);
    else
      unsetenv("IOSIM_DATA_DIR");
  }
};

} // namespace

// System: a campaign of 2 sharing policies x 3 seeds over the rr9549 generator, whose default profiles are
// ${IOSIM_DATA_DIR}/bez-forge-evaluation/...csv, with IOSIM_DATA_DIR pointing at an empty folder.
// Expectations: exit 2 before anything runs (no runs/ directory, no runs.csv), the message naming the point, the
// field, the missing file, the dataset folder and IOSIM_DATA_DIR.
TEST(engine_traps_campaign, MissingDatasetExitsTwoBeforeTheFirstRun) {
  TempDir d;
  d.write("data/.keep", "");
  DataDir env(d.file("data"));
  d.write("platform.xml", tiny_platform_xml({1e9, 1e9}, 64, 100e9));
  d.write("base.json", R"({"platform": "platform.xml", "workload": {"generator": {"kind": "rr9549", "count": 4}}})");
  std::string c = d.write("c.json", R"({"name": "c", "base": "base.json",
      "grid": {"sharing.policy": ["fairshare", "fcfs"]}, "seeds": {"count": 3}})");
  Process p = run_iosim({"sweep", c, "--out", d.file("out")}, d.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  expect_all(p.err, {"c.json: point 0", "workload.generator.profiles", d.file("data") + "/bez-forge-evaluation/",
                     "the dataset folder bez-forge-evaluation/", "IOSIM_DATA_DIR", "traces/README.md"});
  EXPECT_FALSE(file_exists(d.file("out/runs"))) << p.out;
  EXPECT_FALSE(file_exists(d.file("out/runs.csv")));
}

// System: the kernels generator reads two files of its data directory; the directory exists but holds one of them.
// Expectations: exit 2 naming the missing file (runtime.csv) of the dataset; with a data directory that is missing
// altogether the message names the directory.
TEST(engine_traps_campaign, IncompleteDataDirectoryNamesTheMissingFile) {
  TempDir d;
  d.write("q/bandwidth_pivot.csv", "kernel,0\n");
  d.write("platform.xml", tiny_platform_xml({1e9, 1e9}, 64, 100e9));
  for (const std::string &data : {std::string("q"), std::string("nowhere")}) {
    d.write("base.json", R"({"platform": "platform.xml", "workload": {"generator": {"kind": "kernels", "data": ")" +
                             d.file(data) + R"("}}})");
    std::string c = d.write("c.json", R"({"name": "c", "base": "base.json", "grid": {"sharing.policy": ["fcfs"]}})");
    Process p = run_iosim({"sweep", c, "--out", d.file("out")}, d.path());
    EXPECT_EQ(p.exit_code, 2) << p.err;
    expect_all(p.err, {"workload.generator.data", data == "q" ? d.file("q/runtime.csv") : d.file("nowhere")});
    EXPECT_FALSE(file_exists(d.file("out/runs")));
  }
}

// System: a campaign of 2 seeds whose workload file (an RR-9502 sample file) exists but is broken, so every run
// fails (its error is only found by reading the file). Expectations:
//   1. exit 1, runs.csv with 2 failed rows, and the final message says to re-run with --retry-failed;
//   2. the same command again (the file still broken, no --retry-failed) runs nothing and says the 2 failures were
//      not run again and how (--retry-failed), on stderr at the start and in the final message;
//   3. the file fixed, the same command with --retry-failed runs them again: exit 0, both complete, and the final
//      message says 2 runs that had failed were run again, 2 complete now.
TEST(engine_traps_campaign, FailedRunsSayHowToRunThemAgain) {
  TempDir d;
  const std::string good = read_text(std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/rr9502-good.txt");
  ASSERT_FALSE(good.empty());
  d.write("w.txt", "app0 0.4 0 0 0 4 10 W 10 oops 10 0.5\n");
  d.write("platform.xml", tiny_platform_xml({1e9}, 8, 100e9));
  d.write("base.json", R"({"platform": "platform.xml", "workload": {"file": "w.txt"}})");
  std::string c = d.write("c.json", R"({"name": "c", "base": "base.json", "grid": {"sharing.policy": ["fcfs"]},
                                        "seeds": {"count": 2}})");
  Process first = run_iosim({"sweep", c, "--out", d.file("out"), "--jobs", "1"}, d.path());
  EXPECT_EQ(first.exit_code, 1) << first.err;
  CsvTable rows = parse_csv(read_text(d.file("out/runs.csv")));
  ASSERT_EQ(rows.size(), 2u);
  for (auto &r : rows)
    EXPECT_EQ(r["status"], "failed");
  expect_all(first.out, {"2 failed", "re-run the same command with --retry-failed"});

  Process again = run_iosim({"sweep", c, "--out", d.file("out"), "--jobs", "1"}, d.path());
  EXPECT_EQ(again.exit_code, 1) << again.err;
  expect_all(again.err, {"2 points failed in an earlier sweep and are not run again", "--retry-failed"});
  expect_all(again.out, {"2 of the failed runs failed in an earlier sweep and were not run again",
                         "re-run the same command with --retry-failed"});

  d.write("w.txt", good);
  Process retry = run_iosim({"sweep", c, "--out", d.file("out"), "--jobs", "1", "--retry-failed"}, d.path());
  EXPECT_EQ(retry.exit_code, 0) << retry.err;
  expect_all(retry.out, {"2 runs that had failed were run again (--retry-failed): 2 complete now, 0 failed again"});
  EXPECT_EQ(retry.out.find("re-run the same command"), std::string::npos) << retry.out;
  rows = parse_csv(read_text(d.file("out/runs.csv")));
  ASSERT_EQ(rows.size(), 2u);
  for (auto &r : rows)
    EXPECT_EQ(r["status"], "complete");
}
