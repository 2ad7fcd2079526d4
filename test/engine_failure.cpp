// iosim engine tests — a policy that fails during the run (src/sim/state.c sim_fail): the run stops, exits 1 with a
// message naming the scenario, the policy's field, the policy and the date, and leaves no output that looks
// complete. The failure is injected with IOSIM_FAULT=SITE:K (the K-th call at SITE fails as out of memory). Each run
// is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

// `iosim run deploy/NAME.json -o OUT` with IOSIM_FAULT=fault ("" = unset).
Process run_deploy(const TempDir &dir, const std::string &name, const std::string &fault) {
  if (fault.empty())
    unsetenv("IOSIM_FAULT");
  else
    setenv("IOSIM_FAULT", fault.c_str(), 1);
  Process p = run_iosim({"run", std::string(IOSIM_SOURCE_DIR) + "/deploy/" + name + ".json", "-o", dir.file("out")},
                        dir.path());
  unsetenv("IOSIM_FAULT");
  return p;
}

// The files of the output directory.
std::vector<std::string> outputs(const TempDir &dir) {
  std::vector<std::string> v;
  if (std::filesystem::exists(dir.file("out")))
    for (const auto &e : std::filesystem::directory_iterator(dir.file("out")))
      v.push_back(e.path().filename().string());
  return v;
}

} // namespace

// System: three deploy/ scenarios, each with the policy of one site failing on one of its first calls: fairshare
// sharing on the forwarding platform (default.json, 5th call), optimized-striping on the IOR job (tappio-ior.json,
// 2nd call), the re-arbitration of the IPDPS'21 queue (ipdps21-queue.json, 2nd call); and each without a failure.
// Expectations: without IOSIM_FAULT each completes (exit 0, results.json). With it: exit 1; one line "iosim: error:"
// naming the scenario file, the site's field, the policy and "failed at t = ... (out of memory)"; no results.json,
// apps.csv, resources.csv, allocations.csv or events.csv, and no temporary file (only the generated platform.xml,
// an input, may stay).
TEST(engine_failure, PolicyFailureStopsTheRunWithoutResults) {
  struct Case {
    std::string scenario, fault;
    std::vector<std::string> needles;
  } cases[] = {
      {"default", "sharing:5", {"deploy/default.json", "sharing.policy", "policy 'fairshare' failed at t = "}},
      {"tappio-ior", "striping:2", {"deploy/tappio-ior.json", "striping.policy", "policy 'optimized-striping' failed"}},
      {"ipdps21-queue", "arbitration:2", {"deploy/ipdps21-queue.json", "allocation.policy", "re-arbitration of "}},
  };
  for (const Case &c : cases) {
    TempDir ok_dir, dir;
    Process ok = run_deploy(ok_dir, c.scenario, "");
    ASSERT_EQ(ok.exit_code, 0) << c.scenario << ": " << ok.err;
    EXPECT_TRUE(file_exists(ok_dir.file("out/results.json"))) << c.scenario;

    Process p = run_deploy(dir, c.scenario, c.fault);
    EXPECT_EQ(p.exit_code, 1) << c.scenario << ": " << p.err;
    int error_lines = 0; // under ASan a warning about SimGrid's context switches may come first: look for the line
    for (const std::string &line : split_lines(p.err))
      error_lines += line.rfind("iosim: error: ", 0) == 0;
    EXPECT_EQ(error_lines, 1) << p.err;
    for (const std::string &n : c.needles)
      EXPECT_NE(p.err.find(n), std::string::npos) << "stderr lacks '" << n << "': " << p.err;
    EXPECT_NE(p.err.find("(out of memory)"), std::string::npos) << p.err;
    for (const std::string &f : outputs(dir))
      EXPECT_EQ(f, "platform.xml") << c.scenario << " left " << f;
  }
}
