/* iosim — the command line: one table of subcommands, each in its own file of src/cli/. Exit codes: 0 ok, 2 bad input
 * (the message names the file, the field and the fix), 1 internal error. */
#include "ios_cli.h"
#include "ios_errors.h"
#include "ios_scenario.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: iosim                         run deploy/default.json and print the summary\n"
    "       iosim run SCENARIO [-o|--out DIR] [--set key=value]... [--cfg=name:value]... [--log=...]...\n"
    "       iosim check SCENARIO [--set key=value]... [--cfg=name:value]... [--log=...]...   validate only\n"
    "       iosim policies [--family F]   list every policy with its parameters and source\n"
    "       iosim platform KIND [--set param=value]... [-o FILE]   generate a platform XML\n"
    "       iosim generate rr9502|apex [--set param=value]... [--seed N] [--unit B] [-o FILE]   a workload\n"
    "       iosim sweep CAMPAIGN [--jobs N] [-o DIR] [--set key=value]... [--seeds N] [--shard I/N] [--emit-slurm]\n"
    "       iosim merge DIR... [-o DIR]   combine shard outputs into one runs.csv\n"
    "       iosim report DIR [options]    figures and a Markdown report of a campaign (python/iosim/report.py)\n"
    "       iosim calibrate --tokio CSV...|--darshan DIR [--days N] [-o FILE]   fit a calibration file\n"
    "       iosim view DIR [DIR...] [-o OUT]   an HTML page of runs side by side, or of a campaign\n"
    "       iosim lab [--port N] [--host H] [--modules DIR]   the teaching lab: guided modules in the browser\n"
    "       iosim compare RUN_DIR RUN_DIR... [--csv F] [--html F]   did it help: I/O and end times, change in %\n"
    "       iosim whatif SCENARIO --vary key=v1,v2 [-o DIR]   run the base and each variant, then compare them\n"
    "       iosim data fetch|verify|list|dir [options]   the public datasets: fetch and check them, or locate them\n"
    "       iosim help scenario           every scenario key with its type, default, unit and meaning\n"
    "       iosim --version | COMMAND --help | help COMMAND\n"
    "Every command takes -h/--help and --version; options take --opt=value or --opt value.\n"
    "Exit codes: 0 ok, 2 bad input, 1 internal error. See README.md and docs/cli.md.\n";

static int run(int argc, char **argv) {
  return ios_cli_run(argc, argv, 0);
}

static int check(int argc, char **argv) {
  return ios_cli_run(argc, argv, 1);
}

/* The subcommands; argv[0] of each is its own name. */
static const struct {
  const char *name;
  int (*main)(int argc, char **argv);
} commands[] = {{"run", run},
                {"check", check},
                {"policies", ios_cli_policies},
                {"platform", ios_cli_platform},
                {"generate", ios_cli_generate},
                {"sweep", ios_cli_sweep},
                {"merge", ios_cli_merge},
                {"report", ios_cli_report},
                {"view", ios_cli_view},
                {"lab", ios_cli_lab},
                {"calibrate", ios_cli_calibrate},
                {"compare", ios_cli_compare},
                {"whatif", ios_cli_whatif},
                {"data", ios_cli_data}};

/* `iosim help TOPIC`: scenario (every scenario key), or a command's --help. */
static int help_topic(const char *topic) {
  if (strcmp(topic, "-h") == 0 || strcmp(topic, "--help") == 0) {
    fputs("usage: iosim help [scenario | COMMAND]\n"
          "  scenario   every scenario key: type, default, unit and meaning (docs/scenario.md has the long forms)\n"
          "  COMMAND    the command's --help\n",
          stdout);
    return 0;
  }
  if (strcmp(topic, "scenario") == 0) return ios_scenario_print_keys(stdout) == IOS_OK ? 0 : 1;
  char *args[] = {(char *)topic, "--help", NULL};
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(topic, commands[i].name) == 0) return commands[i].main(2, args);
  fprintf(stderr, "iosim: error: help: unknown topic '%s': give scenario or a command (run, sweep, ...)\n", topic);
  return 2;
}
int main(int argc, char **argv) {
  if (argc == 1) return ios_cli_run(0, NULL, 0); /* the embedded default scenario */
  const char *cmd = argv[1];
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(cmd, commands[i].name) == 0) return commands[i].main(argc - 1, argv + 1);
  if (strcmp(cmd, "help") == 0 && argc > 2) return help_topic(argv[2]);
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
    ios_print_version(stdout);
    return 0;
  }
  fprintf(stderr, "iosim: error: unknown command '%s'\n", cmd);
  fputs(usage_text, stderr);
  return 2;
}
