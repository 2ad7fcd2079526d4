/* iosim — what the transfer layer's files share (src/sim/transfer.c, transfer_common.c, transfer_direct.c,
 * transfer_flow.c, transfer_nodes.c; not a header for the rest of the engine, which uses ios_transfer.h). transfer.c
 * holds the interface and chooses one path at ios_tr_init; each path is a table of operations in its own file. The
 * layer's state is one object (struct ios_tr), which the engine owns (engine_t.tr). */
#ifndef IOS_TRANSFER_INTERNAL_H
#define IOS_TRANSFER_INTERNAL_H

#include "ios_transfer.h"

#include <simgrid/engine.h>

/* SimGrid's timing precision (its surf/precision, 1e-9 s): SimGrid ends together every activity whose end is within
 * this of the current date; the direct path does the same. */
#define TR_TIMING_PRECISION 1e-9

/** One path of the transfer layer: the operations of ios_transfer.h that differ between the two. Each keeps its state
 * in the layer's object (ios_tr_t: `direct` or `flows`), made by its init and freed by its fini. */
typedef struct {
  const char *name;
  /** Starts the path for a run. @return 0, -1 (the flow path: SimGrid's network model cannot carry flows) or -2 (out
   * of memory). */
  int (*init)(ios_tr_t *tr, const ios_tr_options_t *o);
  /** Ends it (safe when its init failed or never ran). */
  void (*fini)(ios_tr_t *tr);
  /** ios_tr_set_rate with `rem` = the transfer's remaining bytes now when the caller has them, else NAN. */
  int (*set_rate)(ios_tr_t *tr, ios_transfer_t *t, double r, int capped, double rem);
  double (*remaining)(const ios_tr_t *tr, const ios_transfer_t *t);
  int (*complete_due)(ios_tr_t *tr);
  double (*next_completion)(ios_tr_t *tr);
  void (*stop)(ios_tr_t *tr, ios_transfer_t *t);
  long (*running)(const ios_tr_t *tr);
  long (*flows_started)(const ios_tr_t *tr);
  int (*pending)(const ios_tr_t *tr);
} tr_path_t;

extern const tr_path_t tr_direct_path; /* transfer_direct.c */
extern const tr_path_t tr_flow_path;   /* transfer_flow.c */

/** A route seen (ios_tr_route), hashed on its ends. */
typedef struct {
  sg_host_t from, to;
  unsigned long long key;
  double latency;
} tr_route_t;

/** The transfer layer of a run: what both paths share, and each part's own state (each struct private to its file).
 */
struct ios_tr {
  const double *date; /* the engine's own date, or NULL: SimGrid's clock */
  const ios_tr_hooks_t *hooks;
  void *ctx;                /* the hooks' context */
  long order;               /* segments started so far (ties among simultaneous completions) */
  const tr_path_t *path;    /* the path of the run, chosen once at ios_tr_init */
  const ios_tr_flows_t *fl; /* the flows (o->flows, else SimGrid's): the flow path's, and the routes' keys */
  void *flctx;              /* their object (ios_tr_options_t.flows_ctx, or the glue for SimGrid's) */
  ios_sg_t *sg;             /* the run's SimGrid glue (node groups scale its links) */
  tr_route_t *routes;       /* the routes seen, hashed on their ends (SimGrid computes a route in microseconds) */
  size_t nroutes, routecap; /* routes kept, and the table's size (a power of two, at most half full) */
  struct tr_direct *direct; /* transfer_direct.c's state (the direct path), else NULL */
  struct tr_flows *flows;   /* transfer_flow.c's (the flow path), else NULL */
  struct tr_nodes *nodes;   /* transfer_nodes.c's (node groups on), else NULL */
};

/** Node groups (transfer_nodes.c): on when `enabled` and the hosts flows may leave from are known (and the room for
 * them is found: else off, as without node groups); fini gives every scaled link its bandwidth back. */
void tr_nodes_init(ios_tr_t *tr, int enabled, const sg_host_t *senders, int nsenders, sg_host_t controller);
void tr_nodes_fini(ios_tr_t *tr);

static inline double tr_now(const ios_tr_t *tr) {
  return tr->date != NULL ? *tr->date : simgrid_get_clock();
}

/** The order of completions at one date, the same on both paths (defined once, in transfer_common.c): by the date each
 * would have ended at its rate (`finish`), then by gen, then by when its segment started (`order`, unique: a total
 * order). */
int tr_earlier(const ios_transfer_t *a, const ios_transfer_t *b);

/** A new segment of t at rate r > 0 from now, of its `remaining` bytes (both paths): gen bumped, the segment's start,
 * bytes, order and completion date at that rate. */
void tr_segment_begin(ios_tr_t *tr, ios_transfer_t *t, double r, int capped);

/** The hooks, with their context. */
static inline void tr_segment_end(const ios_tr_t *tr, const ios_transfer_t *t, double bytes, int done) {
  if (t->parent != NULL) return; /* a leg's segments are its transfer's */
  tr->hooks->segment_end(tr->ctx, t, bytes, done);
}
static inline void tr_completed(const ios_tr_t *tr, ios_transfer_t *t, unsigned gen) {
  tr->hooks->completed(tr->ctx, t, gen);
}

#endif
