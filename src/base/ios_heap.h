/* iosim — one binary min-heap, instantiated per element type with its comparator (the engine's calendar of wake-ups and
 * the direct path's completion dates both order by it: src/sim/calendar.c, src/sim/transfer_direct.c).
 *
 * IOS_HEAP_DEFINE(name, type, before, placed) defines, as static inline functions:
 *   typedef struct { type *a; int n, cap; } name##_t;           a[0..n): the heap, a[0] its first element
 *   int  name##_push(name##_t *h, type x)                          IOS_OK, or IOS_ENOMEM (x is then not in it)
 *   int  name##_append(name##_t *h, type x)                        stores x last, without restoring the order (for
 *                                                                  callers that change many keys, then heapify)
 *   type name##_pop(name##_t *h)                                   removes and returns a[0] (h->n > 0)
 *   void name##_remove(name##_t *h, int i)                         removes a[i] (0 <= i < h->n)
 *   void name##_fix(name##_t *h, int i)                            a[i]'s key changed: restores the order
 *   void name##_heapify(name##_t *h)                               restores the order of the whole array (O(n))
 *   void name##_free(name##_t *h)                                  frees the array (the heap is then empty)
 * `before(const type *x, const type *y)` is 1 when x comes first. `placed(type *x, int i)` is called whenever an
 * element is stored at index i (for elements that keep their own index, e.g. to remove them later); a no-op for the
 * others. When `before` is a total order (no two elements equal), the sequence of pops is the same however the heap
 * was built or changed, which is what makes the engine's results independent of how the heap is maintained.
 * The array is owned by the heap (realloc'd, doubled from 64). Single-threaded. */
#ifndef IOS_HEAP_H
#define IOS_HEAP_H

#include "ios_errors.h"

#include <stdlib.h>

#define IOS_HEAP_DEFINE(name, type, before, placed)                                                                    \
  typedef struct {                                                                                                     \
    type *a;                                                                                                           \
    int n, cap;                                                                                                        \
  } name##_t;                                                                                                          \
  static inline void name##_store(name##_t *h, int i, type x) {                                                        \
    h->a[i] = x;                                                                                                       \
    placed(&h->a[i], i);                                                                                               \
  }                                                                                                                    \
  /* x goes up from hole i to its place */                                                                             \
  static inline void name##_up(name##_t *h, int i, type x) {                                                           \
    while (i > 0 && before(&x, &h->a[(i - 1) / 2])) {                                                                  \
      name##_store(h, i, h->a[(i - 1) / 2]);                                                                           \
      i = (i - 1) / 2;                                                                                                 \
    }                                                                                                                  \
    name##_store(h, i, x);                                                                                             \
  }                                                                                                                    \
  /* x goes down from hole i to its place */                                                                           \
  static inline void name##_down(name##_t *h, int i, type x) {                                                         \
    for (;;) {                                                                                                         \
      int c = 2 * i + 1;                                                                                               \
      if (c >= h->n) break;                                                                                            \
      if (c + 1 < h->n && before(&h->a[c + 1], &h->a[c])) c++;                                                         \
      if (!before(&h->a[c], &x)) break;                                                                                \
      name##_store(h, i, h->a[c]);                                                                                     \
      i = c;                                                                                                           \
    }                                                                                                                  \
    name##_store(h, i, x);                                                                                             \
  }                                                                                                                    \
  static inline int name##_append(name##_t *h, type x) {                                                               \
    if (h->n == h->cap) {                                                                                              \
      int ncap = h->cap ? 2 * h->cap : 64;                                                                             \
      type *a = (type *)realloc(h->a, sizeof *a * (size_t)ncap);                                                       \
      if (a == NULL) return IOS_ENOMEM;                                                                                \
      h->a = a;                                                                                                        \
      h->cap = ncap;                                                                                                   \
    }                                                                                                                  \
    name##_store(h, h->n++, x);                                                                                        \
    return IOS_OK;                                                                                                     \
  }                                                                                                                    \
  static inline int name##_push(name##_t *h, type x) {                                                                 \
    if (name##_append(h, x) != IOS_OK) return IOS_ENOMEM;                                                              \
    name##_up(h, h->n - 1, x);                                                                                         \
    return IOS_OK;                                                                                                     \
  }                                                                                                                    \
  static inline void name##_fix(name##_t *h, int i) {                                                                  \
    type x = h->a[i];                                                                                                  \
    if (i > 0 && before(&x, &h->a[(i - 1) / 2]))                                                                       \
      name##_up(h, i, x);                                                                                              \
    else                                                                                                               \
      name##_down(h, i, x);                                                                                            \
  }                                                                                                                    \
  static inline void name##_remove(name##_t *h, int i) {                                                               \
    type last = h->a[--h->n];                                                                                          \
    if (i == h->n) return;                                                                                             \
    name##_store(h, i, last);                                                                                          \
    name##_fix(h, i);                                                                                                  \
  }                                                                                                                    \
  static inline type name##_pop(name##_t *h) {                                                                         \
    type top = h->a[0];                                                                                                \
    name##_remove(h, 0);                                                                                               \
    return top;                                                                                                        \
  }                                                                                                                    \
  static inline void name##_heapify(name##_t *h) {                                                                     \
    for (int i = h->n / 2 - 1; i >= 0; i--)                                                                            \
      name##_down(h, i, h->a[i]);                                                                                      \
  }                                                                                                                    \
  static inline void name##_free(name##_t *h) {                                                                        \
    free(h->a);                                                                                                        \
    h->a = NULL;                                                                                                       \
    h->n = h->cap = 0;                                                                                                 \
  }

/** The `placed` of IOS_HEAP_DEFINE for elements that do not keep their index. */
#define IOS_HEAP_NOT_PLACED(x, i) ((void)(x), (void)(i))

#endif
