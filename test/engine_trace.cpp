// iosim engine tests — the Paje trace of a run through SimGrid's tracer (output.trace, --cfg=tracing:yes;
// docs/trace.md), read back with pajeng's pj_dump (Debian package pajeng, in the Makefile's DEBS). Each run is its own
// process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <dirent.h>

using namespace iosim_test;

namespace {

// The tutorial's first case (docs/tutorial.md, step 1) on one resource r0 of 1 GB/s: app1 and app2 compute 10 s then
// write 10 GB each, app3 computes 15 s then writes 4 GB; every b(1) = 1 GB/s; one node each; fairshare.
const char *const kThreeApps = R"({
  "workload": {"applications": [
    {"name": "app1", "nodes": 1, "iterations": 1, "work": "10s", "io": "10GB", "profile": {"1": "1GB/s"}},
    {"name": "app2", "nodes": 1, "iterations": 1, "work": "10s", "io": "10GB", "profile": {"1": "1GB/s"}},
    {"name": "app3", "nodes": 1, "iterations": 1, "work": "15s", "io": "4GB", "profile": {"1": "1GB/s"}}]},
  "allocation": {"policy": "fixed", "n": 1},
  "sharing": {"policy": "fairshare"},
  "output": {"progress": false, "events": true}
})";

// One row of pj_dump's output: "Variable, CONTAINER, TYPE, START, END, DURATION, VALUE" (or "Container, PARENT, TYPE,
// START, END, DURATION, NAME").
struct DumpRow {
  std::string kind, container, type;
  double start = 0, end = 0, value = 0;
  std::string name; // a container's name
};

// pj_dump's output for a trace file; fails the test when pj_dump is missing or rejects the file.
std::vector<DumpRow> pj_dump(const std::string &trace) {
  std::vector<DumpRow> rows;
  std::string cmd = "pj_dump '" + trace + "' 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    ADD_FAILURE() << "cannot run pj_dump";
    return rows;
  }
  std::string text;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0)
    text.append(buf, got);
  int status = pclose(p);
  EXPECT_EQ(status, 0) << "pj_dump (Debian package pajeng: make deps) failed on " << trace << ":\n"
                       << text.substr(0, 2000);
  for (const std::string &line : split_lines(text)) {
    std::vector<std::string> f;
    size_t at = 0, comma;
    while ((comma = line.find(", ", at)) != std::string::npos) {
      f.push_back(line.substr(at, comma - at));
      at = comma + 2;
    }
    f.push_back(line.substr(at));
    if (f.size() != 7 || (f[0] != "Variable" && f[0] != "Container")) continue;
    DumpRow r;
    r.kind = f[0];
    r.container = f[1];
    r.type = f[2];
    r.start = std::atof(f[3].c_str());
    r.end = std::atof(f[4].c_str());
    r.value = f[0] == "Variable" ? std::atof(f[6].c_str()) : 0;
    r.name = f[6];
    rows.push_back(r);
  }
  return rows;
}

// The value of variable `type` of container `container` at date t (NAN when no interval holds t).
double value_at(const std::vector<DumpRow> &rows, const std::string &container, const std::string &type, double t) {
  for (const DumpRow &r : rows)
    if (r.kind == "Variable" && r.container == container && r.type == type && r.start < t && t < r.end) return r.value;
  return NAN;
}

// ∫ value dt of variable `type` of container `container` (bytes, for a rate in bytes/s).
double integral(const std::vector<DumpRow> &rows, const std::string &container, const std::string &type) {
  double sum = 0;
  for (const DumpRow &r : rows)
    if (r.kind == "Variable" && r.container == container && r.type == type) sum += r.value * (r.end - r.start);
  return sum;
}

// The names of the containers of Paje type `type` (HOST, LINK, ROUTER).
std::set<std::string> containers(const std::vector<DumpRow> &rows, const std::string &type) {
  std::set<std::string> names;
  for (const DumpRow &r : rows)
    if (r.kind == "Container" && r.type == type) names.insert(r.name);
  return names;
}

// The variable types traced on link `link` but SimGrid's own (bandwidth, latency).
std::set<std::string> app_variables(const std::vector<DumpRow> &rows, const std::string &link) {
  std::set<std::string> types;
  for (const DumpRow &r : rows)
    if (r.kind == "Variable" && r.container == link && r.type != "bandwidth" && r.type != "latency")
      types.insert(r.type);
  return types;
}

// The names of the files of a directory.
std::set<std::string> files_in(const std::string &dir) {
  std::set<std::string> names;
  DIR *d = opendir(dir.c_str());
  for (struct dirent *e; d != nullptr && (e = readdir(d)) != nullptr;)
    if (e->d_name[0] != '.') names.insert(e->d_name);
  if (d != nullptr) closedir(d);
  return names;
}

// pj_dump parses values as single-precision floats (1/3 GB/s reads 333333344): relative error up to 6e-8.
constexpr double kPajeFloat = 1e-6;

// `iosim run scenario.json --set platform=... --out DIR/out ARGS...` in a fresh directory (SimGrid's own --cfg flags,
// which run_scenario does not pass).
SimRun run_with_args(const std::string &scenario, const std::string &platform, const std::vector<std::string> &extra) {
  SimRun run;
  run.dir = std::make_shared<TempDir>();
  run.scenario_path = run.dir->write("scenario.json", scenario);
  run.out_dir = run.dir->file("out");
  std::vector<std::string> args = {
      "run", run.scenario_path, "--set", "platform=" + run.dir->write("platform.xml", platform), "--out", run.out_dir};
  args.insert(args.end(), extra.begin(), extra.end());
  run.proc = run_iosim(args, run.dir->path(), run.dir->path());
  parse_outputs(run.out_dir, run);
  return run;
}

// Both NaN, or equal.
bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

} // namespace

// System: the tutorial's first case with output.trace; the platform names r0's link after its host, as iosim's own
// platforms do (so SimGrid loads a copy where the link is r0_link).
// Expectations (by hand, docs/tutorial.md step 1): app1 and app2 write at 0.5 GB/s over [10, 15] s, all three at
// 1/3 GB/s over [15, 27] s (app3 ends at 27 s), app1 and app2 at 0.5 GB/s over [27, 34] s. So on link r0_link:
// bapp1 = bapp2 = 0.5e9 at 12 s, 1/3e9 at 20 s and 0.5e9 at 30 s, bapp3 = 1/3e9 at 20 s and 0 at 30 s; their
// integrals are 2.5 + 4 + 3.5 = 10 GB (app1, app2) and 4 GB (app3): apps.csv's io_volume_bytes. The variable types
// on r0_link are b + each application's name and nothing else but SimGrid's bandwidth and latency; compute_fabric,
// the other link of every route, is a FATPIPE and has none; every events.csv transfer row [start, end] at rate R is the
// application's variable on r0_link over that interval. Containers: hosts c0-c2, controller, r0; links
// compute_fabric, controller_link, r0_link; router fabric. The trace forces the flow path, so the results are those
// of engine.flows=simgrid (bit for bit) and of the direct path (to 1e-12). No copy of the platform is left in $TMPDIR.
TEST(engine_trace, ThreeAppsPerLinkAndApplication) {
  std::string platform = tiny_platform_xml({1e9}, 3);
  TempDir tmp; // $TMPDIR of the run (and of the test's own directory)
  setenv("TMPDIR", tmp.path().c_str(), 1);
  SimRun run = run_scenario(kThreeApps, platform, options("run", {"output.trace=true"}));
  unsetenv("TMPDIR");
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  for (const std::string &f : files_in(tmp.path()))
    EXPECT_NE(f.rfind("iosim-platform-", 0), 0u) << "a copy of the platform was left in $TMPDIR: " << f;
  EXPECT_EQ(run.str("counts.transfers"), "simgrid-flows");
  std::vector<DumpRow> rows = pj_dump(run.out_dir + "/trace.paje");

  EXPECT_EQ(containers(rows, "HOST"), (std::set<std::string>{"c0", "c1", "c2", "controller", "r0"}));
  EXPECT_EQ(containers(rows, "LINK"), (std::set<std::string>{"compute_fabric", "controller_link", "r0_link"}));
  EXPECT_EQ(containers(rows, "ROUTER"), (std::set<std::string>{"fabric"}));
  const std::set<std::string> apps = {"bapp1", "bapp2", "bapp3"};
  EXPECT_EQ(app_variables(rows, "r0_link"), apps);
  EXPECT_TRUE(app_variables(rows, "compute_fabric").empty());
  EXPECT_TRUE(app_variables(rows, "controller_link").empty());
  EXPECT_REL(value_at(rows, "r0_link", "bandwidth", 1), 1e9, kPajeFloat);

  const double third = 1e9 / 3;
  for (const char *a : {"bapp1", "bapp2"}) {
    EXPECT_REL(value_at(rows, "r0_link", a, 12), 0.5e9, kPajeFloat) << a;
    EXPECT_REL(value_at(rows, "r0_link", a, 20), third, kPajeFloat) << a;
    EXPECT_REL(value_at(rows, "r0_link", a, 30), 0.5e9, kPajeFloat) << a;
    EXPECT_EQ(value_at(rows, "r0_link", a, 5), 0) << a;
  }
  EXPECT_REL(value_at(rows, "r0_link", "bapp3", 20), third, kPajeFloat);
  EXPECT_EQ(value_at(rows, "r0_link", "bapp3", 30), 0);
  for (const char *a : {"app1", "app2", "app3"}) {
    EXPECT_REL(integral(rows, "r0_link", std::string("b") + a), run.app(a).io_volume, kPajeFloat) << a;
    EXPECT_REL(run.app(a).io_volume, std::string(a) == "app3" ? 4e9 : 10e9, 1e-12) << a;
  }

  CsvTable events = parse_csv(read_text(run.out_dir + "/events.csv"));
  int transfers = 0;
  for (const auto &e : events) {
    if (e.at("kind") != "transfer") continue;
    transfers++;
    double t0 = std::atof(e.at("start_s").c_str()), t1 = std::atof(e.at("end_s").c_str());
    EXPECT_REL(value_at(rows, "r0_link", "b" + e.at("app"), 0.5 * (t0 + t1)), std::atof(e.at("rate_Bps").c_str()),
               kPajeFloat)
        << e.at("app") << " [" << t0 << ", " << t1 << "]";
  }
  EXPECT_EQ(transfers, 7); // 2 at 10 s, 3 at 15 s, 2 at 27 s

  SimRun flows = run_scenario(kThreeApps, platform, options("run", {"engine.flows=simgrid"}));
  SimRun direct = run_scenario(kThreeApps, platform);
  ASSERT_EQ(flows.proc.exit_code, 0) << flows.describe();
  ASSERT_EQ(direct.proc.exit_code, 0) << direct.describe();
  EXPECT_EQ(direct.str("counts.transfers"), "direct");
  EXPECT_EQ(read_text(run.out_dir + "/apps.csv"), read_text(flows.out_dir + "/apps.csv"));
  EXPECT_EQ(read_text(run.out_dir + "/events.csv"), read_text(flows.out_dir + "/events.csv"));
  const cJSON *m = run.json("metrics");
  ASSERT_NE(m, nullptr);
  for (const cJSON *it = m->child; it != nullptr; it = it->next) {
    if (!cJSON_IsNumber(it) || std::string(it->string).find("wall") != std::string::npos) continue;
    EXPECT_TRUE(same(it->valuedouble, flows.metric(it->string))) << it->string;
    EXPECT_LE(rel_err(it->valuedouble, direct.metric(it->string)), 1e-12) << it->string;
  }
}

// System: the same case stopped at the window's end (window.stop_at_end: the window is [0, 19] s, docs/tutorial.md).
// Expectations: the segments still running at 19 s are in the trace up to 19 s (events.csv leaves them out): bapp1
// and bapp2 = 1/3 GB/s and bapp3 = 1/3 GB/s over [15, 19] s, 0 after; the integrals are the volumes apps.csv counts
// in the window, 2.5 + 4/3 GB for app1 and app2 and 4/3 GB for app3.
// System: the tutorial's three applications (kThreeApps) on a generated pfs-single platform of 3 compute nodes and a
// PFS of 1 GB/s (platforms/README.md: a compute star zone and a storage zone joined by storage_fabric; compute_fabric
// and storage_fabric are shared links of 1000 TB/s). Expectations: every route c_k -> pfs crosses c_k's link,
// compute_fabric, storage_fabric and pfs; the applications' variables are drawn on the links that can bind (pfs, and
// each node's own link for the application on it), not on the two fabric links (never binding, left out like FATPIPE
// links: docs/trace.md); on pfs the sharing is the tutorial's (bapp3 = 1/3 GB/s at 20 s).
TEST(engine_trace, GeneratedFabricLinksCarryNoApplicationVariables) {
  std::string json = kThreeApps;
  json.insert(1, R"("platform": {"kind": "pfs-single", "compute": 3, "pfs_bw": 1e9},)");
  TempDir tmp;
  setenv("TMPDIR", tmp.path().c_str(), 1);
  SimRun run = run_scenario(json, "", options("run", {"output.trace=true"}));
  unsetenv("TMPDIR");
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  std::vector<DumpRow> rows = pj_dump(run.out_dir + "/trace.paje");
  const std::set<std::string> links = containers(rows, "LINK");
  ASSERT_TRUE(links.count("compute_fabric") && links.count("storage_fabric") && links.count("pfs_link"))
      << links.size();
  EXPECT_TRUE(app_variables(rows, "compute_fabric").empty());
  EXPECT_TRUE(app_variables(rows, "storage_fabric").empty());
  EXPECT_EQ(app_variables(rows, "pfs_link"), (std::set<std::string>{"bapp1", "bapp2", "bapp3"}));
  EXPECT_REL(value_at(rows, "pfs_link", "bapp3", 20), 1e9 / 3, kPajeFloat);
}

TEST(engine_trace, StoppedAtTheWindowsEnd) {
  SimRun run = run_scenario(kThreeApps, tiny_platform_xml({1e9}, 3),
                            options("run", {"output.trace=true", "window.stop_at_end=true"}));
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_EQ(run.str("status"), "stopped_at_window_end");
  std::vector<DumpRow> rows = pj_dump(run.out_dir + "/trace.paje");
  for (const char *a : {"app1", "app2", "app3"}) {
    std::string var = std::string("b") + a;
    EXPECT_REL(value_at(rows, "r0_link", var, 17), 1e9 / 3, kPajeFloat) << a;
    double expected = std::string(a) == "app3" ? 4e9 / 3 : 2.5e9 + 4e9 / 3;
    EXPECT_REL(integral(rows, "r0_link", var), expected, kPajeFloat) << a;
    EXPECT_REL(run.app(a).io_volume, expected, 1e-12) << a;
  }
}

// System: the same case with SimGrid's own flags instead of output.trace: --cfg=tracing:yes (and the file named with
// --cfg=tracing/filename), then also SimGrid's uncategorized utilization. Before output.trace these failed: SimGrid's
// tracer refused the link r0 beside the host r0 ("container r0 already present in all_containers_").
// Expectations: exit 0; the file holds the same per-application variables as output.trace's (bapp1 integrates to
// 10 GB on r0_link); with tracing/uncategorized SimGrid adds its bandwidth_used variable and the file still reads.
TEST(engine_trace, SimgridTracingFlags) {
  std::string platform = tiny_platform_xml({1e9}, 3);
  TempDir tmp;
  std::string file = tmp.file("simgrid.trace");
  SimRun run = run_with_args(kThreeApps, platform, {"--cfg=tracing:yes", "--cfg=tracing/filename:" + file});
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_EQ(run.str("counts.transfers"), "simgrid-flows");
  std::vector<DumpRow> rows = pj_dump(file);
  EXPECT_EQ(app_variables(rows, "r0_link"), (std::set<std::string>{"bapp1", "bapp2", "bapp3"}));
  EXPECT_REL(integral(rows, "r0_link", "bapp1"), 10e9, kPajeFloat);

  std::string file2 = tmp.file("uncategorized.trace");
  SimRun both =
      run_with_args(kThreeApps, platform,
                    {"--cfg=tracing:yes", "--cfg=tracing/uncategorized:yes", "--cfg=tracing/filename:" + file2});
  ASSERT_EQ(both.proc.exit_code, 0) << both.describe();
  std::set<std::string> types = app_variables(pj_dump(file2), "r0_link");
  EXPECT_EQ(types.count("bandwidth_used"), 1u);
  EXPECT_EQ(types.count("bapp1"), 1u);
}

// System: the tutorial's first case run with `--trace` and with `--set output.trace=true`. Expectations: both exit 0,
// write trace.paje and record output.trace = true in results.json; the two traces hold the same variables and the
// same integral of bapp1 (10 GB); an untraced run into the same directory removes the trace (a reused output
// directory is cleaned of every output).
TEST(engine_trace, TraceFlagIsOutputTrace) {
  std::string platform = tiny_platform_xml({1e9}, 3);
  SimRun flag = run_with_args(kThreeApps, platform, {"--trace"});
  SimRun set = run_with_args(kThreeApps, platform, {"--set", "output.trace=true"});
  for (const SimRun *r : {&flag, &set}) {
    ASSERT_EQ(r->proc.exit_code, 0) << r->describe();
    ASSERT_TRUE(file_exists(r->out_dir + "/trace.paje")) << r->describe();
    const cJSON *t = r->json("scenario.output.trace");
    EXPECT_TRUE(t != nullptr && cJSON_IsTrue(t)) << r->describe();
  }
  std::vector<DumpRow> a = pj_dump(flag.out_dir + "/trace.paje"), b = pj_dump(set.out_dir + "/trace.paje");
  EXPECT_EQ(app_variables(a, "r0_link"), app_variables(b, "r0_link"));
  EXPECT_REL(integral(a, "r0_link", "bapp1"), 10e9, kPajeFloat);
  Process again = run_iosim(
      {"run", flag.scenario_path, "--set", "platform=" + flag.dir->file("platform.xml"), "--out", flag.out_dir},
      flag.dir->path(), flag.dir->path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_FALSE(file_exists(flag.out_dir + "/trace.paje")) << "an untraced rerun leaves the old trace";
}

// System: output.trace where nothing is simulated or the run fails. Expectations: `iosim check` exits 0 and writes
// no trace (no file in an existing output directory, no directory created); a run whose sharing policy fails
// (IOSIM_FAULT=sharing:2) exits 1 and leaves neither trace.paje nor its temporary file.
TEST(engine_trace, NoTraceLeftByACheckOrAFailedRun) {
  std::string platform = tiny_platform_xml({1e9}, 3);
  TempDir tmp;
  std::string fresh = tmp.file("fresh");
  SimRun check = run_scenario(kThreeApps, platform, options("check", {"output.trace=true", "output.dir=" + fresh}));
  EXPECT_EQ(check.proc.exit_code, 0) << check.describe();
  EXPECT_FALSE(file_exists(fresh));
  std::string out = tmp.file("existing");
  ASSERT_EQ(std::system(("mkdir -p '" + out + "'").c_str()), 0);
  SimRun check2 = run_scenario(kThreeApps, platform, options("check", {"output.trace=true", "output.dir=" + out}));
  EXPECT_EQ(check2.proc.exit_code, 0) << check2.describe();
  EXPECT_TRUE(files_in(out).empty());

  setenv("IOSIM_FAULT", "sharing:2", 1);
  SimRun failed = run_scenario(kThreeApps, platform, options("run", {"output.trace=true"}));
  unsetenv("IOSIM_FAULT");
  EXPECT_EQ(failed.proc.exit_code, 1) << failed.describe();
  for (const std::string &f : files_in(failed.out_dir))
    EXPECT_EQ(f.find("trace"), std::string::npos) << f << " left in " << failed.out_dir;
}

// System: output.trace given something else than a boolean, in the file or with --set; and an application called
// "andwidth", whose trace variable would be SimGrid's `bandwidth`.
// Expectations: `iosim check` and `iosim run` exit 2 before simulating, with one line naming the scenario file, the
// field and what it must be; no results.json, no trace. The traced run of "andwidth" exits 2 naming the application.
TEST(engine_trace, BadValuesAreRejected) {
  struct Bad {
    std::string value, says;
  };
  for (const Bad &b : std::vector<Bad>{{"\"yes\"", "is a string"},
                                       {"1", "is a number"},
                                       {"null", "is null"},
                                       {"{}", "is an object"},
                                       {"[true]", "is an array"}}) {
    for (const char *command : {"check", "run"}) {
      SCOPED_TRACE(b.value + " (" + command + ")");
      SimRun r = run_scenario(kThreeApps, tiny_platform_xml({1e9}, 3), options(command, {"output.trace=" + b.value}));
      EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
      EXPECT_FALSE(r.has_results);
      EXPECT_FALSE(file_exists(r.out_dir + "/trace.paje"));
      size_t at = r.proc.err.find("iosim: error: ");
      ASSERT_NE(at, std::string::npos) << r.proc.err;
      std::string line = r.proc.err.substr(at, r.proc.err.find('\n', at) - at);
      for (const std::string &needle :
           {std::string("scenario.json: output.trace: "), b.says, std::string("true or false")})
        EXPECT_NE(line.find(needle), std::string::npos) << "the error line does not say '" << needle << "':\n" << line;
    }
  }
  // the same in the file itself
  std::string in_file = std::string(kThreeApps);
  in_file.replace(in_file.find("\"events\": true"), 14, "\"events\": true, \"trace\": \"on\"");
  SimRun r = run_scenario(in_file, tiny_platform_xml({1e9}, 3));
  EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
  EXPECT_NE(r.proc.err.find("output.trace: is a string but must be true or false"), std::string::npos) << r.proc.err;
  // an application whose trace variable would be SimGrid's own link variable `bandwidth`
  std::string named = std::string(kThreeApps);
  named.replace(named.find("\"app1\""), 6, "\"andwidth\"");
  SimRun clash = run_scenario(named, tiny_platform_xml({1e9}, 3), options("run", {"output.trace=true"}));
  EXPECT_EQ(clash.proc.exit_code, 2) << clash.describe();
  EXPECT_FALSE(clash.has_results);
  EXPECT_NE(clash.proc.err.find("andwidth: its trace variable would be 'bandwidth'"), std::string::npos)
      << clash.proc.err;
}
