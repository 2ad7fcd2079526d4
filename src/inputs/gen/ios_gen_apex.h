/* iosim — the APEX workloads of RR-9502 §6.3.1 (Benoit et al., "Revisiting I/O bandwidth-sharing strategies for HPC
 * applications", RR-9502, 2023): steady-state windows cut from first-fit schedules of the NERSC or TRILAB workload of
 * the APEX workflows report (LANL, NERSC, SNL, 2016) on Cielo or a projected machine M_y.
 *
 * Data ($IOSIM_DATA_DIR/apex-workflows): apex_workloads.csv (per application class: corehour_ratio, walltime_h,
 * cores, input/output/ckpt ratios of the job's memory, ckpt_period_s) and platform_cielo.csv (nodes,
 * cores_per_node, ram_per_node_GiB, node_bw_GiB_s, system_bw_GiB_s).
 *
 * 1. Jobs. A job of a class gets cores = ceil(noisy(cores)), nodes p = ceil(cores / cores_per_node) and walltime
 *    W = ceil(noisy(3600·walltime_h)) s, noisy(v) = max(v·(1 + σ·N(0, 1)), v·(1 − σ/2)) (the authors' generator
 *    draws the same Gaussian noise, floored at 0.95·v for σ = 0.1). Its memory is M = p·ram_per_node; on Cielo its
 *    I/O bandwidth is b = min(p·node_bw, system_bw) (RR-9502 Eq. 1) and an I/O of ratio r takes r·M/b s. The
 *    compute time C is what the walltime leaves after the input, the output and k checkpoints on Cielo, with
 *    k = floor((W − in − out) / (P + ckpt)) for the checkpoint period P (s of compute): C = W − in − out − k·ckpt.
 * 2. Machine M_y (RR-9502 §6.3.1 scales Cielo's cores by 2^y and its system bandwidth more slowly; iosim's reading,
 *    docs/rr9502.md): every node gets 2^y times Cielo's cores and memory (memory per core kept, jobs keep their node
 *    counts, so volumes grow by 2^y and compute times stay), node and system bandwidths grow by 2^y/(1 + y). Every
 *    I/O time grows by about 1 + y (the system bandwidth caps the largest jobs), and so does the I/O pressure.
 *    A job on M_y: input I/O, then k times (P s of work, a checkpoint), the rest of C as work, output I/O; its
 *    dedicated length D = C + I/O times on M_y. Zero-volume phases are left out.
 * 3. Schedule. Classes are drawn at random with probability proportional to their remaining deficit of node-seconds
 *    (target: the class's share of Σ corehour_ratio times nodes × months × 30 days), each job placed first-fit (the
 *    earliest time at which p nodes stay free for D s), until no class has a deficit.
 * 4. Windows: the intervals between consecutive job starts or ends (no job joins or leaves inside), up to the last
 *    job start; ranked by decreasing length (ties: earlier first). The window of rank `window` holds the jobs
 *    running throughout it; each becomes an application released at the window start (τ_i = T_begin, RR-9502
 *    §6.3.1) with the part of its dedicated timeline inside the window (a phase cut by the window start keeps what
 *    remains; an I/O phase keeps the volume b·duration). Applications without I/O inside the window are left out
 *    (as the authors' generator does): they never compete for the I/O system.
 * Units: an application's bandwidth and volumes are expressed relative to the machine's system bandwidth, times the
 * pool's total capacity B of the platform the scenario runs on (`unit` for `iosim generate apex`): on pfs-single,
 * b_i/B and the I/O pressure are those of the APEX machine. Each application has nodes = 1 (as the reference
 * simulator's sample format, whose objectives weigh applications equally). */
#ifndef IOS_GEN_APEX_H
#define IOS_GEN_APEX_H

#include "ios_model.h"
#include "ios_platform.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Generates the workload of a `workload.generator` object {"kind": "apex", "workload": "trilab", "machine": 0,
 * "window": 1, "months": 3, "noise": 0.1, "ckpt_period_s": 3600, "data": "${IOSIM_DATA_DIR}/apex-workflows"} (every
 * field but kind optional, defaults shown; ckpt_period_s defaults to the dataset's) for platform `p` (B = the pool's
 * total capacity, bytes/s). The same seed gives the same schedule (random stream 6301 of `seed`) whatever `window`.
 * Applications are appended to `w`. @return IOS_OK; IOS_EINVAL/IOS_EIO with ios_diag_message() naming the file,
 * the field, the value and the fix (`w` untouched); IOS_ENOMEM. */
int ios_apex_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w);

#ifdef __cplusplus
}
#endif
#endif
