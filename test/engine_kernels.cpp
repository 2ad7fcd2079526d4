// iosim engine tests — the IPDPS'21 §5.3 queue of measured kernels (src/inputs/gen/kernels.c,
// deploy/ipdps21-queue.json; data: $IOSIM_DATA_DIR/boito-queue-generator) on 96 compute nodes and 12 I/O nodes with the
// job queue. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kScenario = std::string(IOSIM_SOURCE_DIR) + "/deploy/ipdps21-queue.json";

const std::vector<std::pair<std::string, int>> kQueue = {
    {"HACC-1", 8},     {"IOR-MPIIO-2", 16}, {"SIM-3", 16},  {"IOR-MPIIO-4", 16}, {"IOR-MPIIO-5", 16},
    {"POSIX-S-6", 16}, {"POSIX-L-7", 64},   {"BT-C-8", 32}, {"MAD-9", 32},       {"MAD-10", 32},
    {"S3D-11", 64},    {"HACC-12", 8},      {"HACC-13", 8}, {"BT-D-14", 64}};

// Largest number of compute nodes in use at once, from the jobs' start and end times.
int peak_nodes(const SimRun &r) {
  std::vector<std::pair<double, int>> ev;
  for (const AppRow &a : r.apps) {
    ev.push_back({a.start, a.nodes});
    ev.push_back({a.end, -a.nodes});
  }
  std::sort(ev.begin(), ev.end()); // ends (negative) before starts at the same date
  int cur = 0, peak = 0;
  for (const auto &e : ev)
    peak = std::max(peak, cur += e.second);
  return peak;
}

} // namespace

// System: deploy/ipdps21-queue.json (the IPDPS'21 queue HACC, IOR-MPI, SIM, IOR-MPI, IOR-MPI, POSIX-S, POSIX-L,
// BT-C, MAD, MAD, S3D, HACC, HACC, BT-D; mckp; strict FIFO).
// Expectations: the 14 jobs in queue order with their nodes from bandwidth_pivot.csv; BT-C's compute time and volume
// are the least-squares fit of its 25 runtimes, runtime = T + V/b(f) (numpy.linalg.lstsq on runtime.csv:
// T = 15.7044 s, V = 8924.1 MB); BT-D's runtimes grow with forwarders while its bandwidth grows (no positive V fits),
// so it is I/O-bound at direct access: V = 232 MB/s × mean(617.46, 643.16, 677.24, 719.15, 766.16) s =
// 158,835.088 MB, no work; every job completes; starts follow the queue order (FIFO); at most 96 nodes in use.
TEST(kernels_engine, IpdpsQueueJobsAreFittedAndStartInFifoOrder) {
  SimRun r = run_scenario_file(kScenario, {"output.progress=false"});
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.apps.size(), kQueue.size()) << r.describe();
  for (size_t i = 0; i < kQueue.size(); i++) {
    EXPECT_EQ(r.apps[i].name, kQueue[i].first);
    EXPECT_EQ(r.apps[i].nodes, kQueue[i].second) << kQueue[i].first;
    EXPECT_FALSE(std::isnan(r.apps[i].end)) << kQueue[i].first;
    if (i > 0) {
      EXPECT_LE(r.apps[i - 1].start, r.apps[i].start) << kQueue[i].first;
    }
  }
  EXPECT_NEAR(r.app("BT-C-8").work_time, 15.7044, 1e-4);
  EXPECT_NEAR(r.app("BT-C-8").io_volume / 1e6, 8924.1, 0.05);
  EXPECT_NEAR(r.app("BT-D-14").io_volume / 1e6, 158835.088, 1e-3);
  EXPECT_EQ(r.app("BT-D-14").work_time, 0.0);
  EXPECT_LE(peak_nodes(r), 96);
  EXPECT_EQ(r.str("status"), "complete");
}

// System: the same queue under static-ceil (IPDPS'21 STATIC: ceil(C_a/R), R = 96/12 = 8 compute nodes per I/O node),
// a static mapping.
// Expectations: every job keeps its first allocation: allocations.csv has one row per job, with ceil(nodes/8) I/O
// nodes: HACC 1, IOR-MPI 2, SIM 2, POSIX-S 2, POSIX-L 8, BT-C 4, MAD 4, S3D 8, BT-D 8; the interval is the job's
// lifetime.
TEST(kernels_engine, StaticCeilKeepsEachJobsFirstAllocation) {
  SimRun r = run_scenario_file(kScenario, {"allocation.policy=static-ceil", "output.progress=false"});
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  CsvTable rows = parse_csv(read_text(r.out_dir + "/allocations.csv"));
  ASSERT_EQ(rows.size(), kQueue.size());
  for (const auto &row : rows) {
    const std::string &name = row.at("app");
    const AppRow &a = r.app(name);
    EXPECT_EQ(std::stoi(row.at("n_resources")), (a.nodes + 7) / 8) << name;
    EXPECT_NEAR(std::stod(row.at("start_s")), a.start, 1e-9) << name;
    EXPECT_NEAR(std::stod(row.at("end_s")), a.end, 1e-9) << name;
  }
}

// Expectations: an unknown kernel name is refused naming the list entry and the known kernels (exit 2).
TEST(kernels_engine, UnknownKernelIsRefused) {
  SimRun r = run_scenario_file(kScenario, {"workload.generator.jobs=[\"HACC\", \"LAMMPS\"]"});
  EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
  for (const char *s : {"workload.generator.jobs[1]", "LAMMPS", "BT-C", "S3D"})
    EXPECT_NE(r.proc.err.find(s), std::string::npos) << s << " not in " << r.proc.err;
}
