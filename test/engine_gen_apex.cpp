// iosim engine tests — the APEX windows of RR-9502 §6.3.1 (src/inputs/gen/ios_gen_apex.h): a hand-built schedule gives
// the window and phases computed by hand, on Cielo and on M_1; on the real APEX data ($IOSIM_DATA_DIR/apex-workflows)
// every window application covers exactly the window in dedicated mode with hourly checkpoints inside, windows come
// longest first, the printed I/O pressure is the file's; the generator inside a scenario gives the run of its sample
// file; bad input exits with code 2 naming the parameter. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

Process generate(const TempDir &dir, const std::vector<std::string> &args) {
  std::vector<std::string> all = {"generate", "apex"};
  all.insert(all.end(), args.begin(), args.end());
  return run_iosim(all, dir.path(), dir.path());
}

// The number after `key` in the summary line ("W = 0.1234", "(25150 s)"), NaN when absent.
double after(const std::string &err, const std::string &key) {
  size_t at = err.find(key);
  return at == std::string::npos ? NAN : std::atof(err.c_str() + at + key.size());
}

// A toy APEX table: one class "A" (2 cores, 1 h walltime, input/output/checkpoint = 10/20/5 times its memory,
// checkpoint every 1,000 s of compute) on a 4-node machine of 1 core, 1 GiB, 1 GiB/s per node and 2 GiB/s system
// bandwidth. Named "trilab" so the generator's workload parameter accepts it.
std::string toy_data(const TempDir &dir) {
  dir.write("apex/apex_workloads.csv",
            "platform,app,corehour_ratio,walltime_h,cores,input_ratio,output_ratio,ckpt_ratio,iterations,ensemble,"
            "ckpt_period_s\n"
            "trilab,A,1,1,2,10,20,5,1,1,1000\n"
            "nersc,B,1,1,1,0,0,0,1,1,3600\n");
  dir.write("apex/platform_cielo.csv",
            "platform,nodes,cores_per_node,ram_per_node_GiB,node_bw_GiB_s,system_bw_GiB_s\ntoy,4,1,1,1,2\n");
  return dir.file("apex");
}

} // namespace

// System: the toy table, noise 0, months = 1/360 (target 4 nodes × 30 days / 360 = 28,800 node-s of class A).
// Expectations (by hand): a job has 2 nodes, memory M = 2 GiB and bandwidth b = min(2·1, 2) = 2 GiB/s = the system
// bandwidth, so b/B = 1. On Cielo: input 10·2/2 = 10 s, output 20 s, checkpoint 5 s; k = floor((3600 − 30)/(1000 +
// 5)) = 3 checkpoints; compute C = 3570 − 15 = 3555 s; the last work phase 3555 − 3000 = 555 s; D = 3600 s. Four jobs
// (4 × 2 × 3600 = 28,800): two at t = 0 (4 nodes), two at t = 3600. Events 0, 3600, 7200; windows end by the last
// start (3600): one window [0, 3600] holding jobs 0 and 1, whole: C 10 1000 5 1000 5 1000 5 555 20 (volumes in
// units of the system bandwidth: seconds × 1). I/O pressure = 2 × 45 / 3600 = 0.025.
// On M_1: memory ×2, bandwidths ×2/2 = ×1, so every I/O time doubles: C 20 1000 10 1000 10 1000 10 555 40, D = 3645,
// still 4 jobs, window [0, 3645], pressure 2 × 90 / 3645 = 0.049383. Window rank 2 does not exist: exit 2.
TEST(gen_apex_engine, HandBuiltScheduleGivesTheHandComputedWindow) {
  TempDir dir;
  std::string data = toy_data(dir);
  std::vector<std::string> base = {
      "--set", "data=" + data, "--set", "noise=0", "--set", "months=0.002777777777777778", "--set", "workload=trilab"};
  std::vector<std::string> a = base, b = base, bad = base;
  a.insert(a.end(), {"-o", "m0.txt"});
  b.insert(b.end(), {"--set", "machine=1", "-o", "m1.txt"});
  bad.insert(bad.end(), {"--set", "window=2", "-o", "bad.txt"});
  Process p0 = generate(dir, a), p1 = generate(dir, b), p2 = generate(dir, bad);
  ASSERT_EQ(p0.exit_code, 0) << p0.err;
  ASSERT_EQ(p1.exit_code, 0) << p1.err;
  EXPECT_EQ(split_lines(read_text(dir.file("m0.txt"))),
            (std::vector<std::string>{"A-0 1 0 0 0 9 0 C 10 1000 5 1000 5 1000 5 555 20",
                                      "A-1 1 0 0 0 9 0 C 10 1000 5 1000 5 1000 5 555 20"}));
  EXPECT_EQ(split_lines(read_text(dir.file("m1.txt"))),
            (std::vector<std::string>{"A-0 1 0 0 0 9 0 C 20 1000 10 1000 10 1000 10 555 40",
                                      "A-1 1 0 0 0 9 0 C 20 1000 10 1000 10 1000 10 555 40"}));
  for (const char *s : {"4 jobs", "window 1 of 1: [0, 3600] s (3600 s), 2 jobs running, 2 doing I/O"})
    EXPECT_NE(p0.err.find(s), std::string::npos) << s << " not in " << p0.err;
  EXPECT_NEAR(after(p0.err, "W = "), 0.025, 5e-5) << p0.err;
  EXPECT_NE(p1.err.find("[0, 3645] s"), std::string::npos) << p1.err;
  EXPECT_NEAR(after(p1.err, "W = "), 180.0 / 3645.0, 5e-5) << p1.err;
  EXPECT_EQ(p2.exit_code, 2) << p2.err;
  EXPECT_NE(p2.err.find("--set window"), std::string::npos) << p2.err;
  EXPECT_NE(p2.err.find("has 1 windows"), std::string::npos) << p2.err;
  EXPECT_FALSE(file_exists(dir.file("bad.txt")));
}

// System: the real APEX data, seed 1, for NERSC and TRILAB on Cielo (machine 0) and M_6, windows of rank 1, 2, 3
// and 20. Expectations: the printed window lengths do not increase with the rank; in every window, every application
// spends exactly the window's length in dedicated mode (Σ work + volume/b, equal across applications to 1e-9 and
// within 0.5 s of the printed, rounded length); inside the window its work phases are the 3,600 s checkpoint period
// (but the last inner one, which may be the job's final work before its output) and its inner I/O phases are equal
// (one checkpoint volume), only the first and last phases being cut; the printed
// I/O pressure is Σ volume / (B · length) of the file (B = 1).
TEST(gen_apex_engine, RealWindowsCoverTheWindowWithHourlyCheckpoints) {
  TempDir dir;
  for (const char *workload : {"nersc", "trilab"})
    for (const char *machine : {"0", "6"}) {
      double previous = INFINITY;
      for (const char *rank : {"1", "2", "3", "20"}) {
        std::string tag = std::string(workload) + " M_" + machine + " window " + rank;
        Process p =
            generate(dir, {"--set", std::string("workload=") + workload, "--set", std::string("machine=") + machine,
                           "--set", std::string("window=") + rank, "-o", "w.txt"});
        ASSERT_EQ(p.exit_code, 0) << tag << ": " << p.err;
        double length = after(p.err, "s ("), pressure = after(p.err, "W = ");
        ASSERT_GT(length, 0) << p.err;
        EXPECT_LE(length, previous) << tag;
        previous = length;
        double volume = 0, dedicated0 = NAN;
        std::vector<std::string> rows = split_lines(read_text(dir.file("w.txt")));
        ASSERT_FALSE(rows.empty()) << tag;
        for (const std::string &row : rows) {
          std::vector<std::string> t = split_words(row);
          ASSERT_GE(t.size(), 9u) << row;
          double b = std::atof(t[1].c_str());
          ASSERT_GT(b, 0) << row;
          ASSERT_LE(b, 1.0) << row;
          int n = std::atoi(t[5].c_str());
          ASSERT_EQ((int)t.size() - 8, n) << row;
          bool io = t[7] == "C";
          double dedicated = 0, ckpt = NAN;
          for (int i = 0; i < n; i++, io = !io) {
            double x = std::atof(t[8 + i].c_str());
            dedicated += io ? x / b : x;
            if (io) volume += x;
            bool inner = i > 0 && i + 1 < n;
            if (inner && !io && i + 2 < n) {
              EXPECT_NEAR(x, 3600.0, 1e-6) << tag << ": " << t[0] << " phase " << i;
            }
            if (inner && io) {
              if (std::isnan(ckpt)) ckpt = x;
              EXPECT_NEAR(x, ckpt, 1e-9 * ckpt) << tag << ": " << t[0] << " phase " << i;
            }
          }
          if (std::isnan(dedicated0)) dedicated0 = dedicated;
          EXPECT_NEAR(dedicated, dedicated0, 1e-9 * dedicated0) << tag << ": " << t[0];
        }
        EXPECT_NEAR(dedicated0, length, 0.5) << tag;
        EXPECT_NEAR(pressure, volume / dedicated0, 5e-5 + 1e-4 * pressure) << tag << ": " << p.err;
      }
    }
}

// System: NERSC on M_4, window 3, seed 2, two ways on one I/O resource of 1e9 B/s under greedy-yield: the generator
// inside the scenario, and `iosim generate apex` (B = 1) read back as a sample file with bandwidth_unit pool.
// Expectations: the same applications, volumes, yields and objectives (to 1e-12); the window is the whole generated
// window (begins at 0).
TEST(gen_apex_engine, GeneratorInAScenarioEqualsItsSampleFile) {
  TempDir gen;
  Process p = generate(
      gen, {"--set", "workload=nersc", "--set", "machine=4", "--set", "window=3", "--seed", "2", "-o", "w.txt"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  auto scenario = [](const std::string &workload) {
    return "{\"workload\": " + workload +
           ", \"allocation\": {\"policy\": \"fixed\", \"n\": 1}, \"sharing\": {\"policy\": \"greedy-yield\"}, "
           "\"window\": {\"stop_at_end\": true}, \"seed\": 2, \"output\": {\"progress\": false}}";
  };
  RunOptions from_file;
  from_file.extra_files["w.txt"] = read_text(gen.file("w.txt"));
  SimRun file =
      run_scenario(scenario(R"({"file": "w.txt", "bandwidth_unit": "pool"})"), tiny_platform_xml({1e9}, 64), from_file);
  ASSERT_EQ(file.proc.exit_code, 0) << file.describe();
  SimRun inside =
      run_scenario(scenario(R"({"generator": {"kind": "apex", "workload": "nersc", "machine": 4, "window": 3}})"),
                   tiny_platform_xml({1e9}, 64));
  ASSERT_EQ(inside.proc.exit_code, 0) << inside.describe();
  EXPECT_EQ(file.num("window.begin_s"), 0.0);
  ASSERT_EQ(inside.apps.size(), file.apps.size());
  ASSERT_GT(file.apps.size(), 1u);
  for (size_t i = 0; i < file.apps.size(); i++) { /* volumes scaled to B before or after: a few ulps apart */
    EXPECT_EQ(inside.apps[i].name, file.apps[i].name);
    EXPECT_NEAR(inside.apps[i].io_volume, file.apps[i].io_volume, 1e-12 * file.apps[i].io_volume) << i;
    EXPECT_NEAR(inside.apps[i].yield, file.apps[i].yield, 1e-12) << i;
  }
  for (const char *m : {"io_pressure", "min_yield", "efficiency", "utilization"})
    EXPECT_NEAR(inside.metric(m), file.metric(m), 1e-12) << m;
  EXPECT_NEAR(file.metric("io_pressure"), after(p.err, "W = "), 5e-5 + 1e-4 * file.metric("io_pressure")) << p.err;
}

// Expectations: bad parameters exit 2 with "iosim: error:", the parameter and the fix, leaving no file; the help
// lists the apex parameters.
TEST(gen_apex_engine, BadInputExitsWithCode2NamingTheParameter) {
  TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> needles;
  } cases[] = {
      {{"--set", "workload=cori"}, {"--set workload", "\"cori\"", "nersc", "trilab"}},
      {{"--set", "machine=13"}, {"--set machine", "is 13", "[0, 12]"}},
      {{"--set", "window=0"}, {"--set window", "is 0"}},
      {{"--set", "window=2.5"}, {"--set window", "an integer"}},
      {{"--set", "months=0"}, {"--set months", "(0, 24]"}},
      {{"--set", "data=/no/such/dir"}, {"/no/such/dir/apex_workloads.csv", "cannot read"}},
      {{"--set", "data=7"}, {"--set data", "directory path"}},
      {{"--set", "bogus=1"}, {"unknown field 'bogus'", "machine", "workload"}},
  };
  for (const Case &c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"-o", "out.txt"});
    Process p = generate(dir, args);
    EXPECT_EQ(p.exit_code, 2) << c.args[1] << ": " << p.err;
    EXPECT_EQ(p.err.rfind("iosim: error: ", 0), 0u) << p.err;
    for (const auto &n : c.needles)
      EXPECT_NE(p.err.find(n), std::string::npos) << "stderr lacks '" << n << "': " << p.err;
    EXPECT_FALSE(file_exists(dir.file("out.txt"))) << p.err;
  }
  Process h = run_iosim({"generate", "apex", "--help"}, dir.path());
  EXPECT_EQ(h.exit_code, 0);
  for (const char *s : {"usage: iosim generate apex", "workload=trilab", "machine=0", "window=1", "months=3"})
    EXPECT_NE(h.out.find(s), std::string::npos) << s << " missing from:\n" << h.out;
  EXPECT_EQ(h.out.find("usage: iosim generate rr9502"), std::string::npos) << h.out;
}

// System: NERSC on M_2, seed 5, windows 1 and 4, generated without a schedule cache, then with IOSIM_CACHE_DIR set:
// the first run keeps the schedule, the second (another window) reads it back; then the kept file truncated, and the
// file of another seed's schedule put under its name. Then a sweep of windows 1-2 of that schedule under two
// strategies, IOSIM_CACHE_DIR unset. Expectations: every summary line and workload file equals the one generated
// without a cache, byte for byte (the schedule is read back bit for bit, and a damaged or foreign file is never
// used); one file per schedule, whole again (its first size) after each damaged case; the sweep completes and
// leaves no OUT/.cache behind.
TEST(gen_apex_engine, ScheduleCacheGivesTheSameWindowsAndIgnoresDamagedFiles) {
  namespace fs = std::filesystem;
  TempDir dir;
  auto gen = [&](const char *window, const char *seed) {
    Process p = generate(dir, {"--set", "workload=nersc", "--set", "machine=2", "--set",
                               std::string("window=") + window, "--seed", seed, "-o", "w.txt"});
    EXPECT_EQ(p.exit_code, 0) << p.err;
    return p.err + read_text(dir.file("w.txt"));
  };
  auto files = [&]() {
    std::vector<fs::path> v;
    for (const auto &e : fs::directory_iterator(dir.file("cache")))
      v.push_back(e.path());
    return v;
  };
  unsetenv("IOSIM_CACHE_DIR");
  const std::string plain1 = gen("1", "5"), plain4 = gen("4", "5");
  ASSERT_NE(plain1, plain4);
  setenv("IOSIM_CACHE_DIR", dir.file("cache").c_str(), 1);
  EXPECT_EQ(gen("1", "5"), plain1);
  ASSERT_EQ(files().size(), 1u);
  const fs::path kept = files()[0];
  const auto size = fs::file_size(kept);
  EXPECT_EQ(gen("4", "5"), plain4) << "read back from the cache";
  fs::resize_file(kept, size / 2);
  EXPECT_EQ(gen("4", "5"), plain4) << "truncated cache file";
  EXPECT_EQ(fs::file_size(kept), size);
  gen("1", "6");
  ASSERT_EQ(files().size(), 2u);
  for (const fs::path &f : files())
    if (f != kept) fs::copy_file(f, kept, fs::copy_options::overwrite_existing);
  EXPECT_EQ(gen("4", "5"), plain4) << "another schedule under this name";
  EXPECT_EQ(fs::file_size(kept), size);
  unsetenv("IOSIM_CACHE_DIR");

  dir.write("base.json", R"({"platform": {"kind": "pfs-single"}, "workload": {"generator": {"kind": "apex",
      "workload": "nersc", "machine": 2}}, "allocation": {"policy": "fixed", "n": 1},
      "window": {"stop_at_end": true}, "seed": 5})");
  dir.write("c.json", R"({"name": "cache", "base": "base.json", "grid": {"workload.generator.window": [1, 2],
      "sharing.policy": ["fairshare", "greedy-yield"]}})");
  Process s = run_iosim({"sweep", "c.json", "--jobs", "2", "-o", "out"}, dir.path(), dir.path());
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("4 runs, 4 complete, 0 failed"), std::string::npos) << s.out;
  EXPECT_FALSE(fs::exists(dir.file("out/.cache")));
}
