/* The SimGrid plugin face (include/iosim/plugin.h): its checks and hand-computed runs. Each TEST runs in its own
 * process (ctest runs the binary once per test), so each creates its own SimGrid engine.
 *
 * Machine (test/fixtures/plugin-2io.xml): compute nodes c0..c3 (1 Gflop/s, 1 GB/s NIC), I/O nodes io0 and io1 of
 * 1 GB/s, a 100 GB/s switch, no latency. With n I/O nodes, an application of Q nodes has b(n) = min(Q·1, n·1) GB/s
 * (RR-9502 Eq. 1, the platform's default profile), b(n)/n per transfer. */
#include <gtest/gtest.h>
#include <iosim/common.h>
#include <iosim/plugin.h>
#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {
const char *platform() {
  static const std::string p = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/plugin-2io.xml";
  return p.c_str();
}

/* A SimGrid engine on the test machine, CM02 without cross-traffic unless `lv08`. */
sg4::Engine *engine(bool lv08 = false) {
  static int argc = 1;
  static char name[] = "plugin_api", log[] = "--log=root.thres:critical";
  static char *argv[] = {name, log, nullptr};
  argc = 2;
  auto *e = new sg4::Engine(&argc, argv);
  if (!lv08) {
    e->set_config("network/model:CM02");
    e->set_config("network/crosstraffic:0");
  }
  e->load_platform(platform());
  return e;
}

double app_value(const iosim_app_t *a, const char *name) {
  double v = NAN;
  EXPECT_EQ(iosim_app_metric(a, name, &v), 0) << iosim_plugin_error();
  return v;
}

double run_value(const char *name) {
  double v = NAN;
  EXPECT_EQ(iosim_plugin_metric(name, &v), 0) << iosim_plugin_error();
  return v;
}

bool error_mentions(const char *what) {
  EXPECT_STREQ(iosim_error(), iosim_plugin_error()); /* one message, whichever function reads it */
  return std::string(iosim_plugin_error()).find(what) != std::string::npos;
}
} // namespace

TEST(PluginInit, RefusedBeforeAPlatformIsLoaded) {
  static int argc = 1;
  static char name[] = "plugin_api";
  static char *argv[] = {name, nullptr};
  sg4::Engine e(&argc, argv);
  EXPECT_EQ(iosim_plugin_init(nullptr), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("load the platform first")) << iosim_plugin_error();
}

TEST(PluginInit, RefusesANetworkModelItsRatesDoNotHoldOn) {
  engine(true); /* SimGrid's default LV08 scales every flow's bandwidth by 0.97 */
  EXPECT_EQ(iosim_plugin_init(nullptr), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("network/model:CM02")) << iosim_plugin_error();
}

TEST(PluginInit, RefusesAPlatformOrWorkloadInItsConfig) {
  engine();
  EXPECT_EQ(iosim_plugin_init("{\"platform\": \"x.xml\"}"), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("platform")) << iosim_plugin_error();
  EXPECT_EQ(iosim_plugin_init("{\"workload\": {}}"), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("iosim_app_declare")) << iosim_plugin_error();
}

TEST(PluginInit, NamesABadConfigValue) {
  engine();
  EXPECT_EQ(iosim_plugin_init("not json"), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("JSON object")) << iosim_plugin_error();
  EXPECT_EQ(iosim_plugin_init("{\"sharing\": {\"policy\": \"no-such-policy\"}}"), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("no-such-policy")) << iosim_plugin_error();
  EXPECT_EQ(iosim_plugin_init("{}"), IOSIM_PLUGIN_OK) << iosim_plugin_error(); /* a bad call leaves it usable */
  EXPECT_EQ(iosim_plugin_init("{}"), IOSIM_PLUGIN_EINVAL);                     /* once per process */
}

TEST(PluginDeclare, ChecksNamesAndNodes) {
  engine();
  ASSERT_EQ(iosim_plugin_init(nullptr), 0) << iosim_plugin_error();
  EXPECT_NE(iosim_app_declare("a", 2, 0, 0), nullptr) << iosim_plugin_error();
  EXPECT_EQ(iosim_app_declare("a", 1, 0, 0), nullptr);
  EXPECT_TRUE(error_mentions("already declared")) << iosim_plugin_error();
  EXPECT_EQ(iosim_app_declare("b", 5, 0, 0), nullptr); /* the machine has 4 compute nodes */
  EXPECT_TRUE(error_mentions("give 1 to 4")) << iosim_plugin_error();
  EXPECT_EQ(iosim_app_declare("c", 1, -1, 0), nullptr);
  EXPECT_EQ(iosim_app_declare("", 1, 0, 0), nullptr);
}

/* System: two applications of 2 nodes, `fixed` n = 1, greedy-non-clairvoyant placement (the least loaded I/O node),
 * fairshare. A begins on c0,c1 and writes 4 GB at t = 0; B begins on c2,c3 at t = 1 and writes 2 GB; A then reads
 * 1 GB; both end.
 * Expectations: A gets io0, B io1 (the other is the least loaded): no sharing. b(1) = min(2, 1) = 1 GB/s: A's write
 * 0 -> 4, B's write 1 -> 3, A's read 4 -> 5. A: start 0, end 5, I/O 5 s, 5 GB, work 0; B: start 1, end 3, I/O 2 s.
 * Makespan 5 s, total I/O time 7 s. */
TEST(PluginRun, TwoApplicationsOnTheirOwnIONodes) {
  engine();
  ASSERT_EQ(iosim_plugin_init("{\"allocation\": {\"policy\": \"fixed\", \"n\": 1}}"), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 2, 5e9, 0), *b = iosim_app_declare("B", 2, 2e9, 0);
  ASSERT_TRUE(a && b);
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0", "c1"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_write(a, 4e9), 0) << iosim_plugin_error();
    EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 4.0);
    ASSERT_EQ(iosim_app_read(a, 1e9), 0) << iosim_plugin_error();
    EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 5.0);
    ASSERT_EQ(iosim_app_end(a), 0) << iosim_plugin_error();
  });
  sg4::Actor::create("B", sg4::Host::by_name("c2"), [b] {
    sg4::this_actor::sleep_for(1);
    const char *h[] = {"c2", "c3"};
    ASSERT_EQ(iosim_app_begin(b, h), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_write(b, 2e9), 0) << iosim_plugin_error();
    EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 3.0);
    ASSERT_EQ(iosim_app_end(b), 0) << iosim_plugin_error();
  });
  sg4::Engine::get_instance()->run();
  ASSERT_EQ(iosim_plugin_finish(), 0) << iosim_plugin_error();
  EXPECT_DOUBLE_EQ(app_value(a, "start_s"), 0);
  EXPECT_DOUBLE_EQ(app_value(a, "end_s"), 5);
  EXPECT_DOUBLE_EQ(app_value(a, "io_time_s"), 5);
  EXPECT_DOUBLE_EQ(app_value(a, "io_volume_bytes"), 5e9);
  EXPECT_DOUBLE_EQ(app_value(a, "work_time_s"), 0);
  EXPECT_DOUBLE_EQ(app_value(a, "n_resources"), 1);
  EXPECT_DOUBLE_EQ(app_value(b, "start_s"), 1);
  EXPECT_DOUBLE_EQ(app_value(b, "end_s"), 3);
  EXPECT_DOUBLE_EQ(app_value(b, "io_time_s"), 2);
  EXPECT_DOUBLE_EQ(run_value("makespan_s"), 5);
  EXPECT_DOUBLE_EQ(run_value("total_io_time_s"), 7);
  double v;
  EXPECT_EQ(iosim_plugin_metric("no_such_metric", &v), IOSIM_PLUGIN_EINVAL);
}

/* System: one application of 1 node on the whole pool (`fixed` n = 2): b(2) = min(1·1, 2·1) = 1 GB/s, 0.5 GB/s per
 * I/O node. It computes 3 s (its own SimGrid execution of 3 Gflop), writes 2 GB, computes 1 s, ends.
 * Expectations: the write takes 2 GB / 1 GB/s = 2 s (3 -> 5); it ends at 6 with 4 s of work and 2 s of I/O, on 2
 * resources. */
TEST(PluginRun, OwnComputationCountsAsWork) {
  engine();
  ASSERT_EQ(iosim_plugin_init("{\"allocation\": {\"policy\": \"fixed\", \"n\": 2}}"), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("solo", 1, 2e9, 4);
  ASSERT_NE(a, nullptr);
  sg4::Actor::create("solo", sg4::Host::by_name("c3"), [a] {
    const char *h[] = {"c3"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    sg4::this_actor::execute(3e9);
    ASSERT_EQ(iosim_app_write(a, 2e9), 0) << iosim_plugin_error();
    EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 5.0);
    sg4::this_actor::execute(1e9);
    ASSERT_EQ(iosim_app_end(a), 0) << iosim_plugin_error();
  });
  sg4::Engine::get_instance()->run();
  ASSERT_EQ(iosim_plugin_finish(), 0) << iosim_plugin_error();
  EXPECT_DOUBLE_EQ(app_value(a, "end_s"), 6);
  EXPECT_DOUBLE_EQ(app_value(a, "work_time_s"), 4);
  EXPECT_DOUBLE_EQ(app_value(a, "io_time_s"), 2);
  EXPECT_DOUBLE_EQ(app_value(a, "n_resources"), 2);
}

TEST(PluginRun, CallsOutOfOrderAreRefusedWithTheirReason) {
  engine();
  ASSERT_EQ(iosim_plugin_init(nullptr), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 1, 0, 0);
  ASSERT_NE(a, nullptr);
  const char *h[] = {"c0"};
  EXPECT_EQ(iosim_app_begin(a, h), IOSIM_PLUGIN_EINVAL); /* before SimGrid runs */
  EXPECT_TRUE(error_mentions("has not started")) << iosim_plugin_error();
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    EXPECT_EQ(iosim_app_write(a, 1e9), IOSIM_PLUGIN_EINVAL);
    EXPECT_TRUE(error_mentions("not begun")) << iosim_plugin_error();
    const char *bad[] = {"io0"};
    EXPECT_EQ(iosim_app_begin(a, bad), IOSIM_PLUGIN_EINVAL);
    EXPECT_TRUE(error_mentions("not a compute host")) << iosim_plugin_error();
    const char *good[] = {"c0"};
    ASSERT_EQ(iosim_app_begin(a, good), 0) << iosim_plugin_error();
    EXPECT_EQ(iosim_app_begin(a, good), IOSIM_PLUGIN_EINVAL);
    EXPECT_EQ(iosim_app_write(a, -1), IOSIM_PLUGIN_EINVAL);
    EXPECT_EQ(iosim_app_write(a, INFINITY), IOSIM_PLUGIN_EINVAL);
    EXPECT_EQ(iosim_app_write(a, 0), 0) << iosim_plugin_error(); /* an empty operation completes at once */
    EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 0.0);
    ASSERT_EQ(iosim_app_end(a), 0) << iosim_plugin_error();
    EXPECT_EQ(iosim_app_end(a), IOSIM_PLUGIN_EINVAL);
    EXPECT_EQ(iosim_app_write(a, 1), IOSIM_PLUGIN_EINVAL);
  });
  sg4::Engine::get_instance()->run();
  EXPECT_EQ(iosim_plugin_finish(), 0) << iosim_plugin_error();
}

TEST(PluginRun, AnApplicationThatNeverEndsMakesTheResultsIncomplete) {
  engine();
  ASSERT_EQ(iosim_plugin_init(nullptr), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("forgotten", 1, 0, 0);
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_write(a, 1e9), 0) << iosim_plugin_error();
  });
  sg4::Engine::get_instance()->run();
  EXPECT_EQ(iosim_plugin_finish(), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("forgotten")) << iosim_plugin_error();
  EXPECT_TRUE(error_mentions("iosim_app_end")) << iosim_plugin_error();
}

/* IOSIM_FAULT=sharing:1 makes the sharing policy's first decision fail (as out of memory): the run stops, the actor
 * waiting for its operation is let go with the reason, and iosim_plugin_finish reports it. */
TEST(PluginRun, APolicyFailureLetsTheWaitingActorsGo) {
  setenv("IOSIM_FAULT", "sharing:1", 1);
  engine();
  ASSERT_EQ(iosim_plugin_init(nullptr), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 1, 0, 0);
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    EXPECT_EQ(iosim_app_write(a, 1e9), IOSIM_PLUGIN_EINVAL);
    EXPECT_TRUE(error_mentions("run stopped")) << iosim_plugin_error();
  });
  sg4::Engine::get_instance()->run();
  EXPECT_NE(iosim_plugin_finish(), 0);
  EXPECT_TRUE(error_mentions("sharing")) << iosim_plugin_error();
  unsetenv("IOSIM_FAULT");
}

/* With output.dir the plugin writes what `iosim run` writes: results.json (its platform named as the program's) and
 * apps.csv with the application's row; the run is test OwnComputationCountsAsWork's. */
TEST(PluginRun, WritesTheRunOutputsWhenAskedTo) {
  const char *tmp = getenv("TMPDIR");
  std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/plugin-out-" + std::to_string(getpid());
  engine();
  std::string config = "{\"allocation\": {\"policy\": \"fixed\", \"n\": 2}, \"output\": {\"dir\": \"" + dir + "\"}}";
  ASSERT_EQ(iosim_plugin_init(config.c_str()), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("solo", 1, 2e9, 4);
  sg4::Actor::create("solo", sg4::Host::by_name("c3"), [a] {
    const char *h[] = {"c3"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    sg4::this_actor::execute(3e9);
    ASSERT_EQ(iosim_app_write(a, 2e9), 0) << iosim_plugin_error();
    sg4::this_actor::execute(1e9);
    ASSERT_EQ(iosim_app_end(a), 0) << iosim_plugin_error();
  });
  sg4::Engine::get_instance()->run();
  ASSERT_EQ(iosim_plugin_finish(), 0) << iosim_plugin_error();
  auto slurp = [](const std::string &path) {
    std::string s;
    if (FILE *f = fopen(path.c_str(), "r")) {
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
      fclose(f);
    }
    return s;
  };
  std::string results = slurp(dir + "/results.json"), apps = slurp(dir + "/apps.csv");
  EXPECT_NE(results.find("the SimGrid program's platform"), std::string::npos) << results.substr(0, 400);
  EXPECT_NE(apps.find("\nsolo,"), std::string::npos) << apps;
  std::string rm = "rm -rf '" + dir + "'";
  EXPECT_EQ(system(rm.c_str()), 0);
}
