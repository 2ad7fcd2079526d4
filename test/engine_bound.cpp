// iosim engine tests — what bound each job during its I/O (apps.csv `bound_by`, `bound_share`; src/sim/bound.c,
// docs/outputs.md). Each run is its own process; every expectation is computed by hand in the comments.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>

using namespace iosim_test;

namespace {

const std::string kSite = read_text(std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/site-64n-8ost.xml");

std::string text(const SimRun &r, const std::string &name, const std::string &col) {
  for (const auto &row : r.apps_csv) {
    auto n = row.find("name");
    if (n == row.end() || n->second != name) continue;
    auto c = row.find(col);
    return c == row.end() ? "<no column " + col + ">" : c->second;
  }
  return "<no application " + name + ">";
}

double num(const SimRun &r, const std::string &name, const std::string &col) {
  std::string s = text(r, name, col);
  return s.empty() || s[0] == '<' ? NAN : std::strtod(s.c_str(), nullptr);
}

// Two jobs without a profile (b_j(n) = min(Q_j·1 GB/s, n·1.5 GB/s)) writing at t = 0 over all 8 OSTs (allocation
// fixed at 8) of test/fixtures/site-64n-8ost.xml (64 nodes behind 1 GB/s links, 8 OSTs of 1.5 GB/s), under maxmin.
std::string two_jobs(int qa, double va, int qb, double vb) {
  return R"({"workload": {"applications": [{"name": "A", "nodes": )" + std::to_string(qa) + R"(, "phases": [{"io": )" +
         fmt(va) + R"(}]}, {"name": "B", "nodes": )" + std::to_string(qb) + R"(, "phases": [{"io": )" + fmt(vb) +
         R"(}]}]}, "allocation": {"policy": "fixed", "n": 8}, "sharing": {"policy": "maxmin"},
         "output": {"progress": false}})";
}

} // namespace

// System: A (32 nodes, 100 GB) beside B (2 nodes, 20 GB) on the site platform. A's nodes are node0..31, B's node32
// and node33. By hand: on each OST the two transfers weigh one flow each (their legs together), a fair share of 0.75
// GB/s; B's node links carry 8 legs each, so B gets at most 2 × 1 GB/s / 8 = 0.25 GB/s per OST (its links bind, full
// at 1 GB/s), and A gets the rest, 1.25 GB/s per OST (the OSTs bind, full at 1.5 GB/s). A: 100 / 10 = 10 s, B: 20 / 2
// = 10 s, each bound by one element all the time: A by its eight OSTs equally (all eight transfers have the same
// remaining time: one set, "8 OSTs equally"), B by its first node's link in the <cluster> (SimGrid's name
// compute_link_32_UP).
TEST(bound_engine, NodeLinksBindASmallJobBesideOneTheOstsBind) {
  SimRun r = run_scenario(two_jobs(32, 100e9, 2, 20e9), kSite);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_NEAR(num(r, "A", "io_time_s"), 10.0, 1e-6);
  EXPECT_NEAR(num(r, "B", "io_time_s"), 10.0, 1e-6);
  EXPECT_EQ(text(r, "A", "bound_by"), "8 OSTs equally");
  EXPECT_NEAR(num(r, "A", "bound_share"), 1.0, 1e-9);
  EXPECT_EQ(text(r, "B", "bound_by"), "compute_link_32_UP");
  EXPECT_NEAR(num(r, "B", "bound_share"), 1.0, 1e-9);
}

// System: A (8 nodes, 60 GB) beside B (32 nodes, 30 GB) on the site platform. By hand: A's nodes could carry 8 GB/s
// (1 GB/s each), but on each OST A and B get the fair share 0.75 GB/s: A 6 GB/s (node links at 0.75 GB/s, not full),
// B 6 GB/s, the OSTs full: B ends at 30 / 6 = 5 s with A at 30 GB. Then A alone: its 8 node links bind (8 GB/s < 12),
// 30 / 8 = 3.75 s. A: I/O time 8.75 s, bound by its 8 OSTs equally for 5 s and by its node links for 3.75 s:
// bound_by "8 OSTs equally", share 5 / 8.75 = 4/7. B: the 8 OSTs equally all its 5 s.
TEST(bound_engine, TheElementThatBoundLongestAndItsShare) {
  SimRun r = run_scenario(two_jobs(8, 60e9, 32, 30e9), kSite);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_NEAR(num(r, "A", "io_time_s"), 8.75, 1e-6);
  EXPECT_NEAR(num(r, "B", "io_time_s"), 5.0, 1e-6);
  EXPECT_EQ(text(r, "A", "bound_by"), "8 OSTs equally");
  EXPECT_NEAR(num(r, "A", "bound_share"), 4.0 / 7.0, 1e-9);
  EXPECT_EQ(text(r, "B", "bound_by"), "8 OSTs equally");
  EXPECT_NEAR(num(r, "B", "bound_share"), 1.0, 1e-9);
}

// System: a generated-style platform (tiny_platform_xml: a star of compute nodes, no node link on the I/O route)
// with 2 resources r0, r1 of 1 GB/s and NICs of 1 GB/s; one job alone writes 8 GB over both (fixed 2), fairshare
// (the direct path: no link can bind). By hand:
//  - 1 node, no profile: b = min(1 GB/s, 2 × 1 GB/s) = 1 GB/s, its NIC: each transfer at its cap 0.5 GB/s, the
//    resources half used: bound_by "nic" (the engine's name on the direct path, no link saw it), share 1; 8 s;
//  - 4 nodes, no profile: b = min(4, 2) GB/s, the resources' term: both resources equally ("2 I/O nodes equally",
//    the pool's role in words), share 1; 4 s;
//  - 4 nodes with a measured profile b(2) = 0.5 GB/s: its own cap, nothing full: "not bound", share 1; 16 s.
TEST(bound_engine, AJobAloneOnAGeneratedPlatform) {
  std::string platform = tiny_platform_xml({1e9, 1e9}, 8, 1e9);
  struct Case {
    int nodes;
    std::string profile, expect;
    double io_time;
  };
  for (const Case &c : {Case{1, "", "nic", 8.0}, Case{4, "", "2 I/O nodes equally", 4.0},
                        Case{4, R"("profile": {"2": 0.5e9}, )", "not bound", 16.0}}) {
    SCOPED_TRACE(c.expect);
    std::string s = R"({"workload": {"applications": [{"name": "J", "nodes": )" + std::to_string(c.nodes) + ", " +
                    c.profile + R"("phases": [{"io": 8e9}]}]}, "allocation": {"policy": "fixed", "n": 2},
                    "sharing": {"policy": "fairshare"}, "output": {"progress": false}})";
    SimRun r = run_scenario(s, platform);
    ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
    EXPECT_EQ(r.str("counts.transfers"), "direct");
    EXPECT_NEAR(num(r, "J", "io_time_s"), c.io_time, 1e-6);
    EXPECT_EQ(text(r, "J", "bound_by"), c.expect);
    EXPECT_NEAR(num(r, "J", "bound_share"), 1.0, 1e-9);
  }
}

// System: the site platform with each OST's link renamed `ostK-dev` (the OST host keeps its name `ostK`, its `link`
// property names the link), three jobs of 8 nodes writing 24 GB each over 4 OSTs (fixed 4, maxmin): A and C on
// ost0..3, B on ost4..7. By hand: A and C share each of their OSTs, 0.75 GB/s each per OST (under their caps
// b_j(4)/4 = min(8, 6)/4 = 1.5 GB/s): the links ost0-dev..ost3-dev are full (rule 1), 24 / 3 = 8 s; B alone at its
// cap 1.5 GB/s per OST (rule 2, the pool term: its resources), 24 / 6 = 4 s. Each is bound by its four OSTs equally,
// named as the OSTs whichever rule names them: before, A and C read `ost0-dev` (the link) where B read `ost4` (the
// resource), one element with two names in one run.
TEST(bound_engine, OneNamePerElementTheResourcesNotTheirLinks) {
  std::string xml = std::regex_replace(
      kSite, std::regex(R"re((<link id="|<link_ctn id="|<prop id="link" value=")(ost[0-9])")re"), "$1$2-dev\"");
  ASSERT_NE(xml.find("ost7-dev"), std::string::npos);
  std::string apps;
  for (const char *n : {"A", "B", "C"})
    apps += std::string(apps.empty() ? "" : ", ") + R"({"name": ")" + n + R"(", "nodes": 8, "phases": [{"io": 24e9}]})";
  SimRun r = run_scenario(R"({"workload": {"applications": [)" + apps + R"(]}, "allocation": {"policy": "fixed",
      "n": 4}, "sharing": {"policy": "maxmin"}, "output": {"progress": false}})",
                          xml);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_NEAR(num(r, "A", "io_time_s"), 8.0, 1e-6);
  EXPECT_NEAR(num(r, "B", "io_time_s"), 4.0, 1e-6);
  EXPECT_NEAR(num(r, "C", "io_time_s"), 8.0, 1e-6);
  for (const char *n : {"A", "B", "C"}) {
    EXPECT_EQ(text(r, n, "bound_by"), "4 OSTs equally") << n;
    EXPECT_NEAR(num(r, n, "bound_share"), 1.0, 1e-9) << n;
  }
}
