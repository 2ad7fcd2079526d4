/* iosim — node groups on the flow path (ios_transfer.h, ios_tr_node_group; docs/engine.md, "A job's nodes as one
 * flow"). A job's operation leaves from all its nodes: one leg per node when each node has a route of its own (its
 * own link). The nodes are partitioned into classes of alike nodes: for every destination, the same links in the same
 * order except links of their own (used by no other host's route), and own links of the same bandwidths, latencies and
 * sharing — on a flat `<cluster>` every node of a job, on a racked machine the job's nodes in one rack (same backbone
 * and uplink). The max-min problem is symmetric in the nodes of a class: each node's legs get the same rates. A class
 * is then exact as one flow per destination from its first node, weighing the class's part of the transfer, whose own
 * links are given (class size) times their bandwidth while the job runs: on a shared link the flow weighs and is
 * bounded as the class's legs together, and on the first node's own links it carries (class size) times what one
 * node's legs carry, against (class size) times the capacity. The other nodes' own links carry nothing the other jobs
 * use (they are their node's alone, and a job's nodes are its own). A 64-node job writing to 24 OSTs is 24 flows
 * instead of 1,536 on a flat cluster, 48 when its nodes sit in two racks. */
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
  int nnodes;      /* the owner's node count (a new node set clears what was checked) */
  sg_host_t first; /* the owner's first node (a new node set clears what was checked) */
  int legs;        /* 1: this node set goes as legs (a partition only gets finer with more destinations) */
  int *cls;        /* [nnodes] each node's class for the destinations checked, numbered by first node */
  sg_host_t *reps; /* [nclasses] each class's first node, which carries the class's flows */
  int *counts;     /* [nclasses] each class's node count, its first node's own links' factor */
  int nclasses, ncap;
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

/* One node's class key for one destination: the links of its route that are not its own (link for link, in order),
 * its own links' sorted signatures, and `alone` (its index + 1 when it must be a class of its own, else 0). Stored in
 * the scratch buffers of the partition (part_t) at `off` (links) and `soff` (signatures). */
typedef struct {
  unsigned long long hash;
  int off, nlinks, soff, nsig, alone;
} nkey_t;

/* The scratch of one partition step (one destination). */
typedef struct {
  nkey_t *keys;     /* [nnodes] */
  sg_link_t *links; /* the keys' shared links */
  sig_t *sigs;      /* the keys' own links' signatures */
  int nl, lcap, ns, scap;
  int *cls, *ncls; /* [nnodes] the partition so far (the owner's), and the refined one */
} part_t;

static unsigned long long mix(unsigned long long h, unsigned long long v) {
  h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ULL;
}

static unsigned long long dbl_bits(double x) {
  unsigned long long u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static int keys_equal(const part_t *P, const nkey_t *a, const nkey_t *b) {
  if (a->hash != b->hash || a->nlinks != b->nlinks || a->nsig != b->nsig || a->alone != b->alone) return 0;
  for (int k = 0; k < a->nlinks; k++)
    if (P->links[a->off + k] != P->links[b->off + k]) return 0;
  for (int k = 0; k < a->nsig; k++) /* field by field (a struct's padding is not compared) */
    if (cmp_sig(&P->sigs[a->soff + k], &P->sigs[b->soff + k]) != 0) return 0;
  return 1;
}

/* A node's place in the order of one partition step: by its class so far, its key's hash, its index. */
typedef struct {
  int cls;
  unsigned long long hash;
  int node;
} order_t;

static int cmp_sortkey(const void *pa, const void *pb) {
  const order_t *a = pa, *b = pb;
  if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  return (a->node > b->node) - (a->node < b->node);
}

/* The key of node `i` (nodes[i]) for destination d into P->keys[i]. @return 1 the key was made, 0 the nodes cannot be
 * grouped at all (a node is d itself, or its route crosses another sender's own link), -1 out of memory. */
static int node_key(struct tr_nodes *N, const owner_t *o, part_t *P, const sg_host_t *nodes, int i, sg_host_t d) {
  if (nodes[i] == d) return 0;
  xbt_dynar_reset(N->route);
  sg_host_get_route(nodes[i], d, N->route);
  int len = (int)xbt_dynar_length(N->route);
  const sg_link_t *links = len > 0 ? xbt_dynar_get_ptr(N->route, 0) : NULL;
  if (P->nl + len > P->lcap) {
    int ncap = 2 * (P->nl + len) + 16;
    sg_link_t *l = realloc(P->links, sizeof *l * (size_t)ncap);
    if (l == NULL) return -1;
    P->links = l;
    P->lcap = ncap;
  }
  if (P->ns + len > P->scap) {
    int ncap = 2 * (P->ns + len) + 16;
    sig_t *g = realloc(P->sigs, sizeof *g * (size_t)ncap);
    if (g == NULL) return -1;
    P->sigs = g;
    P->scap = ncap;
  }
  nkey_t *k = &P->keys[i];
  *k = (nkey_t){.off = P->nl, .soff = P->ns};
  int fatpipe = 0;
  for (int x = 0; x < len; x++) {
    sg_link_t l = links[x];
    sg_host_t h = link_host(N, l);
    if (h == nodes[i]) /* its own */
      P->sigs[P->ns + k->nsig++] = (sig_t){link_bw(o, l), sg_link_get_latency(l), sg_link_is_shared(l)};
    else if (h != NULL) /* another host's own link on this node's route: no link here is surely a node's own */
      return 0;
    else {
      P->links[P->nl + k->nlinks++] = l;
      fatpipe |= !sg_link_is_shared(l);
    }
  }
  qsort(P->sigs + P->ns, (size_t)k->nsig, sizeof *P->sigs, cmp_sig);
  /* A shared link that is a FATPIPE bounds each flow, not their sum: nodes that have links of their own (distinct
   * routes, one leg each without node groups) cannot be one flow across it, so such a node is a class of its own. */
  if (fatpipe && k->nsig > 0) k->alone = i + 1;
  unsigned long long h = mix(0, (unsigned long long)k->alone);
  for (int x = 0; x < k->nlinks; x++)
    h = mix(h, (unsigned long long)(uintptr_t)P->links[P->nl + x]);
  for (int x = 0; x < k->nsig; x++) {
    const sig_t *g = &P->sigs[P->ns + x];
    h = mix(mix(mix(h, dbl_bits(g->bw)), dbl_bits(g->lat)), (unsigned long long)g->shared);
  }
  k->hash = mix(h, (unsigned long long)k->nsig);
  P->nl += k->nlinks;
  P->ns += k->nsig;
  return 1;
}

/* Refines the partition P->cls of nodes[0..n) by their keys for destination d: two nodes stay in one class when they
 * were and their keys are equal. Classes are numbered by their first node (class 0 holds nodes[0]). *nclasses gets
 * their count. @return 1, 0 the nodes cannot be grouped (node_key), -1 out of memory. */
static int refine(struct tr_nodes *N, const owner_t *o, part_t *P, const sg_host_t *nodes, int n, sg_host_t d,
                  order_t *sk, int *nclasses) {
  P->nl = P->ns = 0;
  for (int i = 0; i < n; i++) {
    int rc = node_key(N, o, P, nodes, i, d);
    if (rc <= 0) return rc;
    sk[i] = (order_t){P->cls[i], P->keys[i].hash, i};
  }
  qsort(sk, (size_t)n, sizeof *sk, cmp_sortkey);
  for (int i = 0; i < n; i++)
    P->ncls[i] = -1;
  /* within each run of equal (class, hash), a node joins the first earlier node of the run with an equal key (a hash
   * collision keeps them apart); a class's first node in index order stands for it */
  for (int a = 0; a < n;) {
    int b = a;
    while (b < n && sk[b].cls == sk[a].cls && sk[b].hash == sk[a].hash)
      b++;
    for (int x = a; x < b; x++) {
      int i = sk[x].node;
      P->ncls[i] = i; /* its own, unless an earlier node of the run matches */
      for (int y = a; y < x; y++) {
        int r = sk[y].node;
        if (P->ncls[r] == r && keys_equal(P, &P->keys[r], &P->keys[i])) {
          P->ncls[i] = r;
          break;
        }
      }
    }
    a = b;
  }
  /* renumber by first node: class ids 0, 1, ... in node order */
  int k = 0;
  for (int i = 0; i < n; i++)
    if (P->ncls[i] == i) P->ncls[i] = -2 - k++; /* a class's first node: its new id, encoded */
  for (int i = 0; i < n; i++) {
    int r = P->ncls[i];
    P->cls[i] = r <= -2 ? -2 - r : -2 - P->ncls[r];
  }
  *nclasses = k;
  return 1;
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

/* Gives back the bandwidths of the links `owner`'s node group scaled (the partition and what was checked go too). */
static void ungroup(struct tr_nodes *N, int owner) {
  if (owner < 0 || owner >= N->nowners) return;
  owner_t *o = &N->owners[owner];
  for (int i = 0; i < o->nscaled; i++)
    ios_sg_link_scale(N->sg, o->scaled[i].link, o->scaled[i].bw, 1);
  o->nscaled = 0;
  o->nchecked = 0;
  o->first = NULL;
  o->legs = 0;
  o->nclasses = 0;
}

static int checked(const owner_t *o, sg_host_t d) {
  for (int i = 0; i < o->nchecked; i++)
    if (o->checked[i] == d) return 1;
  return 0;
}

void ios_tr_node_ungroup(ios_tr_t *tr, int owner) {
  struct tr_nodes *N = tr->nodes;
  if (N == NULL || owner < 0 || owner >= N->nowners) return;
  ungroup(N, owner);
  owner_t *o = &N->owners[owner]; /* its job ended: what it held goes (20,000 jobs would otherwise keep it all) */
  free(o->scaled);
  free(o->checked);
  free(o->cls);
  free(o->reps);
  free(o->counts);
  memset(o, 0, sizeof *o);
}

/* Room for n nodes in o's partition arrays. @return 0, -1 out of memory. */
static int owner_room(owner_t *o, int n) {
  if (o->ncap >= n) return 0;
  int *c = realloc(o->cls, sizeof *c * (size_t)n);
  if (c == NULL) return -1;
  o->cls = c;
  sg_host_t *r = realloc(o->reps, sizeof *r * (size_t)n);
  if (r == NULL) return -1;
  o->reps = r;
  int *k = realloc(o->counts, sizeof *k * (size_t)n);
  if (k == NULL) return -1;
  o->counts = k;
  o->ncap = n;
  return 0;
}

/* Scales representative `rep`'s own links on its route to d by `count` (each link once per owner). @return 0, -1 out
 * of memory. */
static int scale_own(struct tr_nodes *N, owner_t *o, sg_host_t rep, sg_host_t d, int count) {
  xbt_dynar_reset(N->route);
  sg_host_get_route(rep, d, N->route);
  unsigned x;
  sg_link_t l;
  xbt_dynar_foreach(N->route, x, l) {
    if (link_host(N, l) != rep) continue;
    int seen = 0;
    for (int s = 0; s < o->nscaled && !seen; s++)
      seen = o->scaled[s].link == l;
    if (seen) continue;
    if (o->nscaled == o->scap) {
      int ncap = o->scap ? 2 * o->scap : 4;
      scaled_t *sc = realloc(o->scaled, sizeof *sc * (size_t)ncap);
      if (sc == NULL) return -1;
      o->scaled = sc;
      o->scap = ncap;
    }
    double bw = sg_link_get_bandwidth(l);
    o->scaled[o->nscaled++] = (scaled_t){l, bw};
    ios_sg_link_scale(N->sg, l, bw, count);
  }
  return 0;
}

/* Partitions nodes[0..n) by their keys for dests[0..nd) (refining o's partition), then scales the own links of each
 * class of several nodes' first node by the class's node count, and marks the destinations checked. @return the
 * classes, 0 the nodes cannot be grouped, -1 out of memory. */
static int partition(struct tr_nodes *N, owner_t *o, const sg_host_t *nodes, int n, const sg_host_t *dests, int nd) {
  part_t P = {0};
  int rc = 1, k = o->nclasses;
  P.keys = malloc(sizeof *P.keys * (size_t)n);
  order_t *sk = malloc(sizeof *sk * (size_t)n);
  P.ncls = malloc(sizeof *P.ncls * (size_t)n);
  P.cls = o->cls;
  if (P.keys == NULL || sk == NULL || P.ncls == NULL) rc = -1;
  for (int x = 0; x < nd && rc > 0; x++)
    if (!checked(o, dests[x])) rc = refine(N, o, &P, nodes, n, dests[x], sk, &k);
  free(P.keys);
  free(P.links);
  free(P.sigs);
  free(P.ncls);
  free(sk);
  if (rc <= 0) return rc;
  o->nclasses = k;
  for (int c = 0; c < k; c++)
    o->counts[c] = 0;
  for (int i = 0; i < n; i++)
    if (o->counts[o->cls[i]]++ == 0) o->reps[o->cls[i]] = nodes[i];
  for (int x = 0; x < nd; x++) {
    if (checked(o, dests[x])) continue;
    for (int c = 0; c < k; c++)
      if (o->counts[c] > 1 && scale_own(N, o, o->reps[c], dests[x], o->counts[c]) != 0) return -1;
    if (o->nchecked == o->ccap) {
      int ncap = o->ccap ? 2 * o->ccap : 8;
      sg_host_t *ch = realloc(o->checked, sizeof *ch * (size_t)ncap);
      if (ch == NULL) return -1;
      o->checked = ch;
      o->ccap = ncap;
    }
    o->checked[o->nchecked++] = dests[x];
  }
  return k;
}

/* Whether the first node has a link of its own on its route to d. */
static int has_own(struct tr_nodes *N, sg_host_t node, sg_host_t d) {
  xbt_dynar_reset(N->route);
  sg_host_get_route(node, d, N->route);
  unsigned x;
  sg_link_t l;
  xbt_dynar_foreach(N->route, x, l) {
    if (link_host(N, l) == node) return 1;
  }
  return 0;
}

int ios_tr_node_group(ios_tr_t *tr, int owner, const sg_host_t *nodes, int nnodes, const sg_host_t *dests, int ndests,
                      const sg_host_t **reps, const int **counts) {
  struct tr_nodes *N = tr->nodes;
  *reps = NULL;
  *counts = NULL;
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
  if (o->legs) return 0; /* a partition only gets finer with more destinations: legs stay legs */
  if (owner_room(o, nnodes) != 0) return -1;
  if (o->nchecked == 0) { /* one class to start from */
    for (int i = 0; i < nnodes; i++)
      o->cls[i] = 0;
    o->nclasses = 1;
  }
  if (N->own == NULL && build_owners(N, dests[0]) != 0) return -1;
  int before = o->nclasses, had = o->nchecked;
  int k = partition(N, o, nodes, nnodes, dests, ndests);
  if (k > 0 && had > 0 && k != before) { /* new destinations split a class: its links' factors are wrong; anew */
    ungroup(N, owner);
    o->first = nodes[0];
    o->nnodes = nnodes;
    for (int i = 0; i < nnodes; i++)
      o->cls[i] = 0;
    o->nclasses = 1;
    k = partition(N, o, nodes, nnodes, dests, ndests);
  }
  if (k < 0) return -1;
  if (k == 0 || k == nnodes || (k == 1 && !has_own(N, nodes[0], dests[0]))) {
    /* no class of several nodes with links of their own (or the nodes cannot be grouped): legs, over the platform's
     * own bandwidths (one route for every node is one leg already) */
    XBT_VERB("owner %d: %d nodes from %s: %d classes: legs", owner, nnodes, sg_host_get_name(nodes[0]), k);
    ungroup(N, owner);
    o->first = nodes[0];
    o->nnodes = nnodes;
    o->legs = 1;
    return 0;
  }
  XBT_VERB("owner %d: %d nodes from %s: %d classes", owner, nnodes, sg_host_get_name(nodes[0]), k);
  *reps = o->reps;
  *counts = o->counts;
  return k;
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
    free(N->owners[i].cls);
    free(N->owners[i].reps);
    free(N->owners[i].counts);
  }
  free(N->owners);
  free(N->own);
  free(N->senders);
  if (N->route != NULL) xbt_dynar_free(&N->route);
  free(N);
  tr->nodes = NULL;
}
