/* iosim — running campaigns: `iosim sweep` (every point in its own `iosim run` process, N at a time, atomic
 * per-run outputs, resume, shards, a Slurm job-array script) and `iosim merge` (shard outputs into one runs.csv).
 * Output layout and runs.csv columns: docs/campaigns.md. */
#ifndef IOS_SWEEP_H
#define IOS_SWEEP_H

#ifdef __cplusplus
extern "C" {
#endif

/** `iosim sweep CAMPAIGN [-j|--jobs N] [-o|--out DIR] [--set key=value]... [--seeds N] [--shard I/N]
 * [--retry-failed] [--cfg=name:value]... [--log=...]... [--emit-slurm [--shards N]]` (argv[0] is "sweep"; parsed with
 * getopt_long; --cfg and --log are checked here and passed to every run). @return the exit code: 0 all runs complete, 1
 * some runs failed (recorded in runs.csv) or an internal error, 2 bad input (nothing run), 130 interrupted (completed
 * runs kept; re-run to resume). */
int ios_sweep_main(int argc, char **argv);

/** `iosim merge DIR... [-o|--out DIR]` (argv[0] is "merge"): one runs.csv over the shard directories of one
 * campaign. @return 0 when every point has a complete run, 1 when some are failed or missing, 2 bad input. */
int ios_merge_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
