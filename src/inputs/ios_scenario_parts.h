/* iosim — what the parts of the scenario loader share (scenario.c, scenario_set.c, scenario_keys.c); not for other
 * modules, which use ios_scenario.h. */
#ifndef IOS_SCENARIO_PARTS_H
#define IOS_SCENARIO_PARTS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Every scenario field and its default, as JSON (null = "no value": any type accepted). */
extern const char ios_scenario_defaults_json[];

/** A field whose default is null, with the types a user may give instead (besides null). */
typedef struct {
  const char *path;
  int types; /**< bits: 1 string, 2 number, 4 object, 8 array */
  const char *need;
} ios_scenario_null_field_t;

/** The null fields, ended by a NULL path. */
extern const ios_scenario_null_field_t ios_scenario_null_fields[];

/** The i-th field holding a file path (resolved against the scenario's directory): "platform", "calibration", then
 * each workload source's (ios_workload_sources' `paths`), written into buf (n bytes) as a dotted path. @return 1, or 0
 * when i is past the last. */
int ios_scenario_path_field(int i, char *buf, size_t n);

/** Whether dotted `path` is a field whose default is null (ios_scenario_null_fields, or a workload source whose
 * default is null), with the types a user may give instead (*types: the bits of ios_scenario_null_field_t) and what
 * to give (*need). @return 1 (found) or 0. */
int ios_scenario_null_field(const char *path, int *types, const char **need);

/** The defaults of every scenario field as a new tree (ios_scenario_defaults_json with each workload source's key at
 * its default), owned by the caller (cJSON_Delete), or NULL when out of memory. */
cJSON *ios_scenario_defaults(void);

/** Makes the relative path string `v` (or each string of the array `v`, as workload.darshan's list) absolute with
 * respect to `dir` (a directory with a trailing '/'; "" leaves it). @return IOS_OK or IOS_ENOMEM. */
int ios_scenario_rebase_value(cJSON *v, const char *dir);

/** "a number", "a string", "true or false", "an array", "an object" or "null": what a message says `v` is. */
const char *ios_scenario_type_name(const cJSON *v);

/** The child of `obj` at dotted `path`, or NULL. */
cJSON *ios_scenario_get_path(const cJSON *obj, const char *path);

/** Whether a dotted key is well formed: non-empty names separated by single dots, shorter than 256 characters. */
int ios_scenario_valid_key(const char *key);

/** Applies one "a.b.c=value" override (--set) to the user tree; paths are relative to the current directory.
 * @return IOS_OK, IOS_EINVAL with ios_diag_message(), or IOS_ENOMEM. */
int ios_scenario_apply_set(cJSON *user, const char *assignment);

#ifdef __cplusplus
}
#endif
#endif
