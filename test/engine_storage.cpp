// iosim engine tests — storage-allocation scenarios (src/storalloc/ios_storalloc_run.h): `iosim run` with a `storage`
// object schedules the requests (StorAlloc) and writes requests.csv and results.json whose metrics are StorAlloc's
// Table 3, so sweeps and reports work on them. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

using namespace iosim_test;

namespace {

// 1 node with 2 disks of 100 bytes; requests (id, times, bytes): 1 at 0 s for 10 s, 60 B; 2 at 1 s for 10 s, 60 B;
// 3 at 2 s for 10 s, 150 B (larger than any disk).
const char *kTrace = "id,start_time,end_time,read_bytes,written_bytes\n"
                     "1,0,10,0,60\n"
                     "2,1,11,60,0\n"
                     "3,2,12,0,150\n";

std::string scenario(const std::string &policy, const std::string &extra = "") {
  return R"({"storage": {"platform": {"nodes": [{"name": "n0", "disks": 2, "disk_capacity": 100, "write_bw": 1e9}]},
                         "allocation": {"policy": ")" +
         policy + R"("}, "requests": {"file": "trace.csv"})" + extra + R"(}, "output": {"progress": false}})";
}

} // namespace

// System: the trace above under round-robin, then under worst-fit.
// Expectations (by hand): round-robin puts request 1 on disk 0, request 2 on disk 1 (the cursor moved on), and
// refuses request 3 (no disk can hold 150 B), which goes to the PFS: 2 allocated, 1 refused, served share =
// 120/270; worst-fit puts 1 on disk 0 (both empty: the first), 2 on disk 1 (largest free share), and 3 on a disk
// without room: failed (never refused), the same share. requests.csv has the three rows with these statuses.
TEST(storage_engine, TraceOnTwoDisksGivesTheHandComputedOutcome) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = kTrace;
  SimRun rr = run_scenario(scenario("round-robin"), "", opt);
  ASSERT_EQ(rr.proc.exit_code, 0) << rr.describe();
  EXPECT_EQ(rr.str("status"), "complete");
  EXPECT_EQ(rr.metric("allocated"), 2);
  EXPECT_EQ(rr.metric("refused"), 1);
  EXPECT_EQ(rr.metric("failed"), 0);
  EXPECT_NEAR(rr.metric("served_share"), 120.0 / 270.0, 1e-12);
  CsvTable rows = parse_csv(read_text(rr.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("status"), "allocated");
  EXPECT_EQ(rows[0].at("disks"), "0");
  EXPECT_EQ(rows[1].at("disks"), "1");
  EXPECT_EQ(rows[2].at("status"), "refused");
  SimRun wf = run_scenario(scenario("worst-fit"), "", opt);
  ASSERT_EQ(wf.proc.exit_code, 0) << wf.describe();
  EXPECT_EQ(wf.metric("failed"), 1);
  EXPECT_EQ(wf.metric("refused"), 0);
  EXPECT_NEAR(wf.metric("served_share"), 120.0 / 270.0, 1e-12);
}

// Expectations: a bad storage object is refused before anything runs (exit 2, the field named, no results.json).
TEST(storage_engine, BadStorageScenarioExitsWithCode2) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = kTrace;
  SimRun bad = run_scenario(scenario("round-robin", R"(, "colour": "blue")"), "", opt);
  EXPECT_EQ(bad.proc.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.proc.err.find("unknown field 'colour'"), std::string::npos) << bad.proc.err;
  EXPECT_FALSE(bad.has_results);
  SimRun pol = run_scenario(scenario("best-fit"), "", opt);
  EXPECT_EQ(pol.proc.exit_code, 2) << pol.describe();
  EXPECT_NE(pol.proc.err.find("best-fit"), std::string::npos) << pol.proc.err;
}

// ---------------------------------------------------------------------------------------------------------------
// Simulated I/O: without storage.platform the storage tier is the platform XML's disks and every request's job does
// its I/O through SimGrid (on its disks, or on the PFS when refused or failed).

namespace {

// The start of the storage test platforms: compute host c0, the controller, storage node node0 and the opening of
// its first disk node0d0's host element (its link property written; the caller adds the rest).
std::string storage_head() {
  return R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="DijkstraCache">
    <host id="c0" speed="1Gf"><prop id="role" value="compute"/><prop id="nic_bw" value="12.5GBps"/></host>
    <host id="controller" speed="1Gf"><prop id="role" value="controller"/></host>
    <host id="node0" speed="1Gf"><prop id="role" value="storage"/><prop id="link" value="node0"/></host>
    <host id="node0d0" speed="1Gf"><prop id="role" value="disk"/><prop id="link" value="node0d0"/>)";
}

// One storage node `node0` (link 1.5 GB/s) with two disks of cap0 and cap1 (default 100 GB; "" = no capacity
// property) at 1 GB/s (write), a PFS at 0.5 GB/s.
std::string storage_platform(const std::string &cap0 = "100GB", const std::string &cap1 = "100GB") {
  auto cap = [](const std::string &c) {
    return c.empty() ? std::string() : R"(<prop id="capacity" value=")" + c + R"("/>)";
  };
  return storage_head() + R"(<prop id="node" value="node0"/>)" + cap(cap0) + R"(</host>
    <host id="node0d1" speed="1Gf"><prop id="role" value="disk"/><prop id="link" value="node0d1"/>)" +
         R"(<prop id="node" value="node0"/>)" + cap(cap1) + R"(</host>
    <host id="pfs" speed="1Gf"><prop id="role" value="pfs"/><prop id="link" value="gpfs"/></host>
    <router id="fabric"/>
    <link id="compute_fabric" bandwidth="1000TBps" latency="0" sharing_policy="FATPIPE"/>
    <link id="controller_link" bandwidth="100GBps" latency="0"/>
    <link id="node0" bandwidth="1.5GBps" latency="0"/>
    <link id="node0d0" bandwidth="1GBps" latency="0"/>
    <link id="node0d1" bandwidth="1GBps" latency="0"/>
    <link id="gpfs" bandwidth="0.5GBps" latency="0"/>
    <route src="c0" dst="fabric"><link_ctn id="compute_fabric"/></route>
    <route src="fabric" dst="controller"><link_ctn id="controller_link"/></route>
    <route src="fabric" dst="node0d0"><link_ctn id="node0"/><link_ctn id="node0d0"/></route>
    <route src="fabric" dst="node0d1"><link_ctn id="node0"/><link_ctn id="node0d1"/></route>
    <route src="fabric" dst="pfs"><link_ctn id="gpfs"/></route>
  </zone>
</platform>
)";
}

std::string simulated(const std::string &allocation) {
  return R"({"storage": {"allocation": )" + allocation +
         R"(, "requests": {"file": "trace.csv"}}, "output": {"progress": false}})";
}

double cell(const std::map<std::string, std::string> &row, const std::string &col) {
  auto it = row.find(col);
  return it == row.end() || it->second.empty() ? std::nan("") : std::stod(it->second);
}

} // namespace

// System: node0's two 1 GB/s disks behind its 1.5 GB/s link; round-robin without split (tries 0 = every disk).
// Requests: 1 and 2 at 0 s for 100 s writing 60 GB each; 3 at 10 s writing 90 GB (no disk has 90 GB left).
// Expectations (by hand): 1 on disk 0, 2 on disk 1, 3 refused → PFS.
// StorAlloc's estimate (permanent regime, at the decision): request 1 is alone on the node: 1 GB/s; request 2 shares
// the node link with 1 until both end at 100 s: 1.5 / 2 = 0.75 GB/s.
// Simulation: each job alone would write at 1 GB/s, so it computes 100 − 60 = 40 s, then both write together at
// 0.75 GB/s (the node link): 80 s, ending at 120 s (an overrun of their 100 s allocations); request 3 alone on
// the PFS (0.5 GB/s) writes 90 GB in 180 s from 10 s (no compute left), ending at 190 s.
TEST(storage_engine, SimulatedIoOnAllocatedDisksMatchesHandComputation) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = "id,nodes,start_time,end_time,read_bytes,written_bytes\n"
                                 "1,1,0,100,0,60GB\n2,1,0,100,0,60GB\n3,1,10,100,0,90GB\n";
  SimRun r = run_scenario(simulated(R"({"policy": "round-robin", "split": false, "params": {"tries": 0}})"),
                          storage_platform(), opt);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.metric("allocated"), 2);
  EXPECT_EQ(r.metric("refused"), 1);
  CsvTable rows = parse_csv(read_text(r.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_NEAR(cell(rows[0], "est_bw_Bps"), 1e9, 1);
  EXPECT_NEAR(cell(rows[1], "est_bw_Bps"), 0.75e9, 1);
  EXPECT_TRUE(std::isnan(cell(rows[2], "est_bw_Bps")));
  for (int i = 0; i < 2; i++) {
    EXPECT_NEAR(cell(rows[i], "sim_bw_Bps"), 0.75e9, 1) << i;
    EXPECT_NEAR(cell(rows[i], "io_time_s"), 80, 1e-6) << i;
    EXPECT_NEAR(cell(rows[i], "io_end_s"), 120, 1e-6) << i;
    EXPECT_NEAR(cell(rows[i], "io_bytes"), 60e9, 1) << i;
  }
  EXPECT_NEAR(cell(rows[2], "sim_bw_Bps"), 0.5e9, 1);
  EXPECT_NEAR(cell(rows[2], "io_start_s"), 10, 1e-9);
  EXPECT_NEAR(cell(rows[2], "io_end_s"), 190, 1e-6);
  EXPECT_NEAR(r.metric("sim_bw_mean_Bps"), 0.75e9, 1);
  EXPECT_NEAR(r.metric("est_bw_mean_Bps"), 0.875e9, 1);
  EXPECT_NEAR(r.metric("sim_to_est_median"), (0.75 + 1.0) / 2, 1e-9);
  EXPECT_NEAR(r.metric("pfs_bw_mean_Bps"), 0.5e9, 1);
  EXPECT_NEAR(r.metric("storage_io_bytes"), 120e9, 1);
  EXPECT_NEAR(r.metric("pfs_io_bytes"), 90e9, 1);
  EXPECT_EQ(r.metric("overruns"), 2);
  CsvTable al = parse_csv(read_text(r.out_dir + "/allocations.csv"));
  ASSERT_EQ(al.size(), 3u);
  std::map<std::string, std::string> where;
  for (const auto &row : al)
    where[row.at("app")] = row.at("resources");
  EXPECT_EQ(where["request0"], "node0d0");
  EXPECT_EQ(where["request1"], "node0d1");
  EXPECT_EQ(where["request2"], "");
}

// System: the same platform; one request of 100 GB read + 100 GB written, split at 50 GB (2 parts), for 1000 s.
// Expectations: round-robin puts its parts on disks 0 and 1; alone, its estimate is the node link, 1.5 GB/s (two
// 1 GB/s disks behind 1.5 GB/s); the job reads 100 GB at 1.5 GB/s (66.67 s), computes 1000 − 200/1.5 s, writes
// 100 GB in 66.67 s: 133.33 s of I/O at 1.5 GB/s, ending exactly at 1000 s (no overrun). With one disk of 200 GB
// holding both parts, the two transfers share that disk: 1 GB/s, 200 s of I/O.
TEST(storage_engine, SplitPartsTransferInParallelAndShareTheirDisk) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = "id,nodes,start_time,end_time,read_bytes,written_bytes\n1,2,0,1000,100GB,100GB\n";
  SimRun r = run_scenario(
      simulated(R"({"policy": "round-robin", "decide": "start", "split": {"threshold": "50GB", "parts": "all"}})"),
      storage_platform(), opt);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  CsvTable rows = parse_csv(read_text(r.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("disks"), "0;1");
  EXPECT_NEAR(cell(rows[0], "est_bw_Bps"), 1.5e9, 1);
  EXPECT_NEAR(cell(rows[0], "sim_bw_Bps"), 1.5e9, 1);
  EXPECT_NEAR(cell(rows[0], "io_time_s"), 200 / 1.5, 1e-6);
  EXPECT_NEAR(cell(rows[0], "io_end_s"), 1000, 1e-6);
  EXPECT_EQ(r.metric("overruns"), 0);
  // disk 0 of 200 GB, disk 1 of 40 GB (too small for a 50 GB part): round-robin puts both parts on disk 0; its
  // estimate is 2 x 0.5 GB/s, and the simulated job moves 200 GB at 1 GB/s (the disk), 200 s of I/O ending at 1000 s
  SimRun one = run_scenario(
      simulated(
          R"({"policy": "round-robin", "decide": "start", "split": {"threshold": "50GB", "parts": "all"}, "params": {"tries": 0}})"),
      storage_platform("200GB", "40GB"), opt);
  ASSERT_EQ(one.proc.exit_code, 0) << one.describe();
  rows = parse_csv(read_text(one.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("disks"), "0;0");
  EXPECT_NEAR(cell(rows[0], "est_bw_Bps"), 1e9, 1);
  EXPECT_NEAR(cell(rows[0], "sim_bw_Bps"), 1e9, 1);
  EXPECT_NEAR(cell(rows[0], "io_time_s"), 200, 1e-6);
  EXPECT_NEAR(cell(rows[0], "io_end_s"), 1000, 1e-6);
}

// Expectations: exit 2 with the host or field named, no results.json: a disk without a capacity; a platform whose
// I/O resources are not disks; storage.platform given (schedule-only) stays valid without disks.
TEST(storage_engine, SimulatedStorageInputErrorsExitWithCode2) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = kTrace;
  SimRun nocap = run_scenario(simulated(R"({"policy": "random"})"), storage_platform(""), opt);
  EXPECT_EQ(nocap.proc.exit_code, 2) << nocap.describe();
  EXPECT_NE(nocap.proc.err.find("node0d0"), std::string::npos) << nocap.proc.err;
  EXPECT_NE(nocap.proc.err.find("capacity"), std::string::npos) << nocap.proc.err;
  EXPECT_FALSE(nocap.has_results);
  SimRun nodisk = run_scenario(simulated(R"({"policy": "random"})"), tiny_platform_xml(std::vector<double>{1e9}), opt);
  EXPECT_EQ(nodisk.proc.exit_code, 2) << nodisk.describe();
  EXPECT_NE(nodisk.proc.err.find("no storage tier"), std::string::npos) << nodisk.proc.err;
  EXPECT_FALSE(nodisk.has_results);
}

// ---------------------------------------------------------------------------------------------------------------
// Separate read bandwidth: a disk whose reads have their own route (read_host), both routes crossing the disk's
// device link of max(read, write), which concurrent reads and writes share (docs/storalloc.md "Simulated I/O").

namespace {

// One storage node `node0` (link 100 GB/s, never binding) with one disk `node0d0` of 100 GB: write link 1 GB/s,
// read link 2 GB/s (to host node0d0_read), device link 2 GB/s; a PFS at 0.5 GB/s. `read_host` is the disk's
// read_host property ("" = none).
std::string read_write_platform(const std::string &read_host = "node0d0_read") {
  return storage_head() + R"(<prop id="node" value="node0"/><prop id="capacity" value="100GB"/>)" +
         (read_host.empty() ? std::string() : R"(<prop id="read_host" value=")" + read_host + R"("/>)") + R"(</host>
    <host id="node0d0_read" speed="1Gf"><prop id="role" value="none"/><prop id="link" value="node0d0_read"/></host>
    <host id="pfs" speed="1Gf"><prop id="role" value="pfs"/><prop id="link" value="gpfs"/></host>
    <router id="fabric"/>
    <link id="compute_fabric" bandwidth="1000TBps" latency="0"/>
    <link id="controller_link" bandwidth="100GBps" latency="0"/>
    <link id="node0" bandwidth="100GBps" latency="0"/>
    <link id="node0d0" bandwidth="1GBps" latency="0"/>
    <link id="node0d0_read" bandwidth="2GBps" latency="0"/>
    <link id="node0d0_io" bandwidth="2GBps" latency="0"/>
    <link id="gpfs" bandwidth="0.5GBps" latency="0"/>
    <route src="c0" dst="fabric"><link_ctn id="compute_fabric"/></route>
    <route src="fabric" dst="controller"><link_ctn id="controller_link"/></route>
    <route src="fabric" dst="node0d0"><link_ctn id="node0"/><link_ctn id="node0d0"/><link_ctn id="node0d0_io"/></route>
    <route src="fabric" dst="node0d0_read"><link_ctn id="node0"/><link_ctn id="node0d0_read"/><link_ctn id="node0d0_io"/></route>
    <route src="fabric" dst="pfs"><link_ctn id="gpfs"/></route>
  </zone>
</platform>
)";
}

} // namespace

// System: the disk above (read 2 GB/s, write 1 GB/s); one job at 0 s for 15 s reading 10 GB and writing 10 GB.
// Expectations (by hand): alone it reads 10 GB at 2 GB/s (5 s) and writes 10 GB at 1 GB/s (10 s): 15 s of I/O, no
// compute left, I/O ending at 15 s (with reads on the write link: 20 s, an overrun); sim_bw = 20 GB / 15 s. Without
// the read_host property the reads share the write link: 10 s + 10 s, the job's compute is 15 − 20 < 0 s (none), its
// I/O ends at 20 s.
TEST(storage_engine, ReadsUseTheDiskReadBandwidth) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = "id,nodes,start_time,end_time,read_bytes,written_bytes\n1,1,0,15,10GB,10GB\n";
  const std::string sc = simulated(R"({"policy": "round-robin", "split": false})");
  SimRun r = run_scenario(sc, read_write_platform(), opt);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.metric("allocated"), 1);
  CsvTable rows = parse_csv(read_text(r.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(cell(rows[0], "io_time_s"), 15, 1e-6);
  EXPECT_NEAR(cell(rows[0], "io_end_s"), 15, 1e-6);
  EXPECT_NEAR(cell(rows[0], "sim_bw_Bps"), 20e9 / 15, 1);
  EXPECT_EQ(r.metric("overruns"), 0);
  SimRun one = run_scenario(sc, read_write_platform(""), opt);
  ASSERT_EQ(one.proc.exit_code, 0) << one.describe();
  rows = parse_csv(read_text(one.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(cell(rows[0], "io_time_s"), 20, 1e-6);
  EXPECT_NEAR(cell(rows[0], "io_end_s"), 20, 1e-6);
  EXPECT_EQ(one.metric("overruns"), 1);
}

// System: the same disk; job 1 at 0 s for 10 s reads 10 GB, job 2 at 0 s for 10 s writes 10 GB (both on the disk).
// Expectations (by hand): reads and writes share the device link (2 GB/s): max-min gives each 1 GB/s (job 2's write
// link, 1 GB/s, does not bind it lower), so job 1 reads for 10 s (alone it would take 5 s) and job 2 writes for 10 s;
// job 1 then computes its 10 − 5 = 5 s and ends at 15 s (io_end_s: the job's end), job 2 at 10 s.
TEST(storage_engine, ConcurrentReadsAndWritesShareTheDisk) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = "id,nodes,start_time,end_time,read_bytes,written_bytes\n"
                                 "1,1,0,10,10GB,0\n2,1,0,10,0,10GB\n";
  SimRun r = run_scenario(simulated(R"({"policy": "round-robin", "split": false})"), read_write_platform(), opt);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.metric("allocated"), 2);
  CsvTable rows = parse_csv(read_text(r.out_dir + "/requests.csv"));
  ASSERT_EQ(rows.size(), 2u);
  for (int i = 0; i < 2; i++) {
    EXPECT_NEAR(cell(rows[i], "io_time_s"), 10, 1e-6) << i;
    EXPECT_NEAR(cell(rows[i], "sim_bw_Bps"), 1e9, 1) << i;
  }
  EXPECT_NEAR(cell(rows[0], "io_end_s"), 15, 1e-6);
  EXPECT_NEAR(cell(rows[1], "io_end_s"), 10, 1e-6);
  EXPECT_EQ(r.metric("overruns"), 1);
}

// Expectations: exit 2 naming the disk and the property: a read_host that is not a host; a read_host without a link;
// a read_bw property that contradicts the read link.
TEST(storage_engine, BadReadHostExitsWithCode2) {
  RunOptions opt;
  opt.extra_files["trace.csv"] = "id,nodes,start_time,end_time,read_bytes,written_bytes\n1,1,0,15,10GB,10GB\n";
  const std::string sc = simulated(R"({"policy": "round-robin"})");
  SimRun missing = run_scenario(sc, read_write_platform("nowhere"), opt);
  EXPECT_EQ(missing.proc.exit_code, 2) << missing.describe();
  EXPECT_NE(missing.proc.err.find("node0d0"), std::string::npos) << missing.proc.err;
  EXPECT_NE(missing.proc.err.find("read_host"), std::string::npos) << missing.proc.err;
  EXPECT_NE(missing.proc.err.find("nowhere"), std::string::npos) << missing.proc.err;
  EXPECT_FALSE(missing.has_results);
  SimRun nolink = run_scenario(sc, read_write_platform("controller"), opt);
  EXPECT_EQ(nolink.proc.exit_code, 2) << nolink.describe();
  EXPECT_NE(nolink.proc.err.find("has no \"link\""), std::string::npos) << nolink.proc.err;
  std::string xml = read_write_platform();
  const std::string cap = R"(<prop id="capacity" value="100GB"/>)";
  xml.replace(xml.find(cap), cap.size(), cap + R"(<prop id="read_bw" value="3GBps"/>)");
  SimRun contra = run_scenario(sc, xml, opt);
  EXPECT_EQ(contra.proc.exit_code, 2) << contra.describe();
  EXPECT_NE(contra.proc.err.find("read_bw"), std::string::npos) << contra.proc.err;
  EXPECT_NE(contra.proc.err.find("node0d0_read"), std::string::npos) << contra.proc.err;
}

// Expectations: a generator shape that does not exist is refused before anything runs (exit 2, the field and the
// value named, no results.json); shape theta runs (24,000 requests scheduled on nNnD 32 TB).
TEST(storage_engine, GeneratorShapeIsCheckedAndThetaRuns) {
  const std::string base = R"({"storage": {"platform": {"preset": "nNnD", "capacity": "32TB"},
      "requests": {"generator": {"kind": "storalloc", "shape": ")";
  const std::string tail = R"("}}}, "output": {"progress": false}})";
  SimRun bad = run_scenario(base + "weibull" + tail, "");
  EXPECT_EQ(bad.proc.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.proc.err.find("storage.requests.generator.shape"), std::string::npos) << bad.proc.err;
  EXPECT_NE(bad.proc.err.find("weibull"), std::string::npos) << bad.proc.err;
  EXPECT_FALSE(bad.has_results);
  SimRun ok = run_scenario(base + "theta" + tail, "");
  ASSERT_EQ(ok.proc.exit_code, 0) << ok.describe();
  EXPECT_EQ(ok.metric("requests"), 24000);
}
