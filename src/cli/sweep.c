/* iosim — campaign runner (see ios_cli.h, docs/campaigns.md).
 *
 * Layout of an output directory OUT: campaign.json (the campaign as written), sweep.json (the record merge and
 * resume rebuild the points from), runs/<id>/ (one complete or failed run: scenario.json, the run's outputs,
 * stdout.txt, stderr.txt, run.json written by the runner last), runs.csv (written at the very end; absent while a
 * sweep is running or after an interruption). A run is prepared in runs/.<id>.<pid>.tmp/ and renamed into place
 * when it has finished, so runs/<id>/ is always whole. */
#define _GNU_SOURCE
#include "ios_args.h"
#include "ios_campaign.h"
#include "ios_fs.h"
#include "ios_outdir.h"
#include "ios_runs.h"
#include "ios_slurm.h"
#include "ios_clock.h"
#include "ios_cli.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_output.h"
#include "ios_policy.h"
#include "ios_scenario.h"
#include "ios_units.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PATH_MAX_LEN IOS_OUTDIR_PATH_MAX

static volatile sig_atomic_t interrupted;
static int ntransient; /* runs of this sweep that failed on a transient system error */

static void on_signal(int sig) {
  interrupted = sig;
}

/* ------------------------------------------------------------------------------------------------ running */

typedef struct {
  pid_t pid;
  int point;
  double t0;
  char tmp[PATH_MAX_LEN + 64];
} child_t;

/* Starts one run of `iosim run TMP/scenario.json --out TMP` in a child process. The child does not execute the
 * binary again: it calls the run command directly, the sweep having never started SimGrid, which saves the
 * dynamic linking and library start-up of a new process (about 23 ms per run, docs/campaigns.md). */
static pid_t spawn(const char *tmp, const ios_sg_flags_t *sg) {
  char scen[2 * PATH_MAX_LEN + 64], out[2 * PATH_MAX_LEN + 64], err[2 * PATH_MAX_LEN + 64];
  snprintf(scen, sizeof scen, "%s/scenario.json", tmp);
  snprintf(out, sizeof out, "%s/stdout.txt", tmp);
  snprintf(err, sizeof err, "%s/stderr.txt", tmp);
  fflush(NULL); /* nothing buffered by the sweep is written again by the child */
  pid_t parent = getpid(), pid = fork();
  if (pid != 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGKILL);    /* a run dies with its sweep, even a sweep killed with SIGKILL */
  if (getppid() != parent) _exit(127); /* the sweep died before prctl */
  setpgid(0, 0);                       /* a terminal's Ctrl-C reaches the runner only, which stops its runs itself */
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666), fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(127);
  close(fo);
  close(fe);
  char *args[5 + 256] = {"run", scen, "--out", (char *)tmp};
  int n = 4;
  for (int i = 0; i < sg->n && n < 5 + 255; i++)
    args[n++] = sg->flags[i]; /* SimGrid's --cfg and --log, checked by the sweep, applied by each run */
  args[n] = NULL;
  exit(ios_cli_run(n, args, 0)); /* exit, not _exit: the run's streams and SimGrid's exit handlers as in a process */
}

static void fmt_duration(char *buf, size_t n, double s) {
  if (!isfinite(s) || s < 0)
    snprintf(buf, n, "?");
  else if (s < 60)
    snprintf(buf, n, "%.0fs", s);
  else if (s < 3600)
    snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
  else
    snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
}

static void progress(int done, int total, int skipped, int failed, int running, double t0, int force) {
  static double last;
  int tty = isatty(2);
  double t = ios_clock_s();
  if (!force && !tty && t - last < 10.0) return;
  last = t;
  char el[32], eta[32];
  fmt_duration(el, sizeof el, t - t0);
  int fresh = done - skipped;
  fmt_duration(eta, sizeof eta, fresh > 0 ? (t - t0) / fresh * (total - done) : NAN);
  fprintf(stderr, "%ssweep: %d/%d runs done (%d already done before), %d failed, %d running, %s elapsed, ETA %s%s",
          tty ? "\r" : "", done, total, skipped, failed, running, el, eta, tty ? "   " : "\n");
}

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
    "      --emit-slurm      write DIR/sweep.slurm (one job-array task per shard, then a merge job) and exit\n"
    "      --shards N        shards of --emit-slurm (default 4)\n"
    "      --time T, --partition P, --account A, --mem M\n"
    "                        #SBATCH options of the array and merge jobs of --emit-slurm (override the campaign's\n"
    "                        \"slurm\" object): T as 90, 1:30:00 or 2-00:00:00; M as 4096 (MB) or 4G\n"
    "      --cfg=name:value  a SimGrid setting, passed to every run (see docs/cli.md)\n"
    "      --log=setting     a SimGrid logging setting, passed to every run\n"
    "  -h, --help            this help;  --version  the iosim and SimGrid versions\n"
    "Re-running the same command resumes: completed runs are kept. See docs/campaigns.md.\n";

static int bad_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "iosim: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage_text);
  return 2;
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

/* Creates OUT, writes campaign.json and sweep.json, removes runs.csv and stale temporary run directories. */
static int prepare_out(const ios_campaign_t *c, const char *out, char *runs_dir, size_t n) {
  snprintf(runs_dir, n, "%s/runs", out);
  if (ios_mkdirs(runs_dir) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot create (%s): choose a writable --out\n", runs_dir, strerror(errno));
    return 2;
  }
  char path[2 * PATH_MAX_LEN + 64];
  snprintf(path, sizeof path, "%s/runs.csv", out);
  if (remove(path) != 0 && errno != ENOENT) {
    fprintf(stderr, "iosim: error: %s: cannot remove the previous runs.csv (%s)\n", path, strerror(errno));
    return 2;
  }
  cJSON *record = ios_campaign_record(c);
  int rc = record != NULL ? ios_outdir_write_records(out, record, c->campaign) : -1;
  cJSON_Delete(record);
  if (rc != 0) {
    snprintf(path, sizeof path, "%s/campaign.json", out);
    fprintf(stderr, "iosim: error: %s: cannot write (%s)\n", path, strerror(errno));
    return 2;
  }
  DIR *d = opendir(runs_dir);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.' && len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0) {
      snprintf(path, sizeof path, "%s/%s", runs_dir, e->d_name);
      ios_outdir_remove(path);
    }
  }
  if (d != NULL) closedir(d);
  return 0;
}

enum { OPT_SHARDS = IOS_OPT_FIRST_FREE, OPT_SHARD, OPT_SLURM, OPT_RETRY, OPT_SEEDS, OPT_SBATCH };

/* What `iosim sweep` was asked. */
typedef struct {
  const char *campaign, *out;
  const char *sbatch[IOS_CAMPAIGN_SLURM_NKEYS]; /* --time, --partition, --account, --mem, or NULL */
  int jobs, shard_i, shard_n, slurm, shards, retry, seeds, nsets;
  char **sets; /* [nsets] --set arguments, borrowed from argv (the array is owned) */
  ios_sg_flags_t sg;
} sweep_args_t;

/* --shard I/N. @return -1 to go on, or 2 after a message. */
static int parse_shard(const char *s, sweep_args_t *a) {
  const char *slash = strchr(s, '/');
  char left[32];
  if (slash == NULL || slash - s >= (long)sizeof left) return bad_usage("--shard '%s': write I/N, e.g. 2/4", s);
  snprintf(left, sizeof left, "%.*s", (int)(slash - s), s);
  if (parse_int(slash + 1, 1, 100000, &a->shard_n) != 0 || parse_int(left, 1, a->shard_n, &a->shard_i) != 0)
    return bad_usage("--shard '%s': write I/N with 1 <= I <= N, e.g. 2/4", s);
  return -1;
}

/* One option of `iosim sweep` (getopt_long's code and value). @return -1 to go on, else the exit code. */
static int sweep_option(int opt, const char *s, char **argv, sweep_args_t *a) {
  switch (opt) {
  case 'h':
    fputs(usage_text, stdout);
    return 0;
  case IOS_OPT_VERSION:
    ios_print_version(stdout);
    return 0;
  case 'j':
    return parse_int(s, 1, 4096, &a->jobs) != 0 ? bad_usage("--jobs '%s': give an integer in 1..4096", s) : -1;
  case OPT_SHARDS:
    return parse_int(s, 1, 100000, &a->shards) != 0 ? bad_usage("--shards '%s': give an integer in 1..100000", s) : -1;
  case OPT_SEEDS:
    return parse_int(s, 1, 1000000, &a->seeds) != 0 ? bad_usage("--seeds '%s': give an integer in 1..1000000", s) : -1;
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
  return ios_campaign_slurm_check("command line", where, key, s) != IOS_OK ? bad_usage("%s", ios_diag_message()) : -1;
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
  if (arc < 0 && optind < argc) a->campaign = argv[optind++];
  if (arc < 0 && optind < argc) arc = bad_usage("unexpected argument '%s'", argv[optind]);
  if (arc < 0 && a->campaign == NULL) arc = bad_usage("%s", "iosim sweep needs a campaign file");
  if (arc < 0 && a->slurm && (a->nsets > 0 || a->seeds > 0 || a->sg.n > 0)) /* the script re-reads the campaign */
    arc = bad_usage("%s", "--emit-slurm writes a script that runs the campaign file as written: put --set, --seeds, "
                          "--cfg and --log in the campaign (its \"set\" and \"seeds\" fields) instead");
  for (int k = 0; arc < 0 && !a->slurm && k < IOS_CAMPAIGN_SLURM_NKEYS; k++)
    if (a->sbatch[k] != NULL)
      arc = ios_args_bad(usage_text, "--%s is an option of the Slurm script: add --emit-slurm (or drop it)",
                         ios_campaign_slurm_keys[k]);
  return arc;
}

/* A sweep under way: its campaign, output, the points of its shard and the runs in flight. */
typedef struct {
  const sweep_args_t *a;
  ios_campaign_t c;
  const char *out, *self;
  char runs_dir[PATH_MAX_LEN + 8];
  int *sel, nsel;   /* [c.npoints]: the points of this shard */
  int *todo, ntodo; /* [c.npoints]: positions in sel still to run */
  int skipped, failed, done, running, next, internal;
  child_t *kids; /* [a->jobs] */
  double t0;
} sweep_t;

/* The points of this shard, and which of them still need a run (none recorded, or failed and to be retried). */
static int select_points(sweep_t *w) {
  const ios_campaign_t *c = &w->c;
  w->sel = malloc(sizeof *w->sel * (size_t)(c->npoints > 0 ? c->npoints : 1));
  w->todo = malloc(sizeof *w->todo * (size_t)(c->npoints > 0 ? c->npoints : 1));
  if (w->sel == NULL || w->todo == NULL) return -1;
  for (int i = 0; i < c->npoints; i++) {
    if (i % w->a->shard_n != w->a->shard_i - 1) continue;
    int was_failed, transient;
    if (ios_runs_recorded(w->runs_dir, c->points[i].id, &was_failed, &transient) &&
        !((w->a->retry || transient) && was_failed)) {
      w->skipped++;
      w->failed += was_failed;
    } else
      w->todo[w->ntodo++] = w->nsel;
    w->sel[w->nsel++] = i;
  }
  return 0;
}

/* Prepares the next point's run in a free slot (its scenario in a temporary directory) and starts it.
 * @return 0, or -1 after a message (an internal error). */
static int launch_one(sweep_t *w) {
  const ios_campaign_point_t *pt = &w->c.points[w->sel[w->todo[w->next]]];
  child_t *ch = NULL;
  for (int k = 0; k < w->a->jobs && ch == NULL; k++)
    if (w->kids[k].pid == 0) ch = &w->kids[k];
  snprintf(ch->tmp, sizeof ch->tmp, "%s/.%s.%ld.tmp", w->runs_dir, pt->id, (long)getpid());
  cJSON *scen = ios_campaign_point_scenario(&w->c, pt->index), *no = cJSON_CreateFalse();
  if (scen != NULL && (no == NULL || ios_scenario_set_value(scen, "output.progress", no, "") != IOS_OK)) {
    cJSON_Delete(scen);
    scen = NULL;
  }
  cJSON_Delete(no);
  char path[2 * PATH_MAX_LEN + 64];
  snprintf(path, sizeof path, "%s/scenario.json", ch->tmp);
  int ok = scen != NULL && ios_mkdirs(ch->tmp) == 0 && ios_outdir_write_json(path, scen) == 0;
  cJSON_Delete(scen);
  if (!ok) {
    fprintf(stderr, "\niosim: error: %s: cannot prepare the run (%s)\n", ch->tmp, strerror(errno));
    return -1;
  }
  ch->point = w->todo[w->next++];
  ch->t0 = ios_clock_s();
  ch->pid = spawn(ch->tmp, &w->a->sg);
  if (ch->pid < 0) {
    fprintf(stderr, "\niosim: error: cannot start a run (%s)\n", strerror(errno));
    ch->pid = 0;
    return -1;
  }
  w->running++;
  return 0;
}

/* Waits for one run to end and records it. @return 0, 1 when interrupted by a signal, -1 on an internal error. */
static int reap_one(sweep_t *w) {
  int wstatus;
  pid_t pid = waitpid(-1, &wstatus, 0);
  if (pid < 0) return errno == EINTR ? 1 : -1;
  for (int k = 0; k < w->a->jobs; k++)
    if (w->kids[k].pid == pid) {
      child_t *ch = &w->kids[k];
      int run_failed = 0, transient = 0;
      if (ios_runs_record(w->runs_dir, &w->c.points[w->sel[ch->point]], ch->tmp, ch->t0, wstatus, &run_failed,
                          &transient) != 0) {
        fprintf(stderr, "\niosim: error: %s: cannot record the run (%s)\n", ch->tmp, strerror(errno));
        w->internal = 1;
      }
      ntransient += transient;
      w->failed += run_failed;
      w->done++;
      w->running--;
      ch->pid = 0;
      progress(w->done, w->nsel, w->skipped, w->failed, w->running, w->t0, 0);
    }
  return 0;
}

/* Stops the runs under way (their process groups: the run and its children); their temporary directories go. */
static void stop_runs(sweep_t *w) {
  for (int k = 0; w->kids != NULL && k < w->a->jobs; k++)
    if (w->kids[k].pid > 0 && kill(-w->kids[k].pid, SIGTERM) != 0)
      kill(w->kids[k].pid, SIGTERM); /* (not yet in its own group) */
  for (int k = 0; w->kids != NULL && k < w->a->jobs; k++)
    if (w->kids[k].pid > 0) {
      waitpid(w->kids[k].pid, NULL, 0);
      ios_outdir_remove(w->kids[k].tmp);
    }
}

/* Runs the points still to run, a->jobs at a time, until all are done, a signal comes or an internal error. */
static void run_points(sweep_t *w) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  fprintf(stderr, "sweep: %s: %d points%s, %d to run, %d at a time, output in %s\n", w->c.file, w->nsel,
          w->a->shard_n > 1 ? " in this shard" : "", w->ntodo, w->a->jobs, w->out);
  w->kids = calloc((size_t)w->a->jobs, sizeof *w->kids);
  w->done = w->skipped;
  w->t0 = ios_clock_s();
  if (w->kids == NULL) w->internal = 1;
  while (!w->internal && !interrupted && (w->next < w->ntodo || w->running > 0)) {
    while (!w->internal && !interrupted && w->running < w->a->jobs && w->next < w->ntodo)
      if (launch_one(w) != 0) w->internal = 1;
    if (w->internal || w->running == 0) break;
    if (reap_one(w) < 0) w->internal = 1;
  }
  if (interrupted || w->internal) stop_runs(w);
  progress(w->done, w->nsel, w->skipped, w->failed, 0, w->t0, 1);
  if (isatty(2)) fputc('\n', stderr);
}

/* runs.csv of a finished sweep, and the summary. @return the exit code: 0 all complete, 1 some failed or missing
 * (or runs.csv cannot be written), 130 interrupted. */
static int finish_sweep(const sweep_t *w) {
  if (interrupted || w->internal) {
    fprintf(stderr,
            "sweep: %s after %d of %d runs; no runs.csv written. Re-run the same command to finish (completed "
            "runs are kept).\n",
            interrupted ? "interrupted" : "stopped by an internal error", w->done, w->nsel);
    return interrupted ? 130 : 1;
  }
  char **dirs = calloc((size_t)(w->nsel > 0 ? w->nsel : 1), sizeof *dirs), path[2 * PATH_MAX_LEN + 64];
  for (int i = 0; dirs != NULL && i < w->nsel; i++) {
    snprintf(path, sizeof path, "%s/%s", w->runs_dir, w->c.points[w->sel[i]].id);
    dirs[i] = strdup(path);
  }
  snprintf(path, sizeof path, "%s/runs.csv", w->out);
  int nf = 0, nm = 0, rc = 1;
  if (dirs == NULL || ios_runs_csv_write(&w->c, w->sel, w->nsel, dirs, path, &nf, &nm) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot write (%s)\n", path, strerror(errno));
  } else {
    printf("sweep: %d runs, %d complete, %d failed; wrote %s\n", w->nsel, w->nsel - nf - nm, nf, path);
    if (nf > 0)
      printf("sweep: failed runs are listed in runs.csv (status failed, column error); their outputs "
             "are in %s/<run_id>/\n",
             w->runs_dir);
    if (ntransient > 0)
      printf("sweep: %d of the failed runs hit a transient system error (a full disk, a quota, no memory...; "
             "\"transient\": true in their run.json): free the resource and re-run the same command to run them "
             "again\n",
             ntransient);
    rc = nf + nm > 0 ? 1 : 0;
  }
  for (int i = 0; dirs != NULL && i < w->nsel; i++)
    free(dirs[i]);
  free(dirs);
  return rc;
}

/* The sweep itself, in its locked output directory: prepare it, select the points, run them, write runs.csv. */
static int sweep_in(sweep_t *w) {
  int lock = ios_outdir_lock(w->out, "sweep");
  int rc = lock >= 0 ? prepare_out(&w->c, w->out, w->runs_dir, sizeof w->runs_dir) : 2;
  if (rc == 0 && select_points(w) != 0) {
    fprintf(stderr, "iosim: error: out of memory\n");
    rc = 1;
  }
  char cache[2 * PATH_MAX_LEN + 16] = "";
  if (rc == 0 && getenv("IOSIM_CACHE_DIR") == NULL) { /* the runs share generated schedules (ios_gen.h) */
    snprintf(cache, sizeof cache, "%s/.cache", w->out);
    setenv("IOSIM_CACHE_DIR", cache, 1);
  }
  if (rc == 0) {
    run_points(w);
    rc = finish_sweep(w);
  }
  if (rc == 0 && cache[0] != '\0') ios_outdir_remove(cache); /* kept for a resume until every run is complete */
  free(w->sel);
  free(w->todo);
  free(w->kids);
  if (lock >= 0) close(lock);
  return rc;
}

int ios_cli_sweep(int argc, char **argv) {
  sweep_args_t a;
  int rc = parse_sweep(argc, argv, &a);
  sweep_t w;
  memset(&w, 0, sizeof w);
  w.a = &a;
  int lrc = rc < 0 ? ios_campaign_load_with(a.campaign, a.nsets, a.sets, a.seeds, &w.c) : IOS_OK;
  free(a.sets);
  if (lrc != IOS_OK) {
    fprintf(stderr, "iosim: error: %s\n", ios_diag_message()[0] ? ios_diag_message() : ios_strerror(lrc));
    rc = lrc == IOS_ENOMEM ? 1 : 2;
  } else if (rc < 0 && ios_outdir_check_name(&w.c) != 0) {
    rc = 2;
  }
  if (rc < 0) {
    char *out = a.out != NULL ? ios_outdir_absolute(a.out) : ios_outdir_default(&w.c), self[PATH_MAX_LEN];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    self[sl > 0 ? sl : 0] = '\0';
    w.out = out;
    w.self = self;
    if (a.slurm) {
      ios_slurm_opts_t so = {self, out, a.shards, a.jobs, {NULL}};
      memcpy(so.sbatch, a.sbatch, sizeof so.sbatch);
      rc = ios_slurm_write(&w.c, &so);
    } else
      rc = sweep_in(&w);
    free(out);
  }
  ios_campaign_free(&w.c);
  ios_sg_flags_free(&a.sg);
  return rc;
}
