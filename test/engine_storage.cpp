// iosim engine tests — storage-allocation scenarios (src/ios_storage_run.h): `iosim run` with a `storage` object
// schedules the requests (StorAlloc) and writes requests.csv and results.json whose metrics are StorAlloc's Table 3,
// so sweeps and reports work on them. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

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
