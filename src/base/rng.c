/* iosim — xoshiro256** with splitmix64 seeding (see ios_rng.h). */
#include "ios_rng.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

void ios_rng_seed(ios_rng_t *rng, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);
  for (int i = 0; i < 4; i++)
    rng->s[i] = splitmix64(&x);
}

uint64_t ios_rng_u64(ios_rng_t *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double ios_rng_uniform(ios_rng_t *rng) {
  return (double)(ios_rng_u64(rng) >> 11) * 0x1.0p-53;
}

uint64_t ios_rng_below(ios_rng_t *rng, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n; /* reject the biased tail */
  uint64_t r;
  do {
    r = ios_rng_u64(rng);
  } while (r >= limit);
  return r % n;
}
