// iosim engine tests — helpers that run the iosim binary in its own process (one SimGrid engine per process) on a
// scenario written into a fresh temporary directory, and parse what it wrote (results.json, apps.csv,
// resources.csv). Also writes tiny platform XML files following platforms/README.md.
#ifndef IOSIM_TEST_RUN_HELPERS_H
#define IOSIM_TEST_RUN_HELPERS_H

#include "support.h"

#include <cjson/cJSON.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace iosim_test {

/** Whether a file exists. */
bool file_exists(const std::string &path);
/** The whole content of a file ("" when unreadable). */
std::string read_text(const std::string &path);

// ---------------------------------------------------------------------------------------------------------------
// Running the binary

/** What a finished process left: exit code (128 + signal when killed), standard output and standard error. */
struct Process {
  int exit_code = -1;
  std::string out, err;
};

/** Runs IOSIM_BIN with `args` (argv[1..]) in its own process (fork/exec), working directory `cwd` ("" = keep),
 * standard output and error captured through files in `scratch`. */
Process run_iosim(const std::vector<std::string> &args, const std::string &scratch, const std::string &cwd = "");

// ---------------------------------------------------------------------------------------------------------------
// Parsed outputs

/** One row of apps.csv. Empty CSV cells are NaN. */
struct AppRow {
  std::string name;
  int nodes = 0;
  double io_volume = 0, io_time = 0, work_time = 0, yield = 0, io_slowdown = 0;
  int n_resources = 0;
  std::vector<std::string> resources;
  double bandwidth = 0, start = 0, end = 0;
};

/** One row of resources.csv. */
struct ResRow {
  std::string name, kind;
  double capacity = 0, busy_time = 0, occupancy = 0, bytes = 0;
};

/** A CSV file as rows of column name → cell text. */
using CsvTable = std::vector<std::map<std::string, std::string>>;
/** Parses CSV text with a header line (double-quoted fields allowed; records do not span lines). A row whose cell
 * count differs from the header's gets the extra key "__bad_width" (its cell count). */
CsvTable parse_csv(const std::string &text);

/** Owning pointer to a cJSON tree. */
struct CjsonDelete {
  void operator()(cJSON *p) const { cJSON_Delete(p); }
};
using JsonPtr = std::unique_ptr<cJSON, CjsonDelete>;

/** One finished run: the process, and what it wrote in its output directory. */
struct SimRun {
  std::shared_ptr<TempDir> dir; // keeps the scenario, the platform and the outputs alive
  std::string scenario_path, out_dir;
  Process proc;
  bool has_results = false; // results.json exists and parsed
  JsonPtr results;
  std::vector<AppRow> apps; // apps.csv in file order
  std::vector<ResRow> resources;
  CsvTable apps_csv, resources_csv;

  /** The apps.csv row of application `name` (fails the current test and returns a dummy row when absent). */
  const AppRow &app(const std::string &name) const;
  /** The resources.csv row of resource `name` (same). */
  const ResRow &res(const std::string &name) const;
  /** results.json item at a dotted path ("metrics.min_yield"), or nullptr. */
  const cJSON *json(const std::string &dotted) const;
  /** Number at a dotted path of results.json; NaN when absent, null or not a number. */
  double num(const std::string &dotted) const;
  /** String at a dotted path of results.json; "" when absent or not a string. */
  std::string str(const std::string &dotted) const;
  /** metrics.<name> of results.json. */
  double metric(const std::string &name) const { return num("metrics." + name); }
  /** A one-paragraph description for assertion messages: exit code, stderr, the apps table. */
  std::string describe() const;
};

/** Reads results.json, apps.csv and resources.csv of `out_dir` into `run`. */
void parse_outputs(const std::string &out_dir, SimRun &run);

/** Options of run_scenario. */
struct RunOptions {
  std::string command = "run";   // "run" or "check"
  std::vector<std::string> sets; // --set key=value overrides
  bool set_platform = true;      // pass --set platform=<the written platform> when a platform is given
  bool set_out = true;           // pass --out <dir>/out
  std::string scenario_name = "scenario.json";
  std::map<std::string, std::string> extra_files; // more files to write in the directory (name → content)
};

/** RunOptions for `command` with the given --set overrides. */
RunOptions options(const std::string &command, const std::vector<std::string> &sets = {});

/** Writes `scenario_json` (and `platform_xml` as platform.xml when not empty) into a fresh temporary directory and
 * runs `iosim run scenario.json --set platform=<abs> --out <dir>/out [--set ...]` in that directory. */
SimRun run_scenario(const std::string &scenario_json, const std::string &platform_xml = "",
                    const RunOptions &opt = RunOptions());

/** Runs an existing scenario file with `iosim run FILE --out <fresh dir>/out [--set ...]`. */
SimRun run_scenario_file(const std::string &scenario_file, const std::vector<std::string> &sets = {});

// ---------------------------------------------------------------------------------------------------------------
// Tiny platforms (platforms/README.md conventions)

/** One I/O resource of a tiny platform. */
struct TinyResource {
  std::string name;
  double capacity;       // bytes/s of its link (same name as the host)
  bool link_prop = true; // give it the <prop id="link"> (false: an invalid platform)
  bool routed = true;    // declare its route from `fabric` (false: unreachable)
};

/** A tiny platform: compute hosts c0..c{compute-1} with nic_bw, I/O resources of role `role`, a controller, all
 * around router `fabric` (DijkstraCache), latency 0, FATPIPE compute_fabric. */
struct TinyPlatform {
  std::vector<TinyResource> resources;
  std::string role = "ionode"; // ionode, ost or pfs
  int compute = 4;
  double nic_bw = 100e9; // bytes/s
  bool controller = true;
  bool pfs_behind = false; // also a separate PFS host (role pfs, link `gpfs`, behind every resource)
  double pfs_capacity = 100e9;
};

/** The platform XML text. */
std::string tiny_platform_xml(const TinyPlatform &p);
/** Shorthand: `n` resources r0..r{n-1} of the same capacity, `compute` compute nodes. */
std::string tiny_platform_xml(const std::vector<double> &capacities, int compute = 4, double nic_bw = 100e9);

// ---------------------------------------------------------------------------------------------------------------
// Numbers

/** |actual − expected| / |expected| (absolute difference when expected is 0). */
double rel_err(double actual, double expected);
/** A double printed with 17 significant digits. */
std::string fmt(double v);

// ---------------------------------------------------------------------------------------------------------------
// Text

/** The whitespace-separated words of `line`. */
std::vector<std::string> split_words(const std::string &line);
/** The lines of `text` (without their newlines). */
std::vector<std::string> split_lines(const std::string &text);

} // namespace iosim_test

/** EXPECT that `actual` is within relative error `tol` of `expected`, printing both with full precision. */
#define EXPECT_REL(actual, expected, tol)                                                                              \
  EXPECT_LE(::iosim_test::rel_err((actual), (expected)), (tol))                                                        \
      << #actual " = " << ::iosim_test::fmt(actual) << ", expected " << ::iosim_test::fmt(expected)

#endif
