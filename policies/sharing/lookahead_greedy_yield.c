/* iosim — sharing `lookahead-greedy-yield` (RR-9502 §4.1 LookAheadGreedyYield).
 *
 * For each pending transfer i (a candidate), a tentative allocation: i gets min(cap_i, B), and what is left,
 * B − min(cap_i, B), goes to the other transfers by GreedyYield (non-decreasing current yield, ties — yields within
 * 1e-12, YIELD_TIE — by posting time R_i then posting order, each min(cap, what is left)). The candidate's score Z_i is
 * the minimum yield over the active applications (the transfers pending on this resource, i.e. S(t)) at the tentative
 * horizon; the allocation with the largest Z_i is kept.
 *
 * Horizon. §4.1 motivates the strategy by the minimum yield one event later (at t + h, h the end of one ongoing
 * I/O operation), and §3.1.2 notes that after a decision h is known only to exceed the time the shortest ongoing
 * operation needs if no new event occurs. So h is the first completion the allocation itself predicts: h = min over the
 * transfers with a rate r_j > 0 of remaining_j / r_j (postings are not predictable and do not count), and no later
 * than the window end: h = min(h, T_end − now) when T_end > now (the objective is measured at T_end). When nothing
 * gets a rate (all caps 0), h = 0.
 *
 * Yields at the horizon (Eq. 6, extended linearly over [now, now + h] with the tentative rates):
 *   y_j(now + h) = (progress_j + h·parts_j·r_j / b_j) / (now + h − τ_j)
 * (an operation of n parts on n resources moves the application's progress at n·r/b_j; the term is 0 when b_j = 0;
 * y_j = 0 when now + h <= τ_j, as in greedy-yield). Z_i = min(1, min_j y_j): a yield never exceeds 1 (progress
 * cannot exceed dedicated progress, §3.3), so the clamp only absorbs rounding.
 *
 * Ties: candidates are tried in GreedyYield order (lowest current yield first, then R_i, then posting order, yields
 * within YIELD_TIE being equal) and a later candidate replaces the kept one only when its Z is larger by more than
 * YIELD_TIE (rounding must not decide); so among equal scores the candidate with the lowest current yield (then the
 * oldest posting) is kept. Cost O(k²) per decision for k pending transfers. */
#include "greedy.h"

#include <math.h>
#include <stdlib.h>

/* Yields within YIELD_TIE are ties (rounding errors must not decide between equal yields; see greedy_yield.c). */
#define YIELD_TIE 1e-12

static double yield_at(const ios_transfer_view_t *t, double when, double gained) {
  double age = when - t->release;
  return age > 0.0 ? (t->progress + gained) / age : 0.0;
}

/* The tentative allocation of candidate e[c]: it first at min(cap, B), then the others in order e[]. */
static void allocate(const ios_share_view_t *in, const ios_greedy_entry_t *e, int c, double *rate) {
  int k = in->ntransfers;
  double left = in->capacity;
  for (int a = -1; a < k; a++) {
    if (a == c) continue;
    int i = e[a < 0 ? c : a].idx;
    double cap = in->t[i].cap;
    double r = cap < left ? cap : left;
    rate[i] = r > 0.0 ? r : 0.0;
    left -= rate[i];
  }
}

/* Z: min(1, minimum yield over the pending transfers at the first completion of `rate` (or T_end)). */
static double score(const ios_share_view_t *in, const double *rate) {
  double h = INFINITY;
  for (int j = 0; j < in->ntransfers; j++)
    if (rate[j] > 0.0) {
      double rem = in->t[j].remaining > 0.0 ? in->t[j].remaining : 0.0;
      double d = rem / rate[j];
      if (d < h) h = d;
    }
  if (in->t_end > in->now && in->t_end - in->now < h) h = in->t_end - in->now;
  if (!(h < INFINITY)) h = 0.0;
  double z = 1.0;
  for (int j = 0; j < in->ntransfers; j++) {
    const ios_transfer_view_t *t = &in->t[j];
    int parts = t->parts > 1 ? t->parts : 1;
    double gained = t->b > 0.0 ? h * parts * rate[j] / t->b : 0.0;
    double y = yield_at(t, in->now + h, gained);
    if (y < z) z = y;
  }
  return z;
}

static int lookahead_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  int k = in->ntransfers;
  ios_greedy_entry_t *e = malloc(sizeof *e * (size_t)(k > 0 ? k : 1));
  double *rate = malloc(sizeof *rate * (size_t)(k > 0 ? k : 1));
  if (e == NULL || rate == NULL) {
    free(e);
    free(rate);
    return IOS_ENOMEM;
  }
  for (int i = 0; i < k; i++) {
    const ios_transfer_view_t *t = &in->t[i];
    e[i] = (ios_greedy_entry_t){.key = yield_at(t, in->now, 0.0), .posted = t->posted, .seq = t->seq, .idx = i};
  }
  if (ios_greedy_sort(e, k, YIELD_TIE) != IOS_OK) {
    free(e);
    free(rate);
    return IOS_ENOMEM;
  }
  int best = 0;
  double best_z = -INFINITY;
  for (int c = 0; c < k; c++) {
    allocate(in, e, c, rate);
    double z = score(in, rate);
    if (z > best_z + YIELD_TIE) {
      best_z = z;
      best = c;
    }
  }
  if (k > 0) allocate(in, e, best, rate_out);
  free(e);
  free(rate);
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_lookahead_greedy_yield = {
    .name = "lookahead-greedy-yield",
    .alias = NULL,
    .description = "give one transfer its cap and the rest by greedy-yield, the choice that maximises the minimum "
                   "yield at the first predicted completion",
    .source = "RR-9502 §4.1 (LookAheadGreedyYield)",
    .nparams = 0,
    .params = NULL,
    .share = lookahead_share,
    .uncapped = 0,
    .periodic = 0,
};
