/* iosim — sharing `interference`: every pending transfer is slowed by the other applications' offered load on its
 * resource, then SimGrid's max-min shares the resource's capacity among the slowed rates.
 *
 * Transfer i of a resource with the parameter κ (`kappa`, bytes/s per resource) may proceed at most at
 *
 *     rate_i = cap_i / (1 + L_i / κ),   L_i = Σ cap_j over the resource's pending transfers j of other applications
 *
 * (bytes/s; L_i is the others' offered load, the transfers of i's own application are not counted). κ = 0 means no
 * interference: rate_i = cap_i, as `maxmin`. The rates are bounds, not shares: their sum may exceed the resource's
 * capacity B (`uncapped`), and SimGrid's max-min then shares B among them exactly as it does with the plain caps
 * under `maxmin`. A rate depends on the other transfers, so the engine asks again whenever one comes or goes
 * (`cap_only` = 0).
 *
 * Source: not one of the five papers. It is iosim's interference model, fitted on TOKIO-ABC (the data of SC18 "A
 * Year in the Life of a Parallel File System") in docs/validation.md, "Contention where it binds", and declared for
 * the engine in "Interference sharing, calibrated on the window". The validation studies and `iosim calibrate` evaluate
 * this very function (python/iosim/fsmodel.py's interference_bounds, through the Python module's iosim.share_batch)
 * for a job of bandwidth P beside a background of bandwidth r over N OSTs, κ = K / N: P / (1 + r / K). A calibration
 * fills `kappa` from its kappa_per_ost_Bps (`calibrated` below; src/inputs/calibration.c). */
#include "../ios_policy.h"

#include <stddef.h>

static int interference_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  double kappa = p != NULL ? p->v[0] : 0.0;
  for (int i = 0; i < in->ntransfers; i++) {
    if (kappa <= 0.0) {
      rate_out[i] = in->t[i].cap;
      continue;
    }
    double others = 0.0; /* L_i, bytes/s */
    for (int j = 0; j < in->ntransfers; j++)
      if (in->t[j].app != in->t[i].app) others += in->t[j].cap;
    /* caps are finite, so an overflowing L_i (= +inf) gives 0, never NaN */
    rate_out[i] = in->t[i].cap / (1.0 + others / kappa);
  }
  return IOS_OK;
}

static const ios_param_spec_t interference_params[] = {
    {.name = "kappa",
     .def = 0.0,
     .unit = "bytes/s",
     .description = "interference scale per resource: rate = cap / (1 + others' caps / kappa); 0 = no interference",
     .lo = 0,
     .hi = 1e300},
};

/* kappa <- a calibration's kappa_per_ost_Bps: K / N of iosim calibrate's fit (python/iosim/calibrate.py) */
static const char *const interference_calibrated[] = {"kappa_per_ost_Bps"};

const ios_sharing_policy_t ios_sharing_interference = {
    .name = "interference",
    .alias = NULL,
    .description = "each transfer slowed by the other applications' load: cap / (1 + L / kappa), then SimGrid max-min",
    .source = "iosim interference model, fitted on TOKIO-ABC (docs/validation.md)",
    .nparams = 1,
    .params = interference_params,
    .share = interference_share,
    .uncapped = 1,
    .cap_only = 0,
    .periodic = 0,
    .calibrated = interference_calibrated,
};
