/* iosim compare RUN_DIR RUN_DIR... [options]: did the change help? Per job and in total, the I/O time and end time of
 * several runs of the same jobs and their change against the first, written in Python (python/iosim/compare.py: pandas
 * for the table, plotly for the page), with the model error of the calibration the runs used and the band of each
 * change it implies (python/iosim/compare.py's change_band). */
#include "ios_cli.h"

#include <stdio.h>
#include <string.h>

static const char compare_usage[] =
    "usage: iosim compare RUN_DIR RUN_DIR... [--labels L1,L2,...] [--csv FILE] [--html FILE] [--allow-different]\n"
    "  per job and in total: I/O time (io_time_s), end time (end_s) and their change in % against the first run\n"
    "  (negative = faster), the resource that bound each job most (bound_by, bound_share; n/a when apps.csv has no\n"
    "  such column), and whether the runs are comparable (same jobs and volumes, complete, same replay mode).\n"
    "  The answer to \"did it help\" is the change of each job's I/O time and of the total (docs/outputs.md).\n"
    "  Beside it, the model's error (the held-out APE quantiles (median, p75, p90: held_out_error)) of the "
    "calibration\n"
    "  each run used (its scenario's \"calibration\", recorded in results.json), and the band of each change: with\n"
    "  a run's error within its quantile a, its true time lies in [1-a, 1+a] x the simulated one, so a change of\n"
    "  simulated ratio r lies in r(1-a_run)/(1+a_base)-1 .. r(1+a_run)/(1-a_base)-1 (a bound: both runs' errors\n"
    "  at the quantile in opposite directions; it holds with probability >= 2q-1, p90: 80 %, whatever their\n"
    "  dependence, if the jobs err as the held-out jobs did). Runs without one: \"no calibration: error not\n"
    "  validated\"; runs with different calibrations: said, each run's own quantiles (docs/outputs.md).\n"
    "  RUN_DIR: an `iosim run` output directory (results.json, apps.csv), or a run inside a campaign database,\n"
    "  DIR/campaign.db#RUN_ID (or DIR#RUN_ID); the first is the base\n"
    "  --labels L1,...     the runs' names (default: their directory names)\n"
    "  --csv FILE          the table as CSV: one row per job and run, and per run the total \"(all jobs)\"\n"
    "  --html FILE         a self-contained page (plotly.js inlined, no network)\n"
    "  --allow-different   compare runs of other jobs or volumes, or incomplete runs (else refused, exit 2)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "  python/iosim/compare.py with python3 and Debian's python3-pandas, python3-plotly (docs/whatif.md)\n";

/* `iosim compare RUN_DIR... [options]`: python/iosim/compare.py does the work. */
int ios_cli_compare(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(compare_usage, stdout);
      return 0;
    }
  }
  if (argc < 3) {
    fputs("iosim: error: compare: give at least two run directories (the first is the base); fix: iosim compare "
          "BASE_DIR OTHER_DIR...\n",
          stderr);
    fputs(compare_usage, stderr);
    return 2;
  }
  return ios_cli_run_module("compare", argc, argv);
}
