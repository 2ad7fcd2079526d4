// iosim engine tests — Darshan jobs replayed with their own striping (workload.darshan osts "recorded"/"auto",
// stripe_count, jobs; docs/darshan.md "Striping as recorded"): logs written by test/darshan_log_writer.h, replayed on
// the hand-written platform test/fixtures/site-64n-8ost.xml (64 nodes with 1 GB/s links, a 25 GB/s core link, 2 OSS
// of 12.5 GB/s, 8 OSTs of 1.5 GB/s: OSTs 0-3 behind oss0, 4-7 behind oss1), each I/O time computed by hand; a job
// queue with recorded layouts; the concurrent replay mode.
#include "darshan_log_writer.h"
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using darshan_writer::Bytes;
using darshan_writer::Log;
using darshan_writer::record;
using namespace iosim_test;

namespace {

const std::string kSite = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/site-64n-8ost.xml";

// A job of `nprocs` processes (256: 8 nodes at 32 per node) writing two shared files of 3e9 B each (POSIX 4), recorded
// by LUSTRE 1 on the OSTs {0, 1} and {1, 2} of a 3-OST file system, over [start, start + 10] s.
std::string two_file_job(int64_t start, int64_t nprocs = 256) {
  Log l;
  l.nprocs = nprocs;
  l.start = start;
  l.end = start + 10;
  Bytes p{false, ""}, z{false, ""};
  for (uint64_t id : {1, 2})
    record(p, id, -1, 69, 17, 0, {{0, 1}, {4, 1}, {15, 3000000000}}, {{2, 1}, {6, 2}, {9, 1}, {14, 1}});
  for (auto [id, osts] : std::vector<std::pair<uint64_t, std::vector<int64_t>>>{{1, {0, 1}}, {2, {1, 2}}}) {
    z.u64(id);
    z.u64((uint64_t)-1);
    for (int64_t v : {(int64_t)3, (int64_t)1, osts[0], (int64_t)1048576, (int64_t)2}) // OSTS MDTS OFFSET SIZE WIDTH
      z.u64((uint64_t)v);
    for (int64_t o : osts)
      z.u64((uint64_t)o);
  }
  l.modules[1] = {4, p.s};
  l.modules[8] = {1, z.s};
  return l.build();
}

SimRun run_logs(const std::vector<std::string> &logs, const std::string &darshan_options,
                const std::vector<std::string> &sets = {}) {
  std::string list;
  for (const std::string &l : logs)
    list += (list.empty() ? "\"" : ", \"") + l + "\"";
  std::string scenario = R"({"platform": ")" + kSite + R"(", "workload": {"darshan": {"logs": [)" + list + "]" +
                         darshan_options + R"(}}, "allocation": {"policy": "fixed"}, "sharing": {"policy": "maxmin"}})";
  return run_scenario(scenario, "", options("run", sets));
}

} // namespace

TEST(EngineDarshanLayout, RecordedStripesLoadOst1Twice) {
  // System: the two-file job alone (8 nodes: 8 GB/s of node links), 6e9 B written in one operation.
  // Expectations:
  //  - osts "auto" (the default; the platform's pool is OSTs: recorded): each stripe carries 1.5e9 B, OST 1 twice:
  //    3e9 B at 1.5 GB/s = 2 s (OSTs 0 and 2 finish their 1.5e9 B earlier; the node links carry at most
  //    3 x 1.5 / 8 = 0.5625 GB/s each); resources 3;
  //  - osts "count": 3 OSTs of the allocation policy, 2e9 B each at 1.5 GB/s = 4/3 s;
  //  - stripe_count 2 (each file restriped over 2 OSTs in Lustre's round-robin order 0 4 1 5 ...: {0, 4}, {1, 5}):
  //    1.5e9 B on each of 4 OSTs: 1 s;
  //  - stripe_count -1 (every OST): 8 x 1.5 = 12 GB/s of OSTs, but 8 nodes x 1 GB/s = 8 GB/s: 6e9 / 8e9 = 0.75 s;
  //  - a per-job entry jobs.j.stripe_count = 2 with stripe_count -1 gives the stripe_count 2 time;
  //  - the scenario's what-if --set striping.policy=lustre-default --set striping.stripe_count=2 is the same one
  //    change (the recorded files restriped over 2 OSTs each): 1 s on 4 OSTs.
  TempDir logs;
  std::string job = logs.write("j.darshan", two_file_job(1000));
  SimRun rec = run_logs({job}, "");
  ASSERT_EQ(rec.proc.exit_code, 0) << rec.describe();
  EXPECT_REL(rec.app("j").io_time, 2.0, 1e-9);
  EXPECT_EQ(rec.app("j").n_resources, 3);
  EXPECT_LE(rec.app("j").yield, 1.0);
  SimRun count = run_logs({job}, R"(, "osts": "count")");
  ASSERT_EQ(count.proc.exit_code, 0) << count.describe();
  EXPECT_REL(count.app("j").io_time, 4.0 / 3, 1e-9);
  SimRun two = run_logs({job}, R"(, "stripe_count": 2)");
  ASSERT_EQ(two.proc.exit_code, 0) << two.describe();
  EXPECT_REL(two.app("j").io_time, 1.0, 1e-9);
  EXPECT_EQ(two.app("j").n_resources, 4);
  SimRun all = run_logs({job}, R"(, "stripe_count": -1)");
  ASSERT_EQ(all.proc.exit_code, 0) << all.describe();
  EXPECT_REL(all.app("j").io_time, 0.75, 1e-9);
  SimRun over = run_logs({job}, R"(, "stripe_count": -1, "jobs": {"j": {"stripe_count": 2}})");
  ASSERT_EQ(over.proc.exit_code, 0) << over.describe();
  EXPECT_REL(over.app("j").io_time, 1.0, 1e-9);
  SimRun whatif = run_logs({job}, "", {"striping.policy=lustre-default", "striping.stripe_count=2"});
  ASSERT_EQ(whatif.proc.exit_code, 0) << whatif.describe();
  EXPECT_REL(whatif.app("j").io_time, 1.0, 1e-9);
  EXPECT_EQ(whatif.app("j").n_resources, 4);
}

TEST(EngineDarshanLayout, NodeBoundJobKeepsItsBandwidthOverUnequalShares) {
  // System: the two-file job on 2 nodes (64 processes): b_j(3) = min(2 x 1 GB/s, 3 x 1.5 GB/s) = 2 GB/s; shares
  // 0.25, 0.5, 0.25 of 6e9 B on OSTs 0, 1, 2.
  // Expectations: each transfer's cap is b_j(n) times its share (0.5, 1, 0.5 GB/s; OST 1's 1 GB/s is under its
  // 1.5 GB/s), so the three end together: 6e9 / 2e9 = 3 s (with the equal caps 2/3 GB/s of equal shares, OST 1's
  // 3e9 B would take 4.5 s).
  TempDir logs;
  SimRun run = run_logs({logs.write("j.darshan", two_file_job(1000, 64))}, "");
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_EQ(run.app("j").nodes, 2);
  EXPECT_REL(run.app("j").io_time, 3.0, 1e-9);
  EXPECT_LE(run.app("j").yield, 1.0);
}

TEST(EngineDarshanLayout, RecordedLayoutsUnderAJobQueueReleasedConcurrently) {
  // System: two copies of the two-file job (a and b, recorded at 1000 s and 50000 s) with "replay": "concurrent" and
  // a job queue (64 nodes: both fit at once).
  // Expectations: both start at 0; their 16 node flows share each OST equally (1.5 / 16 GB/s each): OSTs 0 and 2
  // carry 2 x 1.5e9 B, OST 1 2 x 3e9 B: 6e9 B at 1.5 GB/s = 4 s for each job; results.json's "replay" starts with
  // "concurrent". As recorded (the default replay), b starts at 49000 s and each takes 2 s.
  TempDir logs;
  std::vector<std::string> two = {logs.write("a.darshan", two_file_job(1000)),
                                  logs.write("b.darshan", two_file_job(50000))};
  SimRun both = run_logs(two, R"(, "replay": "concurrent")", {"queue.enabled=true"});
  ASSERT_EQ(both.proc.exit_code, 0) << both.describe();
  for (const char *name : {"a", "b"}) {
    EXPECT_EQ(both.app(name).start, 0.0) << name;
    EXPECT_REL(both.app(name).io_time, 4.0, 1e-9) << name;
    EXPECT_LE(both.app(name).yield, 1.0) << name;
  }
  EXPECT_EQ(both.str("replay").rfind("concurrent", 0), 0u) << both.str("replay");
  EXPECT_NE(both.proc.err.find("iosim: workload.darshan: replay concurrent"), std::string::npos) << both.proc.err;
  SimRun apart = run_logs(two, "", {"queue.enabled=true"});
  ASSERT_EQ(apart.proc.exit_code, 0) << apart.describe();
  EXPECT_EQ(apart.app("b").start, 49000.0);
  EXPECT_REL(apart.app("a").io_time, 2.0, 1e-9);
  EXPECT_REL(apart.app("b").io_time, 2.0, 1e-9);
  EXPECT_NE(apart.str("replay").find("idle gaps kept (1, the longest 48990 s)"), std::string::npos)
      << apart.str("replay");
}

namespace {

// A job of 32 processes (1 node) writing one shared file of 3e9 B (POSIX 4), recorded by LUSTRE 1 on the one OST
// `ost` of a file system of `fs_osts` OSTs, over [start, start + 10] s.
std::string one_stripe_job(int64_t start, int64_t ost, int64_t fs_osts) {
  Log l;
  l.nprocs = 32;
  l.start = start;
  l.end = start + 10;
  Bytes p{false, ""}, z{false, ""};
  record(p, 1, -1, 69, 17, 0, {{0, 1}, {4, 1}, {15, 3000000000}}, {{2, 1}, {6, 2}, {9, 1}, {14, 1}});
  z.u64(1);
  z.u64((uint64_t)-1);
  for (int64_t v : {fs_osts, (int64_t)1, ost, (int64_t)1048576, (int64_t)1}) // OSTS MDTS OFFSET SIZE WIDTH
    z.u64((uint64_t)v);
  z.u64((uint64_t)ost);
  l.modules[1] = {4, p.s};
  l.modules[8] = {1, z.s};
  return l.build();
}

} // namespace

TEST(EngineDarshanLayout, LustreNamedOstsTakenByTheirHexadecimalIndex) {
  // System: a platform of 16 OSTs named as Lustre names them, scratch-OST0000 .. scratch-OST000f (hexadecimal
  // indices; platforms/README.md "The order of the OSTs"), declared in shuffled order; OST0002 has a 0.5 GB/s link,
  // the others 1 GB/s; NICs of 100 GB/s. Two one-node jobs of a 16-OST file system write 3e9 B each on one recorded
  // OST: `two` on index 2, `eleven` on index 11, 1e5 s apart (never together). Without a measured profile a job's
  // cap is b_j(1) = min(1 x 100, 1 x C) GB/s with C the pool's mean capacity (15 + 0.5) / 16 = 0.96875 GB/s.
  // Expectations: `two` runs on scratch-OST0002 (not OST000b, where the decimal-run order of the names put index 2:
  // 0000, 000a, 000b, ...), its 0.5 GB/s link under the cap: 3e9 / 0.5e9 = 6 s; `eleven` on scratch-OST000b at its
  // cap: 3e9 / 0.96875e9 = 3.0968 s; no warning about the names' order.
  TinyPlatform plat;
  plat.role = "ost";
  plat.compute = 2;
  const char *hex = "0123456789abcdef";
  for (int k : {5, 0xb, 2, 0, 0xf, 1, 0xa, 3, 0xe, 4, 0xc, 6, 0xd, 7, 9, 8})
    plat.resources.push_back({std::string("scratch-OST000") + hex[k], k == 2 ? 0.5e9 : 1e9});
  TempDir logs;
  std::string a = logs.write("two.darshan", one_stripe_job(1000, 2, 16));
  std::string b = logs.write("eleven.darshan", one_stripe_job(101000, 11, 16));
  std::string scenario = R"({"workload": {"darshan": {"logs": [")" + a + R"(", ")" + b +
                         R"("]}}, "allocation": {"policy": "fixed"}, "sharing": {"policy": "maxmin"}})";
  SimRun run = run_scenario(scenario, tiny_platform_xml(plat));
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_EQ(run.app("two").resources, std::vector<std::string>{"scratch-OST0002"});
  EXPECT_REL(run.app("two").io_time, 6.0, 1e-9);
  EXPECT_EQ(run.app("eleven").resources, std::vector<std::string>{"scratch-OST000b"});
  EXPECT_REL(run.app("eleven").io_time, 3e9 / (15.5e9 / 16), 1e-9);
  EXPECT_EQ(run.proc.err.find("OSTs:"), std::string::npos) << run.proc.err;
  EXPECT_EQ(run.resources.front().name, "scratch-OST0000"); // resources.csv in index order
  EXPECT_EQ(run.resources[10].name, "scratch-OST000a");
}

TEST(EngineDarshanLayout, OstNamesWithoutOrderWarnAndDuplicateIndicesRefused) {
  // System: OSTs named alpha, beta, gamma (no number); then two OSTs fs-OST000a and fs-OST000A (index 10 twice).
  // Expectations: the first runs, warning that no OST name holds a number (byte order); the second exits 2 naming
  // both hosts.
  TinyPlatform plat;
  plat.role = "ost";
  plat.resources = {{"gamma", 1e9}, {"alpha", 1e9}, {"beta", 1e9}};
  std::string scenario = R"({"workload": {"applications": [{"name": "a", "nodes": 1, "work": "1s", "io": "1GB"}]},
                              "allocation": {"policy": "fixed"}})";
  SimRun run = run_scenario(scenario, tiny_platform_xml(plat));
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_NE(run.proc.err.find("OSTs: no OST name holds a number (alpha, beta, ...)"), std::string::npos)
      << run.proc.err;
  EXPECT_EQ(run.resources.front().name, "alpha");
  plat.resources = {{"fs-OST000a", 1e9}, {"fs-OST000A", 1e9}};
  SimRun dup = run_scenario(scenario, tiny_platform_xml(plat));
  EXPECT_EQ(dup.proc.exit_code, 2) << dup.describe();
  EXPECT_NE(dup.proc.err.find("has the Lustre index of fs-OST000"), std::string::npos) << dup.proc.err;
}

TEST(EngineDarshanLayout, JobsWithoutALayoutNameTheRuleThatDecidedThem) {
  // System: on the site platform (8 OSTs of 1.5 GB/s, 1 GB/s node links), with allocation fixed (n = 1), the
  // two-file job `j` (recorded layout) and a job `plain` of the same 256 processes (8 nodes) writing 6e9 B to one file
  // whose log has no LUSTRE module, recorded 1e5 s later (never together).
  // Expectations: `plain`'s file gets the file system's default stripe count, 1 (workload.darshan.
  // default_stripe_count), on an OST from Lustre's round-robin allocator: 6e9 B at min(8 x 1, 1 x 1.5) GB/s = 4 s;
  // with "default_stripe_count": 4, over 4 OSTs: 6e9 B at min(8, 6) GB/s = 1 s; results.json "no_layout" = {jobs:
  // [plain], decided_by: the allocator and the count}; the summary says it ("assumed: 1 of 2 jobs have no Lustre
  // layout in their logs (plain): their OSTs come from Lustre's round-robin allocator, 1 OST per file (...)"); under
  // --set striping.policy=lustre-default --set striping.stripe_count=2 its file is restriped as every other, over 2
  // OSTs: 3e9 B at 1.5 GB/s = 2 s.
  TempDir logs;
  std::string job = logs.write("j.darshan", two_file_job(1000));
  Log l;
  l.nprocs = 256;
  l.start = 101000;
  l.end = 101010;
  Bytes p{false, ""};
  record(p, 1, -1, 69, 17, 0, {{0, 1}, {4, 1}, {15, 6000000000}}, {{2, 1}, {6, 2}, {9, 1}, {14, 1}});
  l.modules[1] = {4, p.s};
  std::string plain = logs.write("plain.darshan", l.build());
  SimRun run = run_logs({job, plain}, "");
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_EQ(run.app("plain").n_resources, 1);
  EXPECT_REL(run.app("plain").io_time, 4.0, 1e-9);
  const cJSON *jobs = run.json("no_layout.jobs");
  ASSERT_TRUE(cJSON_IsArray(jobs)) << run.describe();
  ASSERT_EQ(cJSON_GetArraySize(jobs), 1);
  EXPECT_STREQ(cJSON_GetArrayItem(jobs, 0)->valuestring, "plain");
  const std::string rule = "Lustre's round-robin allocator, 1 OST per file (the file system's default stripe count, "
                           "workload.darshan.default_stripe_count)";
  EXPECT_EQ(run.str("no_layout.decided_by"), rule);
  EXPECT_NE(run.proc.out.find("assumed: 1 of 2 jobs have no Lustre layout in their logs (plain): their OSTs come "
                              "from " +
                              rule),
            std::string::npos)
      << run.proc.out;
  SimRun four = run_logs({job, plain}, R"(, "default_stripe_count": 4)");
  ASSERT_EQ(four.proc.exit_code, 0) << four.describe();
  EXPECT_EQ(four.app("plain").n_resources, 4);
  EXPECT_REL(four.app("plain").io_time, 1.0, 1e-9);
  SimRun striped = run_logs({job, plain}, "", {"striping.policy=lustre-default", "striping.stripe_count=2"});
  ASSERT_EQ(striped.proc.exit_code, 0) << striped.describe();
  EXPECT_EQ(striped.str("no_layout.decided_by"), "Lustre's round-robin allocator, 2 OSTs per file (the restripe, "
                                                 "stripe_count)");
  EXPECT_REL(striped.app("plain").io_time, 2.0, 1e-9);
  SimRun bad = run_logs({job, plain}, R"(, "default_stripe_count": "recorded")");
  EXPECT_EQ(bad.proc.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.proc.err.find("workload.darshan.default_stripe_count"), std::string::npos) << bad.proc.err;
  SimRun only_layout = run_logs({job}, "");
  ASSERT_EQ(only_layout.proc.exit_code, 0) << only_layout.describe();
  EXPECT_EQ(only_layout.json("no_layout"), nullptr); // only when some job has no layout
}

TEST(EngineDarshanLayout, ConcurrentRestripedJobsSpreadAsLustreWould) {
  // System: four copies of the two-file job (8 nodes each, 32 of the 64), released together (replay "concurrent"),
  // every file restriped over 1 OST (stripe_count 1), on the site platform: 8 OSTs in Lustre's round-robin order
  // 0 4 1 5 2 6 3 7 (the two OSSes interleaved).
  // Expectations: one allocator for the stream, files placed job after job (release ties: the log order) at
  // consecutive positions from a start drawn from the seed: the 8 files on 8 consecutive positions, one file per
  // OST, each job on 2 OSTs none of the others has, one behind each OSS. Each file 3e9 B alone on its OST at 1.5 GB/s
  // (node links: 2 × 1.5 / 8 GB/s each, OSS 6 GB/s, core 12 GB/s: none binds): every job 2 s. Restriped from
  // position 0 for every job, as before, all four jobs put their files on ost0 and ost4: 12e9 B on each at 1.5 GB/s,
  // 8 s each. Another seed moves the start, not the spread.
  TempDir logs;
  std::vector<std::string> jobs;
  for (int k = 0; k < 4; k++)
    jobs.push_back(logs.write("c" + std::to_string(k) + ".darshan", two_file_job(1000 + k)));
  for (const char *seed : {"1", "7"}) {
    SCOPED_TRACE(seed);
    SimRun run = run_logs(jobs, R"(, "replay": "concurrent", "stripe_count": 1)", {std::string("seed=") + seed});
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    std::set<std::string> used;
    for (int k = 0; k < 4; k++) {
      const AppRow &a = run.app("c" + std::to_string(k));
      EXPECT_REL(a.io_time, 2.0, 1e-9);
      ASSERT_EQ(a.n_resources, 2);
      ASSERT_EQ(a.resources.size(), 2u);
      std::string first = a.resources[0], second = a.resources[1];
      EXPECT_NE(first[3] < '4', second[3] < '4') << first << " " << second; // one behind oss0 (ost0..3), one oss1
      used.insert(first);
      used.insert(second);
    }
    EXPECT_EQ(used.size(), 8u); // no two jobs on one OST: none piled onto the first
  }
}
