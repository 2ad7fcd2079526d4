// iosim unit tests — StorAlloc (Monniot et al. 2022): the storage platform and presets, the storage placement policies
// (random, round-robin, worst-fit, best-bandwidth, §4.2) with their refusal and failure behaviour, the permanent-regime
// bandwidth estimate, the request scheduler with split and requeue (Table 2), its Table 3 metrics, the trace reader,
// the TOKIO-shaped generator ($IOSIM_DATA_DIR/tokio-abc; a missing dataset fails) and the writers.
#include "ios_diag.h"
#include "ios_storalloc_requests.h"
#include "ios_storalloc.h"
#include "support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr double GB = 1e9;

// A platform built node by node; freed on destruction.
struct Platform {
  ios_storage_t s{0, 0, nullptr, nullptr};
  Platform() = default;
  Platform(const Platform &) = delete;
  Platform &operator=(const Platform &) = delete;
  ~Platform() { ios_storage_free(&s); }
  Platform &node(int ndisks, double capacity, double write_bw = 1 * GB, double node_bw = INFINITY) {
    EXPECT_EQ(ios_storage_add_node(&s, nullptr, node_bw, ndisks, capacity, write_bw, write_bw), IOS_OK);
    return *this;
  }
};

ios_request_t request(double submit, double capacity, double duration, double bandwidth = 0, long id = -1) {
  ios_request_t r{};
  r.id = id;
  r.submit = submit;
  r.capacity = capacity;
  r.duration = duration;
  r.bandwidth = bandwidth;
  return r;
}

// Options for `policy` with split and requeue off unless asked; decided at start on the exact state, split parts
// all or nothing (decide "start", split.parts "all": the model these hand-computed cases were written for; the
// defaults, planned decisions and independent parts, have their own tests below).
ios_storalloc_options_t options(const char *policy, int split = 0, int requeue = 0) {
  ios_storalloc_options_t o;
  ios_storalloc_options_default(&o);
  EXPECT_EQ(ios_storalloc_options_policy(&o, policy), IOS_OK) << policy;
  o.split = split;
  o.requeue = requeue;
  o.decide_start = 1;
  o.split_all = 1;
  return o;
}

// Runs and owns the result.
struct Sched {
  ios_storalloc_result_t r{};
  int rc;
  Sched(const ios_storage_t &s, std::vector<ios_request_t> req, const ios_storalloc_options_t &o)
      : rc(ios_storalloc_run(&s, req.data(), (int)req.size(), &o, &r)) {}
  Sched(const Sched &) = delete;
  Sched &operator=(const Sched &) = delete;
  ~Sched() { ios_storalloc_result_free(&r); }
  std::vector<int> disks(int i) const {
    std::vector<int> d;
    for (int k = 0; k < r.req[i].parts; k++)
      d.push_back(r.part_disk[r.req[i].first_part + k]);
    return d;
  }
  // The disk of every single-part request, -1 when not allocated.
  std::vector<int> first_disks() const {
    std::vector<int> d;
    for (int i = 0; i < r.nrequests; i++)
      d.push_back(r.req[i].status == IOS_REQ_ALLOCATED ? r.part_disk[r.req[i].first_part] : -1);
    return d;
  }
};

std::string slurp(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

} // namespace

// ================================================================================================ platform
TEST(StoragePlatform, PresetsFollowStorAllocTable4And5) {
  // System: the four layouts at 32 TB (StorAlloc Table 4: 8 disks of 4 TB, or one 32 TB volume) and Table 5.
  // Expectations: node/disk counts 1x1, 1x8, 8x1, 4x2; capacities sum to 32 TB; SSDs 2.93 GB/s write; the RAID-10
  // volume half of it (1.465); 100 Gb/s = 12.5 GB/s links. Table 5: 2 nodes x 5 SSD 1.6 TB (200 Gb/s) then 4 nodes x
  // 2 HDD 2 TB at 0.08 GB/s (100 Gb/s), 32 TB in all.
  const char *names[] = {"1N1D", "1NnD", "nN1D", "nNnD"};
  const int nodes[] = {1, 1, 8, 4}, disks[] = {1, 8, 8, 8};
  for (int k = 0; k < 4; k++) {
    ios_storage_t s{0, 0, nullptr, nullptr};
    ASSERT_EQ(ios_storage_preset(names[k], 32e12, &s), IOS_OK) << names[k];
    EXPECT_EQ(s.nnodes, nodes[k]) << names[k];
    EXPECT_EQ(s.ndisks, disks[k]) << names[k];
    double total = 0;
    for (int d = 0; d < s.ndisks; d++)
      total += s.disks[d].capacity;
    EXPECT_DOUBLE_EQ(total, 32e12);
    EXPECT_DOUBLE_EQ(s.disks[0].write_bw, k == 0 ? 1.465e9 : 2.93e9);
    EXPECT_DOUBLE_EQ(s.nodes[0].bw, 12.5e9);
    ios_storage_free(&s);
  }
  ios_storage_t t{0, 0, nullptr, nullptr};
  ASSERT_EQ(ios_storage_preset("table5", 0, &t), IOS_OK);
  ASSERT_EQ(t.nnodes, 6);
  ASSERT_EQ(t.ndisks, 18);
  EXPECT_EQ(t.nodes[0].ndisks, 5);
  EXPECT_DOUBLE_EQ(t.nodes[0].bw, 25e9);
  EXPECT_DOUBLE_EQ(t.disks[0].capacity, 1.6e12);
  EXPECT_DOUBLE_EQ(t.disks[0].write_bw, 2.93e9);
  EXPECT_EQ(t.nodes[5].ndisks, 2);
  EXPECT_DOUBLE_EQ(t.nodes[5].bw, 12.5e9);
  EXPECT_DOUBLE_EQ(t.disks[17].capacity, 2e12);
  EXPECT_DOUBLE_EQ(t.disks[17].write_bw, 0.08e9);
  EXPECT_EQ(t.disks[17].node, 5);
  ios_storage_free(&t);
  ios_storage_t bad{0, 0, nullptr, nullptr};
  EXPECT_EQ(ios_storage_preset("2N2D", 32e12, &bad), IOS_EINVAL);
  EXPECT_EQ(ios_storage_preset("nNnD", 0, &bad), IOS_EINVAL);
  EXPECT_EQ(ios_storage_preset("table5", 16e12, &bad), IOS_EINVAL);
  EXPECT_EQ(bad.nnodes, 0);
}

TEST(StoragePlatform, FromJsonPresetAndNodesWithUnitsAndErrors) {
  // System: the Table 5 platform written out node kind by node kind; a preset; bad inputs.
  // Expectations: the same disks as the preset; messages name the file, the field and the fix.
  cJSON *j = cJSON_Parse(R"({"nodes": [{"name": "ssd", "count": 2, "bandwidth": "200Gbps", "disks": 5,
      "disk_capacity": "1.6TB", "write_bw": "2.93GB/s"}, {"name": "hdd", "count": 4, "bandwidth": "100Gbps",
      "disks": 2, "disk_capacity": 2e12, "write_bw": 8e7, "read_bw": "80MB/s"}]})");
  ios_storage_t s{0, 0, nullptr, nullptr};
  ASSERT_EQ(ios_storage_from_json(j, "p.json", "platform", &s), IOS_OK) << ios_diag_message();
  cJSON_Delete(j);
  ASSERT_EQ(s.ndisks, 18);
  EXPECT_STREQ(s.nodes[1].name, "ssd1");
  EXPECT_DOUBLE_EQ(s.nodes[0].bw, 25e9);
  EXPECT_DOUBLE_EQ(s.disks[4].read_bw, 2.93e9);
  EXPECT_DOUBLE_EQ(s.disks[10].capacity, 2e12);
  EXPECT_DOUBLE_EQ(s.disks[10].read_bw, 8e7);
  ios_storage_free(&s);
  j = cJSON_Parse(R"({"preset": "1NnD", "capacity": "8TB"})");
  ASSERT_EQ(ios_storage_from_json(j, "p.json", "platform", &s), IOS_OK) << ios_diag_message();
  EXPECT_EQ(s.ndisks, 8);
  EXPECT_DOUBLE_EQ(s.disks[7].capacity, 1e12);
  ios_storage_free(&s);
  cJSON_Delete(j);
  const char *bad[] = {R"({"preset": "nNnD"})", R"({"preset": "nNnD", "capacity": "32TB", "disks": 3})",
                       R"({"nodes": [{"disks": 2, "write_bw": "1GB/s"}]})",
                       R"({"nodes": [{"disk_capacity": "1TB", "write_bw": "fast"}]})"};
  const char *field[] = {"platform.preset", "unknown field 'disks'", "disk_capacity", "write_bw"};
  for (int k = 0; k < 4; k++) {
    j = cJSON_Parse(bad[k]);
    EXPECT_EQ(ios_storage_from_json(j, "p.json", "platform", &s), IOS_EINVAL) << bad[k];
    EXPECT_NE(std::string(ios_diag_message()).find(field[k]), std::string::npos) << ios_diag_message();
    EXPECT_NE(std::string(ios_diag_message()).find("p.json"), std::string::npos) << ios_diag_message();
    EXPECT_EQ(s.nnodes, 0);
    cJSON_Delete(j);
  }
}

// ================================================================================================ registry, options
TEST(StoragePolicies, RegistryNamesAliasesAndRefusalFlags) {
  // Expectations: the four StorAlloc §4.2 policies by name and alias; round-robin and best-bandwidth may refuse,
  // random and worst-fit never do (they fail instead); an unknown name lists the valid ones.
  const char *names[] = {"random", "round-robin", "worst-fit", "best-bandwidth"};
  const int refuse[] = {0, 1, 0, 1};
  int count = 0;
  for (int i = 0; ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[i]) != nullptr; i++)
    count++;
  EXPECT_EQ(count, 4);
  for (int k = 0; k < 4; k++) {
    const ios_storage_policy_t *p = ios_storage_policy_find(names[k]);
    ASSERT_NE(p, nullptr) << names[k];
    EXPECT_EQ(p->may_refuse, refuse[k]) << names[k];
    EXPECT_NE(std::string(p->source).find("StorAlloc"), std::string::npos);
  }
  EXPECT_EQ(ios_storage_policy_find("round_robin"), ios_storage_policy_find("round-robin"));
  EXPECT_EQ(ios_storage_policy_find("best_bandwidth"), ios_storage_policy_find("best-bandwidth"));
  EXPECT_EQ(ios_storage_policy_find("first-fit"), nullptr);
  ios_storalloc_options_t o;
  ios_storalloc_options_default(&o);
  EXPECT_EQ(ios_storalloc_options_policy(&o, "first-fit"), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("round-robin"), std::string::npos);
}

TEST(StorallocOptions, DefaultsAndJson) {
  // Expectations: defaults = StorAlloc Table 2 (best-bandwidth, split at 200 GB, requeue off, 5 retries every 5 min);
  // JSON with units; unknown members and bad values rejected with the field named, options untouched.
  ios_storalloc_options_t o;
  ios_storalloc_options_default(&o);
  EXPECT_STREQ(o.policy->name, "best-bandwidth");
  EXPECT_EQ(o.split, 1);
  EXPECT_DOUBLE_EQ(o.split_threshold, 200e9);
  EXPECT_EQ(o.requeue, 0);
  EXPECT_EQ(o.retries, 5);
  EXPECT_DOUBLE_EQ(o.interval, 300);
  cJSON *j = cJSON_Parse(R"({"policy": "round-robin", "params": {"tries": 0}, "split": {"threshold": "100GB"},
      "requeue": {"retries": 12, "interval": "5min"}, "seed": 7})");
  ASSERT_EQ(ios_storalloc_options_from_json(j, "c.json", "storalloc", &o), IOS_OK) << ios_diag_message();
  cJSON_Delete(j);
  EXPECT_STREQ(o.policy->name, "round-robin");
  EXPECT_EQ(o.params.v[0], 0);
  EXPECT_DOUBLE_EQ(o.split_threshold, 100e9);
  EXPECT_EQ(o.requeue, 1);
  EXPECT_EQ(o.retries, 12);
  EXPECT_DOUBLE_EQ(o.interval, 300);
  EXPECT_EQ(o.seed, 7u);
  const char *bad[] = {R"({"policy": "first-fit"})", R"({"split": "yes"})", R"({"requeue": {"retries": -1}})",
                       R"({"params": {"bogus": 1}})", R"({"spilt": true})"};
  const char *field[] = {"storalloc.policy", "storalloc.split", "storalloc.requeue.retries", "storalloc.params.bogus",
                         "unknown field 'spilt'"};
  for (int k = 0; k < 5; k++) {
    ios_storalloc_options_t before = o;
    j = cJSON_Parse(bad[k]);
    EXPECT_EQ(ios_storalloc_options_from_json(j, "c.json", "storalloc", &o), IOS_EINVAL) << bad[k];
    EXPECT_NE(std::string(ios_diag_message()).find(field[k]), std::string::npos) << ios_diag_message();
    EXPECT_EQ(o.retries, before.retries);
    EXPECT_EQ(o.policy, before.policy);
    cJSON_Delete(j);
  }
}

// ================================================================================================ split
TEST(StorallocSplit, EqualPartsOfAtMostTheThresholdSumToTheRequest) {
  // System: capacities around the 200 GB threshold and far above it (StorAlloc §5.2: "split into 200GB blocks").
  // Expectations (by hand): 200 GB -> 1 part; 200 GB + 1 byte -> 2 parts of 100 GB + 1 and 100 GB; 1 TB -> 5 x 200 GB;
  // 1 TB + 4 bytes -> 6 parts, the first two one byte larger; sums exact; no split when threshold <= 0.
  double sizes[16];
  EXPECT_EQ(ios_storalloc_split(200e9, 200e9, sizes, 16), 1);
  EXPECT_EQ(sizes[0], 200e9);
  EXPECT_EQ(ios_storalloc_split(200e9 + 1, 200e9, sizes, 16), 2);
  EXPECT_EQ(sizes[0], 100e9 + 1);
  EXPECT_EQ(sizes[1], 100e9);
  EXPECT_EQ(ios_storalloc_split(1e12, 200e9, sizes, 16), 5);
  for (int k = 0; k < 5; k++)
    EXPECT_EQ(sizes[k], 200e9);
  ASSERT_EQ(ios_storalloc_split(1e12 + 4, 200e9, sizes, 16), 6); // 6 x 166,666,666,667 = 1e12 + 2: 2 bytes left
  EXPECT_EQ(sizes[0], 166666666668.0);
  EXPECT_EQ(sizes[1], 166666666668.0);
  EXPECT_EQ(sizes[2], 166666666667.0);
  EXPECT_EQ(sizes[5], 166666666667.0);
  EXPECT_EQ(ios_storalloc_split(5e12, 0, sizes, 16), 1);
  EXPECT_EQ(sizes[0], 5e12);
  EXPECT_EQ(ios_storalloc_split(-1, 200e9, sizes, 16), -1);
  // Property: over many capacities (whole bytes and fractional ones), parts = ceil(c/t), each <= t, sum == c exactly.
  ios_rng_t rng;
  ios_rng_seed(&rng, 42, 0);
  std::vector<double> buf(20000);
  for (int trial = 0; trial < 5000; trial++) {
    double t = std::round(1e9 + ios_rng_uniform(&rng) * 300e9);
    double c = std::round(std::exp(ios_rng_uniform(&rng) * 30.0)); // up to 1e13 bytes: at most 1e4 parts
    if (trial % 3 == 0) c += 0.25;
    long p = ios_storalloc_split(c, t, buf.data(), (long)buf.size());
    ASSERT_GE(p, 1);
    ASSERT_LE(p, (long)buf.size());
    EXPECT_EQ(p, std::max(1L, (long)std::ceil(c / t)));
    double sum = 0, lo = INFINITY, hi = 0;
    for (long k = 0; k < p; k++) {
      sum += buf[k];
      lo = std::min(lo, buf[k]);
      hi = std::max(hi, buf[k]);
    }
    EXPECT_EQ(sum, c) << "capacity " << c << " threshold " << t;
    EXPECT_LE(hi, std::max(t, c / p + 1));
    EXPECT_LT(hi - lo, 1.0 + 1e-9);
  }
}

// ================================================================================================ property
namespace {

// Checks a run against the platform by replaying the outcomes independently: every disk's level stays within its
// capacity at all times (ends before starts at equal times: [start, end)); parts sum to the request; unallocated
// requests hold nothing; requeue counts and delays match the options.
void check_run(const ios_storage_t &s, const std::vector<ios_request_t> &req, const ios_storalloc_options_t &o,
               const ios_storalloc_result_t &r, const std::string &what) {
  ASSERT_EQ(r.nrequests, (int)req.size());
  std::vector<std::vector<std::pair<double, double>>> events(s.ndisks);
  double allocated = 0;
  int counts[3] = {0, 0, 0};
  std::vector<double> sizes;
  for (size_t i = 0; i < req.size(); i++) {
    const ios_request_outcome_t &q = r.req[i];
    ASSERT_TRUE(q.status >= 0 && q.status <= 2);
    counts[q.status]++;
    long parts = ios_storalloc_split(req[i].capacity, o.split ? o.split_threshold : 0, nullptr, 0);
    ASSERT_EQ(q.parts, parts) << what;
    sizes.assign(parts, 0);
    ios_storalloc_split(req[i].capacity, o.split ? o.split_threshold : 0, sizes.data(), parts);
    double sum = 0;
    for (double x : sizes)
      sum += x;
    EXPECT_EQ(sum, req[i].capacity) << what << ": parts sum to the request";
    EXPECT_LE(q.requeued, o.requeue ? o.retries : 0) << what;
    EXPECT_NEAR(q.delay, q.requeued * o.interval, 1e-6) << what << ": retries every interval";
    EXPECT_NEAR(q.start, req[i].submit + q.delay, 1e-6) << what;
    if (q.status == IOS_REQ_REFUSED) {
      EXPECT_TRUE(o.policy->may_refuse) << what << ": only refusing policies refuse";
      EXPECT_EQ(q.requeued, o.requeue ? o.retries : 0) << what << ": refused after exactly the retries";
    }
    if (q.status == IOS_REQ_FAILED) {
      EXPECT_GE(q.fail_disk, 0);
      EXPECT_EQ(q.requeued, 0) << what << ": failures are not requeued";
    }
    for (long k = 0; k < parts; k++) {
      int d = r.part_disk[q.first_part + k];
      if (q.status != IOS_REQ_ALLOCATED) {
        EXPECT_EQ(d, -1) << what << ": a request that falls back to the PFS holds no disk";
        continue;
      }
      ASSERT_TRUE(d >= 0 && d < s.ndisks) << what;
      events[d].push_back({q.start, sizes[k]});
      events[d].push_back({q.start + req[i].duration, -sizes[k]});
    }
    if (q.status == IOS_REQ_ALLOCATED) allocated += req[i].capacity;
  }
  for (int d = 0; d < s.ndisks; d++) {
    std::sort(events[d].begin(), events[d].end()); // at equal times, negative (ends) first
    double level = 0, max_level = 0;
    for (auto &e : events[d]) {
      level += e.second;
      max_level = std::max(max_level, level);
      ASSERT_LE(level, s.disks[d].capacity) << what << ": disk " << d << " over capacity at " << e.first;
    }
    EXPECT_NEAR(r.disk[d].max_fill_pct, 100 * max_level / s.disks[d].capacity, 1e-6) << what;
  }
  EXPECT_EQ(r.m.allocated, counts[0]);
  EXPECT_EQ(r.m.refused, counts[1]);
  EXPECT_EQ(r.m.failed, counts[2]);
  EXPECT_DOUBLE_EQ(r.m.allocated_volume, allocated);
  EXPECT_NEAR(r.m.deallocated_volume, allocated, 1e-6 * (1 + allocated));
  EXPECT_LE(r.m.max_fill_pct, 100.0);
}

} // namespace

TEST(StorallocProperty, CapacityNeverExceededForEveryPolicyOverRandomTraces) {
  // System: for each policy x split on/off x requeue on/off, 25 seeded random platforms (1-3 nodes of 1-3 disks of
  // 50-500 GB, 0.1-3 GB/s, some node links limiting) and traces (120 requests of 1-800 GB, submissions on a 100 s
  // grid so that ties happen, durations 0-3000 s, some bandwidth needs); split at 100 GB, 3 retries every 200 s.
  // Expectations: check_run (capacity never exceeded at any time on any disk, parts sum to the request, refusals only
  // by refusing policies and after exactly the retries, failures never requeued, PFS requests hold no disk). The
  // traces load the platforms enough that every policy meets full disks: refusers refuse, the others fail, and some
  // requeued requests are allocated in the end.
  for (int p = 0; ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p]) != nullptr; p++) {
    int negative = 0, allocated = 0, requeued_allocated = 0;
    for (int seed = 1; seed <= 25; seed++) {
      ios_rng_t rng;
      ios_rng_seed(&rng, (uint64_t)seed, 77);
      Platform plat;
      int nnodes = 1 + (int)ios_rng_below(&rng, 3);
      for (int v = 0; v < nnodes; v++)
        plat.node(1 + (int)ios_rng_below(&rng, 3), std::round((50 + 450 * ios_rng_uniform(&rng)) * GB),
                  (0.1 + 2.9 * ios_rng_uniform(&rng)) * GB, ios_rng_below(&rng, 2) ? INFINITY : 2 * GB);
      std::vector<ios_request_t> req;
      for (int i = 0; i < 120; i++)
        req.push_back(request(100.0 * (double)ios_rng_below(&rng, 100),
                              std::round(std::exp(std::log(1 * GB) + ios_rng_uniform(&rng) * std::log(800.0))),
                              ios_rng_below(&rng, 10) == 0 ? 0 : 3000 * ios_rng_uniform(&rng),
                              ios_rng_below(&rng, 3) == 0 ? ios_rng_uniform(&rng) * GB : 0, i));
      for (int split = 0; split <= 1; split++)
        for (int requeue = 0; requeue <= 1; requeue++) {
          ios_storalloc_options_t o =
              options(((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->name, split, requeue);
          o.split_threshold = 100 * GB;
          o.retries = 3;
          o.interval = 200;
          o.seed = (uint64_t)seed;
          Sched run(plat.s, req, o);
          std::string what = std::string(((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->name) +
                             " seed " + std::to_string(seed) + (split ? " split" : "") + (requeue ? " requeue" : "");
          ASSERT_EQ(run.rc, IOS_OK) << what << ": " << ios_diag_message();
          check_run(plat.s, req, o, run.r, what);
          negative += ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->may_refuse
                          ? run.r.m.refused
                          : run.r.m.failed;
          allocated += run.r.m.allocated;
          requeued_allocated += run.r.m.requeued_allocated;
        }
    }
    EXPECT_GT(negative, 1000) << ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->name;
    EXPECT_GT(allocated, 4000) << ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->name;
    if (((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->may_refuse) {
      EXPECT_GT(requeued_allocated, 50) << ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->name;
    }
  }
}

// ================================================================================================ requeue, PFS
namespace {
std::vector<double> refusal_calls;

int always_refuse(const ios_storage_t *, const ios_storage_state_t *st, const ios_storage_ask_t *ask,
                  const ios_params_t *, ios_storage_ctx_t *, int *) {
  refusal_calls.push_back(st->now);
  EXPECT_EQ(ask->start, st->now);
  return IOS_STORAGE_REFUSED;
}

const ios_storage_policy_t refuser = {"test-refuser", nullptr, "refuses everything", "test", 0, nullptr,
                                      always_refuse,  1};
} // namespace

TEST(StorallocRequeue, RetriedExactlyRetriesTimesEveryIntervalThenPfs) {
  // System: a policy that records when it is asked and always refuses; one request at t = 1000 s; requeue with
  // 5 retries every 300 s (StorAlloc Table 2), then 2 retries every 60 s, then requeue off.
  // Expectations: asked at 1000, 1300, ..., 2500 (1 + 5 times), then refused: requeued = 5, start = 2500, delay =
  // 1500; with 2 x 60 s: 1000, 1060, 1120; without requeue: once, delay 0. The metrics count it as requeued.
  Platform plat;
  plat.node(1, 100 * GB);
  ios_storalloc_options_t o = options("round-robin", 0, 1);
  o.policy = &refuser;
  refusal_calls.clear();
  {
    Sched run(plat.s, {request(1000, 10 * GB, 50)}, o);
    ASSERT_EQ(run.rc, IOS_OK) << ios_diag_message();
    EXPECT_EQ(refusal_calls, (std::vector<double>{1000, 1300, 1600, 1900, 2200, 2500}));
    EXPECT_EQ(run.r.req[0].status, IOS_REQ_REFUSED);
    EXPECT_EQ(run.r.req[0].requeued, 5);
    EXPECT_DOUBLE_EQ(run.r.req[0].start, 2500);
    EXPECT_DOUBLE_EQ(run.r.req[0].delay, 1500);
    EXPECT_EQ(run.r.m.requeued, 1);
    EXPECT_EQ(run.r.m.requeued_allocated, 0);
    EXPECT_DOUBLE_EQ(run.r.m.total_delay, 1500);
  }
  refusal_calls.clear();
  o.retries = 2;
  o.interval = 60;
  {
    Sched run(plat.s, {request(1000, 10 * GB, 50)}, o);
    EXPECT_EQ(refusal_calls, (std::vector<double>{1000, 1060, 1120}));
    EXPECT_EQ(run.r.req[0].requeued, 2);
  }
  refusal_calls.clear();
  o.requeue = 0;
  {
    Sched run(plat.s, {request(1000, 10 * GB, 50)}, o);
    EXPECT_EQ(refusal_calls, (std::vector<double>{1000}));
    EXPECT_EQ(run.r.req[0].requeued, 0);
    EXPECT_DOUBLE_EQ(run.r.req[0].delay, 0);
  }
}

TEST(StorallocRequeue, ARetrySucceedsWhenRoomFreesUp) {
  // System: one 1 TB disk; A = 1 TB for 1000 s at t = 0; B = 600 GB at t = 100; round-robin, 5 retries every 300 s.
  // Expectations (by hand): B refused at 100, 400, 700; at 1000 A ends and is released before B's 4th attempt
  // ([start, end) intervals), so B is allocated at 1000 after 3 retries: delay 900 s, held until 1000 + duration.
  // With A lasting 10,000 s: B tried at 100 ... 1600 (5 retries) and refused: it falls back to the PFS.
  Platform plat;
  plat.node(1, 1000 * GB);
  ios_storalloc_options_t o = options("round-robin", 0, 1);
  {
    Sched run(plat.s, {request(0, 1000 * GB, 1000), request(100, 600 * GB, 50)}, o);
    ASSERT_EQ(run.rc, IOS_OK);
    EXPECT_EQ(run.r.req[1].status, IOS_REQ_ALLOCATED);
    EXPECT_EQ(run.r.req[1].requeued, 3);
    EXPECT_DOUBLE_EQ(run.r.req[1].start, 1000);
    EXPECT_DOUBLE_EQ(run.r.req[1].delay, 900);
    EXPECT_EQ(run.r.m.requeued_allocated, 1);
    EXPECT_DOUBLE_EQ(run.r.m.t_end, 1050);
  }
  {
    Sched run(plat.s, {request(0, 1000 * GB, 10000), request(100, 600 * GB, 50)}, o);
    EXPECT_EQ(run.r.req[1].status, IOS_REQ_REFUSED);
    EXPECT_EQ(run.r.req[1].requeued, 5);
    EXPECT_DOUBLE_EQ(run.r.req[1].start, 1600);
    EXPECT_EQ(run.disks(1), (std::vector<int>{-1}));
  }
}

TEST(StorallocPfs, RefusedAndFailedRequestsFallBackToThePfs) {
  // System: two disks of 100 GB; one request of 150 GB (larger than any disk), no split; requeue on.
  // Expectations: round-robin and best-bandwidth refuse it (after their retries); random and worst-fit choose a disk
  // and the allocation fails there (no retry: StorAlloc requeues refusals only); no disk holds anything; served 0.
  Platform plat;
  plat.node(2, 100 * GB);
  for (const char *name : {"round-robin", "best-bandwidth", "random", "worst-fit"}) {
    ios_storalloc_options_t o = options(name, 0, 1);
    Sched run(plat.s, {request(0, 150 * GB, 100)}, o);
    ASSERT_EQ(run.rc, IOS_OK) << name;
    int refusing = o.policy->may_refuse;
    EXPECT_EQ(run.r.req[0].status, refusing ? IOS_REQ_REFUSED : IOS_REQ_FAILED) << name;
    EXPECT_EQ(run.r.req[0].requeued, refusing ? 5 : 0) << name;
    EXPECT_EQ(run.disks(0), (std::vector<int>{-1})) << name;
    if (!refusing) {
      EXPECT_TRUE(run.r.req[0].fail_disk == 0 || run.r.req[0].fail_disk == 1) << name;
    }
    EXPECT_DOUBLE_EQ(run.r.m.served_share, 0);
    EXPECT_DOUBLE_EQ(run.r.m.max_fill_pct, 0) << name << ": a refused or failed request never occupies a disk";
  }
}

// ================================================================================================ hand cases
TEST(StoragePolicyRoundRobin, NodesInTurnThenDisksSkippingFullOnes) {
  // System: 2 nodes x 2 disks of 100 GB (node A: d0 d1, node B: d2 d3); long requests at t = 0..4: 95, 10, 10, 10,
  // 10 GB.
  // Expectations (by hand): the cursor visits A0 B0 A1 B1 A0 B0 ...: 95 -> d0, 10 -> d2, 10 -> d1, 10 -> d3; the 5th
  // looks at A0 = d0 (5 GB free < 10: skipped) then B0 = d2 (90 free): d2. With tries = 1 the 5th is refused.
  Platform plat;
  plat.node(2, 100 * GB).node(2, 100 * GB);
  std::vector<ios_request_t> req = {request(0, 95 * GB, 1e4), request(1, 10 * GB, 1e4), request(2, 10 * GB, 1e4),
                                    request(3, 10 * GB, 1e4), request(4, 10 * GB, 1e4)};
  ios_storalloc_options_t o = options("round-robin");
  Sched run(plat.s, req, o);
  EXPECT_EQ(run.first_disks(), (std::vector<int>{0, 2, 1, 3, 2}));
  o.params.v[0] = 1;
  Sched strict(plat.s, req, o);
  EXPECT_EQ(strict.first_disks(), (std::vector<int>{0, 2, 1, 3, -1}));
  EXPECT_EQ(strict.r.req[4].status, IOS_REQ_REFUSED);
}

TEST(StoragePolicyWorstFit, LargestFreeShareFirstAndFillFirstVariant) {
  // System: three one-disk nodes, disks of 100, 200, 400 GB; long requests of 50, 50, 50, 50, 100, 60 GB at t = 0..5.
  // Expectations (by hand, free shares before each choice; ties = 1: lowest index): (1,1,1) tie -> d0; (.5,1,1) -> d1;
  // (.5,.75,1) -> d2;
  // (.5,.75,.875) -> d2; (.5,.75,.75) tie -> d1; (.5,.25,.75) -> d2. fill_first = 1: 50 -> d0, 50 -> d0 (full), 50 ->
  // d1, 50 -> d1, 100 -> d1 (200 used), 60 -> d2.
  Platform plat;
  plat.node(1, 100 * GB).node(1, 200 * GB).node(1, 400 * GB);
  std::vector<ios_request_t> req;
  double sizes[] = {50, 50, 50, 50, 100, 60};
  for (int i = 0; i < 6; i++)
    req.push_back(request(i, sizes[i] * GB, 1e4));
  ios_storalloc_options_t o = options("worst-fit");
  o.params.v[1] = 1; // ties: lowest index
  Sched run(plat.s, req, o);
  EXPECT_EQ(run.first_disks(), (std::vector<int>{0, 1, 2, 2, 1, 2}));
  o.params.v[0] = 1;
  Sched fill(plat.s, req, o);
  EXPECT_EQ(fill.first_disks(), (std::vector<int>{0, 0, 1, 1, 1, 2}));
  // A request no disk can hold: worst-fit picks the largest free share (d2, 400 - 110 = 290 GB) and fails there.
  req.push_back(request(6, 300 * GB, 1e4));
  o.params.v[0] = 0;
  Sched failing(plat.s, req, o);
  EXPECT_EQ(failing.r.req[6].status, IOS_REQ_FAILED);
  EXPECT_EQ(failing.r.req[6].fail_disk, 2);
}

TEST(StoragePolicyRandom, NodeThenDiskUniformlyAndFailsOnAFullDisk) {
  // System: node A with 1 disk (d0), node B with 3 disks (d1-d3), 1 PB each; 8000 short requests.
  // Expectations: a node uniformly, then a disk of it uniformly: d0 gets 1/2 of the requests, d1-d3 1/6 each (within
  // 4 standard deviations). Then d0 is 10 GB: every request of 20 GB drawn there fails (about half of them), the
  // others are allocated; the same seed gives the same choices.
  Platform plat;
  plat.node(1, 1e15).node(3, 1e15);
  std::vector<ios_request_t> req;
  for (int i = 0; i < 8000; i++)
    req.push_back(request(i, 20 * GB, 0.5));
  ios_storalloc_options_t o = options("random");
  o.seed = 3;
  Sched run(plat.s, req, o);
  std::vector<int> hits(4, 0);
  for (int d : run.first_disks())
    hits[d]++;
  EXPECT_NEAR(hits[0], 4000, 4 * std::sqrt(8000 * 0.25));
  for (int d = 1; d < 4; d++)
    EXPECT_NEAR(hits[d], 8000 / 6.0, 4 * std::sqrt(8000 / 6.0 * 5 / 6));
  plat.s.disks[0].capacity = 10 * GB;
  Sched small(plat.s, req, o);
  for (int i = 0; i < 8000; i++) {
    bool on_d0 = run.first_disks()[i] == 0; // same seed, same draws
    EXPECT_EQ(small.r.req[i].status, on_d0 ? IOS_REQ_FAILED : IOS_REQ_ALLOCATED) << i;
  }
  EXPECT_EQ(small.r.m.failed, hits[0]);
  EXPECT_EQ(small.r.m.refused, 0);
}

TEST(StorageBandwidth, PermanentRegimeEstimateByHand) {
  // System: one node (link 1.5 GB/s) with 2 disks of 1 GB/s; X holds d0 from 0 to 500 s (no need). A new allocation
  // asked at t = 0.
  // Expectations (by hand): instantaneously on d0: d0 shared by X and it (0.5 each), link 1.0 <= 1.5: 0.5; on d1: 1
  // each, link 2 > 1.5: max-min 0.75. Over 1000 s: on d0 0.5 for 500 s then 1 alone -> 0.75; on d1 0.75 then 1 ->
  // 0.875. With X needing 0.2 GB/s: d0 -> 0.8 (X capped), d1 -> min(1, 1.5 - 0.2) = 1.
  Platform plat;
  plat.node(2, 1000 * GB, 1 * GB, 1.5 * GB);
  ios_storage_state_t st;
  ASSERT_EQ(ios_storage_state_init(&st, &plat.s), IOS_OK);
  ios_storage_alloc_t x = {100 * GB, 500, 0, 0};
  ASSERT_EQ(ios_storage_state_add(&st, &plat.s, 0, &x), IOS_OK);
  ios_storage_ask_t now = {10 * GB, 0, 0, 0}, long_ask = {10 * GB, 0, 1000, 0};
  EXPECT_NEAR(ios_storage_bw_estimate(&plat.s, &st, 0, &now), 0.5 * GB, 1);
  EXPECT_NEAR(ios_storage_bw_estimate(&plat.s, &st, 1, &now), 0.75 * GB, 1);
  EXPECT_NEAR(ios_storage_bw_estimate(&plat.s, &st, 0, &long_ask), 0.75 * GB, 1);
  EXPECT_NEAR(ios_storage_bw_estimate(&plat.s, &st, 1, &long_ask), 0.875 * GB, 1);
  st.disk[0].a[0].need = 0.2 * GB;
  EXPECT_NEAR(ios_storage_bw_estimate(&plat.s, &st, 0, &now), 0.8 * GB, 1);
  EXPECT_NEAR(ios_storage_bw_estimate(&plat.s, &st, 1, &now), 1.0 * GB, 1);
  ios_storage_state_free(&st);
}

TEST(StoragePolicyBestBandwidth, NodeLinksAndDisksDecide) {
  // System: node A (d0: 1 GB/s disk, link L) and node B (d1: 1 GB/s disk, 10 GB/s link) where X holds d1 for 1e4 s.
  // Expectations (by hand): a new request gets min(1, L) on d0 and 0.5 on d1: with L = 0.6 GB/s d0 wins; with L =
  // 0.4 GB/s d1 wins although it already holds an allocation; when d0 lacks room it is not a candidate.
  for (double link : {0.6, 0.4}) {
    Platform plat;
    plat.node(1, 100 * GB, GB, link * GB).node(1, 100 * GB, GB, 10 * GB);
    ios_storage_state_t st;
    ASSERT_EQ(ios_storage_state_init(&st, &plat.s), IOS_OK);
    ios_storage_alloc_t x = {10 * GB, 1e4, 0, 0};
    ASSERT_EQ(ios_storage_state_add(&st, &plat.s, 1, &x), IOS_OK);
    st.now = 1;
    ios_storage_ask_t ask = {10 * GB, 1, 100, 0};
    const ios_storage_policy_t *bb = ios_storage_policy_find("best-bandwidth");
    ios_params_t p{};
    ios_storage_ctx_t ctx{};
    ios_rng_seed(&ctx.rng, 1, 0);
    int d = -1;
    ASSERT_EQ(bb->place(&plat.s, &st, &ask, &p, &ctx, &d), IOS_STORAGE_CHOSEN);
    EXPECT_EQ(d, link > 0.5 ? 0 : 1) << "link " << link;
    ask.size = 95 * GB; // d0 has 100 GB, d1 only 90 GB free: d0 is the only candidate
    ASSERT_EQ(bb->place(&plat.s, &st, &ask, &p, &ctx, &d), IOS_STORAGE_CHOSEN);
    EXPECT_EQ(d, 0);
    ask.size = 101 * GB; // no disk has room: refused
    EXPECT_EQ(bb->place(&plat.s, &st, &ask, &p, &ctx, &d), IOS_STORAGE_REFUSED);
    ios_storage_state_free(&st);
  }
}

TEST(StoragePolicyBestBandwidth, Table5PrefersSsdsUntilFullThenHdds) {
  // System: StorAlloc Table 5 (d0-d9: SSDs 1.6 TB, 2.93 GB/s, 5 per 25 GB/s node; d10-d17: HDDs 2 TB, 0.08 GB/s);
  // 20 long requests of 100 GB, then 10 of 1.4 TB.
  // Expectations (by hand): each of the first 10 goes to an empty SSD (2.93 GB/s beats 1.465 on a used one; links
  // never limit: 5 x 2.93 < 25), lowest index first: d0..d9; the next 10 find one allocation on every SSD (1.465
  // each, equal free bytes; ties = 1: lowest index): d0..d9 again. Then every SSD has 1.4 TB free: the 1.4 TB requests
  // fill d0..d9 (1.6 TB each, 100 %), and one more goes to an HDD (d10): the SSDs are full before the HDDs are used
  // (StorAlloc §5.2).
  ios_storage_t s{0, 0, nullptr, nullptr};
  ASSERT_EQ(ios_storage_preset("table5", 0, &s), IOS_OK);
  std::vector<ios_request_t> req;
  for (int i = 0; i < 20; i++)
    req.push_back(request(i, 100 * GB, 1e6));
  for (int i = 0; i < 11; i++)
    req.push_back(request(100 + i, 1.4e12, 1e6));
  ios_storalloc_options_t o = options("best-bandwidth");
  o.params.v[0] = 1; // ties: most free bytes, then lowest index
  Sched run(s, req, o);
  std::vector<int> expect;
  for (int k = 0; k < 3; k++)
    for (int d = 0; d < 10; d++)
      expect.push_back(d);
  expect.push_back(10);
  EXPECT_EQ(run.first_disks(), expect);
  for (int d = 0; d < 10; d++)
    EXPECT_NEAR(run.r.disk[d].max_fill_pct, 100, 1e-9);
  ios_storage_free(&s);
}

TEST(StoragePolicyTies, WorstFitAndBestBandwidthDrawTiesUniformly) {
  // System: one node of 4 identical disks (unlimited link); 4000 requests of 1 GB, each ending before the next starts,
  // so every disk is equally free and equally fast at every decision. Default parameters (ties = 0, StorAlloc's
  // random choice among equal candidates).
  // Expectations: each disk receives about a quarter of the requests (within 4 standard deviations); with ties = 1
  // every request goes to d0.
  Platform plat;
  plat.node(4, 100 * GB);
  std::vector<ios_request_t> req;
  for (int i = 0; i < 4000; i++)
    req.push_back(request(i, GB, 0.5));
  for (const char *name : {"worst-fit", "best-bandwidth"}) {
    ios_storalloc_options_t o = options(name);
    Sched run(plat.s, req, o);
    std::vector<int> hits(4, 0);
    for (int d : run.first_disks())
      hits[d]++;
    for (int d = 0; d < 4; d++)
      EXPECT_NEAR(hits[d], 1000, 4 * std::sqrt(4000 * 0.25 * 0.75)) << name << " disk " << d;
    o.params.v[o.policy->nparams - 1] = 1;
    Sched fixed(plat.s, req, o);
    EXPECT_EQ(fixed.r.disk[0].allocations, 4000) << name;
  }
}

// ================================================================================================ metrics by hand
TEST(StorallocMetrics, Table3MetricsOnAHandBuiltTrace) {
  // System: 1 node, 2 disks of 100 GB; round-robin (tries 0 = every disk), no split, no requeue.
  //   r0 t=0  50 GB 100 s -> d0;  r1 t=0 30 GB 50 s -> d1;  r2 t=20 60 GB 40 s: d0 has 50 free (no), d1 70 (yes) ->
  //   d1;  r3 t=30 80 GB 10 s: d0 50 free, d1 10 free -> refused.
  // Expectations (by hand), window [0, 100]: d0 holds 50 GB on [0,100): mean 50 %, max 50 %, 1 allocation on
  // average, max 1. d1: 30 GB [0,20), 90 GB [20,50), 60 GB [50,60), 0 after: mean (600+2700+600)/100 = 39 GB = 39 %,
  // max 90 %; allocations 1, 2, 1, 0: mean (20+60+10)/100 = 0.9, max 2. Disks: mean fill 44.5 %, max 90 %; mean
  // allocations 0.95, sd 0.05, max 2. Node (and globally): 2, 3, 2, 1 on those spans: mean 1.9, max 3.
  // sum_cap 220 GB, allocated 140 GB, served 140/220; 3 allocated, 1 refused.
  Platform plat;
  plat.node(2, 100 * GB);
  std::vector<ios_request_t> req = {request(0, 50 * GB, 100), request(0, 30 * GB, 50), request(20, 60 * GB, 40),
                                    request(30, 80 * GB, 10)};
  ios_storalloc_options_t o = options("round-robin");
  o.params.v[0] = 0;
  Sched run(plat.s, req, o);
  ASSERT_EQ(run.rc, IOS_OK);
  EXPECT_EQ(run.first_disks(), (std::vector<int>{0, 1, 1, -1}));
  const ios_storalloc_metrics_t &m = run.r.m;
  EXPECT_DOUBLE_EQ(m.t_begin, 0);
  EXPECT_DOUBLE_EQ(m.t_end, 100);
  EXPECT_NEAR(run.r.disk[0].mean_fill_pct, 50, 1e-9);
  EXPECT_NEAR(run.r.disk[0].max_fill_pct, 50, 1e-9);
  EXPECT_NEAR(run.r.disk[0].mean_allocs, 1, 1e-12);
  EXPECT_EQ(run.r.disk[0].max_allocs, 1);
  EXPECT_NEAR(run.r.disk[1].mean_fill_pct, 39, 1e-9);
  EXPECT_NEAR(run.r.disk[1].max_fill_pct, 90, 1e-9);
  EXPECT_NEAR(run.r.disk[1].mean_allocs, 0.9, 1e-12);
  EXPECT_EQ(run.r.disk[1].max_allocs, 2);
  EXPECT_EQ(run.r.disk[1].allocations, 2);
  EXPECT_DOUBLE_EQ(run.r.disk[1].volume, 90 * GB);
  EXPECT_NEAR(m.mean_fill_pct, 44.5, 1e-9);
  EXPECT_NEAR(m.max_fill_pct, 90, 1e-9);
  EXPECT_NEAR(m.disk_mean_allocs, 0.95, 1e-12);
  EXPECT_NEAR(m.disk_mean_allocs_sd, 0.05, 1e-9);
  EXPECT_EQ(m.disk_max_allocs, 2);
  EXPECT_NEAR(m.node_mean_allocs, 1.9, 1e-12);
  EXPECT_EQ(m.node_max_allocs, 3);
  EXPECT_NEAR(m.mean_requests, 1.9, 1e-12);
  EXPECT_EQ(m.max_requests, 3);
  EXPECT_NEAR(m.mean_parts, 1.9, 1e-12);
  EXPECT_DOUBLE_EQ(m.sum_cap, 220 * GB);
  EXPECT_DOUBLE_EQ(m.allocated_volume, 140 * GB);
  EXPECT_DOUBLE_EQ(m.deallocated_volume, 140 * GB);
  EXPECT_NEAR(m.served_share, 140.0 / 220.0, 1e-15);
  EXPECT_EQ(m.allocated, 3);
  EXPECT_EQ(m.refused, 1);
  EXPECT_EQ(m.failed, 0);
  EXPECT_EQ(m.requeued, 0);
  EXPECT_EQ(m.split, 0);
}

TEST(StorallocMetrics, RequeueAndSplitOnTheSameTrace) {
  // System: the trace above. (a) Requeue every 25 s: r3 (refused at 30) is retried at 55 (d0 50 free, d1 40 free
  // after r1 left at 50: refused) and at 80 (r2 left at 60; the cursor tries d0 then d1: d1) -> allocated at 80
  // on d1 until 90: 2 retries, delay 50 s, served 100 %.
  // (b) Split at 40 GB: r0 -> 2 x 25 GB, r2 -> 2 x 30, r3 -> 2 x 40. Cursor d0, d1, ...: r0 -> d0, d1; r1 -> d0 (55
  // GB); r2 -> d1 (55), d0 (85); r3's first part -> d1 (95 GB tentatively), its second finds d0 (15 free) and d1 (5
  // free) full: refused, and the first part is released: d1 never holds more than 55 GB in the metrics (max fill
  // 85 % on d0, 55 % on d1). 3 requests split, 2 of them allocated, 5 allocations made.
  Platform plat;
  plat.node(2, 100 * GB);
  std::vector<ios_request_t> req = {request(0, 50 * GB, 100), request(0, 30 * GB, 50), request(20, 60 * GB, 40),
                                    request(30, 80 * GB, 10)};
  ios_storalloc_options_t o = options("round-robin", 0, 1);
  o.params.v[0] = 0;
  o.interval = 25;
  {
    Sched run(plat.s, req, o);
    EXPECT_EQ(run.first_disks(), (std::vector<int>{0, 1, 1, 1}));
    EXPECT_EQ(run.r.req[3].requeued, 2);
    EXPECT_DOUBLE_EQ(run.r.req[3].start, 80);
    EXPECT_EQ(run.r.m.requeued, 1);
    EXPECT_EQ(run.r.m.requeued_allocated, 1);
    EXPECT_DOUBLE_EQ(run.r.m.total_delay, 50);
    EXPECT_DOUBLE_EQ(run.r.m.served_share, 1);
    EXPECT_NEAR(run.r.disk[1].max_fill_pct, 90, 1e-9);
  }
  o.requeue = 0;
  o.split = 1;
  o.split_threshold = 40 * GB;
  {
    Sched run(plat.s, req, o);
    EXPECT_EQ(run.disks(0), (std::vector<int>{0, 1}));
    EXPECT_EQ(run.disks(1), (std::vector<int>{0}));
    EXPECT_EQ(run.disks(2), (std::vector<int>{1, 0}));
    EXPECT_EQ(run.disks(3), (std::vector<int>{-1, -1}));
    EXPECT_EQ(run.r.req[3].status, IOS_REQ_REFUSED);
    EXPECT_EQ(run.r.req[2].parts, 2);
    EXPECT_DOUBLE_EQ(run.r.req[2].part_size, 30 * GB);
    EXPECT_NEAR(run.r.disk[0].max_fill_pct, 85, 1e-9);
    EXPECT_NEAR(run.r.disk[1].max_fill_pct, 55, 1e-9);
    EXPECT_EQ(run.r.m.split, 3);
    EXPECT_EQ(run.r.m.split_allocated, 2);
    EXPECT_EQ(run.r.m.parts_allocated, 5);
    EXPECT_EQ(run.r.m.max_parts, 5);
    EXPECT_EQ(run.r.m.max_requests, 3);
  }
}

TEST(StorallocRun, BadInputsAreRejectedWithTheFieldNamed) {
  // Expectations: a zero capacity, a negative duration, an empty platform and a non-positive split threshold are
  // IOS_EINVAL with a message naming the request or option; the result is untouched.
  Platform plat;
  plat.node(1, 100 * GB);
  ios_storalloc_result_t r{};
  r.nrequests = 99;
  ios_storalloc_options_t o = options("random");
  std::vector<ios_request_t> req = {request(0, 0, 10, 0, 42)};
  EXPECT_EQ(ios_storalloc_run(&plat.s, req.data(), 1, &o, &r), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("id 42"), std::string::npos) << ios_diag_message();
  req[0] = request(0, GB, -1, 0, 43);
  EXPECT_EQ(ios_storalloc_run(&plat.s, req.data(), 1, &o, &r), IOS_EINVAL);
  ios_storage_t empty{0, 0, nullptr, nullptr};
  req[0] = request(0, GB, 1);
  EXPECT_EQ(ios_storalloc_run(&empty, req.data(), 1, &o, &r), IOS_EINVAL);
  o.split = 1;
  o.split_threshold = 0;
  EXPECT_EQ(ios_storalloc_run(&plat.s, req.data(), 1, &o, &r), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("threshold"), std::string::npos);
  EXPECT_EQ(r.nrequests, 99);
  Sched none(plat.s, {}, options("random"));
  EXPECT_EQ(none.rc, IOS_OK);
  EXPECT_EQ(none.r.m.requests, 0);
}

// ================================================================================================ inputs, outputs
TEST(StorallocTrace, ReadsStorAllocFieldsAndMapsThemToRequests) {
  // System: a CSV with StorAlloc's Theta field names (any order, dates) and one with iosim's (seconds, units).
  // Expectations (StorAlloc §5.1): capacity = max(read, written), submit = start time, duration = end − start (the
  // runtime when there is no end); a row reading and writing nothing is skipped; bad values name line and column.
  iosim_test::TempDir tmp; // removed with its content on every exit
  std::string dir = tmp.path(), a = dir + "/theta.csv", b = dir + "/iosim.csv", c = dir + "/bad.csv";
  std::ofstream(a) << "id,nodesUsed,submissionTime,startTime,endTime,writtenBytes,readBytes,runTime\n"
                      "7,128,2020-01-01 00:00:00,2020-01-01 01:00:00,2020-01-01 03:30:00,20000000000,5000000000,9000\n"
                      "8,2,2020-01-02 00:00:00,2020-01-02 00:00:10,2020-01-02 00:00:20,0,0,10\n"
                      "\n"
                      "9,4,2020-03-01T00:00:00,2020-03-01T00:00:00,2020-03-01T00:01:00,1,12000000000,60\n";
  std::ofstream(b) << "id,start_time,runtime,read_bytes,written_bytes,bandwidth\n"
                      "1,100,5min,12GB,1GiB,2GB/s\n";
  std::ofstream(c) << "id,start_time,end_time,read_bytes,written_bytes\n1,0,10,lots,0\n";
  ios_request_t *req = nullptr;
  int n = 0, skipped = 0;
  ASSERT_EQ(ios_storalloc_read_trace(a.c_str(), &req, &n, &skipped), IOS_OK) << ios_diag_message();
  ASSERT_EQ(n, 2);
  EXPECT_EQ(skipped, 1);
  EXPECT_EQ(req[0].id, 7);
  EXPECT_EQ(req[0].nodes, 128);
  EXPECT_DOUBLE_EQ(req[0].capacity, 20e9);
  EXPECT_DOUBLE_EQ(req[0].submit, 1577840400.0); // 2020-01-01 01:00:00 UTC
  EXPECT_DOUBLE_EQ(req[0].duration, 9000);
  EXPECT_DOUBLE_EQ(req[1].capacity, 12e9);
  EXPECT_DOUBLE_EQ(req[1].submit, 1583020800.0); // 2020-03-01 (2020 is a leap year)
  EXPECT_DOUBLE_EQ(req[1].duration, 60);
  free(req);
  ASSERT_EQ(ios_storalloc_read_trace(b.c_str(), &req, &n, nullptr), IOS_OK) << ios_diag_message();
  ASSERT_EQ(n, 1);
  EXPECT_DOUBLE_EQ(req[0].capacity, 12e9);
  EXPECT_DOUBLE_EQ(req[0].duration, 300);
  EXPECT_DOUBLE_EQ(req[0].bandwidth, 2e9);
  EXPECT_DOUBLE_EQ(req[0].written_bytes, 1073741824.0);
  free(req);
  req = nullptr;
  EXPECT_EQ(ios_storalloc_read_trace(c.c_str(), &req, &n, nullptr), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("line 2, column read_bytes"), std::string::npos) << ios_diag_message();
  EXPECT_EQ(req, nullptr);
  EXPECT_EQ(ios_storalloc_read_trace((dir + "/none.csv").c_str(), &req, &n, nullptr), IOS_EIO);
  std::remove(a.c_str());
  std::remove(b.c_str());
  std::remove(c.c_str());
  rmdir(dir.c_str());
}

TEST(StorallocGenerator, AYearShapedOnTokioIsReproducibleAndReadsBack) {
  // System: the default generator (24,000 requests over 365 days from $IOSIM_DATA_DIR/tokio-abc) with seed 5, twice,
  // and seed 6; its trace written and read back.
  // Expectations: same seed, same requests; another seed differs; submissions sorted within [0, 365 d); capacity =
  // max(read, written) >= 1 byte; the median capacity within a factor 2 of the TOKIO jobs' median (2.2 TB) and the
  // median duration within a factor 2 of theirs (61 s); the trace reads back to the same requests.
  if (iosim_test::dataset("tokio-abc/tokio_abc_jobs_slim.csv").empty()) return;
  ios_storalloc_gen_t g;
  ios_storalloc_gen_default(&g);
  ios_request_t *a = nullptr, *b = nullptr, *c = nullptr;
  int na = 0, nb = 0, nc = 0;
  ASSERT_EQ(ios_storalloc_generate(&g, 5, &a, &na), IOS_OK) << ios_diag_message();
  ASSERT_EQ(ios_storalloc_generate(&g, 5, &b, &nb), IOS_OK);
  ASSERT_EQ(ios_storalloc_generate(&g, 6, &c, &nc), IOS_OK);
  ASSERT_EQ(na, 24000);
  int same = 0, differ = 0;
  std::vector<double> caps, durs;
  for (int i = 0; i < na; i++) {
    same += a[i].submit == b[i].submit && a[i].capacity == b[i].capacity && a[i].duration == b[i].duration;
    differ += a[i].capacity != c[i].capacity;
    EXPECT_GE(a[i].submit, 0);
    EXPECT_LT(a[i].submit, 365 * 86400.0);
    if (i > 0) {
      EXPECT_LE(a[i - 1].submit, a[i].submit);
    }
    EXPECT_EQ(a[i].capacity, std::max(a[i].read_bytes, a[i].written_bytes));
    EXPECT_GE(a[i].capacity, 1);
    EXPECT_GT(a[i].duration, 0);
    caps.push_back(a[i].capacity);
    durs.push_back(a[i].duration);
  }
  EXPECT_EQ(same, na);
  EXPECT_GT(differ, na / 2);
  std::sort(caps.begin(), caps.end());
  std::sort(durs.begin(), durs.end());
  EXPECT_GT(caps[na / 2], 1.1e12);
  EXPECT_LT(caps[na / 2], 4.4e12);
  EXPECT_GT(durs[na / 2], 30);
  EXPECT_LT(durs[na / 2], 122);
  iosim_test::TempDir tmp; // removed with its content on every exit
  std::string dir = tmp.path(), path = dir + "/year.csv";
  ASSERT_EQ(ios_storalloc_write_trace(path.c_str(), a, na), IOS_OK);
  ios_request_t *back = nullptr;
  int nback = 0;
  ASSERT_EQ(ios_storalloc_read_trace(path.c_str(), &back, &nback, nullptr), IOS_OK) << ios_diag_message();
  ASSERT_EQ(nback, na);
  for (int i = 0; i < na; i++) {
    EXPECT_EQ(back[i].id, a[i].id);
    EXPECT_EQ(back[i].submit, a[i].submit);
    EXPECT_EQ(back[i].capacity, a[i].capacity);
    EXPECT_NEAR(back[i].duration, a[i].duration, 1e-6);
    EXPECT_EQ(back[i].nodes, a[i].nodes);
  }
  std::remove(path.c_str());
  rmdir(dir.c_str());
  free(a);
  free(b);
  free(c);
  free(back);
  cJSON *j = cJSON_Parse(R"({"kind": "storalloc", "requests": 100, "duration_scale": 60, "data": "x.csv"})");
  ASSERT_EQ(ios_storalloc_gen_from_json(j, "g.json", "workload.generator", &g), IOS_OK) << ios_diag_message();
  EXPECT_EQ(g.requests, 100);
  EXPECT_DOUBLE_EQ(g.duration_scale, 60);
  EXPECT_STREQ(g.data, "x.csv");
  cJSON_Delete(j);
  j = cJSON_Parse(R"({"kind": "storalloc", "requests": 0})");
  EXPECT_EQ(ios_storalloc_gen_from_json(j, "g.json", "workload.generator", &g), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("workload.generator.requests"), std::string::npos);
  cJSON_Delete(j);
  ios_request_t *none = nullptr;
  int nn = 0;
  EXPECT_EQ(ios_storalloc_generate(&g, 1, &none, &nn), IOS_EIO); // data "x.csv" does not exist
  EXPECT_NE(std::string(ios_diag_message()).find("IOSIM_DATA_DIR"), std::string::npos);
}

TEST(StorallocOutput, RequestsCsvAndMetricsJson) {
  // System: the hand-built trace of StorallocMetrics with split at 40 GB.
  // Expectations: requests.csv has a header with units and one row per request (disks and nodes of the parts, ';'
  // separated; empty for a refused request); the metrics JSON holds the Table 3 metrics and per-disk values.
  Platform plat;
  plat.node(2, 100 * GB);
  std::vector<ios_request_t> req = {request(0, 50 * GB, 100, 0, 10), request(0, 30 * GB, 50, 0, 11),
                                    request(20, 60 * GB, 40, 0, 12), request(30, 80 * GB, 10, 0, 13)};
  ios_storalloc_options_t o = options("round-robin", 1, 0);
  o.params.v[0] = 0;
  o.split_threshold = 40 * GB;
  Sched run(plat.s, req, o);
  iosim_test::TempDir tmp; // removed with its content on every exit
  std::string dir = tmp.path(), csv = dir + "/requests.csv", json = dir + "/storalloc.json";
  ios_sink_t *k = ios_sink_files(dir.c_str(), nullptr); // the results sink's files: requests.csv, storalloc.json
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(ios_storalloc_write_requests(k, req.data(), 4, &plat.s, &run.r, nullptr), IOS_OK);
  ASSERT_EQ(ios_storalloc_write_metrics(k, "storalloc", &plat.s, &o, &run.r), IOS_OK);
  ASSERT_EQ(ios_sink_close(k, 1), IOS_OK);
  std::string text = slurp(csv);
  EXPECT_EQ(text.substr(0, text.find('\n')), "id,submit_s,capacity_bytes,duration_s,bandwidth_Bps,status,requeued,"
                                             "start_s,delay_s,end_s,parts,part_bytes,disks,nodes,est_bw_Bps,"
                                             "parts_allocated,allocated_bytes");
  // est_bw_Bps: request 10 is decided first, its two 25 GB parts alone on their 1 GB/s disks: 2 x 1 GB/s
  EXPECT_NE(text.find("\n10,0,50000000000,100,0,allocated,0,0,0,100,2,25000000000,0;1,0;0,2000000000,2,50000000000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n13,30,80000000000,10,0,refused,0,30,0,,2,40000000000,,,,0,0\n"), std::string::npos) << text;
  cJSON *j = cJSON_Parse(slurp(json).c_str());
  ASSERT_NE(j, nullptr);
  const cJSON *m = cJSON_GetObjectItem(j, "metrics");
  EXPECT_DOUBLE_EQ(cJSON_GetObjectItem(m, "sum_cap_bytes")->valuedouble, 220 * GB);
  EXPECT_DOUBLE_EQ(cJSON_GetObjectItem(m, "refused")->valuedouble, 1);
  EXPECT_DOUBLE_EQ(cJSON_GetObjectItem(m, "split")->valuedouble, 3);
  EXPECT_NEAR(cJSON_GetObjectItem(m, "max_disk_fill_pct")->valuedouble, 85, 1e-9);
  EXPECT_STREQ(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "policy"), "name")->valuestring, "round-robin");
  EXPECT_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(j, "disks")), 2);
  cJSON_Delete(j);
  k = ios_sink_files((dir + "/no/such").c_str(), "output.dir"); // a directory that does not exist
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(ios_storalloc_write_requests(k, req.data(), 4, &plat.s, &run.r, nullptr), IOS_EIO);
  EXPECT_NE(std::string(ios_diag_message()).find("no/such"), std::string::npos) << ios_diag_message();
  EXPECT_EQ(ios_sink_close(k, 0), IOS_OK);
  std::remove(csv.c_str());
  std::remove(json.c_str());
  rmdir(dir.c_str());
}

// ================================================================================================ issue 15
TEST(StorallocSplitParts, IndependentPartsAllowAPartialAllocation) {
  // System: one node with two disks, d0 100 GB and d1 50 GB (1 GB/s); round-robin (tries 0: every disk before
  // refusing), split at 100 GB, decided at start and at submission. X: 150 GB at t=0 for 100 s -> 2 parts of 75 GB.
  // Part 0 goes to d0 (75 <= 100); part 1: d1 has 50 GB, d0 25 GB left -> refused.
  // Expectations: independent (default): X is partial, 1 part of 75 GB held on d0; served share 75/150 = 0.5;
  // parts_refused 1. All or nothing: X refused, nothing held, served share 0.
  Platform plat;
  ASSERT_EQ(ios_storage_add_node(&plat.s, nullptr, INFINITY, 1, 100 * GB, GB, GB), IOS_OK);
  ASSERT_EQ(ios_storage_add_disk(&plat.s, 50 * GB, GB, GB), IOS_OK);
  std::vector<ios_request_t> req = {request(0, 150 * GB, 100, 0, 1)};
  for (int all = 0; all <= 1; all++)
    for (int start = 0; start <= 1; start++) {
      ios_storalloc_options_t o = options("round-robin", 1, 0);
      o.params.v[0] = 0;
      o.split_threshold = 100 * GB;
      o.split_all = all;
      o.decide_start = start;
      Sched run(plat.s, req, o);
      ASSERT_EQ(run.rc, IOS_OK) << ios_diag_message();
      const ios_request_outcome_t &q = run.r.req[0];
      EXPECT_EQ(q.parts, 2);
      if (!all) {
        EXPECT_EQ(q.status, IOS_REQ_PARTIAL) << start;
        EXPECT_EQ(q.parts_allocated, 1);
        EXPECT_DOUBLE_EQ(q.allocated_bytes, 75 * GB);
        EXPECT_EQ(run.r.part_disk[q.first_part], 0);
        EXPECT_EQ(run.r.part_disk[q.first_part + 1], -1);
        EXPECT_EQ(run.r.m.partial, 1);
        EXPECT_EQ(run.r.m.allocated, 0);
        EXPECT_EQ(run.r.m.parts_refused, 1);
        EXPECT_DOUBLE_EQ(run.r.m.served_share, 0.5);
        EXPECT_DOUBLE_EQ(run.r.disk[0].max_fill_pct, 75.0);
      } else {
        EXPECT_EQ(q.status, IOS_REQ_REFUSED) << start;
        EXPECT_EQ(q.parts_allocated, 0);
        EXPECT_EQ(run.r.m.partial, 0);
        EXPECT_EQ(run.r.m.parts_refused, 2);
        EXPECT_DOUBLE_EQ(run.r.m.served_share, 0.0);
        EXPECT_DOUBLE_EQ(run.r.disk[0].max_fill_pct, 0.0);
      }
    }
}

namespace {
// The System of the two planned-decision tests: one disk of 100 GB, round-robin, requeue 5 x 300 s.
// A: 80 GB at t=0 for 1000 s. B: 50 GB at t=100 for 1000 s. C: 60 GB at t=1200 for 600 s.
std::vector<ios_request_t> abc() {
  return {request(0, 80 * GB, 1000, 0, 1), request(100, 50 * GB, 1000, 0, 2), request(1200, 60 * GB, 600, 0, 3)};
}
} // namespace

TEST(StorallocPlanned, ARefusingPolicyFailsWhenARequeuedReservationOutlastsItsWindow) {
  // Decided at submission (default), requeue window "end" (default, Table 2 "postpone starting time"):
  // A granted [0, 1000). B at 100 asks [100, 1100): 100 - 80 = 20 GB < 50 -> refused; retries ask [400, 1100),
  // [700, 1100) (both overlap A: refused), then [1000, 1100) (A ends at 1000: 100 GB free) -> granted at retry 3;
  // B then holds its 1000 s: [1000, 2000). C at 1200 asks [1200, 1800): B's reservation [1000, 1100) is over for the
  // scheduler (pruned at 1200), so 100 GB free -> granted. Replay: at 1000 A leaves, B takes 50 GB; at 1200 C needs
  // 60 GB with 50 free -> C fails, on disk 0. Expectations: A allocated, B allocated with 3 retries (delay 900 s,
  // start 1000), C failed (a refusing policy fails: the paper's Fig. 7), served share (80+50)/190.
  // Requeue window "duration" (the retry asks the window it will hold): B's retry 3 asks [1000, 2000); C's [1200,
  // 1800) overlaps it: 50 GB free -> refused, retried [1500, 2100), [1800, 2400) (overlap B) refused, [2100, 2700)
  // granted at retry 3; the replay holds it: no failure.
  Platform plat;
  plat.node(1, 100 * GB);
  for (int window = 0; window <= 1; window++) {
    ios_storalloc_options_t o = options("round-robin", 0, 1);
    o.decide_start = 0;
    o.split_all = 0;
    o.requeue_window = window;
    o.params.v[0] = 0;
    Sched run(plat.s, abc(), o);
    ASSERT_EQ(run.rc, IOS_OK) << ios_diag_message();
    EXPECT_EQ(run.r.req[0].status, IOS_REQ_ALLOCATED);
    EXPECT_EQ(run.r.req[1].status, IOS_REQ_ALLOCATED);
    EXPECT_EQ(run.r.req[1].requeued, 3);
    EXPECT_DOUBLE_EQ(run.r.req[1].start, 1000);
    EXPECT_DOUBLE_EQ(run.r.req[1].delay, 900);
    if (window == 0) {
      EXPECT_EQ(run.r.req[2].status, IOS_REQ_FAILED);
      EXPECT_EQ(run.r.req[2].fail_disk, 0);
      EXPECT_EQ(run.r.req[2].requeued, 0);
      EXPECT_EQ(run.r.m.failed, 1);
      EXPECT_DOUBLE_EQ(run.r.m.served_share, 130.0 / 190.0);
    } else {
      EXPECT_EQ(run.r.req[2].status, IOS_REQ_ALLOCATED);
      EXPECT_EQ(run.r.req[2].requeued, 3);
      EXPECT_DOUBLE_EQ(run.r.req[2].start, 2100);
      EXPECT_EQ(run.r.m.failed, 0);
      EXPECT_DOUBLE_EQ(run.r.m.served_share, 1.0);
    }
  }
}

TEST(StorallocPlanned, DecidedAtStartTheSameTraceNeverFails) {
  // Decided at start on the exact state (decide "start"): A at 0 holds [0, 1000); B at 100 refused, retried at 400,
  // 700, then 1000 (A released first: 100 GB free) -> holds [1000, 2000). C at 1200: 50 GB free < 60 -> refused,
  // retried at 1500, 1800 (B still there), 2100 (B left at 2000) -> holds [2100, 2700).
  // Expectations: all three allocated, no failure; B 3 retries (start 1000), C 3 retries (start 2100).
  Platform plat;
  plat.node(1, 100 * GB);
  ios_storalloc_options_t o = options("round-robin", 0, 1);
  o.params.v[0] = 0;
  Sched run(plat.s, abc(), o);
  ASSERT_EQ(run.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(run.r.m.allocated, 3);
  EXPECT_EQ(run.r.m.failed, 0);
  EXPECT_DOUBLE_EQ(run.r.req[1].start, 1000);
  EXPECT_DOUBLE_EQ(run.r.req[2].start, 2100);
  EXPECT_EQ(run.r.req[2].requeued, 3);
}

TEST(StorallocPlanned, RandomReservationsFailInTheReplayAndEveryModeKeepsCapacity) {
  // Property, every policy x decide submission/start x parts independent/all x requeue window end/duration, seeded
  // random traces on one node of 3 disks of 100 GB (split at 40 GB, 3 retries every 200 s): replaying the parts held
  // (part_start, part_disk, each for the request's duration) never exceeds a disk's capacity; a part is allocated
  // iff it has a disk; allocated_volume is the sum of the allocated parts; counts by status add up.
  Platform plat;
  plat.node(3, 100 * GB);
  for (int p = 0; ((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p]) != nullptr; p++)
    for (int mode = 0; mode < 8; mode++)
      for (int seed = 1; seed <= 5; seed++) {
        ios_rng_t rng;
        ios_rng_seed(&rng, (uint64_t)seed, 78);
        std::vector<ios_request_t> req;
        for (int i = 0; i < 150; i++)
          req.push_back(request(50.0 * (double)ios_rng_below(&rng, 100),
                                std::round((1 + 150 * ios_rng_uniform(&rng)) * GB), 2000 * ios_rng_uniform(&rng), 0,
                                i));
        ios_storalloc_options_t o =
            options(((const ios_storage_policy_t *)ios_policy_list(IOS_FAMILY_STORAGE)[p])->name, 1, 1);
        o.decide_start = mode & 1;
        o.split_all = (mode >> 1) & 1;
        o.requeue_window = (mode >> 2) & 1;
        o.split_threshold = 40 * GB;
        o.retries = 3;
        o.interval = 200;
        o.seed = (uint64_t)seed;
        Sched run(plat.s, req, o);
        ASSERT_EQ(run.rc, IOS_OK) << ios_diag_message();
        std::vector<std::vector<std::pair<double, double>>> ev(plat.s.ndisks);
        double vol = 0;
        int counts[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < req.size(); i++) {
          const ios_request_outcome_t &q = run.r.req[i];
          ASSERT_TRUE(q.status >= 0 && q.status <= 3);
          counts[q.status]++;
          std::vector<double> sz(q.parts);
          ios_storalloc_split(req[i].capacity, o.split_threshold, sz.data(), q.parts);
          int held = 0;
          for (int k = 0; k < q.parts; k++) {
            long pk = q.first_part + k;
            int d = run.r.part_disk[pk];
            EXPECT_EQ(d >= 0, run.r.part_status[pk] == IOS_REQ_ALLOCATED);
            if (d < 0) continue;
            held++;
            vol += sz[k];
            ev[d].push_back({run.r.part_start[pk], sz[k]});
            ev[d].push_back({run.r.part_start[pk] + req[i].duration, -sz[k]});
          }
          EXPECT_EQ(held, q.parts_allocated);
          if (o.split_all) {
            EXPECT_TRUE(held == 0 || held == q.parts);
          }
        }
        for (int d = 0; d < plat.s.ndisks; d++) {
          std::sort(ev[d].begin(), ev[d].end());
          double level = 0;
          for (auto &e : ev[d]) {
            level += e.second;
            ASSERT_LE(level, 100 * GB + 1) << "mode " << mode << " seed " << seed << " disk " << d;
          }
        }
        EXPECT_DOUBLE_EQ(run.r.m.allocated_volume, vol);
        EXPECT_EQ(run.r.m.allocated, counts[IOS_REQ_ALLOCATED]);
        EXPECT_EQ(run.r.m.refused, counts[IOS_REQ_REFUSED]);
        EXPECT_EQ(run.r.m.failed, counts[IOS_REQ_FAILED]);
        EXPECT_EQ(run.r.m.partial, counts[IOS_REQ_PARTIAL]);
      }
}

namespace {

// Mean of the Pareto law of exponent a truncated to [lo, hi] (density ∝ x^(−a−1)), and the exponent giving mean m,
// by bisection: written here from the formula, independently of theta.c.
double truncated_pareto_mean(double a, double lo, double hi) {
  return a / (a - 1) * lo * (1 - std::pow(lo / hi, a - 1)) / (1 - std::pow(lo / hi, a));
}
double truncated_pareto_exponent(double m, double lo, double hi) {
  double a = 0.01, b = 10;
  for (int i = 0; i < 200; i++)
    (truncated_pareto_mean(0.5 * (a + b), lo, hi) > m ? a : b) = 0.5 * (a + b);
  return 0.5 * (a + b);
}
// Median of that law.
double truncated_pareto_median(double a, double lo, double hi) {
  return lo * std::pow(1 - 0.5 * (1 - std::pow(lo / hi, a)), -1 / a);
}

} // namespace

TEST(StorallocGenerator, ThetaShapeFollowsThePapersStatistics) {
  // System: shape theta with its defaults (24,000 requests over 365 days; sizes >= 10 GB, at most 32 TB, expected
  // sum_cap 1.6 PB, 40 % of it log-uniform on [8 TB, 32 TB]; durations log-normal of mean 9,650 s, σ 1), seed 3.
  // Expectations (by hand): the tail's mean is (32 − 8) TB / ln 4 = 17.312 TB, so it holds round(0.4 × 1.6e15 /
  // 1.7312e13) = round(36.97) = 37 requests; the other 23,963 follow a truncated Pareto on [10 GB, 8 TB) of mean
  // (1.6e15 − 37 × 1.7312e13) / 23,963 = 40.04 GB (exponent ≈ 1.259, median ≈ 17.4 GB): their sample mean within 10 %
  // (4 standard errors), the median within 3 %; the durations' mean within 5 % of 9,650 s; every capacity in
  // [10 GB, 32 TB], read = written = capacity, 1 node; sorted submissions in [0, 365 d); same seed, same requests.
  // With tail_share 0: one truncated Pareto on [10 GB, 32 TB] of mean 1.6e15 / 24,000 = 66.67 GB, its median.
  ios_storalloc_gen_t g;
  ios_storalloc_gen_default(&g);
  g.theta = 1;
  ios_request_t *a = nullptr, *b = nullptr;
  int na = 0, nb = 0;
  ASSERT_EQ(ios_storalloc_generate(&g, 3, &a, &na), IOS_OK) << ios_diag_message();
  ASSERT_EQ(ios_storalloc_generate(&g, 3, &b, &nb), IOS_OK);
  ASSERT_EQ(na, 24000);
  const double tail_mean = 24e12 / std::log(4.0);
  const int ntail = (int)std::lround(0.4 * 1.6e15 / tail_mean);
  ASSERT_EQ(ntail, 37);
  int tail = 0, same = 0;
  double body_sum = 0, dur_sum = 0;
  std::vector<double> body;
  for (int i = 0; i < na; i++) {
    same += a[i].submit == b[i].submit && a[i].capacity == b[i].capacity && a[i].duration == b[i].duration;
    EXPECT_GE(a[i].capacity, 1e10);
    EXPECT_LE(a[i].capacity, 32e12);
    EXPECT_EQ(a[i].read_bytes, a[i].capacity);
    EXPECT_EQ(a[i].written_bytes, a[i].capacity);
    EXPECT_EQ(a[i].nodes, 1);
    EXPECT_GE(a[i].submit, 0);
    EXPECT_LT(a[i].submit, 365 * 86400.0);
    if (i > 0) {
      EXPECT_LE(a[i - 1].submit, a[i].submit);
    }
    dur_sum += a[i].duration;
    if (a[i].capacity >= 8e12) {
      tail++;
    } else {
      body_sum += a[i].capacity;
      body.push_back(a[i].capacity);
    }
  }
  EXPECT_EQ(same, na);
  EXPECT_EQ(tail, 37);
  const double body_mean = (1.6e15 - 37 * tail_mean) / (na - 37);
  EXPECT_NEAR(body_mean, 40.04e9, 0.01e9);
  EXPECT_NEAR(body_sum / (double)body.size(), body_mean, 0.10 * body_mean);
  std::sort(body.begin(), body.end());
  const double alpha = truncated_pareto_exponent(body_mean, 1e10, 8e12);
  EXPECT_NEAR(alpha, 1.259, 0.001);
  EXPECT_NEAR(body[body.size() / 2], truncated_pareto_median(alpha, 1e10, 8e12), 0.03 * body[body.size() / 2]);
  EXPECT_NEAR(dur_sum / na, 9650, 0.05 * 9650);
  free(a);
  free(b);
  g.tail_share = 0;
  ASSERT_EQ(ios_storalloc_generate(&g, 3, &a, &na), IOS_OK) << ios_diag_message();
  std::vector<double> all;
  for (int i = 0; i < na; i++)
    all.push_back(a[i].capacity);
  std::sort(all.begin(), all.end());
  const double a0 = truncated_pareto_exponent(1.6e15 / 24000, 1e10, 32e12);
  EXPECT_NEAR(all[na / 2], truncated_pareto_median(a0, 1e10, 32e12), 0.03 * all[na / 2]);
  EXPECT_LE(all.back(), 32e12);
  free(a);
}

TEST(StorallocGenerator, ThetaShapeRejectsBadParameters) {
  // Expectations: IOS_EINVAL naming the parameters and the fix: tail_from not below max_size; a sum_cap whose mean
  // (1e13 / 24,000 = 0.42 GB) is below min_size (no truncated Pareto reaches it); from JSON, an unknown shape (the
  // field and both valid shapes named) and an unknown member.
  ios_storalloc_gen_t g;
  ios_storalloc_gen_default(&g);
  g.theta = 1;
  g.tail_from = 40e12;
  ios_request_t *r = nullptr;
  int n = 0;
  EXPECT_EQ(ios_storalloc_generate(&g, 1, &r, &n), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("tail_from"), std::string::npos) << ios_diag_message();
  ios_storalloc_gen_default(&g);
  g.theta = 1;
  g.sum_cap = 1e13;
  EXPECT_EQ(ios_storalloc_generate(&g, 1, &r, &n), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("truncated Pareto"), std::string::npos) << ios_diag_message();
  EXPECT_EQ(r, nullptr);
  ios_storalloc_gen_default(&g);
  cJSON *j = cJSON_Parse(R"({"kind": "storalloc", "shape": "weibull"})");
  EXPECT_EQ(ios_storalloc_gen_from_json(j, "s.json", "storage.requests.generator", &g), IOS_EINVAL);
  std::string msg = ios_diag_message();
  EXPECT_NE(msg.find("s.json"), std::string::npos) << msg;
  EXPECT_NE(msg.find("shape"), std::string::npos) << msg;
  EXPECT_NE(msg.find("weibull"), std::string::npos) << msg;
  EXPECT_NE(msg.find("theta"), std::string::npos) << msg;
  EXPECT_EQ(g.theta, 0);
  cJSON_Delete(j);
  j = cJSON_Parse(R"({"kind": "storalloc", "shape": "theta", "tail_share": 0.2, "duration_mean": 600})");
  ASSERT_EQ(ios_storalloc_gen_from_json(j, "s.json", "storage.requests.generator", &g), IOS_OK) << ios_diag_message();
  EXPECT_EQ(g.theta, 1);
  EXPECT_EQ(g.tail_share, 0.2);
  EXPECT_EQ(g.duration_mean, 600);
  EXPECT_EQ(g.max_size, 32e12);
  cJSON_Delete(j);
}
