/* iosim — CSV fields (RFC 4180): a field holding a ',', a '"', a CR or a LF is written between double quotes with its
 * inner quotes doubled; any other field is written as is, so files without such names are unchanged. Used by every
 * CSV writer for names that come from the inputs (applications, hosts). */
#ifndef IOS_CSV_H
#define IOS_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Whether `s` must be quoted in a CSV field (it holds ',', '"', '\r' or '\n'). NULL counts as "" (no). */
int ios_csv_needs_quotes(const char *s);

/** Writes `s` (NULL: nothing) as one CSV field, quoted when needed. No separator is written. */
void ios_csv_field(FILE *f, const char *s);

/** One item of a list field: the name of item `i` (borrowed). */
typedef const char *(*ios_csv_item_fn)(int i, void *ctx);

/** Writes items 0..n-1 (item(i, ctx)) joined by `sep` as one CSV field, quoted when any item needs it (n <= 0:
 * an empty field). */
void ios_csv_list(FILE *f, int n, ios_csv_item_fn item, void *ctx, char sep);

/** Splits one CSV record `line` in place into at most `max` fields, reading what ios_csv_field writes (RFC 4180):
 * the line end (CR, LF) is dropped; fields are separated by ','; spaces around a field are dropped; a field that
 * starts with '"' runs to its closing '"', may hold ',' and has doubled quotes undoubled (text after the closing
 * quote is ignored). fields[k] point into `line`. @return the field count: 1 for an empty line, at most `max`
 * (fields beyond the first max are not looked at). */
int ios_csv_split(char *line, char **fields, int max);

#ifdef __cplusplus
}
#endif
#endif
