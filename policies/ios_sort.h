/* iosim — a typed stable merge sort for the policies' small arrays (internal to policies/). The C library's qsort calls
 * its comparison through a pointer and merges through memcpy, which made sorting the sharing policies' largest cost on
 * the RR-9502 windows (60 pending transfers sorted at every event; docs/engine.md). With a total order (the policies'
 * keys end with a unique index) every correct sort gives the same array, so this one changes no result. */
#ifndef IOS_SORT_H
#define IOS_SORT_H

#include <stdlib.h>
#include <string.h>

/** Defines `static int NAME(TYPE *a, int n)`: sorts a[0..n) stably by `LESS(const TYPE *x, const TYPE *y)` (a strict
 * order), in place. Runs of 8 by insertion, then bottom-up merges through a scratch array (on the stack up to 64
 * elements, else malloc). @return 0, or -1 when out of memory (a is then left unsorted). */
#define IOS_DEFINE_SORT(NAME, TYPE, LESS)                                                                              \
  static int NAME(TYPE *a, int n) {                                                                                    \
    for (int lo = 0; lo < n; lo += 8) {                                                                                \
      int hi = lo + 8 < n ? lo + 8 : n;                                                                                \
      for (int i = lo + 1; i < hi; i++) {                                                                              \
        TYPE x = a[i];                                                                                                 \
        int j = i;                                                                                                     \
        for (; j > lo && LESS(&x, &a[j - 1]); j--)                                                                     \
          a[j] = a[j - 1];                                                                                             \
        a[j] = x;                                                                                                      \
      }                                                                                                                \
    }                                                                                                                  \
    if (n <= 8) return 0;                                                                                              \
    TYPE stack[64], *tmp = n <= 64 ? stack : malloc(sizeof *tmp * (size_t)n);                                          \
    if (tmp == NULL) return -1;                                                                                        \
    TYPE *src = a, *dst = tmp;                                                                                         \
    for (int w = 8; w < n; w *= 2) {                                                                                   \
      for (int lo = 0; lo < n; lo += 2 * w) {                                                                          \
        int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo;              \
        while (i < mid && j < hi)                                                                                      \
          dst[o++] = LESS(&src[j], &src[i]) ? src[j++] : src[i++];                                                     \
        while (i < mid)                                                                                                \
          dst[o++] = src[i++];                                                                                         \
        while (j < hi)                                                                                                 \
          dst[o++] = src[j++];                                                                                         \
      }                                                                                                                \
      TYPE *swap = src;                                                                                                \
      src = dst;                                                                                                       \
      dst = swap;                                                                                                      \
    }                                                                                                                  \
    if (src != a) memcpy(a, src, sizeof *a *(size_t)n);                                                                \
    if (tmp != stack) free(tmp);                                                                                       \
    return 0;                                                                                                          \
  }

#endif
