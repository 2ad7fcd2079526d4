/* iosim — the window over which objectives are measured, and the period of periodic sharing policies: pure
 * arithmetic (RR-9502 §3.2, §3.2.2 Eq. 5), no SimGrid; the engine feeds it the applications' start times and
 * dedicated bandwidths. */
#ifndef IOS_WINDOW_H
#define IOS_WINDOW_H

#include "ios_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the window depends on. Arrays have w->napps entries. */
typedef struct {
  const ios_workload_t *w;
  const double *start; /**< s: each application's start in the simulation */
  const double *b;     /**< bytes/s: each application's dedicated bandwidth b_j(n) */
  double begin, end;   /**< s: a window given by the scenario, or NAN (automatic) */
  double fraction;     /**< window.length_fraction of the steady-state window, > 0 */
  int whole_run;       /**< start times are not known in advance (job queue, storage replay): the whole run */
} ios_window_in_t;

/** The window [*t_begin, *t_end] (s; *t_end = NAN: until the last completion): the given one; the whole run when
 * start times are unknown; else the steady-state window of RR-9502 §3.2, from the last start to the earliest
 * dedicated completion, its length scaled by `fraction`; the whole run when no application set is concurrent
 * throughout (the earliest dedicated completion is not after the last start). @return its kind: "given",
 * "whole-run" or "steady-state". */
const char *ios_window_choose(const ios_window_in_t *in, double *t_begin, double *t_end);

/** δ of a periodic sharing policy when not given (RR-9502 §3.2.2, Eq. 5): (T_end − T_begin)/E with
 * E = Σ_j 2·N_op(j), N_op(j) the I/O operations application j posts in [T_begin, T_end) in dedicated mode.
 * @return δ in s, or 0 when it cannot be derived (no window end, or no operation in the window). */
double ios_window_delta(const ios_window_in_t *in, double t_begin, double t_end);

#ifdef __cplusplus
}
#endif
#endif
