// iosim tests — a small writer of Darshan logs in the binary format darshan-util reads (include/darshan-log-format.h
// and darshan-logutils.c of darshan-hpc/darshan): the uncompressed header (version string, magic number, compression,
// partial flags, the map of regions and the module versions), then the job region (job record, executable, mount
// table), the name records and one region per module, each compressed with zlib or bzip2 (or not). The tests fill
// the module records with hand-chosen counters, so every value the reader returns is known by construction.
#ifndef IOSIM_TEST_DARSHAN_LOG_WRITER_H
#define IOSIM_TEST_DARSHAN_LOG_WRITER_H

#include <bzlib.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace darshan_writer {

// Writes integers in little- or big-endian order.
struct Bytes {
  bool big;
  std::string s;
  void u64(uint64_t v) {
    for (int i = 0; i < 8; i++)
      s.push_back((char)(v >> (8 * (big ? 7 - i : i))));
  }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; i++)
      s.push_back((char)(v >> (8 * (big ? 3 - i : i))));
  }
  void f64(double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    u64(v);
  }
};

// Compresses `raw` as `comp` (0 zlib, 1 bzip2, 2 none); the data is cut into `streams` streams back to back, as
// Darshan's ranks write them.
inline std::string compress(const std::string &raw, int comp, int streams = 1) {
  if (comp == 2) return raw;
  std::string out;
  size_t part = (raw.size() + streams - 1) / streams;
  for (size_t at = 0; at < raw.size(); at += part) {
    std::string piece = raw.substr(at, part);
    std::vector<char> buf(piece.size() * 2 + 1024);
    if (comp == 0) {
      uLongf n = buf.size();
      compress2((Bytef *)buf.data(), &n, (const Bytef *)piece.data(), piece.size(), 6);
      out.append(buf.data(), n);
    } else {
      unsigned n = buf.size();
      BZ2_bzBuffToBuffCompress(buf.data(), &n, piece.data(), piece.size(), 9, 0, 0);
      out.append(buf.data(), n);
    }
  }
  return out;
}

// One counter record: base record (id, rank), `nint` integer counters, `nf` double counters, `tail` zero bytes; the
// counters not given are 0.
inline void record(Bytes &b, uint64_t id, int64_t rank, int nint, int nf, int tail, const std::map<int, int64_t> &ints,
                   const std::map<int, double> &fl) {
  b.u64(id);
  b.u64((uint64_t)rank);
  for (int c = 0; c < nint; c++)
    b.u64(ints.count(c) ? (uint64_t)ints.at(c) : 0);
  for (int c = 0; c < nf; c++)
    b.f64(fl.count(c) ? fl.at(c) : 0);
  b.s.append((size_t)tail, '\0');
}

// A whole log of format 3.`minor`. Module regions are given by their slot in that format's header.
struct Log {
  int minor = 41;
  bool big = false;
  int comp = 0;
  uint64_t partial = 0; // bit i: the module of header slot i is flagged incomplete
  int64_t uid = 7, start = 1000, start_ns = 0, end = 1010, end_ns = 0, nprocs = 4, jobid = 42;
  std::string exe = "a.out -x";
  std::vector<std::pair<uint64_t, std::string>> names = {{1, "/scratch/f1"}, {2, "/scratch/f2"}};
  std::map<int, std::pair<uint32_t, std::string>> modules; // slot -> (record version, uncompressed records)

  Bytes bytes() const { return Bytes{big, ""}; }

  std::string build() const {
    Bytes job = bytes(), nm = bytes();
    job.u64((uint64_t)uid);
    job.u64((uint64_t)start);
    if (minor >= 41) job.u64((uint64_t)start_ns);
    job.u64((uint64_t)end);
    if (minor >= 41) job.u64((uint64_t)end_ns);
    job.u64((uint64_t)nprocs);
    job.u64((uint64_t)jobid);
    std::string meta = "lib_ver=3.0.0\n";
    job.s += meta + std::string(1024 - meta.size(), '\0');
    job.s += exe + "\nlustre\t/scratch";
    for (const auto &n : names) {
      nm.u64(n.first);
      if (minor == 0) { // 3.00: (id, 32-bit length, path without NUL)
        nm.u32((uint32_t)n.second.size());
        nm.s += n.second;
      } else {
        nm.s += n.second + std::string(1, '\0');
      }
    }
    bool wide = minor >= 41;
    size_t header = wide ? 1328 : 360, slots = wide ? 64 : 16;
    std::string cjob = compress(job.s, comp), cnames = compress(nm.s, comp), body;
    std::map<int, std::pair<uint64_t, uint64_t>> where;
    uint64_t off = header + cjob.size() + cnames.size();
    for (const auto &m : modules) {
      std::string c = compress(m.second.second, comp, 2);
      where[m.first] = {off, c.size()};
      off += c.size();
      body += c;
    }
    Bytes h = bytes();
    char ver[8] = {0};
    std::snprintf(ver, sizeof ver, "3.%02d", minor);
    h.s.assign(ver, 8);
    h.u64(6567223);
    h.s.push_back((char)comp);
    h.s += std::string(wide ? 7 : 3, '\0');
    if (wide)
      h.u64(partial);
    else
      h.u32((uint32_t)partial);
    h.u64(header + cjob.size());
    h.u64(cnames.size());
    for (size_t i = 0; i < slots; i++) {
      h.u64(where.count((int)i) ? where[(int)i].first : 0);
      h.u64(where.count((int)i) ? where[(int)i].second : 0);
    }
    for (size_t i = 0; i < slots; i++)
      h.u32(modules.count((int)i) ? modules.at((int)i).first : 0);
    return h.s + cjob + cnames + body;
  }
};

} // namespace darshan_writer

#endif
