/* iosim — what the transfer layer's files share (src/sim/transfer.c, transfer_direct.c, transfer_flow.c; not a header
 * for the rest of the engine, which uses ios_transfer.h). transfer.c holds the interface and chooses one path at
 * ios_tr_init; each path is a table of operations in its own file. */
#ifndef IOS_TRANSFER_INTERNAL_H
#define IOS_TRANSFER_INTERNAL_H

#include "ios_transfer.h"

#include <simgrid/engine.h>

/* SimGrid's timing precision (its surf/precision, 1e-9 s): SimGrid ends together every activity whose end is within
 * this of the current date; the direct path does the same. */
#define TR_TIMING_PRECISION 1e-9

/** One path of the transfer layer: the operations of ios_transfer.h that differ between the two. */
typedef struct {
  const char *name;
  /** Starts the path for a run. @return 0, or -1 (the flow path: SimGrid's network model cannot carry flows). */
  int (*init)(const ios_tr_options_t *o);
  void (*fini)(void);
  /** ios_tr_set_rate with `rem` = the transfer's remaining bytes now when the caller has them, else NAN. */
  int (*set_rate)(ios_transfer_t *t, double r, int capped, double rem);
  double (*remaining)(const ios_transfer_t *t);
  int (*complete_due)(void);
  double (*next_completion)(void);
  void (*stop)(ios_transfer_t *t);
  long (*running)(void);
  long (*flows_started)(void);
  int (*pending)(void);
} tr_path_t;

extern const tr_path_t tr_direct_path; /* transfer_direct.c */
extern const tr_path_t tr_flow_path;   /* transfer_flow.c */

/** Node groups (transfer_nodes.c): on when `enabled` and the hosts flows may leave from are known; fini gives every
 * scaled link its bandwidth back. */
void tr_nodes_init(int enabled, const sg_host_t *senders, int nsenders, sg_host_t controller);
void tr_nodes_fini(void);

/** The state both paths share (transfer.c). */
typedef struct {
  const double *date; /* the engine's own date, or NULL: SimGrid's clock */
  const ios_tr_hooks_t *hooks;
  void *ctx;  /* the hooks' context */
  long order; /* segments started so far (ties among simultaneous completions) */
} tr_common_t;
extern tr_common_t tr;

static inline double tr_now(void) {
  return tr.date != NULL ? *tr.date : simgrid_get_clock();
}

/** The order of completions at one date, the same on both paths (defined once, in transfer.c): by the date each would
 * have ended at its rate (`finish`), then by gen, then by when its segment started (`order`, unique: a total order). */
int tr_earlier(const ios_transfer_t *a, const ios_transfer_t *b);

/** A new segment of t at rate r > 0 from now, of its `remaining` bytes (both paths): gen bumped, the segment's start,
 * bytes, order and completion date at that rate. */
void tr_segment_begin(ios_transfer_t *t, double r, int capped);

/** The hooks, with their context. */
static inline void tr_segment_end(const ios_transfer_t *t, double bytes, int done) {
  if (t->parent != NULL) return; /* a leg's segments are its transfer's */
  tr.hooks->segment_end(tr.ctx, t, bytes, done);
}
static inline void tr_completed(ios_transfer_t *t, unsigned gen) {
  tr.hooks->completed(tr.ctx, t, gen);
}

#endif
