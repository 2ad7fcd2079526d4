// Darshan log reader (src/inputs/darshan_*.c): every sample log of $IOSIM_DATA_DIR/darshan-logs and the logs of
// test/fixtures/darshan against the values Darshan's own darshan-parser and darshan-dxt-parser print for them
// (test/fixtures/darshan/*.expect, written by make_expectations.sh from a darshan-util built outside the project:
// see test/fixtures/darshan/README.md); synthetic logs of both byte orders and the three compressions, built here with
// hand-chosen counters; and truncated, corrupt and foreign files, which must be refused (IOS_EINVAL) naming the file
// and the region.
#include "darshan_log_writer.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string fixtures = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/darshan";

// The folder of the sample logs: $IOSIM_DATA_DIR/darshan-logs, else ../shared/datasets/darshan-logs beside the
// source tree.
std::string logs_dir() {
  const char *env = std::getenv("IOSIM_DATA_DIR");
  std::string data = env != nullptr && env[0] != '\0' ? env : std::string(IOSIM_SOURCE_DIR) + "/../shared/datasets";
  return data + "/darshan-logs";
}

bool exists(const std::string &path) {
  std::ifstream f(path);
  return f.good();
}

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The log an expectation file describes: the dataset's, or a converted one of test/fixtures/darshan.
std::string log_of(const std::string &name) {
  std::string local = fixtures + "/" + name + ".darshan";
  return exists(local) ? local : logs_dir() + "/" + name + ".darshan";
}

std::vector<std::string> expectation_names() {
  std::vector<std::string> names;
  DIR *d = opendir(fixtures.c_str());
  for (struct dirent *e = d ? readdir(d) : nullptr; e != nullptr; e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 7 && n.compare(n.size() - 7, 7, ".expect") == 0) names.push_back(n.substr(0, n.size() - 7));
  }
  if (d) closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

const ios_darshan_module_t *module_named(const ios_darshan_log_t &log, const std::string &m) {
  if (m == "POSIX") return &log.module[IOS_DARSHAN_POSIX];
  if (m == "MPI-IO") return &log.module[IOS_DARSHAN_MPIIO];
  if (m == "STDIO") return &log.module[IOS_DARSHAN_STDIO];
  return nullptr;
}

// Checks one "key value" line of an expectation file against the log; false when the key is unknown.
bool check_key(const ios_darshan_log_t &log, const std::string &key, const std::string &value, const std::string &at) {
  double v = std::atof(value.c_str());
  size_t dot = key.find('.');
  std::string m = dot == std::string::npos ? "" : key.substr(0, dot),
              f = dot == std::string::npos ? key : key.substr(dot + 1);
  if (key == "version")
    EXPECT_STREQ(log.version, value.c_str()) << at;
  else if (key == "compression")
    EXPECT_EQ(log.compression, value == "ZLIB" ? 0 : value == "BZIP2" ? 1 : 2) << at;
  else if (key == "uid")
    EXPECT_EQ(log.uid, std::atoll(value.c_str())) << at;
  else if (key == "jobid")
    EXPECT_EQ(log.jobid, std::atoll(value.c_str())) << at;
  else if (key == "start_time")
    EXPECT_EQ(std::floor(log.start_time), v) << at;
  else if (key == "end_time")
    EXPECT_EQ(std::floor(log.end_time), v) << at;
  else if (key == "nprocs")
    EXPECT_EQ(log.nprocs, std::atoll(value.c_str())) << at;
  else if (key == "runtime")
    EXPECT_NEAR(log.runtime, v, 1e-4) << at;
  else if (key == "exe")
    EXPECT_EQ(std::string(log.exe), value) << at;
  else if (key == "mounts")
    EXPECT_EQ(log.nmounts, (int)v) << at;
  else if (key == "LUSTRE.version")
    EXPECT_EQ(log.lustre_version, (int)v) << at;
  else if (key == "DXT_POSIX.version" || key == "DXT_MPIIO.version") {
    if ((log.dxt_module == IOS_DARSHAN_POSIX) == (key == "DXT_POSIX.version")) {
      EXPECT_EQ(log.dxt_version, (int)v) << at;
    }
  } else if (m == "LUSTRE") {
    int64_t stripes = 0, sum = 0, size = 0, most = 0;
    std::map<int64_t, int64_t> per_ost;
    for (int i = 0; i < log.nfiles; i++) {
      stripes += log.files[i].stripe_count;
      size = std::max(size, log.files[i].stripe_size);
      for (int j = 0; j < log.files[i].nosts; j++) {
        sum += log.files[i].osts[j];
        most = std::max(most, ++per_ost[log.files[i].osts[j]]);
      }
    }
    if (f == "files")
      EXPECT_EQ(log.nfiles, (int)v) << at;
    else if (f == "stripes")
      EXPECT_EQ(stripes, (int64_t)v) << at;
    else if (f == "ost_sum")
      EXPECT_EQ(sum, (int64_t)v) << at;
    else if (f == "distinct_osts")
      EXPECT_EQ((int64_t)per_ost.size(), (int64_t)v) << at;
    else if (f == "max_stripe_size")
      EXPECT_EQ(size, (int64_t)v) << at;
    else if (f == "max_files_per_ost")
      EXPECT_EQ(most, (int64_t)v) << at;
    else if (f == "fs_osts")
      EXPECT_EQ(log.fs_osts, (int64_t)v) << at; // Darshan 3.1.8's parser: LUSTRE_OSTS
    else
      return false;
  } else if (m == "DXT") {
    const char *mod = log.dxt_module == IOS_DARSHAN_POSIX   ? "POSIX"
                      : log.dxt_module == IOS_DARSHAN_MPIIO ? "MPIIO"
                                                            : "";
    double bytes = 0;
    for (int i = 0; i < log.nsegments; i++)
      bytes += (double)log.segments[i].length;
    if (f == "module")
      EXPECT_EQ(std::string(mod), value) << at;
    else if (f == "segments")
      EXPECT_EQ(log.nsegments, (int)v) << at;
    else if (f == "bytes")
      EXPECT_EQ(bytes, v) << at;
    else if (f == "ranks")
      EXPECT_EQ(log.dxt_ranks, (int)v) << at;
    else if (f == "hosts")
      EXPECT_EQ(log.dxt_hosts, (int)v) << at;
    else if (f == "first") {
      std::istringstream in(value);
      long long rank, write, offset, length;
      double start, end;
      in >> rank >> write >> offset >> length >> start >> end;
      EXPECT_GT(log.nsegments, 0) << at;
      if (log.nsegments == 0) return true;
      const ios_darshan_segment_t &s = log.segments[0];
      EXPECT_EQ(s.rank, rank) << at;
      EXPECT_EQ(s.write, write) << at;
      EXPECT_EQ(s.offset, offset) << at;
      EXPECT_EQ(s.length, length) << at;
      EXPECT_NEAR(s.start, start, 5e-5) << at; // printed with 4 decimals
      EXPECT_NEAR(s.end, end, 5e-5) << at;
    } else
      return false;
  } else if (const ios_darshan_module_t *mod = module_named(log, m)) {
    // times are printed with 6 decimals per record (--base) or per total (--perf): the awk sums carry that rounding
    double tol = 1e-6 * (mod->nrecords + 1) + 1e-12 * std::fabs(v);
    if (f == "version")
      EXPECT_EQ(mod->version, (int)v) << at;
    else if (f == "records")
      EXPECT_EQ(mod->nrecords, (int)v) << at;
    else if (f == "bytes_read")
      EXPECT_EQ(mod->bytes_read, v) << at;
    else if (f == "bytes_written")
      EXPECT_EQ(mod->bytes_written, v) << at;
    else if (f == "opens")
      EXPECT_EQ(mod->opens, v) << at;
    else if (f == "reads")
      EXPECT_EQ(mod->reads, v) << at;
    else if (f == "writes")
      EXPECT_EQ(mod->writes, v) << at;
    else if (f == "read_time")
      EXPECT_NEAR(mod->read_time, v, tol) << at;
    else if (f == "write_time")
      EXPECT_NEAR(mod->write_time, v, tol) << at;
    else if (f == "meta_time")
      EXPECT_NEAR(mod->meta_time, v, tol) << at;
    else if (f == "read_start")
      EXPECT_NEAR(mod->read_start, v, 1e-6) << at;
    else if (f == "read_end")
      EXPECT_NEAR(mod->read_end, v, 1e-6) << at;
    else if (f == "write_start")
      EXPECT_NEAR(mod->write_start, v, 1e-6) << at;
    else if (f == "write_end")
      EXPECT_NEAR(mod->write_end, v, 1e-6) << at;
    else if (f == "unique_slowest")
      EXPECT_NEAR(mod->unique_slowest, v, 1e-6) << at;
    else if (f == "shared_slowest")
      EXPECT_NEAR(mod->shared_slowest, v, tol) << at;
    else if (f == "time_by_slowest")
      EXPECT_NEAR(mod->time_by_slowest, v, tol) << at;
    else
      return false;
  } else {
    return false;
  }
  return true;
}

} // namespace

// Every expectation file: the log read by iosim gives the values darshan-parser / darshan-dxt-parser print.
TEST(DarshanReader, MatchesDarshanParserOnEverySampleLog) {
  std::vector<std::string> names = expectation_names();
  ASSERT_GE(names.size(), 9u) << "test/fixtures/darshan/*.expect are missing";
  for (const std::string &name : names) {
    std::string path = log_of(name);
    ASSERT_TRUE(exists(path)) << path << " is missing: set IOSIM_DATA_DIR to the folder holding darshan-logs/ (e.g. "
                              << "../shared/datasets)";
    ios_darshan_log_t log;
    ASSERT_EQ(ios_darshan_read(path.c_str(), &log), IOS_OK) << ios_diag_message();
    std::ifstream in(fixtures + "/" + name + ".expect");
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      size_t sp = line.find(' ');
      std::string key = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
      EXPECT_TRUE(check_key(log, key, value, name + ": " + key)) << name << ": unknown key " << key;
      checked++;
    }
    EXPECT_GE(checked, 10) << name;
    ios_darshan_free(&log);
  }
}

// ================================================================================================ synthetic logs

namespace {

using darshan_writer::Bytes;
using darshan_writer::compress;

// A log of format 3.`minor` with one job, two names and three POSIX (version 4) records:
//   rank 0, file 1: 1 open, 2 reads, 3 writes, 1000 B read, 5000 B written, read [1.5, 2.5] s, write [3, 4] s,
//                   times read 0.5 s, write 0.75 s, meta 0.25 s;
//   rank 1, file 1: the same with 2000 B read, 10000 B written, write [3.5, 6] s;
//   rank -1, file 2 (shared): 0 B read, 7000 B written, write [0.5, 9] s, slowest rank time 2 s.
// Job: uid 7, job id 42, 4 processes, start 1000 s (+0.25 s in 3.41), end 1010 s, exe "a.out -x", one mount.
std::string synthetic(int minor, bool big, int comp) {
  Bytes job{big, ""}, names{big, ""}, posix{big, ""};
  job.u64(7);
  job.u64(1000);
  if (minor >= 41) job.u64(250000000);
  job.u64(1010);
  if (minor >= 41) job.u64(0);
  job.u64(4);
  job.u64(42);
  std::string meta = "lib_ver=3.4.0\n";
  job.s += meta + std::string(1024 - meta.size(), '\0');
  job.s += "a.out -x\nlustre\t/scratch";
  for (uint64_t id : {1, 2}) {
    names.u64(id);
    names.s += "/scratch/f" + std::to_string(id) + std::string(1, '\0');
  }
  struct Rec {
    uint64_t id;
    int64_t rank;
    double rd, wr, rs, re, ws, we, slow;
  } recs[] = {{1, 0, 1000, 5000, 1.5, 2.5, 3, 4, 0},
              {1, 1, 2000, 10000, 1.5, 2.5, 3.5, 6, 0},
              {2, -1, 0, 7000, 0, 0, 0.5, 9, 2}};
  for (const Rec &r : recs) {
    posix.u64(r.id);
    posix.u64((uint64_t)r.rank);
    for (int c = 0; c < 69; c++)
      posix.u64(c == 0 ? 1 : c == 3 ? 2 : c == 4 ? 3 : c == 14 ? (uint64_t)r.rd : c == 15 ? (uint64_t)r.wr : 0);
    double shared = r.rank < 0;
    double f[17] = {0, r.rs, r.ws, -1,     -1, r.re, r.we, 0, shared ? 0 : 0.5, shared ? 0 : 0.75, shared ? 0 : 0.25,
                    0, 0,    0,    r.slow, 0,  0};
    for (double x : f)
      posix.f64(x);
  }
  std::string cjob = compress(job.s, comp), cnames = compress(names.s, comp), cposix = compress(posix.s, comp, 2);
  bool wide = minor >= 41;
  size_t header = wide ? 1328 : 360, slots = wide ? 64 : 16;
  Bytes h{big, ""};
  h.s = "3." + std::to_string(minor) + std::string(4, '\0');
  h.u64(6567223);
  h.s.push_back((char)comp);
  h.s += std::string(wide ? 7 : 3, '\0');
  if (wide)
    h.u64(0);
  else
    h.u32(0);
  uint64_t name_off = header + cjob.size(), posix_off = name_off + cnames.size();
  h.u64(name_off);
  h.u64(cnames.size());
  for (size_t i = 0; i < slots; i++) {
    h.u64(i == 1 ? posix_off : 0);
    h.u64(i == 1 ? cposix.size() : 0);
  }
  for (size_t i = 0; i < slots; i++)
    h.u32(i == 1 ? 4 : 0);
  EXPECT_EQ(h.s.size(), header);
  return h.s + cjob + cnames + cposix;
}

ios_darshan_log_t parse(const std::string &bytes, int expect_rc = IOS_OK) {
  ios_darshan_log_t log;
  std::memset(&log, 0, sizeof log);
  int rc = ios_darshan_parse((const unsigned char *)bytes.data(), bytes.size(), "test.darshan", &log);
  EXPECT_EQ(rc, expect_rc) << ios_diag_message();
  return log;
}

} // namespace

TEST(DarshanReader, SyntheticLogsOfBothByteOrdersAndEveryCompression) {
  // Expectations (by hand from the records above): 3 records; 3000 B read, 22000 B written; 3 opens, 6 reads,
  // 9 writes; cumulative read 1 s, write 1.5 s, meta 0.5 s (the shared record has none); unique files: ranks 0 and 1
  // each 0.5 + 0.75 + 0.25 = 1.5 s, the slowest 1.5 s; shared 2 s; time by slowest 3.5 s; reads from 1.5 to 2.5 s
  // (records with bytes read), writes from 0.5 to 9 s. Run time 1010 - 1000 + 1 = 11 s before 3.41 (whole seconds),
  // 1010 - 1000.25 = 9.75 s in 3.41.
  for (int minor : {10, 21, 41})
    for (bool big : {false, true})
      for (int comp : {0, 1, 2}) {
        std::string at = "3." + std::to_string(minor) + (big ? " big-endian" : " little-endian") + " compression " +
                         std::to_string(comp);
        ios_darshan_log_t log = parse(synthetic(minor, big, comp));
        EXPECT_EQ(log.byteswap, big ? 1 : 0) << at; // the test machine is little-endian (x86-64)
        EXPECT_EQ(log.compression, comp) << at;
        EXPECT_EQ(log.uid, 7) << at;
        EXPECT_EQ(log.jobid, 42) << at;
        EXPECT_EQ(log.nprocs, 4) << at;
        EXPECT_DOUBLE_EQ(log.runtime, minor >= 41 ? 9.75 : 11) << at;
        EXPECT_DOUBLE_EQ(log.start_time, minor >= 41 ? 1000.25 : 1000) << at;
        EXPECT_STREQ(log.exe, "a.out -x") << at;
        EXPECT_STREQ(log.metadata, "lib_ver=3.4.0\n") << at;
        ASSERT_EQ(log.nmounts, 1) << at;
        EXPECT_STREQ(log.mounts[0].type, "lustre") << at;
        EXPECT_STREQ(log.mounts[0].path, "/scratch") << at;
        EXPECT_EQ(log.nnames, 2) << at;
        const ios_darshan_module_t &p = log.module[IOS_DARSHAN_POSIX];
        EXPECT_EQ(p.version, 4) << at;
        EXPECT_EQ(p.nrecords, 3) << at;
        EXPECT_EQ(p.bytes_read, 3000) << at;
        EXPECT_EQ(p.bytes_written, 22000) << at;
        EXPECT_EQ(p.opens, 3) << at;
        EXPECT_EQ(p.reads, 6) << at;
        EXPECT_EQ(p.writes, 9) << at;
        EXPECT_DOUBLE_EQ(p.read_time, 1) << at;
        EXPECT_DOUBLE_EQ(p.write_time, 1.5) << at;
        EXPECT_DOUBLE_EQ(p.meta_time, 0.5) << at;
        EXPECT_DOUBLE_EQ(p.unique_slowest, 1.5) << at;
        EXPECT_DOUBLE_EQ(p.shared_slowest, 2) << at;
        EXPECT_DOUBLE_EQ(p.time_by_slowest, 3.5) << at;
        EXPECT_DOUBLE_EQ(p.read_start, 1.5) << at;
        EXPECT_DOUBLE_EQ(p.read_end, 2.5) << at;
        EXPECT_DOUBLE_EQ(p.write_start, 0.5) << at;
        EXPECT_DOUBLE_EQ(p.write_end, 9) << at;
        EXPECT_EQ(log.module[IOS_DARSHAN_MPIIO].version, 0) << at;
        EXPECT_EQ(log.nfiles, 0) << at;
        EXPECT_EQ(log.nsegments, 0) << at;
        ios_darshan_free(&log);
      }
}

// ================================================================================================ bad logs

namespace {

// ios_darshan_parse refuses `bytes` (IOS_EINVAL) with a message on "test.darshan" naming `region`.
void refused(const std::string &bytes, const std::string &region, const std::string &what) {
  parse(bytes, IOS_EINVAL);
  std::string msg = ios_diag_message();
  EXPECT_EQ(msg.rfind("test.darshan: ", 0), 0u) << what << ": " << msg;
  EXPECT_NE(msg.find(region), std::string::npos) << what << ": " << msg;
}

void put_u64(std::string &s, size_t at, uint64_t v) {
  for (int i = 0; i < 8; i++)
    s[at + i] = (char)(v >> (8 * i));
}

} // namespace

TEST(DarshanReader, ForeignFilesAreRefusedNamingTheHeader) {
  refused("", "header", "an empty file");
  refused("hello, world\n", "header", "a text file");
  refused(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(400, 'x'), "header", "a PNG");
  std::string log = synthetic(21, false, 0);
  std::string v2 = log;
  v2.replace(0, 4, "2.05");
  refused(v2, "format version 2.05", "a Darshan 2 log");
  std::string v305 = log;
  v305.replace(0, 4, "3.05");
  refused(v305, "format version 3.05", "a format no Darshan wrote");
  std::string magic = log;
  put_u64(magic, 8, 12345);
  refused(magic, "bad magic number", "a wrong magic number");
  std::string comp = log;
  comp[16] = 7;
  refused(comp, "compression type 7", "an unknown compression");
}

TEST(DarshanReader, TruncatedAndCorruptLogsAreRefusedNamingTheRegion) {
  std::string log = synthetic(21, false, 0);
  // System: the synthetic 3.21 log: a 360-byte header, then the job, the names and the POSIX region.
  // Expectations: cut inside the header -> "header"; cut anywhere after it -> a region the header places past the
  // end of the file ("module slot 1", the POSIX region, is the last one).
  for (size_t cut : {size_t(4), size_t(100), size_t(359)})
    refused(log.substr(0, cut), "header", "cut at " + std::to_string(cut));
  for (size_t cut = 360; cut < log.size(); cut += 37)
    refused(log.substr(0, cut), "places it at bytes", "cut at " + std::to_string(cut));
  // a flipped byte in the POSIX region's compressed data: zlib's checks catch it
  std::string flipped = log;
  flipped[log.size() - 40] ^= 0x5a;
  refused(flipped, "POSIX module", "a corrupt POSIX region");
  // a record version this reader does not know
  std::string ver = log;
  ver[296 + 4] = 9;
  refused(ver, "record version 9", "POSIX version 9");
  // a region the header places past the end
  std::string far = log;
  put_u64(far, 40 + 16 + 8, (uint64_t)1 << 40);
  refused(far, "module slot 1", "a region longer than the file");
  // a POSIX region whose length is not a whole number of records (the last stream dropped)
  std::string raw = synthetic(21, false, 2);
  refused(raw.substr(0, raw.size() - 8).append(8, '\0').substr(0, raw.size() - 100), "places it at bytes",
          "an uncompressed log cut short");
}

TEST(DarshanReader, EveryPrefixOfASampleLogIsRefusedCleanly) {
  // Expectations: a real log (sample-dxt-simple, 6,631 bytes, every module iosim reads but LUSTRE) cut at every
  // length fails with IOS_EINVAL and a message naming the file: never a crash (ASan/UBSan in the sanitizer build).
  std::string path = log_of("sample-dxt-simple");
  std::string full = slurp(path);
  ASSERT_GT(full.size(), 6000u) << path << " is missing: set IOSIM_DATA_DIR to the folder holding darshan-logs/";
  for (size_t cut = 0; cut < full.size(); cut += 13) {
    ios_darshan_log_t log;
    ASSERT_EQ(ios_darshan_parse((const unsigned char *)full.data(), cut, "cut.darshan", &log), IOS_EINVAL) << cut;
    EXPECT_EQ(std::string(ios_diag_message()).rfind("cut.darshan: ", 0), 0u) << cut;
  }
  ios_darshan_log_t log;
  ASSERT_EQ(ios_darshan_parse((const unsigned char *)full.data(), full.size(), "full.darshan", &log), IOS_OK);
  ios_darshan_free(&log);
}

TEST(DarshanReader, UnreadablePathIsAnIoError) {
  ios_darshan_log_t log;
  EXPECT_EQ(ios_darshan_read("/nonexistent/x.darshan", &log), IOS_EIO);
  EXPECT_NE(std::string(ios_diag_message()).find("/nonexistent/x.darshan"), std::string::npos);
}
