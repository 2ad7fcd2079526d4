// iosim engine tests — see run_helpers.h.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <ftw.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace iosim_test {

bool file_exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string read_text(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "";
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// ---------------------------------------------------------------------------------------------------------------
// Running the binary

Process run_iosim(const std::vector<std::string> &args, const std::string &scratch, const std::string &cwd) {
  Process p;
  static int counter = 0;
  std::string tag = std::to_string(getpid()) + "-" + std::to_string(counter++);
  std::string out_path = scratch + "/.stdout-" + tag, err_path = scratch + "/.stderr-" + tag;
  std::vector<std::string> argv_s;
  argv_s.push_back(IOSIM_BIN);
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (auto &a : argv_s)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed: " << std::strerror(errno);
    return p;
  }
  if (pid == 0) {
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
    close(out);
    close(err);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  p.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  p.out = read_text(out_path);
  p.err = read_text(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsed outputs

static std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      parts.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

// Splits one CSV record: fields separated by commas, a field in double quotes may hold commas and "" (RFC 4180).
static std::vector<std::string> csv_record(const std::string &line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); i++) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      i++;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

CsvTable parse_csv(const std::string &text) {
  CsvTable rows;
  std::vector<std::string> lines = split(text, '\n');
  if (lines.empty()) return rows;
  std::vector<std::string> header = csv_record(lines[0]);
  for (size_t i = 1; i < lines.size(); i++) {
    if (lines[i].empty()) continue;
    std::vector<std::string> cells = csv_record(lines[i]);
    std::map<std::string, std::string> row;
    for (size_t k = 0; k < header.size(); k++)
      row[header[k]] = k < cells.size() ? cells[k] : std::string();
    if (cells.size() != header.size()) row["__bad_width"] = std::to_string(cells.size());
    rows.push_back(row);
  }
  return rows;
}

static double cell_num(const std::map<std::string, std::string> &row, const std::string &key) {
  auto it = row.find(key);
  if (it == row.end() || it->second.empty()) return NAN;
  char *end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  return (end != nullptr && *end == '\0') ? v : NAN;
}

static std::string cell(const std::map<std::string, std::string> &row, const std::string &key) {
  auto it = row.find(key);
  return it == row.end() ? std::string() : it->second;
}

void parse_outputs(const std::string &out_dir, SimRun &run) {
  std::string text = read_text(out_dir + "/results.json");
  run.has_results = false;
  if (!text.empty()) {
    run.results.reset(cJSON_Parse(text.c_str()));
    run.has_results = run.results != nullptr;
  }
  run.apps_csv = parse_csv(read_text(out_dir + "/apps.csv"));
  run.resources_csv = parse_csv(read_text(out_dir + "/resources.csv"));
  run.apps.clear();
  for (const auto &r : run.apps_csv) {
    AppRow a;
    a.name = cell(r, "name");
    a.nodes = static_cast<int>(cell_num(r, "nodes"));
    a.io_volume = cell_num(r, "io_volume_bytes");
    a.io_time = cell_num(r, "io_time_s");
    a.work_time = cell_num(r, "work_time_s");
    a.yield = cell_num(r, "yield");
    a.io_slowdown = cell_num(r, "io_slowdown");
    a.n_resources = static_cast<int>(cell_num(r, "n_resources"));
    std::string res = cell(r, "resources");
    if (!res.empty()) a.resources = split(res, ';');
    a.bandwidth = cell_num(r, "bandwidth_Bps");
    a.start = cell_num(r, "start_s");
    a.end = cell_num(r, "end_s");
    run.apps.push_back(a);
  }
  run.resources.clear();
  for (const auto &r : run.resources_csv) {
    ResRow x;
    x.name = cell(r, "name");
    x.kind = cell(r, "kind");
    x.capacity = cell_num(r, "capacity_Bps");
    x.busy_time = cell_num(r, "busy_time_s");
    x.occupancy = cell_num(r, "occupancy");
    x.bytes = cell_num(r, "bytes");
    run.resources.push_back(x);
  }
}

const AppRow &SimRun::app(const std::string &name) const {
  for (const auto &a : apps)
    if (a.name == name) return a;
  static AppRow missing;
  missing = AppRow();
  missing.io_volume = missing.io_time = missing.work_time = missing.yield = missing.bandwidth = missing.start =
      missing.end = NAN;
  ADD_FAILURE() << "no application '" << name << "' in apps.csv\n" << describe();
  return missing;
}

const ResRow &SimRun::res(const std::string &name) const {
  for (const auto &r : resources)
    if (r.name == name) return r;
  static ResRow missing;
  missing = ResRow();
  missing.capacity = missing.busy_time = missing.occupancy = missing.bytes = NAN;
  ADD_FAILURE() << "no resource '" << name << "' in resources.csv\n" << describe();
  return missing;
}

const cJSON *SimRun::json(const std::string &dotted) const {
  const cJSON *cur = results.get();
  for (const std::string &key : split(dotted, '.')) {
    if (cur == nullptr || !cJSON_IsObject(cur)) return nullptr;
    cur = cJSON_GetObjectItemCaseSensitive(cur, key.c_str());
  }
  return cur;
}

double SimRun::num(const std::string &dotted) const {
  const cJSON *v = json(dotted);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

std::string SimRun::str(const std::string &dotted) const {
  const cJSON *v = json(dotted);
  return cJSON_IsString(v) ? std::string(v->valuestring) : std::string();
}

std::string SimRun::describe() const {
  std::ostringstream ss;
  ss << "iosim exit code " << proc.exit_code << "\n--- stderr:\n" << proc.err << "--- apps.csv:\n";
  ss << read_text(out_dir + "/apps.csv");
  return ss.str();
}

RunOptions options(const std::string &command, const std::vector<std::string> &sets) {
  RunOptions o;
  o.command = command;
  o.sets = sets;
  return o;
}

static bool same_number(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)) || std::fabs(a - b) <= 1e-12;
}

// A run that took the transfer layer's direct path (results.json counts.transfers "direct") is run again with every
// transfer a SimGrid flow (engine.flows=simgrid): every metric, every application's start, end, I/O time and volume
// must agree to 1e-9 (relative) — the direct path computes what SimGrid's max-min would give (src/sim/ios_transfer.h).
// So every engine test checks both paths; IOSIM_TEST_ONE_PATH=1 skips the second run.
static void check_flow_path(const SimRun &run, std::vector<std::string> args) {
  if (run.proc.exit_code != 0 || run.str("counts.transfers") != "direct") return;
  const char *one = std::getenv("IOSIM_TEST_ONE_PATH");
  if (one != nullptr && one[0] == '1') return;
  std::string out = run.out_dir + "-flows";
  for (size_t i = 0; i + 1 < args.size(); i++)
    if (args[i] == "--out") args[i + 1] = out;
  args.push_back("--set");
  args.push_back("engine.flows=simgrid");
  SimRun flows;
  flows.proc = run_iosim(args, run.dir->path(), run.dir->path());
  parse_outputs(out, flows);
  ASSERT_EQ(flows.proc.exit_code, 0) << "with engine.flows=simgrid: " << flows.describe();
  ASSERT_EQ(flows.str("counts.transfers"), "simgrid-flows");
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(run.results.get(), "metrics");
  const cJSON *item = nullptr;
  cJSON_ArrayForEach(item, m) {
    double a = run.metric(item->string), b = flows.metric(item->string);
    EXPECT_TRUE(same_number(a, b)) << "metric " << item->string << ": direct " << fmt(a) << ", SimGrid flows "
                                   << fmt(b);
  }
  ASSERT_EQ(run.apps.size(), flows.apps.size());
  for (size_t i = 0; i < run.apps.size(); i++) {
    const AppRow &a = run.apps[i], &b = flows.apps[i];
    EXPECT_TRUE(same_number(a.start, b.start) && same_number(a.end, b.end) && same_number(a.io_time, b.io_time) &&
                same_number(a.io_volume, b.io_volume) && same_number(a.work_time, b.work_time))
        << a.name << ": direct start " << fmt(a.start) << " end " << fmt(a.end) << " io " << fmt(a.io_time)
        << ", SimGrid flows start " << fmt(b.start) << " end " << fmt(b.end) << " io " << fmt(b.io_time);
  }
}

SimRun run_scenario(const std::string &scenario_json, const std::string &platform_xml, const RunOptions &opt) {
  SimRun run;
  run.dir = std::make_shared<TempDir>();
  run.scenario_path = run.dir->write(opt.scenario_name, scenario_json);
  for (const auto &f : opt.extra_files)
    run.dir->write(f.first, f.second);
  run.out_dir = run.dir->file("out");
  std::vector<std::string> args = {opt.command, run.scenario_path};
  if (!platform_xml.empty()) {
    std::string platform = run.dir->write("platform.xml", platform_xml);
    if (opt.set_platform) {
      args.push_back("--set");
      args.push_back("platform=" + platform);
    }
  }
  if (opt.set_out && opt.command == "run") {
    args.push_back("--out");
    args.push_back(run.out_dir);
  }
  for (const auto &s : opt.sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  run.proc = run_iosim(args, run.dir->path(), run.dir->path());
  parse_outputs(run.out_dir, run);
  if (opt.command == "run" && opt.set_out) check_flow_path(run, args);
  return run;
}

SimRun run_scenario_file(const std::string &scenario_file, const std::vector<std::string> &sets) {
  SimRun run;
  run.dir = std::make_shared<TempDir>();
  run.scenario_path = scenario_file;
  run.out_dir = run.dir->file("out");
  std::vector<std::string> args = {"run", scenario_file, "--out", run.out_dir};
  for (const auto &s : sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  run.proc = run_iosim(args, run.dir->path(), run.dir->path());
  parse_outputs(run.out_dir, run);
  check_flow_path(run, args);
  return run;
}

// ---------------------------------------------------------------------------------------------------------------
// Tiny platforms

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

static std::string bps(double v) {
  return fmt(v) + "Bps";
}

std::string tiny_platform_xml(const TinyPlatform &p) {
  std::ostringstream x;
  x << "<?xml version='1.0'?>\n"
    << "<!-- iosim engine test platform: " << p.compute << " compute nodes, " << p.resources.size() << " " << p.role
    << " resources -->\n"
    << "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    << "<platform version=\"4.1\">\n"
    << "  <zone id=\"iosim-test\" routing=\"DijkstraCache\">\n";
  for (int i = 0; i < p.compute; i++)
    x << "    <host id=\"c" << i << "\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" value=\""
      << bps(p.nic_bw) << "\"/></host>\n";
  if (p.controller) x << "    <host id=\"controller\" speed=\"1Gf\"><prop id=\"role\" value=\"controller\"/></host>\n";
  for (const auto &r : p.resources) {
    x << "    <host id=\"" << r.name << "\" speed=\"1Gf\"><prop id=\"role\" value=\"" << p.role << "\"/>";
    if (r.link_prop) x << "<prop id=\"link\" value=\"" << r.name << "\"/>";
    x << "</host>\n";
  }
  if (p.pfs_behind)
    x << "    <host id=\"pfs\" speed=\"1Gf\"><prop id=\"role\" value=\"pfs\"/><prop id=\"link\" "
         "value=\"gpfs\"/></host>\n";
  x << "    <router id=\"fabric\"/>\n"
    << "    <link id=\"compute_fabric\" bandwidth=\"1000TBps\" latency=\"0\" sharing_policy=\"FATPIPE\"/>\n"
    << "    <link id=\"controller_link\" bandwidth=\"100GBps\" latency=\"0\"/>\n";
  for (const auto &r : p.resources)
    x << "    <link id=\"" << r.name << "\" bandwidth=\"" << bps(r.capacity) << "\" latency=\"0\"/>\n";
  if (p.pfs_behind) x << "    <link id=\"gpfs\" bandwidth=\"" << bps(p.pfs_capacity) << "\" latency=\"0\"/>\n";
  for (int i = 0; i < p.compute; i++)
    x << "    <route src=\"c" << i << "\" dst=\"fabric\"><link_ctn id=\"compute_fabric\"/></route>\n";
  if (p.controller) x << "    <route src=\"fabric\" dst=\"controller\"><link_ctn id=\"controller_link\"/></route>\n";
  for (const auto &r : p.resources) {
    if (!r.routed) continue;
    x << "    <route src=\"fabric\" dst=\"" << r.name << "\"><link_ctn id=\"" << r.name << "\"/>";
    if (p.pfs_behind) x << "<link_ctn id=\"gpfs\"/>";
    x << "</route>\n";
  }
  if (p.pfs_behind) x << "    <route src=\"fabric\" dst=\"pfs\"><link_ctn id=\"gpfs\"/></route>\n";
  x << "  </zone>\n</platform>\n";
  return x.str();
}

std::string tiny_platform_xml(const std::vector<double> &capacities, int compute, double nic_bw) {
  TinyPlatform p;
  p.compute = compute;
  p.nic_bw = nic_bw;
  for (size_t i = 0; i < capacities.size(); i++)
    p.resources.push_back({"r" + std::to_string(i), capacities[i]});
  return tiny_platform_xml(p);
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers

double rel_err(double actual, double expected) {
  if (std::isnan(actual) || std::isnan(expected)) return INFINITY;
  if (expected == 0) return std::fabs(actual);
  return std::fabs(actual - expected) / std::fabs(expected);
}

std::vector<std::string> split_words(const std::string &line) {
  std::istringstream ss(line);
  std::vector<std::string> t;
  for (std::string w; ss >> w;)
    t.push_back(w);
  return t;
}

std::vector<std::string> split_lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

} // namespace iosim_test
