// iosim engine tests — `iosim platform` (src/inputs/ios_platgen.h) end to end: the binary writes a platform XML that
// `iosim run` then loads and simulates, with I/O times computed by hand; bad `--set` values exit with code 2 and a
// message naming the parameter. Every run is its own process (see run_helpers.h).
//
// Model used for the hand arithmetic (docs/scenario.md, RR-9502 Eq. 1): without a profile an application of Q nodes
// with n I/O nodes has b(n) = min(Q·nic_bw, n·C), C the I/O node bandwidth; its I/O operation of V bytes is n
// transfers of V/n bytes, each capped at b(n)/n; SimGrid's max-min sharing decides where a platform link (a router)
// is narrower than the caps. Latencies are 0 (platforms/README.md).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <fstream>

#include <dirent.h>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

constexpr double kTol = 1e-9;

// Runs `iosim platform ARGS... -o DIR/p.xml` and expects success; returns the platform path.
std::string make_platform(const TempDir &dir, std::vector<std::string> args) {
  std::string path = dir.file("p.xml");
  args.insert(args.begin(), "platform");
  args.push_back("-o");
  args.push_back(path);
  Process p = run_iosim(args, dir.path());
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "") << "with -o nothing goes to standard output";
  EXPECT_TRUE(file_exists(path));
  return path;
}

// One application A alone: `nodes` compute nodes, 2 I/O nodes (allocation fixed n = 2), one I/O operation of
// 5e9 bytes, no profile, on the platform at `platform` (an absolute path).
std::string scenario(const std::string &platform, int nodes) {
  return "{\"platform\": \"" + platform +
         "\", \"workload\": {\"applications\": [{\"name\": \"A\", \"nodes\": " + std::to_string(nodes) +
         ", \"io\": 5e9}]}, \"allocation\": {\"policy\": \"fixed\", \"n\": 2}, \"output\": {\"progress\": false}}";
}

RunOptions no_platform_override() {
  RunOptions o;
  o.set_platform = false;
  return o;
}

// The names of the entries of a directory (without . and ..).
std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (struct dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

} // namespace

// System: `iosim platform forwarding --set ionodes=2`: 512 compute nodes with nic_bw = 12.5e9 B/s, I/O nodes ion0,
// ion1 of C = 1.25e9 B/s, a GPFS of 20e9 B/s behind them. A: 4 nodes, n = 2, V = 5e9 B.
// Expectations: b(2) = min(4·12.5e9, 2·1.25e9) = 2.5e9 B/s (I/O-node bound); two transfers of 2.5e9 B at 1.25e9
// B/s each (Σ = 2.5e9 < 20e9 on gpfs) → io_time = V / b = 5e9 / 2.5e9 = 2 s = end; ion0 and ion1 each carry 2.5e9 B
// for 2 s. The directory holds only p.xml (no temporary file left by the atomic write).
TEST(platgen_engine, GeneratedForwardingPlatformRunsWithHandComputedIoTime) {
  auto dir = std::make_shared<TempDir>();
  std::string platform = make_platform(*dir, {"forwarding", "--set", "ionodes=2"});
  EXPECT_EQ(entries(dir->path()), std::vector<std::string>{"p.xml"});
  std::string xml = read_text(platform);
  EXPECT_NE(xml.find("<link id=\"ion1\" bandwidth=\"1250000000Bps\" latency=\"0\"/>"), std::string::npos);
  EXPECT_EQ(xml.find("ion2"), std::string::npos);

  SimRun r = run_scenario(scenario(platform, 4), "", no_platform_override());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.str("status"), "complete") << r.describe();
  EXPECT_EQ(r.resources.size(), 2u) << r.describe();
  const AppRow &a = r.app("A");
  EXPECT_EQ(a.n_resources, 2);
  EXPECT_REL(a.bandwidth, 2.5e9, kTol);
  EXPECT_REL(a.io_time, 2.0, kTol);
  EXPECT_REL(a.end, 2.0, kTol);
  EXPECT_REL(r.res("ion0").bytes, 2.5e9, kTol);
  EXPECT_REL(r.res("ion1").bytes, 2.5e9, kTol);
  EXPECT_REL(r.res("ion0").busy_time, 2.0, kTol);
}

// System: as above with `--set routers=1 --set router_bw=1GBps --set compute=8`: every compute node reaches the
// fabric through [compute_fabric, rtr0], rtr0 = 1e9 B/s. A: 4 nodes, n = 2, V = 5e9 B, caps 1.25e9 B/s per
// transfer. Expectations: both transfers cross rtr0, so max-min gives each 0.5e9 B/s: both end together at
// 2.5e9 / 0.5e9 = 5 s → io_time = 5 s (the router, not the I/O nodes, is the bottleneck: V / router_bw).
TEST(platgen_engine, RouterLinkIsOnTheIoRoute) {
  auto dir = std::make_shared<TempDir>();
  std::string platform = make_platform(*dir, {"forwarding", "--set", "ionodes=2", "--set", "routers=1", "--set",
                                              "router_bw=1GBps", "--set", "compute=8"});
  SimRun r = run_scenario(scenario(platform, 4), "", no_platform_override());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_REL(r.app("A").io_time, 5.0, kTol);
  EXPECT_REL(r.app("A").end, 5.0, kTol);
}

// Expectations: a bad --set exits with code 2, "iosim: error:" and the parameter's name on standard error, and
// writes no file (not even a temporary one).
TEST(platgen_engine, BadSetExitsWithCode2NamingTheParameter) {
  TempDir dir;
  std::string path = dir.file("p.xml");
  struct Case {
    std::vector<std::string> args;
    std::string needle;
  } cases[] = {
      {{"forwarding", "--set", "ionodes=0"}, "ionodes"},
      {{"forwarding", "--set", "ionode_bw=fast"}, "ionode_bw"},
      {{"forwarding", "--set", "ionodes=2.5"}, "ionodes"},
      {{"forwarding", "--set", "osts_per_server=2"}, "osts_per_server"},
      {{"forwarding", "--set", "ionodes"}, "--set"},
      {{"burst-buffer"}, "pfs-single"},
  };
  for (const Case &c : cases) {
    std::vector<std::string> args = {"platform"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.push_back("-o");
    args.push_back(path);
    Process p = run_iosim(args, dir.path());
    EXPECT_EQ(p.exit_code, 2) << c.needle << ": " << p.err;
    EXPECT_EQ(p.err.rfind("iosim: error: ", 0), 0u) << p.err;
    EXPECT_NE(p.err.find(c.needle), std::string::npos) << p.err;
    EXPECT_TRUE(entries(dir.path()).empty()) << c.needle << ": a file was left behind";
  }
  // Help: exit 0, lists the kinds, their parameters and units.
  Process h = run_iosim({"platform", "--help"}, dir.path());
  EXPECT_EQ(h.exit_code, 0);
  for (const char *s : {"pfs-single", "forwarding", "oss-ost", "osts_per_server", "router_bw", "bytes/s"})
    EXPECT_NE(h.out.find(s), std::string::npos) << s << " missing from:\n" << h.out;
}

// System: `iosim platform forwarding --set ionodes=2 --set compute=8` as written, then the same file with the route
// from the fabric to ion1 removed (an edit by hand). Expectations: the unedited file is recognised as generated and
// loads (iosim check: exit 0); the edited one is not, so the loader probes it in a child process: exit 2 naming ion1
// and the missing route, no SimGrid abort.
TEST(platgen_engine, AnEditedGeneratedPlatformIsProbedAgain) {
  TempDir dir;
  std::string platform = make_platform(dir, {"forwarding", "--set", "ionodes=2", "--set", "compute=8"});
  SimRun ok = run_scenario(scenario(platform, 4), "", options("check"));
  EXPECT_EQ(ok.proc.exit_code, 0) << ok.describe();
  std::string xml = read_text(platform);
  size_t at = xml.find("<route src=\"fabric\" dst=\"ion1\">");
  ASSERT_NE(at, std::string::npos) << xml;
  xml.erase(at, xml.find('\n', at) - at + 1);
  std::ofstream(platform, std::ios::trunc) << xml;
  RunOptions check = options("check");
  check.set_platform = false;
  SimRun bad = run_scenario(scenario(platform, 4), "", check);
  EXPECT_EQ(bad.proc.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.proc.err.find("ion1"), std::string::npos) << bad.proc.err;
  EXPECT_NE(bad.proc.err.find("route"), std::string::npos) << bad.proc.err;
}
