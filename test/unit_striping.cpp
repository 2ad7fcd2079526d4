// iosim unit tests — Lustre striping and balanced placement (TAPP-IO §III): lustre-default, optimized-striping, bpio,
// flows and byte loads, usage state, performance improvement (TAPP-IO Eq. 2).
#include "ios_striping.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr double MiB = 1048576.0;

// A topology that owns its arrays.
struct Topo {
  std::vector<int> ost_oss, start, routers;
  ios_stripe_topo_t t{};
  // `servers` OSSes × `per` OSTs (OST k on OSS k div per), R routers, C clients routed k mod R (platgen's oss-ost).
  Topo(int servers, int per, int R, int C) : ost_oss(servers * per) {
    EXPECT_EQ(ios_stripe_topo_regular(&t, ost_oss.data(), servers, per, R, C), IOS_OK);
  }
  // Explicit OSS of every OST.
  Topo(std::vector<int> oss_of, int noss, int R, int C) : ost_oss(std::move(oss_of)) {
    t = ios_stripe_topo_t{R, noss, (int)ost_oss.size(), ost_oss.data(), C, nullptr, nullptr};
  }
  // Client k may use every router, in the order k mod R, k+1 mod R, ...
  void all_routers() {
    start.assign(t.nclients + 1, 0);
    routers.clear();
    for (int k = 0; k < t.nclients; k++) {
      start[k] = (int)routers.size();
      for (int r = 0; r < t.nrouters; r++)
        routers.push_back((k + r) % t.nrouters);
    }
    start[t.nclients] = (int)routers.size();
    t.client_router_start = start.data();
    t.client_routers = routers.data();
  }
};

struct State {
  ios_stripe_state_t s{};
  explicit State(const ios_stripe_topo_t &t) { EXPECT_EQ(ios_stripe_state_init(&s, &t), IOS_OK); }
  ~State() { ios_stripe_state_free(&s); }
  std::vector<long> osts() const { return std::vector<long>(s.ost_uses, s.ost_uses + s.nost); }
  std::vector<long> oss() const { return std::vector<long>(s.oss_uses, s.oss_uses + s.noss); }
  std::vector<long> routers() const { return std::vector<long>(s.router_uses, s.router_uses + s.nrouters); }
};

struct Placement {
  ios_stripe_placement_t p{};
  ~Placement() { ios_stripe_placement_free(&p); }
  std::vector<int> osts(int f) const {
    const ios_stripe_file_t &fl = p.files[f];
    return std::vector<int>(p.osts + fl.first, p.osts + fl.first + fl.stripe_count);
  }
  std::vector<int> routers() const { return std::vector<int>(p.writer_router, p.writer_router + p.nwriters); }
};

ios_stripe_job_t job(int writers, ios_layout_t layout, double bytes, const int *clients = nullptr) {
  ios_stripe_job_t j{};
  j.nwriters = writers;
  j.layout = layout;
  j.bytes_per_writer = bytes;
  j.writer_client = clients;
  return j;
}

ios_params_t defaults(const ios_striping_policy_t *p) {
  ios_params_t v{};
  ios_params_defaults(p->nparams, p->params, &v);
  return v;
}

// Sets parameter `name` of policy p in v.
void set(const ios_striping_policy_t *p, ios_params_t &v, const char *name, double value) {
  for (int i = 0; i < p->nparams; i++)
    if (std::string(p->params[i].name) == name) {
      v.v[i] = value;
      return;
    }
  ADD_FAILURE() << p->name << " has no parameter " << name;
}

int place(const char *name, const ios_stripe_topo_t &t, const ios_stripe_job_t &j, ios_stripe_state_t &s,
          Placement &out, ios_rng_t *rng, std::vector<std::pair<const char *, double>> params = {}) {
  const ios_striping_policy_t *p = ios_striping_find(name);
  EXPECT_NE(p, nullptr) << name;
  if (p == nullptr) return IOS_EINVAL;
  ios_params_t v = defaults(p);
  for (auto &kv : params)
    set(p, v, kv.first, kv.second);
  return p->place(&t, &j, &v, rng, &s, &out.p);
}

struct Loads {
  std::vector<double> ost, oss, router;
};

Loads loads(const ios_stripe_topo_t &t, const ios_stripe_job_t &j, const Placement &pl) {
  Loads l{std::vector<double>(t.nost), std::vector<double>(t.noss), std::vector<double>(std::max(t.nrouters, 1))};
  EXPECT_EQ(ios_stripe_loads(&t, &j, &pl.p, l.ost.data(), l.oss.data(), t.nrouters > 0 ? l.router.data() : nullptr),
            IOS_OK);
  return l;
}

std::vector<std::pair<int, double>> flows_of(const ios_stripe_topo_t &t, const ios_stripe_job_t &j, const Placement &pl,
                                             int writer) {
  ios_stripe_flow_t *f = nullptr;
  int n = 0;
  EXPECT_EQ(ios_stripe_flows(&t, &j, &pl.p, &f, &n), IOS_OK);
  std::vector<std::pair<int, double>> out;
  for (int i = 0; i < n; i++)
    if (f[i].writer == writer) out.emplace_back(f[i].ost, f[i].bytes);
  free(f);
  return out;
}

using Flows = std::vector<std::pair<int, double>>;

} // namespace

// ---------------------------------------------------------------------------------------------------------------------
// System: 2 OSSes × 4 OSTs (OST k on OSS k div 4). Lustre's round-robin order interleaves the OSSes: OSS0's OSTs at
// positions 0, 2, 4, 6 and OSS1's at the next free ones, so the order is [0, 4, 1, 5, 2, 6, 3, 7].
// Expectations: the random starts are the draws ios_rng_below(rng, 8) of seed 1, stream 0: 5, 2, 4.
// reseed_files = 1 (default): every file draws. File 0 at positions 5, 6, 7, 0 = OSTs [6, 3, 7, 0]; file 1 at 2..5 =
// [1, 5, 2, 6]; file 2 at 4..7 = [2, 6, 3, 7]. Stripe count 4, stripe size 1 MiB, file size 8 MiB.
TEST(StripingLustreDefault, RoundRobinFromASeededRandomStartForEveryFile) {
  Topo T(2, 4, 0, 4);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  Placement pl;
  ios_stripe_job_t j = job(3, IOS_LAYOUT_FPP, 8 * MiB);
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, pl, &rng), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 3);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{6, 3, 7, 0}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{1, 5, 2, 6}));
  EXPECT_EQ(pl.osts(2), (std::vector<int>{2, 6, 3, 7}));
  for (int f = 0; f < 3; f++) {
    EXPECT_EQ(pl.p.files[f].stripe_count, 4);
    EXPECT_EQ(pl.p.files[f].stripe_size, MiB);
    EXPECT_EQ(pl.p.files[f].size, 8 * MiB);
  }
  EXPECT_EQ(pl.routers(), (std::vector<int>{-1, -1, -1}));
  // Each 8 MiB file puts 2 MiB on each of its OSTs: OST 6 is in all three files, OSTs 2, 3 and 7 in two, OST 4 in none.
  Loads l = loads(T.t, j, pl);
  EXPECT_EQ(l.ost, (std::vector<double>{2 * MiB, 2 * MiB, 4 * MiB, 4 * MiB, 0, 2 * MiB, 6 * MiB, 4 * MiB}));
  EXPECT_EQ(l.oss, (std::vector<double>{12 * MiB, 12 * MiB}));
}

// Same system with reseed_files = 0 (Lustre's own period, (2000/8 + 30)·8 = 2240 files): one draw (5), then the cursor
// continues. File 0 at positions 5..8 (start becomes 9); file 1: the start passed N = 8, so it wraps to 1 and, as
// 8 mod 4 != 1, the offset precesses to 1: positions 2..5 = [1, 5, 2, 6] (start 5); file 2 at 6, 7, 0, 1 =
// [3, 7, 0, 4].
TEST(StripingLustreDefault, PersistentCursorWithLustresPrecession) {
  Topo T(2, 4, 0, 4);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  Placement pl;
  ios_stripe_job_t j = job(3, IOS_LAYOUT_FPP, 4 * MiB);
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, pl, &rng, {{"reseed_files", 0}}), IOS_OK);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{6, 3, 7, 0}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{1, 5, 2, 6}));
  EXPECT_EQ(pl.osts(2), (std::vector<int>{3, 7, 0, 4}));
  EXPECT_EQ(S.s.rr_left, 2240 - 2); // the drawing file sets 2240, the next two count down
}

// System: 2 OSSes × 4 OSTs, routers = 2, 4 clients (client k on router k mod 2). One shared file of 2 writers × 3 MiB,
// stripe count 4, 1 MiB stripes; first draw of seed 1 is 5: OSTs [6, 3, 7, 0].
// Expectations: chunks 0..5 of the 6 MiB file go to slots 0, 1, 2, 3, 0, 1. Writer 0 ([0, 3) MiB) sends 1 MiB to
// OSTs 6, 3, 7; writer 1 ([3, 6) MiB) 1 MiB to OSTs 0, 6, 3. Writers use their client's router (0 and 1). OSTs 0, 3
// are on OSS0 and 6, 7 on OSS1: 3 MiB each.
TEST(StripingLustreDefault, SharedFileBlocksCutByTheStripePattern) {
  Topo T(2, 4, 2, 4);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  Placement pl;
  ios_stripe_job_t j = job(2, IOS_LAYOUT_SSF, 3 * MiB);
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, pl, &rng), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 1);
  EXPECT_EQ(pl.p.files[0].size, 6 * MiB);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{6, 3, 7, 0}));
  EXPECT_EQ(pl.routers(), (std::vector<int>{0, 1}));
  EXPECT_EQ(flows_of(T.t, j, pl, 0), (Flows{{6, MiB}, {3, MiB}, {7, MiB}}));
  EXPECT_EQ(flows_of(T.t, j, pl, 1), (Flows{{0, MiB}, {6, MiB}, {3, MiB}}));
  Loads l = loads(T.t, j, pl);
  EXPECT_EQ(l.ost, (std::vector<double>{MiB, 0, 0, 2 * MiB, 0, 0, 2 * MiB, MiB}));
  EXPECT_EQ(l.oss, (std::vector<double>{3 * MiB, 3 * MiB}));
  EXPECT_EQ(l.router, (std::vector<double>{3 * MiB, 3 * MiB}));
  // The usage counts one per (writer, OST) flow: 6 flows, OST 6 and 3 twice.
  EXPECT_EQ(S.osts(), (std::vector<long>{1, 0, 0, 2, 0, 0, 2, 1}));
  EXPECT_EQ(S.oss(), (std::vector<long>{3, 3}));
  EXPECT_EQ(S.routers(), (std::vector<long>{3, 3}));
}

// Unaligned blocks and files longer than one round of stripes. System: 1 OSS × 4 OSTs, no router; the expectations are
// in stripe slots (slot i = the file's i-th OST, whatever the allocator chose).
// Expectations: writer blocks of 1.5 MiB: writer 0 sends 1 MiB to slot 0 and 0.5 MiB to slot 1, writer 1 0.5 MiB to
// slot 1 and 1 MiB to slot 2. A 10.5 MiB file-per-process file: chunks 0..10 on slots 0,1,2,3,0,1,2,3,0,1,2: slot 0
// 3 MiB, slot 1 3 MiB, slot 2 2.5 MiB, slot 3 2 MiB.
TEST(StripingLustreDefault, UnalignedBlocksAndSeveralRounds) {
  Topo T(1, 4, 0, 2);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 3, 0);
  Placement pl;
  ios_stripe_job_t j = job(2, IOS_LAYOUT_SSF, 1.5 * MiB);
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, pl, &rng), IOS_OK);
  std::vector<int> o = pl.osts(0);
  EXPECT_EQ(flows_of(T.t, j, pl, 0), (Flows{{o[0], MiB}, {o[1], 0.5 * MiB}}));
  EXPECT_EQ(flows_of(T.t, j, pl, 1), (Flows{{o[1], 0.5 * MiB}, {o[2], MiB}}));

  Placement big;
  ios_stripe_job_t one = job(1, IOS_LAYOUT_FPP, 10.5 * MiB);
  ASSERT_EQ(place("lustre-default", T.t, one, S.s, big, &rng), IOS_OK);
  std::vector<int> b = big.osts(0);
  EXPECT_EQ(flows_of(T.t, one, big, 0), (Flows{{b[0], 3 * MiB}, {b[1], 3 * MiB}, {b[2], 2.5 * MiB}, {b[3], 2 * MiB}}));
}

// stripe_count = -1 stripes over every OST; a count above N is capped at N.
TEST(StripingLustreDefault, StripeCountAllAndCapped) {
  Topo T(2, 3, 0, 2);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 2, 0);
  ios_stripe_job_t j = job(1, IOS_LAYOUT_FPP, 6 * MiB);
  Placement a, b;
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, a, &rng, {{"stripe_count", -1}}), IOS_OK);
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, b, &rng, {{"stripe_count", 100}}), IOS_OK);
  EXPECT_EQ(a.p.files[0].stripe_count, 6);
  EXPECT_EQ(b.p.files[0].stripe_count, 6);
  std::vector<int> o = a.osts(0);
  std::sort(o.begin(), o.end());
  EXPECT_EQ(o, (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

// ---------------------------------------------------------------------------------------------------------------------
// System: 2 OSSes × 4 OSTs. TAPP-IO's tuned layout (Alg. 1; §IV.A variant II).
// Expectations: file-per-process, 3 writers × 4 MiB: 3 files of 4 MiB, stripe count 1, stripe size 1 MiB, OSTs from
// the seeded round-robin starts 5, 2, 4 = OSTs 6, 1, 2. Shared file, 4 writers × 3 MiB: one 12 MiB file, stripe count
// 4, stripe size 3 MiB, OSTs at positions 5..8 of a new seed-1 stream = [6, 3, 7, 0]; each writer sends its whole
// block to one OST. Shared file of 10 writers on 8 OSTs: stripe count 8 (every OST), stripe size 10·b/8.
TEST(StripingOptimized, TunedCountAndSizePerLayoutWithTheDefaultAllocator) {
  Topo T(2, 4, 0, 8);
  ios_rng_t rng;
  {
    State S(T.t);
    ios_rng_seed(&rng, 1, 0);
    Placement pl;
    ios_stripe_job_t j = job(3, IOS_LAYOUT_FPP, 4 * MiB);
    ASSERT_EQ(place("optimized-striping", T.t, j, S.s, pl, &rng), IOS_OK);
    ASSERT_EQ(pl.p.nfiles, 3);
    for (int f = 0; f < 3; f++) {
      EXPECT_EQ(pl.p.files[f].stripe_count, 1);
      EXPECT_EQ(pl.p.files[f].stripe_size, MiB);
      EXPECT_EQ(pl.p.files[f].size, 4 * MiB);
    }
    EXPECT_EQ(pl.osts(0), (std::vector<int>{6}));
    EXPECT_EQ(pl.osts(1), (std::vector<int>{1}));
    EXPECT_EQ(pl.osts(2), (std::vector<int>{2}));
  }
  {
    State S(T.t);
    ios_rng_seed(&rng, 1, 0);
    Placement pl;
    ios_stripe_job_t j = job(4, IOS_LAYOUT_SSF, 3 * MiB);
    ASSERT_EQ(place("optimized", T.t, j, S.s, pl, &rng), IOS_OK);
    ASSERT_EQ(pl.p.nfiles, 1);
    EXPECT_EQ(pl.p.files[0].size, 12 * MiB);
    EXPECT_EQ(pl.p.files[0].stripe_count, 4);
    EXPECT_EQ(pl.p.files[0].stripe_size, 3 * MiB);
    EXPECT_EQ(pl.osts(0), (std::vector<int>{6, 3, 7, 0}));
    EXPECT_EQ(flows_of(T.t, j, pl, 0), (Flows{{6, 3 * MiB}}));
    EXPECT_EQ(flows_of(T.t, j, pl, 3), (Flows{{0, 3 * MiB}}));
  }
  {
    State S(T.t);
    Placement pl;
    ios_stripe_job_t j = job(10, IOS_LAYOUT_SSF, 4 * MiB);
    ASSERT_EQ(place("optimized-striping", T.t, j, S.s, pl, &rng), IOS_OK);
    EXPECT_EQ(pl.p.files[0].stripe_count, 8);
    EXPECT_EQ(pl.p.files[0].stripe_size, 5 * MiB);
    // Writer 1's block [4, 8) MiB straddles stripes 0 ([0, 5)) and 1 ([5, 10)).
    std::vector<int> o = pl.osts(0);
    EXPECT_EQ(flows_of(T.t, j, pl, 1), (Flows{{o[0], MiB}, {o[1], 3 * MiB}}));
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// System: 2 OSSes × 2 OSTs (OSTs 0, 1 on OSS0; 2, 3 on OSS1), 2 routers, 4 clients; client k may use routers
// (k mod 2, k+1 mod 2). Earlier placements used the path (router 0, OSS0, OST0) twice. bpio, equal weights 1/3,
// random_start = 0; a file-per-process job of 3 writers on clients 0, 1, 2.
// Expectations (cost C in thirds: R_oss + R_ost for the OST, R_router for the router):
//  writer 0: OST0 2+2, OST1 2+0, OST2 0, OST3 0 -> OST2 (first of the ties); routers of client 0: r0 2, r1 0 -> r1.
//  writer 1: OST0 4, OST1 2, OST2 1+1, OST3 1+0 -> OST3; client 1 (r1, r0): r1 1, r0 2 -> r1.
//  writer 2: OST0 4, OST1 2, OST2 2+1, OST3 2+1 -> OST1; client 2 (r0, r1): r0 2, r1 2 -> tie, its first: r0.
//  Usage after: routers [3, 2], OSS [3, 2], OSTs [2, 1, 1, 1].
TEST(StripingBpio, LeastWeightedUsagePathWithDocumentedTies) {
  Topo T(2, 2, 2, 4);
  T.all_routers();
  State S(T.t);
  ASSERT_EQ(ios_stripe_state_use(&S.s, 0, 0, 0), IOS_OK);
  ASSERT_EQ(ios_stripe_state_use(&S.s, 0, 0, 0), IOS_OK);
  int clients[] = {0, 1, 2};
  ios_stripe_job_t j = job(3, IOS_LAYOUT_FPP, 4 * MiB, clients);
  Placement pl;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, nullptr, {{"random_start", 0}}), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 3);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{2}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{3}));
  EXPECT_EQ(pl.osts(2), (std::vector<int>{1}));
  EXPECT_EQ(pl.routers(), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(S.routers(), (std::vector<long>{3, 2}));
  EXPECT_EQ(S.oss(), (std::vector<long>{3, 2}));
  EXPECT_EQ(S.osts(), (std::vector<long>{2, 1, 1, 1}));
  for (int f = 0; f < 3; f++) {
    EXPECT_EQ(pl.p.files[f].stripe_count, 1);
    EXPECT_EQ(pl.p.files[f].stripe_size, MiB);
  }
}

// Same system and history, weights (0, 0, 1): only OST usage counts. Writer 0: OSTs 1, 2, 3 cost 0 -> OST1; writer 1
// -> OST2; writer 2 -> OST3. With w_router = 0 every router costs 0 and each writer takes its client's first: 0, 1, 0.
TEST(StripingBpio, WeightsChangeThePath) {
  Topo T(2, 2, 2, 4);
  T.all_routers();
  State S(T.t);
  ios_stripe_state_use(&S.s, 0, 0, 0);
  ios_stripe_state_use(&S.s, 0, 0, 0);
  int clients[] = {0, 1, 2};
  ios_stripe_job_t j = job(3, IOS_LAYOUT_FPP, 4 * MiB, clients);
  Placement pl;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, nullptr, {{"w_router", 0}, {"w_oss", 0}, {"w_ost", 1}, {"random_start", 0}}),
            IOS_OK);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{1}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{2}));
  EXPECT_EQ(pl.osts(2), (std::vector<int>{3}));
  EXPECT_EQ(pl.routers(), (std::vector<int>{0, 1, 0}));
}

// System: 2 OSSes × 2 OSTs, no router, fresh state. A shared file of 3 writers × 2 MiB, equal weights, random_start 0.
// Expectations: stripe count 3, stripe size 2 MiB. Stripe 0: all cost 0 -> OST0. Stripe 1: OST0 is in the file; OST1
// costs 1 (its OSS), OST2 and OST3 0 -> OST2. Stripe 2: OST1 1+0, OST3 1+0 -> tie -> OST1. Writer w -> stripe w.
TEST(StripingBpio, SharedFileOneStripePerWriter) {
  Topo T(2, 2, 0, 3);
  State S(T.t);
  ios_stripe_job_t j = job(3, IOS_LAYOUT_SSF, 2 * MiB);
  Placement pl;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, nullptr, {{"random_start", 0}}), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 1);
  EXPECT_EQ(pl.p.files[0].stripe_count, 3);
  EXPECT_EQ(pl.p.files[0].stripe_size, 2 * MiB);
  EXPECT_EQ(pl.p.files[0].size, 6 * MiB);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(flows_of(T.t, j, pl, 2), (Flows{{1, 2 * MiB}}));
  EXPECT_EQ(S.osts(), (std::vector<long>{1, 1, 1, 0}));
  EXPECT_EQ(S.oss(), (std::vector<long>{2, 1}));
}

// random_start = 1: OSTs are scanned from one uniform draw, so on an unused system the first stripe lands there.
// System: 2 OSSes × 4 OSTs; seed 1's first draw below 8 is 5, so writer 0 gets OST5. Writer 1: the OSTs of OSS1
// (4..7) now cost at least 1/3, those of OSS0 0; the scan 5, 6, 7, 0, ... meets OST0 first.
TEST(StripingBpio, RandomStartOnlyMovesTies) {
  Topo T(2, 4, 0, 2);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  ios_stripe_job_t j = job(2, IOS_LAYOUT_FPP, MiB);
  Placement pl;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, &rng), IOS_OK);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{5}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{0}));
  EXPECT_NE(place("bpio", T.t, j, S.s, pl, nullptr), IOS_OK); // a random start needs a stream
}

// ---------------------------------------------------------------------------------------------------------------------
// Invariants of every registered policy over random jobs and topologies: distinct OSTs per file, stripe counts within
// 1..N, tuned shared files exactly covered (stripe size × count = file size), flows of each file summing to its size,
// loads summing to the job's bytes, and the usage counters growing by exactly the placement's flows.
namespace {

// What every placement of the invariant test below must satisfy, one group per function (shared by all trials).
struct Trial {
  const ios_striping_policy_t *pol;
  Topo &T;
  const ios_stripe_job_t &j;
  const std::vector<int> &clients;
  Placement &pl;
  int S, N, R, W;
  double b;
};

// Files: stripe counts within 1..N, distinct OSTs, each file's writers and size; the tuned policies' counts and
// (shared files) stripe size × count = file size.
void check_files(const Trial &t) {
  const ios_stripe_job_t &j = t.j;
  const Placement &pl = t.pl;
  const int N = t.N, W = t.W;
  const double b = t.b;
  for (int f = 0; f < pl.p.nfiles; f++) {
    const ios_stripe_file_t &fl = pl.p.files[f];
    EXPECT_GE(fl.stripe_count, 1);
    EXPECT_LE(fl.stripe_count, N);
    std::vector<int> o = pl.osts(f);
    EXPECT_EQ(std::set<int>(o.begin(), o.end()).size(), o.size()) << "an OST repeated in file " << f;
    for (int x : o) {
      EXPECT_GE(x, 0);
      EXPECT_LT(x, N);
    }
    int w0, w1; /* file f's writers: f (process file) or ⌊f·W/M⌋ .. ⌊(f+1)·W/M⌋ − 1 */
    ios_stripe_file_writers(&j, f, &w0, &w1);
    if (j.layout == IOS_LAYOUT_FPP)
      EXPECT_EQ(w1 - w0, 1);
    else
      EXPECT_EQ(w0, (int)((long long)f * W / std::max(j.shared_files, 1)));
    EXPECT_DOUBLE_EQ(fl.size, b * (w1 - w0));
    if (t.pol != ios_striping_find("lustre-default")) {
      EXPECT_EQ(fl.stripe_count, j.layout == IOS_LAYOUT_FPP ? 1 : std::min(w1 - w0, N));
      if (j.layout == IOS_LAYOUT_SSF) {
        EXPECT_NEAR(fl.stripe_size * fl.stripe_count, fl.size, 1e-9 * fl.size);
      }
    }
  }
}

// Routers: -1 without routers, else one of the writer's client's routers.
void check_routers(const Trial &t) {
  const Placement &pl = t.pl;
  const Topo &T = t.T;
  const std::vector<int> &clients = t.clients;
  const int R = t.R, W = t.W;
  for (int w = 0; w < W; w++) {
    int r = pl.p.writer_router[w];
    if (R == 0)
      EXPECT_EQ(r, -1);
    else {
      bool allowed = false;
      int n =
          T.t.client_router_start ? T.t.client_router_start[clients[w] + 1] - T.t.client_router_start[clients[w]] : 1;
      for (int i = 0; i < n; i++)
        allowed |= (T.t.client_router_start ? T.t.client_routers[T.t.client_router_start[clients[w]] + i]
                                            : clients[w] % R) == r;
      EXPECT_TRUE(allowed) << "writer " << w << " on a router its client cannot use";
    }
  }
}

// Flows: per file they sum to its size; loads sum to the job's bytes on every component level. Returns the flows
// per OST.
std::vector<long> check_flows(const Trial &t) {
  const ios_stripe_job_t &j = t.j;
  Placement &pl = t.pl;
  Topo &T = t.T;
  const std::vector<int> &clients = t.clients;
  const int N = t.N, R = t.R, W = t.W;
  const double b = t.b;
  // Flows: per file they sum to its size; loads sum to the job's bytes on every component level.
  ios_stripe_flow_t *fl = nullptr;
  int n = 0;
  EXPECT_EQ(ios_stripe_flows(&T.t, &j, &pl.p, &fl, &n), IOS_OK);
  std::vector<double> per_file(pl.p.nfiles, 0.0);
  std::vector<long> uses(N, 0);
  for (int i = 0; i < n; i++) {
    EXPECT_GT(fl[i].bytes, 0);
    EXPECT_EQ(fl[i].oss, T.ost_oss[fl[i].ost]);
    EXPECT_EQ(fl[i].client, clients[fl[i].writer]);
    EXPECT_EQ(fl[i].router, pl.p.writer_router[fl[i].writer]);
    per_file[fl[i].file] += fl[i].bytes;
    uses[fl[i].ost]++;
  }
  free(fl);
  for (int f = 0; f < pl.p.nfiles; f++)
    EXPECT_NEAR(per_file[f], pl.p.files[f].size, 1e-9 * pl.p.files[f].size);
  Loads l = loads(T.t, j, pl);
  double total = b * W, so = 0, ss = 0, sr = 0;
  for (double x : l.ost)
    so += x;
  for (double x : l.oss)
    ss += x;
  for (double x : l.router)
    sr += x;
  EXPECT_NEAR(so, total, 1e-9 * total);
  EXPECT_NEAR(ss, total, 1e-9 * total);
  EXPECT_NEAR(sr, R > 0 ? total : 0, 1e-9 * total);
  return uses;
}

} // namespace

class StripingEveryPolicy : public ::testing::TestWithParam<const ios_striping_policy_t *> {};

TEST_P(StripingEveryPolicy, Invariants) {
  const ios_striping_policy_t *pol = GetParam();
  ios_rng_t g;
  ios_rng_seed(&g, 2024, 0);
  for (int trial = 0; trial < 300; trial++) {
    int S = 1 + (int)ios_rng_below(&g, 4), per = 1 + (int)ios_rng_below(&g, 5), R = (int)ios_rng_below(&g, 3);
    int C = 1 + (int)ios_rng_below(&g, 12);
    Topo T(S, per, R, C);
    if (R > 0 && ios_rng_below(&g, 2)) T.all_routers();
    State st(T.t);
    int N = S * per, W = 1 + (int)ios_rng_below(&g, 3 * N);
    std::vector<int> clients(W);
    for (int &c : clients)
      c = (int)ios_rng_below(&g, C);
    double b = (1 + (double)ios_rng_below(&g, 64)) * 65536.0 * (ios_rng_below(&g, 2) ? 1 : 1.37);
    ios_stripe_job_t j = job(W, ios_rng_below(&g, 2) ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP, b, clients.data());
    if (j.layout == IOS_LAYOUT_SSF && ios_rng_below(&g, 2)) j.shared_files = 1 + (int)ios_rng_below(&g, W); /* N:M */
    std::vector<long> before_ost = st.osts(), before_oss = st.oss(), before_r = st.routers();
    ios_rng_t rng;
    ios_rng_seed(&rng, trial, 1);
    Placement pl;
    ios_params_t v = defaults(pol);
    ASSERT_EQ(pol->place(&T.t, &j, &v, &rng, &st.s, &pl.p), IOS_OK) << pol->name << " trial " << trial;
    ASSERT_EQ(pl.p.nfiles, j.layout == IOS_LAYOUT_FPP ? W : std::max(j.shared_files, 1));
    Trial t{pol, T, j, clients, pl, S, N, R, W, b};
    check_files(t);
    check_routers(t);
    std::vector<long> uses = check_flows(t);
    // Usage: the policy added exactly its flows (one use per flow on its router, OSS and OST).
    State again(T.t);
    ASSERT_EQ(ios_stripe_state_record(&again.s, &T.t, &j, &pl.p), IOS_OK);
    for (int k = 0; k < N; k++) {
      EXPECT_EQ(st.s.ost_uses[k] - before_ost[k], again.s.ost_uses[k]);
      EXPECT_EQ(again.s.ost_uses[k], uses[k]);
    }
    for (int k = 0; k < S; k++)
      EXPECT_EQ(st.s.oss_uses[k] - before_oss[k], again.s.oss_uses[k]);
    for (int k = 0; k < R; k++)
      EXPECT_EQ(st.s.router_uses[k] - before_r[k], again.s.router_uses[k]);
  }
}

INSTANTIATE_TEST_SUITE_P(All, StripingEveryPolicy,
                         ::testing::ValuesIn(std::vector<const ios_striping_policy_t *>(
                             {ios_striping_find("lustre-default"), ios_striping_find("optimized-striping"),
                              ios_striping_find("bpio")})),
                         [](const ::testing::TestParamInfo<const ios_striping_policy_t *> &i) {
                           std::string s = i.param->name;
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

TEST(StripingRegistry, NamesAliasesAndMetadata) {
  int n = 0;
  for (int i = 0; ((const ios_striping_policy_t *)ios_policy_list(IOS_FAMILY_STRIPING)[i]) != nullptr; i++, n++) {
    const ios_striping_policy_t *p = ((const ios_striping_policy_t *)ios_policy_list(IOS_FAMILY_STRIPING)[i]);
    EXPECT_EQ(ios_striping_find(p->name), p);
    if (p->alias) {
      EXPECT_EQ(ios_striping_find(p->alias), p);
    }
    EXPECT_NE(std::string(p->source).find("TAPP-IO"), std::string::npos);
    EXPECT_NE(p->place, nullptr);
  }
  EXPECT_EQ(n, 3);
  EXPECT_EQ(ios_striping_find("lustre-default"), ios_striping_find("default"));
  EXPECT_EQ(ios_striping_find("bpio"), ios_striping_find("tapp-io"));
  EXPECT_EQ(ios_striping_find("nope"), nullptr);
  EXPECT_EQ(ios_striping_find(nullptr), nullptr);
  const ios_striping_policy_t *d = ios_striping_find("lustre-default");
  ios_params_t v = defaults(d);
  EXPECT_EQ(v.v[0], 4);
  EXPECT_EQ(v.v[1], MiB);
  const ios_striping_policy_t *b = ios_striping_find("bpio");
  v = defaults(b);
  EXPECT_DOUBLE_EQ(v.v[0] + v.v[1] + v.v[2], 1.0); // TAPP-IO Eq. 1: Σ w_i = 1
}

// ---------------------------------------------------------------------------------------------------------------------
// Bad input is rejected with IOS_EINVAL and leaves the output and the state untouched.
TEST(StripingValidation, BadInputLeavesEverythingUntouched) {
  Topo T(2, 2, 1, 2);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  ios_stripe_job_t good = job(2, IOS_LAYOUT_FPP, MiB);
  int bad_client[] = {0, 5};
  std::vector<ios_stripe_job_t> bad = {job(0, IOS_LAYOUT_FPP, MiB), job(2, IOS_LAYOUT_FPP, 0),
                                       job(2, IOS_LAYOUT_FPP, NAN), job(2, (ios_layout_t)7, MiB),
                                       job(2, IOS_LAYOUT_FPP, MiB, bad_client)};
  for (int i = 0; ((const ios_striping_policy_t *)ios_policy_list(IOS_FAMILY_STRIPING)[i]) != nullptr; i++) {
    const char *name = ((const ios_striping_policy_t *)ios_policy_list(IOS_FAMILY_STRIPING)[i])->name;
    for (const ios_stripe_job_t &j : bad) {
      Placement pl;
      pl.p.nfiles = 1234;
      EXPECT_EQ(place(name, T.t, j, S.s, pl, &rng), IOS_EINVAL) << name;
      EXPECT_EQ(pl.p.nfiles, 1234);
      pl.p.nfiles = 0;
    }
  }
  Placement pl;
  EXPECT_EQ(place("lustre-default", T.t, good, S.s, pl, &rng, {{"stripe_count", 0}}), IOS_EINVAL);
  EXPECT_EQ(place("lustre-default", T.t, good, S.s, pl, &rng, {{"stripe_count", 2.5}}), IOS_EINVAL);
  EXPECT_EQ(place("lustre-default", T.t, good, S.s, pl, &rng, {{"stripe_size", 0}}), IOS_EINVAL);
  EXPECT_EQ(place("lustre-default", T.t, good, S.s, pl, nullptr), IOS_EINVAL);
  EXPECT_EQ(place("optimized-striping", T.t, good, S.s, pl, &rng, {{"fpp_stripe_size", -1}}), IOS_EINVAL);
  EXPECT_EQ(place("bpio", T.t, good, S.s, pl, &rng, {{"w_oss", -0.1}}), IOS_EINVAL);
  EXPECT_EQ(place("bpio", T.t, good, S.s, pl, &rng, {{"w_router", 0}, {"w_oss", 0}, {"w_ost", 0}}), IOS_EINVAL);
  EXPECT_EQ(place("bpio", T.t, good, S.s, pl, &rng, {{"random_start", 2}}), IOS_EINVAL);
  EXPECT_EQ(S.osts(), (std::vector<long>{0, 0, 0, 0}));
  EXPECT_EQ(S.s.rr_left, 0);
  // A state of another topology.
  Topo other(1, 3, 0, 2);
  EXPECT_EQ(place("bpio", other.t, good, S.s, pl, &rng), IOS_EINVAL);
  // Bad topologies.
  ios_stripe_topo_t t = T.t;
  t.nost = 0;
  EXPECT_EQ(ios_stripe_topo_validate(&t), IOS_EINVAL);
  int oss_bad[] = {0, 0, 2, 1};
  t = T.t;
  t.ost_oss = oss_bad;
  EXPECT_EQ(ios_stripe_topo_validate(&t), IOS_EINVAL);
  int start[] = {0, 0, 1}, routers[] = {0};
  t = T.t;
  t.client_router_start = start; // client 0 has no router
  t.client_routers = routers;
  EXPECT_EQ(ios_stripe_topo_validate(&t), IOS_EINVAL);
  EXPECT_EQ(ios_stripe_state_use(&S.s, -1, 0, 0), IOS_EINVAL); // R = 1: a path must cross a router
  EXPECT_EQ(ios_stripe_state_use(&S.s, 0, 0, 4), IOS_EINVAL);
  EXPECT_EQ(S.osts(), (std::vector<long>{0, 0, 0, 0}));
}

// Placements that do not fit the job are refused by the flows and loads helpers.
TEST(StripingValidation, FlowsRejectInconsistentPlacements) {
  Topo T(1, 4, 0, 2);
  State S(T.t);
  ios_stripe_job_t j = job(2, IOS_LAYOUT_SSF, MiB);
  Placement pl;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, nullptr, {{"random_start", 0}}), IOS_OK);
  ios_stripe_flow_t *f = nullptr;
  int n = -1;
  pl.p.osts[1] = pl.p.osts[0]; // an OST repeated within the file
  EXPECT_EQ(ios_stripe_flows(&T.t, &j, &pl.p, &f, &n), IOS_EINVAL);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(n, -1);
  ios_stripe_job_t fpp = job(2, IOS_LAYOUT_FPP, MiB); // 2 files expected, the placement has 1
  std::vector<double> ost(4, -1);
  EXPECT_EQ(ios_stripe_loads(&T.t, &fpp, &pl.p, ost.data(), nullptr, nullptr), IOS_EINVAL);
  EXPECT_EQ(ost, (std::vector<double>(4, -1)));
}

// TAPP-IO Eq. 2: performance improvement = 100·(BW_balanced / BW_default − 1).
TEST(StripingImprovement, Equation2) {
  EXPECT_DOUBLE_EQ(ios_stripe_improvement_pct(150e9, 100e9), 50.0);
  EXPECT_DOUBLE_EQ(ios_stripe_improvement_pct(202.7e9, 202.7e9 / 1.54), 54.0);
  EXPECT_DOUBLE_EQ(ios_stripe_improvement_pct(100, 100), 0.0);
  EXPECT_DOUBLE_EQ(ios_stripe_improvement_pct(50, 100), -50.0);
  EXPECT_TRUE(std::isnan(ios_stripe_improvement_pct(1, 0)));
  EXPECT_TRUE(std::isnan(ios_stripe_improvement_pct(INFINITY, 1)));
}

// ---------------------------------------------------------------------------------------------------------------------
// The property "bpio's maximum OST/OSS/router load is never worse than lustre-default's on the same jobs" is false as
// stated. Counterexamples (each a hand-computed system):
//
// (1) Striping granularity. System: 2 OSSes × 4 OSTs, one file-per-process writer of 4 MiB. lustre-default cuts the
// file
//     into four 1 MiB stripes on 4 OSTs (max OST load 1 MiB, each OSS 2 MiB); bpio gives a process file one stripe
//     (TAPP-IO Alg. 1), so one OST carries 4 MiB. Any layout of stripe count 1 loses to a striped one for a few
//     writers.
TEST(StripingProperty, CounterexampleStripingSpreadsFewWriters) {
  Topo T(2, 4, 0, 1);
  ios_stripe_job_t j = job(1, IOS_LAYOUT_FPP, 4 * MiB);
  State a(T.t), b(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  Placement d, p;
  ASSERT_EQ(place("lustre-default", T.t, j, a.s, d, &rng), IOS_OK);
  ASSERT_EQ(place("bpio", T.t, j, b.s, p, &rng), IOS_OK);
  Loads ld = loads(T.t, j, d), lb = loads(T.t, j, p);
  EXPECT_EQ(*std::max_element(ld.ost.begin(), ld.ost.end()), MiB);
  EXPECT_EQ(*std::max_element(lb.ost.begin(), lb.ost.end()), 4 * MiB);
  EXPECT_EQ(*std::max_element(ld.oss.begin(), ld.oss.end()), 2 * MiB);
  EXPECT_EQ(*std::max_element(lb.oss.begin(), lb.oss.end()), 4 * MiB);
}

// (2) Usage counts flows, not bytes (TAPP-IO: "how frequently" a component was used). System: 1 OSS × 2 OSTs, shared
//     state, random_start 0. Job A: 1 writer × 8 MiB -> OST0. Job B: 2 writers × 1 MiB: writer 0 -> OST1 (uses 1, 0),
//     writer 1 -> OST0 (uses 1, 1: tie, first). Loads 9 and 1 MiB, whereas 8 and 2 MiB were possible (writer 1 on
//     OST1), and optimized-striping reaches it with seed 4 (its random starts, draws below 2: 1, 0, 0).
TEST(StripingProperty, CounterexampleUnequalJobSizes) {
  Topo T(1, 2, 0, 2);
  State sb(T.t), so(T.t);
  ios_stripe_job_t A = job(1, IOS_LAYOUT_FPP, 8 * MiB), B = job(2, IOS_LAYOUT_FPP, MiB);
  std::vector<double> bpio(2, 0), opt(2, 0);
  ios_rng_t rng;
  ios_rng_seed(&rng, 4, 0);
  for (const ios_stripe_job_t *j : {&A, &B}) {
    Placement p, o;
    ASSERT_EQ(place("bpio", T.t, *j, sb.s, p, nullptr, {{"random_start", 0}}), IOS_OK);
    ASSERT_EQ(place("optimized-striping", T.t, *j, so.s, o, &rng), IOS_OK);
    Loads lp = loads(T.t, *j, p), lo = loads(T.t, *j, o);
    for (int k = 0; k < 2; k++) {
      bpio[k] += lp.ost[k];
      opt[k] += lo.ost[k];
    }
  }
  EXPECT_EQ(bpio, (std::vector<double>{9 * MiB, MiB}));
  EXPECT_EQ(*std::max_element(opt.begin(), opt.end()), 8 * MiB);
}

// (3) OSSes of unequal size. System: OSS0 serves OST0 alone, OSS1 serves OSTs 1..5; one file-per-process job of
//     6 writers, equal weights, random_start 0. Costs in thirds (R_oss + R_ost): w0 -> OST0 (all 0); w1 -> OST1 (0 vs
//     OST0's 2); w2 -> OST2 (1 vs 2); w3: OST3 2, OST0 2 -> tie, OST0 first -> OST0 (OSS0 2, OST0 2); w4 -> OST3 (2 vs
//     4); w5 -> OST4 (3 vs 4). OST0 carries 2 writers while OST5 is idle; optimized-striping with Lustre's persistent
//     cursor (reseed_files = 0) gives the 6 files 6 consecutive positions of its order: one writer per OST.
TEST(StripingProperty, CounterexampleUnequalOssSizes) {
  Topo T(std::vector<int>{0, 1, 1, 1, 1, 1}, 2, 0, 6);
  State sb(T.t), so(T.t);
  ios_stripe_job_t j = job(6, IOS_LAYOUT_FPP, MiB);
  Placement p, o;
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  ASSERT_EQ(place("bpio", T.t, j, sb.s, p, nullptr, {{"random_start", 0}}), IOS_OK);
  ASSERT_EQ(place("optimized-striping", T.t, j, so.s, o, &rng, {{"reseed_files", 0}}), IOS_OK);
  std::vector<int> got;
  for (int f = 0; f < 6; f++)
    got.push_back(p.osts(f)[0]);
  EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 0, 3, 4}));
  Loads lb = loads(T.t, j, p), lo = loads(T.t, j, o);
  EXPECT_EQ(*std::max_element(lb.ost.begin(), lb.ost.end()), 2 * MiB);
  EXPECT_EQ(*std::max_element(lo.ost.begin(), lo.ost.end()), MiB);
}

// The property that holds (docs/striping.md, "What bpio guarantees"): on a topology where every OSS serves the same
// number of OSTs, for a sequence of jobs that all write b bytes per writer, with one stripe per writer
// (file-per-process, or a shared file of at most N writers) and one usage state shared by the sequence, bpio with any
// w_ost > 0 keeps every OST within one use of the others — max OST uses = ⌈m/N⌉ after m stripes — and, with w_oss > 0,
// every OSS within one use — ⌈m/S⌉ — which are the least maxima any placement of these m equal stripes can reach.
// Hence, on the same job sequence, (a) bpio's maximum OST, OSS and router byte loads are never above
// optimized-striping's (same stripes, Lustre's allocator), and (b) never above lustre-default's plus b, since any
// placement's maximum is at least the mean m·b/N (resp. m·b/S) and ⌈m/N⌉·b < m·b/N + b. Routers: with the platform's
// static routes (client k on router k mod R) every policy loads them identically; when clients may use several routers
// bpio's are also within one use (⌈m/R⌉).
TEST(StripingProperty, BpioBalancesUnitStripesAtLeastAsWellAsTheDefaultAllocator) {
  ios_rng_t g;
  ios_rng_seed(&g, 9549, 0);
  const char *names[3] = {"lustre-default", "optimized-striping", "bpio"};
  for (int trial = 0; trial < 400; trial++) {
    int S = 1 + (int)ios_rng_below(&g, 5), per = 1 + (int)ios_rng_below(&g, 8), R = (int)ios_rng_below(&g, 4);
    int C = 1 + (int)ios_rng_below(&g, 16), N = S * per;
    Topo T(S, per, R, C);
    bool several_routers = R > 0 && ios_rng_below(&g, 2);
    if (several_routers) T.all_routers();
    double b = 4 * MiB;
    std::vector<State *> st;
    std::vector<std::vector<double>> ost(3, std::vector<double>(N)), oss(3, std::vector<double>(S)),
        rtr(3, std::vector<double>(std::max(R, 1)));
    ios_rng_t rng[3];
    for (int k = 0; k < 3; k++) {
      st.push_back(new State(T.t));
      ios_rng_seed(&rng[k], trial, 1);
    }
    long m = 0;
    int njobs = 1 + (int)ios_rng_below(&g, 12);
    for (int jn = 0; jn < njobs; jn++) {
      int W = 1 + (int)ios_rng_below(&g, N);
      std::vector<int> clients(W);
      for (int &c : clients)
        c = (int)ios_rng_below(&g, C);
      ios_stripe_job_t j = job(W, ios_rng_below(&g, 2) ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP, b, clients.data());
      m += W;
      for (int k = 0; k < 3; k++) {
        Placement pl;
        ASSERT_EQ(place(names[k], T.t, j, st[k]->s, pl, &rng[k]), IOS_OK);
        Loads l = loads(T.t, j, pl);
        for (int i = 0; i < N; i++)
          ost[k][i] += l.ost[i];
        for (int i = 0; i < S; i++)
          oss[k][i] += l.oss[i];
        for (int i = 0; i < R; i++)
          rtr[k][i] += l.router[i];
      }
    }
    auto mx = [](const std::vector<double> &v) { return *std::max_element(v.begin(), v.end()); };
    const ios_stripe_state_t &u = st[2]->s;
    EXPECT_EQ(*std::max_element(u.ost_uses, u.ost_uses + N), (m + N - 1) / N) << "trial " << trial;
    EXPECT_EQ(*std::max_element(u.oss_uses, u.oss_uses + S), (m + S - 1) / S) << "trial " << trial;
    if (several_routers) {
      EXPECT_EQ(*std::max_element(u.router_uses, u.router_uses + R), (m + R - 1) / R);
    }
    EXPECT_LE(mx(ost[2]), mx(ost[1])) << "trial " << trial;
    EXPECT_LE(mx(oss[2]), mx(oss[1])) << "trial " << trial;
    EXPECT_LE(mx(rtr[2]), mx(rtr[1])) << "trial " << trial;
    EXPECT_LT(mx(ost[2]), mx(ost[0]) + b) << "trial " << trial;
    EXPECT_LT(mx(oss[2]), mx(oss[0]) + b) << "trial " << trial;
    EXPECT_LE(mx(rtr[2]), mx(rtr[0]) + (R > 0 ? b : 0)) << "trial " << trial;
    if (!several_routers) { // static routes: identical router loads
      EXPECT_EQ(rtr[2], rtr[0]);
    }
    for (State *s : st)
      delete s;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// N:M shared files (TAPP-IO §III.A case 3): M files, file m written by the writers ⌊m·W/M⌋ .. ⌊(m+1)·W/M⌋ − 1, each
// with stripe count = its writers (at most N) and stripe size = its size / count.
// System: 2 OSSes × 2 OSTs (OST k on OSS k div 2), no router; W = 6 writers of 1 MiB in M = 2 files; bpio with the
// default weights (1/3 each, so a cost is (R_oss + R_ost)/3) and OSTs scanned from 0 (random_start 0).
// Expectations (by hand): file 0 (writers 0-2, 3 MiB, 3 stripes of 1 MiB): stripe 0 → OST 0 (all costs 0); stripe 1:
// OST 1 costs (1+0)/3, OSTs 2 and 3 cost 0 → OST 2; stripe 2: OST 1 and OST 3 both cost 1/3 → OST 1 (first scanned).
// Uses now: OSS0 2, OSS1 1; OSTs 1, 1, 1, 0. File 1 (writers 3-5): stripe 0: costs 3, 3, 2, 1 → OST 3; stripe 1: OSTs
// 0, 1, 2 all cost 3 → OST 0; stripe 2: OST 1 costs 3 + 1 = 4, OST 2 costs 2 + 1 = 3 → OST 2. So file 0 = [0, 2, 1],
// file 1 = [3, 0, 2]; writer w writes its whole MiB to the OST of stripe w − w_m of its file: writers 0..5 → OSTs
// 0, 2, 1, 3, 0, 2; bytes per OST 2, 1, 2, 1 MiB; per OSS 3, 3 MiB.
TEST(StripingNM, BpioPlacesEachSharedFileOfItsWritersByHand) {
  Topo T(2, 2, 0, 6);
  State S(T.t);
  Placement pl;
  ios_stripe_job_t j = job(6, IOS_LAYOUT_SSF, MiB);
  j.shared_files = 2;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, nullptr, {{"random_start", 0}}), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 2);
  for (int f = 0; f < 2; f++) {
    EXPECT_DOUBLE_EQ(pl.p.files[f].size, 3 * MiB);
    EXPECT_DOUBLE_EQ(pl.p.files[f].stripe_size, MiB);
    EXPECT_EQ(pl.p.files[f].stripe_count, 3);
  }
  EXPECT_EQ(pl.osts(0), (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{3, 0, 2}));
  const int want[6] = {0, 2, 1, 3, 0, 2};
  for (int w = 0; w < 6; w++)
    EXPECT_EQ(flows_of(T.t, j, pl, w), (Flows{{want[w], MiB}})) << "writer " << w;
  Loads l = loads(T.t, j, pl);
  EXPECT_EQ(l.ost, (std::vector<double>{2 * MiB, MiB, 2 * MiB, MiB}));
  EXPECT_EQ(l.oss, (std::vector<double>{3 * MiB, 3 * MiB}));
  EXPECT_EQ(S.osts(), (std::vector<long>{2, 1, 2, 1}));
}

// System: 1 OSS × 2 OSTs; W = 5 writers of 2 MiB in M = 2 files: file 0 has writers ⌊0·5/2⌋ = 0 .. ⌊5/2⌋ − 1 = 1 (4
// MiB, 2 stripes of 2 MiB), file 1 writers 2..4 (6 MiB, count min(3, 2) = 2, stripes of 3 MiB). bpio, random_start 0.
// Expectations (by hand): file 0 → [0, 1] (uses OST 1, 1; OSS 2). File 1 stripe 0: both OSTs cost (2 + 1)/3 → OST 0;
// its writers are 2 and 3 (writer 3's block [2, 4) MiB of the file crosses the 3 MiB boundary), so OST 0 gets 2 uses;
// stripe 1 → OST 1. Flows: writer 0 → OST 0 2 MiB, 1 → OST 1 2 MiB, 2 → OST 0 2 MiB, 3 → OST 0 1 MiB and OST 1 1 MiB,
// 4 → OST 1 2 MiB: 5 MiB per OST.
TEST(StripingNM, UnevenSplitAndAStripeSharedByTwoWriters) {
  Topo T(1, 2, 0, 5);
  State S(T.t);
  Placement pl;
  ios_stripe_job_t j = job(5, IOS_LAYOUT_SSF, 2 * MiB);
  j.shared_files = 2;
  ASSERT_EQ(place("bpio", T.t, j, S.s, pl, nullptr, {{"random_start", 0}}), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 2);
  EXPECT_DOUBLE_EQ(pl.p.files[0].size, 4 * MiB);
  EXPECT_DOUBLE_EQ(pl.p.files[0].stripe_size, 2 * MiB);
  EXPECT_DOUBLE_EQ(pl.p.files[1].size, 6 * MiB);
  EXPECT_DOUBLE_EQ(pl.p.files[1].stripe_size, 3 * MiB);
  EXPECT_EQ(pl.osts(0), (std::vector<int>{0, 1}));
  EXPECT_EQ(pl.osts(1), (std::vector<int>{0, 1}));
  EXPECT_EQ(flows_of(T.t, j, pl, 0), (Flows{{0, 2 * MiB}}));
  EXPECT_EQ(flows_of(T.t, j, pl, 1), (Flows{{1, 2 * MiB}}));
  EXPECT_EQ(flows_of(T.t, j, pl, 2), (Flows{{0, 2 * MiB}}));
  EXPECT_EQ(flows_of(T.t, j, pl, 3), (Flows{{0, MiB}, {1, MiB}}));
  EXPECT_EQ(flows_of(T.t, j, pl, 4), (Flows{{1, 2 * MiB}}));
  EXPECT_EQ(loads(T.t, j, pl).ost, (std::vector<double>{5 * MiB, 5 * MiB}));
  EXPECT_EQ(S.osts(), (std::vector<long>{3, 3})); /* flows: 1 + 1 + 2 (writers 2, 3) + 2 (writers 3, 4) */
}

// System: 1 OSS × 2 OSTs; W = 4 writers of 3 MiB in M = 2 files (6 MiB each); lustre-default (4 stripes, capped at 2,
// of 1 MiB). Expectations (by hand): each file alternates its 1 MiB chunks over its two OSTs a, b (a = its first):
// writer 2m (chunks 0, 1, 2 of file m) sends 2 MiB to a and 1 MiB to b; writer 2m + 1 (chunks 3, 4, 5) 1 MiB to a and
// 2 MiB to b. Whatever the random starts, each OST gets 3 MiB of each file: 6 MiB.
TEST(StripingNM, LustreDefaultStripesEveryFileOfAnNToMJob) {
  Topo T(1, 2, 0, 4);
  State S(T.t);
  ios_rng_t rng;
  ios_rng_seed(&rng, 7, 0);
  Placement pl;
  ios_stripe_job_t j = job(4, IOS_LAYOUT_SSF, 3 * MiB);
  j.shared_files = 2;
  ASSERT_EQ(place("lustre-default", T.t, j, S.s, pl, &rng), IOS_OK);
  ASSERT_EQ(pl.p.nfiles, 2);
  for (int m = 0; m < 2; m++) {
    EXPECT_DOUBLE_EQ(pl.p.files[m].size, 6 * MiB);
    std::vector<int> o = pl.osts(m);
    ASSERT_EQ(o.size(), 2u);
    EXPECT_EQ(flows_of(T.t, j, pl, 2 * m), (Flows{{o[0], 2 * MiB}, {o[1], MiB}})) << m;
    EXPECT_EQ(flows_of(T.t, j, pl, 2 * m + 1), (Flows{{o[1], 2 * MiB}, {o[0], MiB}})) << m;
  }
  EXPECT_EQ(loads(T.t, j, pl).ost, (std::vector<double>{6 * MiB, 6 * MiB}));
}

// Expectations: shared_files must be 0 or 1 for file per process, and at most W (every file has a writer) and not
// negative for shared files; every policy refuses such a job with IOS_EINVAL.
TEST(StripingNM, BadSharedFileCountsAreRefused) {
  Topo T(1, 2, 0, 4);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  ios_stripe_job_t fpp = job(4, IOS_LAYOUT_FPP, MiB), many = job(4, IOS_LAYOUT_SSF, MiB), neg = many;
  fpp.shared_files = 2;
  many.shared_files = 5;
  neg.shared_files = -1;
  for (const ios_stripe_job_t *j : {&fpp, &many, &neg}) {
    EXPECT_EQ(ios_stripe_job_validate(&T.t, j), IOS_EINVAL);
    for (const char *name : {"lustre-default", "optimized-striping", "bpio"}) {
      State S(T.t);
      Placement pl;
      EXPECT_EQ(place(name, T.t, *j, S.s, pl, &rng), IOS_EINVAL) << name;
    }
  }
  ios_stripe_job_t ok = job(4, IOS_LAYOUT_SSF, MiB);
  ok.shared_files = 4; /* M = W: one writer per file */
  EXPECT_EQ(ios_stripe_job_validate(&T.t, &ok), IOS_OK);
}
