// iosim engine tests — platforms that used to abort SimGrid (SIGABRT), pass `check` and then abort in `run`, or get a
// misleading message (issue 13). Each must make both `iosim check` and `iosim run` exit 2 with a message naming the
// file, the host, link or attribute at fault, its value and the fix; full-good.xml, from which they derive, runs.
// Fixtures: test/fixtures/platforms-bad/README.md.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kBad = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/platforms-bad/";

const std::string kScenario = R"({
  "workload": {"applications": [{"name": "A", "nodes": 2, "profile": {"1": 8e8}, "work": 1, "io": 1e9}]},
  "output": {"progress": false}
}
)";

// Runs `command` (check or run) on the fixture and expects exit 2, no results.json and every needle in stderr.
void expect_rejected(const std::string &fixture, const std::string &command, const std::vector<std::string> &needles) {
  SimRun r = run_scenario(kScenario, read_text(kBad + fixture), options(command));
  EXPECT_EQ(r.proc.exit_code, 2) << fixture << " " << command << ": " << r.describe();
  EXPECT_FALSE(file_exists(r.out_dir + "/results.json"));
  std::vector<std::string> all = needles;
  all.push_back(r.dir->file("platform.xml"));
  for (const auto &n : all)
    EXPECT_NE(r.proc.err.find(n), std::string::npos)
        << fixture << " " << command << ": stderr does not mention '" << n << "':\n"
        << r.proc.err;
  EXPECT_EQ(r.proc.err.find("Backtrace"), std::string::npos) << "SimGrid's abort reached the user:\n" << r.proc.err;
  EXPECT_EQ(r.proc.err.find("\n  ->"), std::string::npos) << r.proc.err;
}

void expect_rejected_both(const std::string &fixture, const std::vector<std::string> &needles) {
  expect_rejected(fixture, "check", needles);
  expect_rejected(fixture, "run", needles);
}

} // namespace

// Control: the platform the bad ones derive from passes check and runs.
TEST(engine_platform_bad, GoodFullPlatformRuns) {
  SimRun c = run_scenario(kScenario, read_text(kBad + "full-good.xml"), options("check"));
  EXPECT_EQ(c.proc.exit_code, 0) << c.describe();
  SimRun r = run_scenario(kScenario, read_text(kBad + "full-good.xml"));
  EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_TRUE(r.has_results);
}

TEST(engine_platform_bad, DuplicateLinkIsNotAnAbort) {
  expect_rejected_both("duplicate-link.xml", {"Link 'l0' declared several times", "ids must be unique"});
}

TEST(engine_platform_bad, BogusRoutingIsNotAnAbort) {
  expect_rejected_both("bogus-routing.xml", {"routing", "Not a valid model", "Full, Floyd, Dijkstra"});
}

// Only c0's routes used to be checked: c1 has no route to io1 in a Full zone.
TEST(engine_platform_bad, MissingRouteFromSecondComputeHost) {
  expect_rejected_both("full-missing-route-c1.xml", {"io1: unreachable from compute host c1", "<route>"});
}

// Only c0's nic_bw used to be read.
TEST(engine_platform_bad, BadNicOnSecondComputeHost) {
  expect_rejected_both("bad-nic-c1.xml", {"c1: compute host with the invalid \"nic_bw\" value 'abc'",
                                          "<prop id=\"nic_bw\" value=\"1.2GiBps\"/>"});
}

TEST(engine_platform_bad, DifferentNicOnSecondComputeHost) {
  expect_rejected_both("different-nic-c1.xml", {"c1: nic_bw '2GBps'", "differs from c0's", "the same nic_bw"});
}

// Was "which is not a link of the platform".
TEST(engine_platform_bad, NegativeLinkBandwidthIsNamed) {
  expect_rejected_both("negative-link-bandwidth.xml",
                       {"io0: its \"link\" property names link 'io0', whose bandwidth is -5e+09 B/s",
                        "a finite bandwidth of at least 0.001 B/s"});
  SimRun r = run_scenario(kScenario, read_text(kBad + "negative-link-bandwidth.xml"), options("check"));
  EXPECT_EQ(r.proc.err.find("not a link"), std::string::npos) << r.proc.err;
}

// A bandwidth so small that simulated times overflow: was accepted with NaN metrics.
TEST(engine_platform_bad, TinyLinkBandwidth) {
  expect_rejected_both("tiny-link-bandwidth.xml", {"io0", "whose bandwidth is 1e-300 B/s", "at least 0.001 B/s"});
}

// `iosim platform` refuses such a bandwidth too.
TEST(engine_platform_bad, GeneratorRefusesTinyBandwidth) {
  TempDir d;
  Process p = run_iosim({"platform", "forwarding", "--set", "pfs_bw=1e-300", "-o", d.file("p.xml")}, d.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_NE(p.err.find("pfs_bw"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("at least 0.001 B/s"), std::string::npos) << p.err;
  EXPECT_FALSE(file_exists(d.file("p.xml")));
}

// `iosim platform -o DIR`: was "cannot write it (Is a directory): check the permissions".
TEST(engine_platform_bad, GeneratorOutputIsADirectory) {
  TempDir d;
  Process p = run_iosim({"platform", "forwarding", "-o", d.path()}, d.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_NE(p.err.find(d.path() + ": -o: is a directory: give a file name"), std::string::npos) << p.err;
}

// A FIFO as the platform would block SimGrid's reader forever.
TEST(engine_platform_bad, FifoAsPlatform) {
  RunOptions opt = options("check");
  opt.set_platform = false;
  TempDir d;
  ASSERT_EQ(mkfifo(d.file("fifo").c_str(), 0666), 0);
  opt.sets = {"platform=" + d.file("fifo")};
  SimRun r = run_scenario(kScenario, "", opt);
  EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
  EXPECT_NE(r.proc.err.find(d.file("fifo")), std::string::npos) << r.proc.err;
}

// `check` rejects what `run` would: an output directory that is a file, or under a file.
TEST(engine_platform_bad, CheckRejectsAnOutputDirThatIsAFile) {
  for (const char *out : {"afile", "afile/sub"}) {
    RunOptions opt = options("check");
    opt.set_out = false;
    opt.extra_files = {{"afile", "x\n"}};
    opt.sets = {std::string("output.dir=") + out};
    SimRun r = run_scenario(kScenario, read_text(kBad + "full-good.xml"), opt);
    EXPECT_EQ(r.proc.exit_code, 2) << out << ": " << r.describe();
    EXPECT_NE(r.proc.err.find("output.dir"), std::string::npos) << r.proc.err;
    EXPECT_NE(r.proc.err.find("not a directory"), std::string::npos) << r.proc.err;
    EXPECT_EQ(read_text(r.dir->file("afile")), "x\n");
  }
}

TEST(engine_platform_bad, NegativeLatency) {
  expect_rejected_both("negative-latency.xml", {"l0: link latency -1 s", "from 0 to 1e6 s"});
}

TEST(engine_platform_bad, NegativeSpeed) {
  expect_rejected_both("negative-speed.xml", {"c0: host speed -1e+09 flop/s", "a finite speed >= 0"});
}

TEST(engine_platform_bad, DuplicateRouteIsNotAnAbort) {
  expect_rejected_both("duplicate-route.xml", {"The route between c0 and io0 already exists", "routes declared once"});
}

TEST(engine_platform_bad, SemicolonInResourceName) {
  expect_rejected_both("semicolon-resource.xml", {"io;1", "rename the host"});
}

// A directory given as the platform: a clear message (was "(Cannot allocate memory)"), exit 2, check and run.
TEST(engine_platform_bad, DirectoryAsPlatform) {
  for (const char *cmd : {"check", "run"}) {
    RunOptions opt = options(cmd);
    opt.set_platform = false;
    TempDir d;
    mkdir(d.file("plat").c_str(), 0777);
    opt.sets = {"platform=" + d.file("plat")};
    SimRun r = run_scenario(kScenario, "", opt);
    EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
    EXPECT_NE(r.proc.err.find(d.file("plat")), std::string::npos) << r.proc.err;
    EXPECT_NE(r.proc.err.find("directory"), std::string::npos) << r.proc.err;
    EXPECT_EQ(r.proc.err.find("Cannot allocate memory"), std::string::npos) << r.proc.err;
  }
}

// `check` of a generated platform leaves nothing in TMPDIR (it used to leave /tmp/iosim-platform-*).
TEST(engine_platform_bad, CheckOfGeneratedPlatformLeavesNoTemporaryFile) {
  TempDir tmp, work;
  std::string scen = work.write("s.json", R"({
  "platform": {"kind": "forwarding", "compute": 8, "ionodes": 2},
  "workload": {"applications": [{"name": "A", "nodes": 2, "profile": {"1": 8e8}, "work": 1, "io": 1e9}]}
}
)");
  setenv("TMPDIR", tmp.path().c_str(), 1);
  Process p = run_iosim({"check", scen}, work.path());
  unsetenv("TMPDIR");
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.out.find("(generated from the scenario)"), std::string::npos) << p.out;
  DIR *d = opendir(tmp.path().c_str());
  ASSERT_NE(d, nullptr);
  std::vector<std::string> left;
  for (struct dirent *e; (e = readdir(d)) != nullptr;)
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") left.push_back(e->d_name);
  closedir(d);
  EXPECT_TRUE(left.empty()) << "left in TMPDIR: " << (left.empty() ? "" : left[0]);
}
