// Darshan logs as applications (src/inputs/darshan_workload.c, docs/darshan.md): phases reconstructed from the
// counters and from a DXT trace, compute nodes, and workload.darshan's forms and options, each against values
// computed by hand.
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const std::string fixtures = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/darshan";

std::string logs_dir() {
  const char *env = std::getenv("IOSIM_DATA_DIR");
  std::string data = env != nullptr && env[0] != '\0' ? env : std::string(IOSIM_SOURCE_DIR) + "/../shared/datasets";
  return data + "/darshan-logs";
}

// A log with no module, no trace: what a test fills in.
ios_darshan_log_t empty_log(int64_t nprocs, double runtime) {
  ios_darshan_log_t log;
  std::memset(&log, 0, sizeof log);
  log.nprocs = nprocs;
  log.runtime = runtime;
  log.dxt_module = -1;
  for (auto &m : log.module)
    m.read_start = m.read_end = m.write_start = m.write_end = -1;
  return log;
}

struct Phase {
  int kind;
  double value;
};

std::vector<Phase> phases_of(const ios_darshan_log_t &log, const ios_darshan_options_t &opt, ios_app_t *a, int *dxt) {
  std::memset(a, 0, sizeof *a);
  EXPECT_EQ(ios_darshan_app(&log, &opt, "test", a, dxt), IOS_OK) << ios_diag_message();
  std::vector<Phase> out;
  for (int i = 0; i < a->nphases; i++)
    out.push_back({a->phases[i].is_io, a->phases[i].value});
  return out;
}

void expect_phases(const std::vector<Phase> &got, const std::vector<Phase> &want, const std::string &at) {
  ASSERT_EQ(got.size(), want.size()) << at;
  for (size_t i = 0; i < want.size(); i++) {
    EXPECT_EQ(got[i].kind, want[i].kind) << at << ", phase " << i;
    EXPECT_NEAR(got[i].value, want[i].value, 1e-9 * std::max(1.0, std::fabs(want[i].value))) << at << ", phase " << i;
  }
}

} // namespace

TEST(DarshanApp, PhasesFromTheCounters) {
  // System: runtime 100 s; POSIX: 1e9 B read, 2e9 B written, cumulative read time 10 s, write time 30 s, time by the
  // slowest rank 8 s; first read at 5 s, first write at 50 s; STDIO: 1000 B written from 0 s (logging).
  // Expectations: V_read = 1e9, V_write = 2e9 + 1000; t_io = 8 s split 10:30, t_read = 2 s, t_write = 6 s; the
  // writes start with POSIX's first write (50 s; POSIX moved most of them); work W = 100 - 8 = 92 s:
  // a = s_read = 5 s, b = s_write - s_read - t_read = 50 - 5 - 2 = 43 s, c = 92 - 5 - 43 = 44 s.
  ios_darshan_log_t log = empty_log(64, 100);
  ios_darshan_module_t &p = log.module[IOS_DARSHAN_POSIX];
  p.version = 4;
  p.bytes_read = 1e9;
  p.bytes_written = 2e9;
  p.read_time = 10;
  p.write_time = 30;
  p.time_by_slowest = 8;
  p.read_start = 5;
  p.write_start = 50;
  ios_darshan_module_t &s = log.module[IOS_DARSHAN_STDIO];
  s.version = 2;
  s.bytes_written = 1000;
  s.write_start = 0;
  ios_darshan_options_t opt = ios_darshan_options_default();
  ios_app_t a;
  int dxt = -1;
  expect_phases(phases_of(log, opt, &a, &dxt),
                {{IOS_PHASE_WORK, 5},
                 {IOS_PHASE_READ, 1e9},
                 {IOS_PHASE_WORK, 43},
                 {IOS_PHASE_WRITE, 2e9 + 1000},
                 {IOS_PHASE_WORK, 44}},
                "counters");
  EXPECT_EQ(dxt, 0);
  EXPECT_EQ(a.nodes, 2); // ceil(64 / 32)
  free(a.phases);
  // Without POSIX, MPI-IO's counters are the base (noposix logs): MPI-IO 3e9 written from 20 s in 10 s, runtime 100 s.
  // Expectations: work 20, write 3e9, work 100 - 10 - 20 = 70.
  log = empty_log(64, 100);
  ios_darshan_module_t &m = log.module[IOS_DARSHAN_MPIIO];
  m.version = 3;
  m.bytes_written = 3e9;
  m.write_time = 50;
  m.time_by_slowest = 10;
  m.write_start = 20;
  expect_phases(phases_of(log, opt, &a, &dxt), {{IOS_PHASE_WORK, 20}, {IOS_PHASE_WRITE, 3e9}, {IOS_PHASE_WORK, 70}},
                "MPI-IO base");
  free(a.phases);
  // No I/O at all: one work phase of the runtime.
  log = empty_log(1, 12.5);
  expect_phases(phases_of(log, opt, &a, &dxt), {{IOS_PHASE_WORK, 12.5}}, "no I/O");
  free(a.phases);
}

TEST(DarshanApp, PhasesFromTheDxtTrace) {
  // System: runtime 10 s, 100 ranks on 3 hosts, every rank in the trace; segments (rank, direction, bytes, start, end):
  //   0 write 100 [1, 2]; 1 write 50 [1.5, 2.5]; 0 read 10 [2.55, 3]; 2 write 1000 [6, 7].
  // merge_gap 0.01 x 10 s = 0.1 s: 2.55 - 2.5 = 0.05 s joins the first burst [1, 3]; 6 - 3 = 3 s starts a second.
  // Expectations: burst 1 writes 150 B then reads 10 B (its first segment writes); it is busy 1.5 + 0.45 = 1.95 s of
  // its 2 s, the 0.05 s idle goes to the next work phase. Phases: work 1, write 150, read 10, work 3.05, write 1000,
  // work 3 (= 10 - 7); the work adds up to 10 - 1.95 - 1 = 7.05 s. Nodes: the trace's 3 hosts.
  ios_darshan_log_t log = empty_log(100, 10);
  ios_darshan_segment_t seg[] = {
      {0, 1, 0, 100, 1, 2}, {2, 1, 0, 1000, 6, 7}, {1, 1, 100, 50, 1.5, 2.5}, {0, 0, 0, 10, 2.55, 3}};
  log.segments = seg;
  log.nsegments = 4;
  log.dxt_module = IOS_DARSHAN_POSIX;
  log.dxt_hosts = 3;
  log.dxt_ranks = 100;
  ios_darshan_options_t opt = ios_darshan_options_default();
  ios_app_t a;
  int dxt = -1;
  expect_phases(phases_of(log, opt, &a, &dxt),
                {{IOS_PHASE_WORK, 1},
                 {IOS_PHASE_WRITE, 150},
                 {IOS_PHASE_READ, 10},
                 {IOS_PHASE_WORK, 3.05},
                 {IOS_PHASE_WRITE, 1000},
                 {IOS_PHASE_WORK, 3}},
                "DXT");
  EXPECT_EQ(dxt, 1);
  EXPECT_EQ(a.nodes, 3);
  free(a.phases);
  // merge_gap 0: the read 0.05 s after the writes is a burst of its own. Expectations: work 1, write 150, work 0.05,
  // read 10, work 3, write 1000, work 3.
  opt.merge_gap = 0;
  expect_phases(phases_of(log, opt, &a, &dxt),
                {{IOS_PHASE_WORK, 1},
                 {IOS_PHASE_WRITE, 150},
                 {IOS_PHASE_WORK, 0.05},
                 {IOS_PHASE_READ, 10},
                 {IOS_PHASE_WORK, 3},
                 {IOS_PHASE_WRITE, 1000},
                 {IOS_PHASE_WORK, 3}},
                "DXT, merge_gap 0");
  free(a.phases);
  // Only some ranks traced (50 of 100): the hosts are a lower bound; ceil(100 / 32) = 4 nodes.
  log.dxt_ranks = 50;
  phases_of(log, opt, &a, &dxt);
  EXPECT_EQ(a.nodes, 4);
  free(a.phases);
  // phases "counters" ignores the trace: no counter module, so one work phase of the runtime.
  opt.phases_counters = 1;
  expect_phases(phases_of(log, opt, &a, &dxt), {{IOS_PHASE_WORK, 10}}, "counters despite DXT");
  EXPECT_EQ(dxt, 0);
  free(a.phases);
}

TEST(DarshanApp, SampleDxtLogBecomesOneBurst) {
  // System: sample-dxt-simple.darshan: 16 processes, run time 1 s (whole seconds), DXT POSIX segments of 40 B
  // [0.1034, 0.1034] s and 4000 B [0.1042, 0.1042] s (darshan-dxt-parser; test/fixtures/darshan/*.expect).
  // Expectations: 0.1034 s of work, one write of 4040 B (the segments are 0.8 ms apart, under 0.01 s), the rest of the
  // second as work: the phases add up to 1 s less the segments' busy time (microseconds).
  std::string path = logs_dir() + "/sample-dxt-simple.darshan";
  ios_darshan_log_t log;
  ASSERT_EQ(ios_darshan_read(path.c_str(), &log), IOS_OK)
      << ios_diag_message() << ": set IOSIM_DATA_DIR to the folder holding darshan-logs/";
  ios_darshan_options_t opt = ios_darshan_options_default();
  ios_app_t a;
  int dxt = -1;
  std::vector<Phase> ph = phases_of(log, opt, &a, &dxt);
  ASSERT_EQ(ph.size(), 3u);
  EXPECT_EQ(ph[0].kind, IOS_PHASE_WORK);
  EXPECT_NEAR(ph[0].value, 0.1034, 5e-5);
  EXPECT_EQ(ph[1].kind, IOS_PHASE_WRITE);
  EXPECT_EQ(ph[1].value, 4040);
  EXPECT_NEAR(ph[0].value + ph[2].value, 1, 1e-3);
  EXPECT_EQ(a.nodes, 1);
  free(a.phases);
  ios_darshan_free(&log);
}

namespace {

// ios_darshan_spec on JSON text.
int spec(const std::string &json, std::vector<std::string> *paths, ios_darshan_options_t *opt) {
  cJSON *v = cJSON_Parse(json.c_str());
  char **list = nullptr;
  int n = 0;
  int rc = ios_darshan_spec(v, "s.json", &list, &n, opt);
  for (int i = 0; i < n; i++)
    paths->push_back(list[i]);
  ios_darshan_paths_free(list, n);
  cJSON_Delete(v);
  return rc;
}

} // namespace

TEST(DarshanSpec, LogDirectoryListAndOptions) {
  std::string dir = logs_dir();
  std::vector<std::string> p;
  ios_darshan_options_t o;
  // a directory: its six *.darshan files, sorted by name (COPYRIGHT and PROVENANCE.txt are not logs)
  ASSERT_EQ(spec("\"" + dir + "\"", &p, &o), IOS_OK) << ios_diag_message();
  std::vector<std::string> want = {"noposix",           "noposixopens",   "sample-badost",
                                   "sample-dxt-simple", "sample-goodost", "sample"};
  std::sort(want.begin(), want.end(),
            [](const std::string &x, const std::string &y) { return x + ".darshan" < y + ".darshan"; });
  ASSERT_EQ(p.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT_EQ(p[i], dir + "/" + want[i] + ".darshan");
  EXPECT_EQ(o.ranks_per_node, 32);
  EXPECT_EQ(o.osts, 3); // "auto": recorded on a platform whose pool is OSTs, count otherwise
  // a list of a log and a directory, with options
  p.clear();
  ASSERT_EQ(spec("{\"logs\": [\"" + dir + "/sample.darshan\", \"" + fixtures +
                     "\"], \"ranks_per_node\": 24, \"merge_gap\": 0.5, \"phases\": \"counters\", \"osts\": \"none\"}",
                 &p, &o),
            IOS_OK)
      << ios_diag_message();
  ASSERT_EQ(p.size(), 4u); // the log and test/fixtures/darshan's three
  EXPECT_EQ(p[0], dir + "/sample.darshan");
  EXPECT_EQ(o.ranks_per_node, 24);
  EXPECT_EQ(o.merge_gap, 0.5);
  EXPECT_EQ(o.phases_counters, 1);
  EXPECT_EQ(o.osts, 2);
}

TEST(DarshanSpec, BadFormsNameTheField) {
  std::vector<std::string> p;
  ios_darshan_options_t o;
  struct Case {
    std::string json, field;
  } cases[] = {
      {"{\"logs\": \"x\", \"rank_per_node\": 2}", "unknown field 'rank_per_node'"},
      {"{\"logs\": \"x\", \"ranks_per_node\": 0}", "workload.darshan.ranks_per_node"},
      {"{\"logs\": \"x\", \"merge_gap\": 2}", "workload.darshan.merge_gap"},
      {"{\"logs\": \"x\", \"osts\": \"all\"}", "workload.darshan.osts"},
      {"{\"ranks_per_node\": 2}", "workload.darshan.logs"},
      {"[]", "workload.darshan"},
      {"[3]", "workload.darshan"},
      {"\"" + std::string(IOSIM_SOURCE_DIR) + "/docs\"", "no *.darshan file"},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(spec(c.json, &p, &o), IOS_EINVAL) << c.json;
    EXPECT_NE(std::string(ios_diag_message()).find(c.field), std::string::npos) << c.json << ": " << ios_diag_message();
  }
}
