/* iosim calibrate (--tokio SUMMARY... | --darshan DIR|LOG...) [options]: a site's own measurements fitted into a
 * calibration file (python/iosim/calibrate.py; docs/validation.md, "iosim calibrate"). For --darshan, the logs are read
 * here (ios_darshan.h) into the table calibrate.py reads (--jobs-csv). Also the staleness rule `iosim check` applies
 * to the calibration a scenario names (ios_cli_calibration_check). */
#define _GNU_SOURCE /* timegm */
#include "ios_cli.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char calibrate_usage[] =
    "usage: iosim calibrate --tokio SUMMARY.csv[.gz]... [options]\n"
    "       iosim calibrate --darshan DIR|LOG [--darshan DIR|LOG]... [options]\n"
    "  fits the parameters of iosim's file-system model (per-OST capacity, per-configuration efficiency) on a\n"
    "  site's measurements over a rolling window and writes a calibration file (JSON) with its date range, its\n"
    "  data source and its held-out error quantiles; a scenario names it (\"calibration\": \"FILE\"): its runs\n"
    "  set every OST's bandwidth to the fitted per-OST capacity (and, under sharing `interference`, its kappa to\n"
    "  the fitted one where the file system's past chose interference over max-min), iosim compare/whatif print\n"
    "  its held-out error beside every change, and iosim check says when it is stale (docs/validation.md,\n"
    "  \"iosim calibrate\")\n"
    "  --tokio SUMMARY...   TOKIO-ABC summaries (NERSC/tokio-abcutils; jobs with their file system's traffic)\n"
    "  --darshan DIR|LOG    Darshan logs: each log's bytes, I/O time by the slowest rank, start, OSTs\n"
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
    "  -o, --out FILE       the calibration file (default calibration.json)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "  python3 -m iosim.calibrate (python/iosim/calibrate.py) with Debian's python3-pandas\n";

/* Writes one CSV row per log of `paths` [n] to `f` (the --jobs-csv table of python/iosim/calibrate.py): what the log
 * measured (ios_darshan_workload's info: the bytes and the I/O time the simulation is compared with) and when
 * (ios_darshan_read: start and end, the executable, the file system's OSTs). @return IOS_OK or an IOS_E* code with
 * ios_diag_message() naming the log. */
static int write_jobs(FILE *f, char *const *paths, int n, const ios_darshan_options_t *o) {
  ios_workload_t w = {0};
  ios_darshan_info_t *info = calloc((size_t)(n > 0 ? n : 1), sizeof *info);
  if (info == NULL) return IOS_ENOMEM;
  int rc = ios_darshan_workload(paths, n, o, NULL, &w, info);
  fputs("log,start,end,nprocs,bytes_read,bytes_written,io_time_s,osts,fs_osts,exe\n", f);
  for (int i = 0; rc == IOS_OK && i < n; i++) {
    ios_darshan_log_t log;
    rc = ios_darshan_read(paths[i], &log);
    if (rc != IOS_OK) break;
    const char *base = strrchr(paths[i], '/');
    fprintf(f, "\"%s\",%.9f,%.9f,%lld,%.0f,%.0f,%.9g,%d,%lld,\"", base != NULL ? base + 1 : paths[i], log.start_time,
            log.end_time, (long long)info[i].nprocs, info[i].bytes_read, info[i].bytes_written, info[i].time_by_slowest,
            info[i].osts, (long long)log.fs_osts);
    for (const char *c = log.exe != NULL ? log.exe : ""; *c != '\0'; c++) { /* CSV quoting: "" inside quotes */
      if (*c == '"') fputc('"', f);
      fputc(*c == '\n' ? ' ' : *c, f);
    }
    fputs("\"\n", f);
    ios_darshan_free(&log);
  }
  free(info);
  ios_workload_free(&w);
  if (rc == IOS_OK && fflush(f) != 0) {
    ios_diag_set("iosim calibrate", "--darshan", "cannot write the table of the logs: check TMPDIR's free space");
    rc = IOS_EIO;
  }
  return rc;
}

int ios_cli_calibrate(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(calibrate_usage, stdout);
      return 0;
    }
  }
  cJSON *logs = cJSON_CreateArray();
  char **args = calloc((size_t)argc + 4, sizeof *args);
  if (logs == NULL || args == NULL) {
    cJSON_Delete(logs);
    free(args);
    return ios_cli_exit_code(IOS_ENOMEM);
  }
  int nargs = 0, rc = IOS_OK;
  args[nargs++] = argv[0];
  for (int i = 1; i < argc && rc == IOS_OK; i++) {
    const char *v = NULL;
    if (strcmp(argv[i], "--darshan") == 0) {
      if (i + 1 >= argc) {
        ios_diag_set("command line", "--darshan", "needs a value: a Darshan log or a directory of logs");
        rc = IOS_EINVAL;
        break;
      }
      v = argv[++i];
    } else if (strncmp(argv[i], "--darshan=", 10) == 0) {
      v = argv[i] + 10;
    }
    if (v != NULL)
      cJSON_AddItemToArray(logs, cJSON_CreateString(v));
    else
      args[nargs++] = argv[i];
  }
  if (rc != IOS_OK || cJSON_GetArraySize(logs) == 0) { /* --tokio, or bad input: the script alone */
    cJSON_Delete(logs);
    int code = rc != IOS_OK ? ios_cli_exit_code(rc) : ios_cli_run_module("calibrate", argc, argv);
    free(args);
    return code;
  }
  char **paths = NULL;
  int n = 0;
  ios_darshan_options_t o;
  rc = ios_darshan_spec(logs, "command line", &paths, &n, &o);
  char tmp[4200];
  const char *dir = getenv("TMPDIR");
  snprintf(tmp, sizeof tmp, "%s/iosim-calibrate-XXXXXX.csv", dir != NULL && dir[0] != '\0' ? dir : "/tmp");
  int fd = rc == IOS_OK ? mkstemps(tmp, 4) : -1;
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (rc == IOS_OK && f == NULL) {
    ios_diag_set("iosim calibrate", tmp, "cannot create the table of the logs: set TMPDIR to a writable folder");
    rc = IOS_EIO;
    if (fd >= 0) close(fd);
  }
  if (rc == IOS_OK) rc = write_jobs(f, paths, n, &o);
  if (f != NULL) fclose(f);
  int code;
  if (rc == IOS_OK) {
    args[nargs++] = "--jobs-csv";
    args[nargs++] = tmp;
    args[nargs++] = "--source";
    char **all = calloc((size_t)nargs + (size_t)n + 1, sizeof *all);
    if (all == NULL) {
      code = ios_cli_exit_code(IOS_ENOMEM);
    } else {
      memcpy(all, args, (size_t)nargs * sizeof *all);
      for (int i = 0; i < n; i++)
        all[nargs + i] = paths[i];
      code = ios_cli_run_module("calibrate", nargs + n, all);
      free(all);
    }
  } else {
    code = ios_cli_exit_code(rc);
  }
  if (fd >= 0) unlink(tmp);
  ios_darshan_paths_free(paths, n);
  cJSON_Delete(logs);
  free(args);
  return code;
}

/* "YYYY-MM-DDTHH:MM:SSZ" -> s since the epoch; -1 when `s` is not that. */
static double parse_utc(const char *s) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return end != NULL && *end == '\0' ? (double)timegm(&tm) : -1;
}

int ios_cli_calibration_check(const char *scenario_json, double now) {
  cJSON *root = scenario_json != NULL ? cJSON_Parse(scenario_json) : NULL;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "calibration");
  if (!cJSON_IsString(name)) {
    cJSON_Delete(root);
    return IOS_OK;
  }
  const char *path = name->valuestring;
  int rc = IOS_OK;
  char *text = NULL;
  FILE *f = fopen(path, "rb");
  long len = -1;
  if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)len + 1)) != NULL && fread(text, 1, (size_t)len, f) == (size_t)len)
    text[len] = '\0';
  else {
    ios_diag_set(path, "calibration",
                 "cannot be read: give the file iosim calibrate wrote (-o FILE), with a path "
                 "relative to the scenario");
    rc = IOS_EIO;
  }
  if (f != NULL) fclose(f);
  cJSON *cal = rc == IOS_OK ? cJSON_Parse(text) : NULL;
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(cal, "format");
  const cJSON *win = cJSON_GetObjectItemCaseSensitive(cal, "window");
  const cJSON *newest = cJSON_GetObjectItemCaseSensitive(win, "newest_measurement");
  const cJSON *after = cJSON_GetObjectItemCaseSensitive(cal, "stale_after_days");
  double t = cJSON_IsString(newest) ? parse_utc(newest->valuestring) : -1;
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
