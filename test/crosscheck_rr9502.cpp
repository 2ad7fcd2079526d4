// iosim — cross-check against the RR-9502 authors' reference simulator (../shared/crosscheck/rr9502): every
// strategy of the reference on its instances, each run through deploy/rr9502-window.json on platforms/pfs-single.xml
// in its own iosim process, compared with the reference's printed MinYield, Efficiency and Utilization (6 significant
// digits). MatchesTheReferenceOrItsTracedDifference runs all 39 instances (the 9 of the base set and the 30 of
// extended/, seeds 11-20, decompressed into the scratch directory): 351 runs, about 2 CPU-minutes.
// DirectPathEqualsSimgridFlows runs seed 1 of each pressure (all 9 with IOSIM_CROSSCHECK_ALL=1).
// analysis/crosscheck_rr9502.py --summary prints the whole table and the ranges below; --perturb K re-runs instances
// with every duration scaled by 1 + k·1e-12.
//
// Where iosim and the reference differ, the difference has a traced cause, stated with its rule below; the bound is
// what was measured on all 39 instances with some margin, so a regression still fails:
//  - Utilization (Eq. 9), every strategy: the reference under-counts work (a work phase ending in its first step is
//    never counted, phases running at the window end are cut; crosscheck README). iosim counts Eq. 9 exactly, so its
//    utilization is at least the reference's: +1.7e-4 to +6.8e-4 (relative) where everything else matches.
//  - fcfs, greedy-com, lookahead-greedy-yield: MinYield and Efficiency equal to 6 digits on 39/39.
//  - greedy-yield: exact ties of yields (every application never slowed down has yield 1) are broken by posting time
//    in iosim (RR-9502 §4.1 gives no rule), by application index in the reference: 8/39 equal, |diff| <= 8.4e-4.
//    With `ties: 1` (application index) equal on 38/39. The exception, w1.1 seed 20 (+9.8e-5 MinYield, +1.8e-4
//    Efficiency), is a near-tie decided by rounding: scaling every duration by 1 + k·1e-12 (k = 1..6), which leaves
//    every ratio unchanged in exact arithmetic, moves iosim's MinYield over 0.879984 .. 0.880103 (spread 1.2e-4, the
//    size of the difference), though no rescaled copy reaches the reference's 0.8799. Bound there: 3e-4.
//  - periodic-greedy-yield: iosim decides at T_begin + k·δ (the paper's grid, §4.1/§3.2.2), the reference a fixed
//    interval after every event (crosscheck README), and the reference's δ counts phases rather than 2·N_op.
//    Measured |difference| <= 8.7e-4 relative.
//  - set10: ω learned as in §4.2 (mean over completed iterations of the preceding work phase + V/b_i) in iosim; the
//    reference skips the first iteration and counts the operation just posted. MinYield at W = 1.1 depends on it:
//    -3.7e-2 .. +6.5e-2 (w1.1 seed 15), beyond the 3.7 % measured on the base set; Efficiency within 4.4e-3. Not
//    rounding: the 1e-12 rescaling leaves seed 15's three objectives unchanged to 6 digits, so the difference is the
//    rule. Bound 8e-2.
//  - fairshare: the schedule is chaotic in the rounding of event dates (running with B scaled by 1 ulp moves MinYield
//    by up to 4e-2 at W = 1.1). Measured: MinYield -6.5e-3 .. +1.3e-2, Efficiency within 2.9e-3.
//  - best-next-event: the reference settles near-ties with a relative tolerance of 1e-4 and a 1 ms singularity
//    window (as reported from its simu.cc, not in ../shared); iosim follows Appendix A at 1e-9, checked against brute
//    force. BNE is a one-step greedy rule, so a different choice at a near-tie can end either higher or lower: on 39
//    instances iosim's MinYield is -9.5e-3 .. +2.7e-2 from the reference's (lower on 5: w0.5 seeds 15, 16; w1.1
//    seeds 11, 15, 16), so "iosim always higher" (measured on the base 9) does not hold. Not rounding: the 1e-12
//    rescaling leaves w1.1 seeds 11, 16, 17 and w0.5 seed 16 unchanged to 6 digits. Efficiency and Utilization
//    within 5.6e-3. Bounds 3.5e-2 and 7e-3.
#include "support.h"

#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The program's scratch directory (decompressed instances, run outputs), removed with its content at exit.
const iosim_test::TempDir &scratch() {
  static iosim_test::TempDir dir;
  return dir;
}

std::string crosscheck_dir() {
  return std::string(IOSIM_SOURCE_DIR) + "/../shared/crosscheck/rr9502";
}

struct Reference {
  std::string instance, strategy;
  double v[3];      // min_yield, efficiency, utilization
  std::string path; // the instance's sample file (extended set: decompressed into the test's temporary directory)
};

const char *const kMetrics[3] = {"min_yield", "efficiency", "utilization"};

std::vector<Reference> load_reference() {
  std::ifstream in(crosscheck_dir() + "/reference_results.csv");
  std::vector<Reference> rows;
  std::string line;
  std::getline(in, line); // header: instance,reference_strategy,iosim_strategy,min_yield,efficiency,utilization
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string f[6];
    for (auto &x : f)
      std::getline(ss, x, ',');
    rows.push_back({f[0], f[2], {std::stod(f[3]), std::stod(f[4]), std::stod(f[5])}, ""});
  }
  return rows;
}

// The 9 instances of the base set and the 30 of extended/ (seeds 11-20, gzip): every row of both reference files,
// each with the path of a plain sample file (the reader does not read gzip; gzip -dc writes it once into scratch()).
std::vector<Reference> load_all_references() {
  std::vector<Reference> rows = load_reference();
  for (Reference &r : rows)
    r.path = crosscheck_dir() + "/instances/" + r.instance;
  std::ifstream in(crosscheck_dir() + "/extended/reference_results.csv");
  std::string line;
  std::getline(in, line); // same header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string f[6];
    for (auto &x : f)
      std::getline(ss, x, ',');
    std::string path = scratch().file("ext-" + f[0]);
    if (!std::ifstream(path).good()) {
      std::string cmd = "gzip -dc '" + crosscheck_dir() + "/extended/instances/" + f[0] + ".gz' > '" + path +
                        ".part' && mv '" + path + ".part' '" + path + "'";
      if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << cmd;
    }
    rows.push_back({f[0], f[2], {std::stod(f[3]), std::stod(f[4]), std::stod(f[5])}, path});
  }
  return rows;
}

// Rounds to 6 significant digits, as the reference prints.
double sig6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return std::atof(buf);
}

// How one metric must compare: exactly (6 digits), or within a relative bound; `at_least`: iosim >= reference.
struct Rule {
  bool exact;
  double rel_tol;
  bool at_least;
};
constexpr Rule kExact{true, 0, false};
// Utilization: iosim counts what the reference under-counts (see the file comment).
constexpr Rule kUtilQuirk{false, 1.5e-3, true};

// One instance where a configuration's rule does not hold and its traced cause allows another (file comment).
struct Exception {
  std::string instance;
  Rule rules[3];
};

struct Config {
  std::string name, strategy;
  std::vector<std::string> sets;
  Rule rules[3];
  std::vector<Exception> exceptions = {};
};

std::ostream &operator<<(std::ostream &o, const Config &c) {
  return o << c.name;
}

const Config kConfigs[] = {
    {"fcfs", "fcfs", {}, {kExact, kExact, kUtilQuirk}},
    {"greedy_com", "greedy-com", {}, {kExact, kExact, kUtilQuirk}},
    {"lookahead_greedy_yield", "lookahead-greedy-yield", {}, {kExact, kExact, kUtilQuirk}},
    {"greedy_yield_reference_ties",
     "greedy-yield",
     {"sharing.ties=1"},
     {kExact, kExact, kUtilQuirk},
     {{"w1.1-nH20-b0.5-s0.5_seed20.txt", {{false, 3e-4, false}, {false, 3e-4, false}, kUtilQuirk}}}},
    {"greedy_yield", "greedy-yield", {}, {{false, 1e-3, false}, {false, 1e-3, false}, {false, 1.5e-3, false}}},
    {"periodic_greedy_yield",
     "periodic-greedy-yield",
     {},
     {{false, 1.5e-3, false}, {false, 1.5e-3, false}, {false, 1.5e-3, false}}},
    {"set10", "set10", {}, {{false, 8e-2, false}, {false, 1e-2, false}, {false, 1e-2, false}}},
    {"fairshare", "fairshare", {}, {{false, 1.5e-2, false}, {false, 1e-2, false}, {false, 1e-2, false}}},
    {"best_next_event", "best-next-event", {}, {{false, 3.5e-2, false}, {false, 7e-3, false}, {false, 7e-3, false}}},
};

bool selected(const std::string &instance) {
  const char *all = std::getenv("IOSIM_CROSSCHECK_ALL");
  return (all != nullptr && all[0] == '1') || instance.find("_seed1.") != std::string::npos;
}

double metric(const cJSON *root, const char *key) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "metrics"), key);
  return cJSON_IsNumber(m) ? m->valuedouble : NAN;
}

class CrossCheck : public ::testing::TestWithParam<Config> {};

TEST_P(CrossCheck, MatchesTheReferenceOrItsTracedDifference) {
  // System: each of the 39 instances' 60 applications (b_i = B), window [0, dedicated length of the shortest
  // application], strategy from the start (reference window type v1). Expectations: the three objectives (Eq. 8-10)
  // equal the reference's to 6 significant digits, or differ within the bound of the traced cause (file comment).
  const Config &c = GetParam();
  std::vector<Reference> rows = load_all_references();
  ASSERT_FALSE(rows.empty()) << "cannot read " << crosscheck_dir() << "/reference_results.csv";
  int compared = 0;
  for (const Reference &ref : rows) {
    if (ref.strategy != c.strategy) continue;
    std::string out = scratch().file(c.name + "-" + ref.instance);
    std::string cmd = std::string(IOSIM_BIN) + " run " + IOSIM_SOURCE_DIR + "/deploy/rr9502-window.json --set " +
                      "workload.file=" + ref.path + " --set sharing.policy=" + c.strategy +
                      " --set output.progress=false --out " + out;
    for (const auto &s : c.sets)
      cmd += " --set " + s;
    ASSERT_EQ(std::system((cmd + " > /dev/null").c_str()), 0) << cmd;
    std::ifstream in(out + "/results.json");
    std::stringstream text;
    text << in.rdbuf();
    cJSON *root = cJSON_Parse(text.str().c_str());
    ASSERT_NE(root, nullptr) << out;
    const Rule *rules = c.rules;
    for (const Exception &e : c.exceptions)
      if (e.instance == ref.instance) rules = e.rules;
    for (int k = 0; k < 3; k++) {
      double got = metric(root, kMetrics[k]), want = ref.v[k];
      const Rule &r = rules[k];
      if (r.exact) {
        EXPECT_EQ(sig6(got), want) << ref.instance << " " << kMetrics[k];
        continue;
      }
      EXPECT_LE(std::abs(got / want - 1.0), r.rel_tol)
          << ref.instance << " " << kMetrics[k] << ": iosim " << got << ", reference " << want;
      if (r.at_least) {
        EXPECT_GE(sig6(got), want) << ref.instance << " " << kMetrics[k];
      }
    }
    cJSON_Delete(root);
    compared++;
  }
  EXPECT_EQ(compared, 39);
}

// Runs one instance under one configuration with the given engine.flows; returns results.json (owned) or nullptr.
cJSON *run_instance(const Config &c, const std::string &instance, const std::string &flows) {
  std::string out = scratch().file("flows-" + c.name + "-" + flows + "-" + instance);
  std::string cmd = std::string(IOSIM_BIN) + " run " + IOSIM_SOURCE_DIR + "/deploy/rr9502-window.json --set " +
                    "workload.file=" + crosscheck_dir() + "/instances/" + instance +
                    " --set sharing.policy=" + c.strategy + " --set engine.flows=" + flows +
                    " --set output.progress=false --out " + out;
  for (const auto &s : c.sets)
    cmd += " --set " + s;
  if (std::system((cmd + " > /dev/null").c_str()) != 0) return nullptr;
  std::ifstream in(out + "/results.json");
  std::stringstream text;
  text << in.rdbuf();
  return cJSON_Parse(text.str().c_str());
}

TEST_P(CrossCheck, DirectPathEqualsSimgridFlows) {
  // System: the same instances and strategies, once with the transfer layer's direct path (engine.flows auto:
  // pfs-single has one link a policy's rate crosses, so no link can bind them) and once with every transfer a
  // SimGrid flow (engine.flows simgrid). Expectations: every metric of results.json agrees to 1e-9 (relative), and
  // the event and rate-change counts to 1e-3 (identical but for best-next-event) — except fairshare, whose schedule is
  // chaotic in the rounding of event dates (file comment: one ulp of B moves MinYield by up to 4e-2): there the three
  // objectives agree within 4e-2; and best-next-event, within 1e-8 (1e-6 for the other metrics, below). On all 39
  // instances (analysis/maintainers/flows_exactness.py --set all, docs/engine.md) one more exception lies outside this
  // selection: greedy-yield with its default ties on w1.1 seed 3 (MinYield 6.3e-4 apart), a flip at its 1e-12 yield-tie
  // threshold — rescaling that instance by 1e-12 moves MinYield over 5.9e-4 on one path alone, and with `ties: 1`
  // the two paths are identical.
  const Config &c = GetParam();
  bool chaotic = c.strategy == "fairshare";
  int compared = 0;
  for (const Reference &ref : load_reference()) {
    if (ref.strategy != c.strategy || !selected(ref.instance)) continue;
    cJSON *direct = run_instance(c, ref.instance, "auto"), *flows = run_instance(c, ref.instance, "simgrid");
    ASSERT_NE(direct, nullptr) << ref.instance;
    ASSERT_NE(flows, nullptr) << ref.instance;
    const cJSON *counts = cJSON_GetObjectItemCaseSensitive(direct, "counts");
    EXPECT_STREQ(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(counts, "transfers")), "direct");
    const cJSON *m = nullptr;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(direct, "metrics")) {
      double a = metric(direct, m->string), b = metric(flows, m->string);
      bool objective = std::string(m->string) == "min_yield" || std::string(m->string) == "efficiency" ||
                       std::string(m->string) == "utilization";
      if (chaotic && !objective) continue;
      if (std::isnan(a) || std::isnan(b)) {
        EXPECT_EQ(std::isnan(a), std::isnan(b)) << ref.instance << " " << m->string;
        continue;
      }
      /* best-next-event derives its rates from the remaining bytes, which the two paths round differently: over the
         39 instances (analysis/maintainers/flows_exactness.py) its objectives drift by up to 2.4e-9 and its mean ρ_con
         by 2.4e-7; platform_limited_share is a share of bytes, ~1e-14 of rounding on both paths: compared absolutely */
      double tol = chaotic ? 4e-2 : c.strategy == "best-next-event" ? (objective ? 1e-8 : 1e-6) : 1e-9;
      if (std::string(m->string) == "platform_limited_share") {
        EXPECT_LE(std::abs(a - b), 1e-9) << ref.instance << " " << m->string;
        continue;
      }
      EXPECT_LE(std::abs(a - b), tol * std::max(std::abs(a), std::abs(b)) + 1e-12)
          << ref.instance << " " << m->string << ": direct " << a << ", SimGrid flows " << b;
    }
    for (const char *k : {"events", "rate_changes"}) { /* counts, not metrics: a rate a policy derives from the
                                                         remaining bytes (best-next-event) may come out one ulp apart
                                                         and count as a change on one path only */
      if (chaotic) break;
      const cJSON *fc = cJSON_GetObjectItemCaseSensitive(flows, "counts");
      double a = cJSON_GetObjectItemCaseSensitive(counts, k)->valuedouble,
             b = cJSON_GetObjectItemCaseSensitive(fc, k)->valuedouble;
      EXPECT_LE(std::abs(a - b), 1e-3 * b) << ref.instance << " " << k << ": direct " << a << ", flows " << b;
    }
    cJSON_Delete(direct);
    cJSON_Delete(flows);
    compared++;
  }
  const char *all = std::getenv("IOSIM_CROSSCHECK_ALL");
  EXPECT_EQ(compared, all != nullptr && all[0] == '1' ? 9 : 3);
}

INSTANTIATE_TEST_SUITE_P(Rr9502, CrossCheck, ::testing::ValuesIn(kConfigs),
                         [](const ::testing::TestParamInfo<Config> &info) { return info.param.name; });

} // namespace
