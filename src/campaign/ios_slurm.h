/* iosim — the Slurm script of `iosim sweep --emit-slurm` (docs/campaigns.md, "Scaling out"): OUT/sweep.slurm, one
 * job-array task per shard (`iosim sweep CAMPAIGN --shard I/N --out OUT/shard-I`), then a merge job (`iosim merge`)
 * that writes OUT/runs.csv; `bash OUT/sweep.slurm submit` submits both. Every value from the campaign or the command
 * line enters the script as a single-quoted bash word (or a slug in comments and job names), so no name or path can
 * inject a command. */
#ifndef IOS_SLURM_H
#define IOS_SLURM_H

#include "ios_campaign.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the script runs, and its #SBATCH options. */
typedef struct {
  const char *iosim; /**< the iosim executable the jobs run (an absolute path) */
  const char *out;   /**< the output directory OUT (absolute): the script, the shards' directories, runs.csv */
  int shards;        /**< tasks of the job array, >= 1 */
  int jobs;          /**< runs at a time in a task (its --cpus-per-task; SLURM_CPUS_PER_TASK wins), >= 1 */
  int run_dirs;      /**< 1: the tasks keep per-run directories too (iosim sweep --run-dirs) */
  /** --time, --partition, --account, --mem (ios_campaign_slurm_keys order), each checked with
   * ios_campaign_slurm_check, or NULL for the campaign's "slurm" value (none when the campaign has none either) */
  const char *sbatch[IOS_CAMPAIGN_SLURM_NKEYS];
} ios_slurm_opts_t;

/** Creates o->out and writes o->out/sweep.slurm for campaign `c` (atomically; mode 0755), the script passing
 * IOSIM_DATA_DIR on to the jobs as an absolute path when it is set. Prints "wrote PATH (...)" and how to submit it to
 * stdout. @return the exit code of `iosim sweep --emit-slurm`: 0 written, 1 cannot be written (a message on stderr)
 * or out of memory, 2 o->out cannot be created (a message on stderr). */
int ios_slurm_write(const ios_campaign_t *c, const ios_slurm_opts_t *o);

#ifdef __cplusplus
}
#endif
#endif
