// iosim engine tests — the apps.csv columns that describe each application in dedicated mode (docs/outputs.md):
// iteration_s, ω = D / N_io, and io_fraction, φ = (Σ volume / b) / D, where N_io is the number of I/O operations and
// D = Σ work + Σ volume / b without the start offset (the work before the first I/O operation when the application
// also works after its last one: the w_i^(0) of the RR-9502 §6.2.1 generator). They are what RR-9502 §6.2.2 sorts
// the applications by in Figures 6 and 7. Every run is its own process (run_helpers.h).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

constexpr double kTol = 1e-12;

// The cell `col` of application `name` in apps.csv as a number; NaN when empty, -1e300 when absent.
double cell(const SimRun &r, const std::string &name, const std::string &col) {
  for (const auto &row : r.apps_csv) {
    auto n = row.find("name");
    if (n == row.end() || n->second != name) continue;
    auto c = row.find(col);
    if (c == row.end()) return -1e300;
    return c->second.empty() ? NAN : std::strtod(c->second.c_str(), nullptr);
  }
  ADD_FAILURE() << "no application '" << name << "' in apps.csv\n" << r.describe();
  return -1e300;
}

std::vector<std::string> words(const std::string &line) {
  std::istringstream ss(line);
  std::vector<std::string> t;
  for (std::string s; ss >> s;)
    t.push_back(s);
  return t;
}

// The six applications of the hand-built test (b = the profile's b(1); one resource, so n_j = 1).
const char *kApps = R"([
  {"name": "A", "profile": {"1": 1e9}, "work": 10, "io": 2e9, "iterations": 3},
  {"name": "B", "profile": {"1": 5e8},
   "phases": [{"work": 5}, {"io": 4e9}, {"work": 20}, {"io": 2e9}, {"work": 10}]},
  {"name": "C", "profile": {"1": 1e9}, "work": 7},
  {"name": "D", "profile": {"1": 1e9}, "phases": [{"io": 3e9}, {"work": 4}, {"io": 1e9}]},
  {"name": "E", "profile": {"1": 1e9}, "phases": [{"io": 1e9}, {"work": 9}, {"io": 1e9}, {"work": 9}]},
  {"name": "F", "profile": {"1": 1e9}, "phases": [{"work": 6}, {"io": 0}, {"work": 4}, {"io": 2e9}]}
])";

std::string scenario(const std::string &sharing) {
  return std::string("{\"workload\": {\"applications\": ") + kApps +
         "}, \"allocation\": {\"policy\": \"fixed\", \"n\": 1}, \"sharing\": {\"policy\": \"" + sharing +
         "\"}, \"output\": {\"progress\": false}}";
}

} // namespace

// System: one resource r0 of B = 1e9 B/s, six applications of one node (b = their profile's b(1)), run under fcfs
// and under fairshare (they contend for r0: the columns must not depend on it).
// Expectations (dedicated mode, by hand):
//   A  [work 10, io 2e9] × 3, b = 1e9: iterations of work then I/O, no offset (no work after the last I/O);
//      D = 3·10 + 3·2 = 36 s, N_io = 3 → ω = 12 s, φ = 6 / 36 = 1/6.
//   B  work 5, io 4e9, work 20, io 2e9, work 10, b = 5e8: works before its first and after its last I/O, so the
//      leading 5 s is the start offset; I/O time 8 + 4 = 12 s, D = 20 + 10 + 12 = 42 s, N_io = 2 → ω = 21 s,
//      φ = 12 / 42 = 2/7.
//   C  work 7, no I/O → ω empty, φ = 0.
//   D  io 3e9, work 4, io 1e9, b = 1e9: no offset; D = 4 + 3 + 1 = 8 s, N_io = 2 → ω = 4 s, φ = 4 / 8 = 1/2.
//   E  [io 1e9, work 9] × 2, b = 1e9 (the generator's order without w^(0)): D = 2·9 + 2·1 = 20 s → ω = 10 s,
//      φ = 2 / 20 = 1/10.
//   F  work 6, io 0, work 4, io 2e9, b = 1e9: the empty I/O phase is no operation, N_io = 1; no work after the last
//      I/O, so no offset: D = 6 + 4 + 2 = 12 s → ω = 12 s, φ = 2 / 12 = 1/6.
//   The two columns follow end_s (then rho_io, rho_con, ref_bandwidth_Bps, io_stretch, io_bandwidth_Bps, bound_by,
//   bound_share end the header).
TEST(apps_columns_engine, HandBuiltWorkloadInDedicatedMode) {
  for (const char *sharing : {"fcfs", "fairshare"}) {
    SCOPED_TRACE(sharing);
    SimRun r = run_scenario(scenario(sharing), tiny_platform_xml({1e9}, 8, 100e9));
    ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
    std::string text = read_text(r.out_dir + "/apps.csv");
    std::string header = text.substr(0, text.find('\n'));
    const std::string tail = ",end_s,iteration_s,io_fraction,rho_io,rho_con,ref_bandwidth_Bps,io_stretch,io_bandwidth_"
                             "Bps,bound_by,bound_share";
    ASSERT_GE(header.size(), tail.size());
    EXPECT_EQ(header.substr(header.size() - tail.size()), tail) << header;
    for (const auto &row : r.apps_csv)
      EXPECT_EQ(row.count("__bad_width"), 0u) << text;

    EXPECT_NEAR(cell(r, "A", "iteration_s"), 12.0, 12.0 * kTol);
    EXPECT_NEAR(cell(r, "A", "io_fraction"), 1.0 / 6.0, kTol);
    EXPECT_NEAR(cell(r, "B", "iteration_s"), 21.0, 21.0 * kTol);
    EXPECT_NEAR(cell(r, "B", "io_fraction"), 2.0 / 7.0, kTol);
    EXPECT_TRUE(std::isnan(cell(r, "C", "iteration_s"))) << text;
    EXPECT_EQ(cell(r, "C", "io_fraction"), 0.0);
    EXPECT_NEAR(cell(r, "D", "iteration_s"), 4.0, 4.0 * kTol);
    EXPECT_NEAR(cell(r, "D", "io_fraction"), 0.5, kTol);
    EXPECT_NEAR(cell(r, "E", "iteration_s"), 10.0, 10.0 * kTol);
    EXPECT_NEAR(cell(r, "E", "io_fraction"), 0.1, kTol);
    EXPECT_NEAR(cell(r, "F", "iteration_s"), 12.0, 12.0 * kTol);
    EXPECT_NEAR(cell(r, "F", "io_fraction"), 1.0 / 6.0, kTol);
  }
}

// System: the RR-9502 generator without noise (ν = 0: every iteration is w = (1 − φ_i)·ω_i and v = φ_i·ω_i·B), 24
// applications (2 small, 20 medium, 2 big), h = 1e5 s, W^GOAL = 0.8, seed 4; `iosim generate` writes the same
// instance with B = 1, each line `name 1 0 0 0 nphases ω_i W w^(0) v^(1) w^(1) ...`, so φ_i = v^(1) / ω_i. The
// scenario runs it on one resource of B = 1e9 B/s (b_i = B), stopping at the window's end.
// Expectations: iteration_s = ω_i and io_fraction = φ_i for every application (relative 1e-9: sums of n_i equal
// terms), which holds only because the offset w^(0) is left out of D (w^(0) ~ U[0, ω_i] is not 0).
TEST(apps_columns_engine, NoiselessGeneratorGivesItsOmegaAndPhi) {
  TempDir dir;
  Process gen = run_iosim({"generate", "rr9502", "--seed", "4", "--set", "count=24", "--set", "n_small=2", "--set",
                           "horizon_s=1e5", "--set", "pressure=0.8", "--set", "noise=0", "-o", "w.txt"},
                          dir.path(), dir.path());
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  std::istringstream lines(read_text(dir.file("w.txt")));
  std::vector<std::vector<std::string>> apps;
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) apps.push_back(words(line));
  ASSERT_EQ(apps.size(), 24u);

  std::string s = R"({"workload": {"generator": {"kind": "rr9502", "count": 24, "n_small": 2, "horizon_s": 1e5,
    "pressure": 0.8, "noise": 0}}, "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "fcfs"},
    "window": {"stop_at_end": true}, "seed": 4, "output": {"progress": false}})";
  SimRun r = run_scenario(s, tiny_platform_xml({1e9}, 32, 100e9));
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.apps_csv.size(), 24u);
  for (const auto &t : apps) {
    ASSERT_GE(t.size(), 11u);
    double omega = std::atof(t[6].c_str()), w0 = std::atof(t[8].c_str()), v1 = std::atof(t[9].c_str());
    SCOPED_TRACE(t[0]);
    EXPECT_GT(w0, 0.0);
    EXPECT_REL(cell(r, t[0], "iteration_s"), omega, 1e-9);
    EXPECT_REL(cell(r, t[0], "io_fraction"), v1 / omega, 1e-9);
  }
}

// System: 2 resources of 1 GB/s; applications with profile b(1) = 1 GB/s, b(2) = 2 GB/s writing 2 GB.
// (a) A alone with 1 resource: T_io = 2 s against V/b(n_perf = 2) = 1 s: ρ = 2, all allocation: ρ_io = b(2)/b(1)
// = 2, ρ_con = 0. (b) A and B with 2 resources each under fairshare: every resource carries two transfers of
// 1 GB at 0.5 GB/s: T_io = 2 s, ρ = 2, ρ_io = 1 (n = n_perf), ρ_con = 1 (RR-9549 §3.3.2).
TEST(apps_columns_engine, SlowdownSplitsIntoAllocationAndCongestion) {
  auto scenario = [](const std::string &apps, int n) {
    return "{\"workload\": {\"applications\": " + apps +
           "}, \"allocation\": {\"policy\": \"fixed\", \"n\": " + std::to_string(n) +
           "}, \"sharing\": {\"policy\": \"fairshare\"}, \"output\": {\"progress\": false}}";
  };
  const std::string a = R"({"name": "A", "profile": {"1": 1e9, "2": 2e9}, "io": 2e9})";
  const std::string b = R"({"name": "B", "profile": {"1": 1e9, "2": 2e9}, "io": 2e9})";
  SimRun alone = run_scenario(scenario("[" + a + "]", 1), tiny_platform_xml({1e9, 1e9}, 4));
  ASSERT_EQ(alone.proc.exit_code, 0) << alone.describe();
  ASSERT_EQ(alone.apps_csv.size(), 1u);
  EXPECT_NEAR(std::stod(alone.apps_csv[0].at("io_slowdown")), 2.0, 1e-9);
  EXPECT_NEAR(std::stod(alone.apps_csv[0].at("rho_io")), 2.0, 1e-9);
  EXPECT_NEAR(std::stod(alone.apps_csv[0].at("rho_con")), 0.0, 1e-9);
  SimRun both = run_scenario(scenario("[" + a + ", " + b + "]", 2), tiny_platform_xml({1e9, 1e9}, 4));
  ASSERT_EQ(both.proc.exit_code, 0) << both.describe();
  for (const auto &row : both.apps_csv) {
    EXPECT_NEAR(std::stod(row.at("io_slowdown")), 2.0, 1e-9) << row.at("name");
    EXPECT_NEAR(std::stod(row.at("rho_io")), 1.0, 1e-9) << row.at("name");
    EXPECT_NEAR(std::stod(row.at("rho_con")), 1.0, 1e-9) << row.at("name");
  }
}
