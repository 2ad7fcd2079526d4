/* iosim — metrics (see ios_metrics.h for the definitions and their sources). */
#include "ios_metrics.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double ios_dedicated_length(const ios_app_t *a, double b) {
  double len = 0;
  for (int i = 0; i < a->nphases; i++)
    len += a->phases[i].is_io ? (b > 0 ? a->phases[i].value / b : INFINITY) : a->phases[i].value;
  return len;
}

double ios_dedicated_volume(const ios_app_t *a, double b, double start, double t0, double t1) {
  double t = start, v = 0;
  for (int i = 0; i < a->nphases && t < t1; i++) {
    if (!a->phases[i].is_io) {
      t += a->phases[i].value;
      continue;
    }
    double d = b > 0 ? a->phases[i].value / b : INFINITY;
    double lo = t > t0 ? t : t0, hi = t + d < t1 ? t + d : t1;
    if (hi > lo) v += (hi - lo) * b;
    t += d;
  }
  return v;
}

int ios_dedicated_posts(const ios_app_t *a, double b, double start, double t0, double t1) {
  double t = start;
  int n = 0;
  for (int i = 0; i < a->nphases && t < t1; i++) {
    if (a->phases[i].is_io) {
      n += a->phases[i].value > 0 && t >= t0;
      t += b > 0 ? a->phases[i].value / b : INFINITY;
    } else
      t += a->phases[i].value;
  }
  return n;
}

double ios_reference_bandwidth(const ios_app_t *a, double nic_bw) {
  if (!a->has_profile) return a->nodes * nic_bw; /* min(Q_j·b, n·C) for n large enough */
  double best = 0;
  for (int i = 0; i < a->profile.npoints; i++)
    best = a->profile.bw[i] > best ? a->profile.bw[i] : best;
  return best;
}

typedef struct {
  double start, end;
  int app;
} span_t;

static int span_cmp(const void *x, const void *y) {
  const span_t *a = x, *b = y;
  return a->start < b->start ? -1 : a->start > b->start ? 1 : a->app - b->app;
}

/* The busy periods of r: sets r->busy_s, r->busy_run_s and r->busy_periods, and returns the largest IPDPS'21 Eq. 2
 * sum Σ V_a / T_io,a over the applications of one busy period (0 when none did I/O). An application not completed
 * runs until t_end. */
static double busy_periods(ios_results_t *r) {
  span_t *sp = malloc(sizeof *sp * (size_t)(r->napps > 0 ? r->napps : 1));
  int n = 0;
  for (int j = 0; sp != NULL && j < r->napps; j++) {
    const ios_app_result_t *ar = &r->apps[j];
    if (isnan(ar->start)) continue;
    sp[n].start = ar->start;
    sp[n].end = isnan(ar->end) ? r->t_end : ar->end;
    sp[n++].app = j;
  }
  if (sp == NULL) { /* out of memory: the whole window */
    r->busy_s = r->t_end - r->t_begin;
    r->busy_run_s = r->makespan_s;
    r->busy_periods = 1;
    return NAN;
  }
  qsort(sp, (size_t)n, sizeof *sp, span_cmp);
  double busy = 0, busy_run = 0, best = 0;
  int periods = 0;
  for (int i = 0; i < n;) {
    double lo = sp[i].start, hi = sp[i].end, agg = 0;
    for (; i < n && sp[i].start <= hi; i++) { /* the period: every span that starts before it ends */
      hi = sp[i].end > hi ? sp[i].end : hi;
      const ios_app_result_t *ar = &r->apps[sp[i].app];
      if (ar->io_time > 0) agg += ar->io_volume / ar->io_time;
    }
    best = agg > best ? agg : best;
    busy_run += hi - lo;
    double a = lo > r->t_begin ? lo : r->t_begin, b = hi < r->t_end ? hi : r->t_end;
    if (b > a || (b == a && r->t_end == r->t_begin)) {
      busy += b - a;
      periods++;
    }
  }
  free(sp);
  r->busy_s = busy;
  r->busy_run_s = busy_run;
  r->busy_periods = periods;
  return best;
}

void ios_metrics_compute(const ios_workload_t *w, const ios_profile_t *profiles, int nres, double pool, int ncompute,
                         double nic_bw, ios_results_t *r) {
  double aggbw = busy_periods(r);
  /* a whole-run window's metrics over its busy time: a stream's idle years do not count (ios_metrics.h); a given or
   * steady-state window is the one asked for */
  int whole = r->window_kind != NULL && strncmp(r->window_kind, "whole-run", 9) == 0;
  double len = whole ? r->busy_s : r->t_end - r->t_begin;

  double min_yield = INFINITY, nodes = 0, util = 0, eff = 0, vded = 0, stress = 0;
  double slow = 0, rio = 0, idle = 0, total_io = 0, stretch = 0, moved = 0;
  int nslow = 0, nstretch = 0;
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *a = &w->apps[j];
    ios_app_result_t *ar = &r->apps[j];
    /* b_i, the dedicated bandwidth: at least the bandwidth the job saw (ios_metrics.h), so that y_i <= 1 and
     * ρ_io <= ρ; the engine's b_j(n_j) is lower for a striped job whose stripes use more OSTs than n_j */
    double seen = ar->io_time > 0 ? ar->io_volume / ar->io_time : 0;
    if (seen > ar->bandwidth * (1 + 1e-12)) ar->bandwidth = seen; /* not for a rounding difference */
    double b = ar->bandwidth;
    /* RR-9502 Eq. 6 at T_end, history included; an application that completed before T_end is taken at its
     * completion (its yield would otherwise decay while it no longer runs: whole-run windows, job queues) */
    double at = !isnan(ar->end) && ar->end < r->t_end ? ar->end : r->t_end;
    double elapsed = at - ar->release;
    /* a completed job's own durations (its start's delay, work, I/O time) are exact where its absolute dates are
     * rounded (1.2e-7 s at 1e9 s: docs/outputs.md, "Dates"): within that rounding, its life is their sum */
    double own = (ar->start - ar->release) + ar->work_time + ar->io_time;
    if (at == ar->end && fabs(own - elapsed) <= 8 * DBL_EPSILON * fmax(fabs(at), fabs(ar->release))) elapsed = own;
    ar->yield = elapsed > 0 ? (a->progress0 + ar->w_end + (b > 0 ? ar->v_end / b : 0)) / elapsed : NAN;
    /* above 1 by no more than the rounding of its two dates (a second's job at a date of 1e8 s: 1.5e-8 s each) */
    if (ar->yield > 1 && (ar->yield - 1) * elapsed <= 4 * DBL_EPSILON * (fabs(at) + fabs(ar->release))) ar->yield = 1;
    if (!isnan(ar->yield) && ar->yield < min_yield) min_yield = ar->yield;
    double dw = ar->w_end - ar->w_begin, dv = b > 0 ? (ar->v_end - ar->v_begin) / b : 0;
    nodes += a->nodes;
    util += a->nodes * dw;
    eff += a->nodes * (dw + dv);
    vded += ios_dedicated_volume(a, b, ios_app_start(a), r->t_begin, r->t_end);
    double work, volume;
    ios_app_totals(a, &work, &volume);
    stress += ios_io_stress(&profiles[j], ar->n_resources, volume, work);
    /* RR-9549 Eq. 4: slowdown against the best count n_perf over the pool */
    int nperf = ios_profile_nperf(&profiles[j], nres);
    double bperf = ios_profile_bw(&profiles[j], nperf);
    if (ar->io_volume > 0 && bperf > 0) {
      ar->io_slowdown = ar->io_time / (ar->io_volume / bperf);
      ar->rho_io = b > 0 ? bperf / b : NAN;
      if (ar->rho_io > ar->io_slowdown) ar->rho_io = ar->io_slowdown; /* b = V/T_io up to rounding: ρ_con = 0 */
      slow += ar->io_slowdown;
      rio += ar->rho_io;
      nslow++;
    } else {
      ar->io_slowdown = NAN;
      ar->rho_io = NAN;
    }
    /* the platform-independent figure: the same reference whatever the pool (docs/outputs.md) */
    ar->ref_bandwidth = ios_reference_bandwidth(a, nic_bw);
    ar->io_stretch =
        ar->io_volume > 0 && ar->ref_bandwidth > 0 ? ar->io_time / (ar->io_volume / ar->ref_bandwidth) : NAN;
    if (!isnan(ar->io_stretch)) {
      stretch += ar->io_stretch;
      nstretch++;
    }
    total_io += ar->io_time;
    moved += ar->io_volume;
    idle += ar->io_time * a->nodes;
  }
  r->min_yield = isfinite(min_yield) ? min_yield : NAN;
  r->utilization = len > 0 && nodes > 0 ? util / (len * nodes) : NAN;
  r->efficiency = len > 0 && nodes > 0 ? eff / (len * nodes) : NAN;
  r->io_pressure = len > 0 && pool > 0 ? vded / (pool * len) : NAN;
  r->io_load = nres > 0 ? stress / nres : NAN;
  r->mean_io_slowdown = nslow > 0 ? slow / nslow : NAN;
  r->mean_rho_io = nslow > 0 ? rio / nslow : NAN; /* over the applications of mean_io_slowdown: ρ = ρ_io + ρ_con */
  r->mean_rho_con = nslow > 0 ? (slow - rio) / nslow : NAN;
  r->total_io_time_s = total_io;
  r->mean_io_stretch = nstretch > 0 ? stretch / nstretch : NAN;
  double omax = -INFINITY, omin = INFINITY;
  for (int i = 0; i < nres; i++) {
    double o = ios_occupancy(r, i);
    omax = o > omax ? o : omax;
    omin = o < omin ? o : omin;
  }
  r->io_spread = nres > 0 ? omax - omin : NAN;
  double span = r->busy_run_s < r->makespan_s ? r->busy_run_s : r->makespan_s; /* without a stream's idle gaps */
  r->machine_idle_time = span > 0 ? idle / (span * ncompute) : NAN;
  r->aggregate_bandwidth_Bps = aggbw;
  r->delivered_bandwidth_Bps = r->io_busy_s > 0 ? moved / r->io_busy_s : NAN;
}

double ios_occupancy(const ios_results_t *r, int i) {
  double span = r->busy_run_s > 0 && r->busy_run_s < r->makespan_s ? r->busy_run_s : r->makespan_s;
  return span > 0 ? r->res[i].busy_time / span : 0;
}

void ios_results_free(ios_results_t *r) {
  for (int j = 0; r->apps != NULL && j < r->napps; j++)
    free(r->apps[j].resources);
  free(r->apps);
  free(r->res);
  r->apps = NULL;
  r->res = NULL;
}
