/* iosim — the output directory OUT of a campaign, which `iosim sweep` and `iosim merge` share (docs/campaigns.md,
 * "Output directory"): campaign.json (the campaign as written), sweep.json (the record merge and resume rebuild the
 * points from: ios_campaign_record), runs/<id>/ (one complete or failed run, ios_runs.h), runs.csv (written at the very
 * end), .lock (held by the sweep or merge writing into OUT), .cache/ (the schedules the runs of a sweep share). Here:
 * OUT's path and lock, the campaign name's check, and the file helpers of the campaign layer. Paths are at most
 * IOS_OUTDIR_PATH_MAX bytes; longer ones are truncated in messages and file names. */
#ifndef IOS_OUTDIR_H
#define IOS_OUTDIR_H

#include "ios_campaign.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of the longest path the campaign layer builds (a directory; file names in it get more room). */
#define IOS_OUTDIR_PATH_MAX 4096

/** The absolute version of `path`: itself when it starts with '/', else the current directory, '/' and `path` (not
 * normalized; `path` itself when the current directory cannot be read). @return a string the caller frees, or NULL
 * on ENOMEM. */
char *ios_outdir_absolute(const char *path);

/** The default output directory of campaign `c`: results/NAME under the current directory (absolute), NAME being the
 * campaign's "name" when it is a non-empty string without '/', else the campaign file's name without its directory
 * and extension. @return a string the caller frees, or NULL on ENOMEM. */
char *ios_outdir_default(const ios_campaign_t *c);

/** Checks that the campaign's "name" (when given) is one safe path component: it names the default output directory
 * results/NAME and the Slurm jobs. Safe: 1 to 200 bytes, not "." or "..", no '/', no control character, no leading
 * '-'. @return 0, or 2 (the exit code) after a message on stderr naming the file, the field, the value and the fix. */
int ios_outdir_check_name(const ios_campaign_t *c);

/** Creates the output directory `out` and takes its lock (`out`/.lock, flock; held until the descriptor is closed or
 * the process ends, not inherited by the runs), so that neither a second sweep nor a merge writes into a live sweep's
 * directory. `cmd` ("sweep" or "merge") names the command in the message. @return the lock's descriptor (the caller
 * closes it), or -1 after a message on stderr: `out` is a file, cannot be created, or is locked. */
int ios_outdir_lock(const char *out, const char *cmd);

/** Writes `out`/sweep.json (`record`: ios_campaign_record's, or the one read from a shard) then `out`/campaign.json
 * (`campaign`: the campaign as written), each atomically; the second is not written when the first fails. @return 0,
 * or -1 with errno set. */
int ios_outdir_write_records(const char *out, const cJSON *record, const cJSON *campaign);

/** `s` with every byte but [A-Za-z0-9._-] replaced by '_' (Slurm job names and comments, names shown in messages),
 * written to `out` (`n` bytes, n >= 1: at most n - 1 bytes and a NUL). */
void ios_outdir_slug(char *out, size_t n, const char *s);

/** Whether `path` exists (stat succeeds; a symbolic link is followed). */
int ios_outdir_exists(const char *path);

/** rm -rf `path`: removes it and, for a directory, everything under it (symbolic links themselves, not their
 * targets). Errors are ignored: what cannot be removed stays. */
void ios_outdir_remove(const char *path);

/** The JSON file at `path`, parsed. @return the tree (the caller deletes it), or NULL when the file cannot be read
 * or is not JSON. */
cJSON *ios_outdir_read_json(const char *path);

/** Writes `text` to `path` atomically (ios_fs_write_atomic: a temporary file renamed over `path`). @return 0, or -1
 * with errno set. */
int ios_outdir_write_text(const char *path, const char *text);

/** Writes `j` to `path` atomically, as cJSON_Print formats it. @return 0, or -1 (ENOMEM, or errno set). */
int ios_outdir_write_json(const char *path, const cJSON *j);

#ifdef __cplusplus
}
#endif
#endif
