/* iosim — what the workload generators share: numeric parameter tables checked with messages that name the file, the
 * field, the value and the fix; the writers of generated instances (the RR-9502 reference simulator's sample format
 * and iosim's JSON workload); and the `iosim generate KIND` command that dispatches to a generator. */
#ifndef IOS_GEN_H
#define IOS_GEN_H

#include "ios_model.h"
#include "ios_platform.h"
#include "ios_rng.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One numeric generator parameter: default, range [lo, hi] (lo excluded when lo_open), whether an integer, and what
 * it is (quoted in messages, with the paper's values). */
typedef struct {
  const char *name;
  double def, lo, hi;
  int lo_open, integer;
  const char *meaning;
} ios_gen_param_t;

/** Where messages point: `file`; `obj` names the parameter set ("workload.generator", "--set"); `sep` joins a
 * parameter's name to it ("." or " "). */
typedef struct {
  const char *file, *obj, *sep;
} ios_gen_ctx_t;

/** Checks `g`: every member is "kind", one of params[0..n) or one of `strings` (NULL-terminated names of string
 * parameters the caller reads itself, may be NULL); kind equals `kind`; numbers are in range. Fills val[n] (defaults
 * for absent parameters). @return IOS_OK or IOS_EINVAL with ios_diag_message() set. */
int ios_gen_read_params(const cJSON *g, const ios_gen_ctx_t *c, const char *kind, const ios_gen_param_t *params, int n,
                        const char *const *strings, double *val);

/** A standard normal deviate from `rng` (Box-Muller). */
double ios_gen_normal(ios_rng_t *rng);

/** qsort comparator of doubles in increasing order. */
int ios_gen_cmp_double(const void *a, const void *b);

/** Moves the applications of `src` to the end of `dst` (src's array is freed). @return IOS_OK or IOS_ENOMEM (then
 * both are untouched). */
int ios_gen_append(ios_workload_t *dst, ios_workload_t *src);

/** The schedule cache of generators whose schedule does not depend on the window asked for (apex): with the
 * environment variable IOSIM_CACHE_DIR set (`iosim sweep` sets it to OUT/.cache for its runs when unset), a schedule
 * is kept in IOSIM_CACHE_DIR/KIND-HASH.bin, HASH a 64-bit hash of `key`. `key` is a text holding every input of the
 * schedule exactly (parameters, data, seed, format version); the file holds it in full and is used only when it
 * matches, so a stale or damaged file is regenerated, never misread. Items are `size` bytes each, raw (the same
 * binary reads them back).
 * ios_gen_cache_load: @return 1 with *items (malloc'd, the caller frees) and *n (> 0), or 0 (no cache, no match,
 * unreadable). ios_gen_cache_store: keeps items[0..n) (created directory, atomic write); on failure, a warning on
 * standard error and nothing else (the run goes on). */
int ios_gen_cache_load(const char *kind, const char *key, size_t size, void **items, int *n);
void ios_gen_cache_store(const char *kind, const char *key, size_t size, const void *items, int n);

/** One workload generator kind: the one table (ios_gen_find) serves both `workload.generator` in scenarios and
 * `iosim generate KIND`. */
typedef struct {
  const char *kind;    /**< "rr9549", "rr9502", "apex", "kernels", "ior" */
  const char *summary; /**< one line: what it generates and from which paper/section */
  /** Builds the workload of scenario object `g` (workload.generator; `file` names the scenario in messages) for
   * platform `p` with random seed `seed`. @return IOS_OK or an IOS_E* code with ios_diag_message() set. */
  int (*scenario)(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w);
  /* The dataset it reads, so that a campaign checks it before its first run (src/campaign/point_inputs.c); NULL when it
   * reads none. */
  const char *data_param;        /**< the parameter naming it ("profiles", "data") */
  const char *data_default;      /**< its path when the parameter is absent (ios_datasets.h) */
  const char *const *data_files; /**< NULL: the path is a file; else the path is a directory holding these files
                                      (NULL-terminated) */
  /* What `iosim generate KIND` needs; NULL when the kind is only available inside scenarios. */
  const char *help;    /**< the usage text of `iosim generate KIND --help` */
  const char *example; /**< a --set example shown in messages, e.g. "pressure=0.8" */
  /** Builds the workload of `g` (kind + --set parameters) with bandwidths and volumes in units of `unit` bytes/s;
   * may hand an array of ω_i [w->napps] (s, the sample format's wIter) over in *omega (or leave it NULL); writes a
   * one-line summary (no newline) for standard error. @return IOS_OK or an IOS_E* code with ios_diag_message(). */
  int (*build)(const cJSON *g, const ios_gen_ctx_t *c, double unit, uint64_t seed, ios_workload_t *w, double **omega,
               char *summary, size_t n);
} ios_gen_kind_t;

/** The generator kinds, NULL-terminated, in the order messages list them. */
extern const ios_gen_kind_t *const ios_gen_kinds[];

/** The kind called `name`, or NULL. */
const ios_gen_kind_t *ios_gen_find(const char *name);

/** Runs the generator that `g`'s "kind" names (workload.generator of scenario `file`). @return IOS_OK, or
 * IOS_EINVAL naming the valid kinds when the kind is missing or unknown, or the generator's error. */
int ios_gen_workload(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w);

/** Writes `w` to `path` atomically (ios_fs_write_atomic): an iosim JSON workload when path ends in ".json", else the
 * RR-9502 reference simulator's sample format (name bandwidth age progress agePhase nphases wIter W|C x_1 .. x_n;
 * `omega` [w->napps] gives wIter, or NULL for 0); standard output when path is NULL or "-". @return IOS_OK or
 * IOS_EIO/IOS_ENOMEM with ios_diag_message(). */
int ios_gen_write(const char *path, const ios_workload_t *w, const double *omega);

#ifdef __cplusplus
}
#endif
#endif
