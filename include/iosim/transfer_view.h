/* iosim/transfer_view.h — the fields of one pending transfer as a sharing policy sees it (RR-9502 §3.1.2, §3.3, §4),
 * declared once. Everything that lists them expands this list: the policies' struct ios_transfer_view_t
 * (policies/ios_policy.h), the public field ids IOSIM_T_* (iosim/policy.h), libiosim's names table, defaults, checks
 * and setters/getters (src/lib/share.c) and the Python module's dicts (python/module.cpp). Adding a field here adds it
 * everywhere; give it the next id (the ids are the public ABI: never renumber).
 *
 * An application's I/O operation over n resources is n transfers of equal volume, one per resource; in RR-9502's
 * model n = 1. Units: bytes, seconds, bytes/s.
 *
 * Pure preprocessor: no declaration, no include, so that the policies layer (no SimGrid, no libiosim) uses it too.
 *
 * X(ID, name, ctype, integer, lo, open, nan, def), one line per field, in id order:
 * - ID: the suffix of the public id IOSIM_T_<ID>; name: the C member and the public name (iosim_transfer_field_name,
 *   Python's dict key); ctype: the member's C type;
 * - integer (1: an integer), lo (the lowest accepted value, -INFINITY: none), open (1: lo itself refused), nan (1: NAN
 *   accepted, meaning "not known yet"): what iosim_share_view_set accepts (always a finite value besides that NAN);
 * - def: the default iosim_share_view_new gives transfer `i` of a view at date `now` on a resource of bandwidth
 *   `capacity` (an expression in i, now and capacity).
 * lo and def may use INFINITY and NAN: expand them where <math.h> is included.
 *
 * The fields:
 * - app: application index (stable within a run).
 * - cap, bytes/s: the most this transfer may get (b_j(n)/n, or b_i = min(p_i·b, B)).
 * - remaining, bytes: still to transfer (V_i of RR-9502 §4).
 * - posted, s: posting date R_i of its I/O operation.
 * - seq: posting order, breaks ties between equal posting dates.
 * - b, bytes/s: b_i, the application's bandwidth with all its resources (normalises volumes; RR-9502 §3.3, Eq. 6).
 * - parts: n >= 1, transfers of the operation; this one at rate r moves the application's progress at n·r / b_i per
 *   second when its other parts get the same rate (exact for n = 1).
 * - release, s: τ_i, the application's release date (negative for one released before the simulation start).
 * - progress, s: W_i(t) + V_i(t)/b_i at `now`, history and the current operation included (RR-9502 Eq. 6 numerator:
 *   the yield is progress / (now − release)).
 * - omega, s: ω_i, the mean iteration length (work + V/b_i) over the completed I/O operations that followed a work
 *   phase (RR-9502 §4.2); NAN before the first.
 * - nodes: p_i, compute nodes. */
#ifndef IOSIM_TRANSFER_VIEW_H
#define IOSIM_TRANSFER_VIEW_H

// clang-format off
#define IOSIM_TRANSFER_VIEW_FIELDS(X)                                                                                  \
  X(APP,       app,       int,    1, 0,         0, 0, i)                                                               \
  X(CAP,       cap,       double, 0, 0,         0, 0, capacity)                                                        \
  X(REMAINING, remaining, double, 0, 0,         0, 0, 0)                                                               \
  X(POSTED,    posted,    double, 0, -INFINITY, 0, 0, now)                                                             \
  X(SEQ,       seq,       long,   1, -INFINITY, 0, 0, i)                                                               \
  X(B,         b,         double, 0, 0,         1, 0, capacity)                                                        \
  X(PARTS,     parts,     int,    1, 1,         0, 0, 1)                                                               \
  X(RELEASE,   release,   double, 0, -INFINITY, 0, 0, 0)                                                               \
  X(PROGRESS,  progress,  double, 0, 0,         0, 0, 0)                                                               \
  X(OMEGA,     omega,     double, 0, 0,         0, 1, NAN)                                                             \
  X(NODES,     nodes,     int,    1, 1,         0, 0, 1)
// clang-format on

#endif
