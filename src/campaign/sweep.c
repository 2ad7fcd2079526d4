/* iosim — the sweep runner: point selection, launching, reaping, stopping, finishing (see ios_sweep.h).
 *
 * Layout of the output directory OUT: ios_outdir.h. A run is prepared in runs/.<id>.<pid>.tmp/ and renamed into
 * place when it has finished (ios_runs_record), so runs/<id>/ is always whole. */
#define _GNU_SOURCE
#include "ios_sweep.h"
#include "ios_campdb.h"
#include "ios_clock.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_outdir.h"
#include "ios_runs.h"
#include "ios_scenario.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define PATH_MAX_LEN IOS_OUTDIR_PATH_MAX

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
  interrupted = sig;
}

/* One run in flight. */
typedef struct {
  pid_t pid; /* 0: a free slot */
  int point; /* its position in sel */
  double t0; /* ios_clock_s at its start */
  char tmp[PATH_MAX_LEN + 64];
} child_t;

/* A sweep under way: its campaign, output, the points of its shard and the runs in flight. */
typedef struct {
  const ios_sweep_opts_t *o;
  const ios_campaign_t *c;
  char runs_dir[PATH_MAX_LEN + 8];
  int *sel, nsel;   /* [c->npoints]: the points of this shard */
  int *todo, ntodo; /* [c->npoints]: positions in sel still to run */
  int skipped, failed, done, running, next, internal;
  int ntransient;              /* runs of this sweep that failed on a transient system error */
  int kept_failed;             /* points recorded as failed by an earlier sweep and not run again (no --retry-failed) */
  int retried, retried_failed; /* points recorded as failed that this sweep runs again, and those failing again */
  char *was_failed;            /* [c->npoints], by position in sel: recorded as failed before this sweep */
  child_t *kids;               /* [o->jobs] */
  ios_db_t *db;                /* OUT/campaign.db */
  double t0, last_progress;
} sweep_t;

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

/* The progress line on stderr: always with `force`, else on a terminal (rewritten in place) or every 10 s. */
static void progress(sweep_t *w, int running, int force) {
  int tty = isatty(2);
  double t = ios_clock_s();
  if (!force && !tty && t - w->last_progress < 10.0) return;
  w->last_progress = t;
  char el[32], eta[32];
  fmt_duration(el, sizeof el, t - w->t0);
  int fresh = w->done - w->skipped;
  fmt_duration(eta, sizeof eta, fresh > 0 ? (t - w->t0) / fresh * (w->nsel - w->done) : NAN);
  fprintf(stderr, "%ssweep: %d/%d runs done (%d already done before), %d failed, %d running, %s elapsed, ETA %s%s",
          tty ? "\r" : "", w->done, w->nsel, w->skipped, w->failed, running, el, eta, tty ? "   " : "\n");
}

/* Creates OUT/runs, writes campaign.json and sweep.json, removes runs.csv and stale temporary run directories.
 * @return 0, or 2 after a message. */
static int prepare_out(const ios_campaign_t *c, const char *out, char *runs_dir, size_t n, ios_db_t **db) {
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
  if (rc != 0) {
    cJSON_Delete(record);
    snprintf(path, sizeof path, "%s/campaign.json", out);
    fprintf(stderr, "iosim: error: %s: cannot write (%s)\n", path, strerror(errno));
    return 2;
  }
  rc = ios_campdb_open(ios_campdb_path(path, sizeof path, out), c, c->campaign, record, db);
  cJSON_Delete(record);
  if (rc != IOS_OK) {
    fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
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

/* The points of this shard, and which of them still need a run (none recorded, or failed and to be retried).
 * @return 0, or -1 on ENOMEM. */
static int select_points(sweep_t *w) {
  const ios_campaign_t *c = w->c;
  w->sel = malloc(sizeof *w->sel * (size_t)(c->npoints > 0 ? c->npoints : 1));
  w->todo = malloc(sizeof *w->todo * (size_t)(c->npoints > 0 ? c->npoints : 1));
  w->was_failed = calloc((size_t)(c->npoints > 0 ? c->npoints : 1), 1);
  if (w->sel == NULL || w->todo == NULL || w->was_failed == NULL) return -1;
  for (int i = 0; i < c->npoints; i++) {
    if (i % w->o->shard_n != w->o->shard_i - 1) continue;
    int was_failed = 0, transient;
    int recorded = ios_campdb_recorded(w->db, c->points[i].id, &was_failed, &transient);
    if (!recorded && ios_runs_recorded(w->runs_dir, c->points[i].id, &was_failed, &transient)) {
      /* a run directory of an earlier sweep (per-run directories, or an older iosim): into the database */
      char dir[2 * PATH_MAX_LEN + 64];
      snprintf(dir, sizeof dir, "%s/%s/run.json", w->runs_dir, c->points[i].id);
      cJSON *run = ios_outdir_read_json(dir);
      snprintf(dir, sizeof dir, "%s/%s", w->runs_dir, c->points[i].id);
      recorded = run != NULL && ios_campdb_record(w->db, c, &c->points[i], dir, run) == IOS_OK;
      cJSON_Delete(run);
    }
    if (recorded && !((w->o->retry || transient) && was_failed)) {
      w->skipped++;
      w->failed += was_failed;
      w->kept_failed += was_failed;
    } else {
      w->was_failed[w->nsel] = recorded && was_failed;
      w->retried += recorded && was_failed;
      w->todo[w->ntodo++] = w->nsel;
    }
    w->sel[w->nsel++] = i;
  }
  return 0;
}

/* Starts one run of `run TMP/scenario.json --out TMP` in a child process. The child does not execute the binary
 * again: it calls the run command (o->run_main) directly, the sweep having never started SimGrid, which saves the
 * dynamic linking and library start-up of a new process (about 23 ms per run, docs/campaigns.md). */
static pid_t spawn(const char *tmp, const ios_sweep_opts_t *o) {
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
  for (int i = 0; i < o->sg->n && n < 5 + 255; i++)
    args[n++] = o->sg->flags[i]; /* SimGrid's --cfg and --log, checked by the sweep, applied by each run */
  args[n] = NULL;
  exit(o->run_main(n, args)); /* exit, not _exit: the run's streams and SimGrid's exit handlers as in a process */
}

/* Prepares the next point's run in a free slot (its scenario in a temporary directory) and starts it.
 * @return 0, or -1 after a message (an internal error). */
static int launch_one(sweep_t *w) {
  const ios_campaign_point_t *pt = &w->c->points[w->sel[w->todo[w->next]]];
  child_t *ch = NULL;
  for (int k = 0; k < w->o->jobs && ch == NULL; k++)
    if (w->kids[k].pid == 0) ch = &w->kids[k];
  snprintf(ch->tmp, sizeof ch->tmp, "%s/.%s.%ld.tmp", w->runs_dir, pt->id, (long)getpid());
  cJSON *scen = ios_campaign_point_scenario(w->c, pt->index), *no = cJSON_CreateFalse();
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
  ch->pid = spawn(ch->tmp, w->o);
  if (ch->pid < 0) {
    fprintf(stderr, "\niosim: error: cannot start a run (%s)\n", strerror(errno));
    ch->pid = 0;
    return -1;
  }
  w->running++;
  return 0;
}

/* Records the run that ran in ch->tmp and has ended: its run record and files into the database in one transaction,
 * and with per-run directories runs/<id>/ (renamed into place first: the database is what a resume reads), else its
 * temporary directory removed. @return 0, or -1 after a message. */
static int record_run(sweep_t *w, child_t *ch, int wstatus, int *failed, int *transient) {
  const ios_campaign_point_t *pt = &w->c->points[w->sel[ch->point]];
  char final[2 * PATH_MAX_LEN + 64], path[2 * PATH_MAX_LEN + 64];
  snprintf(final, sizeof final, "%s/%s", w->runs_dir, pt->id);
  cJSON *run = ios_runs_record_json(pt, ch->tmp, final, ch->t0, wstatus, failed, transient);
  const char *dir = ch->tmp;
  int rc = run != NULL ? 0 : -1;
  if (rc == 0 && w->o->run_dirs) {
    snprintf(path, sizeof path, "%s/run.json", ch->tmp);
    rc = ios_outdir_write_json(path, run);
    if (rc == 0 && ios_outdir_exists(final)) ios_outdir_remove(final);
    if (rc == 0) rc = rename(ch->tmp, final);
    dir = final;
  }
  if (rc != 0) {
    fprintf(stderr, "\niosim: error: %s: cannot record the run (%s)\n", ch->tmp, strerror(errno));
  } else if (ios_campdb_record(w->db, w->c, pt, dir, run) != IOS_OK) {
    fprintf(stderr, "\niosim: error: %s\n", ios_diag_message());
    rc = -1;
  }
  if (!w->o->run_dirs) ios_outdir_remove(ch->tmp);
  cJSON_Delete(run);
  return rc;
}

/* Waits for one run to end and records it. @return 0, 1 when interrupted by a signal, -1 on an internal error. */
static int reap_one(sweep_t *w) {
  int wstatus;
  pid_t pid = waitpid(-1, &wstatus, 0);
  if (pid < 0) return errno == EINTR ? 1 : -1;
  for (int k = 0; k < w->o->jobs; k++)
    if (w->kids[k].pid == pid) {
      child_t *ch = &w->kids[k];
      int run_failed = 0, transient = 0;
      if (record_run(w, ch, wstatus, &run_failed, &transient) != 0) w->internal = 1;
      w->ntransient += transient;
      w->failed += run_failed;
      w->retried_failed += run_failed && w->was_failed[ch->point];
      w->done++;
      w->running--;
      ch->pid = 0;
      progress(w, w->running, 0);
    }
  return 0;
}

/* Stops the runs under way (their process groups: the run and its children); their temporary directories go. */
static void stop_runs(sweep_t *w) {
  for (int k = 0; w->kids != NULL && k < w->o->jobs; k++)
    if (w->kids[k].pid > 0 && kill(-w->kids[k].pid, SIGTERM) != 0)
      kill(w->kids[k].pid, SIGTERM); /* (not yet in its own group) */
  for (int k = 0; w->kids != NULL && k < w->o->jobs; k++)
    if (w->kids[k].pid > 0) {
      waitpid(w->kids[k].pid, NULL, 0);
      ios_outdir_remove(w->kids[k].tmp);
    }
}

/* Runs the points still to run, o->jobs at a time, until all are done, a signal comes or an internal error. */
static void run_points(sweep_t *w) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  fprintf(stderr, "sweep: %s: %d points%s, %d to run, %d at a time, output in %s\n", w->c->file, w->nsel,
          w->o->shard_n > 1 ? " in this shard" : "", w->ntodo, w->o->jobs, w->o->out);
  if (w->kept_failed > 0)
    fprintf(stderr,
            "sweep: %d points failed in an earlier sweep and are not run again (a run's input errors do not go away "
            "by themselves): once their cause is fixed, add --retry-failed to run them again\n",
            w->kept_failed);
  w->kids = calloc((size_t)w->o->jobs, sizeof *w->kids);
  w->done = w->skipped;
  w->t0 = ios_clock_s();
  if (w->kids == NULL) w->internal = 1;
  while (!w->internal && !interrupted && (w->next < w->ntodo || w->running > 0)) {
    while (!w->internal && !interrupted && w->running < w->o->jobs && w->next < w->ntodo)
      if (launch_one(w) != 0) w->internal = 1;
    if (w->internal || w->running == 0) break;
    if (reap_one(w) < 0) w->internal = 1;
  }
  if (interrupted || w->internal) stop_runs(w);
  progress(w, 0, 1);
  if (isatty(2)) fputc('\n', stderr);
}

/* The summary of a sweep whose runs.csv (`path`) is written: nf runs failed, nm points missing. */
static void summary(const sweep_t *w, const char *path, int nf, int nm) {
  printf("sweep: %d runs, %d complete, %d failed; wrote %s\n", w->nsel, w->nsel - nf - nm, nf, path);
  if (nf > 0 && w->o->run_dirs)
    printf("sweep: failed runs are listed in runs.csv (status failed, column error); their outputs "
           "are in %s/<run_id>/\n",
           w->runs_dir);
  else if (nf > 0)
    printf("sweep: failed runs are listed in runs.csv (status failed, column error); their standard output and "
           "error are in %s/campaign.db (table logs)\n",
           w->o->out);
  if (w->retried > 0)
    printf("sweep: %d runs that had failed were run again (--retry-failed): %d complete now, %d failed again\n",
           w->retried, w->retried - w->retried_failed, w->retried_failed);
  if (w->kept_failed > 0)
    printf("sweep: %d of the failed runs failed in an earlier sweep and were not run again: once their cause is "
           "fixed, re-run the same command with --retry-failed\n",
           w->kept_failed);
  else if (nf - w->ntransient > 0)
    printf("sweep: to run the failed runs again once their cause is fixed, re-run the same command with "
           "--retry-failed (complete runs are kept)\n");
  if (w->ntransient > 0)
    printf("sweep: %d of the failed runs hit a transient system error (a full disk, a quota, no memory...; "
           "\"transient\": true in their run.json): free the resource and re-run the same command to run them "
           "again\n",
           w->ntransient);
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
  char path[2 * PATH_MAX_LEN + 64];
  snprintf(path, sizeof path, "%s/runs.csv", w->o->out);
  int nf = 0, nm = 0, rc = 1;
  if (ios_campdb_runs_csv(w->db, w->c, w->sel, w->nsel, path, &nf, &nm) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot write (%s)\n", path, strerror(errno));
  } else {
    summary(w, path, nf, nm);
    rc = nf + nm > 0 ? 1 : 0;
  }
  return rc;
}

int ios_sweep_run(const ios_campaign_t *c, const ios_sweep_opts_t *o) {
  sweep_t w;
  memset(&w, 0, sizeof w);
  w.o = o;
  w.c = c;
  int lock = ios_outdir_lock(o->out, "sweep");
  int rc = lock >= 0 ? prepare_out(c, o->out, w.runs_dir, sizeof w.runs_dir, &w.db) : 2;
  if (rc == 0 && select_points(&w) != 0) {
    fprintf(stderr, "iosim: error: out of memory\n");
    rc = 1;
  }
  char cache[2 * PATH_MAX_LEN + 16] = "";
  if (rc == 0 && getenv("IOSIM_CACHE_DIR") == NULL) { /* the runs share generated schedules (ios_gen.h) */
    snprintf(cache, sizeof cache, "%s/.cache", o->out);
    setenv("IOSIM_CACHE_DIR", cache, 1);
  }
  if (rc == 0) {
    run_points(&w);
    rc = finish_sweep(&w);
  }
  if (rc == 0 && cache[0] != '\0') ios_outdir_remove(cache);    /* kept for a resume until every run is complete */
  if (!o->run_dirs && w.runs_dir[0] != '\0') rmdir(w.runs_dir); /* the runs' staging folder: gone once empty */
  free(w.sel);
  free(w.todo);
  free(w.was_failed);
  free(w.kids);
  ios_db_close(w.db);
  if (lock >= 0) close(lock);
  return rc;
}
