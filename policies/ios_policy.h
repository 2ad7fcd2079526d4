/* iosim — the three policy families (allocation, placement, bandwidth sharing) and the bandwidth profile.
 *
 * Policies are pure functions over a snapshot of the controller's view; they never call SimGrid, never keep
 * hidden global state and never exit. Each family has one function table; policies/registry.c lists them.
 * Units: bytes, seconds, bytes/s. Vocabulary follows shared/DESIGN.md. */
#ifndef IOS_POLICY_H
#define IOS_POLICY_H

#include "ios_errors.h"
#include "ios_profile.h"
#include "ios_rng.h"

/* The one declaration of the transfer view's fields: a public header of pure preprocessor lines, reached by its path
 * in the source tree so that this layer sees that header only (not libiosim's API). */
#include "../include/iosim/transfer_view.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------------------- */
/** n_sys (RR-9549 Eq. 2): the count in 1..nmax minimising ios_io_stress(p, n, volume, work) (the smallest such n;
 * 1 when nmax < 1). RR-9549 Lemma 1: n_sys <= n_perf. Defined in policies/allocation/common.c. */
int ios_profile_nsys(const ios_profile_t *p, int nmax, double volume, double work);

/** The largest count m <= n at which the profile has a point (a measured count), or n itself when there is none:
 * evaluations that only measured some counts (IPDPS'21: 0, 1, 2, 4, 8) use the measured count below. Defined in
 * policies/allocation/common.c. */
int ios_profile_point_below(const ios_profile_t *p, int n);

/* ---------------------------------------------------------------------------------------------------------------- */
/** Maximum number of parameters of one policy. */
#define IOS_MAX_PARAMS 8

/** One numeric policy parameter, given in the scenario beside the policy name (e.g. "sharing": {"delta_s": 10}). */
typedef struct {
  const char *name;        /**< key in the scenario object */
  double def;              /**< default value */
  const char *unit;        /**< "s", "bytes", "" ... */
  const char *description; /**< one line */
  double lo, hi;           /**< accepted range [lo, hi] when lo < hi (checked at load: a value outside is refused
                                with a message naming the parameter); lo == hi == 0: any finite number */
  int integer;             /**< 1: the value must be an integer (a count, a 0/1 switch) */
} ios_param_spec_t;

/** Parameter values, in the order of the policy's ios_param_spec_t array. */
typedef struct {
  double v[IOS_MAX_PARAMS];
} ios_params_t;

/** What allocation and placement policies know of one application (RR-9549 Table 2 inputs). */
typedef struct {
  int nodes;                    /**< Q_j, compute nodes */
  double volume;                /**< V_io^j, total I/O volume in bytes */
  double work;                  /**< T_cpu^j, total compute time in seconds */
  const ios_profile_t *profile; /**< b_j(n), never NULL (the engine synthesises one when none is given) */
  int requested_n;              /**< resource count asked by the scenario for this application, or -1 */
  int processes;                /**< s_a, processes of the application (IPDPS'21 §3.2 PROCESS); <= 0 = unknown, and
                                     policies then use `nodes` (the engine fills it with `nodes` for now) */
} ios_app_view_t;

/** Snapshot given to allocation and placement policies. Arrays are borrowed. */
typedef struct {
  int napps;                  /**< K */
  const ios_app_view_t *apps; /**< [napps] */
  int nres;                   /**< N, resources in the pool */
  const double *res_capacity; /**< [nres] bytes/s */
  int total_nodes;            /**< Q^cpu, compute nodes of the platform */
} ios_pool_view_t;

/** The descriptor every policy of every family starts with: its name (what scenarios and `iosim policies` use), an
 * alias (may be NULL), a one-line description, its source (paper, section) and its parameters. */
#define IOS_POLICY_DESCRIPTOR                                                                                          \
  const char *name, *alias, *description, *source;                                                                     \
  int nparams;                                                                                                         \
  const ios_param_spec_t *params /**< [nparams] */

/** Any policy seen through its descriptor (the families' structs begin with IOS_POLICY_DESCRIPTOR). */
typedef struct {
  IOS_POLICY_DESCRIPTOR;
} ios_policy_t;

/** The five policy families: allocation, placement and sharing (this header), storage (ios_storage.h, StorAlloc)
 * and striping (ios_striping.h, TAPP-IO). */
typedef enum {
  IOS_FAMILY_ALLOCATION,
  IOS_FAMILY_PLACEMENT,
  IOS_FAMILY_SHARING,
  IOS_FAMILY_STORAGE,
  IOS_FAMILY_STRIPING,
  IOS_NFAMILIES
} ios_family_t;

/* Only the sharing family takes a context (ios_sharing_policy_t.ctx): it is the one family with policies added at
 * run time (iosim_sharing_register, Python's iosim.register_sharing), which need their function and user data at each
 * call. The other four have built-in policies only, and what those carry between decisions is already an argument
 * (the random stream `rng`; storage's round-robin cursors in its ios_storage_ctx_t; striping's usage counters in
 * its state), so a context there would be a pointer no caller fills. */

/** Allocation family: how many resources each application gets. */
typedef struct {
  IOS_POLICY_DESCRIPTOR;
  /** Writes n_out[j] in 0..nres for each application. Returns IOS_OK or IOS_EINVAL (with nothing written). */
  int (*allocate)(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out);
  /** 1: a static mapping. With a job queue (scenario `queue`), running applications keep their resources when the
   * running set changes and only newly started ones get the policy's decision (IPDPS'21 §5.3: STATIC does not
   * reallocate); 0: every running application is re-arbitrated. */
  int keeps_running;
} ios_allocation_policy_t;

/** Placement family: which resources each application uses. */
typedef struct {
  IOS_POLICY_DESCRIPTOR;
  /** Given n[j] (0..nres) per application, writes the resource indices of application j, distinct, at
   * res_out[off_j .. off_j + n[j]) where off_j = n[0] + ... + n[j-1]. Returns IOS_OK or IOS_EINVAL. */
  int (*place)(const ios_pool_view_t *in, const int *n, const ios_params_t *p, ios_rng_t *rng, int *res_out);
} ios_placement_policy_t;

/** One pending transfer on a resource, as the sharing policy sees it (RR-9502 §3.1.2, §4): its fields (app, cap,
 * remaining, posted, seq, b, parts, release, progress, omega, nodes), their units and meaning are declared once in
 * include/iosim/transfer_view.h, which libiosim's public field ids and the Python module expand too. */
typedef struct {
#define IOS_TRANSFER_MEMBER(ID, name, ctype, integer, lo, open, nan, def) ctype name;
  IOSIM_TRANSFER_VIEW_FIELDS(IOS_TRANSFER_MEMBER)
#undef IOS_TRANSFER_MEMBER
} ios_transfer_view_t;

/** Snapshot of one resource given to a sharing policy. */
typedef struct {
  double now;                   /**< s, current simulated time */
  double capacity;              /**< B: resource bandwidth in bytes/s */
  int ntransfers;               /**< pending transfers on this resource (>= 1) */
  const ios_transfer_view_t *t; /**< [ntransfers] */
  double t_begin, t_end;        /**< s: the steady-state window (t_end = INFINITY when the run has none) */
} ios_share_view_t;

/** Bandwidth-sharing family: at what rate each pending transfer of one resource proceeds. */
typedef struct {
  IOS_POLICY_DESCRIPTOR;
  /** Writes rate_out[i] in [0, t[i].cap] bytes/s with sum <= capacity (policies that cap nothing write cap and
   * let SimGrid's max-min share decide; they set `uncapped`). Returns IOS_OK. `ctx` is the descriptor's own `ctx`,
   * which every caller passes (`s->share(s->ctx, in, p, rate_out)`): the built-in policies ignore it; a policy
   * registered at run time (src/lib/share.c) finds its function and user data there. */
  int (*share)(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out);
  void *ctx;    /**< what `share` receives as ctx (NULL for the built-in policies); borrowed, lives as the policy */
  int uncapped; /**< 1 when rates may exceed the resource capacity in sum (max-min decides) */
  int cap_only; /**< 1 when `share` always gives every transfer its cap, whatever the others (it only delegates to
                     SimGrid's max-min): the engine then starts each transfer at its cap when posted and does not
                     ask again when others come and go */
  /** 1: the engine also decides every δ seconds (RR-9502 §4.1 PeriodicGreedyYield): δ = the policy's first
   * parameter when > 0, else (T_end − T_begin)/E with E = Σ_i 2·N_op(i) (§3.2.2, Eq. 5). */
  int periodic;
  /** The parameters a calibration fills ([nparams], or NULL when none): calibrated[i], when not NULL, is the key of a
   * calibration file's file_systems[k].sharing object (iosim calibrate, docs/validation.md) whose value, in params[i]'s
   * unit and range, fills params[i] when a run names that calibration, its sharing.policy is this policy and the
   * scenario gives no value of its own (src/inputs/calibration.c, which names no policy or parameter). The one place a
   * calibrated parameter is declared. */
  const char *const *calibrated;
} ios_sharing_policy_t;

/* ---------------------------------------------------------------------------------------------------------------- */
/** The registry (policies/registry.c): every policy of every family. */

/** The family's name ("allocation", ..., "striping"), and what it decides (one line). */
const char *ios_family_name(ios_family_t f);
const char *ios_family_description(ios_family_t f);

/** The family called `name`, or -1. */
int ios_family_find(const char *name);

/** NULL-terminated table of the policies of family f, in the order `iosim policies` lists them. */
const ios_policy_t *const *ios_policy_list(ios_family_t f);

/** The policy of family f called `name` (its name or its alias), or NULL. */
const ios_policy_t *ios_policy_find(ios_family_t f, const char *name);

/** Writes the names of family f's policies, comma-separated, into buf (n bytes, NUL-terminated, cut when full): what
 * an "unknown policy" message lists. @return buf. */
char *ios_policy_names(ios_family_t f, char *buf, size_t n);

/** Adds sharing policy `p` to the family after the built-in ones (libiosim's iosim_sharing_register, src/lib/share.c):
 * ios_policy_list, ios_policy_find and the scenario reader then see it. `p` (and what its ctx points to) must stay
 * valid until the process ends; the list grows as needed (no fixed cap). Not thread-safe.
 * @return IOS_OK, IOS_EINVAL (no share function, or its name or alias is the name or alias of a policy of the
 * family) or IOS_ENOMEM (the list could not grow). */
int ios_sharing_register(const ios_sharing_policy_t *p);

/** Typed look-ups by name or alias; NULL when unknown. */
const ios_allocation_policy_t *ios_allocation_find(const char *name);
const ios_placement_policy_t *ios_placement_find(const char *name);
const ios_sharing_policy_t *ios_sharing_find(const char *name);

/** Shared by the allocation policies `size` and `process` (IPDPS'21 §3.2): n_a = round(F·s_a / Σ_i s_i), halves up,
 * with F = in->nres and s_a = nodes (by_processes = 0) or processes (1; nodes when unknown); at most F; 1 instead
 * of 0 for an application without direct PFS access (no profile point n = 0); with `points` = 1 each count is then
 * lowered to ios_profile_point_below. Returns IOS_OK, or IOS_EINVAL (nothing written) when F < 1 or a size is
 * < 1. Defined in policies/allocation/size.c. */
int ios_allocation_proportional(const ios_pool_view_t *in, int by_processes, int points, int *n_out);

/** Fills p with the defaults of the nparams specs. */
void ios_params_defaults(int nparams, const ios_param_spec_t *specs, ios_params_t *p);

#ifdef __cplusplus
}
#endif
#endif
