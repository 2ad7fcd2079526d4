/* iosim — the merge of `iosim merge` (docs/campaigns.md, "Scaling out"): the output directories of the shards of one
 * campaign (each written by `iosim sweep --shard I/N`) combined into one output directory, whose runs/<id> are
 * symbolic links to the shards' runs and whose runs.csv has one row per point of the campaign. */
#ifndef IOS_MERGE_H
#define IOS_MERGE_H

#ifdef __cplusplus
extern "C" {
#endif

/** Merges the shard directories in[0..ndirs) (ndirs >= 1; paths as given, relative to the current directory) into
 * the output directory OUT, `out_arg` made absolute (created, and locked with ios_outdir_lock while it is written).
 * The campaign is rebuilt from the first readable sweep.json; every other one must come from the same campaign (a
 * directory without one is left out with a warning: its points are missing). Each point's run is that of the first
 * directory that has runs/<id>/run.json, linked from OUT/runs/<id> (a symbolic link to its absolute path); then
 * OUT/sweep.json, OUT/campaign.json and OUT/runs.csv (ios_runs_csv_write) are written. Prints the summary to stdout,
 * warnings and errors to stderr. @return the exit code of `iosim merge`: 0 every point complete, 1 some failed or
 * missing, 2 no sweep.json, shards of different campaigns, or OUT cannot be locked, created or written. */
int ios_merge_shards(char *const *in, int ndirs, const char *out_arg);

#ifdef __cplusplus
}
#endif
#endif
