/* iosim — helpers shared by the allocation policies: n_sys (RR-9549 Eq. 2) and the measured count below n. */
#include "../ios_policy.h"

#include <stddef.h>

int ios_profile_nsys(const ios_profile_t *p, int nmax, double volume, double work) {
  int best = 1;
  double best_stress = ios_io_stress(p, 1, volume, work);
  for (int n = 2; n <= nmax; n++) { /* every available count, interpolated ones included, as ios_profile_nperf */
    double s = ios_io_stress(p, n, volume, work);
    if (s < best_stress) {
      best = n;
      best_stress = s;
    }
  }
  return best;
}

int ios_profile_point_below(const ios_profile_t *p, int n) {
  int best = -1;
  for (int i = 0; p != NULL && i < p->npoints; i++)
    if (p->n[i] <= n && p->n[i] > best) best = p->n[i];
  return best < 0 ? n : best;
}
