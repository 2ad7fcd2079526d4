/* iosim — sharing `set10` (RR-9502 §4.2 SET-10, the I/O-sets strategy, with the extended algorithm).
 *
 * I/O-sets. Application i belongs to set S_n with n = nearest integer of log10 ω_i (halves away from zero), ω_i its
 * mean iteration length learned by the engine (work + V/b_i over its completed I/O operations, §4.2); S_n has the
 * priority q_n = 10^(−n), so short iterations come first. An application with no completed I/O yet (ω = NAN; also
 * ω <= 0 or not finite, which carry no information) is in the top-priority set: S_n0 with
 * n0 = min(−2, smallest n among the known ω present). So all such applications share one set, which is never below
 * a known set; −2 (ω = 0.01 s, the initial ω of the RR-9502 authors' simulator when it learns ω on the fly) puts
 * them far above any realistic iteration (10^−n0 is 10^5 times the priority of a 1,000 s iteration) without joining
 * a known set unless some application really iterates in under ~0.03 s, in which case they join that top set.
 *
 * Bandwidth (the extended algorithm of §4.2, which reduces to the basic one — a single application per set gets
 * α_j·B — when every cap is B):
 *   1. the s sets present; α_j = q_j / Σ_k q_k over the sets still in play; β_j·B = Σ of the caps of S_j;
 *   2. every set with β_j <= α_j (limited by its maximal bandwidth) gets all its caps; B_left = B − what they got;
 *   3. repeat 1-2 with B_left over the remaining sets until none is limited;
 *   4. each remaining set gets α_j·B_left, handed out greedily in FCFS order within the set (posting time R_i, then
 *      posting order; each min(cap, what is left of the set's share)).
 * The caps b_k are the transfers' caps. The result is work-conserving: Σ rates = min(B, Σ caps). */
#include "../ios_policy.h"

#include "../ios_sort.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#define N_UNKNOWN_MAX (-2) /* the set of applications with no ω yet is never below S_-2 */
#define N_LIMIT 100        /* |n| is clamped so that 10^(-n) stays finite and > 0 */

typedef struct {
  int set; /* n */
  double posted;
  long seq;
  int idx;
} entry_t;

/* By set (priority order), then FCFS. */
static inline int set_fcfs_less(const entry_t *a, const entry_t *b) {
  if (a->set != b->set) return a->set < b->set;
  if (a->posted != b->posted) return a->posted < b->posted;
  if (a->seq != b->seq) return a->seq < b->seq;
  return a->idx < b->idx;
}

IOS_DEFINE_SORT(sort_by_set_fcfs, entry_t, set_fcfs_less)

static int known(double omega) {
  return omega > 0.0 && isfinite(omega);
}

static int set_of(double omega) {
  double n = round(log10(omega));
  if (n < -N_LIMIT) n = -N_LIMIT;
  if (n > N_LIMIT) n = N_LIMIT;
  return (int)n;
}

/* The I/O-sets in priority order: set s holds e[first[s] .. first[s+1]-1]; its caps' sum, q_s, whether served. */
typedef struct {
  int ns;
  entry_t *e;
  int *first;
  double *demand, *q;
  char *done;
} sets_t;

/* Frees the arrays of S. */
static void sets_free(sets_t *S) {
  free(S->e);
  free(S->first);
  free(S->demand);
  free(S->q);
  free(S->done);
}

/* Allocates the arrays of S for k transfers. Returns IOS_OK or IOS_ENOMEM (then nothing is held). */
static int sets_alloc(sets_t *S, int k) {
  size_t sz = (size_t)(k > 0 ? k : 1);
  S->ns = 0;
  S->e = malloc(sizeof *S->e * sz);
  S->first = malloc(sizeof *S->first * (sz + 1));
  S->demand = malloc(sizeof *S->demand * sz);
  S->q = malloc(sizeof *S->q * sz);
  S->done = malloc(sz);
  if (S->e == NULL || S->first == NULL || S->demand == NULL || S->q == NULL || S->done == NULL) {
    sets_free(S);
    return IOS_ENOMEM;
  }
  return IOS_OK;
}

/* Puts each transfer in its set, sorts them by set then FCFS, and groups them with demands and priorities. */
/* @return IOS_OK or IOS_ENOMEM. */
static int make_sets(const ios_share_view_t *in, sets_t *S) {
  int k = in->ntransfers, n_unknown = N_UNKNOWN_MAX;
  entry_t *e = S->e;
  for (int i = 0; i < k; i++) { /* each known ω's set once (a log10 each), the unknown ones' set after */
    const ios_transfer_view_t *t = &in->t[i];
    e[i] = (entry_t){.set = known(t->omega) ? set_of(t->omega) : INT_MAX, .posted = t->posted, .seq = t->seq, .idx = i};
    if (e[i].set < n_unknown) n_unknown = e[i].set;
  }
  for (int i = 0; i < k; i++)
    if (e[i].set == INT_MAX) e[i].set = n_unknown;
  if (sort_by_set_fcfs(e, k) != 0) return IOS_ENOMEM;
  int ns = 0;
  for (int a = 0; a < k; a++) {
    if (a == 0 || e[a].set != e[a - 1].set) {
      S->first[ns] = a;
      S->demand[ns] = 0.0;
      S->q[ns] = pow(10.0, -e[a].set);
      S->done[ns] = 0;
      ns++;
    }
    double cap = in->t[e[a].idx].cap;
    S->demand[ns - 1] += cap > 0.0 ? cap : 0.0;
  }
  S->first[ns] = k;
  S->ns = ns;
  return IOS_OK;
}

/* Steps 1–2: every set with β_s <= α_s gets its caps out of *left; returns how many did. */
static int serve_limited(const ios_share_view_t *in, sets_t *S, double qsum, double *left, double *rate_out) {
  double left_before = *left;
  int limited = 0;
  for (int s = 0; s < S->ns; s++)
    if (!S->done[s] && S->demand[s] <= S->q[s] / qsum * left_before) {
      for (int a = S->first[s]; a < S->first[s + 1]; a++) {
        double cap = in->t[S->e[a].idx].cap;
        rate_out[S->e[a].idx] = cap > 0.0 ? cap : 0.0;
      }
      *left -= S->demand[s];
      S->done[s] = 1;
      limited++;
    }
  if (*left < 0.0) *left = 0.0;
  return limited;
}

/* Step 4: the remaining sets share `left` by priority, FCFS within each. */
static void share_remaining(const ios_share_view_t *in, const sets_t *S, double qsum, double left, double *rate_out) {
  for (int s = 0; s < S->ns; s++) {
    if (S->done[s]) continue;
    double share = S->q[s] / qsum * left;
    for (int a = S->first[s]; a < S->first[s + 1]; a++) {
      double cap = in->t[S->e[a].idx].cap;
      double r = cap < share ? cap : share;
      rate_out[S->e[a].idx] = r > 0.0 ? r : 0.0;
      share -= rate_out[S->e[a].idx];
    }
  }
}

static int set10_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  sets_t S;
  if (sets_alloc(&S, in->ntransfers) != IOS_OK) return IOS_ENOMEM;
  for (int i = 0; i < in->ntransfers; i++)
    rate_out[i] = 0.0;
  if (make_sets(in, &S) != IOS_OK) {
    sets_free(&S);
    return IOS_ENOMEM;
  }
  /* Steps 1-3: sets limited by their maximal bandwidth get all their caps, until none is. */
  double left = in->capacity > 0.0 ? in->capacity : 0.0;
  for (;;) {
    double qsum = 0.0;
    for (int s = 0; s < S.ns; s++)
      if (!S.done[s]) qsum += S.q[s];
    if (qsum <= 0.0) break;
    if (serve_limited(in, &S, qsum, &left, rate_out) == 0) {
      share_remaining(in, &S, qsum, left, rate_out);
      break;
    }
  }
  sets_free(&S);
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_set10 = {
    .name = "set10",
    .alias = NULL,
    .description = "I/O-sets by iteration length (n = round(log10 omega), priority 10^-n), exclusive FCFS within a "
                   "set, sets limited by their caps served first",
    .source = "RR-9502 §4.2 (SET-10, extended algorithm)",
    .nparams = 0,
    .params = NULL,
    .share = set10_share,
    .uncapped = 0,
    .periodic = 0,
};
