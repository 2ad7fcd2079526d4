/* iosim — what the transfer layer's two paths share (transfer_internal.h): the one order of simultaneous completions,
 * a segment's start, the routes seen. Used by transfer.c, transfer_direct.c, transfer_flow.c and transfer_nodes.c;
 * uses none of them. */
#include "transfer_internal.h"

#include <stdint.h>
#include <stdlib.h>

int tr_earlier(const ios_transfer_t *a, const ios_transfer_t *b) {
  if (a->finish != b->finish) return a->finish < b->finish;
  return a->gen < b->gen || (a->gen == b->gen && a->order < b->order);
}

void tr_segment_begin(ios_tr_t *tr, ios_transfer_t *t, double r, int capped) {
  t->seg_start = tr_now(tr);
  t->seg_rem0 = t->remaining;
  t->seg_capped = capped;
  t->seg_latency = 0;
  t->order = tr->order++;
  t->finish = t->seg_start + t->remaining / r;
}

static size_t route_slot(const ios_tr_t *tr, sg_host_t from, sg_host_t to) {
  unsigned long long h = (unsigned long long)(uintptr_t)from * 0x9E3779B97F4A7C15ULL ^ (uintptr_t)to;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  return (size_t)(h ^ (h >> 29)) & (tr->routecap - 1);
}

int ios_tr_route(ios_tr_t *tr, sg_host_t from, sg_host_t to, unsigned long long *key, double *latency) {
  if (2 * (tr->nroutes + 1) > tr->routecap) { /* grow (at most half full), and hash the routes again */
    size_t ncap = tr->routecap ? 2 * tr->routecap : 256, old = tr->routecap;
    tr_route_t *o = tr->routes, *n = calloc(ncap, sizeof *n);
    if (n == NULL) return -1;
    tr->routes = n;
    tr->routecap = ncap;
    for (size_t i = 0; i < old; i++)
      if (o[i].from != NULL) {
        size_t j = route_slot(tr, o[i].from, o[i].to);
        while (tr->routes[j].from != NULL)
          j = (j + 1) & (tr->routecap - 1);
        tr->routes[j] = o[i];
      }
    free(o);
  }
  size_t i = route_slot(tr, from, to);
  while (tr->routes[i].from != NULL && (tr->routes[i].from != from || tr->routes[i].to != to))
    i = (i + 1) & (tr->routecap - 1);
  if (tr->routes[i].from == NULL) {
    tr->routes[i].from = from;
    tr->routes[i].to = to;
    tr->fl->route_key(from, to, &tr->routes[i].key, &tr->routes[i].latency);
    tr->nroutes++;
  }
  if (key != NULL) *key = tr->routes[i].key;
  if (latency != NULL) *latency = tr->routes[i].latency;
  return 0;
}
