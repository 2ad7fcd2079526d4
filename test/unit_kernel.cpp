// Unit tests of the engine's kernel without a SimGrid run (issue 32, "tests beside the kernel"), as SimGrid tests its
// max-min solver apart from any simulation: the one heap (src/base/ios_heap.h), the calendar's dated wake-ups
// (src/sim/ios_wakeups.h) and the transfer layer (src/sim/ios_transfer.h) on both of its paths — the direct path on a
// date the test owns, the flow path on a stand-in flows table (FakeFlows below) that moves each flow's bytes linearly
// at members x rate, as SimGrid's max-min would on links that never bind.
//
// No SimGrid engine is created in this binary. The transfer layer reads the date through the pointer of
// ios_tr_options_t.date; this file interposes simgrid_get_clock() (counting its calls, then answering as SimGrid
// would) so that every test checks the layer never asked SimGrid's clock.
//
// Every expected date and byte count is computed by hand in the comment beside it; the bytes and rates are chosen so
// that the arithmetic is exact in binary floating point where a test compares with EXPECT_EQ.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "ios_heap.h"
#include "ios_transfer.h"
#include "ios_wakeups.h"

// ------------------------------------------------------------------------------------------------ SimGrid's clock

namespace {
long g_clock_calls = 0; // calls of simgrid_get_clock() from anything in this process
}

// The transfer layer's tr_now() falls back to SimGrid's clock when ios_tr_options_t.date is NULL; every test below
// gives a date, so a call here from a kernel test is a defect (each fixture checks the count in TearDown). Answers
// with SimGrid's own function, found after this one (RTLD_NEXT), so nothing else in the binary changes.
extern "C" double simgrid_get_clock(void) {
  ++g_clock_calls;
  using clock_fn = double (*)(void);
  static const clock_fn real = reinterpret_cast<clock_fn>(dlsym(RTLD_NEXT, "simgrid_get_clock"));
  return real != nullptr ? real() : 0.0;
}

namespace {

// ================================================================================================ ios_heap.h

struct Item {
  double key;
  int id;  // unique: (key, id) is a total order
  int idx; // index in the heap, kept by `placed`
};

inline bool item_before(const Item *a, const Item *b) {
  return a->key < b->key || (a->key == b->key && a->id < b->id);
}

// A heap of values, each keeping its index (as the calendar's entries do not, and the direct path's do).
int heap_value_before(const Item *a, const Item *b) {
  return item_before(a, b);
}
#define VALUE_PLACED(x, i) ((x)->idx = (i))
IOS_HEAP_DEFINE(value_heap, Item, heap_value_before, VALUE_PLACED)

// A heap of pointers to items owned by the test, each keeping its index (as transfer_direct.c's heap of transfers).
int heap_ptr_before(Item *const *a, Item *const *b) {
  return item_before(*a, *b);
}
#define PTR_PLACED(x, i) ((*(x))->idx = (i))
IOS_HEAP_DEFINE(ptr_heap, Item *, heap_ptr_before, PTR_PLACED)

// Every element knows its index (what remove/fix by index rely on).
void expect_value_indices(const value_heap_t &h) {
  for (int i = 0; i < h.n; i++)
    ASSERT_EQ(h.a[i].idx, i) << "element " << h.a[i].id;
}
void expect_ptr_indices(const ptr_heap_t &h) {
  for (int i = 0; i < h.n; i++)
    ASSERT_EQ(h.a[i]->idx, i) << "element " << h.a[i]->id;
}

std::vector<int> pop_ids(value_heap_t *h) {
  std::vector<int> ids;
  while (h->n > 0) {
    ids.push_back(value_heap_pop(h).id);
    expect_value_indices(*h);
  }
  return ids;
}

std::vector<int> pop_ids(ptr_heap_t *h) {
  std::vector<int> ids;
  while (h->n > 0) {
    ids.push_back(ptr_heap_pop(h)->id);
    expect_ptr_indices(*h);
  }
  return ids;
}

std::vector<int> sorted_ids(std::vector<Item> items) {
  std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return item_before(&a, &b); });
  std::vector<int> ids;
  for (const Item &it : items)
    ids.push_back(it.id);
  return ids;
}

TEST(KernelHeap, PushPopFollowsTheTotalOrder) {
  value_heap_t h{};
  // (key, id): equal keys are ordered by id.
  const Item in[] = {{5, 0, -1}, {1, 1, -1}, {3, 2, -1}, {1, 3, -1}, {4, 4, -1}, {3, 5, -1}};
  for (const Item &it : in) {
    ASSERT_EQ(value_heap_push(&h, it), IOS_OK);
    expect_value_indices(h);
  }
  EXPECT_EQ(h.n, 6);
  EXPECT_EQ(h.a[0].id, 1); // the least: key 1, id 1 (before key 1, id 3)
  // By hand: (1,1) (1,3) (3,2) (3,5) (4,4) (5,0).
  EXPECT_EQ(pop_ids(&h), (std::vector<int>{1, 3, 2, 5, 4, 0}));
  value_heap_free(&h);
  EXPECT_EQ(h.n, 0);
  EXPECT_EQ(h.a, nullptr);
}

TEST(KernelHeap, RemoveAndFixByIndex) {
  // Ten items, key (7 i) mod 10: ids 0..9 have keys 0 7 4 1 8 5 2 9 6 3.
  std::vector<Item> items(10);
  ptr_heap_t h{};
  for (int i = 0; i < 10; i++) {
    items[i] = {double((7 * i) % 10), i, -1};
    ASSERT_EQ(ptr_heap_push(&h, &items[i]), IOS_OK);
    expect_ptr_indices(h);
  }
  EXPECT_EQ(h.a[0]->id, 0);          // key 0
  ptr_heap_remove(&h, items[5].idx); // key 5 leaves
  expect_ptr_indices(h);
  items[7].key = 0.5; // 9 -> 0.5: goes up
  ptr_heap_fix(&h, items[7].idx);
  expect_ptr_indices(h);
  items[0].key = 8.5; // 0 -> 8.5: goes down from the top
  ptr_heap_fix(&h, items[0].idx);
  expect_ptr_indices(h);
  const int last_removed = h.a[h.n - 1]->id;
  ptr_heap_remove(&h, h.n - 1); // the last slot: nothing moves but the count
  expect_ptr_indices(h);
  // Keys left (id:key) 0:8.5 1:7 2:4 3:1 4:8 6:2 7:0.5 8:6 9:3 without the last removed one; by key:
  // 7(0.5) 3(1) 6(2) 9(3) 2(4) 8(6) 1(7) 4(8) 0(8.5).
  std::vector<int> expect = {7, 3, 6, 9, 2, 8, 1, 4, 0};
  expect.erase(std::find(expect.begin(), expect.end(), last_removed));
  EXPECT_EQ(pop_ids(&h), expect);
  ptr_heap_free(&h);
}

TEST(KernelHeap, HeapifyGivesThePushSequenceAndTheSortedOne) {
  // 400 keys drawn from 0..49 with a fixed seed (many equal keys: the id orders them), the same set three ways.
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<int> key(0, 49);
  std::vector<Item> items(400);
  for (int i = 0; i < 400; i++)
    items[i] = {double(key(rng)), i, -1};
  const std::vector<int> sorted = sorted_ids(items);

  value_heap_t pushed{}, appended{};
  for (const Item &it : items)
    ASSERT_EQ(value_heap_push(&pushed, it), IOS_OK);
  for (const Item &it : items)
    ASSERT_EQ(value_heap_append(&appended, it), IOS_OK);
  value_heap_heapify(&appended);
  expect_value_indices(appended);
  EXPECT_EQ(pop_ids(&pushed), sorted);
  EXPECT_EQ(pop_ids(&appended), sorted);
  value_heap_free(&pushed);
  value_heap_free(&appended);

  // Keys changed in place: one at a time with fix (the sift path), or many at once then heapify (the rebuild path of
  // transfer_direct.c), and 100 removed by index: both heaps give the sort of what is left.
  std::vector<Item> a = items, b = items;
  ptr_heap_t hs{}, hr{};
  for (int i = 0; i < 400; i++) {
    ASSERT_EQ(ptr_heap_push(&hs, &a[i]), IOS_OK);
    ASSERT_EQ(ptr_heap_push(&hr, &b[i]), IOS_OK);
  }
  std::uniform_int_distribution<int> pick(0, 399);
  std::set<int> removed;
  for (int j = 0; j < 300; j++) {
    int i = pick(rng);
    double k = double(key(rng));
    if (removed.count(i)) continue;
    if (j % 3 == 0) { // a removal
      ptr_heap_remove(&hs, a[i].idx);
      ptr_heap_remove(&hr, b[i].idx);
      removed.insert(i);
    } else {
      a[i].key = b[i].key = k;
      ptr_heap_fix(&hs, a[i].idx);
    }
    expect_ptr_indices(hs);
  }
  ptr_heap_heapify(&hr);
  expect_ptr_indices(hr);
  std::vector<Item> left;
  for (int i = 0; i < 400; i++)
    if (!removed.count(i)) left.push_back(a[i]);
  ASSERT_GE(left.size(), 300u); // at most 100 removals
  const std::vector<int> left_sorted = sorted_ids(left);
  EXPECT_EQ(pop_ids(&hs), left_sorted);
  EXPECT_EQ(pop_ids(&hr), left_sorted);
  ptr_heap_free(&hs);
  ptr_heap_free(&hr);
}

// ================================================================================================ ios_wakeups.h

TEST(KernelWakeups, TiesAtOneDateGoInPushOrder) {
  ios_wakeups_t w{};
  EXPECT_EQ(ios_wakeups_push(&w, 2.0, 1, 10), IOS_OK); // seq 0
  EXPECT_EQ(ios_wakeups_push(&w, 1.0, 2, 11), IOS_OK); // seq 1
  EXPECT_EQ(ios_wakeups_push(&w, 2.0, 3, 12), IOS_OK); // seq 2
  EXPECT_EQ(ios_wakeups_push(&w, 2.0, 4, 13), IOS_OK); // seq 3
  EXPECT_EQ(ios_wakeups_push(&w, 1.5, 5, -1), IOS_OK); // seq 4
  EXPECT_EQ(ios_wakeups_count(&w), 5);
  EXPECT_EQ(ios_wakeups_next(&w), 1.0);
  // All due at 2: by date, then the three at 2.0 in the order they were pushed (seq 0, 2, 3).
  const int idx[] = {11, -1, 10, 12, 13}, kind[] = {2, 5, 1, 3, 4};
  const long seq[] = {1, 4, 0, 2, 3};
  const double date[] = {1.0, 1.5, 2.0, 2.0, 2.0};
  for (int i = 0; i < 5; i++) {
    ios_wakeup_t e{};
    ASSERT_EQ(ios_wakeups_pop_due(&w, 2.0, &e), 1) << i;
    EXPECT_EQ(e.idx, idx[i]);
    EXPECT_EQ(e.kind, kind[i]);
    EXPECT_EQ(e.seq, seq[i]);
    EXPECT_EQ(e.date, date[i]);
  }
  ios_wakeup_t e{};
  EXPECT_EQ(ios_wakeups_pop_due(&w, 2.0, &e), 0);
  ios_wakeups_free(&w);
}

TEST(KernelWakeups, DueWithinTheTimingPrecisionAndNotBeyond) {
  ios_wakeups_t w{};
  ASSERT_EQ(ios_wakeups_push(&w, 5.0 + 2e-9, 0, 2), IOS_OK);   // 2e-9 s after 5: beyond the precision (1e-9 s)
  ASSERT_EQ(ios_wakeups_push(&w, 5.0 + 0.5e-9, 0, 1), IOS_OK); // 0.5e-9 s after 5: due at 5
  ASSERT_EQ(ios_wakeups_push(&w, 3.0, 0, 0), IOS_OK);          // in the past: due
  ios_wakeup_t e{-1, -1, -1, -1};
  EXPECT_EQ(ios_wakeups_pop_due(&w, 2.999, &e), 0); // 3.0 > 2.999 + 1e-9: none due
  EXPECT_EQ(e.idx, -1);                             // *out untouched
  ASSERT_EQ(ios_wakeups_pop_due(&w, 5.0, &e), 1);
  EXPECT_EQ(e.idx, 0);
  ASSERT_EQ(ios_wakeups_pop_due(&w, 5.0, &e), 1);
  EXPECT_EQ(e.idx, 1);
  e.idx = -7;
  EXPECT_EQ(ios_wakeups_pop_due(&w, 5.0, &e), 0);
  EXPECT_EQ(e.idx, -7);
  EXPECT_EQ(ios_wakeups_count(&w), 1);
  EXPECT_EQ(ios_wakeups_next(&w), 5.0 + 2e-9);
  ASSERT_EQ(ios_wakeups_pop_due(&w, 5.0 + 1.5e-9, &e), 1); // 5+2e-9 <= 5+1.5e-9 + 1e-9
  EXPECT_EQ(e.idx, 2);
  ios_wakeups_free(&w);
}

TEST(KernelWakeups, NextIsInfinityWhenEmpty) {
  ios_wakeups_t w{};
  EXPECT_TRUE(std::isinf(ios_wakeups_next(&w)) && ios_wakeups_next(&w) > 0);
  ios_wakeup_t e{};
  EXPECT_EQ(ios_wakeups_pop_due(&w, 1e300, &e), 0);
  ASSERT_EQ(ios_wakeups_push(&w, 7.0, 1, 1), IOS_OK);
  EXPECT_EQ(ios_wakeups_next(&w), 7.0);
  ASSERT_EQ(ios_wakeups_pop_due(&w, 7.0, &e), 1);
  EXPECT_TRUE(std::isinf(ios_wakeups_next(&w)) && ios_wakeups_next(&w) > 0);
  EXPECT_EQ(ios_wakeups_count(&w), 0);
  ios_wakeups_free(&w);
  EXPECT_EQ(w.seq, 0); // freed: the sequence starts again
  ASSERT_EQ(ios_wakeups_push(&w, 1.0, 1, 1), IOS_OK);
  EXPECT_EQ(w.heap.a[0].seq, 0);
  ios_wakeups_free(&w);
}

// ================================================================================================ the stand-in flows

// One flow of the stand-in table. The transfer layer only sees it as an opaque ios_flow_t* (SimGrid's glue defines
// struct ios_flow; this is another type, cast).
struct FakeFlow {
  sg_host_t from, to;
  double bytes;   // bytes left, all members together, at date `last`
  double rate;    // bytes/s, each member's (the flow moves members x rate)
  double last;    // s: the date `bytes` refers to
  double started; // s: when it started
  double latency;
  int members = 1;
  bool modified = false, paused = false, over = false, cancelled = false, released = false;
  void *data;
  int serial; // its rank among the flows started
};

// Calls of each operation (what the tests check the layer asked for).
struct FakeCalls {
  int init = 0, fini = 0, start = 0, set_rate = 0, join = 0, joined = 0, leave = 0, pause = 0, paused = 0, resume = 0,
      cancel = 0, release = 0, reap = 0, freed = 0, done = 0;
};

// A stand-in for SimGrid's flows (the contract of ios_sg.h) on links that never bind: each flow's bytes move linearly
// at members x rate from its start (or its last change), it ends when they reach 0, and `advance` plays SimGrid's
// maestro, reporting ends through the `done` function given to init. Every flow is checked alive at each call.
struct FakeFlows {
  double *now = nullptr;
  ios_flow_done_fn done = nullptr;
  void *done_ctx = nullptr;                                           // done's context (the transfer layer)
  std::set<FakeFlow *> live;                                          // started and not freed yet
  std::vector<FakeFlow *> order;                                      // every live flow, in start order
  std::map<std::pair<sg_host_t, sg_host_t>, unsigned long long> keys; // route keys the test sets
  std::map<std::pair<sg_host_t, sg_host_t>, double> latencies;
  bool can_pause = true; // false: ios_flow_pause refuses (as for a flow whose route has a latency)
  int serials = 0;
  FakeCalls calls;

  bool alive(const ios_flow_t *f) const {
    return live.count(reinterpret_cast<FakeFlow *>(const_cast<ios_flow_t *>(f))) > 0;
  }
  static FakeFlow *of(const ios_flow_t *f) { return reinterpret_cast<FakeFlow *>(const_cast<ios_flow_t *>(f)); }
  bool running(const FakeFlow *f) const { return !f->paused && !f->over && !f->cancelled && f->rate > 0; }
  // Bytes left now, all members together.
  double remaining(const FakeFlow *f) const {
    if (f->over) return 0.0;
    if (!running(f)) return f->bytes;
    double b = f->bytes - f->members * f->rate * (*now - f->last);
    return b > 0 ? b : 0.0;
  }
  void settle(FakeFlow *f) {
    f->bytes = remaining(f);
    f->last = *now;
  }
  double finish(const FakeFlow *f) const { return running(f) ? f->last + f->bytes / (f->members * f->rate) : INFINITY; }
  double next_finish() const {
    double d = INFINITY;
    for (const FakeFlow *f : order)
      d = std::min(d, finish(f));
    return d;
  }
  // SimGrid's maestro at the current date: every flow whose last byte arrives now (within SimGrid's 1e-9 s) is
  // reported, in the reverse of the order they started (SimGrid's order is not the layer's: it sorts them).
  int report_due() {
    std::vector<FakeFlow *> ending;
    for (FakeFlow *f : order)
      if (finish(f) <= *now + 1e-9) ending.push_back(f);
    for (auto it = ending.rbegin(); it != ending.rend(); ++it) {
      (*it)->over = true;
      (*it)->bytes = 0;
      calls.done++;
      done(done_ctx, reinterpret_cast<ios_flow_t *>(*it), (*it)->data);
    }
    return int(ending.size());
  }
  // The clock moves to the earliest end if it is at most `limit` and reports it (@return how many ended), else to
  // `limit` (@return 0).
  int advance(double limit) {
    double d = next_finish();
    if (d <= limit) {
      *now = d;
      return report_due();
    }
    *now = limit;
    return 0;
  }
  void free_flow(FakeFlow *f) {
    live.erase(f);
    order.erase(std::find(order.begin(), order.end(), f));
    calls.freed++;
    delete f;
  }
  // Flows started and not given back yet.
  int unreleased() const {
    int k = 0;
    for (const FakeFlow *f : order)
      k += !f->released;
    return k;
  }
  FakeFlow *only_flow() const { return order.size() == 1 ? order[0] : nullptr; }
};

FakeFlows *g_fake = nullptr; // the stand-in the table's functions act on (also their context: flows_ctx)

#define FAKE_ALIVE(f, ret)                                                                                             \
  do {                                                                                                                 \
    if (!g_fake->alive(f)) {                                                                                           \
      ADD_FAILURE() << __func__ << " on a flow that is not alive";                                                     \
      return ret;                                                                                                      \
    }                                                                                                                  \
  } while (0)

int fake_init(void *fl, ios_flow_done_fn done, void *ctx) {
  EXPECT_EQ(fl, g_fake); // the table's object, given as ios_tr_options_t.flows_ctx
  g_fake->done_ctx = ctx;
  g_fake->calls.init++;
  g_fake->done = done;
  return 0;
}

void fake_fini(void *fl) {
  EXPECT_EQ(fl, g_fake);
  g_fake->calls.fini++;
  while (!g_fake->order.empty())
    g_fake->free_flow(g_fake->order.back());
}

ios_flow_t *fake_start(void *fl, sg_host_t from, sg_host_t to, double bytes, double rate, double latency, void *data) {
  EXPECT_EQ(fl, g_fake);
  g_fake->calls.start++;
  EXPECT_GT(bytes, 0);
  EXPECT_GT(rate, 0);
  auto *f = new FakeFlow();
  f->from = from;
  f->to = to;
  f->bytes = bytes;
  f->rate = rate;
  f->last = f->started = *g_fake->now;
  f->latency = latency;
  f->data = data;
  f->serial = g_fake->serials++;
  g_fake->live.insert(f);
  g_fake->order.push_back(f);
  return reinterpret_cast<ios_flow_t *>(f);
}

void fake_set_rate(ios_flow_t *flow, double rate) {
  FAKE_ALIVE(flow, );
  g_fake->calls.set_rate++;
  FakeFlow *f = FakeFlows::of(flow);
  EXPECT_FALSE(f->paused || f->over || f->cancelled) << "set_rate on a flow that does not run";
  g_fake->settle(f);
  f->rate = rate;
  f->modified = true;
}

int fake_join(ios_flow_t *flow, double bytes, double rate) {
  FAKE_ALIVE(flow, -1);
  g_fake->calls.join++;
  FakeFlow *f = FakeFlows::of(flow);
  // ios_flow_join's refusals: over, cancelled, paused, re-rated, started at another date, another rate.
  if (f->over || f->cancelled || f->paused || f->modified || f->started != *g_fake->now || rate != f->rate) return -1;
  g_fake->calls.joined++;
  f->members++;
  f->bytes += bytes; // started now: no byte moved yet
  return 0;
}

void fake_leave(ios_flow_t *flow, double bytes, double rate) {
  FAKE_ALIVE(flow, );
  g_fake->calls.leave++;
  FakeFlow *f = FakeFlows::of(flow);
  EXPECT_GE(f->members, 2) << "leave from a flow of one member";
  g_fake->settle(f);
  f->bytes = std::max(f->bytes - bytes, 0.0);
  f->members--;
  f->rate = rate;
  f->modified = true;
}

int fake_pause(ios_flow_t *flow) {
  FAKE_ALIVE(flow, -1);
  g_fake->calls.pause++;
  FakeFlow *f = FakeFlows::of(flow);
  if (!g_fake->can_pause || f->over || f->cancelled || f->paused || f->members != 1) return -1;
  g_fake->settle(f);
  f->paused = true;
  f->modified = true;
  g_fake->calls.paused++;
  return 0;
}

void fake_resume(ios_flow_t *flow, double rate) {
  FAKE_ALIVE(flow, );
  g_fake->calls.resume++;
  FakeFlow *f = FakeFlows::of(flow);
  EXPECT_TRUE(f->paused) << "resume of a flow not paused";
  f->paused = false;
  f->rate = rate;
  f->last = *g_fake->now; // no byte moved during the pause
}

int fake_members(const ios_flow_t *flow) {
  FAKE_ALIVE(flow, 1);
  return FakeFlows::of(flow)->members;
}

void *fake_data(const ios_flow_t *flow) {
  FAKE_ALIVE(flow, nullptr);
  return FakeFlows::of(flow)->data;
}

void fake_set_data(ios_flow_t *flow, void *data) {
  FAKE_ALIVE(flow, );
  FakeFlows::of(flow)->data = data;
}

// The key the test set for the pair, else one of its own per pair (its rank among the pairs seen, from 1000).
void fake_route_key(sg_host_t from, sg_host_t to, unsigned long long *key, double *latency) {
  auto p = std::make_pair(from, to);
  auto it = g_fake->keys.find(p);
  if (it == g_fake->keys.end()) it = g_fake->keys.emplace(p, 1000 + g_fake->keys.size()).first;
  auto lat = g_fake->latencies.find(p);
  *key = it->second;
  *latency = lat != g_fake->latencies.end() ? lat->second : 0.0;
}

double fake_remaining(const ios_flow_t *flow) {
  FAKE_ALIVE(flow, 0.0);
  return g_fake->remaining(FakeFlows::of(flow));
}

void fake_cancel(ios_flow_t *flow) {
  FAKE_ALIVE(flow, );
  g_fake->calls.cancel++;
  FakeFlow *f = FakeFlows::of(flow);
  g_fake->settle(f);
  f->cancelled = true;
}

// As ios_flow_release: a flow whose end was reported is freed at once, another (cancelled) at the next reap.
void fake_release(ios_flow_t *flow) {
  if (flow == nullptr) return;
  FAKE_ALIVE(flow, );
  g_fake->calls.release++;
  FakeFlow *f = FakeFlows::of(flow);
  EXPECT_FALSE(f->released) << "released twice";
  EXPECT_TRUE(f->over || f->cancelled) << "released while it runs";
  f->released = true;
  if (f->over) g_fake->free_flow(f);
}

void fake_reap(void *fl) {
  EXPECT_EQ(fl, g_fake);
  g_fake->calls.reap++;
  std::vector<FakeFlow *> gone;
  for (FakeFlow *f : g_fake->order)
    if (f->released && f->cancelled) gone.push_back(f);
  for (FakeFlow *f : gone)
    g_fake->free_flow(f);
}

ios_tr_flows_t fake_table() {
  ios_tr_flows_t t{};
  t.init = fake_init;
  t.fini = fake_fini;
  t.start = fake_start;
  t.set_rate = fake_set_rate;
  t.join = fake_join;
  t.leave = fake_leave;
  t.pause = fake_pause;
  t.resume = fake_resume;
  t.members = fake_members;
  t.data = fake_data;
  t.set_data = fake_set_data;
  t.route_key = fake_route_key;
  t.remaining = fake_remaining;
  t.cancel = fake_cancel;
  t.release = fake_release;
  t.reap = fake_reap;
  return t;
}
const ios_tr_flows_t kFakeTable = fake_table();

// ================================================================================================ the layer's hooks

struct Segment {
  const ios_transfer_t *t;
  double bytes;
  int done;
  double date;
};
struct Completion {
  const ios_transfer_t *t;
  unsigned gen;
  double date;
};
struct Record {
  const double *now;
  std::vector<Segment> segments;
  std::vector<Completion> completions;
  int due = 0;
};

void on_segment_end(void *ctx, const ios_transfer_t *t, double bytes, int done) {
  auto *r = static_cast<Record *>(ctx);
  r->segments.push_back({t, bytes, done, *r->now});
}
void on_completed(void *ctx, ios_transfer_t *t, unsigned gen) {
  auto *r = static_cast<Record *>(ctx);
  r->completions.push_back({t, gen, *r->now});
}
void on_due(void *ctx) {
  static_cast<Record *>(ctx)->due++;
}
const ios_tr_hooks_t kHooks = {on_segment_end, on_completed, on_due};

// Distinct non-null host handles: addresses of objects of this file (never dereferenced: no SimGrid engine).
char g_hosts[16];
sg_host_t host(int i) {
  return reinterpret_cast<sg_host_t>(&g_hosts[i]);
}

// A rate change in a scenario: at `date`, transfer `id` gets `rate`.
struct Event {
  double date;
  int id;
  double rate;
};

// ------------------------------------------------------------------------------------------------ the fixture

class KernelBase : public ::testing::Test {
protected:
  double now = 0;
  Record rec;
  FakeFlows fake;
  ios_tr_t *tr = nullptr; // the transfer layer under test
  bool started = false;
  bool direct = true;
  long clock_calls0 = 0;

  void SetUp() override {
    rec.now = &now;
    fake.now = &now;
    g_fake = &fake;
    clock_calls0 = g_clock_calls;
  }
  void TearDown() override {
    if (started) ios_tr_fini(tr);
    EXPECT_EQ(g_clock_calls, clock_calls0) << "the transfer layer read SimGrid's clock although given a date";
    EXPECT_EQ(fake.calls.fini, fake.calls.init); // the stand-in ended once per flow-path run
    g_fake = nullptr;
  }
  void start_direct() {
    ios_tr_options_t o{};
    o.direct = 1;
    o.date = &now;
    direct = true;
    ASSERT_EQ(ios_tr_init(&tr, &o, &kHooks, &rec), 0);
    started = true;
  }
  void start_flows(int groups = 1, int restart = 0) {
    ios_tr_options_t o{};
    o.direct = 0;
    o.date = &now;
    o.flow_groups = groups;
    o.flow_restart = restart;
    o.flows = &kFakeTable;
    o.flows_ctx = &fake;
    direct = false;
    int inits = fake.calls.init;
    ASSERT_EQ(ios_tr_init(&tr, &o, &kHooks, &rec), 0);
    EXPECT_EQ(fake.calls.init, inits + 1);
    started = true;
  }
  void stop() {
    ios_tr_fini(tr);
    tr = nullptr;
    started = false;
  }
  // n transfers of the given volumes, waiting, each from its own host to host 15 (the resource).
  std::vector<ios_transfer_t> transfers(const std::vector<double> &volumes) {
    std::vector<ios_transfer_t> t(volumes.size());
    for (size_t i = 0; i < volumes.size(); i++) {
      t[i] = ios_transfer_t{};
      t[i].app = int(i);
      t[i].res = 0;
      t[i].cap = INFINITY;
      t[i].host = host(int(i) % 15);
      t[i].dest = host(15);
      t[i].slot = -1;
      ios_tr_reset(tr, &t[i], volumes[i]);
    }
    return t;
  }
  // The date of the next completion on the running path.
  double next_completion() { return direct ? ios_tr_next_completion(tr) : fake.next_finish(); }
  // Moves the date to the next completion (at most `limit`) and collects what ends there, as the controller would.
  // @return the completions reported by the layer.
  int step(double limit) {
    double d = next_completion();
    if (d > limit) {
      now = limit;
      return 0;
    }
    now = d;
    if (!direct) {
      int ended = fake.report_due();
      EXPECT_GT(ended, 0);
      EXPECT_GE(ios_tr_pending(tr), ended); // a group's end is one flow's and several transfers'
    }
    int k = ios_tr_complete_due(tr);
    EXPECT_EQ(ios_tr_pending(tr), 0);
    return k;
  }
  bool has_completed(const ios_transfer_t *t) const {
    for (const Completion &c : rec.completions)
      if (c.t == t) return true;
    return false;
  }
  // Runs a scenario of rate changes (by date) until `until` (the date is then `until`), or to its end: at each date,
  // the completions due first, then the new rates; a rate for a transfer already completed is dropped, as the engine
  // re-rates only its pending transfers.
  void run(std::vector<ios_transfer_t> &t, const std::vector<Event> &ev, double until = INFINITY) {
    size_t k = 0;
    for (int guard = 0; guard < 10000; guard++) {
      double next_ev = k < ev.size() ? ev[k].date : INFINITY, next_done = next_completion();
      if (std::min(next_ev, next_done) > until) {
        now = until;
        return;
      }
      if (std::isinf(next_ev) && std::isinf(next_done)) return;
      if (next_done <= next_ev) {
        ASSERT_GT(step(next_done), 0) << "nothing completed at " << next_done;
      } else {
        now = next_ev;
        for (; k < ev.size() && ev[k].date == now; k++)
          if (!has_completed(&t[ev[k].id])) {
            ASSERT_GE(ios_tr_set_rate(tr, &t[ev[k].id], ev[k].rate, 0), 0);
          }
      }
    }
    FAIL() << "the scenario does not end";
  }
  int index_of(const std::vector<ios_transfer_t> &t, const ios_transfer_t *p) const { return int(p - t.data()); }
  // Ids of the transfers completed, in order.
  std::vector<int> completed_ids(const std::vector<ios_transfer_t> &t) const {
    std::vector<int> ids;
    for (const Completion &c : rec.completions)
      ids.push_back(index_of(t, c.t));
    return ids;
  }
  // Bytes of t's segments, in order, and whether each was its completion.
  std::vector<std::pair<double, int>> segments_of(const ios_transfer_t *t) const {
    std::vector<std::pair<double, int>> s;
    for (const Segment &g : rec.segments)
      if (g.t == t) s.emplace_back(g.bytes, g.done);
    return s;
  }
};

using Seg = std::vector<std::pair<double, int>>;

// ================================================================================================ the direct path

class KernelDirect : public KernelBase {
protected:
  // Twenty transfers of 1e9 B at 1e8 B/s from 0 (9e8 left each at 1 s) are re-rated at 1 s, from the last to the first:
  // transfer i to 1.8e9/(i/2 + 1) B/s (ends at 1 + 9e8 / (1.8e9/(i/2 + 1)) = 1 + (i/2 + 1)/2 s: pairs tie; no rate is
  // the 1e8 B/s of before, which would not be a change), except transfer 6 paused. More than
  // HEAP_SIFTS (8) changes between two reads of the heap: the direct path rebuilds it instead of sifting each change.
  // Within a pair (same date, gen 2 both), the one re-rated first (the odd one) goes first. Transfer 6 resumes at 12 s
  // at 9e8 B/s: 9e8 left, ends at 13. `read_each`: the heap is read after every change (the sift path), for the same
  // sequence.
  void heap_rebuild_scenario(bool read_each, std::vector<ios_transfer_t> &t) {
    for (int i = 0; i < 20; i++) {
      ASSERT_EQ(ios_tr_set_rate(tr, &t[i], 1e8, 0), 1);
      if (read_each) {
        EXPECT_EQ(ios_tr_next_completion(tr), 10.0); // 1e9 / 1e8
      }
    }
    EXPECT_EQ(ios_tr_next_completion(tr), 10.0);
    now = 1;
    for (int i = 19; i >= 0; i--) {
      if (i == 6) {
        ASSERT_EQ(ios_tr_set_rate(tr, &t[i], 0, 0), 0);
      } else {
        ASSERT_EQ(ios_tr_set_rate(tr, &t[i], 1.8e9 / (i / 2 + 1), 0), 1);
        EXPECT_EQ(ios_tr_remaining(tr, &t[i]), 9e8); // 1e9 - 1e8 x 1, read while the heap may be unordered
      }
      if (read_each) {
        EXPECT_LE(ios_tr_next_completion(tr), 10.0);
      }
    }
    EXPECT_NEAR(ios_tr_next_completion(tr), 1.5, 1e-9); // pair 0: 1 + 9e8 / 1.8e9
    while (!std::isinf(ios_tr_next_completion(tr)))
      ASSERT_GT(step(INFINITY), 0);
    EXPECT_NEAR(now, 6.0, 1e-9); // the last pair (j = 9): 1 + 10/2
    now = 12;
    ASSERT_EQ(ios_tr_set_rate(tr, &t[6], 9e8, 0), 1);
    EXPECT_EQ(ios_tr_next_completion(tr), 13.0); // 12 + 9e8 / 9e8
    ASSERT_EQ(step(INFINITY), 1);
  }
};

TEST_F(KernelDirect, CompletionDateReRateAndRemaining) {
  start_direct();
  auto t = transfers({1e9});
  EXPECT_TRUE(std::isinf(ios_tr_next_completion(tr))); // nothing runs
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 2.5e8, 1), 1);  // a new segment
  EXPECT_EQ(t[0].gen, 1u);
  EXPECT_EQ(t[0].seg_capped, 1);
  EXPECT_EQ(ios_tr_next_completion(tr), 4.0);         // 1e9 B / 2.5e8 B/s = 4 s
  EXPECT_EQ(ios_tr_set_rate(tr, &t[0], 2.5e8, 1), 0); // the same rate: nothing new
  now = 1;
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 7.5e8); // 1e9 - 2.5e8 x 1
  EXPECT_EQ(ios_tr_complete_due(tr), 0);
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 5e8, 0), 1);
  EXPECT_EQ(t[0].gen, 2u);
  EXPECT_EQ(t[0].seg_start, 1.0);
  EXPECT_EQ(t[0].seg_rem0, 7.5e8);
  EXPECT_EQ(ios_tr_next_completion(tr), 2.5); // 1 + 7.5e8 / 5e8
  now = 2;
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 2.5e8); // 7.5e8 - 5e8 x (2 - 1)
  now = 2.5 - 2e-9;                              // 2 ns early: beyond SimGrid's precision, not due
  EXPECT_EQ(ios_tr_complete_due(tr), 0);
  EXPECT_NEAR(ios_tr_remaining(tr, &t[0]), 1.0, 1e-5); // 5e8 B/s x 2e-9 s = 1 byte
  now = 2.5 - 0.5e-9;                                  // within 1e-9 s: due now, nothing left
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 0.0);
  EXPECT_EQ(ios_tr_complete_due(tr), 1);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 0.0);
  EXPECT_TRUE(std::isinf(ios_tr_next_completion(tr)));
  ASSERT_EQ(rec.completions.size(), 1u);
  EXPECT_EQ(rec.completions[0].gen, 2u);
  EXPECT_EQ(rec.completions[0].date, 2.5 - 0.5e-9);
  // Segments: 2.5e8 B in [0, 1] at 2.5e8 B/s, then 7.5e8 B at 5e8 B/s to the end: 1e9 B in all.
  EXPECT_EQ(segments_of(&t[0]), (Seg{{2.5e8, 0}, {7.5e8, 1}}));
  EXPECT_EQ(rec.segments[0].date, 1.0);
  // The direct path has no flow.
  EXPECT_EQ(ios_tr_running(tr), 0);
  EXPECT_EQ(ios_tr_flows_started(tr), 0);
  EXPECT_EQ(ios_tr_pending(tr), 0);
}

TEST_F(KernelDirect, ARateAtItsCompletionDateIsKept) {
  start_direct();
  auto t = transfers({1e9});
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 1e9, 0), 1); // ends at 1 s
  now = 1;
  EXPECT_EQ(ios_tr_set_rate(tr, &t[0], 5e8, 0), 0); // its last byte arrives now: the completion is reported as it was
  EXPECT_EQ(t[0].rate, 1e9);
  EXPECT_EQ(t[0].gen, 1u);
  EXPECT_TRUE(rec.segments.empty());
  EXPECT_EQ(ios_tr_complete_due(tr), 1);
  EXPECT_EQ(segments_of(&t[0]), (Seg{{1e9, 1}}));
}

TEST_F(KernelDirect, RateZeroPausesAndKeepsTheRemainingBytes) {
  start_direct();
  auto t = transfers({1e9});
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 2.5e8, 0), 1); // would end at 4
  now = 2;
  EXPECT_EQ(ios_tr_set_rate(tr, &t[0], 0, 0), 0); // paused: no segment starts
  EXPECT_EQ(t[0].gen, 2u);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 5e8); // 1e9 - 2.5e8 x 2
  EXPECT_TRUE(std::isinf(ios_tr_next_completion(tr)));
  now = 4; // its old completion date: nothing
  EXPECT_EQ(ios_tr_complete_due(tr), 0);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 5e8);
  now = 10;
  EXPECT_EQ(ios_tr_set_rate(tr, &t[0], 0, 0), 0); // still 0: nothing
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 5e8, 0), 1);
  EXPECT_EQ(ios_tr_next_completion(tr), 11.0); // 10 + 5e8 / 5e8
  now = 10.5;
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 2.5e8); // 5e8 - 5e8 x 0.5
  now = 11;
  EXPECT_EQ(ios_tr_complete_due(tr), 1);
  ASSERT_EQ(rec.completions.size(), 1u);
  EXPECT_EQ(rec.completions[0].gen, 3u);                    // start, pause, resume
  EXPECT_EQ(segments_of(&t[0]), (Seg{{5e8, 0}, {5e8, 1}})); // 5e8 + 5e8 = 1e9
}

TEST_F(KernelDirect, SetRatesTakesNegativeRatesAsZero) {
  start_direct();
  auto t = transfers({1e9, 1e9});
  ios_transfer_t *const pt[] = {&t[0], &t[1]};
  const double rate[] = {-1.0, 2e8};
  long started_segments = 0;
  ASSERT_EQ(ios_tr_set_rates(tr, 2, pt, rate, nullptr, 1, &started_segments), 0);
  EXPECT_EQ(started_segments, 1); // only the second starts
  EXPECT_EQ(t[0].rate, 0.0);
  EXPECT_EQ(ios_tr_next_completion(tr), 5.0); // 1e9 / 2e8
  now = 1;
  const double rem[] = {1e9, 8e8}; // the caller's remaining bytes at 1 s: 1e9, and 1e9 - 2e8 x 1
  const double rate2[] = {1e8, 4e8};
  ASSERT_EQ(ios_tr_set_rates(tr, 2, pt, rate2, rem, 0, &started_segments), 0);
  EXPECT_EQ(started_segments, 3);
  EXPECT_EQ(ios_tr_next_completion(tr), 3.0); // the second: 1 + 8e8 / 4e8; the first ends at 1 + 1e9 / 1e8 = 11
  EXPECT_EQ(t[1].seg_rem0, 8e8);
}

// The scenario both paths share (the completion order, defined once by tr_earlier: by the date each would end at its
// rate, then gen, then the rank of its segment's start). Transfers (volume), with their segments' ranks `order`:
//   A 1e9 at 2.5e8 from 0                      -> ends at 1e9/2.5e8 = 4;        gen 1, order 0
//   B 5e8 at 1.25e8 from 0                     -> 5e8/1.25e8 = 4;               gen 1, order 1
//   C 1e9 at 1e8 from 0, 3e8 from 1            -> 9e8 left at 1: 1 + 9e8/3e8 = 4; gen 2, order 6
//   D 4e8 at 2e8 from 2                        -> 2 + 4e8/2e8 = 4;              gen 1, order 7
//   E 6e8 at 1e8 from 0, paused at 1 (5e8 left), 5e8 from 3 -> 3 + 5e8/5e8 = 4; gen 3, order 8
//   F 2e9 at 2e8 from 0                        -> 10;                           gen 1, order 4
//   G 3e8 at 1e8 from 0                        -> 3;                            gen 1, order 5
// (orders: A 0, B 1, C 2, E 3, F 4, G 5 at date 0; C 6 at 1; D 7 at 2; E 8 at 3.) At 4, five ties: A, B, D (gen 1, by
// order), then C (gen 2), then E (gen 3). The applications are numbered against that order (A is application 4 ... E
// application 0), so an order by application would give E D C B A instead.
enum { TA, TB, TC, TD, TE, TF, TG };
const std::vector<double> kVolumes = {1e9, 5e8, 1e9, 4e8, 6e8, 2e9, 3e8};
const std::vector<Event> kScenario = {{0, TA, 2.5e8}, {0, TB, 1.25e8}, {0, TC, 1e8}, {0, TE, 1e8}, {0, TF, 2e8},
                                      {0, TG, 1e8},   {1, TC, 3e8},    {1, TE, 0},   {2, TD, 2e8}, {3, TE, 5e8}};
const std::vector<int> kOrder = {TG, TA, TB, TD, TC, TE, TF};
const std::vector<double> kDates = {3, 4, 4, 4, 4, 4, 10};
const std::vector<unsigned> kGens = {1, 1, 1, 1, 2, 3, 1};

std::vector<ios_transfer_t> scenario_transfers(std::vector<ios_transfer_t> t) {
  const int apps[] = {4, 3, 2, 1, 0, 5, 6};
  for (int i = 0; i < 7; i++)
    t[i].app = apps[i];
  return t;
}

TEST_F(KernelDirect, SimultaneousCompletionsByFinishThenGenThenOrder) {
  start_direct();
  auto t = scenario_transfers(transfers(kVolumes));
  run(t, kScenario);
  EXPECT_EQ(completed_ids(t), kOrder);
  for (size_t i = 0; i < rec.completions.size(); i++) {
    EXPECT_EQ(rec.completions[i].date, kDates[i]) << i;
    EXPECT_EQ(rec.completions[i].gen, kGens[i]) << i;
  }
  EXPECT_EQ(t[TC].order, 6);
  EXPECT_EQ(t[TD].order, 7);
  EXPECT_EQ(t[TE].order, 8);
  // Segments: C 1e8 in [0, 1] then 9e8; E 1e8 in [0, 1] then 5e8 (nothing while paused).
  EXPECT_EQ(segments_of(&t[TC]), (Seg{{1e8, 0}, {9e8, 1}}));
  EXPECT_EQ(segments_of(&t[TE]), (Seg{{1e8, 0}, {5e8, 1}}));
  EXPECT_EQ(segments_of(&t[TF]), (Seg{{2e9, 1}}));
}

TEST_F(KernelDirect, SegmentBytesSumToTheVolume) {
  // Property: 6 transfers, a rate change every 0.25 s for 40 changes (rates drawn with a fixed seed, some 0): every
  // transfer's segments add up to its volume (to rounding), the last one being its completion.
  start_direct();
  auto t = transfers({1e9, 2e9, 3e8, 7e8, 1.5e9, 5e8});
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> who(0, 5), r(0, 4);
  std::vector<Event> ev;
  for (int i = 0; i < 6; i++)
    ev.push_back({0, i, 1e8});
  for (int j = 1; j <= 40; j++)
    ev.push_back({0.25 * j, who(rng), 1e8 * r(rng)}); // 0, 1e8 ... 4e8 B/s
  for (int i = 0; i < 6; i++)
    ev.push_back({11, i, 1e8}); // every one running at the end
  std::stable_sort(ev.begin(), ev.end(), [](const Event &a, const Event &b) { return a.date < b.date; });
  run(t, ev);
  ASSERT_EQ(rec.completions.size(), 6u);
  for (int i = 0; i < 6; i++) {
    Seg s = segments_of(&t[i]);
    ASSERT_FALSE(s.empty());
    double sum = 0;
    for (size_t j = 0; j < s.size(); j++) {
      sum += s[j].first;
      EXPECT_EQ(s[j].second, j + 1 == s.size() ? 1 : 0);
    }
    EXPECT_NEAR(sum, t[i].volume, 1e-6 * t[i].volume) << "transfer " << i;
  }
}

TEST_F(KernelDirect, HeapRebuildKeepsTheCompletionOrder) {
  std::vector<int> expect = {1, 0, 3, 2, 5, 4, 7}; // pair 3 is 7 alone (6 paused)
  for (int j = 4; j < 10; j++) {
    expect.push_back(2 * j + 1);
    expect.push_back(2 * j);
  }
  expect.push_back(6);
  for (bool read_each : {false, true}) {
    SCOPED_TRACE(read_each ? "sift path" : "rebuild path");
    now = 0;
    rec = Record{&now, {}, {}, 0};
    start_direct();
    auto t = transfers(std::vector<double>(20, 1e9));
    heap_rebuild_scenario(read_each, t);
    EXPECT_EQ(completed_ids(t), expect);
    for (const Completion &c : rec.completions) { // pair j = i/2 at 1 + (j + 1)/2 (s); 6 at 13
      int i = index_of(t, c.t);
      EXPECT_NEAR(c.date, i == 6 ? 13.0 : 1.0 + (i / 2 + 1) * 0.5, 1e-9) << i;
    }
    stop();
  }
}

// ================================================================================================ the flow path

class KernelFlows : public KernelBase {};

TEST_F(KernelFlows, ReRateMovesTheBoundAndKeepsTheBytes) {
  start_flows();
  auto t = transfers({1e9});
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 2.5e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 1);
  EXPECT_EQ(ios_tr_running(tr), 1);
  EXPECT_TRUE(std::isinf(ios_tr_next_completion(tr))); // the flows report their ends
  EXPECT_EQ(fake.next_finish(), 4.0);                  // 1e9 / 2.5e8
  EXPECT_EQ(step(1), 0);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 7.5e8); // 1e9 - 2.5e8 x 1
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 5e8, 0), 1);
  EXPECT_EQ(fake.calls.set_rate, 1); // the same flow, its bound moved
  EXPECT_EQ(fake.calls.cancel, 0);
  EXPECT_EQ(ios_tr_flows_started(tr), 1);
  EXPECT_EQ(fake.only_flow()->bytes, 7.5e8);
  EXPECT_EQ(fake.next_finish(), 2.5); // 1 + 7.5e8 / 5e8
  EXPECT_EQ(step(2), 0);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 2.5e8); // 7.5e8 - 5e8 x 1
  EXPECT_EQ(step(10), 1);
  EXPECT_EQ(now, 2.5);
  EXPECT_EQ(rec.due, 1); // the maestro's report armed one step
  ASSERT_EQ(rec.completions.size(), 1u);
  EXPECT_EQ(rec.completions[0].gen, 2u);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 0.0);
  EXPECT_EQ(segments_of(&t[0]), (Seg{{2.5e8, 0}, {7.5e8, 1}}));
  EXPECT_EQ(ios_tr_running(tr), 0);
  EXPECT_EQ(fake.calls.release, 1);
  EXPECT_EQ(fake.calls.freed, 1);
  EXPECT_TRUE(fake.order.empty());
}

TEST_F(KernelFlows, SameCompletionOrderAsTheDirectPath) {
  // The scenario of KernelDirect.SimultaneousCompletionsByFinishThenGenThenOrder on flows: the stand-in reports the
  // five ends at 4 s in the reverse of their start order, and the layer gives them in the direct path's order.
  start_flows();
  auto t = scenario_transfers(transfers(kVolumes));
  run(t, kScenario, 1.5);
  EXPECT_EQ(ios_tr_flows_started(tr), 6); // A B C E F G; D starts at 2
  EXPECT_EQ(ios_tr_running(tr), 5);       // E paused
  EXPECT_EQ(fake.calls.paused, 1);
  EXPECT_EQ(ios_tr_remaining(tr, &t[TE]), 5e8);                       // 6e8 - 1e8 x 1, kept while paused
  EXPECT_EQ(ios_tr_remaining(tr, &t[TC]), 7.5e8);                     // 9e8 - 3e8 x 0.5
  run(t, std::vector<Event>(kScenario.begin() + 8, kScenario.end())); // from 2 s
  EXPECT_EQ(fake.calls.resume, 1);                                    // E's flow resumed, not a new one
  EXPECT_EQ(ios_tr_flows_started(tr), 7);
  EXPECT_EQ(fake.calls.cancel, 0);
  EXPECT_EQ(completed_ids(t), kOrder);
  std::vector<Completion> flows = rec.completions;
  std::vector<Segment> flow_segments = rec.segments;
  for (size_t i = 0; i < flows.size(); i++) {
    EXPECT_EQ(flows[i].date, kDates[i]) << i;
    EXPECT_EQ(flows[i].gen, kGens[i]) << i;
  }
  EXPECT_EQ(fake.unreleased(), 0);
  EXPECT_TRUE(fake.order.empty()); // every flow freed
  stop();

  // The same on the direct path: the same completions, dates and segments.
  now = 0;
  rec = Record{&now, {}, {}, 0};
  start_direct();
  auto u = scenario_transfers(transfers(kVolumes));
  run(u, kScenario);
  ASSERT_EQ(rec.completions.size(), flows.size());
  for (size_t i = 0; i < flows.size(); i++) {
    EXPECT_EQ(index_of(u, rec.completions[i].t), index_of(t, flows[i].t)) << i;
    EXPECT_EQ(rec.completions[i].date, flows[i].date) << i;
    EXPECT_EQ(rec.completions[i].gen, flows[i].gen) << i;
  }
  ASSERT_EQ(rec.segments.size(), flow_segments.size());
  for (size_t i = 0; i < flow_segments.size(); i++) {
    EXPECT_EQ(index_of(u, rec.segments[i].t), index_of(t, flow_segments[i].t)) << i;
    EXPECT_EQ(rec.segments[i].bytes, flow_segments[i].bytes) << i;
    EXPECT_EQ(rec.segments[i].date, flow_segments[i].date) << i;
  }
}

// Four transfers of 1e9 B at 1e8 B/s from 0, from four hosts to one resource over routes the stand-in gives one key:
// one flow of 4 members (4e9 B at 4 x 1e8 B/s). At 2 s (each 1e9 - 1e8 x 2 = 8e8 left; the flow 3.2e9) transfer 2 (a
// member) gets 2e8 B/s: it leaves with 8e8 B (the flow: 2.4e9 B, 3 members) and starts its own flow, ending at
// 2 + 8e8/2e8 = 6. At 4 s (each member 8e8 - 1e8 x 2 = 6e8 left; the flow 1.8e9) transfer 0, the leader, gets 4e8 B/s:
// it leaves with 6e8 B, ends at 4 + 6e8/4e8 = 5.5, and the next member leads the rest (1.2e9 B, 2 members: transfer 3,
// as each member joins right after the leader: the list is 0 3 2 1, then 0 3 1 once 2 left), which ends at
// 4 + 1.2e9/(2 x 1e8) = 10 = 1e9/1e8, as if never grouped. At 10, one report for the group: 1 then 3 (gen 1 both, by
// order).
TEST_F(KernelFlows, FlowGroupsAndMembersLeavingWithExactBytes) {
  start_flows();
  auto t = transfers({1e9, 1e9, 1e9, 1e9});
  for (int i = 0; i < 4; i++)
    fake.keys[{t[i].host, t[i].dest}] = 42;
  for (int i = 0; i < 4; i++)
    ASSERT_EQ(ios_tr_set_rate(tr, &t[i], 1e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 1);
  EXPECT_EQ(ios_tr_running(tr), 1);
  ASSERT_NE(fake.only_flow(), nullptr);
  EXPECT_EQ(fake.only_flow()->members, 4);
  EXPECT_EQ(fake.only_flow()->bytes, 4e9);
  EXPECT_EQ(fake.only_flow()->data, &t[0]); // its leader
  EXPECT_EQ(fake.calls.joined, 3);
  EXPECT_EQ(step(2), 0);
  for (int i = 0; i < 4; i++)
    EXPECT_EQ(ios_tr_remaining(tr, &t[i]), 8e8); // (4e9 - 4 x 1e8 x 2) / 4

  ASSERT_EQ(ios_tr_set_rate(tr, &t[2], 2e8, 0), 1);
  EXPECT_EQ(fake.calls.leave, 1);
  EXPECT_EQ(segments_of(&t[2]), (Seg{{2e8, 0}})); // 1e9 - 8e8
  EXPECT_EQ(ios_tr_flows_started(tr), 2);
  EXPECT_EQ(ios_tr_running(tr), 2);
  FakeFlow *group = fake.order[0], *alone2 = fake.order[1];
  EXPECT_EQ(group->members, 3);
  EXPECT_EQ(group->bytes, 2.4e9); // 3.2e9 - 8e8
  EXPECT_EQ(alone2->bytes, 8e8);
  EXPECT_EQ(fake.finish(alone2), 6.0);
  EXPECT_EQ(ios_tr_remaining(tr, &t[2]), 8e8);
  EXPECT_EQ(ios_tr_remaining(tr, &t[1]), 8e8);

  EXPECT_EQ(step(4), 0);
  EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 6e8); // (2.4e9 - 3 x 1e8 x 2) / 3
  EXPECT_EQ(ios_tr_remaining(tr, &t[2]), 4e8); // 8e8 - 2e8 x 2
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 4e8, 0), 1);
  EXPECT_EQ(fake.calls.leave, 2);
  EXPECT_EQ(group->members, 2);
  EXPECT_EQ(group->bytes, 1.2e9); // 1.8e9 - 6e8
  EXPECT_EQ(group->data, &t[3]);  // the next member leads
  EXPECT_EQ(t[3].leader, 1);
  EXPECT_EQ(t[3].next_member, &t[1]);
  EXPECT_EQ(t[0].leader, 1); // of its own new flow
  EXPECT_EQ(ios_tr_flows_started(tr), 3);
  EXPECT_EQ(fake.finish(group), 10.0);
  EXPECT_EQ(fake.finish(fake.order[2]), 5.5);

  EXPECT_EQ(step(100), 1); // 0 at 5.5
  EXPECT_EQ(now, 5.5);
  EXPECT_EQ(step(8), 1); // 2 at 6
  EXPECT_EQ(now, 6.0);
  EXPECT_EQ(step(8), 0);
  EXPECT_EQ(ios_tr_remaining(tr, &t[1]), 2e8); // (1.2e9 - 2 x 1e8 x 4) / 2
  int due_before = rec.due;
  EXPECT_EQ(step(100), 2); // 1 and 3 at 10, from one report
  EXPECT_EQ(now, 10.0);
  EXPECT_EQ(rec.due, due_before + 1);
  EXPECT_EQ(completed_ids(t), (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(segments_of(&t[0]), (Seg{{4e8, 0}, {6e8, 1}}));
  EXPECT_EQ(segments_of(&t[2]), (Seg{{2e8, 0}, {8e8, 1}}));
  EXPECT_EQ(segments_of(&t[1]), (Seg{{1e9, 1}}));
  EXPECT_EQ(segments_of(&t[3]), (Seg{{1e9, 1}}));
  EXPECT_EQ(fake.unreleased(), 0);
  EXPECT_EQ(fake.calls.release, 3); // one per flow, the group's once
  EXPECT_EQ(ios_tr_running(tr), 0);
}

// Which transfers join: at 0, a and b (hosts 0, 1 -> 15, key 7, 1e9 B at 1e8 B/s) share one flow; c (key 8), d (to
// host 14, key 7), e (2e9 B), f (2e8 B/s) and h (a route with a latency of 1 ms) each start their own; at 1 s, g
// (like a) starts its own (flows started at 0 take no member at 1). 7 flows for 8 transfers.
TEST_F(KernelFlows, GroupsNeedTheSameDateRouteDestinationRateAndBytes) {
  start_flows();
  auto t = transfers({1e9, 1e9, 1e9, 1e9, 2e9, 1e9, 1e9, 1e9});
  t[3].dest = host(14);
  const unsigned long long key[] = {7, 7, 8, 7, 7, 7, 7, 7};
  for (int i = 0; i < 8; i++)
    fake.keys[{t[i].host, t[i].dest}] = key[i];
  fake.latencies[{t[7].host, t[7].dest}] = 1e-3;
  t[7].latency = 1e-3; // the engine's copy of the route latency
  const double rate[] = {1e8, 1e8, 1e8, 1e8, 1e8, 2e8};
  for (int i = 0; i < 6; i++)
    ASSERT_EQ(ios_tr_set_rate(tr, &t[i], rate[i], 0), 1);
  ASSERT_EQ(ios_tr_set_rate(tr, &t[7], 1e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 6);
  EXPECT_EQ(t[0].flow, t[1].flow);
  EXPECT_EQ(fake_members(t[0].flow), 2);
  for (int i : {2, 3, 4, 5, 7})
    EXPECT_EQ(fake_members(t[i].flow), 1) << i;
  EXPECT_EQ(t[7].seg_latency, 1e-3); // a new flow pays its latency
  EXPECT_EQ(FakeFlows::of(t[7].flow)->latency, 1e-3);
  EXPECT_EQ(step(1), 0);
  ASSERT_EQ(ios_tr_set_rate(tr, &t[6], 1e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 7);
  EXPECT_EQ(fake_members(t[6].flow), 1);
  ios_tr_stop(tr, &t[0]); // the run stops: the group's flow goes (both members), the others too
  EXPECT_EQ(t[0].flow, nullptr);
  EXPECT_EQ(t[1].flow, nullptr);
  EXPECT_EQ(t[0].remaining, 9e8); // 1e9 - 1e8 x 1, kept
  EXPECT_EQ(fake.calls.cancel, 1);
  for (int i = 2; i < 8; i++)
    ios_tr_stop(tr, &t[i]);
  EXPECT_EQ(fake.calls.cancel, 7);
  EXPECT_EQ(fake.unreleased(), 0);
  EXPECT_EQ(ios_tr_running(tr), 0);
}

// options.flow_groups = 0 (the benchmark switch): the four transfers of the group above are four flows, and end as
// the group would (each 1e9/1e8 = 10 s, in the order they started).
TEST_F(KernelFlows, GroupsOffGiveOneFlowPerTransferAndTheSameEnds) {
  for (int groups : {1, 0}) {
    SCOPED_TRACE(groups ? "groups" : "no groups");
    now = 0;
    rec = Record{&now, {}, {}, 0};
    start_flows(groups);
    auto t = transfers({1e9, 1e9, 1e9, 1e9});
    for (int i = 0; i < 4; i++)
      fake.keys[{t[i].host, t[i].dest}] = 42;
    for (int i = 0; i < 4; i++)
      ASSERT_EQ(ios_tr_set_rate(tr, &t[i], 1e8, 0), 1);
    EXPECT_EQ(ios_tr_flows_started(tr), groups ? 1 : 4);
    EXPECT_EQ(ios_tr_running(tr), groups ? 1 : 4);
    EXPECT_EQ(step(100), 4);
    EXPECT_EQ(now, 10.0);
    EXPECT_EQ(rec.due, groups ? 1 : 4); // one report per flow
    EXPECT_EQ(completed_ids(t), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(fake.unreleased(), 0);
    stop();
    fake.keys.clear();
  }
  EXPECT_EQ(fake.calls.fini, 2);
}

// options.flow_restart = 1 (the benchmark switch): a new rate cancels the flow and starts the rest as a new flow. 1e9 B
// at 2.5e8 B/s; at 1 s 5e8 B/s: a new flow of 7.5e8 B, ending at 2.5 as above. Rate 0 there stops the flow too (no
// pause): 1e9 B at 2.5e8 B/s, 0 at 2 s (5e8 B kept), 5e8 B/s at 10 s: a third flow of 5e8 B, ending at 11.
TEST_F(KernelFlows, RestartCancelsAndStartsANewFlow) {
  start_flows(1, 1);
  auto t = transfers({1e9, 1e9});
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 2.5e8, 0), 1);
  EXPECT_EQ(step(1), 0);
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 5e8, 0), 1);
  EXPECT_EQ(fake.calls.set_rate, 0);
  EXPECT_EQ(fake.calls.cancel, 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 2);
  EXPECT_EQ(FakeFlows::of(t[0].flow)->bytes, 7.5e8);
  EXPECT_EQ(FakeFlows::of(t[0].flow)->rate, 5e8);
  EXPECT_EQ(step(100), 1);
  EXPECT_EQ(now, 2.5);
  EXPECT_EQ(segments_of(&t[0]), (Seg{{2.5e8, 0}, {7.5e8, 1}}));

  now = 0; // a second transfer, from 0 on a date moved back (a new operation)
  ASSERT_EQ(ios_tr_set_rate(tr, &t[1], 2.5e8, 0), 1);
  EXPECT_EQ(step(2), 0);
  EXPECT_EQ(ios_tr_set_rate(tr, &t[1], 0, 0), 0);
  EXPECT_EQ(fake.calls.pause, 0);
  EXPECT_EQ(fake.calls.cancel, 2);
  EXPECT_EQ(t[1].flow, nullptr);
  EXPECT_EQ(ios_tr_remaining(tr, &t[1]), 5e8); // 1e9 - 2.5e8 x 2
  EXPECT_EQ(ios_tr_running(tr), 0);
  now = 10;
  ASSERT_EQ(ios_tr_set_rate(tr, &t[1], 5e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 4);
  EXPECT_EQ(step(100), 1);
  EXPECT_EQ(now, 11.0); // 10 + 5e8 / 5e8
  EXPECT_EQ(segments_of(&t[1]), (Seg{{5e8, 0}, {5e8, 1}}));
  EXPECT_EQ(fake.unreleased(), 0);
}

// Rate 0 pauses the flow (ios_flow_pause) and a later rate resumes the same flow: 1e9 B at 2.5e8 B/s, paused at 2 s
// (5e8 B left), resumed at 10 s at 5e8 B/s: ends at 11, one flow. Where the flow cannot be paused (the stand-in
// refuses, as SimGrid's glue does for a flow with a latency), it is stopped with its bytes kept and the rest starts
// as a new flow: the same dates and bytes, two flows.
TEST_F(KernelFlows, PauseAtRateZeroAndResume) {
  for (bool can_pause : {true, false}) {
    SCOPED_TRACE(can_pause ? "paused" : "stopped");
    now = 0;
    rec = Record{&now, {}, {}, 0};
    fake.calls = FakeCalls{};
    fake.can_pause = can_pause;
    start_flows();
    auto t = transfers({1e9});
    ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 2.5e8, 0), 1);
    EXPECT_EQ(step(2), 0);
    EXPECT_EQ(ios_tr_set_rate(tr, &t[0], 0, 0), 0);
    EXPECT_EQ(fake.calls.pause, 1);
    EXPECT_EQ(fake.calls.paused, can_pause ? 1 : 0);
    EXPECT_EQ(fake.calls.cancel, can_pause ? 0 : 1);
    EXPECT_EQ(t[0].paused, can_pause ? 1 : 0);
    EXPECT_EQ(ios_tr_running(tr), 0);
    EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 5e8); // 1e9 - 2.5e8 x 2
    EXPECT_EQ(segments_of(&t[0]), (Seg{{5e8, 0}}));
    EXPECT_EQ(step(5), 0); // nothing ends (4 s was its date at 2.5e8 B/s)
    EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 5e8);
    now = 10;
    ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 5e8, 0), 1);
    EXPECT_EQ(fake.calls.resume, can_pause ? 1 : 0);
    EXPECT_EQ(ios_tr_flows_started(tr), can_pause ? 1 : 2);
    EXPECT_EQ(ios_tr_running(tr), 1);
    EXPECT_EQ(step(10.5), 0);
    EXPECT_EQ(ios_tr_remaining(tr, &t[0]), 2.5e8); // 5e8 - 5e8 x 0.5
    EXPECT_EQ(step(100), 1);
    EXPECT_EQ(now, 11.0); // 10 + 5e8 / 5e8
    ASSERT_EQ(rec.completions.size(), 1u);
    EXPECT_EQ(rec.completions[0].gen, 3u);
    EXPECT_EQ(segments_of(&t[0]), (Seg{{5e8, 0}, {5e8, 1}}));
    EXPECT_EQ(fake.unreleased(), 0);
    stop();
  }
}

// A member of a group at rate 0 leaves it (no pause of a shared flow) keeping its bytes: two transfers of 1e9 B at
// 1e8 B/s from 0; at 2 s transfer 1 (8e8 B left) gets 0; the group goes on with 0 alone (its 8e8 B end at
// 2 + 8e8/1e8 = 10); transfer 1 resumes at 5 s at 4e8 B/s as a new flow: 5 + 8e8/4e8 = 7.
TEST_F(KernelFlows, AGroupMemberAtRateZeroLeavesTheGroup) {
  start_flows();
  auto t = transfers({1e9, 1e9});
  fake.keys[{t[0].host, t[0].dest}] = fake.keys[{t[1].host, t[1].dest}] = 5;
  ASSERT_EQ(ios_tr_set_rate(tr, &t[0], 1e8, 0), 1);
  ASSERT_EQ(ios_tr_set_rate(tr, &t[1], 1e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 1);
  EXPECT_EQ(step(2), 0);
  EXPECT_EQ(ios_tr_set_rate(tr, &t[1], 0, 0), 0);
  EXPECT_EQ(fake.calls.leave, 1);
  EXPECT_EQ(fake.calls.pause, 0);
  EXPECT_EQ(t[1].flow, nullptr);
  EXPECT_EQ(ios_tr_remaining(tr, &t[1]), 8e8);
  EXPECT_EQ(fake.only_flow()->members, 1);
  EXPECT_EQ(fake.only_flow()->bytes, 8e8); // (2e9 - 2 x 1e8 x 2) - 8e8
  EXPECT_EQ(step(5), 0);
  ASSERT_EQ(ios_tr_set_rate(tr, &t[1], 4e8, 0), 1);
  EXPECT_EQ(ios_tr_flows_started(tr), 2);
  EXPECT_EQ(step(100), 1);
  EXPECT_EQ(now, 7.0);
  EXPECT_EQ(step(100), 1);
  EXPECT_EQ(now, 10.0);
  EXPECT_EQ(completed_ids(t), (std::vector<int>{1, 0}));
  EXPECT_EQ(segments_of(&t[1]), (Seg{{2e8, 0}, {8e8, 1}}));
  EXPECT_EQ(segments_of(&t[0]), (Seg{{1e9, 1}}));
}

} // namespace
