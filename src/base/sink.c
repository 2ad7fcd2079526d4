/* iosim — the results sink's shared helpers: CSV cells read back as typed values, a CSV file put into a sink (see
 * ios_sink.h). */
#include "ios_sink.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"

#include "ios_csv.h"
#include "ios_units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ios_sink_val_t ios_sink_parse_cell(const char *cell, ios_sink_type_t column_type) {
  if (cell == NULL || cell[0] == '\0') return ios_sink_text(NULL);
  if (column_type == IOS_SINK_TEXT) return ios_sink_text(cell);
  const char *p = cell + (cell[0] == '-' || cell[0] == '+');
  int digits = *p != '\0';
  for (; *p != '\0' && digits; p++)
    digits = *p >= '0' && *p <= '9';
  char *end;
  if (digits) {
    errno = 0;
    long long i = strtoll(cell, &end, 10);
    if (errno == 0 && *end == '\0') return ios_sink_int(i);
  }
  double d = strtod(cell, &end);
  if (end != cell && *end == '\0') return ios_sink_real(d);
  return ios_sink_text(cell);
}

/* The CSV records of text[0..len): splits the next record at *pos in place (quotes removed, doubled quotes undoubled,
 * cells NUL-terminated) into cells[0..max). @return the cell count, 0 at the end of the text. */
static int next_record(char *text, size_t len, size_t *pos, char **cells, int max) {
  size_t i = *pos;
  if (i >= len) return 0;
  int n = 0;
  for (;;) {
    char *out = text + i, *cell = out;
    if (text[i] == '"') { /* quoted: up to the closing quote, "" is one quote, may span lines */
      i++;
      while (i < len) {
        if (text[i] == '"' && i + 1 < len && text[i + 1] == '"') {
          *out++ = '"';
          i += 2;
        } else if (text[i] == '"') {
          i++;
          break;
        } else {
          *out++ = text[i++];
        }
      }
      while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        i++;
    } else {
      while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        out++, i++;
    }
    char sep = i < len ? text[i] : '\n';
    *out = '\0';
    if (n < max) cells[n++] = cell;
    i++;
    if (sep == '\r' && i < len && text[i] == '\n') i++;
    if (sep != ',') break;
  }
  *pos = i;
  return n;
}

int ios_sink_put_csv(ios_sink_t *k, const char *table, const char *path, const char *const *text_cols) {
  long len = 0;
  char *text = ios_read_file(path, &len);
  if (text == NULL) {
    ios_diag_set(path, NULL, "cannot read this output of the run (%s)", strerror(errno));
    return IOS_EIO;
  }
  enum { MAXC = 256 };
  char *head[MAXC], *cells[MAXC];
  size_t pos = 0;
  int ncols = next_record(text, (size_t)len, &pos, head, MAXC), rc = IOS_OK;
  size_t body = pos;
  ios_sink_col_t *cols = calloc((size_t)(ncols > 0 ? ncols : 1), sizeof *cols);
  ios_sink_val_t *vals = calloc((size_t)(ncols > 0 ? ncols : 1), sizeof *vals);
  if (cols == NULL || vals == NULL) rc = IOS_ENOMEM;
  for (int c = 0; rc == IOS_OK && c < ncols; c++) {
    cols[c].name = head[c];
    cols[c].type = IOS_SINK_NULL;
    for (int t = 0; text_cols != NULL && text_cols[t] != NULL; t++)
      if (strcmp(text_cols[t], head[c]) == 0) cols[c].type = IOS_SINK_TEXT;
  }
  /* first pass: each column's type from its cells (parsing splits in place, so a second copy is parsed after) */
  char *copy = rc == IOS_OK ? malloc((size_t)len + 1) : NULL;
  if (rc == IOS_OK && copy == NULL) rc = IOS_ENOMEM;
  if (copy != NULL) memcpy(copy, text, (size_t)len + 1);
  for (size_t p = body; rc == IOS_OK;) {
    int n = next_record(copy, (size_t)len, &p, cells, MAXC);
    if (n == 0) break;
    if (n == 1 && cells[0][0] == '\0') continue; /* an empty line */
    for (int c = 0; c < n && c < ncols; c++) {
      if (cols[c].type == IOS_SINK_TEXT || cells[c][0] == '\0') continue;
      ios_sink_val_t v = ios_sink_parse_cell(cells[c], IOS_SINK_NULL);
      if (v.type == IOS_SINK_TEXT)
        cols[c].type = IOS_SINK_TEXT;
      else if (v.type == IOS_SINK_REAL || cols[c].type == IOS_SINK_REAL)
        cols[c].type = IOS_SINK_REAL;
      else
        cols[c].type = IOS_SINK_INT;
    }
  }
  ios_sink_table_t *t = rc == IOS_OK && ncols > 0 ? ios_sink_begin_table(k, table, cols, ncols) : NULL;
  if (rc == IOS_OK && ncols > 0 && t == NULL) rc = IOS_EIO;
  for (size_t p = body; rc == IOS_OK && t != NULL;) {
    int n = next_record(text, (size_t)len, &p, cells, MAXC);
    if (n == 0) break;
    if (n == 1 && cells[0][0] == '\0') continue;
    for (int c = 0; c < ncols; c++)
      vals[c] = ios_sink_parse_cell(c < n ? cells[c] : NULL, cols[c].type);
    rc = ios_sink_row(k, t, vals);
  }
  if (t != NULL) {
    int erc = ios_sink_end_table(k, t, rc == IOS_OK);
    if (rc == IOS_OK) rc = erc;
  }
  free(copy);
  free(cols);
  free(vals);
  free(text);
  return rc;
}

/* ------------------------------------------------------------------------------------------- the files sink */

struct ios_sink_table {
  ios_fs_staged_t st;
  int ncols;
  ios_sink_type_t *types;
  int *shortest;
  struct ios_sink_table *next; /* the sink's open tables */
};

typedef struct {
  ios_sink_t base;
  char *dir, *field;
  struct ios_sink_table *open;
} files_sink_t;

static void files_unlink(files_sink_t *k, struct ios_sink_table *t) {
  for (struct ios_sink_table **p = &k->open; *p != NULL; p = &(*p)->next)
    if (*p == t) {
      *p = t->next;
      return;
    }
}

static ios_sink_table_t *files_begin(ios_sink_t *base, const char *table, const ios_sink_col_t *cols, int ncols) {
  files_sink_t *k = (files_sink_t *)base;
  struct ios_sink_table *t = calloc(1, sizeof *t);
  char name[512];
  snprintf(name, sizeof name, "%s.csv", table);
  if (t == NULL || (t->types = malloc(sizeof *t->types * (size_t)(ncols > 0 ? ncols : 1))) == NULL ||
      (t->shortest = malloc(sizeof *t->shortest * (size_t)(ncols > 0 ? ncols : 1))) == NULL) {
    if (t != NULL) free(t->types);
    free(t);
    ios_diag_set(k->dir, k->field, "out of memory");
    return NULL;
  }
  if (ios_fs_stage(&t->st, k->dir, name, k->field) != IOS_OK) {
    free(t->types);
    free(t->shortest);
    free(t);
    return NULL;
  }
  t->ncols = ncols;
  for (int c = 0; c < ncols; c++) {
    t->types[c] = cols[c].type;
    t->shortest[c] = cols[c].shortest;
    if (c > 0) fputc(',', t->st.f);
    ios_csv_field(t->st.f, cols[c].name);
  }
  fputc('\n', t->st.f);
  t->next = k->open;
  k->open = t;
  return t;
}

static int files_row(ios_sink_t *base, ios_sink_table_t *t, const ios_sink_val_t *vals) {
  (void)base;
  FILE *f = t->st.f;
  char buf[64];
  for (int c = 0; c < t->ncols; c++) {
    if (c > 0) fputc(',', f);
    const ios_sink_val_t *v = &vals[c];
    switch (v->type) {
    case IOS_SINK_INT:
      fprintf(f, "%lld", v->i);
      break;
    case IOS_SINK_REAL:
      if (isnan(v->d)) break;
      if (t->shortest[c])
        fputs(ios_fmt_double(buf, sizeof buf, v->d), f);
      else
        fprintf(f, "%.17g", v->d);
      break;
    case IOS_SINK_TEXT:
      ios_csv_field(f, v->s);
      break;
    default:
      break;
    }
  }
  fputc('\n', f);
  return IOS_OK;
}

static int files_end(ios_sink_t *base, ios_sink_table_t *t, int commit) {
  files_sink_t *k = (files_sink_t *)base;
  files_unlink(k, t);
  int rc = IOS_OK;
  if (commit)
    rc = ios_fs_commit(&t->st) != IOS_OK ? IOS_EIO : IOS_OK;
  else
    ios_fs_discard(&t->st);
  free(t->types);
  free(t->shortest);
  free(t);
  return rc;
}

static int files_document(ios_sink_t *base, const char *name, const char *text) {
  files_sink_t *k = (files_sink_t *)base;
  char file[512];
  snprintf(file, sizeof file, "%s.json", name);
  ios_fs_staged_t st;
  if (ios_fs_stage(&st, k->dir, file, k->field) != IOS_OK) return IOS_EIO;
  fputs(text, st.f);
  fputc('\n', st.f);
  return ios_fs_commit(&st);
}

static int files_close(ios_sink_t *base, int commit) {
  files_sink_t *k = (files_sink_t *)base;
  int rc = IOS_OK;
  while (k->open != NULL) {
    int erc = files_end(base, k->open, commit);
    if (rc == IOS_OK) rc = erc;
  }
  free(k->dir);
  free(k->field);
  free(k);
  return rc;
}

static const ios_sink_ops_t files_ops = {files_begin, files_row, files_end, files_document, files_close};

ios_sink_t *ios_sink_files(const char *dir, const char *field) {
  files_sink_t *k = calloc(1, sizeof *k);
  if (k == NULL || (k->dir = strdup(dir)) == NULL || (k->field = strdup(field != NULL ? field : "")) == NULL) {
    if (k != NULL) free(k->dir);
    free(k);
    return NULL;
  }
  k->base.ops = &files_ops;
  return &k->base;
}

void ios_sink_files_field(ios_sink_t *base, const char *field) {
  files_sink_t *k = (files_sink_t *)base;
  char *f = strdup(field != NULL ? field : "");
  if (f == NULL) return;
  free(k->field);
  k->field = f;
}
