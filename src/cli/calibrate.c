/* iosim calibrate (--tokio SUMMARY... | --darshan DIR|LOG...) [options]: a site's own measurements fitted into a
 * calibration file (python/iosim/calibrate.py; docs/validation.md, "iosim calibrate"). For --darshan, the logs are read
 * here (ios_darshan.h) into the table calibrate.py reads (--jobs-csv). Also the staleness rule `iosim check` applies
 * to the calibration a scenario names (ios_cli_calibration_check). */
#define _GNU_SOURCE /* strptime, mkstemps */
#include "ios_args.h"
#include "ios_calibration.h"
#include "ios_cli.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char calibrate_usage[] =
    "usage: iosim calibrate --tokio SUMMARY.csv[.gz]... [options]\n"
    "       iosim calibrate --darshan DIR|LOG [--darshan DIR|LOG]... [options]\n"
    "  fits the parameters of iosim's file-system model (per-OST capacity, per-configuration efficiency, the\n"
    "  sharing model) on a site's measurements over a rolling window and writes a calibration file (JSON) with its\n"
    "  date range, its data source, the platform it applies to and its held-out error quantiles; a scenario names\n"
    "  it (\"calibration\": \"FILE\"): on the platform it was made for (--platform) its runs set every OST's\n"
    "  bandwidth to the fitted per-OST capacity (elsewhere only with \"apply_capacity\": true), under the sharing\n"
    "  policy the file system's past chose they get its calibrated parameters, iosim compare/whatif print its\n"
    "  error band beside every change, and iosim check says when it is stale (docs/validation.md, \"iosim\n"
    "  calibrate\")\n"
    "  --tokio SUMMARY...   TOKIO-ABC summaries (NERSC/tokio-abcutils; jobs with their file system's traffic)\n"
    "  --darshan DIR|LOG    Darshan logs: each log's bytes, I/O time by the slowest rank, start, OSTs\n"
    "  --skip-bad           --darshan: logs that cannot be read are listed and left out (else they stop the run)\n"
    "  --platform XML       the platform the calibration applies to (its fingerprint is recorded: runs on that\n"
    "                       very file get the fitted capacities; any other platform gets no capacity change)\n"
    "  --fs NAME            only the jobs of this file system (TOKIO-ABC: e.g. scratch1; Darshan: lustre-N-osts,\n"
    "                       or fs for logs without a Lustre layout): a run applies exactly one file system\n"
    "  --days N             the window, days (default 30);  --until DATE  its end (default: the newest measurement)\n"
    "  --split DATE         TOKIO-ABC: the held-out error's split (YYYY-MM-DD, UTC): q and the sharing model\n"
    "                       (interference or max-min) chosen per file system on the jobs before it, scored on the\n"
    "                       jobs from it on (default: 00:00 UTC of the input's middle day)\n"
    "  --gate none|record|fit  TOKIO-ABC: the contention gate (C kept only where a day-block sign test on the\n"
    "                       window says the contention term beat the peak); always recorded in the file, applied\n"
    "                       to the held-out error only when given, with max-min sharing (default none: the\n"
    "                       first half chose no gate)\n"
    "  --window fixed|adaptive  TOKIO-ABC: a configuration's P from the --days window (fixed, the default) or\n"
    "                       from its runs since its last level shift, detected online (adaptive; its history's\n"
    "                       start written per configuration; C still fitted on the --days window)\n"
    "  --stale-after DAYS   days after the newest measurement when iosim check calls it stale (default: --days)\n"
    "  -o, --out FILE       the calibration file (default calibration.json), written only when the fit succeeds\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "  The command line is checked before any measurement is read; exit 2 with the fix on bad input.\n"
    "  python3 -m iosim.calibrate (python/iosim/calibrate.py) with Debian's python3-pandas\n";

/* What the command line asks (every value checked by parse_args before any measurement is read). */
typedef struct {
  char **tokio; /* [ntokio] summaries */
  int ntokio;
  cJSON *logs; /* --darshan values (strings) */
  int skip_bad;
  const char *days, *until, *split, *gate, *window, *stale_after, *out, *platform, *fs;
  char fingerprint[32]; /* of --platform */
} cal_args_t;

/* A positive finite number of days, else a message naming the option. */
static int check_days(const char *opt, const char *v) {
  char *end;
  double d = strtod(v, &end);
  if (end == v || *end != '\0' || !(d > 0) || !isfinite(d)) {
    ios_diag_set("command line", opt, "'%s' is not a positive number of days; fix: e.g. %s 30", v, opt);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), else a message naming the option. */
static int check_date(const char *opt, const char *v) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *end = strptime(v, "%Y-%m-%d", &tm);
  if (end != NULL && *end != '\0') {
    memset(&tm, 0, sizeof tm);
    end = strptime(v, "%Y-%m-%dT%H:%M:%SZ", &tm);
  }
  if (end == NULL || *end != '\0') {
    ios_diag_set("command line", opt, "'%s' is not a date; fix: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)", v);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* One of the NULL-terminated `words`, else a message naming the option and them. */
static int check_word(const char *opt, const char *v, const char *const *words) {
  char list[128] = "";
  for (int i = 0; words[i] != NULL; i++) {
    if (strcmp(v, words[i]) == 0) return IOS_OK;
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", words[i]);
  }
  ios_diag_set("command line", opt, "'%s' is not one of %s", v, list);
  return IOS_EINVAL;
}

/* A readable regular file, else a message naming the option. */
static int check_file(const char *opt, const char *v, const char *what) {
  struct stat st;
  FILE *f = stat(v, &st) == 0 && S_ISREG(st.st_mode) ? fopen(v, "rb") : NULL;
  if (f == NULL) {
    ios_diag_set("command line", opt, "'%s' is not a readable file; fix: give %s", v, what);
    return IOS_EINVAL;
  }
  fclose(f);
  return IOS_OK;
}

/* The output file: not empty, not a directory, in a folder that is one (or will be made) and writable. */
static int check_out(const char *v) {
  struct stat st;
  char dir[4200];
  if (v[0] == '\0' || v[strlen(v) - 1] == '/' || (stat(v, &st) == 0 && S_ISDIR(st.st_mode))) {
    ios_diag_set("command line", "-o", "'%s' is a folder or empty; fix: a file name, e.g. -o site.json", v);
    return IOS_EINVAL;
  }
  snprintf(dir, sizeof dir, "%s", v);
  char *slash = strrchr(dir, '/');
  if (slash == NULL)
    snprintf(dir, sizeof dir, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  /* the nearest existing folder above must be a writable folder: calibrate makes the missing ones at the end */
  while (stat(dir, &st) != 0 && (slash = strrchr(dir, '/')) != NULL && slash != dir)
    *slash = '\0';
  if (stat(dir, &st) != 0) snprintf(dir, sizeof dir, "%s", v[0] == '/' ? "/" : ".");
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
    ios_diag_set("command line", "-o", "'%s': '%s' is not a writable folder; fix: -o in a folder you can write", v,
                 dir);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

enum {
  OPT_TOKIO = IOS_OPT_FIRST_FREE,
  OPT_DARSHAN,
  OPT_SKIP_BAD,
  OPT_PLATFORM,
  OPT_FS,
  OPT_DAYS,
  OPT_UNTIL,
  OPT_SPLIT,
  OPT_GATE,
  OPT_WINDOW,
  OPT_STALE
};

/* Reads and checks the whole command line (nothing read but the --platform file's fingerprint). @return 0 with `a`
 * filled; -1 for --help/--version (printed: exit 0); 2 after the message and the usage on standard error. */
static int parse_args(int argc, char **argv, cal_args_t *a) {
  static const struct option opts[] = {{"tokio", required_argument, NULL, OPT_TOKIO},
                                       {"darshan", required_argument, NULL, OPT_DARSHAN},
                                       {"skip-bad", no_argument, NULL, OPT_SKIP_BAD},
                                       {"platform", required_argument, NULL, OPT_PLATFORM},
                                       {"fs", required_argument, NULL, OPT_FS},
                                       {"days", required_argument, NULL, OPT_DAYS},
                                       {"until", required_argument, NULL, OPT_UNTIL},
                                       {"split", required_argument, NULL, OPT_SPLIT},
                                       {"gate", required_argument, NULL, OPT_GATE},
                                       {"window", required_argument, NULL, OPT_WINDOW},
                                       {"stale-after", required_argument, NULL, OPT_STALE},
                                       {"out", required_argument, NULL, 'o'},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  static const char *const gates[] = {"none", "record", "fit", NULL}, *const windows[] = {"fixed", "adaptive", NULL};
  int c, rc = IOS_OK, h;
  a->out = "calibration.json";
  optind = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    if ((h = ios_cli_help_version(c, calibrate_usage)) >= 0) return -1;
    switch (c) {
    case OPT_TOKIO:
      a->tokio[a->ntokio++] = optarg;
      break;
    case OPT_DARSHAN:
      cJSON_AddItemToArray(a->logs, cJSON_CreateString(optarg));
      break;
    case OPT_SKIP_BAD:
      a->skip_bad = 1;
      break;
    case OPT_PLATFORM:
      a->platform = optarg;
      break;
    case OPT_FS:
      a->fs = optarg;
      break;
    case OPT_DAYS:
      a->days = optarg;
      break;
    case OPT_UNTIL:
      a->until = optarg;
      break;
    case OPT_SPLIT:
      a->split = optarg;
      break;
    case OPT_GATE:
      a->gate = optarg;
      break;
    case OPT_WINDOW:
      a->window = optarg;
      break;
    case OPT_STALE:
      a->stale_after = optarg;
      break;
    case 'o':
      a->out = optarg;
      break;
    default:
      return ios_args_error(c, argv, "calibrate", calibrate_usage);
    }
  }
  /* --tokio A B C: the arguments after it are summaries too */
  for (; optind < argc && a->ntokio > 0; optind++)
    a->tokio[a->ntokio++] = argv[optind];
  if (optind < argc)
    return ios_args_bad(calibrate_usage,
                        "iosim calibrate: unexpected argument '%s'; fix: --darshan before each log "
                        "or folder, --tokio before the summaries",
                        argv[optind]);
  int ndarshan = cJSON_GetArraySize(a->logs);
  if ((a->ntokio > 0) == (ndarshan > 0))
    return ios_args_bad(calibrate_usage, "iosim calibrate: give --tokio SUMMARY... or --darshan DIR|LOG, one of them; "
                                         "fix: e.g. iosim calibrate --darshan logs/ -o site.json");
  const char *tokio_only = ndarshan == 0                                          ? NULL
                           : a->split != NULL                                     ? "--split"
                           : a->gate != NULL && strcmp(a->gate, "none") != 0      ? "--gate"
                           : a->window != NULL && strcmp(a->window, "fixed") != 0 ? "--window"
                                                                                  : NULL;
  if (tokio_only != NULL)
    return ios_args_bad(calibrate_usage,
                        "iosim calibrate: %s %s applies to TOKIO-ABC summaries (--tokio) only; fix: "
                        "drop it with --darshan",
                        tokio_only,
                        tokio_only[2] == 's'   ? a->split
                        : tokio_only[2] == 'g' ? a->gate
                                               : a->window);
  if (a->skip_bad && ndarshan == 0)
    return ios_args_bad(calibrate_usage, "iosim calibrate: --skip-bad applies to Darshan logs (--darshan) only");
  for (int i = 0; rc == IOS_OK && i < a->ntokio; i++)
    rc = check_file("--tokio", a->tokio[i], "a TOKIO-ABC summary (.csv or .csv.gz)");
  if (rc == IOS_OK && a->days != NULL) rc = check_days("--days", a->days);
  if (rc == IOS_OK && a->stale_after != NULL) rc = check_days("--stale-after", a->stale_after);
  if (rc == IOS_OK && a->until != NULL) rc = check_date("--until", a->until);
  if (rc == IOS_OK && a->split != NULL) rc = check_date("--split", a->split);
  if (rc == IOS_OK && a->gate != NULL) rc = check_word("--gate", a->gate, gates);
  if (rc == IOS_OK && a->window != NULL) rc = check_word("--window", a->window, windows);
  if (rc == IOS_OK && a->fs != NULL && a->fs[0] == '\0') {
    ios_diag_set("command line", "--fs", "is empty; fix: a file system's name (the calibration's file_systems[].fs)");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK) rc = check_out(a->out);
  if (rc == IOS_OK && a->platform != NULL &&
      (rc = check_file("--platform", a->platform, "a SimGrid platform XML")) == IOS_OK)
    rc = ios_calibration_fingerprint(a->platform, a->fingerprint, sizeof a->fingerprint);
  if (rc != IOS_OK) return ios_args_bad(calibrate_usage, "%s", ios_diag_message());
  return 0;
}

/* Writes one CSV row per log of `paths` [n] to `f` (the --jobs-csv table of python/iosim/calibrate.py): what the log
 * measured (ios_darshan_workload's info: the bytes and the I/O time the simulation is compared with) and when
 * (ios_darshan_read: start and end, the executable, the file system's OSTs). Each log is read on its own: one that
 * cannot be read is listed on standard error ("iosim: skipped:" with skip_bad, else "iosim: refused:"), and with
 * skip_bad left out. @return IOS_OK, or an IOS_E* code with ios_diag_message() naming the logs refused and the fix. */
static int write_jobs(FILE *f, char *const *paths, int n, const ios_darshan_options_t *o, int skip_bad) {
  ios_workload_t w = {0};
  ios_darshan_info_t info;
  int rc = IOS_OK, nbad = 0, nok = 0;
  char first[1024] = "";
  fputs("log,start,end,nprocs,bytes_read,bytes_written,io_time_s,osts,fs_osts,exe\n", f);
  for (int i = 0; rc == IOS_OK && i < n; i++) {
    ios_darshan_log_t log;
    int lrc = ios_darshan_workload(&paths[i], 1, o, NULL, &w, &info);
    if (lrc == IOS_OK) lrc = ios_darshan_read(paths[i], &log);
    if (lrc == IOS_EINVAL || lrc == IOS_EIO) { /* this log only: listed, and the others are read */
      fprintf(stderr, "iosim: %s: %s\n", skip_bad ? "skipped" : "refused", ios_diag_message());
      if (nbad++ == 0) snprintf(first, sizeof first, "%s", ios_diag_message());
      continue;
    }
    if ((rc = lrc) != IOS_OK) break;
    nok++;
    const char *base = strrchr(paths[i], '/');
    fprintf(f, "\"%s\",%.9f,%.9f,%lld,%.0f,%.0f,%.9g,%d,%lld,\"", base != NULL ? base + 1 : paths[i], log.start_time,
            log.end_time, (long long)info.nprocs, info.bytes_read, info.bytes_written, info.time_by_slowest, info.osts,
            (long long)log.fs_osts);
    for (const char *c = log.exe != NULL ? log.exe : ""; *c != '\0'; c++) { /* CSV quoting: "" inside quotes */
      if (*c == '"') fputc('"', f);
      fputc(*c == '\n' ? ' ' : *c, f);
    }
    fputs("\"\n", f);
    ios_darshan_free(&log);
  }
  ios_workload_free(&w);
  if (rc == IOS_OK && nbad > 0 && (!skip_bad || nok == 0)) {
    ios_diag_set("iosim calibrate", "--darshan", "%d of %d Darshan logs refused (each listed above), the first: %s; %s",
                 nbad, n, first,
                 nok == 0 ? "none is left to calibrate on: give readable logs"
                          : "fix or remove them, or calibrate on the others: --skip-bad");
    rc = IOS_EINVAL;
  } else if (rc == IOS_OK && nbad > 0) {
    fprintf(stderr,
            "iosim: calibrate: skipped %d of %d Darshan logs (each listed above), calibrating on the other %d\n", nbad,
            n, nok);
  }
  if (rc == IOS_OK && fflush(f) != 0) {
    ios_diag_set("iosim calibrate", "--darshan", "cannot write the table of the logs: check TMPDIR's free space");
    rc = IOS_EIO;
  }
  return rc;
}

/* Adds "--OPT VALUE" to args when value is given. */
static void add_opt(char **args, int *n, const char *opt, const char *value) {
  if (value == NULL) return;
  args[(*n)++] = (char *)opt;
  args[(*n)++] = (char *)value;
}

int ios_cli_calibrate(int argc, char **argv) {
  cal_args_t a;
  memset(&a, 0, sizeof a);
  a.logs = cJSON_CreateArray();
  a.tokio = calloc((size_t)argc + 1, sizeof *a.tokio);
  char **args = calloc((size_t)(2 * argc) + 32, sizeof *args);
  if (a.logs == NULL || a.tokio == NULL || args == NULL) {
    cJSON_Delete(a.logs);
    free(a.tokio);
    free(args);
    return ios_cli_exit_code(IOS_ENOMEM);
  }
  int code = parse_args(argc, argv, &a), n = 0, fd = -1, rc = IOS_OK;
  char tmp[4200] = "", **paths = NULL;
  int npaths = 0;
  if (code != 0) {
    code = code < 0 ? 0 : code;
    goto done;
  }
  args[n++] = argv[0];
  if (a.ntokio > 0) {
    args[n++] = "--tokio";
    for (int i = 0; i < a.ntokio; i++)
      args[n++] = a.tokio[i];
  }
  add_opt(args, &n, "--days", a.days);
  add_opt(args, &n, "--until", a.until);
  add_opt(args, &n, "--split", a.split);
  add_opt(args, &n, "--gate", a.gate);
  add_opt(args, &n, "--window", a.window);
  add_opt(args, &n, "--stale-after", a.stale_after);
  add_opt(args, &n, "--fs", a.fs);
  add_opt(args, &n, "--out", a.out);
  add_opt(args, &n, "--platform", a.platform);
  add_opt(args, &n, "--platform-fingerprint", a.platform != NULL ? a.fingerprint : NULL);
  if (a.ntokio > 0) {
    code = ios_cli_run_module("calibrate", n, args);
    goto done;
  }
  ios_darshan_options_t o;
  rc = ios_darshan_spec(a.logs, "command line", &paths, &npaths, &o);
  const char *dir = getenv("TMPDIR");
  snprintf(tmp, sizeof tmp, "%s/iosim-calibrate-XXXXXX.csv", dir != NULL && dir[0] != '\0' ? dir : "/tmp");
  fd = rc == IOS_OK ? mkstemps(tmp, 4) : -1;
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (rc == IOS_OK && f == NULL) {
    ios_diag_set("iosim calibrate", tmp, "cannot create the table of the logs: set TMPDIR to a writable folder");
    rc = IOS_EIO;
    if (fd >= 0) close(fd);
  }
  if (rc == IOS_OK) rc = write_jobs(f, paths, npaths, &o, a.skip_bad);
  if (f != NULL) fclose(f);
  if (rc == IOS_OK) {
    char **all = calloc((size_t)n + (size_t)npaths + 4, sizeof *all);
    if (all == NULL) {
      code = ios_cli_exit_code(IOS_ENOMEM);
    } else {
      memcpy(all, args, (size_t)n * sizeof *all);
      all[n] = "--jobs-csv";
      all[n + 1] = tmp;
      all[n + 2] = "--source";
      for (int i = 0; i < npaths; i++)
        all[n + 3 + i] = paths[i];
      code = ios_cli_run_module("calibrate", n + 3 + npaths, all);
      free(all);
    }
  } else {
    code = ios_cli_exit_code(rc);
  }
  if (fd >= 0) unlink(tmp);
done:
  ios_darshan_paths_free(paths, npaths);
  cJSON_Delete(a.logs);
  free(a.tokio);
  free(args);
  return code;
}

int ios_cli_calibration_check(const char *scenario_json, double now) {
  cJSON *root = scenario_json != NULL ? cJSON_Parse(scenario_json) : NULL;
  const char *path = NULL;
  ios_cal_apply_t apply;
  int rc = ios_calibration_spec(cJSON_GetObjectItemCaseSensitive(root, "calibration"), "scenario", &path, &apply);
  if (rc != IOS_OK || path == NULL) {
    cJSON_Delete(root);
    return rc;
  }
  char *text = ios_read_file(path, NULL);
  if (text == NULL) {
    ios_diag_set(path, "calibration",
                 "cannot be read: give the file iosim calibrate wrote (-o FILE), with a path "
                 "relative to the scenario");
    rc = IOS_EIO;
  }
  cJSON *cal = rc == IOS_OK ? cJSON_Parse(text) : NULL;
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(cal, "format");
  const cJSON *win = cJSON_GetObjectItemCaseSensitive(cal, "window");
  const cJSON *newest = cJSON_GetObjectItemCaseSensitive(win, "newest_measurement");
  const cJSON *after = cJSON_GetObjectItemCaseSensitive(cal, "stale_after_days");
  double t = cJSON_IsString(newest) ? ios_calibration_parse_utc(newest->valuestring) : -1;
  if (rc == IOS_OK && (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "iosim-calibration/1") != 0)) {
    ios_diag_set(path, "format",
                 "is not \"iosim-calibration/1\": not a calibration file; fix: write it with "
                 "iosim calibrate");
    rc = IOS_EINVAL;
  } else if (rc == IOS_OK && t < 0) {
    ios_diag_set(path, "window.newest_measurement",
                 "missing or not YYYY-MM-DDTHH:MM:SSZ; fix: write the file with "
                 "iosim calibrate");
    rc = IOS_EINVAL;
  } else if (rc == IOS_OK && !(cJSON_IsNumber(after) && after->valuedouble > 0)) {
    ios_diag_set(path, "stale_after_days", "missing or not a positive number of days; fix: e.g. 30");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK) {
    double age = (now - t) / 86400.0;
    if (age > after->valuedouble)
      fprintf(stderr,
              "iosim: warning: calibration %s is stale: its newest measurement (%s) is %.1f days old, more than its "
              "stale_after_days (%g); fix: iosim calibrate again on recent measurements\n",
              path, newest->valuestring, age, after->valuedouble);
    else
      printf("calibration %s: newest measurement %s, %.1f days old (stale after %g days)\n", path, newest->valuestring,
             age, after->valuedouble);
  }
  cJSON_Delete(cal);
  free(text);
  cJSON_Delete(root);
  return rc;
}
