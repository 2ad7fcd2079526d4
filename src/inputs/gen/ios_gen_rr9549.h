/* iosim — the RR-9549 §5.3 workload generator over the FORGE MareNostrum 4 patterns: K patterns drawn without
 * replacement (IPDPS'21 §3.2 sets), each keeping its measured profile, at a target I/O-load Θ. Scenario object:
 * workload.generator {"kind": "rr9549", ...} (docs/scenario.md). */
#ifndef IOS_GEN_RR9549_H
#define IOS_GEN_RR9549_H

#include "ios_model.h"
#include "ios_platform.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Builds the workload of workload.generator `g` (scenario `file`, in messages) for platform `p` (N = its pool size
 * unless "resources" fixes it) with random seed `seed`. @return IOS_OK, IOS_EINVAL/IOS_EIO with ios_diag_message()
 * (bad parameter, unreadable profiles CSV), or IOS_ENOMEM. */
int ios_rr9549_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w);

/** RR-9549 §5.3: the root b > 0 of log(1 + b) = b·c for 0 < c < 1 (c = Θ·N/K); -1 when c is out of range. */
double ios_rr9549_bound(double c);

/** RR-9549 §5.3 application-size classes: fills out[k] with the compute nodes Q_j of k applications sharing `qcpu`
 * nodes. The first round(0.1·k) applications (large) share 75 % of qcpu, the next round(0.3·k) (medium) 20 %, the
 * others (small) 5 %, equally within a class, each floor(share) and at least 1 (k = 20, qcpu = 480: 2 × 180,
 * 6 × 16, 12 × 2). An empty class's share is left unused. */
void ios_rr9549_class_nodes(int k, int qcpu, int *out);

#ifdef __cplusplus
}
#endif
#endif
