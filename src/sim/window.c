/* iosim — the measurement window and δ (see ios_window.h). */
#include "ios_window.h"
#include "ios_metrics.h"

#include <math.h>

const char *ios_window_choose(const ios_window_in_t *in, double *t_begin, double *t_end) {
  if (!isnan(in->begin)) {
    *t_begin = in->begin;
    *t_end = in->end;
    return "given";
  }
  *t_begin = 0;
  *t_end = NAN;
  if (in->whole_run) return "whole-run"; /* start times depend on the queue: yields and objectives over the run */
  double tb = 0, te = INFINITY;
  for (int j = 0; j < in->w->napps; j++) {
    double st = in->start[j];
    tb = st > tb ? st : tb;
    double fin = st + ios_dedicated_length(&in->w->apps[j], in->b[j]);
    te = fin < te ? fin : te;
  }
  if (!(te > tb && isfinite(te))) return "whole-run";
  *t_begin = tb;
  *t_end = tb + in->fraction * (te - tb);
  return "steady-state";
}

double ios_window_delta(const ios_window_in_t *in, double t_begin, double t_end) {
  if (isnan(t_end)) return 0.0;
  double ev = 0;
  for (int j = 0; j < in->w->napps; j++)
    ev += 2.0 * ios_dedicated_posts(&in->w->apps[j], in->b[j], in->start[j], t_begin, t_end);
  return ev > 0 ? (t_end - t_begin) / ev : 0.0;
}
