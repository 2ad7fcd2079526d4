/* iosim — node groups on the flow path (ios_transfer.h, ios_tr_node_group; docs/engine.md, "A job's nodes as one
 * flow"). A job's operation leaves from all its nodes: one leg per node when each node has a route of its own (its
 * own link). When the nodes are alike — every node's route to each destination is the same links except links of its
 * own (used by no other host's route), and those have the same bandwidths, latencies and sharing on every node — the
 * max-min problem is symmetric in the nodes: each node's legs get the same rates. The operation is then exact as one
 * flow per destination from the first node, whose own links are given `nnodes` times their bandwidth while the job
 * runs: on a shared link the flow weighs as the transfer's legs together (one flow), and on the first node's links it
 * carries nnodes times what one node's legs carry, against nnodes times the capacity. The other nodes' own links carry
 * nothing the other jobs use (they are their node's alone, and a job's nodes are its own). A 64-node job writing to 24
 * OSTs is 24 flows instead of 1,536. */
#include "transfer_internal.h"

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_nodes, iosim, "iosim node groups");

/* A link and its bandwidth before a node group scaled it. */
typedef struct {
  sg_link_t link;
  double bw; /* bytes/s */
} scaled_t;

/* What one owner (an application) holds: the links it scaled, and the destinations checked for its nodes. */
typedef struct {
  scaled_t *scaled;
  int nscaled, scap;
  sg_host_t *checked; /* destinations whose routes from the owner's nodes passed the check */
  int nchecked, ccap;
  int nnodes;      /* the node count the links were scaled by */
  sg_host_t first; /* the owner's first node (a new node set clears what was checked) */
} owner_t;

/* An entry of the table of links: the one host whose routes cross it, or NULL when several do. */
typedef struct {
  sg_link_t link;
  sg_host_t host;
} link_owner_t;

/* Node groups' state (ios_tr_t.nodes): made when they are on. */
struct tr_nodes {
  ios_sg_t *sg;       /* the glue whose links it scales */
  sg_host_t *senders; /* [nsenders] the hosts flows may leave from (a copy) */
  int nsenders;
  link_owner_t *own; /* open addressing on the link's address, at most half full; NULL until the first check */
  size_t owncap;
  owner_t *owners; /* [nowners] by owner index */
  int nowners;
  xbt_dynar_t route;
};

static size_t link_slot(const link_owner_t *tab, size_t cap, sg_link_t l) {
  unsigned long long h = (unsigned long long)(uintptr_t)l * 0x9E3779B97F4A7C15ULL;
  size_t i = (size_t)(h ^ (h >> 31)) & (cap - 1);
  while (tab[i].link != NULL && tab[i].link != l)
    i = (i + 1) & (cap - 1);
  return i;
}

/* The table of links to their one host, from every sender's route to `d`: a link of one sender's routes alone. */
static int build_owners(struct tr_nodes *N, sg_host_t d) {
  size_t n = 0, cap = 1024;
  link_owner_t *tab = calloc(cap, sizeof *tab);
  if (tab == NULL) return -1;
  for (int s = 0; s < N->nsenders; s++) {
    if (N->senders[s] == d) continue;
    xbt_dynar_reset(N->route);
    sg_host_get_route(N->senders[s], d, N->route);
    unsigned i;
    sg_link_t l;
    xbt_dynar_foreach(N->route, i, l) {
      if (2 * (n + 1) > cap) { /* grow, and hash again */
        size_t ncap = 2 * cap;
        link_owner_t *t2 = calloc(ncap, sizeof *t2);
        if (t2 == NULL) {
          free(tab);
          return -1;
        }
        for (size_t k = 0; k < cap; k++)
          if (tab[k].link != NULL) t2[link_slot(t2, ncap, tab[k].link)] = tab[k];
        free(tab);
        tab = t2;
        cap = ncap;
      }
      size_t k = link_slot(tab, cap, l);
      if (tab[k].link == NULL) {
        tab[k].link = l;
        tab[k].host = N->senders[s];
        n++;
      } else if (tab[k].host != N->senders[s])
        tab[k].host = NULL;
    }
  }
  N->own = tab;
  N->owncap = cap;
  return 0;
}

/* The one sender whose routes cross l, or NULL (several, or none seen). */
static sg_host_t link_host(const struct tr_nodes *N, sg_link_t l) {
  const link_owner_t *e = &N->own[link_slot(N->own, N->owncap, l)];
  return e->link == l ? e->host : NULL;
}

/* l's bandwidth as the platform gives it (before any node group scaled it). */
static double link_bw(const owner_t *o, sg_link_t l) {
  for (int i = 0; i < o->nscaled; i++)
    if (o->scaled[i].link == l) return o->scaled[i].bw;
  return sg_link_get_bandwidth(l);
}

/* A node's own links on a route, as sortable (bandwidth, latency, shared) triples. */
typedef struct {
  double bw, lat;
  int shared;
} sig_t;

static int cmp_sig(const void *pa, const void *pb) {
  const sig_t *a = pa, *b = pb;
  if (a->bw != b->bw) return a->bw < b->bw ? -1 : 1;
  if (a->lat != b->lat) return a->lat < b->lat ? -1 : 1;
  return (a->shared > b->shared) - (a->shared < b->shared);
}

/* Whether the routes from nodes[0..n) to d are alike (the file's comment); *own gets the first node's own links
 * (malloc'ed, the caller frees it; *nown of them). @return 1 alike, 0 not, -1 out of memory. */
static int alike(struct tr_nodes *N, const owner_t *o, const sg_host_t *nodes, int n, sg_host_t d, sg_link_t **own,
                 int *nown) {
  int ok = 1, ncommon = -1, nsig0 = 0;
  sg_link_t *common = NULL;
  *own = NULL;
  *nown = 0;
  sig_t *sig0 = NULL, *sig = NULL;
  for (int i = 0; i < n && ok > 0; i++) {
    if (nodes[i] == d) {
      ok = 0;
      break;
    }
    xbt_dynar_reset(N->route);
    sg_host_get_route(nodes[i], d, N->route);
    int len = (int)xbt_dynar_length(N->route), nsig = 0, nc = 0;
    sg_link_t *links = xbt_dynar_get_ptr(N->route, 0);
    sig_t *s = realloc(i == 0 ? sig0 : sig, sizeof *s * (size_t)(len > 0 ? len : 1));
    if (s == NULL) {
      ok = -1;
      break;
    }
    if (i == 0)
      sig0 = s;
    else
      sig = s;
    if (i == 0) {
      common = malloc(sizeof *common * (size_t)(len > 0 ? len : 1));
      *own = malloc(sizeof **own * (size_t)(len > 0 ? len : 1));
      if (common == NULL || *own == NULL) {
        ok = -1;
        break;
      }
    }
    for (int k = 0; k < len; k++) {
      sg_link_t l = links[k];
      sg_host_t h = link_host(N, l);
      if (h == nodes[i]) { /* its own */
        s[nsig++] = (sig_t){link_bw(o, l), sg_link_get_latency(l), sg_link_is_shared(l)};
        if (i == 0) (*own)[(*nown)++] = l;
      } else if (h != NULL) { /* another host's own link on this node's route: not alike */
        ok = 0;
        break;
      } else if (i == 0)
        common[nc++] = l;
      else if (nc >= ncommon || common[nc++] != l) { /* the shared part, link for link */
        ok = 0;
        break;
      }
    }
    if (ok <= 0) break;
    if (i == 0)
      ncommon = nc;
    else if (nc != ncommon)
      ok = 0;
    qsort(s, (size_t)nsig, sizeof *s, cmp_sig);
    if (i == 0)
      nsig0 = nsig;
    else if (nsig != nsig0)
      ok = 0;
    for (int k = 0; i > 0 && ok > 0 && k < nsig; k++) /* field by field (a struct's padding is not compared) */
      if (cmp_sig(&s[k], &sig0[k]) != 0) ok = 0;
    if (nsig == 0) ok = 0; /* no link of its own: the legs are one route already */
  }
  free(common);
  free(sig0);
  free(sig);
  return ok;
}

static owner_t *owner_of(struct tr_nodes *N, int owner) {
  if (owner < 0) return NULL;
  if (owner >= N->nowners) {
    int ncap = N->nowners ? N->nowners : 16;
    while (ncap <= owner)
      ncap *= 2;
    owner_t *o = realloc(N->owners, sizeof *o * (size_t)ncap);
    if (o == NULL) return NULL;
    memset(o + N->nowners, 0, sizeof *o * (size_t)(ncap - N->nowners));
    N->owners = o;
    N->nowners = ncap;
  }
  return &N->owners[owner];
}

/* Gives back the bandwidths of the links `owner`'s node group scaled. */
static void ungroup(struct tr_nodes *N, int owner) {
  if (owner < 0 || owner >= N->nowners) return;
  owner_t *o = &N->owners[owner];
  for (int i = 0; i < o->nscaled; i++)
    ios_sg_link_scale(N->sg, o->scaled[i].link, o->scaled[i].bw, 1);
  o->nscaled = 0;
  o->nchecked = 0;
  o->first = NULL;
}

static int checked(const owner_t *o, sg_host_t d) {
  for (int i = 0; i < o->nchecked; i++)
    if (o->checked[i] == d) return 1;
  return 0;
}

void ios_tr_node_ungroup(ios_tr_t *tr, int owner) {
  if (tr->nodes != NULL) ungroup(tr->nodes, owner);
}

int ios_tr_node_group(ios_tr_t *tr, int owner, const sg_host_t *nodes, int nnodes, const sg_host_t *dests, int ndests) {
  struct tr_nodes *N = tr->nodes;
  if (N == NULL || nnodes < 2 || ndests < 1) {
    XBT_VERB("owner %d: node groups off or %d nodes, %d destinations: legs", owner, nnodes, ndests);
    return 0;
  }
  owner_t *o = owner_of(N, owner);
  if (o == NULL) return -1;
  if (o->first != nodes[0] || o->nnodes != nnodes) { /* another node set: nothing of before holds */
    ungroup(N, owner);
    o->first = nodes[0];
    o->nnodes = nnodes;
  }
  if (N->own == NULL && build_owners(N, dests[0]) != 0) return -1;
  for (int k = 0; k < ndests; k++) {
    if (checked(o, dests[k])) continue;
    sg_link_t *own;
    int nown;
    int ok = alike(N, o, nodes, nnodes, dests[k], &own, &nown);
    if (ok <= 0) { /* this operation goes as legs, over the platform's own bandwidths */
      XBT_VERB("owner %d: %d nodes from %s to %s not alike: legs", owner, nnodes, sg_host_get_name(nodes[0]),
               sg_host_get_name(dests[k]));
      free(own);
      if (ok < 0) return -1;
      ungroup(N, owner);
      return 0;
    }
    for (int i = 0; i < nown; i++) { /* the first node's own links, scaled once */
      int seen = 0;
      for (int s = 0; s < o->nscaled && !seen; s++)
        seen = o->scaled[s].link == own[i];
      if (seen) continue;
      if (o->nscaled == o->scap) {
        int ncap = o->scap ? 2 * o->scap : 4;
        scaled_t *sc = realloc(o->scaled, sizeof *sc * (size_t)ncap);
        if (sc == NULL) {
          free(own);
          return -1;
        }
        o->scaled = sc;
        o->scap = ncap;
      }
      double bw = sg_link_get_bandwidth(own[i]);
      o->scaled[o->nscaled++] = (scaled_t){own[i], bw};
      ios_sg_link_scale(N->sg, own[i], bw, nnodes);
    }
    free(own);
    if (o->nchecked == o->ccap) {
      int ncap = o->ccap ? 2 * o->ccap : 8;
      sg_host_t *c = realloc(o->checked, sizeof *c * (size_t)ncap);
      if (c == NULL) return -1;
      o->checked = c;
      o->ccap = ncap;
    }
    o->checked[o->nchecked++] = dests[k];
  }
  return 1;
}

void tr_nodes_init(ios_tr_t *tr, int enabled, const sg_host_t *senders, int nsenders, sg_host_t controller) {
  tr->nodes = NULL;
  if (!enabled || senders == NULL || nsenders <= 1) return;
  struct tr_nodes *N = calloc(1, sizeof *N);
  if (N == NULL) return; /* no room: legs, as without node groups */
  N->senders = malloc(sizeof *N->senders * (size_t)(nsenders + 1));
  if (N->senders == NULL) { /* no room: legs, as without node groups */
    free(N);
    return;
  }
  memcpy(N->senders, senders, sizeof *N->senders * (size_t)nsenders);
  N->nsenders = nsenders;
  if (controller != NULL) N->senders[N->nsenders++] = controller;
  N->route = xbt_dynar_new(sizeof(sg_link_t), NULL);
  N->sg = tr->sg;
  tr->nodes = N;
}

void tr_nodes_fini(ios_tr_t *tr) {
  struct tr_nodes *N = tr->nodes;
  if (N == NULL) return;
  for (int i = 0; i < N->nowners; i++) {
    ungroup(N, i);
    free(N->owners[i].scaled);
    free(N->owners[i].checked);
  }
  free(N->owners);
  free(N->own);
  free(N->senders);
  if (N->route != NULL) xbt_dynar_free(&N->route);
  free(N);
  tr->nodes = NULL;
}
