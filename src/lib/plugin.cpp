/* iosim — the SimGrid plugin face (include/iosim/plugin.h, docs/library.md): the engine's external applications
 * (ios_engine_app_begin/_post/_end) driven by the actors of any s4u program. The program's actors call the plugin; the
 * plugin changes the engine's state in SimGrid's maestro (one simcall each, through the SimGrid seam ios_sg.h) and
 * blocks the calling actor on its application's semaphore until the engine reports the operation's completion (in the
 * maestro).
 *
 * Its lifecycle is that of SimGrid's own plugins (src/plugins/host_energy.cpp in SimGrid's tree): hooks on the
 * engine's signals, connected once by iosim_plugin_init: the run starts at Engine::on_simulation_start; the results
 * are collected at Engine::on_simulation_end (iosim_plugin_finish only reads them); a deadlock SimGrid detects
 * (Engine::on_deadlock) is recorded with the applications it caught and lets the actors waiting in the plugin go. */
#include "iosim/plugin.h"

#include "ios_diag.h"
#include "ios_engine.h"
#include "ios_lib.h"
#include "ios_output.h"
#include "ios_platform.h"
#include "ios_scenario.h"

#include "ios_sg.h"

#include <cjson/cJSON.h>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

struct iosim_app {
  std::string name;
  int index = 0;
  int nodes = 1;
  sg4::SemaphorePtr done = sg4::Semaphore::create(0); /* released when its operation completes */
  double since = 0;                                   /* s: when it began or its last operation ended */
  bool begun = false, ended = false, busy = false;
  bool failed = false;   /* the run stopped while its operation was in progress */
  bool waiting = false;  /* blocked on `done` (from the post until it is released) */
  bool released = false; /* `done` released, the actor not yet back from its acquire */
};

namespace {
enum { NONE, READY, RUNNING, FINISHED };

struct Plugin {
  int state = NONE;
  int finish_rc = 0;
  std::string error;
  std::string finish_error; /* the message that goes with finish_rc */
  std::string stop_reason;  /* why the run stopped before every application ended (the engine's message) */
  std::string config;       /* the config given to iosim_plugin_init, as compact JSON (a repeated init compares it) */
  bool deadlock = false;    /* a deadlock was found (by the plugin's watch, or by SimGrid: Engine::on_deadlock) */
  int nwaiting = 0;         /* applications `waiting` */
  int nreleased = 0;        /* applications `released` */
  cJSON *user = nullptr;
  ios_scenario_t scenario{};
  ios_platform_t platform{};
  ios_workload_t workload{};
  ios_sim_config_t cfg{};
  ios_results_t results{};
  bool outputs = false; /* output.dir given: files written at iosim_plugin_finish */
  std::vector<std::unique_ptr<iosim_app>> apps;
  std::vector<double> volume, work;
  std::unordered_map<std::string, int> compute; /* compute host name -> index */
};
Plugin P;

int fail(int rc) {
  P.error = ios_diag_message();
  ios_lib_fail(rc, "%s", P.error.c_str()); /* iosim_error() of the calling thread says the same */
  return rc;
}

int fail_msg(int rc, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int fail_msg(int rc, const char *where, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ios_diag_set("iosim plugin", where, "%s", msg);
  return fail(rc);
}

/* In SimGrid's maestro: application `a`'s actor goes on (its operation completed, or `failed`). */
void let_go(iosim_app *a, bool failed) {
  if (!a->waiting) return;
  a->waiting = false;
  P.nwaiting--;
  a->failed = failed;
  a->released = true;
  P.nreleased++;
  a->done->release();
}

/* In SimGrid's maestro: application `app`'s operation completed. */
void on_done(int app, void *) {
  let_go(P.apps[app].get(), false);
}

/* In SimGrid's maestro: every caller still waiting gets the failure `why`. */
void let_waiting_go(const std::string &why) {
  P.stop_reason = why;
  for (auto &a : P.apps)
    let_go(a.get(), true);
}

/* In SimGrid's maestro: the run stopped (a policy failed). */
void on_stopped(void *) {
  let_waiting_go(ios_diag_message());
}

/* In SimGrid's maestro, when no actor can go on and no activity will end: the deadlock is recorded with the
 * applications it caught (the run's error), and the actors waiting in the plugin are let go with the error. Found
 * first by the plugin's watch (ios_sg_stall_watch: actors waiting in the plugin and nothing else to run), whose
 * released actors return the error from their calls; otherwise by SimGrid (Engine::on_deadlock: no actor waits in the
 * plugin, or the watch could not tell), after which SimGrid 3.32 kills every actor still alive (EngineImpl::run does
 * so right after the signal). */
void on_deadlock() {
  if (P.state != RUNNING || P.deadlock) return; /* the first finding names the applications */
  P.deadlock = true;
  std::string blocked, open;
  for (auto &a : P.apps) {
    std::string &list = a->waiting ? blocked : open;
    if (a->waiting || (a->begun && !a->ended)) list += (list.empty() ? "" : ", ") + a->name;
  }
  char date[64];
  snprintf(date, sizeof date, "%.9g", sg4::Engine::get_clock());
  std::string why = std::string("deadlock at t = ") + date + " s (no actor could go on and no activity would end)";
  if (!blocked.empty())
    why += "; waiting for an I/O operation of iosim: " + blocked +
           " (the sharing policy gave its transfers no bandwidth and no other application changed that)";
  if (!open.empty()) why += "; begun and not ended, waiting on something else: " + open;
  why += ". Fix the program's actors so that each application ends (iosim_app_end), or the sharing policy";
  let_waiting_go(why);
}

/* When SimGrid's run starts: the declared applications become the workload, and the engine starts. */
void start() {
  if (P.state != READY) return;
  for (auto &app : P.apps) {
    ios_app_t *a = ios_workload_add(&P.workload);
    if (a == nullptr || (a->name = strdup(app->name.c_str())) == nullptr) {
      fail_msg(IOS_ENOMEM, nullptr, "out of memory for the applications");
      return;
    }
    a->nodes = app->nodes;
  }
  ios_sim_config_from_scenario(&P.scenario, &P.cfg);
  P.cfg.external = 1;
  P.cfg.queue = 1; /* allocation and placement decided again whenever the running set changes */
  P.cfg.backfill = 0;
  P.cfg.flows_simgrid = 1;
  P.cfg.window_begin = P.cfg.window_end = NAN; /* the whole run */
  P.cfg.stop_at_end = 0;
  P.cfg.window_v2 = 0;
  P.cfg.external_done = on_done;
  P.cfg.external_stopped = on_stopped;
  P.cfg.external_waiting = [] { return P.nwaiting; }; /* the deadlock watch (ios_sg_stall_watch) */
  P.cfg.external_released = [] { return P.nreleased; };
  P.cfg.external_stalled = on_deadlock;
  P.cfg.external_volume = P.volume.data();
  P.cfg.external_work = P.work.data();
  P.cfg.out_dir = P.outputs ? P.scenario.out_dir : nullptr;
  P.cfg.events = P.outputs && P.scenario.events;
  P.cfg.progress = 0;
  for (int i = 0; i < P.platform.ncompute; i++)
    P.compute.emplace(P.platform.compute[i]->get_name(), i);
  int rc = ios_engine_start(&P.cfg, &P.platform, &P.workload, &P.results);
  if (rc != IOS_OK) {
    fail(rc);
    P.finish_rc = rc;
    P.state = FINISHED;
    return;
  }
  P.state = RUNNING;
}

/* The application, checked to be running in a running plugin. */
int running(const iosim_app *app, const char *what) {
  if (P.state == READY)
    return fail_msg(IOS_EINVAL, what, "the simulation has not started: call it from an actor, during SimGrid's run");
  if (P.state != RUNNING)
    return P.finish_rc != IOS_OK
               ? IOS_EINVAL
               : fail_msg(IOS_EINVAL, what, "the plugin is not running: call iosim_plugin_init first");
  if (app == nullptr) return fail_msg(IOS_EINVAL, what, "the application is NULL");
  return IOS_OK;
}

/* Appends a phase to application j's workload entry. */
int append_phase(int j, double value, int kind) {
  ios_app_t *a = &P.workload.apps[j];
  auto *ph = static_cast<ios_phase_t *>(realloc(a->phases, sizeof(ios_phase_t) * (size_t)(a->nphases + 1)));
  if (ph == nullptr) return fail_msg(IOS_ENOMEM, a->name, "out of memory for its phases");
  a->phases = ph;
  a->phases[a->nphases++] = ios_phase_t{value, kind};
  return IOS_OK;
}

/* Runs `fn` in SimGrid's maestro (the engine's state is the maestro's), through the SimGrid seam. */
template <class F> int in_maestro(F fn) {
  return ios_sg_in_maestro([](void *f) { return (*static_cast<F *>(f))(); }, &fn);
}

/* The compute time since the application began or last ended an operation, as a work phase it has done. */
int work_since(iosim_app *app) {
  double w = sg4::Engine::get_clock() - app->since;
  return w > 0 ? append_phase(app->index, w, IOS_PHASE_WORK) : IOS_OK;
}

int operation(iosim_app *app, double bytes, int kind, const char *what) {
  int rc = running(app, what);
  if (rc != IOS_OK) return rc;
  if (!(bytes >= 0) || !std::isfinite(bytes))
    return fail_msg(IOS_EINVAL, app->name.c_str(), "%s of %g bytes: give a finite number of bytes >= 0", what, bytes);
  if (!app->begun || app->ended || app->busy)
    return fail_msg(IOS_EINVAL, app->name.c_str(), "cannot %s: %s", what,
                    !app->begun  ? "it has not begun (iosim_app_begin)"
                    : app->ended ? "it has ended"
                                 : "another operation of it is in progress");
  if ((rc = work_since(app)) != IOS_OK || (rc = append_phase(app->index, bytes, kind)) != IOS_OK) return rc;
  rc = in_maestro([app] {
    app->waiting = true; /* before the post: its completion (on_done) may come at once */
    P.nwaiting++;
    int r = ios_engine_app_post(app->index);
    if (r != IOS_OK) {
      app->waiting = false;
      P.nwaiting--;
    }
    return r;
  });
  if (rc != IOS_OK) return fail(rc);
  app->busy = true;
  app->done->acquire();
  app->busy = false;
  app->released = false;
  P.nreleased--;
  app->since = sg4::Engine::get_clock();
  if (app->failed) return fail_msg(IOS_EINVAL, app->name.c_str(), "the run stopped: %s", P.stop_reason.c_str());
  return IOS_OK;
}

/* The value of one metric of the results (or of application j's when j >= 0), by its output name. */
int metric(int j, const char *name, double *value) {
  if (P.state != FINISHED)
    return fail_msg(IOS_EINVAL, name,
                    P.state == RUNNING ? "no results yet: SimGrid's run has not ended (the plugin collects them then)"
                                       : "no results: initialise the plugin (iosim_plugin_init) and run SimGrid first");
  if (P.finish_rc != IOS_OK || P.results.apps == nullptr)
    return fail_msg(IOS_EINVAL, name, "no results: the run failed (iosim_plugin_finish returns %d): %s", P.finish_rc,
                    P.finish_error.c_str());
  const ios_results_t &r = P.results;
  struct Entry {
    const char *name;
    double v;
  };
  if (j < 0) {
    const Entry e[] = {{"makespan_s", r.makespan_s},
                       {"total_io_time_s", r.total_io_time_s},
                       {"mean_io_stretch", r.mean_io_stretch},
                       {"mean_io_slowdown", r.mean_io_slowdown},
                       {"utilization", r.utilization},
                       {"efficiency", r.efficiency},
                       {"io_load", r.io_load},
                       {"min_yield", r.min_yield},
                       {"aggregate_bandwidth_Bps", r.aggregate_bandwidth_Bps},
                       {"machine_idle_time", r.machine_idle_time},
                       {"events", static_cast<double>(r.events)},
                       {"rate_changes", static_cast<double>(r.rate_changes)},
                       {"flows", static_cast<double>(r.flows)}};
    for (const auto &x : e)
      if (name != nullptr && strcmp(name, x.name) == 0) {
        *value = x.v;
        return IOS_OK;
      }
  } else {
    const ios_app_result_t &a = r.apps[j];
    const Entry e[] = {{"start_s", a.start},           {"end_s", a.end},
                       {"io_time_s", a.io_time},       {"io_volume_bytes", a.io_volume},
                       {"work_time_s", a.work_time},   {"n_resources", static_cast<double>(a.n_resources)},
                       {"bandwidth_Bps", a.bandwidth}, {"io_slowdown", a.io_slowdown},
                       {"io_stretch", a.io_stretch},   {"yield", a.yield}};
    for (const auto &x : e)
      if (name != nullptr && strcmp(name, x.name) == 0) {
        *value = x.v;
        return IOS_OK;
      }
  }
  return fail_msg(IOS_EINVAL, name != nullptr ? name : "(null)",
                  "unknown metric name: see include/iosim/plugin.h for the names");
}
/* The results of the run, once: the engine's, checked complete, and the output files when asked for. From SimGrid's
 * maestro when its run ends (Engine::on_simulation_end), or from iosim_plugin_finish after a run that stopped with
 * actors still alive (Engine::run_until). */
void collect() {
  if (P.state != RUNNING) return;
  P.state = FINISHED;
  int rc = ios_engine_finish();
  if (P.deadlock) { /* whatever the engine has: some application did not end */
    ios_diag_set("iosim plugin", "simulation", "%s", P.stop_reason.c_str());
    rc = IOS_EINVAL;
  } else if (rc != IOS_OK) /* a policy failed during the run: the engine's own message */
    ios_diag_set(nullptr, nullptr, "%s",
                 (P.stop_reason.empty() ? std::string(ios_diag_message()) : P.stop_reason).c_str());
  else if (!P.results.complete) {
    for (auto &a : P.apps)
      if (!a->ended) {
        ios_diag_set("iosim plugin", a->name.c_str(),
                     "did not end before SimGrid's run did: call iosim_app_end when it is done");
        break;
      }
    rc = IOS_EINVAL;
  } else if (P.outputs)
    rc = ios_output_write(&P.scenario, &P.platform, &P.workload, &P.results);
  P.finish_rc = rc;
  P.finish_error = rc != IOS_OK ? ios_diag_message() : "";
}

/* SimGrid's run has ended (Engine::on_simulation_end, also after each Engine::run_until): the results are collected
 * when no actor is left, i.e. when the simulation is over. */
void on_simulation_end() {
  if (sg4::Engine::get_instance()->get_actor_count() == 0) collect();
}

/* The config as compact JSON, or "" when it is not a JSON text. */
std::string compact(const char *config_json) {
  cJSON *c = cJSON_Parse(config_json != nullptr ? config_json : "{}");
  char *text = c != nullptr ? cJSON_PrintUnformatted(c) : nullptr;
  std::string out = text != nullptr ? text : "";
  cJSON_free(text);
  cJSON_Delete(c);
  return out;
}
} // namespace

extern "C" int iosim_plugin_init(const char *config_json) {
  if (P.state != NONE) { /* as SimGrid's plugins: a repeated init is a no-op, unless it asks for something else */
    if (compact(config_json) == P.config) {
      P.error.clear();
      return IOS_OK;
    }
    return fail_msg(IOS_EINVAL, "iosim_plugin_init",
                    "the plugin is already initialised with another config (%s): one plugin per process, with the "
                    "config of its first init; give the same config again, or none",
                    P.config.c_str());
  }
  if (!sg4::Engine::is_initialized() || sg4::Engine::get_instance()->get_host_count() == 0)
    return fail_msg(IOS_EINVAL, "iosim_plugin_init",
                    "SimGrid's engine has no platform yet: create the engine and load the platform first");
  if (simgrid::config::get_value<std::string>("network/model") != "CM02" ||
      simgrid::config::get_value<bool>("network/crosstraffic"))
    return fail_msg(IOS_EINVAL, "iosim_plugin_init",
                    "iosim's rates hold on SimGrid's CM02 network model without cross-traffic: set "
                    "network/model:CM02 and network/crosstraffic:0 before loading the platform (e.g. "
                    "--cfg=network/model:CM02 --cfg=network/crosstraffic:0)");
  cJSON *user = cJSON_Parse(config_json != nullptr ? config_json : "{}");
  if (!cJSON_IsObject(user)) {
    cJSON_Delete(user);
    return fail_msg(IOS_EINVAL, "config", "is not a JSON object: give e.g. {\"sharing\": {\"policy\": \"fairshare\"}}");
  }
  for (const char *k : {"platform", "workload", "storage"})
    if (cJSON_GetObjectItemCaseSensitive(user, k) != nullptr) {
      cJSON_Delete(user);
      return fail_msg(IOS_EINVAL, k,
                      "has no place in the plugin's config: the platform is the program's, the applications those it "
                      "declares (iosim_app_declare); remove it");
    }
  const cJSON *out = cJSON_GetObjectItemCaseSensitive(user, "output");
  P.outputs = cJSON_IsObject(out) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(out, "dir"));
  /* the scenario's platform is not used: a placeholder family, so that no file is looked for */
  cJSON_AddItemToObject(user, "platform", cJSON_Parse("{\"kind\": \"pfs-single\"}"));
  int rc = ios_scenario_from_json(user, "iosim plugin config", &P.scenario);
  if (rc != IOS_OK) {
    cJSON_Delete(user);
    return fail(rc);
  }
  P.user = user;
  cJSON_ReplaceItemInObjectCaseSensitive(P.scenario.resolved, "platform",
                                         cJSON_CreateString("(the SimGrid program's platform)"));
  P.scenario.platform_spec = nullptr;
  rc = ios_platform_from_engine("the SimGrid program's platform", P.scenario.platform_roles, &P.platform);
  if (rc == IOS_OK && P.outputs) rc = ios_output_prepare(&P.scenario);
  if (rc != IOS_OK) return fail(rc);
  sg4::Engine::on_simulation_start_cb(start);
  sg4::Engine::on_simulation_end_cb(on_simulation_end);
  sg4::Engine::on_deadlock_cb(on_deadlock);
  P.config = compact(config_json);
  P.state = READY;
  P.error.clear();
  return IOS_OK;
}

extern "C" iosim_app_t *iosim_app_declare(const char *name, int nodes, double volume_bytes, double work_s) {
  if (P.state != READY) {
    fail_msg(IOS_EINVAL, "iosim_app_declare",
             P.state == NONE ? "call iosim_plugin_init first" : "the simulation has started: declare before it runs");
    return nullptr;
  }
  if (name == nullptr || name[0] == '\0') {
    fail_msg(IOS_EINVAL, "iosim_app_declare", "the application needs a name");
    return nullptr;
  }
  for (auto &a : P.apps)
    if (a->name == name) {
      fail_msg(IOS_EINVAL, name, "an application of this name is already declared: give each its own");
      return nullptr;
    }
  if (nodes < 1 || nodes > P.platform.ncompute) {
    fail_msg(IOS_EINVAL, name, "nodes = %d: give 1 to %d (the platform's compute hosts)", nodes, P.platform.ncompute);
    return nullptr;
  }
  if (!(volume_bytes >= 0) || !(work_s >= 0) || !std::isfinite(volume_bytes) || !std::isfinite(work_s)) {
    fail_msg(IOS_EINVAL, name, "volume %g bytes, work %g s: give finite values >= 0 (0 = unknown)", volume_bytes,
             work_s);
    return nullptr;
  }
  auto app = std::make_unique<iosim_app>();
  app->name = name;
  app->nodes = nodes;
  app->index = static_cast<int>(P.apps.size());
  P.volume.push_back(volume_bytes);
  P.work.push_back(work_s);
  P.apps.push_back(std::move(app));
  return P.apps.back().get();
}

extern "C" int iosim_app_begin(iosim_app_t *app, const char *const *hosts) {
  int rc = running(app, "iosim_app_begin");
  if (rc != IOS_OK) return rc;
  if (app->begun) return fail_msg(IOS_EINVAL, app->name.c_str(), "has already begun");
  if (hosts == nullptr) return fail_msg(IOS_EINVAL, app->name.c_str(), "no hosts given: give its %d hosts", app->nodes);
  std::vector<int> idx(app->nodes);
  for (int i = 0; i < app->nodes; i++) {
    auto it = hosts[i] != nullptr ? P.compute.find(hosts[i]) : P.compute.end();
    if (it == P.compute.end()) {
      const sg4::Host *h = hosts[i] != nullptr ? sg4::Host::by_name_or_null(hosts[i]) : nullptr;
      const char *role = h != nullptr ? h->get_property("role") : nullptr;
      std::string what = h == nullptr      ? "is not a host of the platform"
                         : role != nullptr ? std::string("is a host of role '") + role + "', not a compute host"
                                           : "is a host without a role, not a compute host";
      std::string some; /* a few of the compute hosts, to show what is expected */
      for (int k = 0; k < P.platform.ncompute && k < 4; k++)
        some += (k > 0 ? ", " : "") + std::string(P.platform.compute[k]->get_name());
      if (P.platform.ncompute > 4) some += ", ...";
      return fail_msg(IOS_EINVAL, app->name.c_str(),
                      "host '%s' (%d of %d) %s: give the %d hosts it runs on among the platform's %d compute hosts "
                      "(%s), the hosts whose property role is 'compute' in the platform XML or set by the config's "
                      "platform_roles; a program lists them with Engine::get_all_hosts() and "
                      "Host::get_property(\"role\")",
                      hosts[i] != nullptr ? hosts[i] : "(null)", i + 1, app->nodes, what.c_str(), app->nodes,
                      P.platform.ncompute, some.c_str());
    }
    idx[i] = it->second;
  }
  rc = in_maestro([app, &idx] { return ios_engine_app_begin(app->index, idx.data()); });
  if (rc != IOS_OK) return fail(rc);
  app->begun = true;
  app->since = sg4::Engine::get_clock();
  return IOS_OK;
}

extern "C" int iosim_app_write(iosim_app_t *app, double bytes) {
  return operation(app, bytes, IOS_PHASE_WRITE, "write");
}

extern "C" int iosim_app_read(iosim_app_t *app, double bytes) {
  return operation(app, bytes, IOS_PHASE_READ, "read");
}

extern "C" int iosim_app_end(iosim_app_t *app) {
  int rc = running(app, "iosim_app_end");
  if (rc != IOS_OK) return rc;
  if (!app->begun || app->ended || app->busy)
    return fail_msg(IOS_EINVAL, app->name.c_str(), "cannot end: %s",
                    !app->begun  ? "it has not begun"
                    : app->ended ? "it has already ended"
                                 : "an operation of it is in progress");
  if ((rc = work_since(app)) != IOS_OK) return rc;
  rc = in_maestro([app] { return ios_engine_app_end(app->index); });
  if (rc != IOS_OK) return fail(rc);
  app->ended = true;
  return IOS_OK;
}

extern "C" int iosim_plugin_finish(void) {
  if (P.state == RUNNING && !sg4::Actor::is_maestro())
    return fail_msg(IOS_EINVAL, "iosim_plugin_finish",
                    "called from an actor while SimGrid runs: the plugin collects the results when SimGrid's run "
                    "ends; read them after it (iosim_plugin_metric), with or without this call");
  if (P.state == RUNNING) collect(); /* SimGrid's run stopped with actors alive (Engine::run_until) */
  if (P.state != FINISHED)
    return fail_msg(IOS_EINVAL, "iosim_plugin_finish",
                    P.state == NONE ? "the plugin was never initialised" : "SimGrid's run has not started");
  if (P.finish_rc != IOS_OK) {
    P.error = P.finish_error;
    ios_lib_fail(P.finish_rc, "%s", P.error.c_str());
  } else
    P.error.clear();
  return P.finish_rc;
}

extern "C" int iosim_plugin_metric(const char *name, double *value) {
  return metric(-1, name, value);
}

extern "C" int iosim_app_metric(const iosim_app_t *app, const char *name, double *value) {
  if (app == nullptr) return fail_msg(IOS_EINVAL, "iosim_app_metric", "the application is NULL");
  return metric(app->index, name, value);
}

extern "C" const char *iosim_plugin_error(void) {
  return P.error.c_str();
}
