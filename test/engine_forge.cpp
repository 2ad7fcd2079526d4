// iosim engine tests — real input: the RR-9549 §5.3 generator over the FORGE MareNostrum 4 profiles
// (deploy/mn4-random16.json on platforms/mn4-forwarding.xml). Each application run alone must transfer at exactly
// its measured bandwidth for its resource count, read here independently from the dataset CSV
// ($IOSIM_DATA_DIR/bez-forge-evaluation/mn4_189_patterns_mean_bw_by_ionodes.csv; app mn4-pNNN = data row NNN).
// Without the dataset these tests fail: they do not skip.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

constexpr double kTol = 1e-9;
constexpr double kMiB = 1048576.0;
const std::string kScenario = std::string(IOSIM_SOURCE_DIR) + "/deploy/mn4-random16.json";

// The MareNostrum 4 platform (platforms/mn4-forwarding.xml): 12 I/O nodes, 512 compute nodes.
constexpr int kIoNodes = 12;
constexpr int kComputeNodes = 512;

// Splits one CSV line, honouring double quotes (the header has "layout(0=fpp,1=shared)").
std::vector<std::string> csv_fields(const std::string &line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      out.emplace_back();
    else if (c != '\r' && c != '\n')
      out.back() += c;
  }
  return out;
}

// One FORGE pattern: compute nodes and b(n) in bytes/s for n = 0, 1, 2, 4, 8.
struct Pattern {
  int clients = 0;
  std::map<int, double> bw;
};

// Reads every pattern of the CSV (index 0 = data row 1). Fails the test when the file is missing or malformed.
std::vector<Pattern> read_patterns(const std::string &path) {
  std::vector<Pattern> out;
  std::string text = read_text(path);
  if (text.empty()) {
    ADD_FAILURE() << "cannot read the FORGE dataset " << path << " (iosim_test::dataset has recorded why)";
    return out;
  }
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl = text.find('\n'); start < text.size(); nl = text.find('\n', start)) {
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  std::vector<std::string> header = csv_fields(lines.at(0));
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); i++)
    col[header[i]] = i;
  const std::pair<int, const char *> bw_cols[] = {
      {0, "bw_MBps_0ion"}, {1, "bw_1ion"}, {2, "bw_2ion"}, {4, "bw_4ion"}, {8, "bw_8ion"}};
  for (const auto &c : bw_cols)
    if (col.count(c.second) == 0) ADD_FAILURE() << path << ": no column " << c.second;
  if (col.count("clients") == 0) ADD_FAILURE() << path << ": no column clients";
  for (size_t i = 1; i < lines.size(); i++) {
    if (lines[i].empty()) continue;
    std::vector<std::string> f = csv_fields(lines[i]);
    Pattern p;
    p.clients = std::atoi(f.at(col["clients"]).c_str());
    for (const auto &c : bw_cols)
      p.bw[c.first] = std::strtod(f.at(col[c.second]).c_str(), nullptr) * kMiB;
    out.push_back(p);
  }
  return out;
}

// The pattern of application "mn4-pNNN" (1-based data row NNN), or nullptr.
const Pattern *pattern_of(const std::vector<Pattern> &patterns, const std::string &name) {
  if (name.rfind("mn4-p", 0) != 0) return nullptr;
  int row = std::atoi(name.c_str() + 5);
  return row >= 1 && row <= static_cast<int>(patterns.size()) ? &patterns[row - 1] : nullptr;
}

// RR-9549 §4.1 Static: n = round(Q·N / Q^cpu), halves up, at least 1, at most N.
int static_count(int nodes) {
  int n = static_cast<int>(std::floor(static_cast<double>(nodes) * kIoNodes / kComputeNodes + 0.5));
  return n < 1 ? 1 : (n > kIoNodes ? kIoNodes : n);
}

class engine_forge : public ::testing::Test {
protected:
  void SetUp() override {
    std::string csv = iosim_test::dataset("bez-forge-evaluation/mn4_189_patterns_mean_bw_by_ionodes.csv");
    patterns_ = read_patterns(csv);
    ASSERT_EQ(patterns_.size(), 189u) << csv << " should hold the 189 MareNostrum 4 patterns";
    ASSERT_TRUE(file_exists(kScenario)) << kScenario << " is missing";
  }

  // Runs the whole workload once and returns the application names of its apps.csv.
  std::vector<std::string> full_run_names(const std::vector<std::string> &sets) {
    SimRun r = run_scenario_file(kScenario, sets);
    EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
    EXPECT_EQ(r.str("status"), "complete");
    EXPECT_EQ(r.apps.size(), 16u) << r.describe();
    // every byte posted was carried by some resource
    double volume = 0, bytes = 0;
    for (const auto &a : r.apps)
      volume += a.io_volume;
    for (const auto &x : r.resources)
      bytes += x.bytes;
    EXPECT_REL(bytes, volume, kTol);
    std::vector<std::string> names;
    for (const auto &a : r.apps)
      names.push_back(a.name);
    return names;
  }

  // Runs each application alone and checks io_volume / io_time = b(n) from the CSV, n = expected_n(pattern).
  void check_alone(const std::vector<std::string> &sets, int (*expected_n)(const Pattern &)) {
    std::vector<std::string> names = full_run_names(sets);
    ASSERT_EQ(names.size(), 16u);
    for (const std::string &name : names) {
      SCOPED_TRACE(name);
      const Pattern *pat = pattern_of(patterns_, name);
      ASSERT_NE(pat, nullptr) << "application name " << name << " is not mn4-pNNN with 1 <= NNN <= 189";
      std::vector<std::string> s = sets;
      s.push_back("workload.only=" + name);
      SimRun r = run_scenario_file(kScenario, s);
      ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
      ASSERT_EQ(r.apps.size(), 1u) << r.describe();
      const AppRow &a = r.apps[0];
      EXPECT_EQ(a.name, name);
      EXPECT_EQ(a.nodes, pat->clients);
      int n = expected_n(*pat);
      EXPECT_EQ(a.n_resources, n);
      double expected_bw = pat->bw.at(n);
      ASSERT_GT(a.io_time, 0.0) << r.describe();
      EXPECT_REL(a.io_volume / a.io_time, expected_bw, kTol);
      EXPECT_REL(a.bandwidth, expected_bw, kTol);
      // alone, the I/O slowdown (RR-9549 Eq. 4) is b(n_perf)/b(n), n_perf the best measured count in 1..12
      double best = 0;
      for (int k : {1, 2, 4, 8})
        best = pat->bw.at(k) > best ? pat->bw.at(k) : best;
      EXPECT_REL(a.io_slowdown, best / expected_bw, kTol);
    }
  }

  std::vector<Pattern> patterns_;
};

} // namespace

// The dataset is found and read the way this file reads it (a sanity check of the reader itself): the first data
// row of the CSV is 8 clients with 537.808 MiB/s without I/O node and 169.12 MiB/s with one.
TEST_F(engine_forge, DatasetReaderSanity) {
  EXPECT_EQ(patterns_[0].clients, 8);
  EXPECT_DOUBLE_EQ(patterns_[0].bw.at(0), 537.808 * kMiB);
  EXPECT_DOUBLE_EQ(patterns_[0].bw.at(1), 169.12 * kMiB);
  EXPECT_DOUBLE_EQ(patterns_[0].bw.at(8), 1022.373 * kMiB);
}

// Static allocation (n = round(Q·12/512), at least 1), GNC placement, fairshare: each application alone transfers at
// b(n) of its FORGE pattern.
TEST_F(engine_forge, EachApplicationAloneGetsItsProfileBandwidthStatic) {
  check_alone({}, [](const Pattern &p) { return static_count(p.clients); });
}

// Fixed allocation of 4 I/O nodes: each application alone transfers at b(4) of its pattern (4 transfers of V/4 at
// b(4)/4 each, all below the 1.25 GB/s of an I/O node).
TEST_F(engine_forge, EachApplicationAloneGetsItsProfileBandwidthFixed4) {
  check_alone({"allocation.policy=fixed", "allocation.n=4"}, [](const Pattern &) { return 4; });
}
