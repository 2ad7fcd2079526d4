/* The SimGrid plugin face (include/iosim/plugin.h): its checks and hand-computed runs. Each TEST runs in its own
 * process (ctest runs the binary once per test), so each creates its own SimGrid engine.
 *
 * Machine (test/fixtures/plugin-2io.xml): compute nodes c0..c3 (1 Gflop/s, 1 GB/s NIC), I/O nodes io0 and io1 of
 * 1 GB/s, a 100 GB/s switch, no latency. With n I/O nodes, an application of Q nodes has b(n) = min(Q·1, n·1) GB/s
 * (RR-9502 Eq. 1, the platform's default profile), b(n)/n per transfer. */
#include <gtest/gtest.h>
#include <iosim/common.h>
#include <iosim/plugin.h>
#include <iosim/policy.h>
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
}

/* As SimGrid's plugins (sg_host_energy_plugin_init): a repeated init is a no-op when it gives the same config (the
 * same JSON, whatever its spacing; NULL and "{}" alike), and refused, naming the first config, when it asks for
 * another: one plugin per process, configured once. */
TEST(PluginInit, RepeatedWithTheSameConfigIsANoOpAndWithAnotherRefused) {
  engine();
  ASSERT_EQ(iosim_plugin_init("{\"sharing\": {\"policy\": \"fcfs\"}}"), IOSIM_PLUGIN_OK) << iosim_plugin_error();
  EXPECT_EQ(iosim_plugin_init("{ \"sharing\" : { \"policy\" : \"fcfs\" } }"), IOSIM_PLUGIN_OK) << iosim_plugin_error();
  EXPECT_STREQ(iosim_plugin_error(), "");
  EXPECT_EQ(iosim_plugin_init("{\"sharing\": {\"policy\": \"fairshare\"}}"), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("already initialised with another config")) << iosim_plugin_error();
  EXPECT_TRUE(error_mentions("fcfs")) << iosim_plugin_error();
  EXPECT_EQ(iosim_plugin_init(nullptr), IOSIM_PLUGIN_EINVAL); /* the defaults are another config */
  /* the first config still holds: a declared application runs under it */
  EXPECT_NE(iosim_app_declare("A", 1, 0, 0), nullptr) << iosim_plugin_error();
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
    /* the message says what the host is, which hosts are compute hosts and how a program finds them */
    EXPECT_TRUE(error_mentions("host 'io0' (1 of 1) is a host of role 'ionode', not a compute host"))
        << iosim_plugin_error();
    EXPECT_TRUE(error_mentions("4 compute hosts (c0, c1, c2, c3)")) << iosim_plugin_error();
    EXPECT_TRUE(error_mentions("role is 'compute'")) << iosim_plugin_error();
    EXPECT_TRUE(error_mentions("Host::get_property(\"role\")")) << iosim_plugin_error();
    const char *unknown[] = {"c9"};
    EXPECT_EQ(iosim_app_begin(a, unknown), IOSIM_PLUGIN_EINVAL);
    EXPECT_TRUE(error_mentions("host 'c9' (1 of 1) is not a host of the platform")) << iosim_plugin_error();
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
  /* no metric of a failed run: an error naming the failure, the value untouched (not 0, NaN or a partial result) */
  double v = 42;
  EXPECT_EQ(iosim_plugin_metric("makespan_s", &v), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("the run failed")) << iosim_plugin_error();
  EXPECT_TRUE(error_mentions("forgotten")) << iosim_plugin_error();
  EXPECT_EQ(iosim_app_metric(a, "io_time_s", &v), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("the run failed")) << iosim_plugin_error();
  EXPECT_EQ(v, 42);
  EXPECT_EQ(iosim_plugin_finish(), IOSIM_PLUGIN_EINVAL); /* again: the same answer */
  EXPECT_TRUE(error_mentions("forgotten")) << iosim_plugin_error();
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
  double v = 42;
  EXPECT_EQ(iosim_app_metric(a, "end_s", &v), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("the run failed")) << iosim_plugin_error();
  EXPECT_EQ(iosim_plugin_metric("events", &v), IOSIM_PLUGIN_EINVAL);
  EXPECT_EQ(v, 42);
  unsetenv("IOSIM_FAULT");
}

/* The results are collected when SimGrid's run ends (Engine::on_simulation_end), as SimGrid's plugins report theirs:
 * no iosim_plugin_finish is needed; called later, it reads them and returns 0. The run is
 * TwoApplicationsOnTheirOwnIONodes': A's write 0 -> 4 and read 4 -> 5, B's write 1 -> 3 on the other I/O node. */
TEST(PluginRun, ResultsAreCollectedWhenSimGridsRunEndsWithoutFinish) {
  engine();
  ASSERT_EQ(iosim_plugin_init("{\"allocation\": {\"policy\": \"fixed\", \"n\": 1}}"), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 2, 5e9, 0), *b = iosim_app_declare("B", 2, 2e9, 0);
  ASSERT_TRUE(a && b);
  double v = 42;
  EXPECT_EQ(iosim_plugin_metric("makespan_s", &v), IOSIM_PLUGIN_EINVAL); /* before the run: none */
  EXPECT_TRUE(error_mentions("no results")) << iosim_plugin_error();
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0", "c1"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_write(a, 4e9), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_read(a, 1e9), 0) << iosim_plugin_error();
    double during = 42;
    EXPECT_EQ(iosim_plugin_metric("makespan_s", &during), IOSIM_PLUGIN_EINVAL); /* during the run: none yet */
    EXPECT_TRUE(error_mentions("has not ended")) << iosim_plugin_error();
    EXPECT_EQ(iosim_plugin_finish(), IOSIM_PLUGIN_EINVAL); /* from an actor, during the run: refused */
    EXPECT_TRUE(error_mentions("while SimGrid runs")) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_end(a), 0) << iosim_plugin_error();
  });
  sg4::Actor::create("B", sg4::Host::by_name("c2"), [b] {
    sg4::this_actor::sleep_for(1);
    const char *h[] = {"c2", "c3"};
    ASSERT_EQ(iosim_app_begin(b, h), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_write(b, 2e9), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_end(b), 0) << iosim_plugin_error();
  });
  sg4::Engine::get_instance()->run();
  EXPECT_DOUBLE_EQ(app_value(a, "end_s"), 5);
  EXPECT_DOUBLE_EQ(app_value(b, "start_s"), 1);
  EXPECT_DOUBLE_EQ(app_value(b, "end_s"), 3);
  EXPECT_DOUBLE_EQ(run_value("makespan_s"), 5);
  EXPECT_DOUBLE_EQ(run_value("total_io_time_s"), 7);
  EXPECT_EQ(iosim_plugin_finish(), 0) << iosim_plugin_error(); /* still legal: it reads what was collected */
  EXPECT_DOUBLE_EQ(run_value("makespan_s"), 5);
}

/* A sharing policy that gives every transfer no bandwidth: an operation under it never completes. */
int starve(const iosim_share_view_t *view, const iosim_params_t *, double *rates, void *) {
  for (int i = 0; i < iosim_share_view_count(view); i++)
    rates[i] = 0;
  return 0;
}

/* A deadlock: application A's actor waits in iosim_app_write for an operation that the sharing policy (`starve`)
 * never lets move; application B's actor waits forever for a message nobody sends (something else than iosim).
 * At t = 0 no actor can go on and no activity will end. The plugin's watch finds it before SimGrid would (SimGrid 3.32
 * kills every actor right after its Engine::on_deadlock signal): A's call returns -1 with the reason, at t = 0, and the
 * run's results are the error, naming the deadlock, its date, A as waiting for iosim and B as waiting on something
 * else. A's actor then ends without iosim_app_end; B's still waits: SimGrid finds its own deadlock and kills it. */
TEST(PluginRun, ADeadlockLetsTheActorsWaitingInThePluginGoWithAnError) {
  engine();
  ASSERT_NE(
      iosim_sharing_register("starve", "no bandwidth for anyone", "test", 0, 0, nullptr, nullptr, starve, nullptr),
      nullptr)
      << iosim_error();
  ASSERT_EQ(iosim_plugin_init("{\"sharing\": {\"policy\": \"starve\"}}"), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 1, 0, 0), *b = iosim_app_declare("B", 1, 0, 0);
  ASSERT_TRUE(a && b);
  static bool a_returned = false;
  static double a_date = NAN;
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    int rc = iosim_app_write(a, 1e9);
    a_returned = true;
    a_date = sg4::Engine::get_clock();
    EXPECT_EQ(rc, IOSIM_PLUGIN_EINVAL);
    EXPECT_TRUE(error_mentions("the run stopped: deadlock at t = 0 s")) << iosim_plugin_error();
    EXPECT_TRUE(error_mentions("waiting for an I/O operation of iosim: A")) << iosim_plugin_error();
  });
  sg4::Actor::create("B", sg4::Host::by_name("c1"), [b] {
    const char *h[] = {"c1"};
    ASSERT_EQ(iosim_app_begin(b, h), 0) << iosim_plugin_error();
    sg4::Mailbox::by_name("nobody-sends-here")->get<int>();
    ADD_FAILURE() << "B received a message nobody sent";
  });
  sg4::Engine::get_instance()->run();
  EXPECT_TRUE(a_returned) << "the actor waiting in iosim_app_write was killed instead of let go";
  EXPECT_EQ(a_date, 0.0);
  EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 0.0);
  double v = 42;
  EXPECT_EQ(iosim_plugin_metric("makespan_s", &v), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("the run failed")) << iosim_plugin_error();
  EXPECT_EQ(v, 42);
  EXPECT_EQ(iosim_plugin_finish(), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("deadlock at t = 0 s")) << iosim_plugin_error();
  EXPECT_TRUE(error_mentions("waiting for an I/O operation of iosim: A")) << iosim_plugin_error();
  EXPECT_TRUE(error_mentions("waiting on something else: B")) << iosim_plugin_error();
}

/* The same deadlock found later: A's operation starves while B computes 2 s (2 Gflop at 1 Gflop/s), then waits
 * forever for a message. The watch sees B's computation still to end at t = 0 and lets SimGrid go on; at t = 2, once
 * B's actor has run and blocked, nothing is left: A's call returns the error at t = 2. */
TEST(PluginRun, ADeadlockAfterOtherActivityIsFoundWhenItHappens) {
  engine();
  ASSERT_NE(
      iosim_sharing_register("starve", "no bandwidth for anyone", "test", 0, 0, nullptr, nullptr, starve, nullptr),
      nullptr)
      << iosim_error();
  ASSERT_EQ(iosim_plugin_init("{\"sharing\": {\"policy\": \"starve\"}}"), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 1, 0, 0), *b = iosim_app_declare("B", 1, 0, 0);
  ASSERT_TRUE(a && b);
  static double a_date = NAN;
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    EXPECT_EQ(iosim_app_write(a, 1e9), IOSIM_PLUGIN_EINVAL);
    a_date = sg4::Engine::get_clock();
    EXPECT_TRUE(error_mentions("deadlock at t = 2 s")) << iosim_plugin_error();
    EXPECT_TRUE(error_mentions("waiting on something else: B")) << iosim_plugin_error();
  });
  sg4::Actor::create("B", sg4::Host::by_name("c1"), [b] {
    const char *h[] = {"c1"};
    ASSERT_EQ(iosim_app_begin(b, h), 0) << iosim_plugin_error();
    sg4::this_actor::execute(2e9);
    sg4::Mailbox::by_name("nobody-sends-here")->get<int>();
  });
  sg4::Engine::get_instance()->run();
  EXPECT_EQ(a_date, 2.0);
  EXPECT_EQ(iosim_plugin_finish(), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("deadlock at t = 2 s")) << iosim_plugin_error();
}

/* A deadlock with no actor waiting in the plugin: application A's actor begins, then waits forever for a message.
 * SimGrid finds it (Engine::on_deadlock) and kills the actor; the run's error names A. */
TEST(PluginRun, ADeadlockOutsideThePluginIsTheRunsError) {
  engine();
  ASSERT_EQ(iosim_plugin_init(nullptr), 0) << iosim_plugin_error();
  iosim_app_t *a = iosim_app_declare("A", 1, 0, 0);
  ASSERT_NE(a, nullptr);
  sg4::Actor::create("A", sg4::Host::by_name("c0"), [a] {
    const char *h[] = {"c0"};
    ASSERT_EQ(iosim_app_begin(a, h), 0) << iosim_plugin_error();
    ASSERT_EQ(iosim_app_write(a, 1e9), 0) << iosim_plugin_error(); /* 1 GB at 1 GB/s: 0 -> 1 */
    sg4::Mailbox::by_name("nobody-sends-here")->get<int>();
  });
  sg4::Engine::get_instance()->run();
  EXPECT_DOUBLE_EQ(sg4::Engine::get_clock(), 1.0);
  EXPECT_EQ(iosim_plugin_finish(), IOSIM_PLUGIN_EINVAL);
  EXPECT_TRUE(error_mentions("deadlock at t = 1 s")) << iosim_plugin_error();
  EXPECT_TRUE(error_mentions("waiting on something else: A")) << iosim_plugin_error();
}
