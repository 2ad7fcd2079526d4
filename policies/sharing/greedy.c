/* iosim — the greedy allocation shared by FCFS-like strategies (see greedy.h). */
#include "greedy.h"

#include <stdlib.h>

static int by_key(const void *pa, const void *pb) {
  const ios_greedy_entry_t *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->posted != b->posted) return a->posted < b->posted ? -1 : 1;
  if (a->seq != b->seq) return a->seq < b->seq ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

void ios_greedy_sort(ios_greedy_entry_t *e, int k, double tie) {
  qsort(e, (size_t)k, sizeof *e, by_key);
  if (!(tie > 0)) return;
  for (int a = 0; a < k;) { /* each run within `tie` of its first: re-sorted by posting time, then order */
    int b = a + 1;
    while (b < k && e[b].key - e[a].key <= tie)
      b++;
    if (b - a > 1) {
      for (int x = a + 1; x < b; x++)
        e[x].key = e[a].key;
      qsort(e + a, (size_t)(b - a), sizeof *e, by_key);
    }
    a = b;
  }
}

void ios_greedy_fill(const ios_share_view_t *in, const ios_greedy_entry_t *e, int k, double *rate_out) {
  double left = in->capacity;
  for (int a = 0; a < k; a++) {
    double cap = in->t[e[a].idx].cap;
    double r = cap < left ? cap : left;
    rate_out[e[a].idx] = r > 0.0 ? r : 0.0;
    left -= rate_out[e[a].idx];
  }
}
