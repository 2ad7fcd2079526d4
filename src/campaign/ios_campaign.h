/* iosim — campaigns: a base scenario plus a grid of values over any scenario field (cartesian product of the
 * `grid` axes, each `zip` group varying together as one axis, then the seeds), expanded into parameter points.
 * Every point is validated as a scenario before anything runs. A point's run id is a stable hash of the base
 * scenario as written and of the point's values, so results can be resumed and merged across shards and machines.
 * File format: docs/campaigns.md. */
#ifndef IOS_CAMPAIGN_H
#define IOS_CAMPAIGN_H

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One swept field. */
typedef struct {
  char *key;     /**< dotted scenario field, e.g. "sharing.policy" (owned) */
  int axis;      /**< index of the axis it belongs to (keys of one zip group share an axis) */
  cJSON *values; /**< the array of its values (borrowed from ios_campaign_t.campaign) */
} ios_campaign_key_t;

/** One parameter point. */
typedef struct {
  int index;     /**< position in the expansion order (first grid axis slowest, seeds fastest) */
  char id[17];   /**< 16 hex digits: FNV-1a 64 of the base scenario and the point's values */
  uint64_t seed; /**< the scenario seed of this point */
} ios_campaign_point_t;

/** A loaded, expanded and validated campaign. */
typedef struct {
  char *file;         /**< campaign path as given (owned) */
  cJSON *campaign;    /**< the campaign JSON as written (owned) */
  cJSON *base;        /**< the base scenario as written (owned; paths not yet rebased) */
  char *base_dir;     /**< directory relative paths of the base are relative to, with a trailing '/' (owned) */
  char *campaign_dir; /**< directory relative paths of grid values are relative to, trailing '/' (owned) */
  int nkeys;          /**< swept fields, in file order (grid, then zip groups) */
  ios_campaign_key_t *keys;
  int naxes;                    /**< axes (grid keys, zip groups, then seeds when given) */
  int *axis_len;                /**< [naxes] values per axis */
  int has_seeds;                /**< whether `seeds` is given (its axis is the last) */
  uint64_t seed_from;           /**< first seed */
  int npoints;                  /**< product of the axis lengths */
  ios_campaign_point_t *points; /**< [npoints] */
  int check_inputs; /**< 1: loading checked every point's workload file and datasets (ios_point_inputs_check): a
                         campaign loaded to be swept; 0: a sweep record loaded to be merged, which reads no input */
} ios_campaign_t;

/** Loads a campaign file, expands and validates every point (each point's scenario through
 * ios_scenario_from_json; its platform, workload file and datasets readable: ios_point_inputs_check). @return IOS_OK,
 * or IOS_EINVAL/IOS_EIO with ios_diag_message() naming the file, the field (or the point) and the fix. */
int ios_campaign_load(const char *path, ios_campaign_t *c);

/** ios_campaign_load with the command line's overrides (`iosim sweep --set key=value... --seeds N`): each of the
 * `nsets` "key=value" strings (value read as by `iosim run --set`, a relative path taken from the current
 * directory) pins its key to that one value in every run, as a one-value grid axis (a column of runs.csv, part of
 * the run ids; a key the grid sweeps is pinned, one in a zip group is refused); `seeds` > 0 replaces seeds.count
 * (adding "seeds": {"from": 1} when absent). The campaign as modified is what ios_campaign_record keeps. Same errors
 * as ios_campaign_load (a bad --set names "command line"). */
int ios_campaign_load_with(const char *path, int nsets, char *const *sets, int seeds, ios_campaign_t *c);

/** Writes the record a sweep keeps in its output directory (sweep.json: the campaign, the base and the
 * directories paths are relative to), from which ios_campaign_load_record rebuilds the same points.
 * @return the record (caller deletes) or NULL on ENOMEM. */
cJSON *ios_campaign_record(const ios_campaign_t *c);

/** Rebuilds a campaign from a record read from `label` (a sweep.json). Same errors as ios_campaign_load, except that
 * the points' datasets are not checked (a merge reads none). */
int ios_campaign_load_record(const cJSON *record, const char *label, ios_campaign_t *c);

/** The scenario (user tree, caller deletes) of point `index`: the base with absolute paths, then the point's
 * values. NULL on ENOMEM (ios_diag_message() empty) or when a value cannot be set (ios_diag_message() says why: a
 * generator parameter of a platform that is a file). */
cJSON *ios_campaign_point_scenario(const ios_campaign_t *c, int index);

/** Value of swept key `k` at point `index` (borrowed). */
const cJSON *ios_campaign_point_value(const ios_campaign_t *c, int index, int k);

/** Keys of a campaign's "slurm" object, which are also the `iosim sweep --emit-slurm` options --time, --partition,
 * --account and --mem, in the order of their #SBATCH lines. */
#define IOS_CAMPAIGN_SLURM_NKEYS 4
extern const char *const ios_campaign_slurm_keys[IOS_CAMPAIGN_SLURM_NKEYS];

/** Checks the value of Slurm option `key` (one of ios_campaign_slurm_keys) as sbatch reads it: time MINUTES,
 * MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES, DAYS-HOURS:MINUTES:SECONDS (integers) or
 * UNLIMITED; partition a comma-separated list of names; account a name (names: 1 to 200 letters, digits, '.', '_',
 * '-'); mem an integer number of megabytes, or with a suffix K, M, G or T. Nothing else gets through, so a value can
 * be written into a script unquoted. @return IOS_OK, or IOS_EINVAL with ios_diag_message() "FILE: WHERE: ..." naming
 * the value and the expected form. */
int ios_campaign_slurm_check(const char *file, const char *where, const char *key, const char *value);

/** The value of `key` in the campaign's "slurm" object (borrowed; checked by the loader), or NULL when not given. */
const char *ios_campaign_slurm(const ios_campaign_t *c, const char *key);

/** Checks the campaign's "slurm" object: an object whose keys are ios_campaign_slurm_keys and whose values are
 * strings ios_campaign_slurm_check accepts. @return IOS_OK, or IOS_EINVAL with ios_diag_message() naming
 * slurm.KEY, the value and the form expected. */
int ios_campaign_slurm_validate(const ios_campaign_t *c);

/** Frees what the campaign owns. */
void ios_campaign_free(ios_campaign_t *c);

#ifdef __cplusplus
}
#endif
#endif
