/* iosim — the bandwidth profile b_j(n) of an application and the quantities read from it (RR-9549 §3.2). */
#ifndef IOS_PROFILE_H
#define IOS_PROFILE_H

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum number of points of a bandwidth profile. */
#define IOS_PROFILE_MAX 16

/** Bandwidth profile b_j(n) of one application (RR-9549 §3.2, Table 1): bandwidth in isolation, in bytes/s, when it
 * uses n I/O resources. Points sorted by increasing n; n = 0 means direct access to the PFS (IPDPS'21 §2). */
typedef struct {
  int npoints;                /**< number of valid points, 1..IOS_PROFILE_MAX */
  int n[IOS_PROFILE_MAX];     /**< resource counts, strictly increasing, >= 0 */
  double bw[IOS_PROFILE_MAX]; /**< bytes/s, > 0 */
} ios_profile_t;

/** b_j(n) in bytes/s: the point's value when n is a point; linear interpolation between the two nearest points
 * with n >= 1 otherwise; the last point's value beyond the last point, the first point's (n >= 1) below it.
 * n = 0 is answered only by a point n = 0 (else 0: the application cannot bypass the resources). */
double ios_profile_bw(const ios_profile_t *p, int n);

/** n_perf (RR-9549 Eq. 1): the count in 1..nmax maximising b_j(n) as ios_profile_bw answers it (interpolated counts
 * included; the smallest such n). */
int ios_profile_nperf(const ios_profile_t *p, int nmax);

/** I/O-Stress(j, n) = n·T_io(n) / (T_cpu + T_io(n)), T_io(n) = V_io / b_j(n) (RR-9549 §3.2). Dimensionless.
 * @param volume V_io in bytes  @param work T_cpu in seconds. Returns 0 when both are 0. */
double ios_io_stress(const ios_profile_t *p, int n, double volume, double work);

/** The highest polynomial degree a group fit uses. */
#define IOS_FIT_MAX_DEGREE 6

/** The profile shapes of RR-9549 Fig. 1 (ios_profile_shape). */
enum { IOS_SHAPE_ASCENT, IOS_SHAPE_DESCENT, IOS_SHAPE_PEAK, IOS_SHAPE_NEUTRAL };

/** Names "ascent", "descent", "peak", "neutral". */
const char *ios_shape_name(int shape);

/** The shape of profile `p` over its points n >= 1 (`flat`: the relative variation below which it is neutral). */
int ios_profile_shape(const ios_profile_t *p, double flat);

/** One least-squares polynomial b_g(n) per shape group g (RR-9549 §6.2, Fig. 10), in bytes/s as a function of the
 * resource count n. */
typedef struct {
  int profiles[4];                        /**< profiles of each shape in the population fitted over */
  int degree[4];                          /**< the polynomial's degree, or -1 when the population has no profile of g */
  double coef[4][IOS_FIT_MAX_DEGREE + 1]; /**< coef[g][k]: the coefficient of n^k, bytes/s */
  double top[4];                          /**< the group's largest measured bandwidth, bytes/s (floor: 1e-6 of it) */
  double flat;                            /**< the `flat` the shapes were classified with */
} ios_knowledge_fit_t;

#ifdef __cplusplus
}
#endif
#endif
