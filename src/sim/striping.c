/* iosim — striping in the engine (TAPP-IO §III): the regular oss-ost topology of the platform, the usage state of every
 * job's placements (one shared, or one per job with striping.scope "application"), and each I/O operation of a
 * striped job placed by its striping policy into (writer, OST) transfers. Owns its state; the controller calls
 * sim_striping_place at each striped operation (see sim_striping.h). */
#include "sim_striping.h"

#include "ios_diag.h"
#include "sim_state.h"

#include <stdlib.h>
#include <string.h>

/* The striping state of the run. */
struct sim_striping {
  ios_stripe_topo_t topo;
  int *ost_oss;                         /* [nres] each OST's server */
  ios_stripe_state_t stripe_state;      /* the usage of every job's placements (striping.scope global) */
  ios_stripe_state_t *app_stripe_state; /* [napps] each job's own usage (striping.scope application), else NULL */
  ios_rng_t stripe_rng;
  ios_params_t *app_stripe_params; /* [napps] parameters of per-application striping policies */
  int napps;
};

int sim_striping_init(engine_t *e) {
  e->striping = calloc(1, sizeof *e->striping);
  return e->striping != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_striping_fini(engine_t *e) {
  struct sim_striping *S = e->striping;
  if (S == NULL) return;
  free(S->ost_oss);
  free(S->app_stripe_params);
  ios_stripe_state_free(&S->stripe_state);
  for (int j = 0; S->app_stripe_state != NULL && j < S->napps; j++)
    ios_stripe_state_free(&S->app_stripe_state[j]);
  free(S->app_stripe_state);
  free(S);
  e->striping = NULL;
}

/* The host a striped flow of compute node `client` through router `router` leaves from. */
static sg_host_t stripe_source(engine_t *e, int client, int router) {
  const ios_platform_t *p = e->p;
  for (int i = p->router_start != NULL && router >= 0 ? p->router_start[client] : 0;
       p->router_start != NULL && router >= 0 && i < p->router_start[client + 1]; i++)
    if (p->router_list[i] == router) return p->router_host[i];
  return p->compute[client];
}

/* Striping (scenario `striping` or an application's own): the regular oss-ost topology (`iosim platform oss-ost`: OST k
 * on OSS k div (N/S), client k through router rtr(k mod R)), the shared usage state and each application's policy. */
int sim_striping_setup(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  struct sim_striping *S = e->striping;
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
  S->napps = w->napps;
  S->ost_oss = malloc(sizeof *S->ost_oss * (size_t)p->nres);
  S->app_stripe_params = calloc((size_t)(w->napps > 0 ? w->napps : 1), sizeof *S->app_stripe_params);
  if (S->ost_oss == NULL || S->app_stripe_params == NULL) return IOS_ENOMEM;
  int rc = ios_stripe_topo_regular(&S->topo, S->ost_oss, p->noss, p->nres / p->noss, p->nrouters, p->ncompute);
  S->topo.client_router_start = p->router_start; /* the platform's router choices, or NULL */
  S->topo.client_routers = p->router_list;
  if (rc == IOS_OK) rc = ios_stripe_state_init(&S->stripe_state, &S->topo);
  if (rc == IOS_OK && s->striping_scope == 1) { /* each job sees only its own placements */
    S->app_stripe_state = calloc((size_t)(w->napps > 0 ? w->napps : 1), sizeof *S->app_stripe_state);
    rc = S->app_stripe_state != NULL ? IOS_OK : IOS_ENOMEM;
    for (int j = 0; rc == IOS_OK && j < w->napps; j++)
      rc = ios_stripe_state_init(&S->app_stripe_state[j], &S->topo);
  }
  if (rc != IOS_OK) {
    ios_diag_set(s->platform, "striping", "cannot describe this platform's storage path for striping");
    return rc;
  }
  ios_rng_seed(&S->stripe_rng, s->seed, IOS_STREAM_STRIPING);
  for (int j = 0; j < w->napps; j++) {
    app_state_t *as = &e->apps[j];
    const ios_app_t *a = &w->apps[j];
    const char *pname = a->striping[0] != '\0' ? a->striping : s->striping != NULL ? s->striping->name : NULL;
    if (pname == NULL) continue;
    if (a->given_share != NULL && a->striping[0] == '\0' && strcmp(pname, "lustre-default") == 0)
      continue; /* a Darshan job's files, placed by the workload with the policy's stripe count (docs/darshan.md) */
    if ((as->st.policy = ios_striping_find(pname)) == NULL) {
      char names[128];
      ios_diag_set(s->file, a->name, "unknown striping policy '%s': use one of %s", pname,
                   ios_policy_names(IOS_FAMILY_STRIPING, names, sizeof names));
      return IOS_EINVAL;
    }
    if (as->st.policy == s->striping)
      as->st.params = &s->striping_params;
    else {
      ios_params_defaults(as->st.policy->nparams, as->st.policy->params, &S->app_stripe_params[j]);
      as->st.params = &S->app_stripe_params[j];
    }
    as->st.layout = a->layout >= 0 ? a->layout : s->striping_layout;
    if (a->shared_files > 1 && as->st.layout == 0) {
      ios_diag_set(s->file, "striping.layout",
                   "application %s writes %d shared files (the ior generator's shared_files) but its layout is fpp "
                   "(file per process): set striping.layout to \"ssf\" or shared_files to 1",
                   a->name, a->shared_files);
      return IOS_EINVAL;
    }
  }
  return IOS_OK;
}

/* Transfers a striped application needs at most: the largest number of (writer, OST) flows of its I/O operations,
 * found by placing each distinct volume once with a throw-away state and random stream (how many flows a placement
 * has depends on the layout only, not on which OSTs it picks). Falls back to nodes x OSTs (every pair) when there are
 * more than 64 distinct volumes or a trial fails; the real placement reports the failure. */
long sim_striping_room(const engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const app_state_t *as) {
  const struct sim_striping *S = e->striping;
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
                            .layout = as->st.layout ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP,
                            .bytes_per_writer = v / ios_app_writers(a),
                            .shared_files = as->st.layout ? a->shared_files : 0};
    ios_stripe_state_t st;
    ios_stripe_placement_t pl = {0};
    ios_stripe_flow_t *flows = NULL;
    ios_rng_t rng;
    int n = 0;
    ios_rng_seed(&rng, s->seed, IOS_STREAM_STRIPING);
    int rc = ios_stripe_state_init(&st, &S->topo);
    if (rc == IOS_OK) rc = as->st.policy->place(&S->topo, &job, as->st.params, &rng, &st, &pl);
    if (rc == IOS_OK) rc = ios_stripe_flows(&S->topo, &job, &pl, &flows, &n);
    free(flows);
    ios_stripe_placement_free(&pl);
    ios_stripe_state_free(&st);
    if (rc != IOS_OK) return every;
    if (n > room) room = n;
  }
  return room;
}

/* A striped job's I/O operation: its files placed by its striping policy, one transfer per (writer, OST) flow from
 * the writer's node (TAPP-IO §III). Its writers are its processes, in consecutive blocks per node (ios_app_writers). */
void sim_striping_place(engine_t *e, int j, double volume) {
  struct sim_striping *S = e->striping;
  app_state_t *as = &e->apps[j];
  int nw = ios_app_writers(as->a), *clients = malloc(sizeof *clients * (size_t)nw);
  if (clients == NULL) {
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the writers of %s", as->a->name);
    return;
  }
  for (int w = 0; w < nw; w++) {
    int node = (int)((long long)w * as->a->nodes / nw);
    clients[w] = as->q.hosts != NULL ? as->q.hosts[node] : as->host0 + node;
  }
  ios_stripe_job_t job = {.nwriters = nw,
                          .layout = as->st.layout ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP,
                          .bytes_per_writer = volume / nw,
                          .writer_client = clients,
                          .shared_files = as->st.layout ? as->a->shared_files : 0};
  ios_stripe_placement_t pl = {0};
  ios_stripe_flow_t *flows = NULL;
  int nflows = 0;
  int rc = sim_fault(e, SIM_FAULT_STRIPING)
               ? IOS_ENOMEM
               : as->st.policy->place(&S->topo, &job, as->st.params, &S->stripe_rng,
                                      S->app_stripe_state != NULL ? &S->app_stripe_state[j] : &S->stripe_state, &pl);
  if (rc == IOS_OK) rc = ios_stripe_flows(&S->topo, &job, &pl, &flows, &nflows);
  if (rc == IOS_OK && nflows > as->tcap) rc = IOS_EINTERNAL;
  if (rc != IOS_OK) {
    sim_fail(e, rc, "striping.policy", "policy '%s' failed at t = %.17g s for %s (%s)", as->st.policy->name, sim_now(e),
             as->a->name, ios_strerror(rc));
    free(clients);
    free(flows);
    ios_stripe_placement_free(&pl);
    return;
  }
  as->ntransfers = nflows;
  for (int i = 0; i < nflows; i++) {
    transfer_t *t = &as->t[i];
    t->app = j;
    t->res = flows[i].ost;
    t->volume = flows[i].bytes;
    t->host = stripe_source(e, flows[i].client, flows[i].router); /* the node, or its host via that router */
    as->st.ost_used[flows[i].ost] = 1;
  }
  free(flows);
  free(clients);
  ios_stripe_placement_free(&pl);
}
