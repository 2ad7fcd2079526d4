/* iosim — seeded pseudo-random stream for policies and generators (pure C, no global state).
 * xoshiro256** (Blackman & Vigna 2018) seeded through splitmix64: the same seed gives the same stream everywhere. */
#ifndef IOS_RNG_H
#define IOS_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Random stream state; value type, copy freely. */
typedef struct {
  uint64_t s[4];
} ios_rng_t;

/** The random streams of iosim, one per use: a seed gives every use its own independent sequence, and a new use
 * never shifts the draws of another. The values are fixed (changing one changes the results of every run that draws
 * from it). */
enum {
  IOS_STREAM_STORAGE = 0,          /**< StorAlloc's random storage policy (src/storalloc/scheduler.c) */
  IOS_STREAM_ARBITRATION = 1,      /**< allocation, then placement (+1), at the start of a run (src/sim/arbiter.c) */
  IOS_STREAM_KNOWLEDGE = 77,       /**< the noise on what policies know (RR-9549 §6.2, src/sim/knowledge.c) */
  IOS_STREAM_STRIPING = 91,        /**< striping policies' draws (TAPP-IO, src/sim/engine.c) */
  IOS_STREAM_DARSHAN_OSTS = 92,    /**< Lustre's round-robin start over a Darshan stream's restriped files
                                        (src/inputs/darshan_workload.c) */
  IOS_STREAM_RR9549 = 100,         /**< the RR-9549 §5.3 generator with common random numbers over Θ */
  IOS_STREAM_REARBITRATION = 1000, /**< re-arbitration k of a job queue: 1000 + 2k, placement 1001 + 2k */
  IOS_STREAM_APEX = 6301,          /**< APEX schedules: class draws, then each job's noise (RR-9502 §6.3.1) */
  IOS_STREAM_STORALLOC_GEN = 7001, /**< the StorAlloc request generator */
  IOS_STREAM_RR9502_PARAMS = 9502, /**< RR-9502 §6.2.1: ω_i, w^(0)_i and u_i of every application */
  IOS_STREAM_RR9502_NOISE = 9503   /**< RR-9502 §6.2.2: γ_io, γ_cpu of every iteration */
};

/** Seeds a stream; `stream` selects an independent sub-stream for the same seed (e.g. one per application). */
void ios_rng_seed(ios_rng_t *rng, uint64_t seed, uint64_t stream);
/** Next 64 random bits. */
uint64_t ios_rng_u64(ios_rng_t *rng);
/** Uniform double in [0, 1). */
double ios_rng_uniform(ios_rng_t *rng);
/** Uniform integer in [0, n), n >= 1 (unbiased). */
uint64_t ios_rng_below(ios_rng_t *rng, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif
