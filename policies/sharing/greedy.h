/* iosim — the greedy allocation shared by FCFS-like strategies (RR-9502 §4.1): order the pending transfers by a key,
 * then grant each min(cap, what is left of B) in that order. Internal to policies/sharing/. */
#ifndef IOS_SHARING_GREEDY_H
#define IOS_SHARING_GREEDY_H

#include "../ios_policy.h"

/** One transfer in a greedy order: key (smaller first), then posting time, then posting order, then index. */
typedef struct {
  double key, posted;
  long seq;
  int idx; /**< index in the view's transfers */
} ios_greedy_entry_t;

/** Sorts e[0..k) by key, posting time, posting order and index. Keys within `tie` of the first of a run count as
 * equal (tie = 0: exact), so rounding errors do not decide between equal keys. @return IOS_OK, or IOS_ENOMEM (more
 * than 64 entries and no memory for the merge). */
int ios_greedy_sort(ios_greedy_entry_t *e, int k, double tie);

/** Grants in the order e[0..k): rate_out[e[a].idx] = min(cap, capacity left), never negative. */
void ios_greedy_fill(const ios_share_view_t *in, const ios_greedy_entry_t *e, int k, double *rate_out);

#endif
