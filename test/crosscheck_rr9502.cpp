// iosim — cross-check against the RR-9502 authors' reference simulator (../shared/crosscheck/rr9502).
// Each instance runs on platforms/pfs-single.xml through deploy/rr9502-window.json in its own iosim process and
// must print the reference's MinYield and Efficiency to its 6 significant digits. Only the strategies iosim has so
// far are compared; see the README of the cross-check set for the reference's known quirks (utilization).
#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string crosscheck_dir() {
  return std::string(IOSIM_SOURCE_DIR) + "/../shared/crosscheck/rr9502";
}

struct Reference {
  std::string instance, strategy;
  double min_yield, efficiency, utilization;
};

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
    rows.push_back({f[0], f[2], std::stod(f[3]), std::stod(f[4]), std::stod(f[5])});
  }
  return rows;
}

// Rounds to 6 significant digits, as the reference prints.
double sig6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return std::atof(buf);
}

double metric(const cJSON *root, const char *key) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "metrics"), key);
  return cJSON_IsNumber(m) ? m->valuedouble : NAN;
}

class CrossCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(CrossCheck, MinYieldAndEfficiencyMatchTheReference) {
  // System: the instance's 60 applications (b_i = B), window [0, dedicated length of the shortest application],
  // strategy from the start (reference window type v1). Expectations: MinYield (Eq. 8) and Efficiency (Eq. 10)
  // equal the reference's printed values to 6 significant digits.
  const std::string strategy = GetParam();
  std::vector<Reference> rows = load_reference();
  ASSERT_FALSE(rows.empty()) << "cannot read " << crosscheck_dir() << "/reference_results.csv";
  int compared = 0;
  for (const Reference &ref : rows) {
    if (ref.strategy != strategy) continue;
    std::string out = ::testing::TempDir() + "iosim-crosscheck-" + strategy + "-" + ref.instance;
    std::string cmd = std::string(IOSIM_BIN) + " run " + IOSIM_SOURCE_DIR + "/deploy/rr9502-window.json --set " +
                      "workload.file=" + crosscheck_dir() + "/instances/" + ref.instance +
                      " --set sharing.policy=" + strategy + " --set output.progress=false --out " + out +
                      " > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out + "/results.json");
    std::stringstream text;
    text << in.rdbuf();
    cJSON *root = cJSON_Parse(text.str().c_str());
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(sig6(metric(root, "min_yield")), ref.min_yield) << ref.instance;
    EXPECT_EQ(sig6(metric(root, "efficiency")), ref.efficiency) << ref.instance;
    cJSON_Delete(root);
    compared++;
  }
  EXPECT_EQ(compared, 9);
}

INSTANTIATE_TEST_SUITE_P(Rr9502, CrossCheck, ::testing::Values("fcfs"));

} // namespace
