/* iosim — what the parts of StorAlloc's scheduler share (scheduler.c: options, the run, decided at start;
 * sched_state.c: events, counters, parts held and released, metrics; sched_plan.c: decided at submission, then
 * replayed). Not a public header (ios_storalloc.h is the scheduler's API). */
#ifndef IOS_SCHEDULER_INTERNAL_H
#define IOS_SCHEDULER_INTERNAL_H

#include "ios_storalloc.h"

/* ---------------------------------------------------------------- events */

/* A decision (a request's attempt: a = attempt) or an end (a part leaving disk a). */
typedef struct {
  double t;
  long seq;
  int req, a;
  double size;
} sa_event_t;

/* A binary min-heap of events (earliest t, then lowest seq, first). */
typedef struct {
  sa_event_t *e;
  long n, cap;
} sa_heap_t;

/** Pushes ev on the heap (earliest t first, then lowest seq). @return IOS_OK or IOS_ENOMEM. */
int sa_heap_push(sa_heap_t *h, sa_event_t ev);

/** Pops the earliest event (h->n > 0). */
sa_event_t sa_heap_pop(sa_heap_t *h);

/* ---------------------------------------------------------------- the run */

/* A time-weighted counter: a level (bytes held) and a count (allocations held), their integrals and maxima. */
typedef struct {
  double level, count, last, int_level, int_count, max_level;
  int max_count;
} sa_acc_t;

/* A run of the scheduler: its inputs, the result it fills, the exact storage state, the policy's context, the event
 * heaps, the counters and scratch arrays of maxparts entries. */
typedef struct {
  const ios_storage_t *s;
  const ios_request_t *req;
  const ios_storalloc_options_t *o;
  ios_storalloc_result_t *r;
  ios_storage_state_t st;
  ios_storage_ctx_t ctx;
  sa_heap_t decisions, ends;
  sa_acc_t *disk, *node, requests, parts;
  int *left;     /* parts of each request held now */
  double *sizes; /* scratch: part sizes of the current request */
  int *chosen;   /* scratch: their disks */
  long *idx;     /* scratch: which part each chosen disk is for */
  long maxparts;
} sa_run_t;

/* part_status of a part not decided yet (the others are IOS_REQ_ALLOCATED, _REFUSED, _FAILED). */
enum { PART_PENDING = -1 };

/* A request's place in time order. */
typedef struct {
  double t;
  int i;
} sa_slot_t;

/** Part k of request i starts being held on disk d at time t (it is in x->st already): the result, the counters and
 * the end event. @return IOS_OK or IOS_ENOMEM. */
int sa_commit_part(sa_run_t *x, int i, long k, int d, double size, double t);

/** Adds StorAlloc's bandwidth estimate of the `placed` parts of request i just added to x->st at t (disks
 * x->chosen[], sizes x->sizes[x->idx[]]) to its est_bw. @return IOS_OK or IOS_EINTERNAL. */
int sa_add_estimates(sa_run_t *x, int i, double t, long placed);

/** The end event e: the part leaves its disk. @return IOS_OK or IOS_EINTERNAL (message set). */
int sa_release(sa_run_t *x, const sa_event_t *e);

/** Request i's last attempt was at t (attempt a): its status from its parts'. */
void sa_finalize(sa_run_t *x, int i, double t, int a);

/** The policy's choice for request i's part of `size` bytes asked at t for `duration` s. @return
 * IOS_STORAGE_CHOSEN (*d set), IOS_STORAGE_REFUSED or a negative error (message set). */
int sa_choose(sa_run_t *x, int i, double size, double t, double duration, int *d);

/** StorAlloc's Table 3 metrics of the finished run of n requests into x->r. */
void sa_finish_metrics(sa_run_t *x, int n);

/** decide_start 0 (sched_plan.c): the scheduler's phase over the n requests in submission order (`order`), then the
 * replay, then every request's status. @return IOS_OK, IOS_ENOMEM or IOS_EINTERNAL. */
int sa_schedule_planned(sa_run_t *x, int n, const sa_slot_t *order);

#endif
