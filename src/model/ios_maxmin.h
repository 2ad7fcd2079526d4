/* iosim — weighted max-min sharing of capacities among flows, and the time a set of flows takes alone (pure; no
 * SimGrid). The flows are those of one job's I/O operation, alone on the platform: docs/outputs.md "The reference
 * bandwidth b_i". The allocation is the one SimGrid's max-min computes for flows on links (its CM02 network model
 * without latency terms: Casanova & Marchal, "A network model for simulation of grid application", 2002, the weighted
 * max-min fairness of Bertsekas & Gallager, Data Networks §6.5.2), solved by progressive filling. */
#ifndef IOS_MAXMIN_H
#define IOS_MAXMIN_H

#ifdef __cplusplus
extern "C" {
#endif

/** A max-min system: `nflows` flows over `ncons` constraints (links, resources), flow f crossing the constraints
 * cons[start[f] .. start[f + 1]) (a constraint listed twice on one route counts twice, as in SimGrid). Every array is
 * borrowed. */
typedef struct {
  int nflows, ncons;
  const double *capacity; /**< [ncons] bytes/s, >= 0 (INFINITY: never binds) */
  const int *start;       /**< [nflows + 1] offsets into cons, start[0] = 0, non-decreasing */
  const int *cons;        /**< [start[nflows]] constraint indices, 0 .. ncons - 1 */
  const double *cap;      /**< [nflows] bytes/s: each flow's own bound (INFINITY: none), >= 0 */
  const double *weight;   /**< [nflows] > 0: on a full constraint flow f gets weight[f] times the common level */
} ios_maxmin_t;

/** The weighted max-min rates (bytes/s) of the flows with active[f] != 0 (active NULL: every flow): each rate is
 * weight × a level raised until the flow reaches its cap or crosses a full constraint (progressive filling). Inactive
 * flows get 0. @param rate [nflows] out. @return 0, IOS_EINVAL (a bad system), IOS_ENOMEM. */
int ios_maxmin_rates(const ios_maxmin_t *m, const unsigned char *active, double *rate);

/** Seconds the flows take to move bytes[f] each (bytes, >= 0) when they start together and the rates are re-solved
 * each time one ends (a flow that ends gives its share to the others): the fluid completion of the set, alone.
 * INFINITY when a flow with bytes left can get no rate. @param end [nflows] out (may be NULL): each flow's end (s).
 * @return 0, IOS_EINVAL, IOS_ENOMEM (then *seconds is untouched). */
int ios_maxmin_makespan(const ios_maxmin_t *m, const double *bytes, double *seconds, double *end);

#ifdef __cplusplus
}
#endif
#endif
