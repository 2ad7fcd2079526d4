/* iosim — the subcommands (one file each in src/cli/) and what they share. Every subcommand takes its own argv
 * (argv[0] is its name), parses it with getopt_long (-h/--help, --version, --opt=value and --opt value; docs/cli.md)
 * and returns the process exit code: 0 ok, 2 bad input (a message on stderr names the file, the field, the value and
 * the fix), 1 internal error. */
#ifndef IOS_CLI_H
#define IOS_CLI_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** `iosim run SCENARIO [-o|--out DIR] [--set key=value]... [--cfg=name:value]... [--log=...]...` (check = 0), or
 * `iosim check SCENARIO ...` (check = 1: validate the scenario, its platform and its workload without simulating).
 * argc = 0 (argv NULL) runs the embedded default, deploy/default.json of ios_cli_home(). */
int ios_cli_run(int argc, char **argv, int check);

/** `iosim policies [-f|--family F]`: every policy of every family (or of F), its parameters and source. */
int ios_cli_policies(int argc, char **argv);

/** `iosim platform KIND [--set param=value]... [-o FILE]`: a generated platform XML (standard output without -o). */
int ios_cli_platform(int argc, char **argv);

/** `iosim generate KIND [--set param=value]... [--seed N] [--unit B] [-o FILE]`: a generated workload, FILE.json as
 * an iosim JSON workload, other names in the RR-9502 sample format, standard output without -o or with -o -. */
int ios_cli_generate(int argc, char **argv);

/** `iosim sweep CAMPAIGN [-j|--jobs N] [-o|--out DIR] [--set key=value]... [--seeds N] [--shard I/N]
 * [--retry-failed] [--cfg=name:value]... [--log=...]... [--emit-slurm [--shards N]]`: every point in its own
 * `iosim run` process (ios_sweep_run, src/campaign/ios_sweep.h; each child calls ios_cli_run), N at a time, atomic
 * per-run outputs, resume, shards, or a Slurm job-array script (ios_slurm_write); --cfg and --log are checked here and
 * passed to every run; output layout and runs.csv columns: docs/campaigns.md. @return 0 all runs complete, 1 some
 * runs failed (recorded in runs.csv) or an internal error, 2 bad input (nothing run), 130 interrupted (completed runs
 * kept; re-run to resume). */
int ios_cli_sweep(int argc, char **argv);

/** `iosim merge DIR... [-o|--out DIR]`: one runs.csv over the shard directories of one campaign (ios_merge_shards,
 * src/campaign/ios_merge.h). @return 0 when every point has a complete run, 1 when some are failed or missing, 2 bad
 * input. */
int ios_cli_merge(int argc, char **argv);

/** `iosim report DIR [options]`: runs python/iosim/report.py of ios_cli_home() with $IOSIM_PYTHON, else the interpreter
 * configured at build time, else python3; then python/iosim/view.py with the same arguments (DIR/report/view.html). */
int ios_cli_report(int argc, char **argv);

/** `iosim view DIR... [-o OUT] [options]`: runs python/iosim/view.py (one self-contained HTML page of runs or of a
 * campaign) with the interpreter of `iosim report`. */
int ios_cli_view(int argc, char **argv);

/** `iosim lab [--port N] [--host H] [--modules DIR] [--workdir DIR] [options]`: runs python3 -m iosim.lab (the
 * teaching lab's web application, docs/lab.md) with this executable as the iosim its simulations run and
 * ios_cli_home() as the home of its default modules (deploy/lab). @return its exit code (2: bad input, such as a
 * broken module file). */
int ios_cli_lab(int argc, char **argv);

/** `iosim calibrate (--tokio SUMMARY... | --darshan DIR|LOG...) [options]` (src/cli/calibrate.c): the calibration
 * file of a site's measurements, fitted by python/iosim/calibrate.py of ios_cli_home() (Darshan logs read here first).
 */
int ios_cli_calibrate(int argc, char **argv);

/** The staleness rule of the calibration a scenario names (its "calibration" field, docs/validation.md): reads the
 * file (a calibration iosim calibrate wrote, format "iosim-calibration/1") and, when its window.newest_measurement is
 * more than its stale_after_days before `now` (s since the epoch), prints a warning naming the file, the date and
 * the fix on stderr, else one line on stdout with its age. No "calibration" in `scenario_json` (the resolved
 * scenario): nothing. @return IOS_OK; IOS_EIO (unreadable) or IOS_EINVAL (not a calibration file) with
 * ios_diag_message() naming the file and the field. */
int ios_cli_calibration_check(const char *scenario_json, double now);

/** `iosim compare RUN_DIR RUN_DIR... [options]`: runs python/iosim/compare.py (per job and in total the I/O time and
 * end time of the runs and their change in % against the first; table, --csv, --html). @return its exit code (2: bad
 * input, runs not comparable). */
int ios_cli_compare(int argc, char **argv);

/** `iosim whatif SCENARIO --vary key=v1,v2[,...] [-o DIR] [--set key=value]... [--csv F] [--html F]`: validates
 * then runs the base and one variant per value (--set key=value), each in a forked child through ios_cli_run (one
 * SimGrid engine per process; each run's summary in DIR/RUN/summary.txt), then ios_cli_compare's script on them.
 * @return 0, 2 bad input (nothing simulated), 1 a run failed, or compare's exit code. */
int ios_cli_whatif(int argc, char **argv);

/** Runs the module iosim.MODULE of iosim's Python package (python/iosim/: found beside the executable, in a build tree
 * or installed, or at $IOSIM_PYTHONPATH) with argv[1..argc-1] under ios_cli_python() (`python -m iosim.MODULE`), and
 * waits for it. @return its exit code, 1 when it could not be started. */
int ios_cli_run_module(const char *module, int argc, char **argv);

/** As ios_cli_run_module, but python3 -m iosim.MODULE replaces this process (execvp), so that a long-running server
 * (iosim lab) receives the signals sent to iosim's pid. @return only when it could not be started: 1. */
int ios_cli_exec_module(const char *module, int argc, char **argv);

/** `iosim data fetch|verify|list|dir`: the public datasets (src/cli/data.c): `dir` prints ios_data_dir(), the others
 * run traces/datasets.py of ios_cli_home() (the data step of `make data`) with ios_cli_python(). */
int ios_cli_data(int argc, char **argv);

/** The Python interpreter of the commands written in Python (report, data): $IOSIM_PYTHON, else the one configured at
 * build time (CMake's IOSIM_PYTHON) when it exists, else python3 from PATH. */
const char *ios_cli_python(void);

/** Prints "iosim VERSION" and the version of the SimGrid library in use (and of the headers built against): what
 * every subcommand's --version shows. */
void ios_print_version(FILE *f);

/** The answer to -h/--help and --version, alike in every subcommand (option table entries {"help", no_argument,
 * NULL, 'h'} and {"version", no_argument, NULL, IOS_OPT_VERSION}, ios_args.h): after getopt_long returned `opt`,
 * prints `usage` (opt 'h') or the versions (opt IOS_OPT_VERSION, ios_print_version) to stdout. @return 0 (the exit
 * code) when it printed, -1 for any other option. */
int ios_cli_help_version(int opt, const char *usage);

/** The exit code of an IOS_E* result: 0 for IOS_OK; else prints "iosim: error: " and ios_diag_message() (or the
 * code's name) to stderr and returns 2 for IOS_EINVAL and IOS_EIO (bad input), 1 otherwise. */
int ios_cli_exit_code(int rc);

struct ios_sg_flags; /* ios_args.h */

/** --cfg=help (ios_sg_flags_help): starts SimGrid with the --log flags of `sg`, gives the settings iosim fixes their
 * values, and prints SimGrid's configuration items (ios_sg_config_help) on standard output. @return 0. */
int ios_cli_cfg_help(const struct ios_sg_flags *sg);

/** iosim's own files (deploy/, platforms/, analysis/, traces/): ios_home_dir() of src/base/ios_datadir.h ($IOSIM_HOME,
 * else the folder above the executable's, else PREFIX/share/iosim). @return a static buffer, or NULL. */
const char *ios_cli_home(void);

#ifdef __cplusplus
}
#endif
#endif
