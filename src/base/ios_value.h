/* iosim — the one validated reader of input values. Every reader of JSON inputs (scenario, campaign, workload files,
 * generator objects, --set) and of numeric text cells (sample files, CSV) goes through it, so a value is always
 * checked the same way: numbers are finite, in their range, integers where a count is meant (so a cast to int never
 * overflows), and may carry a human unit (ios_units.h) where a quantity is meant; strings, objects and booleans are
 * type checked; JSON null is a value of its own (never dereferenced as another type). On failure the reader records
 * "FILE: FIELD: is VALUE: give ... " with ios_diag_set() and returns IOS_EINVAL, leaving the output untouched. */
#ifndef IOS_VALUE_H
#define IOS_VALUE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Which human units a number may be written with (as a JSON string such as "2GiB"); NONE: a plain number only. */
typedef enum { IOS_UNIT_NONE = 0, IOS_UNIT_BYTES, IOS_UNIT_BANDWIDTH, IOS_UNIT_DURATION } ios_unit_t;

/** Largest quantities iosim accepts (finite, and far from overflow once summed or multiplied): 10^21 bytes (1 ZB),
 * 10^18 bytes/s, 10^12 s (about 31,700 years). */
#define IOS_VALUE_MAX_BYTES 1e21
#define IOS_VALUE_MAX_BANDWIDTH 1e18
#define IOS_VALUE_MAX_DURATION 1e12

/** The rule of one number: range [lo, hi] (lo excluded when lo_open), integer or not, unit, and `what` (the meaning,
 * quoted in messages as the fix, e.g. "the controller's decision period in s, 0 = none"). */
typedef struct {
  double lo, hi;
  int lo_open;
  int integer;
  ios_unit_t unit;
  const char *what;
} ios_num_spec_t;

/** A short name of the JSON type of `v` ("a number", "a string", "null", ...; "missing" for NULL). */
const char *ios_value_type(const cJSON *v);

/** `v` as compact JSON into buf[n], cut with "..." when longer (at most 60 characters are kept). */
void ios_value_text(const cJSON *v, char *buf, size_t n);

/** Reads a number by `spec`: a JSON number, or (unit != NONE) a string with a unit. @return IOS_OK or IOS_EINVAL
 * (message names `file`, `field`, the value and the range). */
int ios_value_number(const cJSON *v, const ios_num_spec_t *spec, const char *file, const char *field, double *out);

/** Reads an integer in [lo, hi] (|lo|, |hi| <= 2^31 - 1). `what` as in ios_num_spec_t. */
int ios_value_int(const cJSON *v, double lo, double hi, const char *what, const char *file, const char *field,
                  int *out);

/** Whether `text` is a number by `spec` (the rules of ios_value_number_text), without recording any message: the
 * readers' fast path (a sample file holds millions of numbers); on 0 call ios_value_number_text for the message.
 * @return 1 with *out set, or 0 (*out untouched). */
int ios_value_number_ok(const char *text, const ios_num_spec_t *spec, double *out);

/** Reads a number from text (a sample-file or CSV cell): the whole text must be the number (with a unit when
 * spec->unit says so). Same rules and errors as ios_value_number. */
int ios_value_number_text(const char *text, const ios_num_spec_t *spec, const char *file, const char *field,
                          double *out);

/** Reads a string; `nonempty` refuses "". *out borrows v's string. */
int ios_value_string(const cJSON *v, int nonempty, const char *what, const char *file, const char *field,
                     const char **out);

/** Reads one of the NULL-terminated `choices` (strings); *index is its position. The message lists the choices and
 * `what` explains them. */
int ios_value_choice(const cJSON *v, const char *const *choices, const char *what, const char *file, const char *field,
                     int *index);

/** Reads true/false into *out (1/0). */
int ios_value_bool(const cJSON *v, const char *file, const char *field, int *out);

/** Checks that every member of object `obj` is named in `valid` (n names, or NULL-terminated when n < 0): the one
 * unknown-field check of every JSON input. @return IOS_OK, or IOS_EINVAL with ios_diag_message() set on `field` of
 * `file`: "unknown field 'X'; valid fields are: a, b, c". */
int ios_value_check_keys(const cJSON *obj, const char *const *valid, int n, const char *file, const char *field);

/** Checks that `v` is an object (`example` shows one in the message). */
int ios_value_object(const cJSON *v, const char *example, const char *file, const char *field);

/** The value of a command-line "key=value" (--set): the JSON value when the whole text is valid JSON, else the text
 * as a string ("50GBps", "1N1D", "fairshare"). NULL when out of memory. The caller frees it. */
cJSON *ios_value_from_cli(const char *text);

#ifdef __cplusplus
}
#endif
#endif
