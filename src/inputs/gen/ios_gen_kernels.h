/* iosim — jobs of the nine I/O kernels of IPDPS'21 §5.1/§5.3 (BT-C, BT-D, HACC, IOR-MPI, POSIX-S, POSIX-L, MAD, SIM,
 * S3D) from the authors' measured bandwidths and runtimes ($IOSIM_DATA_DIR/boito-queue-generator); see
 * src/inputs/gen/kernels.c for how compute time and I/O volume are fitted. */
#ifndef IOS_GEN_KERNELS_H
#define IOS_GEN_KERNELS_H

#include "ios_model.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Appends the jobs of a `workload.generator` object {"kind": "kernels", "jobs": [names in queue order] (default:
 * the IPDPS'21 §5.3 queue of 14: HACC, IOR-MPI, SIM, IOR-MPI, IOR-MPI, POSIX-S, POSIX-L, BT-C, MAD, MAD, S3D, HACC,
 * HACC, BT-D), "iterations": 10, "direct": 0, "submit_s": 0, "data": "${IOSIM_DATA_DIR}/boito-queue-generator"} to
 * `w`: job i is named KERNEL-i (1-based), has the kernel's compute nodes and processes, its measured profile (bytes/s
 * with 1, 2, 4, 8 I/O nodes, and 0 when direct is 1), is released at submit_s, and alternates iterations times work
 * T/iterations s and I/O V/iterations bytes. Deterministic (`seed` unused). @return IOS_OK; IOS_EINVAL/IOS_EIO with
 * ios_diag_message() naming the file, the field and the fix (`w` untouched); IOS_ENOMEM. */
int ios_kernels_generate(const cJSON *g, const char *file, uint64_t seed, ios_workload_t *w);

#ifdef __cplusplus
}
#endif
#endif
