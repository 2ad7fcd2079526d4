/* iosim — weighted max-min by progressive filling, and the fluid completion of a set of flows (ios_maxmin.h). */
#include "ios_maxmin.h"

#include "ios_errors.h"

#include <math.h>
#include <stdlib.h>

static int check(const ios_maxmin_t *m) {
  if (m == NULL || m->nflows < 0 || m->ncons < 0 ||
      (m->nflows > 0 && (m->start == NULL || m->cap == NULL || m->weight == NULL || m->start[0] != 0)))
    return IOS_EINVAL;
  if (m->ncons > 0 && m->capacity == NULL) return IOS_EINVAL;
  for (int c = 0; c < m->ncons; c++)
    if (!(m->capacity[c] >= 0)) return IOS_EINVAL;
  for (int f = 0; f < m->nflows; f++) {
    if (m->start[f + 1] < m->start[f] || !(m->weight[f] > 0) || !(m->cap[f] >= 0)) return IOS_EINVAL;
    for (int k = m->start[f]; k < m->start[f + 1]; k++)
      if (m->cons == NULL || m->cons[k] < 0 || m->cons[k] >= m->ncons) return IOS_EINVAL;
  }
  return IOS_OK;
}

/* The rates of the flows with live[f], in one block `work` of ncons doubles (rem) + ncons doubles (wsum) + nflows
 * bytes (frozen). */
static void fill(const ios_maxmin_t *m, const unsigned char *live, double *rate, double *rem, double *wsum,
                 unsigned char *frozen) {
  int left = 0;
  for (int c = 0; c < m->ncons; c++) {
    rem[c] = m->capacity[c];
    wsum[c] = 0;
  }
  for (int f = 0; f < m->nflows; f++) {
    rate[f] = 0;
    frozen[f] = live == NULL || live[f] ? 0 : 1;
    if (frozen[f]) continue;
    left++;
    for (int k = m->start[f]; k < m->start[f + 1]; k++)
      wsum[m->cons[k]] += m->weight[f];
  }
  double level = 0;
  while (left > 0) {
    double d = INFINITY;
    int arg_c = -1, arg_f = -1;
    for (int c = 0; c < m->ncons; c++)
      if (wsum[c] > 0 && isfinite(m->capacity[c]) && rem[c] / wsum[c] < d) {
        d = rem[c] / wsum[c];
        arg_c = c;
      }
    for (int f = 0; f < m->nflows; f++)
      if (!frozen[f] && m->cap[f] / m->weight[f] - level < d) {
        d = m->cap[f] / m->weight[f] - level;
        arg_f = f;
        arg_c = -1;
      }
    if (!isfinite(d)) { /* nothing bounds the flows left */
      for (int f = 0; f < m->nflows; f++)
        if (!frozen[f]) rate[f] = INFINITY;
      return;
    }
    d = d > 0 ? d : 0;
    level += d;
    for (int c = 0; c < m->ncons; c++)
      if (wsum[c] > 0 && isfinite(m->capacity[c])) rem[c] = rem[c] - d * wsum[c] > 0 ? rem[c] - d * wsum[c] : 0;
    if (arg_c >= 0) rem[arg_c] = 0;
    for (int f = 0; f < m->nflows; f++) {
      if (frozen[f]) continue;
      rate[f] = m->weight[f] * level;
      int stop = f == arg_f || rate[f] >= m->cap[f] * (1 - 1e-12);
      if (stop) rate[f] = rate[f] < m->cap[f] ? rate[f] : m->cap[f];
      for (int k = m->start[f]; !stop && k < m->start[f + 1]; k++) {
        int c = m->cons[k];
        stop = rem[c] <= 1e-12 * m->capacity[c];
      }
      if (!stop) continue;
      frozen[f] = 1;
      left--;
    }
    /* the weights still filling each constraint, summed anew: subtracting the frozen flows' weights leaves rounding
     * residues (weights such as 1/3) on constraints no live flow crosses, which would then bind forever at d = 0 */
    for (int c = 0; c < m->ncons; c++)
      wsum[c] = 0;
    for (int f = 0; f < m->nflows; f++)
      for (int k = m->start[f]; !frozen[f] && k < m->start[f + 1]; k++)
        wsum[m->cons[k]] += m->weight[f];
  }
}

static void *work_block(const ios_maxmin_t *m, double **rem, double **wsum, unsigned char **frozen) {
  size_t nc = (size_t)m->ncons, nf = (size_t)m->nflows;
  double *block = malloc(sizeof(double) * (2 * nc + 1) + nf + 1);
  if (block == NULL) return NULL;
  *rem = block;
  *wsum = block + nc;
  *frozen = (unsigned char *)(block + 2 * nc + 1);
  return block;
}

int ios_maxmin_rates(const ios_maxmin_t *m, const unsigned char *active, double *rate) {
  int rc = check(m);
  if (rc != IOS_OK || (m->nflows > 0 && rate == NULL)) return IOS_EINVAL;
  double *rem, *wsum;
  unsigned char *frozen;
  void *block = work_block(m, &rem, &wsum, &frozen);
  if (block == NULL) return IOS_ENOMEM;
  fill(m, active, rate, rem, wsum, frozen);
  free(block);
  return IOS_OK;
}

int ios_maxmin_makespan(const ios_maxmin_t *m, const double *bytes, double *seconds, double *end) {
  int rc = check(m);
  if (rc != IOS_OK || seconds == NULL || (m->nflows > 0 && bytes == NULL)) return IOS_EINVAL;
  for (int f = 0; f < m->nflows; f++)
    if (!(bytes[f] >= 0) || !isfinite(bytes[f])) return IOS_EINVAL;
  size_t nf = (size_t)m->nflows;
  double *rem, *wsum;
  unsigned char *frozen;
  void *block = work_block(m, &rem, &wsum, &frozen);
  double *mine = malloc(sizeof(double) * (2 * nf + 1) + nf + 1);
  if (block == NULL || mine == NULL) {
    free(block);
    free(mine);
    return IOS_ENOMEM;
  }
  double *left = mine, *rate = mine + nf;
  unsigned char *live = (unsigned char *)(mine + 2 * nf + 1);
  int nlive = 0;
  for (int f = 0; f < m->nflows; f++) {
    left[f] = bytes[f];
    live[f] = bytes[f] > 0;
    nlive += live[f];
    if (end != NULL) end[f] = 0;
  }
  double t = 0;
  while (nlive > 0) {
    fill(m, live, rate, rem, wsum, frozen);
    double dt = INFINITY;
    int first = -1;
    for (int f = 0; f < m->nflows; f++)
      if (live[f] && (rate[f] > 0 ? left[f] / rate[f] : INFINITY) < dt) {
        dt = left[f] / rate[f];
        first = f;
      }
    if (first < 0) { /* a flow with bytes left and no rate */
      t = INFINITY;
      break;
    }
    t += dt;
    for (int f = 0; f < m->nflows; f++) {
      if (!live[f]) continue;
      left[f] = isfinite(rate[f]) ? left[f] - rate[f] * dt : 0;
      if (f != first && left[f] > 1e-12 * bytes[f]) continue;
      live[f] = 0; /* ends now (within rounding of its bytes) */
      nlive--;
      if (end != NULL) end[f] = t;
    }
  }
  if (end != NULL && !isfinite(t))
    for (int f = 0; f < m->nflows; f++)
      if (live[f]) end[f] = INFINITY;
  *seconds = t;
  free(block);
  free(mine);
  return IOS_OK;
}
