/* iosim — SimGrid glue (see ios_sg.h): the one file that uses SimGrid beyond its public s4u and C API. Installed
 * headers only (s4u, kernel/resource/Action.hpp and Model.hpp, kernel/Timer.hpp, simix.hpp), never SimGrid's private
 * ones. What it relies on, each guarded by a case of test/seam_simgrid.cpp (ctest -L seam; docs/engine.md, "The
 * SimGrid seam"):
 *  - the network model is found by name ("Network...") among Engine::get_all_models(), and a communication's
 *    kernel Action is the newest entry of that model's started-action set right after Comm::start (ActionLookup);
 *  - Action::set_bound on a running action moves its max-min bound, the bytes already moved kept (ActionLookup,
 *    RateChangeKeepsBytes); Action::set_remains sets the exact fractional byte count;
 *  - suspend() brings the remaining bytes to the current date and freezes them; resume() with set_last_update() and
 *    set_last_value(0) first restarts from the resumption date at the new bound, not from the suspension (PauseResume);
 *  - set_sharing_penalty(1/k) makes one variable weigh k flows on every link (GroupPenalty), and CM02 gives a route
 *    without latency a penalty of 0 that set_sharing_penalty(1) replaces (all cases);
 *  - the network model's finished-action set holds the date's finished actions before Activity::on_completion reports
 *    them, and a kernel Timer at the current date set from Engine::on_time_advance runs before those reports
 *    (CollectBeforeReport);
 *  - the route's latency is paid once, when the communication starts (LatencyOnce);
 *  - simgrid::kernel::actor::simcall_answered runs code in the maestro from an actor (InMaestro).
 * An upgrade of SimGrid must re-check these (the version check below stops the build until someone has).
 * Its state is one object per run (struct ios_sg), which the engine owns; SimGrid's signals, connected once per
 * process and without user data, reach it through the process's anchor (ios_sg_anchor_t, kept by the engine). */
#include "ios_sg.h"

#include <simgrid/config.h> /* SG_BEGIN_DECL, which simgrid/version.h uses */
#include <simgrid/version.h>
#if SIMGRID_VERSION_MAJOR != 3 || SIMGRID_VERSION_MINOR != 32
#error "src/sim/sg_glue.cpp uses SimGrid 3.32's internals and was tested with 3.32 only: build against SimGrid 3.32 \
(Debian 12's libsimgrid-dev), or port this file to the new version and make ctest -L seam pass (docs/engine.md)"
#endif

#include <simgrid/Exception.hpp>
#include <simgrid/instr.h>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/simix.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

/* A flow is one host-to-host communication (Comm::sendto) started by SimGrid's maestro, so that SimGrid itself
 * reports its end through Activity::on_completion (an activity started by the maestro has no actor to wake) and no
 * actor waits on it. Its rate is the bound of its max-min variable (kernel::resource::Action::set_bound, from SimGrid's
 * installed headers): a new rate moves the bound, the transferred bytes are kept, nothing is cancelled. SimGrid 3.32's
 * Comm::set_rate is ignored on host-to-host communications and only settable before the start, which is why the
 * bound is set on the action (docs/engine.md measures both ways). */
struct ios_flow {
  ios_sg_t *sg = nullptr; /* the glue of its run */
  sg4::CommPtr comm;
  simgrid::kernel::resource::Action *action = nullptr; /* its max-min variable's owner in the network model */
  double base_bound = -1; /* bytes/s: the bound SimGrid gave it (narrowest link, TCP window); -1 = none */
  double rate = INFINITY; /* bytes/s: each member's rate */
  double start = 0;       /* s: when it started */
  int members = 1;        /* transfers it carries (ios_flow_join): one max-min variable of weight `members` */
  bool modified = false;  /* re-rated since it started */
  bool paused = false;    /* suspended at rate 0 (ios_flow_pause) */
  void *data = nullptr;
  bool ended = false;    /* SimGrid has reported its end (finished, or failed after a cancel) */
  bool reported = false; /* its completion went to `done` (ios_flows_collect, or SimGrid's report) */
  bool cancelled = false;
  bool released = false;
  sg_host_t from = nullptr, to = nullptr; /* its ends (ios_flow_binding reads its route) */
  std::vector<sg4::Link *> route;         /* its route's links, read at the first ios_flow_binding */
  bool routed = false;
};

namespace {
struct FlowGlue {
  simgrid::kernel::resource::Model *net = nullptr;
  ios_flow_done_fn done = nullptr;
  void *done_ctx = nullptr;         /* done's */
  std::vector<ios_flow *> released; /* given back before SimGrid's end of them: freed by ios_flows_reap */
  std::unordered_map<const void *, ios_flow *> running; /* by activity (ActivityImpl), until SimGrid's report */
};

/* The maestro driver (ios_sg_drive): a step at every date SimGrid's clock reaches, and a wake-up timer. */
struct Driver {
  void (*step)(void *ctx) = nullptr;
  void *ctx = nullptr;                           /* the step's */
  bool driving = false;                          /* steps are wanted */
  bool armed = false;                            /* a step is set at the current date */
  bool stepping = false;                         /* a step runs */
  simgrid::kernel::timer::Timer *wake = nullptr; /* the pending wake-up, or nullptr */
  double wake_date = -1;
};

/* The deadlock watch (ios_sg_stall_watch): the caller's view of its waiting actors, and the probe's state. */
struct Watch {
  int (*waiting)(void) = nullptr;  /* actors waiting in the caller for a completion */
  int (*released)(void) = nullptr; /* actors it has let go that have not run yet */
  void (*stalled)(void) = nullptr;
  double date = -1; /* the date of the last re-check by an actor, and how many at that date */
  int rechecks = 0;
};
} // namespace

/* The glue's state for one run (ios_sg.h): what each part of this file keeps. */
struct ios_sg {
  ios_sg_anchor_t *anchor = nullptr; /* the process's, through which SimGrid's signals find this run */
  FlowGlue G;
  Driver D;
  Watch W;
  std::unordered_map<const sg4::Link *, double> link_factor; /* the links ios_sg_link_scale scaled, their factors */
  std::unordered_map<sg4::Link *, double> usage; /* each link's usage at `usage_date` (link_usage), read once */
  double usage_date = -1;
  std::set<std::string> traced; /* "link\nvariable" pairs of SimGrid's trace already set to 0 */
};

namespace {
void probe(ios_sg_t &g);

void arm(ios_sg_t &g) {
  Driver &D = g.D;
  if (!D.driving || D.armed || D.stepping) return;
  D.armed = true;
  ios_sg_t *gp = &g;
  simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(), [gp] {
    Driver &d = gp->D;
    d.armed = false;
    if (!d.driving) return;
    d.stepping = true;
    d.step(d.ctx);
    d.stepping = false;
    if (gp->W.stalled != nullptr) probe(*gp);
  });
}

/* Whether a flow of iosim's moves: started, not paused, not yet reported done. */
bool a_flow_moves(const ios_sg_t &g);

/* SimGrid's kernel: whether some action of any model has ended and is not handled yet (its actor runs at this date),
 * and whether some action is still running (it will end, or its latency be paid, at a later date). */
void kernel_actions(bool &ended, bool &running) {
  ended = running = false;
  for (auto *m : sg4::Engine::get_instance()->get_all_models()) {
    ended = ended || !m->get_finished_action_set()->empty() || !m->get_failed_action_set()->empty();
    for (auto const &a : *m->get_started_action_set())
      if (!a.is_suspended()) running = true;
  }
}

/* The watch's probe, in the maestro: with actors waiting in the caller, no flow of iosim's moving and no wake-up set,
 * is there anything left that SimGrid will run? Work still to do at this date (an actor the caller let go, an action
 * ended and not handled, a timer) is re-checked once every actor runnable at this date has run: a short-lived actor
 * sets the probe as a timer at the date from a simcall, and a timer set by an actor runs only after SimGrid has run
 * every actor it can at the date. Nothing at this date and nothing later: SimGrid would declare a deadlock next, so
 * the caller is told first, while its actors can still return from their calls. */
void probe(ios_sg_t &g) {
  Watch &W = g.W;
  if (W.stalled == nullptr || !g.D.driving || W.waiting() == 0 || g.D.wake != nullptr || a_flow_moves(g)) return;
  if (g.D.armed) return; /* the step of this date comes first, and probes after it */
  double now = sg4::Engine::get_clock();
  double next_timer = simgrid::kernel::timer::Timer::next();
  bool ended, running;
  kernel_actions(ended, running);
  if (W.released() > 0 || ended || (next_timer >= 0 && next_timer <= now)) {
    if (W.date == now && W.rechecks >= 4) return; /* no end in sight at this date: SimGrid's own check decides */
    W.rechecks = W.date == now ? W.rechecks + 1 : 1;
    W.date = now;
    ios_sg_t *gp = &g;
    sg4::Actor::create("iosim-deadlock-watch", sg4::Engine::get_instance()->get_all_hosts().front(), [gp] {
      simgrid::kernel::actor::simcall_answered(
          [gp] { simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(), [gp] { probe(*gp); }); });
    });
    return;
  }
  if (running || next_timer >= 0) return; /* something ends later: the step at that date probes again */
  W.stalled();
}

/* SimGrid's report of an activity's end, in the maestro (connected once per process, it finds the flow on the
 * activity's extension slot and the run's glue through the process's anchor): a flow's completion goes to the
 * engine; its failure (after a cancel) only marks it. The s4u cancel's own report (CANCELED) comes before SimGrid has
 * let the activity go. */
void on_activity_end(const ios_sg_anchor_t &anchor, sg4::Activity const &a) {
  if (anchor.run == nullptr) return; /* no run: no flow of iosim's is alive */
  auto *f = anchor.flow_slot > 0 ? static_cast<ios_flow *>(a.extension(anchor.flow_slot)) : nullptr;
  if (f == nullptr || a.get_state() == sg4::Activity::State::CANCELED) return;
  FlowGlue &G = f->sg->G;
  f->ended = true;
  G.running.erase(a.get_impl());
  if (a.get_state() == sg4::Activity::State::FINISHED && !f->cancelled && !f->reported && G.done != nullptr) {
    f->reported = true; /* not collected by a step (none at this date): its report wakes one */
    G.done(G.done_ctx, f, f->data);
  }
}

bool a_flow_moves(const ios_sg_t &g) {
  for (auto const &[activity, f] : g.G.running)
    if (!f->paused && !f->reported && !f->cancelled) return true;
  return false;
}

double bound_for(const ios_flow *f, double rate) {
  if (!(rate > 0) || std::isinf(rate)) return f->base_bound;
  return f->base_bound > 0 && f->base_bound < rate ? f->base_bound : rate;
}
} // namespace

extern "C" ios_sg_t *ios_sg_new(ios_sg_anchor_t *anchor) {
  auto *g = new (std::nothrow) ios_sg;
  if (g == nullptr) return nullptr;
  g->anchor = anchor;
  anchor->run = g;
  return g;
}

extern "C" void ios_sg_free(ios_sg_t *sg) {
  if (sg == nullptr) return;
  if (sg->anchor->run == sg) sg->anchor->run = nullptr;
  for (auto *f : sg->G.released) /* what ios_flows_fini left, if it was not called */
    delete f;
  delete sg;
}

extern "C" int ios_flows_init(ios_sg_t *sg, ios_flow_done_fn done, void *ctx) {
  FlowGlue &G = sg->G;
  G.net = nullptr;
  for (auto *m : sg4::Engine::get_instance()->get_all_models())
    if (m->get_name().rfind("Network", 0) == 0) G.net = m;
  if (G.net == nullptr) return -1;
  G.done = done;
  G.done_ctx = ctx;
  ios_sg_anchor_t *anchor = sg->anchor;
  if (!anchor->watching) { /* once per process: SimGrid's signals cannot be disconnected */
    anchor->flow_slot = sg4::Activity::extension_create([](void *) { /* the flow is iosim's */ });
    sg4::Activity::on_completion_cb([anchor](sg4::Activity const &a) { on_activity_end(*anchor, a); });
  }
  anchor->watching = 1;
  return 0;
}

/* In the maestro: the communication, then its action (the newest of the network model's started actions: SimGrid
 * creates it when the communication starts). */
static void flow_create(ios_flow *f, sg_host_t from, sg_host_t to, double bytes, double rate, double latency) {
  FlowGlue &G = f->sg->G;
  f->comm = sg4::Comm::sendto_init();
  f->comm->extension_set(f->sg->anchor->flow_slot, f, false);
  double whole = std::ceil(bytes);
  f->comm->set_payload_size(whole >= 1 ? static_cast<uint64_t>(whole) : 1);
  f->from = from;
  f->to = to;
  f->comm->set_source(from);
  f->comm->set_destination(to); /* both ends known: it starts */
  auto *started = G.net->get_started_action_set();
  int looked = 0;
  for (auto it = started->rbegin(); it != started->rend() && looked < 64; ++it, ++looked)
    if (it->get_activity() == f->comm->get_impl()) {
      f->action = &*it;
      break;
    }
  if (f->action == nullptr) return;
  G.running.emplace(f->comm->get_impl(), f);
  f->action->set_remains(bytes); /* the exact (fractional) byte count */
  /* a route without latency leaves CM02's penalty at 0 (the variable's own is 1): given explicitly, so that a pause
   * and its resumption (ios_flow_pause) keep it; with a latency SimGrid sets it when the latency is paid */
  if (f->action->get_sharing_penalty() == 0 && latency == 0) f->action->set_sharing_penalty(1.0);
  f->base_bound = f->action->get_bound();
  f->rate = rate;
  f->start = sg4::Engine::get_clock();
  double b = bound_for(f, rate);
  if (b > 0 && b != f->base_bound) f->action->set_bound(b);
}

extern "C" ios_flow_t *ios_flow_start(ios_sg_t *sg, sg_host_t from, sg_host_t to, double bytes, double rate,
                                      double latency, void *data) {
  auto *f = new ios_flow;
  f->sg = sg;
  f->data = data;
  if (sg4::Actor::is_maestro())
    flow_create(f, from, to, bytes, rate, latency);
  else
    simgrid::kernel::actor::simcall_answered(
        [f, from, to, bytes, rate, latency] { flow_create(f, from, to, bytes, rate, latency); });
  if (f->action != nullptr) return f;
  if (f->comm) { /* not running (a failed link): SimGrid reports its failure, then it can go */
    f->cancelled = true;
    ios_flow_release(f);
  } else
    delete f;
  return nullptr;
}

/* The bound of a flow whose members each move at most `rate`: members times a member's bound. */
static double flow_bound(const ios_flow *f, double rate) {
  double b = bound_for(f, rate);
  return b > 0 ? b * f->members : b;
}

extern "C" void ios_flow_set_rate(ios_flow_t *flow, double rate) {
  if (flow->ended || flow->cancelled || flow->paused) return;
  flow->rate = rate;
  flow->modified = true;
  flow->action->set_bound(flow_bound(flow, rate)); /* a bound only: no simcall needed, nothing waits on it */
}

extern "C" int ios_flow_join(ios_flow_t *flow, double bytes, double rate) {
  if (flow->ended || flow->cancelled || flow->paused || flow->modified || flow->start != sg4::Engine::get_clock() ||
      rate != flow->rate)
    return -1;
  flow->members++;
  flow->action->set_remains(flow->action->get_remains_no_update() + bytes);
  flow->action->set_sharing_penalty(1.0 / flow->members);
  double b = flow_bound(flow, rate);
  if (b > 0) flow->action->set_bound(b);
  return 0;
}

extern "C" void ios_flow_leave(ios_flow_t *flow, double bytes, double rate) {
  if (flow->ended || flow->cancelled || flow->members < 2) return;
  double left = flow->comm->get_remaining() - bytes; /* updated to the current date first */
  flow->members--;
  flow->rate = rate;
  flow->modified = true;
  flow->action->set_remains(left > 0 ? left : 0.0);
  flow->action->set_sharing_penalty(1.0 / flow->members);
  double b = flow_bound(flow, rate);
  flow->action->set_bound(b > 0 ? b : -1.0);
}

extern "C" int ios_flow_pause(ios_flow_t *flow) {
  if (flow->ended || flow->cancelled || flow->paused || flow->members != 1 ||
      !(flow->action->get_sharing_penalty() > 0))
    return -1;
  /* SimGrid 3.32's suspend brings the remaining bytes to the current date, then freezes them; its resume would take
   * the whole pause at the rate of before, so the rate and date it resumes from are set first (ios_flow_resume) */
  flow->action->suspend();
  flow->action->set_last_value(0.0);
  flow->paused = true;
  flow->modified = true;
  return 0;
}

extern "C" void ios_flow_weigh(ios_flow_t *flow, double w) {
  if (flow->ended || flow->cancelled || flow->members != 1 || !(w > 0) || w > 1) return;
  flow->action->set_sharing_penalty(1.0 / w);
}

extern "C" void ios_flow_resume(ios_flow_t *flow, double rate) {
  if (!flow->paused) return;
  flow->action->set_last_update();
  flow->action->set_last_value(0.0);
  flow->action->resume();
  flow->paused = false;
  flow->rate = rate;
  flow->action->set_bound(flow_bound(flow, rate));
}

extern "C" int ios_flow_members(const ios_flow_t *flow) {
  return flow->members;
}

extern "C" void *ios_flow_data(const ios_flow_t *flow) {
  return flow->data;
}

extern "C" void ios_flow_set_data(ios_flow_t *flow, void *data) {
  flow->data = data;
}

extern "C" void ios_flow_route_key(sg_host_t from, sg_host_t to, unsigned long long *key, double *latency) {
  std::vector<sg4::Link *> links;
  double lat = 0;
  from->route_to(to, links, &lat);
  unsigned long long h = 1469598103934665603ULL; /* FNV-1a over the links' addresses */
  for (const sg4::Link *l : links) {
    auto v = reinterpret_cast<uintptr_t>(l);
    for (size_t i = 0; i < sizeof v; i++) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ULL;
    }
  }
  *key = h;
  *latency = lat;
}

extern "C" double ios_flow_remaining(const ios_flow_t *flow) {
  if (flow->ended) return 0.0;
  return flow->action->get_remains(); /* what Comm::get_remaining reads, without its two indirections */
}

/* The usage of a link (bytes/s), computed once per date: Link::get_usage sums every flow on the link. */
static double link_usage(ios_sg_t &g, sg4::Link *l) {
  double now = sg4::Engine::get_clock();
  if (now != g.usage_date) {
    g.usage.clear();
    g.usage_date = now;
  }
  auto it = g.usage.find(l);
  if (it != g.usage.end()) return it->second;
  double u = l->get_usage();
  g.usage.emplace(l, u);
  return u;
}

extern "C" void ios_sg_link_scale(ios_sg_t *sg, sg_link_t link, double bw, double factor) {
  if (factor == 1)
    sg->link_factor.erase(link);
  else
    sg->link_factor[link] = factor;
  link->set_bandwidth(bw * factor);
}

extern "C" double ios_flow_binding(ios_flow_t *flow, const char **link) {
  *link = nullptr;
  if (flow->ended || flow->cancelled || flow->action == nullptr) return NAN;
  if (!flow->routed) {
    double lat = 0;
    flow->from->route_to(flow->to, flow->route, &lat);
    flow->routed = true;
  }
  double narrowest = INFINITY;
  ios_sg_t &g = *flow->sg;
  const auto &factor = g.link_factor;
  for (auto *l : flow->route) {
    double bw = l->get_bandwidth();
    auto scaled = factor.empty() ? factor.end() : factor.find(l);
    double one = scaled == factor.end() ? bw : bw / scaled->second; /* a node's part of a scaled link */
    if (one < narrowest && link_usage(g, l) >= bw * (1 - 1e-6)) {
      narrowest = one;
      *link = l->get_cname();
    }
  }
  return flow->paused ? 0.0 : flow->action->get_rate() / flow->members;
}

extern "C" void ios_flow_cancel(ios_flow_t *flow) {
  if (flow->ended || flow->cancelled) return;
  flow->cancelled = true;
  flow->comm->cancel();
}

extern "C" void ios_flow_release(ios_flow_t *flow) {
  if (flow == nullptr) return;
  if (flow->ended) {
    delete flow;
    return;
  }
  flow->released = true;
  flow->sg->G.released.push_back(flow);
}

extern "C" void ios_flows_reap(ios_sg_t *sg) {
  FlowGlue &G = sg->G;
  size_t k = 0;
  for (auto *f : G.released)
    if (f->ended)
      delete f;
    else
      G.released[k++] = f;
  G.released.resize(k);
}

extern "C" void ios_flows_collect(ios_sg_t *sg) {
  FlowGlue &G = sg->G;
  if (G.net == nullptr || G.done == nullptr) return;
  for (auto &action : *G.net->get_finished_action_set()) {
    auto it = G.running.find(action.get_activity());
    if (it == G.running.end()) continue;
    ios_flow *f = it->second;
    if (f->reported || f->cancelled) continue;
    f->reported = true;
    G.done(G.done_ctx, f, f->data);
  }
}

extern "C" void ios_flows_fini(ios_sg_t *sg) {
  FlowGlue &G = sg->G;
  for (auto *f : G.released)
    delete f;
  G.released.clear();
  G.running.clear();
  G.done = nullptr;
  sg->W = Watch{};
  sg->D.driving = false;
  sg->D.wake = nullptr;
}

extern "C" void ios_sg_drive(ios_sg_t *sg, void (*step)(void *ctx), void *ctx) {
  Driver &D = sg->D;
  D.step = step;
  D.ctx = ctx;
  D.driving = true;
  D.armed = D.stepping = false;
  D.wake = nullptr;
  ios_sg_anchor_t *anchor = sg->anchor;
  if (!anchor->driving) /* once per process: SimGrid calls it once its models have reached the new date, before its
                           timers run; it arms the run's glue through the anchor */
    sg4::Engine::on_time_advance_cb([anchor](double) {
      if (anchor->run != nullptr) arm(*anchor->run);
    });
  anchor->driving = 1;
  arm(*sg);
}

extern "C" void ios_sg_drive_arm(ios_sg_t *sg) {
  arm(*sg);
}

extern "C" void ios_sg_wake_at(ios_sg_t *sg, double date) {
  Driver &D = sg->D;
  if (D.wake != nullptr && D.wake_date == date) return;
  if (D.wake != nullptr) D.wake->remove();
  D.wake_date = date;
  D.wake = simgrid::kernel::timer::Timer::set(date, [sg] { sg->D.wake = nullptr; }); /* the step does the work */
}

extern "C" void ios_sg_drive_stop(ios_sg_t *sg) {
  Driver &D = sg->D;
  D.driving = false;
  if (D.wake != nullptr) D.wake->remove();
  D.wake = nullptr;
}

extern "C" void ios_sg_trace_declare(const char *variable, const char *color) {
  simgrid::instr::declare_link_variable(variable, color);
}

extern "C" void ios_sg_trace_flow(ios_sg_t *sg, sg_host_t from, sg_host_t to, const char *variable, double t0,
                                  double t1, double rate) {
  std::vector<sg4::Link *> links;
  double latency = 0;
  from->route_to(to, links, &latency);
  for (const sg4::Link *l : links) {
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE) continue; /* flows do not share it */
    if (l->get_bandwidth() >= IOS_SG_TRACE_UNBOUNDED_BPS) continue; /* a generated platform's fabric: never binds */
    if (sg->traced.insert(l->get_name() + '\n' + variable).second)
      simgrid::instr::set_link_variable(l->get_name(), variable, 0, 0);
    simgrid::instr::add_link_variable(l->get_name(), variable, rate, t0);
    simgrid::instr::sub_link_variable(l->get_name(), variable, rate, t1);
  }
}

extern "C" int ios_sg_in_maestro(int (*fn)(void *ctx), void *ctx) {
  return simgrid::kernel::actor::simcall_answered([fn, ctx] { return fn(ctx); }); /* in the maestro: runs directly */
}

extern "C" void ios_sg_stall_watch(ios_sg_t *sg, int (*waiting)(void), int (*released)(void), void (*stalled)(void)) {
  Watch &W = sg->W;
  W = Watch{};
  W.waiting = waiting;
  W.released = released;
  W.stalled = stalled;
}
