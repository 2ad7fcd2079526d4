/* iosim whatif SCENARIO --vary key=v1,v2[,...] [-o DIR] [options]: a what-if in one command. Runs the scenario as it
 * is (the base) and once per value of one key (each variant = the base with --set key=value), each run in its own
 * process (fork, then ios_cli_run: one SimGrid engine per process), then prints `iosim compare` of the runs
 * (python/iosim/compare.py). Layout: DIR/base/, DIR/KEY=VALUE/ (each an `iosim run` output directory with its summary
 * in summary.txt), DIR/compare.csv, DIR/compare.html. */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_fs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char whatif_usage[] =
    "usage: iosim whatif SCENARIO --vary key=v1,v2[,...] [-o DIR] [--set key=value]... [--csv FILE] [--html FILE]\n"
    "                    [--allow-different] [--skip-bad] [--cfg=name:value]... [--log=...]...\n"
    "  runs SCENARIO as it is (the base) and once per value of KEY (= iosim run SCENARIO --set KEY=VALUE), each in\n"
    "  its own process, then prints iosim compare of the runs: per job and in total the I/O time and end time and\n"
    "  their change in % against the base, with the model error of the scenario's calibration (\"calibration\":\n"
    "  its held-out error quantiles) and the band of each change, or \"no calibration: error not validated\"\n"
    "  (iosim compare --help; docs/whatif.md)\n"
    "  --vary key=v1,v2   the one scenario key to change (dotted, as --set) and its values, comma-separated (a comma\n"
    "                     inside [...], {...} or \"...\" does not split: --vary 'a=[1,2],[3,4]')\n"
    "  -o, --out DIR      where the runs go (default whatif): DIR/base, DIR/KEY=VALUE, DIR/compare.csv and .html\n"
    "  --set key=value    applied to every run, the base included (repeatable)\n"
    "  --csv FILE, --html FILE   the comparison's table and page (default DIR/compare.csv, DIR/compare.html)\n"
    "  --allow-different  compare even when the variants moved other volumes (iosim compare --allow-different)\n"
    "  --skip-bad         every run leaves out the jobs that cannot run on its platform and the Darshan logs that\n"
    "                     cannot be read, each listed and counted (= --set workload.skip_bad=true)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "Exit codes: 0 ok, 2 bad input (nothing is simulated when a variant does not validate), 1 a run failed.\n";

enum { OPT_VARY = IOS_OPT_FIRST_FREE, OPT_CSV, OPT_HTML, OPT_ALLOW, OPT_SKIP_BAD };

typedef struct {
  const char *scenario, *vary, *out, *csv, *html;
  int allow_different;
  int nsets;
  char **sets; /**< [nsets] borrowed from argv */
  ios_sg_flags_t sg;
  char *key;     /**< owned: the varied key */
  int nvalues;   /**< values of the key */
  char **values; /**< [nvalues] owned */
} whatif_args_t;

static void whatif_args_free(whatif_args_t *a) {
  free(a->sets);
  free(a->key);
  for (int i = 0; i < a->nvalues; i++)
    free(a->values[i]);
  free(a->values);
  ios_sg_flags_free(&a->sg);
}

/* Splits "key=v1,v2,..." into a->key and a->values: commas inside brackets, braces or double quotes do not split.
 * @return -1 to go on, else the exit code (2) after a message. */
static int split_vary(whatif_args_t *a) {
  const char *eq = strchr(a->vary, '=');
  if (eq == NULL || eq == a->vary || eq[1] == '\0')
    return ios_args_bad(whatif_usage,
                        "whatif: --vary '%s': expected key=v1,v2 (e.g. --vary platform.ost_bw=1.5GBps,3GBps)", a->vary);
  a->key = strndup(a->vary, (size_t)(eq - a->vary));
  a->values = calloc(strlen(eq) + 1, sizeof *a->values);
  if (a->key == NULL || a->values == NULL) return 1;
  const char *p = eq + 1, *start = p;
  int depth = 0, quoted = 0;
  for (;; p++) {
    if (*p == '"' && (p == start || p[-1] != '\\')) quoted = !quoted;
    if (!quoted && (*p == '[' || *p == '{')) depth++;
    if (!quoted && (*p == ']' || *p == '}')) depth--;
    if (*p == '\0' || (*p == ',' && depth == 0 && !quoted)) {
      if (p == start)
        return ios_args_bad(whatif_usage, "whatif: --vary '%s': an empty value; fix: key=v1,v2 without empty items",
                            a->vary);
      if ((a->values[a->nvalues++] = strndup(start, (size_t)(p - start))) == NULL) return 1;
      if (*p == '\0') break;
      start = p + 1;
    }
  }
  return -1;
}

/* Parses `iosim whatif SCENARIO [options]`. @return -1 to go on, else the exit code. */
static int parse_whatif(int argc, char **argv, whatif_args_t *a) {
  static const struct option opts[] = {
      {"vary", required_argument, NULL, OPT_VARY},     {"out", required_argument, NULL, 'o'},
      {"set", required_argument, NULL, IOS_OPT_SET},   {"csv", required_argument, NULL, OPT_CSV},
      {"html", required_argument, NULL, OPT_HTML},     {"allow-different", no_argument, NULL, OPT_ALLOW},
      {"skip-bad", no_argument, NULL, OPT_SKIP_BAD},   {"cfg", required_argument, NULL, IOS_OPT_CFG},
      {"log", required_argument, NULL, IOS_OPT_LOG},   {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, IOS_OPT_VERSION}, {NULL, 0, NULL, 0},
  };
  a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
  if (a->sets == NULL) return 1;
  a->out = "whatif";
  int c, rc;
  optind = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    if ((rc = ios_cli_help_version(c, whatif_usage)) >= 0) return rc;
    switch (c) {
    case OPT_VARY:
      if (a->vary != NULL)
        return ios_args_bad(whatif_usage,
                            "whatif: --vary given twice ('%s', '%s'): a what-if changes one key; fix: "
                            "one --vary, and --set for what every run shares",
                            a->vary, optarg);
      a->vary = optarg;
      break;
    case IOS_OPT_SET:
      a->sets[a->nsets++] = optarg;
      break;
    case 'o':
      a->out = optarg;
      break;
    case OPT_CSV:
      a->csv = optarg;
      break;
    case OPT_HTML:
      a->html = optarg;
      break;
    case OPT_ALLOW:
      a->allow_different = 1;
      break;
    case OPT_SKIP_BAD:
      a->sets[a->nsets++] = "workload.skip_bad=true";
      break;
    case IOS_OPT_CFG:
    case IOS_OPT_LOG:
      if ((rc = ios_sg_flags_add(&a->sg, c == IOS_OPT_LOG, optarg)) != 0) return rc;
      break;
    default:
      return ios_args_error(c, argv, "whatif", whatif_usage);
    }
  }
  if (optind < argc) a->scenario = argv[optind++];
  if (optind < argc) return ios_args_bad(whatif_usage, "iosim whatif: unexpected argument '%s'", argv[optind]);
  if (a->scenario == NULL) return ios_args_bad(whatif_usage, "iosim whatif needs a scenario file");
  if (a->vary == NULL)
    return ios_args_bad(whatif_usage,
                        "iosim whatif needs --vary key=v1,v2 (e.g. --vary platform.ost_bw=1.5GBps,3GBps)");
  return split_vary(a);
}

/* A directory name for a label: characters other than letters, digits and ._=+- become '_'. Owned by the caller. */
static char *dir_name(const char *label) {
  char *d = strdup(label);
  for (char *p = d; p != NULL && *p; p++)
    if (!isalnum((unsigned char)*p) && strchr("._=+-", *p) == NULL) *p = '_';
  return d;
}

/* Runs `iosim run|check SCENARIO --set S... [--set extra] -o outdir` in a child process (ios_cli_run), its standard
 * output into `stdout_path` (NULL: /dev/null). @return the child's exit code (1 when it could not run). */
static int run_child(const whatif_args_t *a, const char *extra, const char *outdir, const char *stdout_path,
                     int check) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(stdout_path != NULL ? stdout_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
      fprintf(stderr, "iosim whatif: error: %s: %s; fix: a writable output directory (-o)\n", stdout_path,
              strerror(errno));
      _exit(2);
    }
    dup2(fd, STDOUT_FILENO);
    close(fd);
    int n = 0;
    char **v = calloc((size_t)(2 * a->nsets + a->sg.n + 10), sizeof *v);
    size_t olen = strlen(outdir) + 16;
    char *oset = malloc(olen);
    if (v == NULL || oset == NULL) _exit(1);
    snprintf(oset, olen, "output.dir=%s", outdir);
    v[n++] = check ? "check" : "run";
    v[n++] = (char *)a->scenario;
    for (int i = 0; i < a->nsets; i++) {
      v[n++] = "--set";
      v[n++] = a->sets[i];
    }
    if (extra != NULL) {
      v[n++] = "--set";
      v[n++] = (char *)extra;
    }
    v[n++] = "--set";
    v[n++] = oset;
    for (int i = 0; i < a->sg.n; i++)
      v[n++] = a->sg.flags[i];
    v[n] = NULL;
    int rc = ios_cli_run(n, v, check);
    fflush(stdout);
    _exit(rc);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) {
    fprintf(stderr, "iosim whatif: error: cannot start a run: %s\n", strerror(errno));
    return 1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int ios_cli_whatif(int argc, char **argv) {
  whatif_args_t a;
  memset(&a, 0, sizeof a);
  int rc = parse_whatif(argc, argv, &a);
  if (rc >= 0) {
    whatif_args_free(&a);
    return rc;
  }
  int nruns = a.nvalues + 1;
  char **labels = calloc((size_t)nruns, sizeof *labels), **sets = calloc((size_t)nruns, sizeof *sets);
  char **dirs = calloc((size_t)nruns, sizeof *dirs);
  rc = labels == NULL || sets == NULL || dirs == NULL ? 1 : 0;
  for (int i = 0; rc == 0 && i < nruns; i++) { /* run 0 is the base: no extra --set */
    size_t n = strlen(a.key) + (i > 0 ? strlen(a.values[i - 1]) : 0) + 8;
    labels[i] = malloc(n);
    if (labels[i] == NULL) {
      rc = 1;
      break;
    }
    if (i == 0)
      snprintf(labels[i], n, "base");
    else {
      snprintf(labels[i], n, "%s=%s", a.key, a.values[i - 1]);
      sets[i] = strdup(labels[i]);
      for (char *p = labels[i]; *p; p++) /* the labels travel comma-separated to compare.py */
        if (*p == ',') *p = ';';
    }
    char *d = dir_name(labels[i]);
    size_t dn = strlen(a.out) + (d != NULL ? strlen(d) : 0) + 2;
    dirs[i] = malloc(dn);
    if (d == NULL || dirs[i] == NULL || (i > 0 && sets[i] == NULL)) rc = 1;
    if (dirs[i] != NULL && d != NULL) snprintf(dirs[i], dn, "%s/%s", a.out, d);
    free(d);
  }
  for (int i = 1; rc == 0 && i < nruns; i++) /* every variant validates before anything is simulated */
    if (strcmp(dirs[i], dirs[0]) == 0 || (i > 1 && strcmp(dirs[i], dirs[i - 1]) == 0)) {
      fprintf(stderr,
              "iosim whatif: error: --vary: the value '%s' gives the same directory as another run; fix: "
              "distinct values\n",
              a.values[i - 1]);
      rc = 2;
    }
  for (int i = 0; rc == 0 && i < nruns; i++) {
    rc = run_child(&a, sets[i], dirs[i], NULL, 1);
    if (rc != 0)
      fprintf(stderr, "iosim whatif: error: the %s run does not validate (above); nothing was simulated\n", labels[i]);
  }
  if (rc == 0 && ios_mkdirs(a.out) != 0) {
    fprintf(stderr, "iosim whatif: error: %s: cannot create the directory (%s); fix: -o a writable path\n", a.out,
            strerror(errno));
    rc = 2;
  }
  for (int i = 0; rc == 0 && i < nruns; i++) {
    if (ios_mkdirs(dirs[i]) != 0) {
      fprintf(stderr, "iosim whatif: error: %s: cannot create the directory (%s)\n", dirs[i], strerror(errno));
      rc = 2;
      break;
    }
    char summary[4400];
    snprintf(summary, sizeof summary, "%s/summary.txt", dirs[i]);
    fprintf(stderr, "iosim whatif: run %d of %d: %s -> %s\n", i + 1, nruns, labels[i], dirs[i]);
    rc = run_child(&a, sets[i], dirs[i], summary, 0);
    if (rc != 0) fprintf(stderr, "iosim whatif: error: the %s run failed (exit %d; above)\n", labels[i], rc);
  }
  if (rc == 0) { /* the comparison: python/iosim/compare.py */
    size_t ln = 1;
    for (int i = 0; i < nruns; i++)
      ln += strlen(labels[i]) + 1;
    char *joined = calloc(ln, 1), csv[4400], html[4400];
    snprintf(csv, sizeof csv, "%s/compare.csv", a.out);
    snprintf(html, sizeof html, "%s/compare.html", a.out);
    char **v = calloc((size_t)nruns + 12, sizeof *v);
    if (joined == NULL || v == NULL)
      rc = 1;
    else {
      int n = 0;
      v[n++] = "compare";
      for (int i = 0; i < nruns; i++) {
        v[n++] = dirs[i];
        strcat(joined, labels[i]);
        if (i + 1 < nruns) strcat(joined, ",");
      }
      v[n++] = "--labels";
      v[n++] = joined;
      v[n++] = "--csv";
      v[n++] = a.csv != NULL ? (char *)a.csv : csv;
      v[n++] = "--html";
      v[n++] = a.html != NULL ? (char *)a.html : html;
      if (a.allow_different) v[n++] = "--allow-different";
      v[n] = NULL;
      rc = ios_cli_run_module("compare", n, v);
    }
    free(v);
    free(joined);
  }
  for (int i = 0; i < nruns; i++) {
    if (labels != NULL) free(labels[i]);
    if (sets != NULL) free(sets[i]);
    if (dirs != NULL) free(dirs[i]);
  }
  free(labels);
  free(sets);
  free(dirs);
  whatif_args_free(&a);
  return rc;
}
