/* iosim — the transfer layer's interface (see ios_transfer.h and docs/engine.md): one path chosen at ios_tr_init, the
 * order of completions both paths share, and the test of whether the direct path is exact. The paths are in
 * transfer_direct.c and transfer_flow.c. */
#include "transfer_internal.h"

#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdlib.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_transfer, iosim, "iosim transfer layer");

int ios_tr_init(ios_tr_t **out, const ios_tr_options_t *o, const ios_tr_hooks_t *hooks, void *ctx) {
  ios_tr_t *tr = calloc(1, sizeof *tr);
  *out = NULL;
  if (tr == NULL) return -2;
  tr->date = o->date;
  tr->hooks = hooks;
  tr->ctx = ctx;
  tr->order = 0;
  tr->fl = o->flows != NULL ? o->flows : &ios_tr_sg_flows;
  tr->flctx = o->flows != NULL ? o->flows_ctx : o->sg;
  tr->sg = o->sg;
  tr->path = o->direct ? &tr_direct_path : &tr_flow_path;
  XBT_DEBUG("transfer path: %s", tr->path->name);
  tr_nodes_init(tr, !o->direct && o->node_groups, o->senders, o->nsenders, o->controller);
  int rc = tr->path->init(tr, o);
  if (rc != 0) {
    ios_tr_fini(tr);
    return rc;
  }
  *out = tr;
  return 0;
}

void ios_tr_fini(ios_tr_t *tr) {
  if (tr == NULL) return;
  tr_nodes_fini(tr);
  tr->path->fini(tr);
  free(tr->routes);
  free(tr);
}

void ios_tr_stop(ios_tr_t *tr, ios_transfer_t *t) {
  tr->path->stop(tr, t);
}

void ios_tr_forget(ios_transfer_t *t) {
  free(t->legs);
  t->legs = NULL;
  t->nlegs = t->legcap = t->legs_left = 0;
}

void ios_tr_reset(const ios_tr_t *tr, ios_transfer_t *t, double volume) {
  t->nlegs = t->legs_left = 0;
  t->volume = volume;
  t->remaining = volume;
  t->rate = 0;
  t->flow = NULL;
  t->next_member = NULL;
  t->leader = 0;
  t->paused = 0;
  t->heap = -1;
  t->finish = INFINITY;
  t->t_last = tr_now(tr);
}

int ios_tr_set_rate(ios_tr_t *tr, ios_transfer_t *t, double r, int capped) {
  return tr->path->set_rate(tr, t, r, capped, NAN);
}

int ios_tr_set_rates(ios_tr_t *tr, int k, ios_transfer_t *const *t, const double *rate, const double *rem, int capped,
                     long *started) {
  for (int i = 0; i < k; i++) {
    double r = rate[i] > 0 ? rate[i] : 0.0, hint = rem != NULL ? rem[i] : NAN;
    int rc = tr->path->set_rate(tr, t[i], r, capped, hint);
    if (rc < 0) return rc;
    *started += rc;
  }
  return 0;
}

double ios_tr_remaining(const ios_tr_t *tr, const ios_transfer_t *t) {
  return tr->path->remaining(tr, t);
}

int ios_tr_complete_due(ios_tr_t *tr) {
  return tr->path->complete_due(tr);
}

double ios_tr_next_completion(ios_tr_t *tr) {
  return tr->path->next_completion(tr);
}

long ios_tr_running(const ios_tr_t *tr) {
  return tr->path->running(tr);
}

long ios_tr_flows_started(const ios_tr_t *tr) {
  return tr->path->flows_started(tr);
}

int ios_tr_pending(const ios_tr_t *tr) {
  return tr->path->pending(tr);
}

/* ---------------------------------------------------------------- when the direct path is exact */

int ios_tr_direct_possible(int npairs, const sg_host_t *from, const int *to, const sg_host_t *res_hosts,
                           const double *capacity) {
  size_t nlinks = sg_link_count();
  sg_link_t *all = sg_link_list();
  double *sum = calloc(nlinks + 1, sizeof *sum), *max = calloc(nlinks + 1, sizeof *max);
  int *mark = malloc(sizeof *mark * (nlinks + 1));
  void **saved = malloc(sizeof *saved * (nlinks + 1)); /* the links' user data, restored below */
  xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
  int ok = all != NULL && sum != NULL && max != NULL && mark != NULL && saved != NULL ? 1 : -1, indexed = ok > 0;
  for (size_t i = 0; indexed && i < nlinks; i++) { /* each link's index in `all`, through its user data */
    saved[i] = sg_link_get_data(all[i]);
    sg_link_set_data(all[i], (void *)(i + 1));
    mark[i] = -1;
  }
  for (int k = 0; k < npairs && ok > 0; k++) {
    int r = to[k];
    if (from[k] == res_hosts[r]) continue;
    if (sg_host_get_route_latency(from[k], res_hosts[r]) != 0) {
      XBT_DEBUG("the route from %s to %s has a latency: flows", sg_host_get_name(from[k]),
                sg_host_get_name(res_hosts[r]));
      ok = 0;
      break;
    }
    xbt_dynar_reset(route);
    sg_host_get_route(from[k], res_hosts[r], route);
    unsigned i;
    sg_link_t l;
    xbt_dynar_foreach(route, i, l) {
      size_t li = (size_t)sg_link_get_data(l) - 1;
      if (mark[li] == r) continue; /* resource r already counted on this link (pairs come grouped by resource) */
      mark[li] = r;
      sum[li] += capacity[r];
      max[li] = capacity[r] > max[li] ? capacity[r] : max[li];
      /* sums and maxima only grow: a link already exceeded stays exceeded, so stop at the first (on a 10,000-node
       * site with per-node links, the first node's link, instead of every node x resource route) */
      if ((sg_link_is_shared(l) ? sum[li] : max[li]) > sg_link_get_bandwidth(l)) {
        XBT_DEBUG("link %s can bind the policy's rates (%.17g B/s of resources behind a %.17g B/s link): flows",
                  sg_link_get_name(l), sg_link_is_shared(l) ? sum[li] : max[li], sg_link_get_bandwidth(l));
        ok = 0;
        break;
      }
    }
  }
  for (size_t i = 0; i < nlinks && ok > 0; i++) {
    double bw = sg_link_get_bandwidth(all[i]);
    if (mark[i] >= 0 && (sg_link_is_shared(all[i]) ? sum[i] : max[i]) > bw) {
      XBT_DEBUG("link %s can bind the policy's rates (%.17g B/s of resources behind a %.17g B/s link): flows",
                sg_link_get_name(all[i]), sg_link_is_shared(all[i]) ? sum[i] : max[i], bw);
      ok = 0;
    }
  }
  for (size_t i = 0; indexed && i < nlinks; i++)
    sg_link_set_data(all[i], saved[i]);
  free(saved);
  free(all);
  free(sum);
  free(max);
  free(mark);
  xbt_dynar_free(&route);
  return ok;
}
