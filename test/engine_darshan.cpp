// iosim engine tests — Darshan logs as a workload (workload.darshan, docs/darshan.md): the directory of sample logs
// ($IOSIM_DATA_DIR/darshan-logs) replayed as a queue on a generated Lustre platform (deploy/darshan-logs.json), each
// log one row of apps.csv whose volume and release come from darshan-parser's values
// (test/fixtures/darshan/*.expect) and whose I/O time is computed by hand; a log's recorded OSTs used as they are;
// `iosim generate darshan` giving the same workload as JSON; a damaged log refused with exit 2; every bad log of a
// directory listed, and skipped with --skip-bad.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kFixtures = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/darshan";

// The dataset folder ($IOSIM_DATA_DIR, else ../shared/datasets beside the source), exported for the iosim processes.
std::string logs_dir() {
  const char *env = std::getenv("IOSIM_DATA_DIR");
  std::string dir = env != nullptr && env[0] != '\0' ? env : std::string(IOSIM_SOURCE_DIR) + "/../shared/datasets";
  setenv("IOSIM_DATA_DIR", dir.c_str(), 1);
  return dir + "/darshan-logs";
}

// The "key value" lines of test/fixtures/darshan/NAME.expect (darshan-parser's values).
std::map<std::string, std::string> expect_file(const std::string &name) {
  std::map<std::string, std::string> kv;
  std::ifstream in(kFixtures + "/" + name + ".expect");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') kv[line.substr(0, line.find(' '))] = line.substr(line.find(' ') + 1);
  EXPECT_FALSE(kv.empty()) << name << ".expect is missing";
  return kv;
}

double num(std::map<std::string, std::string> &kv, const std::string &key) {
  return kv.count(key) ? std::atof(kv[key].c_str()) : 0;
}

// What the application of a log moves: the base module (POSIX, or MPI-IO without POSIX) plus STDIO, or the DXT trace.
double volume_of(const std::string &name) {
  auto kv = expect_file(name);
  if (kv.count("DXT.bytes")) return num(kv, "DXT.bytes");
  std::string base = kv.count("POSIX.records") ? "POSIX" : "MPI-IO";
  return num(kv, base + ".bytes_read") + num(kv, base + ".bytes_written") + num(kv, "STDIO.bytes_read") +
         num(kv, "STDIO.bytes_written");
}

const std::vector<std::string> kLogs = {"noposix",           "noposixopens",   "sample-badost",
                                        "sample-dxt-simple", "sample-goodost", "sample"};

} // namespace

TEST(EngineDarshan, DirectoryOfLogsReplaysAsAQueueOnALustrePlatform) {
  // System: deploy/darshan-logs.json: the six sample logs on a generated oss-ost platform, 128 compute nodes with
  // 10 GB/s NICs, 24 OSTs of 1.5 GB/s behind 6 servers of 12.5 GB/s; queue; osts "auto" (the default: each job on
  // its files' recorded OSTs, each carrying its files' bytes over their stripes); sharing maxmin.
  // Expectations, per log (values of darshan-parser in test/fixtures/darshan/*.expect):
  //  - one row named after the log; nodes = ceil(nprocs / 32) (the DXT log's one host is not all its ranks: 1);
  //  - io_volume_bytes = base module + STDIO bytes (the DXT log: its trace's bytes);
  //  - start_s = its start time minus the earliest (sample.darshan, 1490000867): the logs never overlap (years apart),
  //    so each job starts at its release;
  //  - io_time of the jobs alone on the platform: sample (64 nodes, 24 OSTs): min(64 x 10, 24 x 1.5) = 36 GB/s, so
  //    2199023263277 B / 36e9 B/s = 61.0839795... s; sample-goodost (2 nodes): min(2 x 10, 36) = 20 GB/s,
  //    51539609136 / 20e9 = 2.5769804568 s.
  std::string dir = logs_dir();
  SimRun run = run_scenario_file(std::string(IOSIM_SOURCE_DIR) + "/deploy/darshan-logs.json");
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  ASSERT_EQ(run.apps.size(), kLogs.size()) << run.describe();
  double first = INFINITY;
  for (const std::string &name : kLogs) {
    auto kv = expect_file(name);
    first = std::min(first, num(kv, "start_time"));
  }
  for (const std::string &name : kLogs) {
    auto kv = expect_file(name);
    const AppRow &a = run.app(name);
    int nodes = name == "sample-dxt-simple" ? 1 : (int)std::ceil(num(kv, "nprocs") / 32);
    EXPECT_EQ(a.nodes, nodes) << name;
    EXPECT_EQ(a.io_volume, volume_of(name)) << name;
    EXPECT_EQ(a.start, num(kv, "start_time") - first) << name;
  }
  EXPECT_REL(run.app("sample").io_time, 2199023263277.0 / 36e9, 1e-9);
  EXPECT_REL(run.app("sample-goodost").io_time, 51539609136.0 / 20e9, 1e-9);
  EXPECT_EQ(run.app("sample").n_resources, 24);
}

TEST(EngineDarshan, RecordedOstsCarryTheLogsLayout) {
  // System: sample-badost.darshan (2048 file-per-process files, one stripe each, on 24 OSTs; darshan-parser: at most
  // 86 files on one OST) and sample-goodost.darshan (48 files, 2 per OST) with "osts": "recorded" on 24 OSTs of
  // 1.5 GB/s whose servers (12.5 GB/s for 4 OSTs) and NICs (1 TB/s) never bind; sharing maxmin.
  // Expectations: each file's OST carries the file's bytes of every I/O operation (the files move equal volumes:
  // volume / files each), the operation ends when the most
  // loaded OST has moved its share: io_time = (bytes written + read) x max files per OST / files / 1.5e9 B/s:
  // badost 549757470661 x 86 / 2048 / 1.5e9 = 15.3903... s (balanced, 24 OSTs: 15.2710... s);
  // goodost 51539609136 x 2 / 48 / 1.5e9 = 1.43165... s.
  std::string dir = logs_dir();
  for (auto [name, files] :
       std::vector<std::pair<std::string, double>>{{"sample-badost", 2048}, {"sample-goodost", 48}}) {
    auto kv = expect_file(name);
    std::string scenario = R"({
      "platform": {"kind": "oss-ost", "compute": 64, "servers": 6, "osts_per_server": 4, "ost_bw": "1.5GBps",
                   "server_bw": "12.5GBps", "nic_bw": "1TBps"},
      "workload": {"darshan": {"logs": ")" +
                           dir + "/" + name + R"(.darshan", "osts": "recorded"}},
      "sharing": {"policy": "maxmin"}})";
    RunOptions o = options("run");
    SimRun run = run_scenario(scenario, "", o);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    double expect = volume_of(name) * num(kv, "LUSTRE.max_files_per_ost") / files / 1.5e9;
    EXPECT_REL(run.app(name).io_time, expect, 1e-9) << name;
    EXPECT_EQ(run.app(name).n_resources, 24) << name; // the distinct OSTs its files used
  }
}

TEST(EngineDarshan, GeneratedJsonGivesTheSameWorkload) {
  // Expectations: `iosim generate darshan DIR -o w.json` then workload.file = w.json gives, on the same platform,
  // the same apps.csv as workload.darshan = DIR with "osts": "count" (names, nodes, volumes, times, resources, start
  // and end; the JSON has no field for the recorded layouts of the default "auto").
  std::string dir = logs_dir();
  TempDir tmp;
  std::string json = tmp.file("w.json");
  Process gen = run_iosim({"generate", "darshan", dir, "-o", json}, tmp.path());
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_NE(gen.err.find("6 applications from 6 Darshan logs"), std::string::npos) << gen.err;
  EXPECT_NE(read_text(json).find("{\"write\": 2199023263277}"), std::string::npos) << read_text(json);
  std::string deploy = std::string(IOSIM_SOURCE_DIR) + "/deploy/darshan-logs.json";
  SimRun a = run_scenario_file(deploy, {"workload.darshan.osts=count"});
  SimRun b = run_scenario_file(deploy, {"workload.darshan=null", "workload.file=" + json});
  ASSERT_EQ(a.proc.exit_code, 0) << a.describe();
  ASSERT_EQ(b.proc.exit_code, 0) << b.describe();
  ASSERT_EQ(a.apps_csv.size(), b.apps_csv.size());
  for (size_t i = 0; i < a.apps_csv.size(); i++)
    EXPECT_EQ(a.apps_csv[i], b.apps_csv[i]) << "row " << i;
}

TEST(EngineDarshan, DamagedLogExitsTwoNamingTheFileAndRegion) {
  // Expectations: a directory holding a good log and one cut short (its last 1,000 bytes dropped: the STDIO region
  // ends past the end of the file) makes `iosim run` and `iosim generate darshan` exit 2 naming the damaged file and
  // the region; a file that is not a log names the header.
  std::string dir = logs_dir();
  TempDir tmp;
  std::string good = read_text(dir + "/sample-goodost.darshan");
  ASSERT_GT(good.size(), 2000u) << "set IOSIM_DATA_DIR to the folder holding darshan-logs/";
  tmp.write("logs/a.darshan", good);
  tmp.write("logs/b.darshan", good.substr(0, good.size() - 1000));
  tmp.write("text/c.darshan", "not a log\n");
  std::string scenario = tmp.write("s.json", R"({
      "platform": {"kind": "oss-ost", "compute": 8, "servers": 1, "osts_per_server": 4},
      "workload": {"darshan": "logs"}})");
  Process run = run_iosim({"run", scenario, "--out", tmp.file("out")}, tmp.path());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(tmp.file("logs/b.darshan") + ": header, module slot"), std::string::npos) << run.err;
  EXPECT_FALSE(file_exists(tmp.file("out/apps.csv")));
  Process gen = run_iosim({"generate", "darshan", tmp.file("text")}, tmp.path());
  EXPECT_EQ(gen.exit_code, 2) << gen.err;
  EXPECT_NE(gen.err.find("c.darshan: header"), std::string::npos) << gen.err;
}

TEST(EngineDarshan, EveryRefusedLogIsListedAndSkipBadReplaysTheRest) {
  // System: a directory of four logs: sample-goodost and sample-dxt-simple as they are, sample-goodost cut short by
  // 1,000 bytes (bad.darshan) and a text file (text.darshan).
  // Expectations: `iosim run` and `iosim generate darshan` exit 2, listing both bad files (each on its own "refused"
  // line) and "2 of 4 Darshan logs refused"; with --skip-bad (run: = workload.darshan.skip_bad=true on the scenario's
  // short form "darshan": "logs"; generate: the flag) both exit 0, say "skipped 2 of 4" and replay the two good logs:
  // apps.csv holds 2 rows, the JSON 2 applications.
  std::string dir = logs_dir();
  TempDir tmp;
  std::string good = read_text(dir + "/sample-goodost.darshan");
  ASSERT_GT(good.size(), 2000u) << "set IOSIM_DATA_DIR to the folder holding darshan-logs/";
  tmp.write("logs/sample-goodost.darshan", good);
  tmp.write("logs/sample-dxt-simple.darshan", read_text(dir + "/sample-dxt-simple.darshan"));
  tmp.write("logs/bad.darshan", good.substr(0, good.size() - 1000));
  tmp.write("logs/text.darshan", "not a log\n");
  std::string scenario = tmp.write("s.json", R"({
      "platform": {"kind": "oss-ost", "compute": 8, "servers": 1, "osts_per_server": 4},
      "workload": {"darshan": "logs"}})");
  for (std::string cmd : {"run", "generate"}) {
    std::vector<std::string> args =
        cmd == "run" ? std::vector<std::string>{"run", scenario, "--out", tmp.file("out")}
                     : std::vector<std::string>{"generate", "darshan", tmp.file("logs"), "-o", tmp.file("w.json")};
    Process p = run_iosim(args, tmp.path());
    EXPECT_EQ(p.exit_code, 2) << cmd << ": " << p.err;
    EXPECT_NE(p.err.find("iosim: refused: " + tmp.file("logs/bad.darshan") + ": header, module slot"),
              std::string::npos)
        << cmd << ": " << p.err;
    EXPECT_NE(p.err.find("iosim: refused: " + tmp.file("logs/text.darshan") + ": header"), std::string::npos)
        << cmd << ": " << p.err;
    EXPECT_NE(p.err.find("2 of 4 Darshan logs refused"), std::string::npos) << cmd << ": " << p.err;
    args.push_back("--skip-bad");
    Process q = run_iosim(args, tmp.path());
    ASSERT_EQ(q.exit_code, 0) << cmd << ": " << q.err;
    EXPECT_NE(q.err.find("skipped 2 of 4 Darshan logs"), std::string::npos) << cmd << ": " << q.err;
  }
  SimRun out;
  parse_outputs(tmp.file("out"), out);
  ASSERT_EQ(out.apps.size(), 2u);
  EXPECT_EQ(out.apps[0].name, "sample-dxt-simple");
  EXPECT_EQ(out.apps[1].name, "sample-goodost");
  EXPECT_NE(read_text(tmp.file("w.json")).find("\"name\": \"sample-goodost\""), std::string::npos);
  EXPECT_NE(read_text(tmp.file("w.json")).find("\"name\": \"sample-dxt-simple\""), std::string::npos);
}
