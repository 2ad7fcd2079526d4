/* iosim — metrics of one run, with their paper definitions.
 * Window objectives (RR-9502 §3.3): yield y_i(t) = (W_i(t) + V_i(t)/b_i) / (t − τ_i) (Eq. 6), counting progress
 * made before the simulation start (history); MinYield = min_i y_i(T_end) (Eq. 8); Utilization (Eq. 9) and
 * Efficiency (Eq. 10) over [T_begin, T_end], weighted by p_i; I/O pressure W = V / (B·(T_end − T_begin)) (Eq. 11)
 * with V the volume applications would transfer in dedicated mode in the window and B the pool's capacity.
 * RR-9549 §3: I/O-load (Eq. 3), Mean-I/O-SlowDown (Eq. 4-5) with ρ_io, ρ_con, I/O-spread (Eq. 6) from each
 * resource's occupancy, Machine-Idletime. IPDPS'21 Eq. 2: aggregated bandwidth Σ_a V_a / T_io,a. */
#ifndef IOS_METRICS_H
#define IOS_METRICS_H

#include "ios_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Per-application results. Times in s, volumes in bytes, bandwidths in bytes/s. */
typedef struct {
  int n_resources;      /**< n_j allocated */
  int *resources;       /**< [n_resources] resource indices (owned) */
  double bandwidth;     /**< b_i: dedicated bandwidth with n_j resources (b_j(n_j)) */
  double start, end;    /**< s: start, completion (NAN when not completed) */
  double release;       /**< s: τ_i of the yield (the workload's release; with a job queue, the job's start) */
  double io_volume;     /**< bytes transferred (completed operations, plus partial ones when stopped) */
  double io_time;       /**< s with an I/O operation pending (L_i of RR-9549 §3.3.2) */
  double work_time;     /**< s of work done */
  double yield;         /**< y_i(T_end), RR-9502 Eq. 6 */
  double io_slowdown;   /**< ρ_j = T_io / (V / b_j(n_perf)), RR-9549 Eq. 4 (NAN without I/O) */
  double rho_io;        /**< ρ_io = b_j(n_perf) / b_j(n_j), RR-9549 §3.3.2, from the b_j(n) the run used (measured, or
                             synthesised without a profile); NAN exactly when io_slowdown is */
  double ref_bandwidth; /**< b_j^ref, bytes/s: ios_reference_bandwidth, the same on every platform */
  double io_stretch;    /**< T_io / (V / b_j^ref): I/O time against the dedicated I/O time at b_j^ref (NAN without
                             I/O); unlike ρ_j its reference does not depend on the pool size N */
  double w_begin, w_end, v_begin, v_end; /**< W_i and V_i at T_begin and T_end (s, bytes) */
  char bound_by[128]; /**< the element that bound it longest during its I/O (docs/outputs.md), "" without I/O time */
  double bound_share; /**< share (0..1) of its I/O time that element bound it; NAN without I/O time */
} ios_app_result_t;

/** Per-resource results. */
typedef struct {
  double busy_time; /**< s with at least one pending transfer (I/O-res-occ numerator, RR-9549 §3.3.2) */
  double bytes;     /**< bytes of completed transfers */
} ios_res_result_t;

/** Results of one run. NAN marks a metric that does not apply (written as null). */
typedef struct {
  int napps, nres;
  ios_app_result_t *apps; /**< [napps] (owned) */
  ios_res_result_t *res;  /**< [nres] (owned) */
  int complete;           /**< 1 when every application completed; 0 when stopped at the window's end */
  double makespan_s;      /**< last completion − first start (window end when stopped) */
  double t_begin, t_end;  /**< the window used for yields and objectives */
  double busy_s;          /**< s: the busy time of the window, |[t_begin, t_end] ∩ ∪_j [start_j, end_j]|, the length
                               the window metrics divide by (= t_end − t_begin unless no application ran for a while:
                               a stream of jobs years apart); set by ios_metrics_compute */
  double busy_run_s;      /**< s: |∪_j [start_j, end_j]|, the run's busy time (= makespan_s without idle gaps) */
  int busy_periods;       /**< maximal intervals of the window in which some application was running (≥ 1 when any
                               application ran in it) */
  const char *window_kind; /**< "steady-state" (automatic), "given" (scenario) or "whole-run"; "-v2" appended in v2 */
  double period_s;         /**< s: δ of a periodic sharing policy's extra decisions (RR-9502 §4.1), 0 = none */
  double min_yield, utilization, efficiency, io_pressure;
  double io_load, mean_io_slowdown, mean_rho_io, mean_rho_con, io_spread, machine_idle_time;
  /* mean_rho_io, mean_rho_con: means over the applications of mean_io_slowdown (those with I/O), so that
   * mean_io_slowdown = mean_rho_io + mean_rho_con (RR-9549 §3.3.2); NAN when none did I/O */
  double total_io_time_s;         /**< s: Σ_j T_io,j, every application's time with an I/O operation pending */
  double mean_io_stretch;         /**< mean of io_stretch over the applications with I/O (NAN when none) */
  double aggregate_bandwidth_Bps; /**< IPDPS'21 Eq. 2 (ios_metrics_compute): not a bandwidth any element delivered */
  double
      io_busy_s; /**< s: the run's time with at least one I/O operation pending (any application), set by the engine */
  double delivered_bandwidth_Bps; /**< bytes/s: Σ_j io_volume_j / io_busy_s, what the platform delivered while some I/O
                                       was pending (never above its capacity, unlike Eq. 2's sum); NAN without it */
  double platform_limited_share;  /**< share of the bytes moved at a sharing policy's rates that went slower than that
                                       rate because a link the policy does not decide on was the bottleneck (SimGrid's
                                       max-min decided); NAN when SimGrid decides every rate (maxmin) */
  long events;                    /**< controller events handled */
  long rate_changes;              /**< flow segments started: first starts plus restarts at a new rate */
  long flows;                     /**< SimGrid flows started (0 on the direct path; fewer than the segments when
                                       transfers share a flow or a flow is re-rated in place, ios_transfer.h) */
  int direct_transfers;           /**< 1 when the transfer layer computed the transfers directly (no link could bind
                                       the policy's rates), 0 when they were SimGrid flows (ios_transfer.h) */
  double wall_time_s;
  int has_fit;             /**< 1 when the policies saw group-fit profiles (RR-9549 §6.2): `fit` is the fit */
  ios_knowledge_fit_t fit; /**< the polynomials the policies saw, per shape group */
  int fit_kept;            /**< applications that kept their true profile (their group absent from the fit) */
} ios_results_t;

/** b_j^ref in bytes/s, the reference of io_stretch: the application's best bandwidth in isolation whatever the number
 * of I/O resources, read from the workload alone: the largest point of its profile (any n, not limited to a pool);
 * without a profile Q_j·b, what b_j(n) = min(Q_j·b, n·C) tends to when n grows (b = nic_bw, the NIC bandwidth of a
 * compute node in bytes/s). So two platforms with the same NICs give an application the same reference. */
double ios_reference_bandwidth(const ios_app_t *a, double nic_bw);

/** Computes the global metrics of r from its per-application and per-resource fields (filled by the engine).
 On a whole-run window (r->window_kind "whole-run", set before the call) the window metrics (utilization,
 * efficiency, io_pressure) divide by r->busy_s, the window's time with some application running, so that the idle
 * gaps of a job stream do not dilute them; a given or steady-state window is the one asked for, divided by its
 * length (RR-9502 §3.3 as published); io_spread and machine_idle_time divide by the makespan without idle gaps.
 aggregate_bandwidth_Bps is IPDPS'21 Eq. 2,
 * Σ_a V_a / T_io,a, over the applications of each busy period (a maximal interval in which some application runs),
 * the largest over the periods: over every application when the run has no idle gap (the paper's experiments, job
 * queues); one job's own when a stream's jobs never overlap. Each application's mean rate over its own I/O time, summed
 over I/O times that differ (phases
 * that alternate, or jobs that end earlier), can exceed what the platform delivers: the run's summary then prints n/a
 * (ios_output_summary), results.json keeps the paper's value. Each application's dedicated bandwidth b_i
 * (ar->bandwidth) is raised to the bandwidth it saw, V_j / T_io,j, when that is higher (a job cannot be faster shared
 * than alone; the engine's b_j(n_j) can be lower for a striped job, whose files may spread over more OSTs than its
 * allocation): then y_i ≤ 1 and ρ_con ≥ 0.
 * @param profiles [w->napps] the b_j(n) the run used  @param nres the pool's resources (r->res has nres entries)
 * @param pool the pool's total capacity B in bytes/s  @param ncompute the platform's compute nodes
 * @param nic_bw the compute nodes' NIC bandwidth b in bytes/s (ios_reference_bandwidth). */
void ios_metrics_compute(const ios_workload_t *w, const ios_profile_t *profiles, int nres, double pool, int ncompute,
                         double nic_bw, ios_results_t *r);

/** O_i, resource i's occupancy (RR-9549 §3.3.2, I/O-res-occ): its busy time over the makespan, or over the run's busy
 * time r->busy_run_s when that is shorter (a stream's idle gaps left out); 0 when both are 0. */
double ios_occupancy(const ios_results_t *r, int i);

/** Frees what the results own. */
void ios_results_free(ios_results_t *r);

/** Volume (bytes) application `a` would transfer in [t0, t1] in dedicated mode at bandwidth b (bytes/s), starting at
 * `start` with its phases in order (RR-9502 §6.1). */
double ios_dedicated_volume(const ios_app_t *a, double b, double start, double t0, double t1);

/** N_op (RR-9502 §3.2.2): the number of I/O operations application `a` would post in [t0, t1) in dedicated mode at
 * bandwidth b (bytes/s), starting at `start`. */
int ios_dedicated_posts(const ios_app_t *a, double b, double start, double t0, double t1);

/** Duration (s) of application `a` in dedicated mode at bandwidth b: Σ work + Σ volume / b. */
double ios_dedicated_length(const ios_app_t *a, double b);

#ifdef __cplusplus
}
#endif
#endif
