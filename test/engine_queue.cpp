// iosim engine tests — the job queue and dynamic re-arbitration (IPDPS'21 §5.3; src/sim/engine.c, queue.*): jobs start
// in FIFO order when enough compute nodes are free (backfilling only when asked); allocation and placement run again
// over the running jobs whenever that set changes, a new allocation applying from the job's next I/O operation;
// static mappings keep running jobs' resources; allocations.csv records every allocation interval. Start and end
// times are computed by hand (relative error <= 1e-9). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

constexpr double kTol = 1e-9;

std::string scenario(const std::string &apps, const std::string &allocation, const std::string &queue) {
  return "{\"workload\": {\"applications\": " + apps + "}, \"allocation\": " + allocation +
         ", \"placement\": {\"policy\": \"gnc\"}, \"sharing\": {\"policy\": \"fairshare\"}, \"queue\": " + queue +
         ", \"output\": {\"progress\": false}}";
}

// allocations.csv rows as "app start end n resources" strings, start and end with 6 significant digits.
std::vector<std::string> allocations(const SimRun &r) {
  std::vector<std::string> out;
  for (const auto &row : parse_csv(read_text(r.out_dir + "/allocations.csv"))) {
    char buf[200];
    snprintf(buf, sizeof buf, "%s %.6g %.6g %s %s", row.at("app").c_str(), std::stod(row.at("start_s")),
             std::stod(row.at("end_s")), row.at("n_resources").c_str(), row.at("resources").c_str());
    out.push_back(buf);
  }
  return out;
}

// Two resources r0, r1 of 1 GB/s, 4 compute nodes. A: 2 nodes, released at 0: work 1 s, I/O 2 GB, work 10 s, I/O
// 2 GB. B: 2 nodes, released at 5 s: work 1 s, I/O 20 GB. Both profiles b(1) = 1 GB/s, b(2) = 2 GB/s.
const std::string kDynamicApps =
    R"([{"name": "A", "nodes": 2, "profile": {"1": 1e9, "2": 2e9},
         "phases": [{"work": 1}, {"io": 2e9}, {"work": 10}, {"io": 2e9}]},
        {"name": "B", "nodes": 2, "release": 5, "profile": {"1": 1e9, "2": 2e9},
         "phases": [{"work": 1}, {"io": 20e9}]}])";

} // namespace

// System: kDynamicApps under mckp (dynamic), gnc placement, fairshare.
// Expectations (by hand): A starts at 0 alone: mckp gives it both resources (2 GB/s > 1 GB/s; 2 divides its 2
// nodes): its first I/O runs [1, 2] (2 GB at 2 GB/s), then work to 12. B is submitted at 5 and starts at once (2
// free nodes); mckp over {A, B} with 2 resources can only give (1, 1) (no direct PFS access): gnc gives A r0, B r1.
// B: work to 6, then 20 GB at 1 GB/s on r1 → ends at 26. A's new allocation applies from its next I/O at 12: 2 GB at
// 1 GB/s on r0 → ends at 14. When A ends, mckp gives B both resources, but B posts no other operation.
// allocations.csv: A [0, 12) 2 r0;r1, A [12, 14) 1 r0, B [5, 26) 1 r1.
TEST(engine_queue, ReArbitrationAppliesFromTheNextIoOperation) {
  SimRun r = run_scenario(scenario(kDynamicApps, R"({"policy": "mckp"})", R"({"enabled": true})"),
                          tiny_platform_xml({1e9, 1e9}, 4));
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.str("window.kind"), "whole-run");
  EXPECT_REL(r.app("A").start, 0.0, kTol);
  EXPECT_REL(r.app("A").end, 14.0, kTol);
  EXPECT_REL(r.app("B").start, 5.0, kTol);
  EXPECT_REL(r.app("B").end, 26.0, kTol);
  EXPECT_EQ(allocations(r), (std::vector<std::string>{"A 0 12 2 r0;r1", "A 12 14 1 r0", "B 5 26 1 r1"}));
  // A's two operations saw 2 GB/s then 1 GB/s: 4 GB in 1 + 2 = 3 s dedicated → 4/3 GB/s in apps.csv
  EXPECT_REL(r.app("A").bandwidth, 4e9 / 3.0, kTol);
  EXPECT_EQ(r.app("A").n_resources, 1);
}

// System: the same jobs with queue.rearbitrate "new" (running jobs keep their resources, as a static mapping).
// Expectations: A keeps r0;r1 for its second I/O at 12, sharing r1 with B under fairshare: its 1 GB on r0 ends at 13,
// its 1 GB on r1 at 0.5 GB/s ends at 14 → A ends at 14. B moved 6 GB alone on r1 in [6, 12], 1 GB in [12, 14] at
// 0.5 GB/s, then the last 13 GB alone → ends at 27. allocations.csv: A [0, 14) 2 r0;r1, B [5, 27) 1 r1.
TEST(engine_queue, StaticMappingKeepsRunningJobsResources) {
  SimRun r = run_scenario(scenario(kDynamicApps, R"({"policy": "mckp"})", R"({"enabled": true, "rearbitrate": "new"})"),
                          tiny_platform_xml({1e9, 1e9}, 4));
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_REL(r.app("A").end, 14.0, kTol);
  EXPECT_REL(r.app("B").end, 27.0, kTol);
  EXPECT_EQ(allocations(r), (std::vector<std::string>{"A 0 14 2 r0;r1", "B 5 27 1 r1"}));
}

// System: 4 compute nodes, work-only jobs released at 0 in this order: A (2 nodes, 10 s), B (4 nodes, 1 s), C (2
// nodes, 3 s); allocation fixed n = 1.
// Expectations: strict FIFO: A starts at 0; B needs 4 nodes and blocks C behind it; A ends at 10, B runs [10, 11],
// C [11, 14]. With backfilling, C starts at 0 beside A (it fits), B starts when both are done, at 10.
TEST(engine_queue, FifoWithoutBackfillingAndWithIt) {
  const std::string apps = R"([{"name": "A", "nodes": 2, "phases": [{"work": 10}]},
                               {"name": "B", "nodes": 4, "phases": [{"work": 1}]},
                               {"name": "C", "nodes": 2, "phases": [{"work": 3}]}])";
  const std::string alloc = R"({"policy": "fixed", "n": 1})";
  SimRun fifo = run_scenario(scenario(apps, alloc, R"({"enabled": true})"), tiny_platform_xml({1e9}, 4));
  ASSERT_EQ(fifo.proc.exit_code, 0) << fifo.describe();
  EXPECT_REL(fifo.app("A").start, 0.0, kTol);
  EXPECT_REL(fifo.app("B").start, 10.0, kTol);
  EXPECT_REL(fifo.app("C").start, 11.0, kTol);
  EXPECT_REL(fifo.app("C").end, 14.0, kTol);
  SimRun back =
      run_scenario(scenario(apps, alloc, R"({"enabled": true, "backfill": true})"), tiny_platform_xml({1e9}, 4));
  ASSERT_EQ(back.proc.exit_code, 0) << back.describe();
  EXPECT_REL(back.app("C").start, 0.0, kTol);
  EXPECT_REL(back.app("C").end, 3.0, kTol);
  EXPECT_REL(back.app("B").start, 10.0, kTol);
  EXPECT_REL(back.app("B").end, 11.0, kTol);
  // without a queue these jobs need 8 nodes at once: refused with the fix
  SimRun none = run_scenario(scenario(apps, alloc, R"({"enabled": false})"), tiny_platform_xml({1e9}, 4));
  EXPECT_EQ(none.proc.exit_code, 2) << none.describe();
  EXPECT_NE(none.proc.err.find("queue.enabled"), std::string::npos) << none.proc.err;
  // the platform is a hand-written file: the fix is more compute hosts in it, not `iosim platform --set compute=N`
  EXPECT_NE(none.proc.err.find("add compute hosts to the platform file"), std::string::npos) << none.proc.err;
  EXPECT_EQ(none.proc.err.find("--set compute=N"), std::string::npos) << none.proc.err;
}

// Expectations: a job larger than the platform can never start (exit 2 naming the platform and the fix); a bad
// rearbitrate value is refused naming the field.
TEST(engine_queue, BadQueueInputExitsWithCode2) {
  SimRun big = run_scenario(scenario(R"([{"name": "A", "nodes": 5, "phases": [{"work": 1}]}])",
                                     R"({"policy": "fixed", "n": 1})", R"({"enabled": true})"),
                            tiny_platform_xml({1e9}, 4));
  EXPECT_EQ(big.proc.exit_code, 2) << big.describe();
  EXPECT_NE(big.proc.err.find("could never start"), std::string::npos) << big.proc.err;
  EXPECT_NE(big.proc.err.find("add compute hosts to the platform file"), std::string::npos) << big.proc.err;
  // on a platform iosim generates (a platform object), the fix is a larger one
  RunOptions gen;
  gen.set_platform = false;
  SimRun small = run_scenario(R"({"platform": {"kind": "pfs-single", "compute": 4},
        "workload": {"applications": [{"name": "A", "nodes": 3, "phases": [{"work": 1}]},
                                      {"name": "B", "nodes": 3, "phases": [{"work": 1}]}]},
        "allocation": {"policy": "fixed", "n": 1}, "output": {"progress": false}})",
                              "", gen);
  EXPECT_EQ(small.proc.exit_code, 2) << small.describe();
  EXPECT_NE(small.proc.err.find("--set compute=N"), std::string::npos) << small.proc.err;
  EXPECT_NE(small.proc.err.find("queue.enabled"), std::string::npos) << small.proc.err;
  SimRun bad = run_scenario(scenario(R"([{"name": "A", "phases": [{"work": 1}]}])", R"({"policy": "fixed", "n": 1})",
                                     R"({"enabled": true, "rearbitrate": "sometimes"})"),
                            tiny_platform_xml({1e9}, 4));
  EXPECT_EQ(bad.proc.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.proc.err.find("queue.rearbitrate"), std::string::npos) << bad.proc.err;
}
