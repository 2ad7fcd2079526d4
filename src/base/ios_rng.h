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
