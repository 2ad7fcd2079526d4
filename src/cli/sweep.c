/* iosim sweep CAMPAIGN [options]: run a campaign's points (src/campaign/ios_sweep.h) or write its Slurm script
 * (src/campaign/ios_slurm.h). */
#include "ios_args.h"
#include "ios_campaign.h"
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_outdir.h"
#include "ios_slurm.h"
#include "ios_sweep.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage_text =
    "usage: iosim sweep CAMPAIGN [options]\n"
    "       iosim sweep CAMPAIGN --emit-slurm [--shards N] [--jobs N] [-o DIR] [--time T] [--partition P]\n"
    "                                         [--account A] [--mem M]\n"
    "  -j, --jobs N          runs at a time (default: the number of cores)\n"
    "  -o, --out DIR         output directory (default: results/<campaign name>)\n"
    "      --set key=value   pin a scenario field to one value in every run (read as by iosim run --set; a column\n"
    "                        of runs.csv; a field the grid sweeps takes only this value)\n"
    "      --seeds N         N seeds per point (replaces the campaign's seeds.count)\n"
    "      --shard I/N       run only the points whose index is I-1 modulo N (I in 1..N)\n"
    "      --retry-failed    run again the points recorded as failed\n"
    "      --run-dirs        also keep each run's files in DIR/runs/<run_id>/ (default: only the database\n"
    "                        DIR/campaign.db and runs.csv)\n"
    "      --emit-slurm      write DIR/sweep.slurm (one job-array task per shard, then a merge job) and exit\n"
    "      --shards N        shards of --emit-slurm (default 4)\n"
    "      --time T, --partition P, --account A, --mem M\n"
    "                        #SBATCH options of the array and merge jobs of --emit-slurm (override the campaign's\n"
    "                        \"slurm\" object): T as 90, 1:30:00 or 2-00:00:00; M as 4096 (MB) or 4G\n"
    "      --cfg=name:value  a SimGrid setting, passed to every run (see docs/cli.md); --cfg=help lists them\n"
    "      --log=setting     a SimGrid logging setting, passed to every run\n"
    "  -h, --help            this help;  --version  the iosim and SimGrid versions\n"
    "Re-running the same command resumes: completed runs are kept. See docs/campaigns.md.\n";

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

enum { OPT_SHARDS = IOS_OPT_FIRST_FREE, OPT_SHARD, OPT_SLURM, OPT_RETRY, OPT_SEEDS, OPT_RUN_DIRS, OPT_SBATCH };

/* What `iosim sweep` was asked. */
typedef struct {
  const char *campaign, *out;
  const char *sbatch[IOS_CAMPAIGN_SLURM_NKEYS]; /* --time, --partition, --account, --mem, or NULL */
  int jobs, shard_i, shard_n, slurm, shards, retry, seeds, nsets, run_dirs;
  char **sets; /* [nsets] --set arguments, borrowed from argv (the array is owned) */
  ios_sg_flags_t sg;
} sweep_args_t;

/* --NAME S, an integer in lo..hi, into *out. @return -1 to go on, or 2 after a message. */
static int int_option(const char *name, const char *s, int lo, int hi, int *out) {
  if (parse_int(s, lo, hi, out) == 0) return -1;
  return ios_args_bad(usage_text, "--%s '%s': give an integer in %d..%d", name, s, lo, hi);
}

/* --shard I/N. @return -1 to go on, or 2 after a message. */
static int parse_shard(const char *s, sweep_args_t *a) {
  const char *slash = strchr(s, '/');
  char left[32];
  if (slash == NULL || slash - s >= (long)sizeof left)
    return ios_args_bad(usage_text, "--shard '%s': write I/N, e.g. 2/4", s);
  snprintf(left, sizeof left, "%.*s", (int)(slash - s), s);
  if (parse_int(slash + 1, 1, 100000, &a->shard_n) != 0 || parse_int(left, 1, a->shard_n, &a->shard_i) != 0)
    return ios_args_bad(usage_text, "--shard '%s': write I/N with 1 <= I <= N, e.g. 2/4", s);
  return -1;
}

/* One option of `iosim sweep` (getopt_long's code and value). @return -1 to go on, else the exit code. */
static int sweep_option(int opt, const char *s, char **argv, sweep_args_t *a) {
  int rc = ios_cli_help_version(opt, usage_text);
  if (rc >= 0) return rc;
  switch (opt) {
  case 'j':
    return int_option("jobs", s, 1, 4096, &a->jobs);
  case OPT_SHARDS:
    return int_option("shards", s, 1, 100000, &a->shards);
  case OPT_SEEDS:
    return int_option("seeds", s, 1, 1000000, &a->seeds);
  case 'o':
    a->out = s;
    return -1;
  case OPT_SHARD:
    return parse_shard(s, a);
  case OPT_SLURM:
    a->slurm = 1;
    return -1;
  case OPT_RETRY:
    a->retry = 1;
    return -1;
  case OPT_RUN_DIRS:
    a->run_dirs = 1;
    return -1;
  case IOS_OPT_SET:
    a->sets[a->nsets++] = (char *)s;
    return -1;
  case IOS_OPT_CFG:
  case IOS_OPT_LOG:
    return ios_sg_flags_add(&a->sg, opt == IOS_OPT_LOG, s) != 0 ? 2 : -1;
  }
  if (opt < OPT_SBATCH || opt >= OPT_SBATCH + IOS_CAMPAIGN_SLURM_NKEYS)
    return ios_args_error(opt, argv, "sweep", usage_text);
  const char *key = ios_campaign_slurm_keys[opt - OPT_SBATCH]; /* ios_campaign_slurm_keys order */
  char where[32];
  snprintf(where, sizeof where, "--%s", key);
  a->sbatch[opt - OPT_SBATCH] = s;
  return ios_campaign_slurm_check("command line", where, key, s) != IOS_OK
             ? ios_args_bad(usage_text, "%s", ios_diag_message())
             : -1;
}

/* Parses `iosim sweep CAMPAIGN [options]` into a (free a->sets and a->sg after). @return -1 to go on, else the exit
 * code (help, version, or 2 after a message). */
static int parse_sweep(int argc, char **argv, sweep_args_t *a) {
  static const struct option opts[] = {{"jobs", required_argument, NULL, 'j'},
                                       {"out", required_argument, NULL, 'o'},
                                       {"shards", required_argument, NULL, OPT_SHARDS},
                                       {"shard", required_argument, NULL, OPT_SHARD},
                                       {"emit-slurm", no_argument, NULL, OPT_SLURM},
                                       {"retry-failed", no_argument, NULL, OPT_RETRY},
                                       {"run-dirs", no_argument, NULL, OPT_RUN_DIRS},
                                       {"set", required_argument, NULL, IOS_OPT_SET},
                                       {"seeds", required_argument, NULL, OPT_SEEDS},
                                       {"cfg", required_argument, NULL, IOS_OPT_CFG},
                                       {"log", required_argument, NULL, IOS_OPT_LOG},
                                       {"time", required_argument, NULL, OPT_SBATCH + 0},
                                       {"partition", required_argument, NULL, OPT_SBATCH + 1},
                                       {"account", required_argument, NULL, OPT_SBATCH + 2},
                                       {"mem", required_argument, NULL, OPT_SBATCH + 3},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  memset(a, 0, sizeof *a);
  a->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (a->jobs < 1) a->jobs = 1;
  a->shard_i = a->shard_n = 1;
  a->shards = 4;
  a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
  if (a->sets == NULL) return 1;
  int opt, arc = -1;
  optind = 0;
  while (arc < 0 && (opt = getopt_long(argc, argv, ":j:o:h", opts, NULL)) != -1)
    arc = sweep_option(opt, optarg, argv, a);
  if (arc < 0 && ios_sg_flags_help(&a->sg)) arc = ios_cli_cfg_help(&a->sg); /* SimGrid's settings, then exit 0 */
  if (arc < 0 && optind < argc) a->campaign = argv[optind++];
  if (arc < 0 && optind < argc) arc = ios_args_bad(usage_text, "unexpected argument '%s'", argv[optind]);
  if (arc < 0 && a->campaign == NULL) arc = ios_args_bad(usage_text, "%s", "iosim sweep needs a campaign file");
  if (arc < 0 && a->slurm && (a->nsets > 0 || a->seeds > 0 || a->sg.n > 0)) /* the script re-reads the campaign */
    arc = ios_args_bad(usage_text, "%s",
                       "--emit-slurm writes a script that runs the campaign file as written: put --set, --seeds, "
                       "--cfg and --log in the campaign (its \"set\" and \"seeds\" fields) instead");
  for (int k = 0; arc < 0 && !a->slurm && k < IOS_CAMPAIGN_SLURM_NKEYS; k++)
    if (a->sbatch[k] != NULL)
      arc = ios_args_bad(usage_text, "--%s is an option of the Slurm script: add --emit-slurm (or drop it)",
                         ios_campaign_slurm_keys[k]);
  return arc;
}

/* The run command of each run's child process (ios_sweep_opts_t.run_main). */
static int run_main(int argc, char **argv) {
  return ios_cli_run(argc, argv, 0);
}

/* A loaded and checked campaign: its Slurm script, or its sweep. @return the exit code. */
static int sweep_loaded(const ios_campaign_t *c, const sweep_args_t *a) {
  char *out = a->out != NULL ? ios_outdir_absolute(a->out) : ios_outdir_default(c), self[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  self[sl > 0 ? sl : 0] = '\0';
  int rc;
  if (a->slurm) {
    ios_slurm_opts_t so = {.iosim = self, .out = out, .shards = a->shards, .jobs = a->jobs};
    memcpy(so.sbatch, a->sbatch, sizeof so.sbatch);
    rc = ios_slurm_write(c, &so);
  } else {
    ios_sweep_opts_t o = {.out = out,
                          .jobs = a->jobs,
                          .shard_i = a->shard_i,
                          .shard_n = a->shard_n,
                          .retry = a->retry,
                          .run_dirs = a->run_dirs,
                          .sg = &a->sg,
                          .run_main = run_main};
    rc = ios_sweep_run(c, &o);
  }
  free(out);
  return rc;
}

int ios_cli_sweep(int argc, char **argv) {
  sweep_args_t a;
  int rc = parse_sweep(argc, argv, &a);
  ios_campaign_t c;
  memset(&c, 0, sizeof c);
  int lrc = rc < 0 ? ios_campaign_load_with(a.campaign, a.nsets, a.sets, a.seeds, &c) : IOS_OK;
  free(a.sets);
  if (lrc != IOS_OK) {
    fprintf(stderr, "iosim: error: %s\n", ios_diag_message()[0] ? ios_diag_message() : ios_strerror(lrc));
    rc = lrc == IOS_ENOMEM ? 1 : 2;
  } else if (rc < 0 && ios_outdir_check_name(&c) != 0) {
    rc = 2;
  }
  if (rc < 0) rc = sweep_loaded(&c, &a);
  ios_campaign_free(&c);
  ios_sg_flags_free(&a.sg);
  return rc;
}
