/* iosim — exhaustive check of bpio's balance bounds (docs/striping.md, "What bpio guarantees"; TAPP-IO §II Eq. 1,
 * §III.A Alg. 1).
 *
 * For every regular topology of S OSSes × T OSTs (N = S·T OSTs, no router) with 1 <= S, T <= 4, and for every
 * sequence of jobs of one stripe per writer, placed by `bpio` (random_start 0) into one shared usage state, checks
 * after every job that, with m stripes placed so far:
 *   - every OST has floor(m/N) or ceil(m/N) uses (needs w_ost > 0);
 *   - every OSS has floor(m/S) or ceil(m/S) uses (needs w_oss > 0 as well).
 * Jobs: a file-per-process job of one writer, or a shared file of W = 2..N writers (stripe count W, one writer per
 * stripe, on W distinct OSTs). A file-per-process job of W writers is not a separate kind: bpio places its W one-stripe
 * files one after the other with the usage updated between them, which is W one-writer jobs in a row. So there are N
 * job kinds, and a topology's sequences of up to L jobs are the N + N^2 + ... + N^L nodes of a tree, each one state
 * (the usage after that prefix) checked. L is the largest length <= 10 whose tree has at most BUDGET states.
 * Weight sets (w_oss, w_ost; w_router is irrelevant without routers): 1/3 1/3 (the default), 0 1 (OST bound only),
 * 1 0.1 and 0.1 1.
 * Prints one line per (weights, topology): S, T, N, L, states, violations; then the totals and the time. Exit code 0
 * when no bound is violated, 1 when one is, 2 on bad arguments.
 * Usage: iosim_check_bpio_balance [BUDGET] (default 20000000 states per topology and weight set: 386,805,364 states
 * in all, about 2 min of one core). */
#include "ios_striping.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_S = 4, MAX_T = 4, MAX_N = MAX_S * MAX_T, MAX_DEPTH = 10 };

typedef struct {
  const ios_striping_policy_t *pol;
  ios_params_t par;
  ios_stripe_topo_t topo;
  ios_stripe_state_t st;
  int S, N, depth;
  long saved_ost[MAX_DEPTH + 1][MAX_N], saved_oss[MAX_DEPTH + 1][MAX_S];
  long long states, violations;
  int check_oss;
} ctx_t;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 when every count of v[0..n) is floor(m/n) or ceil(m/n) */
static int balanced(const long *v, int n, long m) {
  long lo = m / n, hi = (m + n - 1) / n;
  for (int i = 0; i < n; i++)
    if (v[i] < lo || v[i] > hi) return 0;
  return 1;
}

/* Places every job kind after the state saved at `level` (m stripes so far), checks, and recurses. */
static int explore(ctx_t *c, int level, long m) {
  for (int kind = 1; kind <= c->N; kind++) {
    memcpy(c->st.ost_uses, c->saved_ost[level], sizeof(long) * (size_t)c->N);
    memcpy(c->st.oss_uses, c->saved_oss[level], sizeof(long) * (size_t)c->S);
    ios_stripe_job_t job = {.nwriters = kind,
                            .layout = kind == 1 ? IOS_LAYOUT_FPP : IOS_LAYOUT_SSF,
                            .bytes_per_writer = 1048576.0,
                            .writer_client = NULL};
    ios_stripe_placement_t pl;
    if (c->pol->place(&c->topo, &job, &c->par, NULL, &c->st, &pl) != IOS_OK) {
      fprintf(stderr, "check_bpio_balance: bpio refused a job of %d writers\n", kind);
      return -1;
    }
    ios_stripe_placement_free(&pl);
    long mm = m + kind;
    c->states++;
    if (!balanced(c->st.ost_uses, c->N, mm) || (c->check_oss && !balanced(c->st.oss_uses, c->S, mm))) {
      if (c->violations++ == 0)
        fprintf(stderr, "violation: N = %d, S = %d, m = %ld, depth %d\n", c->N, c->S, mm, level);
    }
    if (level + 1 < c->depth) {
      memcpy(c->saved_ost[level + 1], c->st.ost_uses, sizeof(long) * (size_t)c->N);
      memcpy(c->saved_oss[level + 1], c->st.oss_uses, sizeof(long) * (size_t)c->S);
      if (explore(c, level + 1, mm) != 0) return -1;
    }
  }
  return 0;
}

static int param_index(const ios_striping_policy_t *pol, const char *name) {
  for (int i = 0; i < pol->nparams; i++)
    if (strcmp(pol->params[i].name, name) == 0) return i;
  return -1;
}

int main(int argc, char **argv) {
  char *end = NULL;
  double budget = argc > 1 ? strtod(argv[1], &end) : 2e7;
  if (argc > 2 || (argc > 1 && (*end != '\0' || !(budget >= 1 && budget <= 1e12)))) {
    fprintf(stderr, "usage: %s [BUDGET]: BUDGET = the most states per topology and weight set, 1 to 1e12\n", argv[0]);
    return 2;
  }
  static ctx_t c;
  c.pol = ios_striping_find("bpio");
  int i_woss = c.pol ? param_index(c.pol, "w_oss") : -1, i_wost = c.pol ? param_index(c.pol, "w_ost") : -1;
  int i_rs = c.pol ? param_index(c.pol, "random_start") : -1, i_wr = c.pol ? param_index(c.pol, "w_router") : -1;
  if (i_woss < 0 || i_wost < 0 || i_rs < 0 || i_wr < 0) {
    fprintf(stderr, "check_bpio_balance: no bpio policy with w_router, w_oss, w_ost and random_start\n");
    return 1;
  }
  static const double weights[4][2] = {{1.0 / 3, 1.0 / 3}, {0, 1}, {1, 0.1}, {0.1, 1}};
  long long total = 0, bad = 0;
  double t0 = now_s();
  printf("w_oss w_ost S T N L states violations\n");
  for (int w = 0; w < 4; w++) {
    for (int S = 1; S <= MAX_S; S++) {
      for (int T = 1; T <= MAX_T; T++) {
        int ost_oss[MAX_N];
        ios_params_defaults(c.pol->nparams, c.pol->params, &c.par);
        c.par.v[i_wr] = 0;
        c.par.v[i_woss] = weights[w][0];
        c.par.v[i_wost] = weights[w][1];
        c.par.v[i_rs] = 0;
        c.check_oss = weights[w][0] > 0;
        if (ios_stripe_topo_regular(&c.topo, ost_oss, S, T, 0, S * T) != IOS_OK ||
            ios_stripe_state_init(&c.st, &c.topo) != IOS_OK) {
          fprintf(stderr, "check_bpio_balance: cannot build the %d x %d topology\n", S, T);
          return 1;
        }
        c.S = S;
        c.N = S * T;
        double tree = 0, level = 1;
        c.depth = 0;
        while (c.depth < MAX_DEPTH && tree + level * c.N <= budget) {
          level *= c.N;
          tree += level;
          c.depth++;
        }
        c.states = c.violations = 0;
        memset(c.saved_ost[0], 0, sizeof c.saved_ost[0]);
        memset(c.saved_oss[0], 0, sizeof c.saved_oss[0]);
        if (c.depth > 0 && explore(&c, 0, 0) != 0) return 1;
        ios_stripe_state_free(&c.st);
        printf("%.4g %.4g %d %d %d %d %lld %lld\n", weights[w][0], weights[w][1], S, T, c.N, c.depth, c.states,
               c.violations);
        fflush(stdout);
        total += c.states;
        bad += c.violations;
      }
    }
  }
  printf("states checked: %lld, violations: %lld, time %.1f s\n", total, bad, now_s() - t0);
  return bad == 0 ? 0 : 1;
}
