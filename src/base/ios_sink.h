/* iosim — the results sink: one interface through which a run's tables (one row per application, resource,
 * allocation, event, StorAlloc request...) and documents (results.json, scenario.json) are written, whatever stores
 * them. Implementations: files (ios_sink_files: one CSV file per table, one JSON file per document: a run's output
 * directory, byte for byte as before the sink) and a database (ios_db.h: one SQLite table per table name, every row
 * keyed by its run id; nothing visible before the sink is closed with commit = 1). A table is written as begin_table
 * (its name and typed columns), row (one value per column, in the columns' order) any number of times, end_table;
 * tables and documents may come in any order, several tables open at once, a table name once per run. Writers:
 * src/output/output.c (apps, resources, results), src/sim/traces.c (allocations, events), src/storalloc/sched_writers.c
 * and run.c (StorAlloc requests, results), src/campaign/runs.c (runs.csv) and src/campaign/campdb.c (a run's files
 * into the database); docs/architecture.md, "One results sink". */
#ifndef IOS_SINK_H
#define IOS_SINK_H

#ifdef __cplusplus
extern "C" {
#endif

/** The type of a column or of one value. IOS_SINK_NULL as a column's type: untyped (each value keeps its own type);
 * as a value: an empty cell (a metric that does not apply). */
typedef enum { IOS_SINK_NULL = 0, IOS_SINK_INT, IOS_SINK_REAL, IOS_SINK_TEXT } ios_sink_type_t;

/** One column of a table: its name (as the CSV header names it: units in the name, e.g. "io_time_s") and type. */
typedef struct {
  const char *name; /**< borrowed for the call */
  ios_sink_type_t type;
  int shortest; /**< a REAL column printed in the shortest form that reads back to the same double (ios_fmt_double:
                     runs.csv), rather than with 17 significant digits (%.17g: apps.csv...); files only */
} ios_sink_col_t;

/** One value of a row: `type` says which member holds it (none for IOS_SINK_NULL; a REAL NaN is NULL too); `s` is
 * borrowed for the call. */
typedef struct {
  ios_sink_type_t type;
  long long i;
  double d;
  const char *s;
} ios_sink_val_t;

typedef struct ios_sink ios_sink_t;
/** One table being written (each implementation's own). */
typedef struct ios_sink_table ios_sink_table_t;

/** The operations of one implementation. Each returns IOS_OK or a negative IOS_E* code with ios_diag_message(). */
typedef struct {
  /** Starts table `table` with columns cols[0..ncols) (copied). Several tables may be open at once. @return the
   * table, or NULL with ios_diag_message(). */
  ios_sink_table_t *(*begin_table)(ios_sink_t *k, const char *table, const ios_sink_col_t *cols, int ncols);
  int (*row)(ios_sink_t *k, ios_sink_table_t *t, const ios_sink_val_t *vals); /**< vals[ncols of t] */
  /** Ends table `t` (freed): commit = 1 keeps it (a file renamed into place), 0 discards it. NULL: nothing. */
  int (*end_table)(ios_sink_t *k, ios_sink_table_t *t, int commit);
  int (*document)(ios_sink_t *k, const char *name, const char *text); /**< a whole JSON text, e.g. "results" */
  /** Ends the sink: commit = 1 makes what was written visible at once, 0 discards it. Frees `k` (NULL: nothing). */
  int (*close)(ios_sink_t *k, int commit);
} ios_sink_ops_t;

/** A sink: its operations (implementations embed this as their first member). */
struct ios_sink {
  const ios_sink_ops_t *ops;
};

static inline ios_sink_table_t *ios_sink_begin_table(ios_sink_t *k, const char *table, const ios_sink_col_t *cols,
                                                     int ncols) {
  return k->ops->begin_table(k, table, cols, ncols);
}
static inline int ios_sink_row(ios_sink_t *k, ios_sink_table_t *t, const ios_sink_val_t *vals) {
  return k->ops->row(k, t, vals);
}
static inline int ios_sink_end_table(ios_sink_t *k, ios_sink_table_t *t, int commit) {
  return t != 0 ? k->ops->end_table(k, t, commit) : 0;
}
static inline int ios_sink_document(ios_sink_t *k, const char *name, const char *text) {
  return k->ops->document(k, name, text);
}
static inline int ios_sink_close(ios_sink_t *k, int commit) {
  return k != 0 ? k->ops->close(k, commit) : 0;
}

/** Value constructors. */
static inline ios_sink_val_t ios_sink_int(long long i) {
  ios_sink_val_t v = {IOS_SINK_INT, i, 0, 0};
  return v;
}
static inline ios_sink_val_t ios_sink_real(double d) {
  ios_sink_val_t v = {d == d ? IOS_SINK_REAL : IOS_SINK_NULL, 0, d, 0};
  return v;
}
static inline ios_sink_val_t ios_sink_text(const char *s) {
  ios_sink_val_t v = {s != 0 ? IOS_SINK_TEXT : IOS_SINK_NULL, 0, 0, s};
  return v;
}
static inline ios_sink_val_t ios_sink_null(void) {
  ios_sink_val_t v = {IOS_SINK_NULL, 0, 0, 0};
  return v;
}

/** The files implementation: table T is the CSV file DIR/T.csv (a header line of the column names, then one line per
 * row: text quoted as ios_csv_field does, integers in decimal, reals with %.17g or in their shortest form, NULL and
 * NaN empty), document D is DIR/D.json (the text and a newline); each written to a temporary file renamed into place
 * at its end_table (or at once for a document), removed when discarded. Errors name the file and `field` (the
 * scenario field that chose DIR, e.g. "output.dir"). close() ends the tables still open (committed or discarded).
 * @return the sink, or NULL on ENOMEM. */
ios_sink_t *ios_sink_files(const char *dir, const char *field);

/** The scenario field a files sink names in its errors from now on (e.g. "output.events" for events.csv). */
void ios_sink_files_field(ios_sink_t *k, const char *field);

/** One CSV cell read back as a typed value, as the CSV writers print it: "" is NULL; a column of type IOS_SINK_TEXT
 * keeps the text; otherwise an integer (only digits and a sign, within 64 bits), else a number strtod reads whole
 * ("%.17g" reads back to the same double), else text. `cell` is borrowed into the value. */
ios_sink_val_t ios_sink_parse_cell(const char *cell, ios_sink_type_t column_type);

/** Writes the CSV file at `path` (a header line, then rows; RFC 4180 quoting, as ios_csv_field writes) into `k` as
 * table `table`: each column typed from its values in this file (IOS_SINK_TEXT when a cell is not a number, or the
 * column's name is in `text_cols`, a NULL-terminated list of columns that hold names; IOS_SINK_INT when every cell
 * is an integer; IOS_SINK_REAL otherwise; untyped when every cell is empty). @return IOS_OK, IOS_EIO (unreadable,
 * with ios_diag_message()), IOS_ENOMEM, or the sink's error. */
int ios_sink_put_csv(ios_sink_t *k, const char *table, const char *path, const char *const *text_cols);

#ifdef __cplusplus
}
#endif
#endif
