// iosim engine tests — the RR-9502 §6.2.1 synthetic generator end to end (src/ios_gen_rr9502.h): `iosim generate
// rr9502` writes the reference simulator's sample format (reproducibly, n_i = ceil(h/wIter) iterations), the file
// reads back through workload.file and runs, and gives the same run as the generator inside a scenario with the same
// seed (and as the JSON output); bad input exits with code 2 naming the parameter. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <dirent.h>
#include <sstream>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

// Runs `iosim generate rr9502 ARGS...` in `dir`.
Process generate(const TempDir &dir, const std::vector<std::string> &args) {
  std::vector<std::string> all = {"generate", "rr9502"};
  all.insert(all.end(), args.begin(), args.end());
  return run_iosim(all, dir.path(), dir.path());
}

// The W printed in the summary line on standard error ("... I/O pressure W = 0.8012 ..."), NaN when absent.
double printed_pressure(const std::string &err) {
  size_t at = err.find("W = ");
  return at == std::string::npos ? NAN : std::atof(err.c_str() + at + 4);
}

std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (struct dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

// The small instance of the run tests: 24 applications (2 small, 20 medium, 2 big), h = 1e5 s, W^GOAL = 0.8.
const std::vector<std::string> kSmallSets = {"--set", "count=24",      "--set", "n_small=2",
                                             "--set", "horizon_s=1e5", "--set", "pressure=0.8"};
const std::string kSmallGenerator =
    R"({"kind": "rr9502", "count": 24, "n_small": 2, "horizon_s": 1e5, "pressure": 0.8})";

// A scenario with `workload`, seed 9, stopping at the window's end (platform: tiny_platform_xml({1e9}, 32), one I/O
// resource of 1e9 B/s, so B = 1e9, and 32 compute nodes for applications of 1 node each).
std::string scenario(const std::string &workload) {
  return "{\"workload\": " + workload +
         ", \"allocation\": {\"policy\": \"fixed\", \"n\": 1}, \"sharing\": {\"policy\": \"fairshare\"}, "
         "\"window\": {\"stop_at_end\": true}, \"seed\": 9, \"output\": {\"progress\": false}}";
}

} // namespace

// System: `iosim generate rr9502 --seed 5 --set horizon_s=2e5 -o a.txt`, again into b.txt, and with --seed 6.
// Expectations: exit 0, nothing on standard output, a summary on standard error; a.txt == b.txt != c.txt; 60 lines
// `name 1 0 0 0 nphases wIter W x_1 .. x_n` (B = 1, fresh applications) named small-0.., medium-0.., big-0..; nphases
// = 2·ceil(h/wIter) + 1 values follow, the first (w^(0)) at most wIter; no temporary file left.
TEST(gen_rr9502_engine, SampleFileIsReproducibleAndFollowsTheReferenceFormat) {
  TempDir dir;
  Process a = generate(dir, {"--seed", "5", "--set", "horizon_s=2e5", "-o", "a.txt"});
  Process b = generate(dir, {"--seed", "5", "--set", "horizon_s=2e5", "-o", "b.txt"});
  Process c = generate(dir, {"--seed", "6", "--set", "horizon_s=2e5", "-o", "c.txt"});
  for (const Process *p : {&a, &b, &c}) {
    ASSERT_EQ(p->exit_code, 0) << p->err;
    EXPECT_EQ(p->out, "");
    EXPECT_NE(p->err.find("60 applications (20 small, 20 medium, 20 big)"), std::string::npos) << p->err;
  }
  std::string text = read_text(dir.file("a.txt"));
  EXPECT_EQ(text, read_text(dir.file("b.txt")));
  EXPECT_NE(text, read_text(dir.file("c.txt")));
  EXPECT_EQ(entries(dir.path()).size(), 3u);
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line); n++) {
    std::vector<std::string> t = split_words(line);
    ASSERT_GE(t.size(), 11u) << line.substr(0, 80);
    const char *cls = n < 20 ? "small-" : n < 40 ? "medium-" : "big-";
    EXPECT_EQ(t[0], cls + std::to_string(n % 20));
    EXPECT_EQ(t[1], "1");
    EXPECT_EQ(t[2], "0");
    EXPECT_EQ(t[3], "0");
    EXPECT_EQ(t[4], "0");
    EXPECT_EQ(t[7], "W");
    long nphases = std::atol(t[5].c_str());
    double omega = std::atof(t[6].c_str());
    EXPECT_EQ(nphases, 2 * (long)std::ceil(2e5 / omega) + 1) << t[0] << " wIter " << t[6];
    EXPECT_EQ((long)t.size() - 8, nphases) << t[0];
    EXPECT_LE(std::atof(t[8].c_str()), omega) << t[0];
  }
  EXPECT_EQ(n, 60);
}

// System: the small instance (24 applications, h = 1e5, W^GOAL = 0.8, seed 9) three ways on one I/O resource of
// B = 1e9 B/s: (1) the sample file of `iosim generate` (B = 1) read with bandwidth_unit pool; (2) the generator in
// the scenario, seed 9; (3) the JSON file of `iosim generate --unit 1e9`. Window automatic, stop at its end.
// Expectations: (1) runs; 24 applications; io_pressure (Eq. 11 on the window [0, earliest dedicated completion])
// equals the W `iosim generate` printed (4 decimals); (2) and (3) give the same apps.csv and metrics as (1).
TEST(gen_rr9502_engine, GeneratedFilesRunAndMatchTheScenarioGenerator) {
  TempDir gen;
  std::vector<std::string> args = kSmallSets;
  args.insert(args.end(), {"--seed", "9", "-o", "w.txt"});
  Process p = generate(gen, args);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  args.back() = "w.json";
  args.insert(args.end(), {"--unit", "1e9"});
  Process pj = generate(gen, args);
  ASSERT_EQ(pj.exit_code, 0) << pj.err;

  RunOptions from_file;
  from_file.extra_files["w.txt"] = read_text(gen.file("w.txt"));
  SimRun file =
      run_scenario(scenario(R"({"file": "w.txt", "bandwidth_unit": "pool"})"), tiny_platform_xml({1e9}, 32), from_file);
  ASSERT_EQ(file.proc.exit_code, 0) << file.describe();
  ASSERT_EQ(file.apps.size(), 24u) << file.describe();
  EXPECT_EQ(file.apps[0].name, "small-0");
  EXPECT_EQ(file.apps[23].name, "big-1");
  EXPECT_EQ(file.str("window.kind"), "steady-state");
  EXPECT_EQ(file.num("window.begin_s"), 0.0);
  EXPECT_NEAR(file.metric("io_pressure"), printed_pressure(p.err), 5.1e-5) << p.err;

  SimRun inside = run_scenario(scenario("{\"generator\": " + kSmallGenerator + "}"), tiny_platform_xml({1e9}, 32));
  ASSERT_EQ(inside.proc.exit_code, 0) << inside.describe();
  RunOptions from_json;
  from_json.extra_files["w.json"] = read_text(gen.file("w.json"));
  SimRun json = run_scenario(scenario(R"({"file": "w.json"})"), tiny_platform_xml({1e9}, 32), from_json);
  ASSERT_EQ(json.proc.exit_code, 0) << json.describe();
  std::string csv = read_text(file.out_dir + "/apps.csv");
  EXPECT_FALSE(csv.empty());
  EXPECT_EQ(read_text(inside.out_dir + "/apps.csv"), csv);
  EXPECT_EQ(read_text(json.out_dir + "/apps.csv"), csv);
  for (const char *m : {"io_pressure", "min_yield", "efficiency", "utilization"}) {
    EXPECT_EQ(inside.metric(m), file.metric(m)) << m;
    EXPECT_EQ(json.metric(m), file.metric(m)) << m;
  }
}

// System: `iosim generate rr9502 --set count=20 --set n_small=0 --set horizon_s=1e5` without -o.
// Expectations: the 20 medium applications on standard output, in the sample format.
TEST(gen_rr9502_engine, WritesToStandardOutputWithoutO) {
  TempDir dir;
  Process p = generate(dir, {"--set", "count=20", "--set", "n_small=0", "--set", "horizon_s=1e5"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  std::istringstream in(p.out);
  int n = 0;
  for (std::string line; std::getline(in, line); n++)
    EXPECT_EQ(line.rfind("medium-" + std::to_string(n) + " 1 0 0 0 ", 0), 0u) << line.substr(0, 60);
  EXPECT_EQ(n, 20);
}

// Expectations: bad input to `iosim generate` exits with code 2, "iosim: error:" and the parameter on standard
// error, and leaves no file; --help exits 0 with the parameters.
TEST(gen_rr9502_engine, BadCommandLineExitsWithCode2NamingTheParameter) {
  TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> needles;
  } cases[] = {
      {{"rr9502", "--set", "noise=2"}, {"--set noise", "is 2", "[0, 1]"}},
      {{"rr9502", "--set", "sigma=wide"}, {"--set sigma", "\"wide\""}},
      {{"rr9502", "--set", "bogus=1"}, {"unknown field 'bogus'", "pressure"}},
      {{"rr9502", "--set", "count=30"}, {"n_small", "count is 30"}},
      {{"rr9502", "--set", "pressure"}, {"--set", "param=value"}},
      {{"rr9502", "--set", "kind=x"}, {"kind"}},
      {{"rr9502", "--seed", "-1"}, {"--seed", "-1"}},
      {{"rr9502", "--unit", "fast"}, {"--unit", "fast"}},
      {{"rr9502", "--frobnicate"}, {"--frobnicate", "unexpected argument"}},
      {{"rr9502", "-o"}, {"-o", "needs a value"}},
      {{"rr9549"}, {"rr9549", "rr9502"}},
      {{"rr9502", "-o", "no-such-dir/x.txt"}, {"no-such-dir/x.txt", "cannot create"}},
  };
  for (const Case &c : cases) {
    std::vector<std::string> args = {"generate"};
    std::string joined;
    for (const auto &a : c.args)
      joined += " " + a;
    args.insert(args.end(), c.args.begin(), c.args.end());
    if (joined.find(" -o") == std::string::npos) args.insert(args.end(), {"-o", "out.txt"});
    Process p = run_iosim(args, dir.path(), dir.path());
    EXPECT_EQ(p.exit_code, 2) << joined << ": " << p.err;
    EXPECT_EQ(p.err.rfind("iosim: error: ", 0), 0u) << p.err;
    for (const auto &n : c.needles)
      EXPECT_NE(p.err.find(n), std::string::npos) << "stderr lacks '" << n << "': " << p.err;
    EXPECT_TRUE(entries(dir.path()).empty()) << p.err << ": a file was left behind";
  }
  Process h = run_iosim({"generate", "--help"}, dir.path());
  EXPECT_EQ(h.exit_code, 0);
  for (const char *s : {"usage: iosim generate rr9502", "n_small", "sigma", "noise", "pressure", "horizon_s", "--unit"})
    EXPECT_NE(h.out.find(s), std::string::npos) << s << " missing from:\n" << h.out;
  Process u = run_iosim({"--help"}, dir.path());
  EXPECT_NE(u.out.find("iosim generate rr9502"), std::string::npos) << u.out;
}

// System: scenarios whose workload.generator is a bad rr9502 object, or of an unknown kind.
// Expectations: `iosim check` exits 2 naming the scenario file, the field and the value (or both valid kinds).
TEST(gen_rr9502_engine, BadGeneratorInAScenarioExitsWithCode2) {
  struct Case {
    std::string generator;
    std::vector<std::string> needles;
  } cases[] = {
      {R"({"kind": "rr9502", "sigma": "wide"})", {"workload.generator.sigma", "\"wide\""}},
      {R"({"kind": "rr9502", "horizon_s": -5})", {"workload.generator.horizon_s", "is -5"}},
      {R"({"kind": "rr9502", "pressur": 0.8})", {"workload.generator", "unknown field 'pressur'"}},
      {R"({"kind": "rr9999"})", {"workload.generator.kind", "rr9549", "rr9502"}},
  };
  for (const Case &c : cases) {
    SimRun r =
        run_scenario(scenario("{\"generator\": " + c.generator + "}"), tiny_platform_xml({1e9}, 32), options("check"));
    EXPECT_EQ(r.proc.exit_code, 2) << c.generator << ": " << r.proc.err;
    EXPECT_NE(r.proc.err.find(r.scenario_path), std::string::npos) << r.proc.err;
    for (const auto &n : c.needles)
      EXPECT_NE(r.proc.err.find(n), std::string::npos) << "stderr lacks '" << n << "': " << r.proc.err;
  }
  SimRun ok = run_scenario(scenario("{\"generator\": " + kSmallGenerator + "}"), tiny_platform_xml({1e9}, 32),
                           options("check"));
  EXPECT_EQ(ok.proc.exit_code, 0) << ok.proc.err;
  EXPECT_NE(ok.proc.out.find("24 applications"), std::string::npos) << ok.proc.out;
}
