// Darshan logs replayed as a stream (workload.darshan `replay` and `compress_gaps`, docs/darshan.md "Job streams"):
// the release times of logs written by test/darshan_log_writer.h with hand-chosen start and end times, as-recorded
// with idle gaps kept or compressed, and concurrent; the sentence the run prints (standard error, results.json
// "replay"); options that contradict each other refused.
#include "darshan_log_writer.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "support.h"

#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <cstring>
#include <string>
#include <vector>

using darshan_writer::Bytes;
using darshan_writer::Log;
using darshan_writer::record;

namespace {

// A format 3.41 log of one rank writing 1e6 B to /scratch/f1 (POSIX 4: OPENS 0, WRITES 4, BYTES_WRITTEN 15; doubles
// WRITE_START 2, WRITE_END 6, WRITE_TIME 9), recorded over [start, end] s since the epoch.
std::string job_log(int64_t start, int64_t end) {
  Log l;
  l.start = start;
  l.end = end;
  Bytes b{false, ""};
  record(b, 1, 0, 69, 17, 0, {{0, 1}, {4, 1}, {15, 1000000}}, {{2, 0}, {6, 1}, {9, 1}, {14, 1}});
  l.modules[1] = {4, b.s};
  return l.build();
}

struct Stream {
  int rc;
  std::vector<double> release;
  std::string err, replay;
};

Stream replay(const std::vector<std::string> &paths, int mode, double gap) {
  ios_darshan_options_t opt = ios_darshan_options_default();
  opt.replay = mode;
  opt.compress_gaps = gap;
  std::vector<char *> p;
  for (const std::string &s : paths)
    p.push_back(const_cast<char *>(s.c_str()));
  ios_workload_t w;
  std::memset(&w, 0, sizeof w);
  testing::internal::CaptureStderr();
  Stream s;
  s.rc = ios_darshan_workload(p.data(), (int)p.size(), &opt, nullptr, &w, nullptr);
  s.err = testing::internal::GetCapturedStderr();
  for (int j = 0; j < w.napps; j++)
    s.release.push_back(w.apps[j].release);
  s.replay = w.replay;
  ios_workload_free(&w);
  return s;
}

} // namespace

TEST(DarshanReplay, ReleaseTimesAsRecordedKeptCompressedAndConcurrent) {
  // System: four logs (format 3.41: run time = end - start), given in this order: a [1000, 1010] s, b [1005, 1020],
  // c [5000, 5010], d [100000, 100001]. Busy periods of the recorded stream: [1000, 1020], [5000, 5010],
  // [100000, 100001]; idle gaps 5000 - 1020 = 3980 s and 100000 - 5010 = 94990 s.
  // Expectations:
  //  - as-recorded, gaps kept (the default): release = start - 1000: 0, 5, 4000, 99000;
  //  - compress_gaps 100 s: both gaps become 100 s: a 0, b 5, c 20 + 100 = 120, d 120 + 10 + 100 = 230
  //    (3880 + 94890 = 98770 s removed);
  //  - compress_gaps 5000 s: the second gap only: d at 4000 + 10 + 5000 = 9010 (89990 s removed);
  //  - compress_gaps 1e5 s: no gap is longer: the kept release times;
  //  - concurrent: 0 for every job.
  iosim_test::TempDir tmp;
  std::vector<std::string> logs = {
      tmp.write("a.darshan", job_log(1000, 1010)), tmp.write("b.darshan", job_log(1005, 1020)),
      tmp.write("c.darshan", job_log(5000, 5010)), tmp.write("d.darshan", job_log(100000, 100001))};
  Stream kept = replay(logs, 0, -1);
  ASSERT_EQ(kept.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(kept.release, (std::vector<double>{0, 5, 4000, 99000}));
  EXPECT_EQ(kept.replay,
            "as-recorded: released at their recorded start times; idle gaps kept (2, the longest 94990 s)");
  EXPECT_NE(kept.err.find("iosim: workload.darshan: replay as-recorded: "), std::string::npos) << kept.err;

  Stream squeezed = replay(logs, 0, 100);
  ASSERT_EQ(squeezed.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(squeezed.release, (std::vector<double>{0, 5, 120, 230}));
  EXPECT_NE(squeezed.replay.find("idle gaps compressed to 100 s (2 of 2 gaps shortened, 98770 s removed)"),
            std::string::npos)
      << squeezed.replay;
  EXPECT_NE(squeezed.err.find("compressed to 100 s"), std::string::npos) << squeezed.err;

  Stream half = replay(logs, 0, 5000);
  ASSERT_EQ(half.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(half.release, (std::vector<double>{0, 5, 4000, 9010}));
  EXPECT_NE(half.replay.find("(1 of 2 gaps shortened, 89990 s removed)"), std::string::npos) << half.replay;

  Stream loose = replay(logs, 0, 1e5);
  ASSERT_EQ(loose.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(loose.release, kept.release);
  EXPECT_NE(loose.replay.find("(0 of 2 gaps shortened, 0 s removed)"), std::string::npos) << loose.replay;

  Stream worst = replay(logs, 1, -1);
  ASSERT_EQ(worst.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(worst.release, (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(worst.replay.rfind("concurrent: every job released at 0", 0), 0u) << worst.replay;
}

TEST(DarshanReplay, OverlappingJobsLeaveNoGap) {
  // System: a [1000, 2000] s, then b [1500, 1600] s inside it, then c [1900, 2500] s overlapping a's end.
  // Expectations: one busy period [1000, 2500], no idle gap: compress_gaps 0 changes nothing (0, 500, 900).
  iosim_test::TempDir tmp;
  std::vector<std::string> logs = {tmp.write("a.darshan", job_log(1000, 2000)),
                                   tmp.write("b.darshan", job_log(1500, 1600)),
                                   tmp.write("c.darshan", job_log(1900, 2500))};
  Stream s = replay(logs, 0, 0);
  ASSERT_EQ(s.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(s.release, (std::vector<double>{0, 500, 900}));
  EXPECT_NE(s.replay.find("(0 of 0 gaps shortened"), std::string::npos) << s.replay;
}

TEST(DarshanReplay, OptionsReadAndContradictionsRefused) {
  // Expectations: "replay": "concurrent" and "compress_gaps": "1h" (3600 s) are read; both together, an unknown mode
  // and a negative gap are refused with a message naming the field.
  struct Case {
    const char *json, *field;
    int rc, replay;
    double gap;
  } cases[] = {
      {R"({"logs": "x.darshan", "replay": "concurrent"})", nullptr, IOS_OK, 1, -1},
      {R"({"logs": "x.darshan", "compress_gaps": "1h"})", nullptr, IOS_OK, 0, 3600},
      {R"({"logs": "x.darshan", "compress_gaps": false})", nullptr, IOS_OK, 0, -1},
      {R"({"logs": "x.darshan", "replay": "concurrent", "compress_gaps": 60})", "workload.darshan.compress_gaps",
       IOS_EINVAL, 0, 0},
      {R"({"logs": "x.darshan", "replay": "shifted"})", "workload.darshan.replay", IOS_EINVAL, 0, 0},
      {R"({"logs": "x.darshan", "compress_gaps": -1})", "workload.darshan.compress_gaps", IOS_EINVAL, 0, 0},
  };
  for (const Case &c : cases) {
    cJSON *spec = cJSON_Parse(c.json);
    ASSERT_NE(spec, nullptr) << c.json;
    char **paths = nullptr;
    int n = 0;
    ios_darshan_options_t opt;
    int rc = ios_darshan_spec(spec, "s.json", &paths, &n, &opt);
    EXPECT_EQ(rc, c.rc) << c.json << ": " << ios_diag_message();
    if (rc == IOS_OK) {
      EXPECT_EQ(opt.replay, c.replay) << c.json;
      EXPECT_EQ(opt.compress_gaps, c.gap) << c.json;
    } else {
      EXPECT_NE(std::string(ios_diag_message()).find(c.field), std::string::npos) << ios_diag_message();
    }
    ios_darshan_paths_free(paths, n);
    cJSON_Delete(spec);
  }
}

// ================================================================================================ recorded layouts

namespace {

// POSIX 4 record of file `id` written by rank `rank` (-1 shared): `bytes` B from 1 s for 1 s.
void posix_write(Bytes &b, uint64_t id, int64_t rank, int64_t bytes) {
  record(b, id, rank, 69, 17, 0, {{0, 1}, {4, 1}, {15, bytes}}, {{2, 1}, {6, 2}, {9, 1}, {14, 1}});
}

// LUSTRE 1 record of file `id`: the file system's OST count, stripe size 1 MiB, its OSTs (LUSTRE_OSTS, MDTS,
// STRIPE_OFFSET, STRIPE_SIZE, STRIPE_WIDTH, then the OST indices).
void lustre1(Bytes &b, uint64_t id, int64_t fs_osts, const std::vector<int64_t> &osts) {
  b.u64(id);
  b.u64((uint64_t)-1);
  for (int64_t v : {fs_osts, (int64_t)1, osts.empty() ? (int64_t)0 : osts[0], (int64_t)1048576, (int64_t)osts.size()})
    b.u64((uint64_t)v);
  for (int64_t o : osts)
    b.u64((uint64_t)o);
}

// A log of two shared files (ids 1 and 2) of bytes1 and bytes2 B on OSTs osts1 and osts2 (LUSTRE 1, slot 8).
std::string layout_log(int64_t bytes1, int64_t bytes2, const std::vector<int64_t> &osts1,
                       const std::vector<int64_t> &osts2, int64_t fs_osts) {
  Log l;
  Bytes p{false, ""}, z{false, ""};
  posix_write(p, 1, -1, bytes1);
  posix_write(p, 2, -1, bytes2);
  lustre1(z, 1, fs_osts, osts1);
  lustre1(z, 2, fs_osts, osts2);
  l.modules[1] = {4, p.s};
  l.modules[8] = {1, z.s};
  return l.build();
}

struct Layout {
  int rc;
  std::vector<int> osts;
  std::vector<double> share;
  std::string err;
};

// The given OSTs and shares of the one job of `path` on a platform of `nres` OSTs behind `noss` servers.
Layout layout(const std::string &path, int nres, int noss, long stripe_count = 0, const char *jobs = nullptr) {
  ios_platform_t p;
  std::memset(&p, 0, sizeof p);
  p.nres = nres;
  p.noss = noss;
  p.pool_role = "ost";
  ios_darshan_options_t opt = ios_darshan_options_default();
  opt.stripe_count = stripe_count;
  cJSON *j = jobs != nullptr ? cJSON_Parse(jobs) : nullptr;
  opt.jobs = j;
  char *paths[] = {const_cast<char *>(path.c_str())};
  ios_workload_t w;
  std::memset(&w, 0, sizeof w);
  testing::internal::CaptureStderr();
  Layout out;
  out.rc = ios_darshan_workload(paths, 1, &opt, &p, &w, nullptr);
  out.err = testing::internal::GetCapturedStderr();
  if (out.rc == IOS_OK && w.napps == 1 && w.apps[0].given != nullptr)
    for (int i = 0; i < w.apps[0].ngiven; i++) {
      out.osts.push_back(w.apps[0].given[i]);
      out.share.push_back(w.apps[0].given_share[i]);
    }
  ios_workload_free(&w);
  cJSON_Delete(j);
  return out;
}

} // namespace

TEST(DarshanLayout, EachFilesBytesSpreadOverItsRecordedOsts) {
  // System: a job with two files of 3e9 B each, on OSTs {0, 1} and {1, 2} of a 3-OST file system; a platform of 8
  // OSTs behind 2 servers (osts "auto": recorded, the platform's pool is OSTs).
  // Expectations: each stripe carries 1.5e9 B: OST 0 1.5e9, OST 1 3e9 (loaded twice), OST 2 1.5e9 of 6e9 B: shares
  // 0.25, 0.5, 0.25 on the platform's OSTs 0, 1, 2; no warning (the platform has more OSTs than the log's file
  // system: its OSTs 3-7 stay unused). Files of 1e9 and 3e9 B: OST 0 0.5e9, OST 1 2e9, OST 2 1.5e9 of 4e9 B.
  iosim_test::TempDir tmp;
  Layout a = layout(tmp.write("j.darshan", layout_log(3000000000, 3000000000, {0, 1}, {1, 2}, 3)), 8, 2);
  ASSERT_EQ(a.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(a.osts, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(a.share, (std::vector<double>{0.25, 0.5, 0.25}));
  EXPECT_EQ(a.err, "");
  Layout b = layout(tmp.write("k.darshan", layout_log(1000000000, 3000000000, {0, 1}, {1, 2}, 3)), 8, 2);
  ASSERT_EQ(b.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(b.share, (std::vector<double>{0.125, 0.5, 0.375}));
}

TEST(DarshanLayout, FewerOstsKeepEachFilesStripeCountAndFirstOst) {
  // System: a platform of 8 OSTs behind 2 servers (Lustre's round-robin order 0 4 1 5 2 6 3 7); logs of a 24-OST file
  // system. Job 1: files of 3e9 B on the log's OSTs {9, 10} and {20, 3}. Job 2: a file over all 24 OSTs and a file on
  // OST 5, 3e9 B each.
  // Expectations: each file keeps its stripe count and its first OST mod 8, laid out from that OST's position in the
  // round-robin order: job 1: {1, 5} (9 mod 8 = 1 at position 2) and {4, 1} (20 mod 8 = 4 at position 1): OST 1 3e9,
  // OSTs 4 and 5 1.5e9 B each: shares 0.5, 0.25, 0.25 (folding indices mod 8 would give {1, 2} and {4, 3} instead).
  // Job 2: the 24-stripe file over all 8 OSTs (3e9 / 8 each), the other on OST 5: OST 5 (0.375e9 + 3e9) / 6e9 = 0.5625,
  // every other OST 0.0625. A warning names the log's 24 OSTs and the platform's 8.
  iosim_test::TempDir tmp;
  Layout a = layout(tmp.write("j.darshan", layout_log(3000000000, 3000000000, {9, 10}, {20, 3}, 24)), 8, 2);
  ASSERT_EQ(a.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(a.osts, (std::vector<int>{1, 4, 5}));
  EXPECT_EQ(a.share, (std::vector<double>{0.5, 0.25, 0.25}));
  EXPECT_NE(a.err.find("the log's file system had 24 OSTs (0: unknown), the platform 8"), std::string::npos) << a.err;
  std::vector<int64_t> all;
  for (int64_t i = 0; i < 24; i++)
    all.push_back(i);
  Layout b = layout(tmp.write("k.darshan", layout_log(3000000000, 3000000000, all, {5}, 24)), 8, 2);
  ASSERT_EQ(b.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(b.osts, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  ASSERT_EQ(b.share.size(), 8u);
  for (int r = 0; r < 8; r++)
    EXPECT_NEAR(b.share[r], r == 5 ? 0.5625 : 0.0625, 1e-12) << "OST " << r;
}

// Whether `osts` (ascending) are the `n` consecutive positions of Lustre's round-robin order 0 4 1 5 2 6 3 7 (8 OSTs
// behind 2 servers) from some start position: what Lustre's allocator gives files placed one after the other.
static bool consecutive_in_rr_order(const std::vector<int> &osts, int n) {
  const int order[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  for (int s = 0; s < 8; s++) {
    std::vector<int> want;
    for (int i = 0; i < n; i++)
      want.push_back(order[(s + i) % 8]);
    std::sort(want.begin(), want.end());
    if (want == osts) return true;
  }
  return false;
}

TEST(DarshanLayout, RestripedFilesTakeLustresRoundRobinOrder) {
  // System: the job of the first test (files of 3e9 B on {0, 1} and {1, 2}); 8 OSTs behind 2 servers: OSTs 0-3 on
  // server 0, 4-7 on server 1, so Lustre's round-robin order is 0 4 1 5 2 6 3 7.
  // Expectations: Lustre's allocator (its start position drawn from the seed) puts each file's stripes at consecutive
  // positions of that order, the next file after them (when the start wraps past the last OST and a file has more
  // than one stripe, Lustre's offset precesses by one: lod_alloc_rr): stripe_count 1: the 2 files on 2 consecutive
  // positions (one OST of each server), shares 0.5, 0.5; stripe_count 2: 4 distinct OSTs, 0.25 each; stripe_count 3:
  // 6 distinct OSTs, 1/6 each; -1 (every OST):
  // 8 × 1/8; 12 (more than the platform has): as -1. A per-job entry (the job is named "j") overrides the global
  // count: jobs {"j": {"stripe_count": 1}} with stripe_count 4 gives the stripe_count 1 layout (the same seed, the
  // same start); jobs {"j": {"stripe_count": "recorded"}} with stripe_count 4 gives the recorded one; an entry naming
  // no job is refused (EINVAL, named).
  iosim_test::TempDir tmp;
  std::string log = tmp.write("j.darshan", layout_log(3000000000, 3000000000, {0, 1}, {1, 2}, 3));
  Layout one = layout(log, 8, 2, 1);
  EXPECT_TRUE(consecutive_in_rr_order(one.osts, 2)) << ::testing::PrintToString(one.osts);
  EXPECT_EQ(one.share, (std::vector<double>{0.5, 0.5}));
  Layout two = layout(log, 8, 2, 2);
  EXPECT_EQ(two.osts.size(), 4u) << ::testing::PrintToString(two.osts); // 4 distinct OSTs (see below)
  EXPECT_EQ(two.share, (std::vector<double>(4, 0.25)));
  Layout three = layout(log, 8, 2, 3);
  EXPECT_EQ(three.osts.size(), 6u) << ::testing::PrintToString(three.osts);
  for (double s : three.share)
    EXPECT_NEAR(s, 1.0 / 6, 1e-15);
  Layout all = layout(log, 8, 2, -1);
  EXPECT_EQ(all.osts, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(all.share, (std::vector<double>(8, 0.125)));
  EXPECT_EQ(layout(log, 8, 2, 12).share, all.share);
  Layout over = layout(log, 8, 2, 4, R"({"j": {"stripe_count": 1}})");
  EXPECT_EQ(over.osts, one.osts);
  Layout typo = layout(log, 8, 2, 4, R"({"k": {"stripe_count": 1}})"); // no job is named k
  EXPECT_EQ(typo.rc, IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("workload.darshan.jobs: k: names no job"), std::string::npos)
      << ios_diag_message();
  Layout back = layout(log, 8, 2, 4, R"({"j": {"stripe_count": "recorded"}})");
  EXPECT_EQ(back.osts, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(back.share, (std::vector<double>{0.25, 0.5, 0.25}));
}
