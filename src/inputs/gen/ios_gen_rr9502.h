/* iosim — the RR-9502 §6.2.1-6.2.2 synthetic workload generator (Benoit et al., "Revisiting I/O bandwidth-sharing
 * strategies for HPC applications", RR-9502, 2023); `iosim generate rr9502` (ios_gen.h) writes its instances.
 *
 * m applications released at 0 (fresh), each able to saturate the bandwidth (b_i = B): n_small "small" ones
 * (μ = 1,000 s), 20 "medium" (μ = 10,000 s), the rest "big" (μ = 100,000 s). For each application, in this order
 * (small-0.., medium-0.., big-0..): iteration length ω_i ~ N(μ_i, μ_iσ) truncated to ω_i >= horizon/10^6 (positive
 * values, at most a million iterations); n_i = ceil(horizon/ω_i) iterations; a first work phase w^(0) ~ U[0, ω_i];
 * I/O fraction φ_i = u_i·W^GOAL/Σu_k with u ~ U[0, 1]; t_cpu = (1 − φ_i)ω_i, t_io = φ_iω_i. Phases: w^(0), then n_i
 * times an I/O operation of volume (1 + γ_io)·t_io·B and a work phase of (1 + γ_cpu)·t_cpu s, γ ~ U[−ν, ν]: 2n_i + 1
 * phases, first and last work (the layout of the RR-9502 authors' instances). docs/scenario.md has the parameters. */
#ifndef IOS_GEN_RR9502_H
#define IOS_GEN_RR9502_H

#include "ios_model.h"
#include "ios_platform.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Generates the workload of a `workload.generator` object {"kind": "rr9502", "count": 60, "n_small": 20,
 * "sigma": 0.5, "noise": 0.5, "pressure": 0.5, "horizon_s": 2e6} (every field but kind optional, defaults shown)
 * for platform `p`: B is the pool's total capacity (sum of p->res[].capacity, bytes/s); each application gets
 * nodes = 1 and the profile b(1) = B; volumes are bytes. `file` names the scenario in messages. The same seed gives
 * the same workload (random streams 9502 and 9503 of `seed`). Applications are appended to `w`.
 * @return IOS_OK; IOS_EINVAL with ios_diag_message() naming the file, the field, the value and the fix (`w`
 * untouched); IOS_ENOMEM. */
int ios_rr9502_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w);

/** RR-9502 Eq. 11 for applications released at 0 with no history, each transferring at bandwidth B (bytes/s):
 * W = V / (B·T_end) over the window [0, T_end], T_end = the earliest dedicated completion (Σ work + Σ volume/B)
 * and V = Σ_i the volume application i transfers by T_end in dedicated mode. Writes T_end (s) to *t_end when not
 * NULL. @return W, or NaN for an empty workload or B <= 0. */
double ios_rr9502_pressure(const ios_workload_t *w, double B, double *t_end);

#ifdef __cplusplus
}
#endif
#endif
