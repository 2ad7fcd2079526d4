/* iosim — the order of a platform's OSTs (see platform_osts.h). */
#include "platform_osts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ios_name_natural_cmp(const char *a, const char *b) {
  while (*a && *b) {
    if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
      const char *ea = a, *eb = b;
      while (*a == '0') /* leading zeros: the number's value, whatever its width */
        a++;
      while (*b == '0')
        b++;
      for (ea = a; *ea >= '0' && *ea <= '9'; ea++)
        ;
      for (eb = b; *eb >= '0' && *eb <= '9'; eb++)
        ;
      if (ea - a != eb - b) return ea - a < eb - b ? -1 : 1; /* more significant digits: a larger number */
      int c = strncmp(a, b, (size_t)(ea - a));
      if (c != 0) return c < 0 ? -1 : 1;
      a = ea;
      b = eb;
    } else {
      if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
      a++;
      b++;
    }
  }
  return (unsigned char)*a - (unsigned char)*b;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int ios_ost_lustre_name(const char *name, long *index, size_t *fslen) {
  const char *tag = NULL;
  for (const char *p = strstr(name, "-OST"); p != NULL; p = strstr(p + 1, "-OST"))
    tag = p; /* the last "-OST": a file system's name may hold one too */
  if (tag == NULL || tag == name) return 0;
  const char *d = tag + 4;
  size_t nd = strlen(d);
  if (nd < 4 || nd > 8) return 0;
  long v = 0;
  for (size_t i = 0; i < nd; i++) {
    int h = hex_digit(d[i]);
    if (h < 0) return 0;
    v = v * 16 + h;
  }
  *index = v;
  *fslen = (size_t)(tag - name);
  return 1;
}

typedef struct {
  const char *name;
  long index;   /* Lustre index, or -1 */
  size_t fslen; /* length of the file system's name */
  int pos;      /* index into the caller's names */
} ost_key_t;

static int cmp_lustre(const void *pa, const void *pb) {
  const ost_key_t *a = pa, *b = pb;
  size_t n = a->fslen < b->fslen ? a->fslen : b->fslen;
  int c = strncmp(a->name, b->name, n);
  if (c != 0) return c;
  if (a->fslen != b->fslen) return a->fslen < b->fslen ? -1 : 1;
  if (a->index != b->index) return a->index < b->index ? -1 : 1;
  return a->pos - b->pos;
}

static int cmp_natural(const void *pa, const void *pb) {
  const ost_key_t *a = pa, *b = pb;
  int c = ios_name_natural_cmp(a->name, b->name);
  if (c == 0) c = strcmp(a->name, b->name); /* names alike in natural order (ost1, ost01): byte order */
  return c != 0 ? c : a->pos - b->pos;
}

int ios_ost_order(const char *const *names, int n, int *order, long *index, char *warning, size_t wsize, int *dup_a,
                  int *dup_b) {
  if (wsize > 0) warning[0] = '\0';
  ost_key_t *k = malloc(sizeof *k * (size_t)(n > 0 ? n : 1));
  if (k == NULL) return -2;
  int lustre = 0, digits = 0;
  for (int i = 0; i < n; i++) {
    k[i] = (ost_key_t){names[i], -1, 0, i};
    lustre += ios_ost_lustre_name(names[i], &k[i].index, &k[i].fslen);
    digits += strpbrk(names[i], "0123456789") != NULL;
  }
  int all = n > 0 && lustre == n;
  if (!all)
    for (int i = 0; i < n; i++)
      k[i].index = -1;
  qsort(k, (size_t)n, sizeof *k, all ? cmp_lustre : cmp_natural);
  int tie = -1; /* the first pair the rule cannot order */
  for (int i = 1; i < n && tie < 0; i++) {
    if (all && k[i].fslen == k[i - 1].fslen && strncmp(k[i].name, k[i - 1].name, k[i].fslen) == 0 &&
        k[i].index == k[i - 1].index) {
      *dup_a = k[i - 1].pos;
      *dup_b = k[i].pos;
      free(k);
      return -1;
    }
    if (!all && ios_name_natural_cmp(k[i].name, k[i - 1].name) == 0) tie = i;
  }
  if (!all && n > 1 && wsize > 0) {
    if (digits == 0)
      snprintf(warning, wsize,
               "no OST name holds a number (%s, %s, ...): the OSTs are taken in byte order of their names, the k-th "
               "standing for Lustre index k (a Darshan log's recorded OST k)",
               k[0].name, k[1].name);
    else if (tie > 0)
      snprintf(warning, wsize,
               "OSTs %s and %s hold the same number: their order is that of their names' bytes, the k-th OST "
               "standing for Lustre index k (a Darshan log's recorded OST k)",
               k[tie - 1].name, k[tie].name);
    else if (lustre > 0)
      snprintf(warning, wsize,
               "%d of the %d OSTs are named as Lustre names its targets (FSNAME-OSTxxxx, a hexadecimal index), "
               "the others not (%s): all are taken in natural name order, the k-th standing for Lustre index k",
               lustre, n, k[0].name);
  }
  for (int i = 0; i < n; i++) {
    order[i] = k[i].pos;
    if (index != NULL) index[i] = k[i].index;
  }
  free(k);
  return 0;
}
