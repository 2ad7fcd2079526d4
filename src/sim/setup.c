/* iosim — the set-up of a run (see sim_setup.h): what the policies know (knowledge), allocation and placement of
 * the whole workload, each application's and resource's state, the transfer path, the steady-state window, the traces.
 * Nothing is simulated here; the engine façade (engine.c) calls sim_setup once per run. */
#include "sim_setup.h"

#include "ios_arbiter.h"
#include "ios_diag.h"
#include "ios_knowledge.h"
#include "ios_platgen.h"
#include "ios_window.h"
#include "sim_calendar.h"
#include "sim_controller.h"
#include "sim_queue.h"
#include "sim_striping.h"
#include "sim_traces.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_setup, iosim, "iosim engine: set-up");

/* b_j(n) with the platform's default when the application has no profile: min(Q_j·b_nic, n·C) (RR-9502 Eq. 1). */
static void fill_profile(engine_t *e, const ios_app_t *a, ios_profile_t *prof) {
  if (a->has_profile) {
    *prof = a->profile;
    return;
  }
  memset(prof, 0, sizeof *prof);
  int nmax = e->nres < IOS_PROFILE_MAX ? e->nres : IOS_PROFILE_MAX;
  double c = 0;
  for (int r = 0; r < e->nres; r++)
    c += e->p->res[r].capacity;
  c /= e->nres;
  double nic = a->nodes * e->p->nic_bw;
  for (int n = 1; n <= nmax; n++) {
    prof->n[prof->npoints] = n;
    prof->bw[prof->npoints++] = nic < n * c ? nic : n * c;
  }
  if (e->nres > IOS_PROFILE_MAX) {
    prof->n[prof->npoints - 1] = e->nres;
    prof->bw[prof->npoints - 1] = nic < e->nres * c ? nic : e->nres * c;
  }
}

/* Allocation and placement of every application: the scenario's policies decide for the applications without given
 * resources (ios_app_t.given), the others keep theirs. alloc_n[napps] out; *placed_out = the resource indices of
 * the applications in order (owned by the caller). */
static int arbitrate_all(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w,
                         const ios_app_view_t *views, int *alloc_n, int **placed_out) {
  int napps = w->napps, k = 0, total = 0;
  *placed_out = NULL;
  for (int j = 0; j < napps; j++) {
    const ios_app_t *a = &w->apps[j];
    if (a->given == NULL) continue;
    if (s->queue && (a->ngiven == 0 || a->ngiven > p->nres)) { /* a queued job keeps them from its start (queue.c) */
      ios_diag_set(s->file, a->name,
                   "resources given by the workload (%d, repeats or direct PFS access) do not fit a job queue's "
                   "allocation of at most the %d resources: drop queue.enabled",
                   a->ngiven, p->nres);
      return IOS_EINVAL;
    }
    if (a->ngiven == 0 && (!p->has_pfs || ios_profile_bw(views[j].profile, 0) <= 0)) {
      ios_diag_set(s->file, a->name, "gets direct PFS access but %s",
                   p->has_pfs ? "its profile has no point n = 0: give one" : "the platform has no role=pfs host");
      return IOS_EINVAL;
    }
    for (int i = 0; i < a->ngiven; i++)
      if (a->given[i] < 0 || a->given[i] >= p->nres) {
        ios_diag_set(s->file, a->name, "given resource index %d is not one of the platform's %d resources", a->given[i],
                     p->nres);
        return IOS_EINVAL;
      }
  }
  int *sel = malloc(sizeof *sel * (size_t)(napps > 0 ? napps : 1));
  int *pol_n = malloc(sizeof *pol_n * (size_t)(napps > 0 ? napps : 1));
  int *pol_res = NULL, rc = sel && pol_n ? IOS_OK : IOS_ENOMEM;
  for (int j = 0; rc == IOS_OK && j < napps; j++)
    if (w->apps[j].given == NULL) sel[k++] = j;
  if (rc == IOS_OK && k > 0) rc = ios_arbitrate(s, p, w, views, sel, k, IOS_STREAM_ARBITRATION, pol_n, &pol_res);
  for (int j = 0, i = 0; rc == IOS_OK && j < napps; j++) {
    alloc_n[j] = w->apps[j].given != NULL ? w->apps[j].ngiven : pol_n[i++];
    total += alloc_n[j];
  }
  int *placed = rc == IOS_OK ? malloc(sizeof *placed * (size_t)(total > 0 ? total : 1)) : NULL;
  if (rc == IOS_OK && placed == NULL) rc = IOS_ENOMEM;
  for (int j = 0, off = 0, poff = 0; rc == IOS_OK && j < napps; j++) {
    const int *from = w->apps[j].given != NULL ? w->apps[j].given : pol_res + poff;
    memcpy(placed + off, from, sizeof *placed * (size_t)alloc_n[j]);
    if (w->apps[j].given == NULL) poff += alloc_n[j];
    off += alloc_n[j];
  }
  free(sel);
  free(pol_n);
  free(pol_res);
  if (rc == IOS_OK) *placed_out = placed;
  return rc;
}

/* The transfer layer's path for this run (ios_transfer.h, docs/engine.md): direct when the sharing policy decides
 * every rate itself (not max-min, no striping) and no link between the applications' hosts and the resources can bind
 * those rates; SimGrid flows otherwise, or when the scenario asks for them (engine.flows). */
static int choose_transfer_path(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p) {
  /* while SimGrid's tracer records the run, every byte goes through SimGrid (docs/trace.md) */
  int direct = !s->flows_simgrid && !e->trace && !s->replay && !s->sharing->uncapped;
  for (int j = 0; direct && j < e->napps; j++)
    direct = e->apps[j].st.policy == NULL;
  for (int r = 0; direct && r < p->nres; r++) /* a read route of its own: SimGrid decides (reads never direct) */
    for (int j = 0; direct && p->res[r].read_host != NULL && j < e->napps; j++)
      for (int k = 0; direct && k < e->apps[j].a->nphases; k++)
        direct = e->apps[j].a->phases[k].is_io != IOS_PHASE_READ;
  if (direct) {
    /* the (host, resource) pairs transfers can use, grouped by resource: every node of each application to its
     * resources (the PFS when it has none: a job's I/O leaves from all its nodes); with a job queue, any compute node
     * to any resource */
    int nres = p->nres + (p->has_pfs ? 1 : 0), hosts = s->queue ? p->ncompute : e->napps, npairs = 0;
    size_t most = 1;
    for (int h = 0; h < hosts; h++) /* an upper bound: each host (queue) or each application's nodes, every resource */
      most += (size_t)(s->queue || s->replay ? 1 : e->apps[h].a->nodes) * (size_t)(nres > 0 ? nres : 1);
    sg_host_t *from = malloc(sizeof *from * most), *res_hosts = malloc(sizeof *res_hosts * (size_t)(nres + 1));
    int *to = malloc(sizeof *to * most);
    double *cap = malloc(sizeof *cap * (size_t)(nres + 1));
    int ok = from && res_hosts && to && cap ? 1 : -1;
    for (int r = 0; ok > 0 && r < nres; r++) {
      const ios_resource_t *res = r < p->nres ? &p->res[r] : &p->pfs;
      res_hosts[r] = res->host;
      cap[r] = res->capacity;
      for (int h = 0; h < hosts; h++) {
        int uses = s->queue;
        for (int i = 0; !uses && i < e->apps[h].n; i++)
          uses = e->apps[h].res[i] == r;
        uses |= !s->queue && r == p->nres && e->apps[h].n == 0;
        if (!uses) continue;
        if (s->queue || s->replay) {
          from[npairs] = s->queue ? p->compute[h] : e->apps[h].host;
          to[npairs++] = r;
          continue;
        }
        for (int k = 0; k < e->apps[h].a->nodes; k++) {
          from[npairs] = p->compute[e->apps[h].host0 + k];
          to[npairs++] = r;
        }
      }
    }
    if (ok > 0) ok = ios_tr_direct_possible(npairs, from, to, res_hosts, cap);
    free(from);
    free(res_hosts);
    free(to);
    free(cap);
    if (ok < 0) return IOS_ENOMEM;
    direct = ok;
  }
  e->direct = direct;
  /* the benchmark switch IOSIM_SIMGRID_CLOCK=1: the direct path's calendar sleeps on SimGrid's clock from date to date
   * (docs/engine.md) */
  sim_calendar_clock(e, direct && !s->bench.simgrid_clock);
  XBT_VERB("transfers: %s", direct ? "direct (no link can bind the policy's rates)" : "SimGrid flows");
  ios_tr_options_t o = {.direct = direct,
                        .date = &e->clock,
                        .flow_groups = !s->bench.flow_groups_off,
                        .flow_restart = s->bench.flow_restart,
                        .flows = NULL,
                        .sg = e->sg,
                        /* SimGrid's tracer records link bandwidths: node groups would show in it */
                        .node_groups = !s->bench.node_groups_off && !e->trace,
                        .senders = p->compute,
                        .nsenders = p->ncompute,
                        .controller = p->controller};
  int rc = ios_tr_init(&e->tr, &o, &sim_tr_hooks, e);
  if (rc == 0) return IOS_OK;
  if (rc == -2) return IOS_ENOMEM;
  ios_diag_set(s->platform, "engine.flows",
               "SimGrid's network model cannot carry iosim's flows (this SimGrid is not the 3.32 iosim was built for)");
  return IOS_EINTERNAL;
}

/* RR-9549 §6.2: the group-fit polynomials, over the dataset the workload was drawn from or over its applications,
 * replace the profiles the policies see; the fit is reported in the results. */
static int setup_fit(engine_t *e, const ios_sim_config_t *s, const ios_workload_t *w, ios_profile_t *seen) {
  ios_results_t *r = e->r;
  int over_workload = s->fit_over_workload;
  if (!over_workload && w->population == NULL) {
    ios_diag_set(s->file, "knowledge.fit_over",
                 "is \"dataset\" but this workload was not drawn from a dataset (only workload.generator kind "
                 "\"rr9549\" keeps the profiles it drew from): set knowledge.fit_over to \"workload\" to fit over "
                 "the workload's own applications, or generate the workload in the scenario");
    return IOS_EINVAL;
  }
  int rc = over_workload ? ios_knowledge_fit(w->napps, seen, (int)s->fit_degree, s->fit_flat, &r->fit)
                         : ios_knowledge_fit(w->npopulation, w->population, (int)s->fit_degree, s->fit_flat, &r->fit);
  if (rc != IOS_OK) return rc;
  r->has_fit = 1;
  r->fit_kept = ios_knowledge_apply(&r->fit, w->napps, seen);
  return IOS_OK;
}

/* What allocation and placement policies know of each application (RR-9549 Table 2), which may be less than the
 * truth (RR-9549 §6.2), and whether the workload fits the compute nodes. Fills e->profiles (the true b_j(n)), e->seen
 * and e->app_views (allocated by ios_engine_run). */
static int setup_knowledge(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  ios_profile_t *profiles = e->profiles, *seen = e->seen;
  ios_app_view_t *views = e->app_views;
  long long total_nodes = 0; /* many applications of many nodes must not overflow an int */
  int biggest = 0;
  for (int j = 0; j < w->napps; j++) {
    fill_profile(e, &w->apps[j], &profiles[j]);
    ios_app_totals(&w->apps[j], &views[j].work, &views[j].volume);
    if (s->external) { /* its phases come as it runs: what its caller declared */
      views[j].work = s->external_work[j];
      views[j].volume = s->external_volume[j];
    }
    views[j].nodes = w->apps[j].nodes;
    seen[j] = profiles[j];
    views[j].profile = &seen[j];
    views[j].requested_n = w->apps[j].requested_n;
    views[j].processes = w->apps[j].processes > 0 ? w->apps[j].processes : w->apps[j].nodes;
    total_nodes += w->apps[j].nodes;
    biggest = w->apps[j].nodes > biggest ? w->apps[j].nodes : biggest;
  }
  if (s->group_fit) {
    int rc = setup_fit(e, s, w, seen);
    if (rc != IOS_OK) return rc;
  }
  ios_knowledge_noise(w->napps, views, s->knowledge_noise, s->seed);
  if (!s->replay && (s->queue ? biggest > p->ncompute : total_nodes > p->ncompute)) {
    /* the fix depends on the platform: iosim generated it (generate it again, larger) or it is the site's own file */
    const char *bigger = ios_platgen_is_generated(s->platform)
                             ? "a larger platform (iosim platform KIND --set compute=N, or platform.compute in a "
                               "platform object)"
                             : "a platform file with more compute hosts (add compute hosts to the platform file: "
                               "hosts with role compute, e.g. a larger radical of its <cluster>)";
    if (s->queue)
      ios_diag_set(s->platform, "compute nodes",
                   "an application needs %lld compute nodes but the platform has %d: it could never start; use %s or "
                   "give the application fewer nodes",
                   (long long)biggest, p->ncompute, bigger);
    else
      ios_diag_set(
          s->platform, "compute nodes",
          "the applications need %lld compute nodes together but the platform has %d: run them through a "
          "job queue (queue.enabled: true; a job then waits for free nodes, as on the machine: docs/queue.md), "
          "or use %s, or fewer applications",
          total_nodes, p->ncompute, bigger);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Storage replay: b = the application's NICs; a flow needs no bound of its own when they exceed every link it can
 * use (fewer flow bounds: SimGrid's max-min solves much faster). */
static void replay_cap(const ios_platform_t *p, app_state_t *as) {
  double links = as->n > 0 ? 0.0 : p->pfs.capacity;
  for (int i = 0; i < as->n; i++) {
    int seen = 0;
    for (int k = 0; k < i && !seen; k++)
      seen = as->res[k] == as->res[i];
    links += seen ? 0.0 : p->res[as->res[i]].capacity;
  }
  if (as->b >= links) as->cap = INFINITY;
}

/* Where application j runs and from when: a queued job nowhere until it starts; a replayed request on the compute
 * hosts in turn (the compute side is a FATPIPE); otherwise on its own nodes from its release. */
static void place_app(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, int j, int *host_cursor) {
  app_state_t *as = &e->apps[j];
  if (s->queue) {
    as->host = p->controller;
    as->start = NAN;
    as->n = 0;
    return;
  }
  int h = s->replay ? j % p->ncompute : *host_cursor;
  if (!s->replay) *host_cursor += as->a->nodes;
  as->host = p->compute[h];
  as->host0 = h;
  as->start = ios_app_start(as->a);
  as->q.started = as->q.has_alloc = 1;
  as->q.alloc_since = as->start;
}

/* Application j's state from its allocation (n resources at placed[0..n)), and its result's resources. */
static int setup_app(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, int j, const int *placed,
                     int *host_cursor) {
  app_state_t *as = &e->apps[j];
  as->a = &e->w->apps[j];
  as->n = e->alloc_n[j];
  int room = s->queue ? (p->nres > 0 ? p->nres : 1) : (as->n > 0 ? as->n : 1);
  if (as->st.policy != NULL) { /* its (writer, OST) flows, and the OSTs its files cover (resources) */
    long flows = sim_striping_room(e, s, p, as);
    if (room < flows) room = (int)flows;
    if (room < p->nres) room = p->nres;
  }
  /* a queued job's transfers (room for every resource) exist while it runs (sim_queue_begin_transfers), not for the
   * whole run: 20,000 jobs x 1,000 OSTs would hold 4.5 GB (analysis/bench_site_year.py) */
  int later = s->queue && as->st.policy == NULL;
  as->tcap = later ? 0 : room;
  as->res = malloc(sizeof *as->res * (size_t)room);
  as->t = later ? NULL : calloc((size_t)room, sizeof *as->t);
  if (as->a->nodes > 1 && !s->replay && as->nodes == NULL) {
    as->nodes = malloc(sizeof *as->nodes * (size_t)as->a->nodes);
    if (as->nodes == NULL) return IOS_ENOMEM;
  }
  if (s->queue) {
    as->q.next_res = malloc(sizeof *as->q.next_res * (size_t)room);
    as->q.hosts = malloc(sizeof *as->q.hosts * (size_t)as->a->nodes);
  }
  ios_app_result_t *ar = &e->r->apps[j];
  ar->resources = malloc(sizeof *ar->resources * (size_t)room); /* a queued job's last allocation may be larger */
  if (as->st.policy != NULL) as->st.ost_used = calloc((size_t)(p->nres > 0 ? p->nres : 1), 1);
  if (!as->res || (!as->t && !later) || (s->queue && (!as->q.next_res || !as->q.hosts)) || !ar->resources ||
      (as->st.policy != NULL && !as->st.ost_used))
    return IOS_ENOMEM;
  memcpy(as->res, placed, sizeof *as->res * (size_t)as->n);
  as->b = ios_profile_bw(&e->profiles[j], as->n);
  as->cap = as->b / (as->n > 0 ? as->n : 1);
  if (s->replay) replay_cap(p, as);
  as->end = NAN;
  for (int i = 0; i < as->tcap; i++)
    as->t[i].slot = -1;
  place_app(e, s, p, j, host_cursor);
  for (int i = 0; !s->replay && i < as->n; i++)
    if (as->cap > p->res[as->res[i]].capacity * (1 + 1e-12))
      XBT_WARN("application %s: its cap %.6g B/s per resource exceeds the capacity of %s (%.6g B/s); the platform "
               "limits it",
               as->a->name, as->cap, p->res[as->res[i]].name, p->res[as->res[i]].capacity);
  ar->n_resources = as->n;
  memcpy(ar->resources, as->res, sizeof *as->res * (size_t)as->n);
  ar->bandwidth = as->b;
  return IOS_OK;
}

/* Every resource's state (index nres: the PFS of direct access): where its transfers go. */
static void setup_resources(engine_t *e, const ios_platform_t *p) {
  for (int i = 0; i <= p->nres; i++) {
    if (i == p->nres && !p->has_pfs) break;
    const ios_resource_t *res = i < p->nres ? &p->res[i] : &p->pfs;
    e->res[i].r = res;
    e->res[i].dest = res->host;
    e->res[i].read_dest = res->read_host; /* a disk's reads (StorAlloc §4.3): their own route, or NULL */
  }
}

/* The window (ios_window_choose), the v2 mode's switch at its middle, and δ of a periodic sharing policy. */
static int setup_window(engine_t *e, const ios_sim_config_t *s, const ios_workload_t *w) {
  double *start = malloc(sizeof *start * (size_t)(w->napps > 0 ? 2 * w->napps : 1));
  if (start == NULL) return IOS_ENOMEM;
  double *b = start + w->napps;
  for (int j = 0; j < w->napps; j++) {
    start[j] = e->apps[j].start;
    b[j] = e->apps[j].b;
  }
  ios_window_in_t in = {w, start, b, s->window_begin, s->window_end, s->window_fraction, s->queue || s->replay};
  e->r->window_kind = ios_window_choose(&in, &e->t_begin, &e->t_end);
  e->sharing = s->sharing;
  e->sharing_params = &s->sharing_params;
  int rc = IOS_OK;
  if (s->window_v2) { /* the reference's v2 windows: FairShare over the first half, objectives over the second */
    static const ios_params_t none = {{0}};
    if (isnan(e->t_end)) {
      ios_diag_set(s->file, "window.mode",
                   "v2 needs a window with an end (no steady-state window exists here): give window.begin_s and "
                   "window.end_s, or use mode v1");
      rc = IOS_EINVAL;
    }
    e->v2 = 1;
    e->t_begin = 0.5 * (e->t_begin + e->t_end);
    e->sharing = ios_sharing_find("fairshare");
    e->sharing_params = &none;
    e->r->window_kind = strcmp(e->r->window_kind, "given") == 0 ? "given-v2" : "steady-state-v2";
  }
  if (rc == IOS_OK && s->sharing->periodic) { /* δ given, or RR-9502 Eq. 5 */
    double delta = s->sharing->nparams > 0 ? s->sharing_params.v[0] : 0.0;
    if (!(delta > 0)) delta = ios_window_delta(&in, e->t_begin, e->t_end);
    if (!(delta > 0)) {
      ios_diag_set(s->file, "sharing",
                   "policy '%s' decides every δ seconds but δ cannot be derived (no steady-state window or no I/O "
                   "operation in it): give %s.%s > 0",
                   s->sharing->name, "sharing", s->sharing->nparams > 0 ? s->sharing->params[0].name : "delta_s");
      rc = IOS_EINVAL;
    }
    e->period = delta;
  }
  free(start);
  return rc;
}

int sim_records_init(engine_t *e) {
  size_t napps = (size_t)e->napps;
  e->apps = calloc(napps, sizeof *e->apps);
  e->res = calloc((size_t)e->nres + 1, sizeof *e->res);
  e->profiles = calloc(napps, sizeof *e->profiles);
  e->app_views = calloc(napps, sizeof *e->app_views);
  e->seen = calloc(napps, sizeof *e->seen);
  e->alloc_n = calloc(napps, sizeof *e->alloc_n);
  return e->apps && e->res && e->profiles && e->app_views && e->seen && e->alloc_n ? IOS_OK : IOS_ENOMEM;
}

void sim_records_fini(engine_t *e) {
  for (int j = 0; e->apps != NULL && j < e->napps; j++) {
    app_state_t *as = &e->apps[j];
    free(as->res);
    free(as->st.ost_used);
    for (int i = 0; as->t != NULL && i < as->tcap; i++)
      ios_tr_forget(&as->t[i]);
    free(as->t);
    free(as->q.next_res);
    free(as->q.hosts);
    free(as->nodes);
  }
  for (int i = 0; e->res != NULL && i <= e->nres; i++)
    free(e->res[i].active);
  free(e->profiles);
  free(e->app_views);
  free(e->seen);
  free(e->alloc_n);
  free(e->apps);
  free(e->res);
  e->apps = NULL;
  e->res = NULL;
  e->profiles = e->seen = NULL;
  e->app_views = NULL;
  e->alloc_n = NULL;
}

/* Set-up: knowledge, allocation and placement, the applications' and resources' states, the transfer path, the
 * window, the traces. Nothing is simulated yet. */
int sim_setup(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  int *placed = NULL, rc = setup_knowledge(e, s, p, w);
  /* allocation and placement once for the whole workload (RR-9549 §4: decisions for entire executions); with a job
   * queue this only validates the policies, which decide again over the running jobs as they change */
  if (rc == IOS_OK) rc = arbitrate_all(s, p, w, e->app_views, e->alloc_n, &placed);
  int keep_running = s->rearbitrate == 0 ? s->allocation->keeps_running : s->rearbitrate == 2;
  if (rc == IOS_OK && s->queue) rc = sim_queue_setup(e, keep_running);
  if (rc == IOS_OK) rc = sim_striping_setup(e, s, p, w);
  for (int j = 0, host_cursor = 0, off = 0; rc == IOS_OK && j < w->napps; off += e->alloc_n[j], j++)
    rc = setup_app(e, s, p, j, placed + off, &host_cursor);
  free(placed);
  if (rc == IOS_OK) rc = sim_trace_setup(e, s);
  if (rc == IOS_OK) rc = choose_transfer_path(e, s, p);
  e->r->direct_transfers = e->direct;
  if (rc == IOS_OK) setup_resources(e, p);
  if (rc == IOS_OK) rc = setup_window(e, s, w);
  if (rc == IOS_OK) rc = sim_open_traces(e, s);
  return rc;
}
