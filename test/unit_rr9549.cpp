// Unit tests of the RR-9549 §5.3 generator's application sizes and draws (src/inputs/forge.c), in-process on a
// hand-written FORGE-format CSV: the processes column read as s_a (IPDPS'21 §3.2 PROCESS), the size classes of §5.3 (10
// % of the applications on 75 % of Q^cpu, 30 % on 20 %, 60 % on 5 %), processes per node kept under the classes, and
// the `independent_loads` switch (same draws at every Θ, or draws that depend on Θ). Expected values are computed by
// hand in the comments.
#include <gtest/gtest.h>

#include <cjson/cJSON.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ios_diag.h"
#include "ios_gen_rr9549.h"
#include "ios_model.h"
#include "ios_platform.h"
#include "ios_workload.h"
#include "support.h"

extern "C" int ios_rr9549_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed,
                                   ios_workload_t *w);

namespace {

const char *const kHeader = "clients,processes,\"layout(0=fpp,1=shared)\",\"spatiality(0=contig,1=strided)\","
                            "request_KiB,odirect,bw_MBps_0ion,bw_1ion,bw_2ion,bw_4ion,bw_8ion,n_reps_0/1/2/4/8\n";

// The test program's scratch directory, removed with its content when the program exits.
const iosim_test::TempDir &scratch() {
  static iosim_test::TempDir dir;
  return dir;
}

// Writes `rows` (each "clients,processes") as a FORGE CSV with made-up bandwidths; returns its path.
std::string write_csv(const std::string &name, const std::vector<std::pair<int, int>> &rows) {
  std::string path = scratch().file("rr9549-" + name + ".csv");
  std::ofstream out(path);
  out << kHeader;
  for (const auto &r : rows)
    out << r.first << "," << r.second << ",0,0,1024,0,100,200,300,400,500,5/5/5/5/5\n";
  return path;
}

// 20 patterns: row i (1-based) has clients 8, 16 or 32 (i mod 3) and 12, 24 or 48 processes per node (i mod 5 < 2,
// < 4, else), so processes / clients identifies the row's ratio.
std::vector<std::pair<int, int>> twenty_patterns() {
  std::vector<std::pair<int, int>> rows;
  for (int i = 1; i <= 20; i++) {
    int clients = i % 3 == 0 ? 8 : i % 3 == 1 ? 16 : 32;
    int ppn = i % 5 < 2 ? 12 : i % 5 < 4 ? 24 : 48;
    rows.emplace_back(clients, clients * ppn);
  }
  return rows;
}

TEST(Rr9549Forge, ReaderReturnsTheProcessesColumn) {
  // Two rows: (8 clients, 96 processes), (32 clients, 1536 processes). Expectations: nodes 8, 32; processes 96, 1536
  // (not the node counts, which is what PROCESS = SIZE would mean).
  std::string path = write_csv("procs", {{8, 96}, {32, 1536}});
  int n = 0, *nodes = nullptr, *procs = nullptr;
  ios_profile_t *prof = nullptr;
  ASSERT_EQ(ios_read_forge_processes(path.c_str(), &n, &nodes, &procs, &prof), IOS_OK) << ios_diag_message();
  ASSERT_EQ(n, 2);
  EXPECT_EQ(nodes[0], 8);
  EXPECT_EQ(nodes[1], 32);
  EXPECT_EQ(procs[0], 96);
  EXPECT_EQ(procs[1], 1536);
  free(nodes);
  free(procs);
  free(prof);
}

TEST(Rr9549Forge, ReaderRejectsAFractionalProcessCount) {
  // A processes cell of 12.5 is not a process count: IOS_EINVAL naming the column.
  std::string path = scratch().file("rr9549-badprocs.csv");
  std::ofstream(path) << kHeader << "8,12.5,0,0,1024,0,100,200,300,400,500,5/5/5/5/5\n";
  int n = 0, *nodes = nullptr;
  ios_profile_t *prof = nullptr;
  EXPECT_EQ(ios_read_forge(path.c_str(), &n, &nodes, &prof), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("processes"), std::string::npos) << ios_diag_message();
}

TEST(Rr9549Forge, SizeClassesSplitTheComputeNodes) {
  // K = 20, Q^cpu = 480: 2 large share 360 (180 each), 6 medium share 96 (16 each), 12 small share 24 (2 each).
  std::vector<int> q(20);
  ios_rr9549_class_nodes(20, 480, q.data());
  std::vector<int> want = {180, 180};
  want.insert(want.end(), 6, 16);
  want.insert(want.end(), 12, 2);
  EXPECT_EQ(q, want);
  // K = 10: 1 large 360, 3 medium 32 (96 / 3), 6 small 4 (24 / 6).
  q.assign(10, 0);
  ios_rr9549_class_nodes(10, 480, q.data());
  want = {360, 32, 32, 32, 4, 4, 4, 4, 4, 4};
  EXPECT_EQ(q, want);
  // K = 16: round(1.6) = 2 large of floor(360 / 2) = 180, round(4.8) = 5 medium of floor(96 / 5) = 19, 9 small of
  // floor(24 / 9) = 2.
  q.assign(16, 0);
  ios_rr9549_class_nodes(16, 480, q.data());
  want = {180, 180, 19, 19, 19, 19, 19};
  want.insert(want.end(), 9, 2);
  EXPECT_EQ(q, want);
  // K = 40 on 48 nodes: 4 large of 9, 12 medium of floor(9.6 / 12) = 0 -> at least 1, 24 small of 0.1 -> 1.
  q.assign(40, 0);
  ios_rr9549_class_nodes(40, 48, q.data());
  EXPECT_EQ(q[0], 9);
  EXPECT_EQ(q[4], 1);
  EXPECT_EQ(q[39], 1);
}

// A pool of two resources (the generator reads only nres unless "resources" is given).
struct Pool {
  ios_resource_t res[2];
  ios_platform_t p;
  Pool() {
    std::memset(res, 0, sizeof res);
    std::memset(&p, 0, sizeof p);
    res[0].capacity = res[1].capacity = 1e9;
    p.nres = 2;
    p.res = res;
  }
};

struct Gen {
  ios_workload_t w{};
  int rc = IOS_EINTERNAL;
  ~Gen() { ios_workload_free(&w); }
};

void generate(Gen &g, const std::string &csv, const std::string &extra, uint64_t seed) {
  std::string json = "{\"kind\": \"rr9549\", \"profiles\": \"" + csv + "\", \"count\": 10" + extra + "}";
  cJSON *spec = cJSON_Parse(json.c_str());
  ASSERT_NE(spec, nullptr) << json;
  Pool pool;
  g.rc = ios_rr9549_generate(spec, "scenario.json", &pool.p, seed, &g.w);
  cJSON_Delete(spec);
}

// The data row (1-based) of an application named mn4-pNNN.
int row_of(const ios_app_t &a) {
  return std::atoi(a.name + 5);
}

TEST(Rr9549Forge, WithoutClassesEachApplicationKeepsItsPatternsNodesAndProcesses) {
  // size_classes absent (0): Q_j and s_a are the pattern's clients and processes (IPDPS'21 §3.2).
  std::string csv = write_csv("twenty", twenty_patterns());
  auto rows = twenty_patterns();
  Gen g;
  generate(g, csv, "", 1);
  ASSERT_EQ(g.rc, IOS_OK) << ios_diag_message();
  ASSERT_EQ(g.w.napps, 10);
  for (int j = 0; j < g.w.napps; j++) {
    const ios_app_t &a = g.w.apps[j];
    int r = row_of(a);
    ASSERT_GE(r, 1);
    ASSERT_LE(r, 20);
    EXPECT_EQ(a.nodes, rows[r - 1].first) << a.name;
    EXPECT_EQ(a.processes, rows[r - 1].second) << a.name;
  }
}

TEST(Rr9549Forge, ClassesGiveQjAndKeepProcessesPerNode) {
  // size_classes 1, K = 10, Q^cpu = 480: nodes 360, 32, 32, 32, then six of 4 (hand split above); together 480.
  // s_a = Q_j × the pattern's processes per node (row i: 12, 24 or 48 as i mod 5 < 2, < 4, else).
  std::string csv = write_csv("twenty", twenty_patterns());
  Gen g;
  generate(g, csv, ", \"size_classes\": 1, \"compute_nodes\": 480", 7);
  ASSERT_EQ(g.rc, IOS_OK) << ios_diag_message();
  ASSERT_EQ(g.w.napps, 10);
  const int want[10] = {360, 32, 32, 32, 4, 4, 4, 4, 4, 4};
  int total = 0;
  for (int j = 0; j < 10; j++) {
    const ios_app_t &a = g.w.apps[j];
    int r = row_of(a), ppn = r % 5 < 2 ? 12 : r % 5 < 4 ? 24 : 48;
    EXPECT_EQ(a.nodes, want[j]) << a.name;
    EXPECT_EQ(a.processes, want[j] * ppn) << a.name;
    total += a.nodes;
  }
  EXPECT_EQ(total, 480);
  // compute_nodes 96: large 72, medium floor(19.2 / 3) = 6, small floor(4.8 / 6) = 0 -> 1.
  Gen h;
  generate(h, csv, ", \"size_classes\": 1, \"compute_nodes\": 96", 7);
  ASSERT_EQ(h.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(h.w.apps[0].nodes, 72);
  EXPECT_EQ(h.w.apps[1].nodes, 6);
  EXPECT_EQ(h.w.apps[9].nodes, 1);
}

// The applications' patterns and phase counts, in order: what the random draws decided.
std::vector<std::pair<int, int>> draws(const Gen &g) {
  std::vector<std::pair<int, int>> out;
  for (int j = 0; j < g.w.napps; j++)
    out.emplace_back(row_of(g.w.apps[j]), g.w.apps[j].nphases);
  return out;
}

TEST(Rr9549Forge, IndependentLoadsDrawAnewPerTheta) {
  // Same seed at Θ = 0.1 and 0.3. independent_loads 0: the same patterns and phase counts (only X's bound changes).
  // independent_loads 1: different draws (10 of 20 patterns in order and 10 phase counts of 19 values: equal by chance
  // with probability below 1e-12), and the same Θ twice gives the same workload.
  std::string csv = write_csv("twenty", twenty_patterns());
  Gen a, b, c, d, e;
  generate(a, csv, ", \"io_load\": 0.1", 3);
  generate(b, csv, ", \"io_load\": 0.3", 3);
  generate(c, csv, ", \"io_load\": 0.1, \"independent_loads\": 1", 3);
  generate(d, csv, ", \"io_load\": 0.3, \"independent_loads\": 1", 3);
  generate(e, csv, ", \"io_load\": 0.3, \"independent_loads\": 1", 3);
  for (Gen *g : {&a, &b, &c, &d, &e})
    ASSERT_EQ(g->rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(draws(a), draws(b));
  EXPECT_NE(draws(c), draws(d));
  EXPECT_EQ(draws(d), draws(e));
  EXPECT_NE(draws(a), draws(c)); // the independent stream is not the shared one
}

// The made-up rows move 100 MiB/s with direct access and 200, 300, 400, 500 MiB/s with 1, 2, 4, 8 I/O nodes.
// Expectations: by default (direct_access 1) every drawn profile has the 5 points n = 0, 1, 2, 4, 8, b(0) = 100 MiB/s;
// with direct_access 0 it has the 4 points n = 1, 2, 4, 8 (b(1) = 200 MiB/s first) and no direct bandwidth
// (ios_profile_bw(p, 0) = 0, so MCKP, SIZE and ORACLE cannot choose 0); the dataset kept with the workload (for
// RR-9549 §6.2's fit) is the 20 rows as read, point 0 included.
TEST(Rr9549Forge, DirectAccessSwitchDropsThePointZero) {
  std::string csv = write_csv("twenty", twenty_patterns());
  const double mib = 1048576.0;
  Gen with, without;
  generate(with, csv, "", 5);
  generate(without, csv, ", \"direct_access\": 0", 5);
  ASSERT_EQ(with.rc, IOS_OK) << ios_diag_message();
  ASSERT_EQ(without.rc, IOS_OK) << ios_diag_message();
  ASSERT_EQ(without.w.napps, 10);
  for (int j = 0; j < 10; j++) {
    const ios_profile_t &a = with.w.apps[j].profile, &b = without.w.apps[j].profile;
    ASSERT_EQ(a.npoints, 5);
    EXPECT_EQ(a.n[0], 0);
    EXPECT_DOUBLE_EQ(ios_profile_bw(&a, 0), 100 * mib);
    ASSERT_EQ(b.npoints, 4);
    EXPECT_EQ(b.n[0], 1);
    EXPECT_DOUBLE_EQ(b.bw[0], 200 * mib);
    EXPECT_EQ(ios_profile_bw(&b, 0), 0.0);
    EXPECT_EQ(std::string(with.w.apps[j].name), std::string(without.w.apps[j].name)); // same draws
  }
  ASSERT_EQ(without.w.npopulation, 20);
  EXPECT_EQ(without.w.population[0].npoints, 5);
  Gen bad;
  generate(bad, csv, ", \"direct_access\": 2", 5);
  EXPECT_EQ(bad.rc, IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("direct_access"), std::string::npos) << ios_diag_message();
}

TEST(Rr9549Forge, SwitchesAreZeroOrOne) {
  std::string csv = write_csv("twenty", twenty_patterns());
  Gen g, h;
  generate(g, csv, ", \"size_classes\": 2", 1);
  EXPECT_EQ(g.rc, IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("size_classes"), std::string::npos) << ios_diag_message();
  generate(h, csv, ", \"independent_loads\": 0.5", 1);
  EXPECT_EQ(h.rc, IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("independent_loads"), std::string::npos) << ios_diag_message();
}

} // namespace
