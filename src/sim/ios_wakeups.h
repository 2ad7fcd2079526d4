/* iosim — the calendar's dated wake-ups (src/sim/calendar.c): an application to resume, a window snapshot, a periodic
 * tick, a job's submission or beginning, each at a date. Pure (no SimGrid): the kernel's unit tests drive it alone
 * (test/unit_kernel.cpp). */
#ifndef IOS_WAKEUPS_H
#define IOS_WAKEUPS_H

#include "ios_heap.h"

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/** SimGrid's timing precision (1e-9 s): wake-ups within it of the current date are due at that date, as SimGrid ends
 * together the activities whose ends are that close. */
#define IOS_WAKEUP_PRECISION 1e-9

/** One wake-up: at `date` (s), of kind `kind` (the calendar's CAL_*), about `idx` (an application, a grid, or -1);
 * `seq` is its rank among the wake-ups pushed (ties at one date go in the order they were pushed). */
typedef struct {
  double date;
  long seq;
  int kind, idx;
} ios_wakeup_t;

static inline int ios_wakeup_before(const ios_wakeup_t *a, const ios_wakeup_t *b) {
  return a->date < b->date || (a->date == b->date && a->seq < b->seq);
}

IOS_HEAP_DEFINE(ios_wakeup_heap, ios_wakeup_t, ios_wakeup_before, IOS_HEAP_NOT_PLACED)

/** The wake-ups of a run, by (date, seq). Zero-initialise; ios_wakeups_free frees it. */
typedef struct {
  ios_wakeup_heap_t heap;
  long seq; /* wake-ups pushed so far */
} ios_wakeups_t;

/** Adds a wake-up at `date` (s) of kind `kind` about `idx`. @return IOS_OK or IOS_ENOMEM (it is then not added). */
static inline int ios_wakeups_push(ios_wakeups_t *w, double date, int kind, int idx) {
  ios_wakeup_t e = {date, w->seq++, kind, idx};
  return ios_wakeup_heap_push(&w->heap, e);
}

/** s: the date of the earliest wake-up, INFINITY when there is none. */
static inline double ios_wakeups_next(const ios_wakeups_t *w) {
  return w->heap.n > 0 ? w->heap.a[0].date : INFINITY;
}

/** Takes the earliest wake-up into *out when it is due at date `now` (s): its date at most now + IOS_WAKEUP_PRECISION.
 * @return 1 when one was taken, 0 when none is due. */
static inline int ios_wakeups_pop_due(ios_wakeups_t *w, double now, ios_wakeup_t *out) {
  if (w->heap.n == 0 || !(w->heap.a[0].date <= now + IOS_WAKEUP_PRECISION)) return 0;
  *out = ios_wakeup_heap_pop(&w->heap);
  return 1;
}

/** Wake-ups waiting. */
static inline int ios_wakeups_count(const ios_wakeups_t *w) {
  return w->heap.n;
}

static inline void ios_wakeups_free(ios_wakeups_t *w) {
  ios_wakeup_heap_free(&w->heap);
  w->seq = 0;
}

#ifdef __cplusplus
}
#endif
#endif
