/* iosim — the engine (see ios_engine.h).
 *
 * One SimGrid actor: the controller (on the controller host), which runs the applications from a calendar of dated
 * wake-ups (starts, work phases' ends, job submissions, window snapshots, decision grids; calendar.c) and is the only
 * caller of policies. The applications' steps are app_advance (apps.c). Transfers move through the transfer layer
 * (ios_transfer.h, docs/engine.md): rate-capped SimGrid flows that the maestro starts and SimGrid's max-min shares with
 * every link of their route, re-rated in place; or, where no link can bind the sharing policy's rates, computed
 * directly (the direct path), where the controller also keeps the date itself.
 *
 * Job queue (scenario `queue`, IPDPS'21 §5.3): applications are submitted at their release time and wait, in FIFO
 * order, for enough free compute nodes (no backfilling unless asked); whenever the set of running jobs changes the
 * controller re-runs allocation and placement over the running jobs (ios_arbitrate). A job's new resources apply
 * from its next I/O operation (an operation in progress finishes where it started). */
#include "engine_state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

XBT_LOG_NEW_CATEGORY(iosim, "iosim: I/O resource sharing simulator");
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_engine, iosim, "iosim engine: set-up, run, collect");

/* KiB of stack of the controller, SimGrid's one actor (SimGrid's contexts/stack-size) */
#define IOS_ACTOR_STACK_KIB "256"

/* b_j(n) with the platform's default when the application has no profile: min(Q_j·b_nic, n·C) (RR-9502 Eq. 1). */
static void fill_profile(const ios_app_t *a, ios_profile_t *prof) {
  if (a->has_profile) {
    *prof = a->profile;
    return;
  }
  memset(prof, 0, sizeof *prof);
  int nmax = E.nres < IOS_PROFILE_MAX ? E.nres : IOS_PROFILE_MAX;
  double c = 0;
  for (int r = 0; r < E.nres; r++)
    c += E.p->res[r].capacity;
  c /= E.nres;
  double nic = a->nodes * E.p->nic_bw;
  for (int n = 1; n <= nmax; n++) {
    prof->n[prof->npoints] = n;
    prof->bw[prof->npoints++] = nic < n * c ? nic : n * c;
  }
  if (E.nres > IOS_PROFILE_MAX) {
    prof->n[prof->npoints - 1] = E.nres;
    prof->bw[prof->npoints - 1] = nic < E.nres * c ? nic : E.nres * c;
  }
}

/* Frees what the engine state owns (after a run, or a set-up that failed part-way); CSVs still open belong to a
 * failed set-up and are removed with their temporary files. */
static void release_engine(int napps, int nres) {
  for (int j = 0; E.apps != NULL && j < napps; j++) {
    free(E.apps[j].res);
    free(E.apps[j].ost_used);
    free(E.apps[j].t);
    free(E.apps[j].next_res);
    free(E.apps[j].hosts);
  }
  for (int i = 0; E.res != NULL && i <= nres; i++)
    free(E.res[i].active);
  free(E.waiting);
  free(E.free_hosts);
  free(E.ost_oss);
  free(E.launch_order);
  free(E.cal);
  free(E.resume);
  free(E.app_stripe_params);
  free(E.profiles);
  free(E.app_views);
  free(E.seen);
  free(E.alloc_n);
  ios_stripe_state_free(&E.stripe_state);
  for (int j = 0; E.app_stripe_state != NULL && j < napps; j++)
    ios_stripe_state_free(&E.app_stripe_state[j]);
  free(E.app_stripe_state);
  free(E.apps);
  free(E.res);
  free(E.q);
  free(E.views);
  free(E.rates);
  free(E.rems);
  free(E.vt);
  ios_tr_fini();
  ios_fs_discard(&E.al);
  ios_fs_discard(&E.ev);
}

/* The host a striped flow of compute node `client` through router `router` leaves from. */
sg_host_t sim_stripe_source(int client, int router) {
  const ios_platform_t *p = E.p;
  for (int i = p->router_start != NULL && router >= 0 ? p->router_start[client] : 0;
       p->router_start != NULL && router >= 0 && i < p->router_start[client + 1]; i++)
    if (p->router_list[i] == router) return p->router_host[i];
  return p->compute[client];
}

/* Striping (scenario `striping` or an application's own): the regular oss-ost topology (`iosim platform oss-ost`: OST k
 * on OSS k div (N/S), client k through router rtr(k mod R)), the shared usage state and each application's policy. */
static int setup_striping(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  int any = s->striping != NULL;
  for (int j = 0; j < w->napps; j++)
    any |= w->apps[j].striping[0] != '\0';
  if (!any) return IOS_OK;
  if (strcmp(p->pool_role, "ost") != 0 || p->noss < 1 || p->nres % p->noss != 0) {
    ios_diag_set(s->platform, "striping",
                 "striping needs OSTs behind object storage servers, the same number per server (this platform has "
                 "%d %s resources and %d oss hosts): use `iosim platform oss-ost`",
                 p->nres, p->pool_role, p->noss);
    return IOS_EINVAL;
  }
  E.ost_oss = malloc(sizeof *E.ost_oss * (size_t)p->nres);
  E.app_stripe_params = calloc((size_t)(w->napps > 0 ? w->napps : 1), sizeof *E.app_stripe_params);
  if (E.ost_oss == NULL || E.app_stripe_params == NULL) return IOS_ENOMEM;
  int rc = ios_stripe_topo_regular(&E.topo, E.ost_oss, p->noss, p->nres / p->noss, p->nrouters, p->ncompute);
  E.topo.client_router_start = p->router_start; /* the platform's router choices, or NULL */
  E.topo.client_routers = p->router_list;
  if (rc == IOS_OK) rc = ios_stripe_state_init(&E.stripe_state, &E.topo);
  if (rc == IOS_OK && s->striping_scope == 1) { /* each job sees only its own placements */
    E.app_stripe_state = calloc((size_t)(w->napps > 0 ? w->napps : 1), sizeof *E.app_stripe_state);
    rc = E.app_stripe_state != NULL ? IOS_OK : IOS_ENOMEM;
    for (int j = 0; rc == IOS_OK && j < w->napps; j++)
      rc = ios_stripe_state_init(&E.app_stripe_state[j], &E.topo);
  }
  if (rc != IOS_OK) {
    ios_diag_set(s->platform, "striping", "cannot describe this platform's storage path for striping");
    return rc;
  }
  ios_rng_seed(&E.stripe_rng, s->seed, IOS_STREAM_STRIPING);
  for (int j = 0; j < w->napps; j++) {
    app_state_t *as = &E.apps[j];
    const ios_app_t *a = &w->apps[j];
    const char *pname = a->striping[0] != '\0' ? a->striping : s->striping != NULL ? s->striping->name : NULL;
    if (pname == NULL) continue;
    if ((as->stripe = ios_striping_find(pname)) == NULL) {
      char names[128];
      ios_diag_set(s->file, a->name, "unknown striping policy '%s': use one of %s", pname,
                   ios_policy_names(IOS_FAMILY_STRIPING, names, sizeof names));
      return IOS_EINVAL;
    }
    if (as->stripe == s->striping)
      as->stripe_params = &s->striping_params;
    else {
      ios_params_defaults(as->stripe->nparams, as->stripe->params, &E.app_stripe_params[j]);
      as->stripe_params = &E.app_stripe_params[j];
    }
    as->layout = a->layout >= 0 ? a->layout : s->striping_layout;
    if (a->shared_files > 1 && as->layout == 0) {
      ios_diag_set(s->file, "striping.layout",
                   "application %s writes %d shared files (the ior generator's shared_files) but its layout is fpp "
                   "(file per process): set striping.layout to \"ssf\" or shared_files to 1",
                   a->name, a->shared_files);
      return IOS_EINVAL;
    }
  }
  return IOS_OK;
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
    if (s->queue) {
      ios_diag_set(s->file, a->name,
                   "resources given by the workload cannot be re-arbitrated by a job queue: "
                   "drop queue.enabled");
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
static int choose_transfer_path(const ios_sim_config_t *s, const ios_platform_t *p) {
  /* while SimGrid's tracer records the run, every byte goes through SimGrid (docs/trace.md) */
  int direct = !s->flows_simgrid && !E.trace && !s->replay && !s->sharing->uncapped;
  for (int j = 0; direct && j < E.napps; j++)
    direct = E.apps[j].stripe == NULL;
  for (int r = 0; direct && r < p->nres; r++) /* a read route of its own: SimGrid decides (reads never direct) */
    for (int j = 0; direct && p->res[r].read_host != NULL && j < E.napps; j++)
      for (int k = 0; direct && k < E.apps[j].a->nphases; k++)
        direct = E.apps[j].a->phases[k].is_io != IOS_PHASE_READ;
  if (direct) {
    /* the (host, resource) pairs transfers can use, grouped by resource: each application's first node to its
     * resources (the PFS when it has none); with a job queue, any compute node to any resource */
    int nres = p->nres + (p->has_pfs ? 1 : 0), hosts = s->queue ? p->ncompute : E.napps, npairs = 0;
    size_t most = (size_t)hosts * (size_t)(nres > 0 ? nres : 1) + 1;
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
        for (int i = 0; !uses && i < E.apps[h].n; i++)
          uses = E.apps[h].res[i] == r;
        uses |= !s->queue && r == p->nres && E.apps[h].n == 0;
        if (!uses) continue;
        from[npairs] = s->queue ? p->compute[h] : E.apps[h].host;
        to[npairs++] = r;
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
  E.direct = direct;
  /* IOSIM_SIMGRID_CLOCK=1: the direct path's calendar sleeps on SimGrid's clock from date to date (the benchmark's
   * side-by-side, docs/engine.md) */
  const char *sgclock = getenv("IOSIM_SIMGRID_CLOCK");
  E.own_clock = direct && !(sgclock != NULL && strcmp(sgclock, "1") == 0);
  E.clock = 0;
  XBT_VERB("transfers: %s", direct ? "direct (no link can bind the policy's rates)" : "SimGrid flows");
  if (ios_tr_init(direct, &E.clock, &sim_tr_hooks) == 0) return IOS_OK;
  ios_diag_set(s->platform, "engine.flows",
               "SimGrid's network model cannot carry iosim's flows (this SimGrid is not the 3.32 iosim was built for)");
  return IOS_EINTERNAL;
}

/* Starts what simulates: the controller actor, with the calendar's first wake-ups (each application's start, or a
 * queued job's submission; the window's snapshots; the decision grids). @return IOS_OK or IOS_ENOMEM. */
static int start_simulation(const ios_sim_config_t *s, const ios_platform_t *p, int napps) {
  /* SimGrid maps each actor's stack (8 MiB by default); the controller needs far less */
  if (ios_sg_set_config("contexts/stack-size:" IOS_ACTOR_STACK_KIB) != 0)
    XBT_WARN("SimGrid refused contexts/stack-size:" IOS_ACTOR_STACK_KIB);
  E.launch_order = malloc(sizeof *E.launch_order * (size_t)(napps > 0 ? napps : 1));
  E.resume = malloc(sizeof *E.resume * (size_t)(napps > 0 ? napps : 1));
  if (E.launch_order == NULL || E.resume == NULL) return IOS_ENOMEM;
  for (int j = 0; j < napps; j++)
    E.launch_order[j] = j;
  if (s->replay) /* requests in order of their start */
    qsort(E.launch_order, (size_t)napps, sizeof *E.launch_order, sim_cmp_start);
  for (int i = 0; i < napps; i++) {
    int j = E.launch_order[i];
    if (s->queue) /* submitted at its release, started by the controller when nodes are free */
      sim_cal_push(E.apps[j].a->release > 0 ? E.apps[j].a->release : 0.0, CAL_SUBMIT, j);
    else
      sim_cal_push(E.apps[j].start > 0 ? E.apps[j].start : 0.0, CAL_APP, j);
  }
  E.grids[0] = (grid_t){0.0, s->tick_s};
  E.grids[1] = (grid_t){E.t_begin, E.period};
  sim_cal_push(E.t_begin > 0 ? E.t_begin : 0.0, CAL_SNAP_BEGIN, -1);
  if (!isnan(E.t_end)) sim_cal_push(E.t_end, CAL_SNAP_END, -1);
  for (int g = 0; g < 2; g++)
    if (E.grids[g].period > 0) sim_cal_push(E.grids[g].start + E.grids[g].period, CAL_TICK, g);
  if (E.direct) /* the controller actor keeps the date itself; on the flow path SimGrid's maestro drives (no actor) */
    sg_actor_start(sg_actor_init("controller", p->controller), sim_controller_actor, 0, NULL);
  else
    ios_sg_drive(sim_flow_step);
  return IOS_OK;
}

/* RR-9549 §6.2: the group-fit polynomials, over the dataset the workload was drawn from or over its applications,
 * replace the profiles the policies see; the fit is reported in the results. */
static int setup_fit(const ios_sim_config_t *s, const ios_workload_t *w, ios_profile_t *seen) {
  ios_results_t *r = E.r;
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
 * truth (RR-9549 §6.2), and whether the workload fits the compute nodes. Fills E.profiles (the true b_j(n)), E.seen
 * and E.app_views (allocated by ios_engine_run). */
static int setup_knowledge(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  ios_profile_t *profiles = E.profiles, *seen = E.seen;
  ios_app_view_t *views = E.app_views;
  long long total_nodes = 0; /* many applications of many nodes must not overflow an int */
  int biggest = 0;
  for (int j = 0; j < w->napps; j++) {
    fill_profile(&w->apps[j], &profiles[j]);
    ios_app_totals(&w->apps[j], &views[j].work, &views[j].volume);
    views[j].nodes = w->apps[j].nodes;
    seen[j] = profiles[j];
    views[j].profile = &seen[j];
    views[j].requested_n = w->apps[j].requested_n;
    views[j].processes = w->apps[j].processes > 0 ? w->apps[j].processes : w->apps[j].nodes;
    total_nodes += w->apps[j].nodes;
    biggest = w->apps[j].nodes > biggest ? w->apps[j].nodes : biggest;
  }
  if (s->group_fit) {
    int rc = setup_fit(s, w, seen);
    if (rc != IOS_OK) return rc;
  }
  ios_knowledge_noise(w->napps, views, s->knowledge_noise, s->seed);
  if (!s->replay && (s->queue ? biggest > p->ncompute : total_nodes > p->ncompute)) {
    ios_diag_set(s->platform, "compute nodes",
                 s->queue
                     ? "an application needs %lld compute nodes but the platform has %d: it could never start; use "
                       "a larger platform (iosim platform KIND --set compute=N, or platform.compute in a "
                       "platform object) or a smaller application"
                     : "the applications need %lld compute nodes but the platform has %d: use a larger platform "
                       "(iosim platform KIND --set compute=N, or platform.compute in a platform object), fewer "
                       "applications, or a job queue (queue.enabled)",
                 s->queue ? (long long)biggest : total_nodes, p->ncompute);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* The job queue's state: no job waits yet, every compute node is free. */
static int setup_queue(const ios_platform_t *p, int napps) {
  E.waiting = malloc(sizeof *E.waiting * (size_t)(napps > 0 ? napps : 1));
  E.free_hosts = malloc(sizeof *E.free_hosts * (size_t)(p->ncompute > 0 ? p->ncompute : 1));
  if (E.waiting == NULL || E.free_hosts == NULL) return IOS_ENOMEM;
  for (int i = p->ncompute - 1; i >= 0; i--) /* a stack: jobs take the lowest free indices first */
    E.free_hosts[E.nfree++] = i;
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
static void place_app(const ios_sim_config_t *s, const ios_platform_t *p, int j, int *host_cursor) {
  app_state_t *as = &E.apps[j];
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
  as->started = as->has_alloc = 1;
  as->alloc_since = as->start;
}

/* Transfers a striped application needs at most: the largest number of (writer, OST) flows of its I/O operations,
 * found by placing each distinct volume once with a throw-away state and random stream (how many flows a placement
 * has depends on the layout only, not on which OSTs it picks). Falls back to nodes x OSTs (every pair) when there are
 * more than 64 distinct volumes or a trial fails; the real placement reports the failure. */
static long striped_room(const ios_sim_config_t *s, const ios_platform_t *p, const app_state_t *as) {
  const ios_app_t *a = as->a;
  long every = (long)ios_app_writers(a) * p->nres, room = 0;
  double seen[64];
  int nseen = 0;
  for (int k = 0; k < a->nphases; k++) {
    double v = a->phases[k].value;
    int known = !a->phases[k].is_io || !(v > 0);
    for (int i = 0; !known && i < nseen; i++)
      known = seen[i] == v;
    if (known) continue;
    if (nseen == 64) return every;
    seen[nseen++] = v;
    ios_stripe_job_t job = {.nwriters = ios_app_writers(a),
                            .layout = as->layout ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP,
                            .bytes_per_writer = v / ios_app_writers(a),
                            .shared_files = as->layout ? a->shared_files : 0};
    ios_stripe_state_t st;
    ios_stripe_placement_t pl = {0};
    ios_stripe_flow_t *flows = NULL;
    ios_rng_t rng;
    int n = 0;
    ios_rng_seed(&rng, s->seed, IOS_STREAM_STRIPING);
    int rc = ios_stripe_state_init(&st, &E.topo);
    if (rc == IOS_OK) rc = as->stripe->place(&E.topo, &job, as->stripe_params, &rng, &st, &pl);
    if (rc == IOS_OK) rc = ios_stripe_flows(&E.topo, &job, &pl, &flows, &n);
    free(flows);
    ios_stripe_placement_free(&pl);
    ios_stripe_state_free(&st);
    if (rc != IOS_OK) return every;
    if (n > room) room = n;
  }
  return room;
}

/* Application j's state from its allocation (n resources at placed[0..n)), and its result's resources. */
static int setup_app(const ios_sim_config_t *s, const ios_platform_t *p, int j, const int *placed, int *host_cursor) {
  app_state_t *as = &E.apps[j];
  as->a = &E.w->apps[j];
  as->n = E.alloc_n[j];
  int room = s->queue ? (p->nres > 0 ? p->nres : 1) : (as->n > 0 ? as->n : 1);
  if (as->stripe != NULL) { /* its (writer, OST) flows, and the OSTs its files cover (resources) */
    long flows = striped_room(s, p, as);
    if (room < flows) room = (int)flows;
    if (room < p->nres) room = p->nres;
  }
  as->tcap = room;
  as->res = malloc(sizeof *as->res * (size_t)room);
  as->t = calloc((size_t)room, sizeof *as->t);
  if (s->queue) {
    as->next_res = malloc(sizeof *as->next_res * (size_t)room);
    as->hosts = malloc(sizeof *as->hosts * (size_t)as->a->nodes);
  }
  ios_app_result_t *ar = &E.r->apps[j];
  ar->resources = malloc(sizeof *ar->resources * (size_t)room); /* a queued job's last allocation may be larger */
  if (as->stripe != NULL) as->ost_used = calloc((size_t)(p->nres > 0 ? p->nres : 1), 1);
  if (!as->res || !as->t || (s->queue && (!as->next_res || !as->hosts)) || !ar->resources ||
      (as->stripe != NULL && !as->ost_used))
    return IOS_ENOMEM;
  memcpy(as->res, placed, sizeof *as->res * (size_t)as->n);
  as->b = ios_profile_bw(&E.profiles[j], as->n);
  as->cap = as->b / (as->n > 0 ? as->n : 1);
  if (s->replay) replay_cap(p, as);
  as->end = NAN;
  for (int i = 0; i < room; i++)
    as->t[i].slot = -1;
  place_app(s, p, j, host_cursor);
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
static void setup_resources(const ios_platform_t *p) {
  for (int i = 0; i <= p->nres; i++) {
    if (i == p->nres && !p->has_pfs) break;
    const ios_resource_t *res = i < p->nres ? &p->res[i] : &p->pfs;
    E.res[i].r = res;
    E.res[i].dest = res->host;
    E.res[i].read_dest = res->read_host; /* a disk's reads (StorAlloc §4.3): their own route, or NULL */
  }
}

/* The window (ios_window_choose), the v2 mode's switch at its middle, and δ of a periodic sharing policy. */
static int setup_window(const ios_sim_config_t *s, const ios_workload_t *w) {
  double *start = malloc(sizeof *start * (size_t)(w->napps > 0 ? 2 * w->napps : 1));
  if (start == NULL) return IOS_ENOMEM;
  double *b = start + w->napps;
  for (int j = 0; j < w->napps; j++) {
    start[j] = E.apps[j].start;
    b[j] = E.apps[j].b;
  }
  ios_window_in_t in = {w, start, b, s->window_begin, s->window_end, s->window_fraction, s->queue || s->replay};
  E.r->window_kind = ios_window_choose(&in, &E.t_begin, &E.t_end);
  E.sharing = s->sharing;
  E.sharing_params = &s->sharing_params;
  int rc = IOS_OK;
  if (s->window_v2) { /* the reference's v2 windows: FairShare over the first half, objectives over the second */
    static const ios_params_t none = {{0}};
    if (isnan(E.t_end)) {
      ios_diag_set(s->file, "window.mode",
                   "v2 needs a window with an end (no steady-state window exists here): give window.begin_s and "
                   "window.end_s, or use mode v1");
      rc = IOS_EINVAL;
    }
    E.v2 = 1;
    E.t_begin = 0.5 * (E.t_begin + E.t_end);
    E.sharing = ios_sharing_find("fairshare");
    E.sharing_params = &none;
    E.r->window_kind = strcmp(E.r->window_kind, "given") == 0 ? "given-v2" : "steady-state-v2";
  }
  if (rc == IOS_OK && s->sharing->periodic) { /* δ given, or RR-9502 Eq. 5 */
    double delta = s->sharing->nparams > 0 ? s->sharing_params.v[0] : 0.0;
    if (!(delta > 0)) delta = ios_window_delta(&in, E.t_begin, E.t_end);
    if (!(delta > 0)) {
      ios_diag_set(s->file, "sharing",
                   "policy '%s' decides every δ seconds but δ cannot be derived (no steady-state window or no I/O "
                   "operation in it): give %s.%s > 0",
                   s->sharing->name, "sharing", s->sharing->nparams > 0 ? s->sharing->params[0].name : "delta_s");
      rc = IOS_EINVAL;
    }
    E.period = delta;
  }
  free(start);
  return rc;
}

/* Set-up: knowledge, allocation and placement, the applications' and resources' states, the transfer path, the
 * window, the traces. Nothing is simulated yet. */
static int setup(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  int *placed = NULL, rc = setup_knowledge(s, p, w);
  /* allocation and placement once for the whole workload (RR-9549 §4: decisions for entire executions); with a job
   * queue this only validates the policies, which decide again over the running jobs as they change */
  if (rc == IOS_OK) rc = arbitrate_all(s, p, w, E.app_views, E.alloc_n, &placed);
  E.keep_running = s->rearbitrate == 0 ? s->allocation->keeps_running : s->rearbitrate == 2;
  if (rc == IOS_OK && s->queue) rc = setup_queue(p, w->napps);
  if (rc == IOS_OK) rc = setup_striping(s, p, w);
  for (int j = 0, host_cursor = 0, off = 0; rc == IOS_OK && j < w->napps; off += E.alloc_n[j], j++)
    rc = setup_app(s, p, j, placed + off, &host_cursor);
  free(placed);
  if (rc == IOS_OK) rc = sim_trace_setup(s);
  if (rc == IOS_OK) rc = choose_transfer_path(s, p);
  E.r->direct_transfers = E.direct;
  if (rc == IOS_OK) setup_resources(p);
  if (rc == IOS_OK) rc = setup_window(s, w);
  if (rc == IOS_OK) rc = sim_open_traces(s);
  return rc;
}

/* Runs SimGrid to the end (or to the window's end). */
static int run(const ios_sim_config_t *s, const ios_platform_t *p, int napps) {
  E.apps_left = napps;
  int rc = start_simulation(s, p, napps);
  if (rc != IOS_OK) return rc;
  simgrid_run();
  if (E.last_progress > 0) /* only runs long enough to have shown progress get a final line */
    sim_progress_line(1);
  return E.fail; /* IOS_OK, or a policy failed during the run (sim_fail set the message) */
}

/* Each application's result; sets *first and *last (the earliest start and the latest end). */
static void collect_apps(const ios_sim_config_t *s, double *first, double *last) {
  ios_results_t *r = E.r;
  *first = INFINITY;
  *last = 0;
  for (int j = 0; j < E.napps; j++) {
    app_state_t *as = &E.apps[j];
    ios_app_result_t *ar = &r->apps[j];
    ar->start = as->start;
    ar->end = as->end;
    ar->release = s->queue ? as->start : as->a->release; /* τ_i: a queued job's clock starts with it */
    if (s->queue) { /* the last allocation, and the dedicated bandwidth its operations saw on average */
      ar->n_resources = as->n;
      memcpy(ar->resources, as->res, sizeof *as->res * (size_t)as->n);
      ar->bandwidth = as->bytes_done > 0 && as->ded_io > 0 ? as->bytes_done / as->ded_io : as->b;
    }

    ar->work_time = as->work_done;
    ar->io_volume = as->bytes_done;
    ar->io_time = as->io_time;
    if (!r->complete) { /* stopped at the window's end: count the operations and work in progress */
      ar->work_time = ar->w_end;
      ar->io_volume = ar->v_end;
      if (as->state == ST_IO) ar->io_time += E.t_end - (as->posted > 0 ? as->posted : 0.0);
    }
    *first = as->start < *first ? as->start : *first;
    *last = (!isnan(as->end) && as->end > *last) ? as->end : *last;
  }
}

/* The window's progress: a whole run ends at the last completion; snapshots never taken are the end state. */
static void collect_window(double last) {
  ios_results_t *r = E.r;
  r->t_begin = E.t_begin;
  if (isnan(E.t_end)) { /* whole run: progress at the end is everything done */
    E.t_end = last;
    for (int j = 0; j < E.napps; j++) {
      r->apps[j].w_end = r->apps[j].work_time;
      r->apps[j].v_end = r->apps[j].io_volume;
    }
  }
  r->t_end = E.t_end;
  r->period_s = E.period;
  for (int j = 0; j < E.napps; j++) {
    if (!E.snap_end_done) { /* the window ends after the last completion */
      r->apps[j].w_end = r->apps[j].work_time;
      r->apps[j].v_end = r->apps[j].io_volume;
    }
    if (!E.snap_begin_done) { /* ... or even begins after it */
      r->apps[j].w_begin = r->apps[j].work_time;
      r->apps[j].v_begin = r->apps[j].io_volume;
    }
  }
}

/* Results: applications, window, resources, counters and metrics; the traces closed. */
static int collect(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  ios_results_t *r = E.r;
  double first, last;
  r->complete = E.apps_left == 0;
  collect_apps(s, &first, &last);
  r->makespan_s = r->complete ? last - first : E.t_end - first;
  collect_window(last);
  double horizon = r->complete ? last : E.t_end, pool = 0;
  for (int j = 0; j < w->napps; j++) /* allocations of jobs stopped at the window's end */
    if (E.apps[j].has_alloc && E.apps[j].state != ST_DONE) sim_al_row(&E.apps[j], E.apps[j].alloc_since, horizon);
  for (int i = 0; i < p->nres; i++) {
    if (E.res[i].nactive > 0) E.res[i].busy_time += horizon - E.res[i].busy_since;
    r->res[i].busy_time = E.res[i].busy_time;
    r->res[i].bytes = E.res[i].bytes;
    pool += p->res[i].capacity;
  }
  r->events = E.events;
  r->rate_changes = E.rate_changes;
  r->flows = ios_tr_flows_started();
  r->platform_limited_share = E.seg_bytes > 0 ? E.limited_bytes / E.seg_bytes : NAN;
  ios_metrics_compute(w, E.profiles, p->nres, pool, p->ncompute, p->nic_bw, r);
  for (int j = 0; j < E.napps; j++) /* a striped job's resources: every OST its files had a stripe on (TAPP-IO) */
    if (E.apps[j].ost_used != NULL) {
      ios_app_result_t *ar = &r->apps[j];
      ar->n_resources = 0;
      for (int k = 0; k < E.nres; k++)
        if (E.apps[j].ost_used[k]) ar->resources[ar->n_resources++] = k;
    }
  r->wall_time_s = ios_clock_s() - E.wall0;
  int rc = sim_close_traces();
  return rc == IOS_OK ? ios_sg_trace_commit() : rc; /* SimGrid's tracer closed its file when the simulation ended */
}

int ios_engine_run(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r) {
  memset(&E, 0, sizeof E);
  memset(r, 0, sizeof *r);
  E.wall0 = ios_clock_s();
  E.tty = -1;
  E.s = s;
  sim_fault_init();
  E.p = p;
  E.r = r;
  E.w = w;
  E.napps = r->napps = w->napps;
  E.nres = r->nres = p->nres;
  size_t napps = (size_t)w->napps;
  E.apps = calloc(napps, sizeof *E.apps);
  E.res = calloc((size_t)p->nres + 1, sizeof *E.res);
  r->apps = calloc(napps, sizeof *r->apps);
  r->res = calloc((size_t)p->nres, sizeof *r->res);
  E.profiles = calloc(napps, sizeof *E.profiles);
  E.app_views = calloc(napps, sizeof *E.app_views);
  E.seen = calloc(napps, sizeof *E.seen);
  E.alloc_n = calloc(napps, sizeof *E.alloc_n);
  int rc =
      E.apps && E.res && r->apps && r->res && E.profiles && E.app_views && E.seen && E.alloc_n ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK) rc = setup(s, p, w);
  if (rc == IOS_OK) rc = run(s, p, w->napps);
  if (rc == IOS_OK) rc = collect(s, p, w);
  release_engine(w->napps, p->nres); /* on failure nothing was simulated, or the run stopped: no results */
  if (rc != IOS_OK) ios_sg_trace_discard();
  return rc;
}
