// Darshan logs of every format version and state (src/inputs/darshan_*.c, docs/darshan.md), built here by
// test/darshan_log_writer.h with hand-chosen counters: format 3.00 (Darshan 3.0: its header, name records, POSIX 1
// and MPI-IO 1 records) read as darshan-util reads it; modules and DXT traces flagged incomplete, named in a warning
// and replaced by the fullest complete source; the warning darshan-parser gives for runtime 3.2.0; DFS and DAOS
// bytes; a directory whose bad logs are all listed, and skipped with skip_bad.
#include "darshan_log_writer.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "support.h"

#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using darshan_writer::Bytes;
using darshan_writer::Log;
using darshan_writer::record;

namespace {

ios_darshan_log_t parse(const std::string &bytes) {
  ios_darshan_log_t log;
  std::memset(&log, 0, sizeof log);
  EXPECT_EQ(ios_darshan_parse((const unsigned char *)bytes.data(), bytes.size(), "test.darshan", &log), IOS_OK)
      << ios_diag_message();
  return log;
}

struct Phase {
  int kind;
  double value;
};

// The application of the log file `path` (ios_darshan_workload, which also prints the warnings) and its stderr.
struct Built {
  int rc;
  std::vector<Phase> phases;
  std::string err;
};

Built build(const std::vector<std::string> &paths, bool skip_bad = false, ios_workload_t *keep = nullptr) {
  ios_darshan_options_t opt = ios_darshan_options_default();
  opt.skip_bad = skip_bad;
  std::vector<char *> p;
  for (const std::string &s : paths)
    p.push_back(const_cast<char *>(s.c_str()));
  ios_workload_t w;
  std::memset(&w, 0, sizeof w);
  testing::internal::CaptureStderr();
  Built b;
  b.rc = ios_darshan_workload(p.data(), (int)p.size(), &opt, nullptr, &w, nullptr);
  b.err = testing::internal::GetCapturedStderr();
  if (b.rc == IOS_OK && w.napps > 0)
    for (int i = 0; i < w.apps[0].nphases; i++)
      b.phases.push_back({w.apps[0].phases[i].is_io, w.apps[0].phases[i].value});
  if (keep != nullptr)
    *keep = w;
  else
    ios_workload_free(&w);
  return b;
}

void expect_phases(const std::vector<Phase> &got, const std::vector<Phase> &want, const std::string &at) {
  ASSERT_EQ(got.size(), want.size()) << at;
  for (size_t i = 0; i < want.size(); i++) {
    EXPECT_EQ(got[i].kind, want[i].kind) << at << ", phase " << i;
    EXPECT_NEAR(got[i].value, want[i].value, 1e-9 * std::max(1.0, std::fabs(want[i].value))) << at << ", phase " << i;
  }
}

const int W = IOS_PHASE_WORK, R = IOS_PHASE_READ, WR = IOS_PHASE_WRITE;

// Counter indices (include/darshan-*-log-format.h of the versions named).
// POSIX 4: OPENS 0, READS 3, WRITES 4, BYTES_READ 14, BYTES_WRITTEN 15; doubles: READ_START 1, WRITE_START 2,
// READ_END 5, WRITE_END 6, READ_TIME 8, WRITE_TIME 9, META_TIME 10, SLOWEST_RANK_TIME 14 (MPI-IO 3 and DFS, DAOS 1
// keep these doubles).
std::string posix4(int64_t rank, int64_t rd, int64_t wr, double rs, double ws, double rt, double wt, double slow) {
  Bytes b{false, ""};
  record(b, 1, rank, 69, 17, 0, {{0, 1}, {3, rd > 0}, {4, wr > 0}, {14, rd}, {15, wr}},
         {{1, rs}, {2, ws}, {5, rs + rt}, {6, ws + wt}, {8, rt}, {9, wt}, {14, slow}});
  return b.s;
}

// MPI-IO 3: INDEP_OPENS 0, INDEP_READS 2, INDEP_WRITES 3, BYTES_READ 14, BYTES_WRITTEN 15; doubles as POSIX 4.
std::string mpiio3(int64_t rank, int64_t rd, int64_t wr, double rs, double ws, double rt, double wt, double slow) {
  Bytes b{false, ""};
  record(b, 1, rank, 51, 17, 0, {{0, 1}, {2, rd > 0}, {3, wr > 0}, {14, rd}, {15, wr}},
         {{1, rs}, {2, ws}, {5, rs + rt}, {6, ws + wt}, {8, rt}, {9, wt}, {14, slow}});
  return b.s;
}

} // namespace

// ================================================================================================ format 3.00

TEST(DarshanVersions, Format300ReadsAsDarshanUtilDoes) {
  // System: a format-3.00 log (Darshan 3.0.x: the 360-byte header of 3.10, job record without nanoseconds, name
  // records (id, 32-bit length, path)), POSIX 1 and MPI-IO 1 records (15 doubles: READ_START 1, WRITE_START 2,
  // READ_END 3, WRITE_END 4, READ_TIME 6, WRITE_TIME 7, META_TIME 8, SLOWEST_RANK_TIME 12; POSIX 1 holds four STDIO
  // counters at 6-9, so BYTES_READ is 13 and BYTES_WRITTEN 14). Job: start 1000 s, end 1010 s, 4 processes.
  //   POSIX rank 0, file 1: 1 open, 2 reads, 3 writes, 1000 B read, 5000 B written, read [1.5, 2.5] s, write
  //         [3, 4] s, times read 0.5 s, write 0.75 s, meta 0.25 s;
  //   POSIX rank -1, file 2: FOPENS = 2 (a file also opened with fopen: darshan-util drops such records), 999999 B;
  //   POSIX rank -1, file 2: 7000 B written over [0.5, 9] s, slowest rank 2 s;
  //   MPI-IO rank 0, file 1: 1 open, 1000 B read, 5000 B written, read time 0.6 s.
  // Expectations (by hand, as darshan-parser prints them): run time 1010 - 1000 + 1 = 11 s (whole-second clocks
  // before format 3.41); 2 names; POSIX: 2 records (the STDIO-mixed one dropped), 1000 B read, 12000 B written, 1 open,
  // 2 reads, 3 writes, read 0.5 s, write 0.75 s, meta 0.25 s, slowest unique rank 1.5 s + shared 2 s = 3.5 s, reads
  // [1.5, 2.5] s, writes [0.5, 9] s; MPI-IO: 1 record, 1000 B read, read time 0.6 s. The header's flag of slot 7
  // (STDIO in formats before 3.20) is module 9 (STDIO) in Darshan's current numbering.
  for (bool big : {false, true})
    for (int comp : {0, 1}) {
      std::string at = std::string(big ? "big-endian" : "little-endian") + " compression " + std::to_string(comp);
      Log l;
      l.minor = 0;
      l.big = big;
      l.comp = comp;
      l.partial = 1u << 7;
      Bytes posix{big, ""}, mpiio{big, ""};
      record(posix, 1, 0, 68, 15, 0, {{0, 1}, {1, 2}, {2, 3}, {13, 1000}, {14, 5000}},
             {{1, 1.5}, {2, 3}, {3, 2.5}, {4, 4}, {6, 0.5}, {7, 0.75}, {8, 0.25}});
      record(posix, 2, -1, 68, 15, 0, {{6, 2}, {13, 999999}}, {{6, 5}});
      record(posix, 2, -1, 68, 15, 0, {{14, 7000}}, {{2, 0.5}, {4, 9}, {12, 2}});
      record(mpiio, 1, 0, 51, 15, 0, {{0, 1}, {14, 1000}, {15, 5000}}, {{1, 1.5}, {3, 2.5}, {6, 0.6}});
      l.modules[1] = {1, posix.s};
      l.modules[2] = {1, mpiio.s};
      ios_darshan_log_t log = parse(l.build());
      EXPECT_STREQ(log.version, "3.00") << at;
      EXPECT_EQ(log.byteswap, big ? 1 : 0) << at;
      EXPECT_EQ(log.nprocs, 4) << at;
      EXPECT_EQ(log.jobid, 42) << at;
      EXPECT_DOUBLE_EQ(log.runtime, 11) << at;
      EXPECT_DOUBLE_EQ(log.start_time, 1000) << at;
      EXPECT_STREQ(log.exe, "a.out -x") << at;
      EXPECT_EQ(log.nnames, 2) << at;
      EXPECT_EQ(log.partial_modules, uint64_t(1) << 9) << at;
      EXPECT_STREQ(ios_darshan_module_name(9), "STDIO");
      const ios_darshan_module_t &p = log.module[IOS_DARSHAN_POSIX];
      EXPECT_EQ(p.version, 1) << at;
      EXPECT_EQ(p.nrecords, 2) << at;
      EXPECT_EQ(p.bytes_read, 1000) << at;
      EXPECT_EQ(p.bytes_written, 12000) << at;
      EXPECT_EQ(p.opens, 1) << at;
      EXPECT_EQ(p.reads, 2) << at;
      EXPECT_EQ(p.writes, 3) << at;
      EXPECT_DOUBLE_EQ(p.read_time, 0.5) << at;
      EXPECT_DOUBLE_EQ(p.write_time, 0.75) << at;
      EXPECT_DOUBLE_EQ(p.meta_time, 0.25) << at;
      EXPECT_DOUBLE_EQ(p.time_by_slowest, 3.5) << at;
      EXPECT_DOUBLE_EQ(p.read_start, 1.5) << at;
      EXPECT_DOUBLE_EQ(p.read_end, 2.5) << at;
      EXPECT_DOUBLE_EQ(p.write_start, 0.5) << at;
      EXPECT_DOUBLE_EQ(p.write_end, 9) << at;
      const ios_darshan_module_t &m = log.module[IOS_DARSHAN_MPIIO];
      EXPECT_EQ(m.version, 1) << at;
      EXPECT_EQ(m.nrecords, 1) << at;
      EXPECT_EQ(m.bytes_read, 1000) << at;
      EXPECT_DOUBLE_EQ(m.read_time, 0.6) << at;
      ios_darshan_free(&log);
    }
}

TEST(DarshanVersions, Posix2RecordsOfFormat310) {
  // System: format 3.10 with a POSIX 2 region (Darshan 3.1.0: 64 integer counters, BYTES_READ 9, BYTES_WRITTEN 10,
  // and the 15 doubles of POSIX 1): rank 3, 4096 B read over [2, 3] s (read time 1 s), 8192 B written.
  // Expectations: 4096 B read, 8192 B written, read [2, 3] s, read time 1 s, time by the slowest rank 1 s.
  Log l;
  l.minor = 10;
  Bytes posix{false, ""};
  record(posix, 1, 3, 64, 15, 0, {{9, 4096}, {10, 8192}}, {{1, 2}, {3, 3}, {6, 1}});
  l.modules[1] = {2, posix.s};
  ios_darshan_log_t log = parse(l.build());
  const ios_darshan_module_t &p = log.module[IOS_DARSHAN_POSIX];
  EXPECT_EQ(p.version, 2);
  EXPECT_EQ(p.bytes_read, 4096);
  EXPECT_EQ(p.bytes_written, 8192);
  EXPECT_DOUBLE_EQ(p.read_start, 2);
  EXPECT_DOUBLE_EQ(p.read_end, 3);
  EXPECT_DOUBLE_EQ(p.time_by_slowest, 1);
  ios_darshan_free(&log);
}

TEST(DarshanVersions, Format300NameRecordCutShortIsRefused) {
  // Expectations: a 3.00 name record whose length runs past the region is refused naming the name records.
  Log l;
  l.minor = 0;
  l.names = {{1, "/a"}};
  l.comp = 2; // uncompressed: the name region, the last one, ends with the length (4 bytes) and the path "/a"
  std::string bytes = l.build();
  size_t at = bytes.size() - 2 - 4;
  bytes[at] = (char)0xe8;
  bytes[at + 1] = 3;
  ios_darshan_log_t log;
  EXPECT_EQ(ios_darshan_parse((const unsigned char *)bytes.data(), bytes.size(), "t.darshan", &log), IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("t.darshan: name records: record 1 is cut short"), std::string::npos)
      << ios_diag_message();
}

// ================================================================================================ incomplete modules

TEST(DarshanStates, IncompletePosixGivesWayToCompleteMpiio) {
  // System: format 3.21, 11 s; POSIX flagged incomplete (header bit 1): shared file, 1e6 B read from 1 s, 2e6 B
  // written from 5 s, slowest rank 1 s; MPI-IO complete: 4e6 B read from 1 s, 8e6 B written from 5 s, cumulative
  // read 1 s and write 3 s, slowest rank 3 s.
  // Expectations: the volume comes from MPI-IO: t_io = 3 s split 1:3, t_read = 0.75 s, t_write = 2.25 s; work
  // 11 - 3 = 8 s: a = 1, b = 5 - 1 - 0.75 = 3.25, c = 8 - 1 - 3.25 = 3.75 s; a warning names the POSIX module and
  // MPI-IO. Without the flag: POSIX's volumes and no warning.
  iosim_test::TempDir tmp;
  Log l;
  l.minor = 21;
  l.partial = 1u << 1;
  l.modules[1] = {4, posix4(-1, 1000000, 2000000, 1, 5, 0.5, 0.5, 1)};
  l.modules[2] = {3, mpiio3(-1, 4000000, 8000000, 1, 5, 1, 3, 3)};
  Built b = build({tmp.write("p.darshan", l.build())});
  ASSERT_EQ(b.rc, IOS_OK) << ios_diag_message();
  expect_phases(b.phases, {{W, 1}, {R, 4e6}, {W, 3.25}, {WR, 8e6}, {W, 3.75}}, "POSIX incomplete");
  EXPECT_NE(b.err.find("p.darshan: POSIX module: flagged incomplete"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("complete MPI-IO module instead"), std::string::npos) << b.err;
  l.partial = 0;
  Built c = build({tmp.write("c.darshan", l.build())});
  ASSERT_EQ(c.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(c.err, "");
  ASSERT_EQ(c.phases.size(), 5u);
  EXPECT_EQ(c.phases[1].value, 1e6);
  EXPECT_EQ(c.phases[3].value, 2e6);
  // both incomplete: the one that moved more bytes (MPI-IO, 12e6 B against 3e6 B), said to be a lower bound
  l.partial = (1u << 1) | (1u << 2);
  Built d = build({tmp.write("d.darshan", l.build())});
  ASSERT_EQ(d.rc, IOS_OK) << ios_diag_message();
  EXPECT_EQ(d.phases[1].value, 4e6);
  EXPECT_NE(d.err.find("d.darshan: MPI-IO module: flagged incomplete"), std::string::npos) << d.err;
  EXPECT_NE(d.err.find("a lower bound"), std::string::npos) << d.err;
}

TEST(DarshanStates, TruncatedDxtTraceGivesWayToTheCounters) {
  // System: format 3.41, 10 s (start 1000.0, end 1010.0); POSIX rank 0: 1e6 B read from 2 s, read time 1 s; a
  // DXT POSIX 2 trace of that rank holding one read of 65,536 B over [2, 2.1] s, flagged incomplete (bit 10).
  // Expectations: phases from the counters: work 2 s, read 1e6 B, work 10 - 1 - 2 = 7 s, and a warning naming
  // DXT_POSIX. Without the flag: from the trace: work 2 s, read 65,536 B, work 7.9 s.
  iosim_test::TempDir tmp;
  Log l;
  l.modules[1] = {4, posix4(0, 1000000, 0, 2, 0, 1, 0, 0)};
  Bytes dxt{false, ""};
  dxt.u64(1);
  dxt.u64(0);
  dxt.u64(0);
  dxt.s += "n1" + std::string(62, '\0');
  dxt.u64(0); // writes
  dxt.u64(1); // reads
  dxt.u64(0);
  dxt.u64(65536);
  dxt.f64(2);
  dxt.f64(2.1);
  dxt.u64(0); // thread id (DXT POSIX 2)
  l.modules[10] = {2, dxt.s};
  l.partial = uint64_t(1) << 10;
  Built b = build({tmp.write("t.darshan", l.build())});
  ASSERT_EQ(b.rc, IOS_OK) << ios_diag_message();
  expect_phases(b.phases, {{W, 2}, {R, 1e6}, {W, 7}}, "truncated DXT");
  EXPECT_NE(b.err.find("t.darshan: DXT_POSIX module: flagged incomplete"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("the phases come from the counters instead"), std::string::npos) << b.err;
  l.partial = 0;
  Built c = build({tmp.write("c.darshan", l.build())});
  ASSERT_EQ(c.rc, IOS_OK) << ios_diag_message();
  expect_phases(c.phases, {{W, 2}, {R, 65536}, {W, 7.9}}, "complete DXT");
  EXPECT_EQ(c.err, "");
}

TEST(DarshanStates, Runtime320LogsGetDarshanParsersWarning) {
  // Expectations: format 3.20 (only runtime 3.2.0 wrote it) gets the warning about corrupted COMMON_ACCESS counters;
  // the same log as 3.21 none.
  iosim_test::TempDir tmp;
  Log l;
  l.minor = 20;
  l.modules[1] = {4, posix4(0, 100, 0, 1, 0, 1, 0, 0)};
  Built b = build({tmp.write("old.darshan", l.build())});
  ASSERT_EQ(b.rc, IOS_OK) << ios_diag_message();
  EXPECT_NE(b.err.find("old.darshan: header: format 3.20 is written by Darshan runtime 3.2.0"), std::string::npos)
      << b.err;
  EXPECT_NE(b.err.find("COMMON_ACCESS counters in the POSIX, MPI-IO and H5 modules"), std::string::npos) << b.err;
  l.minor = 21;
  Built c = build({tmp.write("new.darshan", l.build())});
  EXPECT_EQ(c.err, "");
}

// ================================================================================================ DFS and DAOS

TEST(DarshanStates, DfsBytesCountAsFileIo) {
  // System: format 3.41, 10 s, no POSIX nor MPI-IO; DFS 1 (slot 16; 52 integers: READS 4, WRITES 6, BYTES_READ 14,
  // BYTES_WRITTEN 15; then 15 doubles as MPI-IO 3's first 15; two UUIDs): 4096 B read from 1 s, 8192 B written from
  // 4 s, read and write times 1 s each, slowest rank 2 s; DAOS 1 (slot 17; BYTES_READ 24, BYTES_WRITTEN 25; 48
  // trailing bytes): 4200 B read, 8300 B written (DFS's calls seen again below it); STDIO 2: 100 B written at 0 s.
  // Expectations: reader: DFS 4096 / 8192 B, 1 read, 1 write; DAOS 4200 / 8300 B. Application: DFS + STDIO, not DAOS:
  // read 4096 B, write 8292 B; t_io = 2 s split 1:1; work 10 - 2 = 8 s: a = 1, b = 4 - 1 - 1 = 2, c = 5 s.
  // Without the DFS region, DAOS gives the volume: read 4200 B, write 8400 B.
  iosim_test::TempDir tmp;
  Log l;
  Bytes dfs{false, ""}, daos{false, ""}, stdio{false, ""};
  record(dfs, 1, -1, 52, 15, 32, {{0, 1}, {4, 1}, {6, 1}, {14, 4096}, {15, 8192}},
         {{1, 1}, {2, 4}, {5, 2}, {6, 5}, {8, 1}, {9, 1}, {14, 2}});
  record(daos, 1, -1, 64, 15, 48, {{10, 1}, {11, 1}, {24, 4200}, {25, 8300}},
         {{1, 1}, {2, 4}, {5, 2}, {6, 5}, {8, 1}, {9, 1}, {14, 2}});
  record(stdio, 2, 0, 14, 15, 0, {{3, 1}, {6, 100}}, {{5, 0}, {9, 0}});
  l.modules[16] = {1, dfs.s};
  l.modules[17] = {1, daos.s};
  l.modules[9] = {2, stdio.s};
  std::string bytes = l.build();
  ios_darshan_log_t log = parse(bytes);
  EXPECT_EQ(log.module[IOS_DARSHAN_DFS].version, 1);
  EXPECT_EQ(log.module[IOS_DARSHAN_DFS].bytes_read, 4096);
  EXPECT_EQ(log.module[IOS_DARSHAN_DFS].bytes_written, 8192);
  EXPECT_EQ(log.module[IOS_DARSHAN_DFS].reads, 1);
  EXPECT_EQ(log.module[IOS_DARSHAN_DFS].writes, 1);
  EXPECT_DOUBLE_EQ(log.module[IOS_DARSHAN_DFS].time_by_slowest, 2);
  EXPECT_EQ(log.module[IOS_DARSHAN_DAOS].bytes_read, 4200);
  EXPECT_EQ(log.module[IOS_DARSHAN_DAOS].bytes_written, 8300);
  EXPECT_EQ(log.module[IOS_DARSHAN_STDIO].bytes_written, 100);
  ios_darshan_free(&log);
  Built b = build({tmp.write("dfs.darshan", bytes)});
  ASSERT_EQ(b.rc, IOS_OK) << ios_diag_message();
  expect_phases(b.phases, {{W, 1}, {R, 4096}, {W, 2}, {WR, 8292}, {W, 5}}, "DFS");
  l.modules.erase(16);
  Built c = build({tmp.write("daos.darshan", l.build())});
  ASSERT_EQ(c.rc, IOS_OK) << ios_diag_message();
  expect_phases(c.phases, {{W, 1}, {R, 4200}, {W, 2}, {WR, 8400}, {W, 5}}, "DAOS");
}

// ================================================================================================ directories

TEST(DarshanStates, EveryBadLogOfADirectoryIsListedAndSkipBadReplaysTheRest) {
  // System: a directory of four logs: a.darshan (start 1000 s) and c.darshan (start 1500 s) good, b.darshan cut
  // short, d.darshan a text file.
  // Expectations: without skip_bad, IOS_EINVAL with "2 of 4 Darshan logs refused" and both bad files on stderr;
  // with skip_bad, the two good logs as applications released at 0 and 500 s, and "skipped 2 of 4".
  iosim_test::TempDir tmp;
  Log l;
  l.minor = 21;
  l.modules[1] = {4, posix4(0, 100, 0, 1, 0, 1, 0, 0)};
  std::string good = l.build();
  l.start = 1500;
  l.end = 1510;
  tmp.write("logs/a.darshan", good);
  tmp.write("logs/b.darshan", good.substr(0, good.size() - 20));
  tmp.write("logs/c.darshan", l.build());
  tmp.write("logs/d.darshan", "not a log\n");
  cJSON *spec = cJSON_CreateString(tmp.file("logs").c_str());
  char **paths = nullptr;
  int n = 0;
  ios_darshan_options_t opt;
  ASSERT_EQ(ios_darshan_spec(spec, "s.json", &paths, &n, &opt), IOS_OK) << ios_diag_message();
  ASSERT_EQ(n, 4);
  std::vector<std::string> list(paths, paths + n);
  ios_darshan_paths_free(paths, n);
  cJSON_Delete(spec);
  Built b = build(list);
  EXPECT_EQ(b.rc, IOS_EINVAL);
  std::string msg = ios_diag_message();
  EXPECT_NE(msg.find("2 of 4 Darshan logs refused"), std::string::npos) << msg;
  EXPECT_NE(msg.find("skip_bad"), std::string::npos) << msg;
  EXPECT_NE(b.err.find("iosim: refused: " + tmp.file("logs/b.darshan") + ": "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("iosim: refused: " + tmp.file("logs/d.darshan") + ": header"), std::string::npos) << b.err;
  ios_workload_t w;
  Built c = build(list, true, &w);
  ASSERT_EQ(c.rc, IOS_OK) << ios_diag_message();
  ASSERT_EQ(w.napps, 2);
  EXPECT_STREQ(w.apps[0].name, "a");
  EXPECT_STREQ(w.apps[1].name, "c");
  EXPECT_DOUBLE_EQ(w.apps[0].release, 0);
  EXPECT_DOUBLE_EQ(w.apps[1].release, 500);
  EXPECT_NE(c.err.find("iosim: skipped: " + tmp.file("logs/b.darshan")), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("skipped 2 of 4 Darshan logs"), std::string::npos) << c.err;
  ios_workload_free(&w);
  // every log bad: nothing to replay, an error even with skip_bad
  Built d = build({tmp.file("logs/b.darshan"), tmp.file("logs/d.darshan")}, true);
  EXPECT_EQ(d.rc, IOS_EINVAL);
  EXPECT_NE(std::string(ios_diag_message()).find("none is left to replay"), std::string::npos) << ios_diag_message();
}
