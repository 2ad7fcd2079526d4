/* iosim — the greedy allocation shared by FCFS-like strategies (see greedy.h). */
#include "greedy.h"
#include "../ios_sort.h"

#include <stdlib.h>

static inline int key_less(const ios_greedy_entry_t *a, const ios_greedy_entry_t *b) {
  if (a->key != b->key) return a->key < b->key;
  if (a->posted != b->posted) return a->posted < b->posted;
  if (a->seq != b->seq) return a->seq < b->seq;
  return a->idx < b->idx;
}

IOS_DEFINE_SORT(sort_by_key, ios_greedy_entry_t, key_less)

int ios_greedy_sort(ios_greedy_entry_t *e, int k, double tie) {
  if (sort_by_key(e, k) != 0) return IOS_ENOMEM;
  if (!(tie > 0)) return IOS_OK;
  for (int a = 0; a < k;) { /* each run within `tie` of its first: re-sorted by posting time, then order */
    int b = a + 1;
    while (b < k && e[b].key - e[a].key <= tie)
      b++;
    if (b - a > 1) {
      for (int x = a + 1; x < b; x++)
        e[x].key = e[a].key;
      if (sort_by_key(e + a, b - a) != 0) return IOS_ENOMEM;
    }
    a = b;
  }
  return IOS_OK;
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
