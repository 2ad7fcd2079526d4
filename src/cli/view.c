/* iosim view DIR... [-o OUT] [options]: a self-contained HTML page of runs or of a campaign, written in Python
 * (python/iosim/view.py, plotly.js from Debian's python3-plotly). */
#include "ios_cli.h"

#include <stdio.h>
#include <string.h>

static const char view_usage[] =
    "usage: iosim view DIR [DIR...] [-o OUT] [--title TEXT] [--labels L1,L2,...] [--max-resources N]\n"
    "  one self-contained HTML page (opens from disk, no server, no network): per run, each resource's bandwidth\n"
    "  over time stacked by application, each application's work, waiting and I/O rate and its allocation, a time\n"
    "  cursor and zoom shared by every panel; several DIRs side by side on one time axis with their metrics.\n"
    "  DIR: an `iosim run` output directory (its timeline.bin or events.csv), a run inside a campaign database\n"
    "  (DIR/campaign.db#RUN_ID or DIR#RUN_ID: its events or timeline tables), or one `iosim sweep` directory or its\n"
    "  campaign.db (the campaign page, also written by `iosim report`; --x, --policy, --metrics as in iosim report)\n"
    "  -o, --out OUT      the HTML file (default view.html; DIR/report/view.html for a campaign)\n"
    "  --title TEXT       the page's title;  --labels L1,...  the runs' names (default: their directory names)\n"
    "  --max-resources N  resource panels per run, the busiest first (default 8; 0: all)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "  python/iosim/view.py with python3 and Debian's python3-plotly, python3-pandas (docs/outputs.md, \"iosim "
    "view\")\n";

/* `iosim view DIR... [options]`: python/iosim/view.py does the work. */
int ios_cli_view(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(view_usage, stdout);
      return 0;
    }
  }
  if (argc < 2) {
    fputs("iosim: error: view: no directory given; fix: iosim view RESULTS_DIR [RESULTS_DIR...] -o view.html\n",
          stderr);
    fputs(view_usage, stderr);
    return 2;
  }
  return ios_cli_run_module("view", argc, argv);
}
