/* iosim — the storage platform, its allocation state and the permanent-regime bandwidth estimate (ios_storage.h). */
#include "ios_storage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GB 1e9
#define TB 1e12
#define GBIT (1e9 / 8) /* bytes/s of 1 Gb/s */

/* ---------------------------------------------------------------- platform */

int ios_storage_add_node(ios_storage_t *s, const char *name, double node_bw, int ndisks, double capacity,
                         double read_bw, double write_bw) {
  if (s == NULL || ndisks < 1 || !(node_bw > 0) || !(capacity > 0) || !isfinite(capacity) || !(read_bw > 0) ||
      !isfinite(read_bw) || !(write_bw > 0) || !isfinite(write_bw) || s->ndisks > 100000000 - ndisks)
    return IOS_EINVAL;
  ios_storage_node_t *nodes = realloc(s->nodes, sizeof *nodes * (size_t)(s->nnodes + 1));
  if (nodes == NULL) return IOS_ENOMEM;
  s->nodes = nodes;
  ios_storage_disk_t *disks = realloc(s->disks, sizeof *disks * (size_t)(s->ndisks + ndisks));
  if (disks == NULL) return IOS_ENOMEM;
  s->disks = disks;
  ios_storage_node_t *n = &s->nodes[s->nnodes];
  memset(n, 0, sizeof *n);
  if (name != NULL) strncpy(n->name, name, sizeof n->name - 1);
  n->bw = node_bw;
  n->first = s->ndisks;
  n->ndisks = ndisks;
  for (int k = 0; k < ndisks; k++)
    s->disks[s->ndisks + k] = (ios_storage_disk_t){capacity, read_bw, write_bw, s->nnodes};
  s->ndisks += ndisks;
  s->nnodes++;
  return IOS_OK;
}

int ios_storage_add_disk(ios_storage_t *s, double capacity, double read_bw, double write_bw) {
  if (s == NULL || s->nnodes < 1 || !(capacity > 0) || !isfinite(capacity) || !(read_bw > 0) || !isfinite(read_bw) ||
      !(write_bw > 0) || !isfinite(write_bw) || s->ndisks >= 100000000)
    return IOS_EINVAL;
  ios_storage_disk_t *disks = realloc(s->disks, sizeof *disks * (size_t)(s->ndisks + 1));
  if (disks == NULL) return IOS_ENOMEM;
  s->disks = disks;
  s->disks[s->ndisks++] = (ios_storage_disk_t){capacity, read_bw, write_bw, s->nnodes - 1};
  s->nodes[s->nnodes - 1].ndisks++;
  return IOS_OK;
}

void ios_storage_free(ios_storage_t *s) {
  if (s == NULL) return;
  free(s->nodes);
  free(s->disks);
  *s = (ios_storage_t){0, 0, NULL, NULL};
}

const char *const ios_storage_preset_names[] = {"1N1D", "1NnD", "nN1D", "nNnD", "table5", NULL};

int ios_storage_preset(const char *name, double total, ios_storage_t *out) {
  if (name == NULL || out == NULL || out->nnodes != 0) return IOS_EINVAL;
  ios_storage_t s = {0, 0, NULL, NULL};
  int rc = IOS_OK;
  char label[32];
  if (strcasecmp(name, "table5") == 0 || strcasecmp(name, "heterogeneous") == 0) {
    if (total != 0 && fabs(total - 32 * TB) > 1e-9 * 32 * TB) return IOS_EINVAL;
    for (int i = 0; i < 2 && rc == IOS_OK; i++) {
      snprintf(label, sizeof label, "ssd%d", i);
      rc = ios_storage_add_node(&s, label, 200 * GBIT, 5, 1.6 * TB, 2.93 * GB, 2.93 * GB);
    }
    for (int i = 0; i < 4 && rc == IOS_OK; i++) {
      snprintf(label, sizeof label, "hdd%d", i);
      rc = ios_storage_add_node(&s, label, 100 * GBIT, 2, 2 * TB, 0.08 * GB, 0.08 * GB);
    }
  } else {
    int nodes, disks;
    if (strcasecmp(name, "1N1D") == 0)
      nodes = 1, disks = 1;
    else if (strcasecmp(name, "1NnD") == 0)
      nodes = 1, disks = 8;
    else if (strcasecmp(name, "nN1D") == 0)
      nodes = 8, disks = 1;
    else if (strcasecmp(name, "nNnD") == 0)
      nodes = 4, disks = 2;
    else
      return IOS_EINVAL;
    if (!(total > 0) || !isfinite(total)) return IOS_EINVAL;
    int raid = nodes == 1 && disks == 1; /* StorAlloc's single volume: RAID 10 of the SSDs, half their bandwidth */
    for (int i = 0; i < nodes && rc == IOS_OK; i++) {
      snprintf(label, sizeof label, "node%d", i);
      rc = ios_storage_add_node(&s, label, 100 * GBIT, disks, total / (nodes * disks), raid ? 1.565 * GB : 3.13 * GB,
                                raid ? 1.465 * GB : 2.93 * GB);
    }
  }
  if (rc != IOS_OK) {
    ios_storage_free(&s);
    return rc;
  }
  *out = s;
  return IOS_OK;
}

/* ---------------------------------------------------------------- state */

int ios_storage_state_init(ios_storage_state_t *st, const ios_storage_t *s) {
  if (st == NULL || s == NULL || s->ndisks < 0) return IOS_EINVAL;
  ios_storage_disk_state_t *d = calloc(s->ndisks > 0 ? (size_t)s->ndisks : 1, sizeof *d);
  if (d == NULL) return IOS_ENOMEM;
  *st = (ios_storage_state_t){0, s->ndisks, d};
  return IOS_OK;
}

void ios_storage_state_free(ios_storage_state_t *st) {
  if (st == NULL) return;
  for (int k = 0; k < st->ndisks; k++)
    free(st->disk[k].a);
  free(st->disk);
  *st = (ios_storage_state_t){0, 0, NULL};
}

/* Adds `a` to disk d, refusing what does not fit when `check`. */
static int state_put(ios_storage_state_t *st, const ios_storage_t *s, int d, const ios_storage_alloc_t *a, int check) {
  if (st == NULL || s == NULL || a == NULL || d < 0 || d >= st->ndisks || d >= s->ndisks || !(a->size >= 0) ||
      !isfinite(a->size))
    return IOS_EINVAL;
  ios_storage_disk_state_t *ds = &st->disk[d];
  double capacity = s->disks[d].capacity;
  if (check && ds->used + a->size > capacity) return 1;
  if (ds->n == ds->cap) {
    int cap = ds->cap ? 2 * ds->cap : 8;
    ios_storage_alloc_t *more = realloc(ds->a, sizeof *more * (size_t)cap);
    if (more == NULL) return IOS_ENOMEM;
    ds->a = more;
    ds->cap = cap;
  }
  int i = ds->n; /* keep the array in end order (new allocations mostly end last) */
  while (i > 0 && ds->a[i - 1].end > a->end)
    i--;
  memmove(ds->a + i + 1, ds->a + i, sizeof *ds->a * (size_t)(ds->n - i));
  ds->a[i] = *a;
  ds->n++;
  ds->used += a->size;
  return IOS_OK;
}

int ios_storage_state_add(ios_storage_state_t *st, const ios_storage_t *s, int d, const ios_storage_alloc_t *a) {
  return state_put(st, s, d, a, 1);
}

int ios_storage_state_reserve(ios_storage_state_t *st, const ios_storage_t *s, int d, const ios_storage_alloc_t *a) {
  return state_put(st, s, d, a, 0);
}

void ios_storage_state_clear(ios_storage_state_t *st) {
  if (st == NULL) return;
  for (int k = 0; k < st->ndisks; k++) {
    st->disk[k].n = 0;
    st->disk[k].used = 0;
  }
}

int ios_storage_state_remove(ios_storage_state_t *st, int d, long owner, double size, double end) {
  if (st == NULL || d < 0 || d >= st->ndisks) return IOS_EINVAL;
  ios_storage_disk_state_t *ds = &st->disk[d];
  for (int i = 0; i < ds->n; i++)
    if (ds->a[i].owner == owner && ds->a[i].size == size && ds->a[i].end == end) {
      memmove(ds->a + i, ds->a + i + 1, sizeof *ds->a * (size_t)(ds->n - i - 1));
      ds->n--;
      ds->used -= size;
      if (ds->n == 0 || ds->used < 0) ds->used = 0; /* no drift when the disk empties */
      return IOS_OK;
    }
  return IOS_EINVAL;
}

double ios_storage_free_bytes(const ios_storage_state_t *st, const ios_storage_t *s, int d) {
  if (st == NULL || s == NULL || d < 0 || d >= st->ndisks || d >= s->ndisks) return 0;
  double f = s->disks[d].capacity - st->disk[d].used;
  return f > 0 ? f : 0;
}

/* ---------------------------------------------------------------- permanent-regime bandwidth */

/* A cap shared by `mult` flows. */
typedef struct {
  double cap;
  int mult;
} item_t;

/* Max-min water level of `capacity` shared by the items (sorted here by insertion: there are few): the flows of an
 * item get min(cap, level). INFINITY when every cap fits. */
static double water_level(item_t *it, int n, double capacity) {
  for (int i = 1; i < n; i++) {
    item_t x = it[i];
    int j = i;
    for (; j > 0 && it[j - 1].cap > x.cap; j--)
      it[j] = it[j - 1];
    it[j] = x;
  }
  int left = 0;
  for (int i = 0; i < n; i++)
    left += it[i].mult;
  double rest = capacity;
  for (int i = 0; i < n; i++) {
    if (it[i].mult == 0) continue;
    if (!isfinite(it[i].cap) || it[i].cap * left > rest) return rest > 0 ? rest / left : 0;
    rest -= it[i].cap * it[i].mult;
    left -= it[i].mult;
  }
  return INFINITY;
}

/* An allocation held on the node: its end, local disk and need (INFINITY = none). */
typedef struct {
  double end, need;
  int disk;
} flow_t;

/* One node's estimate: per local disk e, `unlimited[e]` allocations without a need held now; the allocations with a
 * need (all disks) in fin[0 .. nfin), active while their end is after the current time. */
typedef struct {
  const ios_storage_node_t *node;
  const ios_storage_disk_t *disk; /* the node's first disk */
  int *unlimited;
  flow_t *fin;
  int nfin;
  double *level, *plus; /* per disk: the share of a flow without a need, without / with the new one */
  item_t *items;
} work_t;

static double disk_level(const work_t *w, int e, int extra, double t) {
  int n = 0;
  for (int i = 0; i < w->nfin; i++)
    if (w->fin[i].disk == e && w->fin[i].end > t) w->items[n++] = (item_t){w->fin[i].need, 1};
  w->items[n++] = (item_t){INFINITY, w->unlimited[e] + extra};
  return water_level(w->items, n, w->disk[e].write_bw);
}

/* The new flow's rate on local disk d: the node link shared max-min, each flow capped by its disk share. */
static double link_rate(const work_t *w, int d, double t) {
  if (!isfinite(w->node->bw)) return w->plus[d];
  int n = 0;
  for (int e = 0; e < w->node->ndisks; e++) {
    double level = e == d ? w->plus[e] : w->level[e];
    int at_level = w->unlimited[e] + (e == d);
    for (int i = 0; i < w->nfin; i++)
      if (w->fin[i].disk == e && w->fin[i].end > t) {
        if (w->fin[i].need < level)
          w->items[n++] = (item_t){w->fin[i].need, 1};
        else
          at_level++;
      }
    if (at_level > 0) w->items[n++] = (item_t){level, at_level};
  }
  return fmin(w->plus[d], water_level(w->items, n, w->node->bw));
}

int ios_storage_bw_estimate_node(const ios_storage_t *s, const ios_storage_state_t *st, int v,
                                 const ios_storage_ask_t *ask, double *out) {
  if (s == NULL || st == NULL || ask == NULL || out == NULL || v < 0 || v >= s->nnodes || !(ask->duration >= 0) ||
      st->ndisks < s->ndisks)
    return IOS_EINVAL;
  const ios_storage_node_t *node = &s->nodes[v];
  int nd = node->ndisks, m = 0;
  for (int e = 0; e < nd; e++)
    m += st->disk[node->first + e].n;
  /* one block: fin[m] (flows with a need), items[m + nd + 1], level[nd], plus[nd], unlimited[nd], next[nd] */
  size_t bytes = sizeof(flow_t) * (size_t)(m + 1) + sizeof(item_t) * (size_t)(m + nd + 1) +
                 sizeof(double) * (size_t)(2 * nd) + sizeof(int) * (size_t)(2 * nd);
  char *block = malloc(bytes);
  if (block == NULL) return IOS_ENOMEM;
  work_t w = {node, &s->disks[node->first], NULL, (flow_t *)block, 0, NULL, NULL, NULL};
  w.items = (item_t *)(w.fin + m + 1);
  w.level = (double *)(w.items + m + nd + 1);
  w.plus = w.level + nd;
  w.unlimited = (int *)(w.plus + nd);
  int *next_of = w.unlimited + nd; /* per disk: its first allocation still held (arrays are in end order) */
  double t0 = ask->start, t1 = ask->start + ask->duration;
  for (int e = 0; e < nd; e++) { /* what is held after t0 */
    const ios_storage_disk_state_t *ds = &st->disk[node->first + e];
    w.unlimited[e] = 0;
    next_of[e] = ds->n;
    for (int i = ds->n - 1; i >= 0 && ds->a[i].end > t0; i--) {
      next_of[e] = i;
      if (ds->a[i].need > 0)
        w.fin[w.nfin++] = (flow_t){ds->a[i].end, ds->a[i].need, e};
      else
        w.unlimited[e]++;
    }
    out[e] = 0;
  }
  double t = t0;
  for (;;) { /* piecewise constant between the ends of the allocations held, taken in time order */
    int first = -1;
    double next = t1;
    for (int e = 0; e < nd; e++) {
      const ios_storage_disk_state_t *ds = &st->disk[node->first + e];
      if (next_of[e] < ds->n && ds->a[next_of[e]].end < next) {
        next = ds->a[next_of[e]].end;
        first = e;
      }
    }
    if (next > t || t1 == t0) {
      for (int e = 0; e < nd; e++) {
        w.level[e] = disk_level(&w, e, 0, t);
        w.plus[e] = disk_level(&w, e, 1, t);
      }
      double span = t1 > t0 ? next - t : 1;
      for (int d = 0; d < nd; d++)
        out[d] += link_rate(&w, d, t) * span;
      t = next;
    }
    if (first < 0 || t1 == t0) break;
    const ios_storage_alloc_t *leaving = &st->disk[node->first + first].a[next_of[first]++];
    if (!(leaving->need > 0)) w.unlimited[first]--;
  }
  for (int e = 0; e < nd && t1 > t0; e++)
    out[e] /= t1 - t0;
  free(block);
  return IOS_OK;
}

double ios_storage_bw_estimate(const ios_storage_t *s, const ios_storage_state_t *st, int d,
                               const ios_storage_ask_t *ask) {
  if (s == NULL || st == NULL || d < 0 || d >= s->ndisks) return 0;
  const ios_storage_node_t *node = &s->nodes[s->disks[d].node];
  double *all = malloc(sizeof *all * (size_t)node->ndisks), r = 0;
  if (all != NULL && ios_storage_bw_estimate_node(s, st, s->disks[d].node, ask, all) == IOS_OK)
    r = all[d - node->first];
  free(all);
  return r;
}
