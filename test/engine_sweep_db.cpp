// iosim engine tests — the results database of campaigns (docs/outputs.md, "The results database"): a sweep with
// per-run directories writes the same values into OUT/campaign.db as into the files (every row, every column); a
// sweep killed with SIGKILL and resumed loses no committed run and ends with the content of an uninterrupted one;
// three shard databases merged equal one unsharded database; `iosim run --db` records a run; bad database paths exit
// 2 naming the file and the fix.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace iosim_test;

namespace {

// Two applications on one 1e9 B/s resource (engine_sweep.cpp's kTwoApps), with a second resource so that
// allocations differ; output.events asks for the events table.
const char *kBase = R"({"platform": "platform.xml", "workload": {"applications": [
    {"name": "A", "profile": {"1": 1e9}, "io": 1e9, "iterations": 2, "work": 1},
    {"name": "B", "profile": {"1": 1e9}, "io": 5e8, "iterations": 3, "work": 0.5}]},
  "allocation": {"policy": "fixed", "n": 1}, "output": {"events": true}})";

struct Campaign {
  std::shared_ptr<TempDir> dir = std::make_shared<TempDir>();
  std::string path;
  explicit Campaign(const std::string &campaign_json, const std::string &base = kBase) {
    dir->write("platform.xml", tiny_platform_xml({1e9, 2e9}, 4, 100e9));
    dir->write("base.json", base);
    path = dir->write("campaign.json", campaign_json);
  }
  Process sweep(const std::string &out, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"sweep", path, "--out", dir->file(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_iosim(args, dir->path());
  }
};

// One value of a table, as text comparable across databases: NULL, an integer, a double (%.17g) or text.
std::string cell(sqlite3_stmt *st, int c) {
  char buf[64];
  switch (sqlite3_column_type(st, c)) {
  case SQLITE_NULL:
    return "NULL";
  case SQLITE_INTEGER:
    return "i" + std::to_string(sqlite3_column_int64(st, c));
  case SQLITE_FLOAT:
    snprintf(buf, sizeof buf, "r%.17g", sqlite3_column_double(st, c));
    return buf;
  default:
    return "t" + std::string(reinterpret_cast<const char *>(sqlite3_column_text(st, c)));
  }
}

struct Db {
  sqlite3 *h = nullptr;
  explicit Db(const std::string &path) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK) << path;
  }
  ~Db() { sqlite3_close(h); }
  // Rows of `sql` as vectors of cells, column names in *names when given.
  std::vector<std::vector<std::string>> query(const std::string &sql, std::vector<std::string> *names = nullptr) {
    std::vector<std::vector<std::string>> rows;
    sqlite3_stmt *st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql << ": " << sqlite3_errmsg(h);
    if (st == nullptr) return rows;
    if (names != nullptr)
      for (int c = 0; c < sqlite3_column_count(st); c++)
        names->push_back(sqlite3_column_name(st, c));
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(st); c++)
        row.push_back(cell(st, c));
      rows.push_back(row);
    }
    sqlite3_finalize(st);
    return rows;
  }
  std::vector<std::string> tables() {
    std::vector<std::string> t;
    for (auto &r : query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
      t.push_back(r[0].substr(1));
    return t;
  }
  std::string text(const std::string &sql) {
    auto rows = query(sql);
    return rows.empty() || rows[0][0] == "NULL" ? "" : rows[0][0].substr(1);
  }
};

// A results.json text without its wall time and output directory (a temporary directory named by the sweep's pid):
// what two runs of one scenario differ in.
std::string results_without_wall(const std::string &text) {
  cJSON *j = cJSON_Parse(text.c_str());
  if (j == nullptr) return text;
  cJSON_DeleteItemFromObjectCaseSensitive(j, "wall_time_s");
  cJSON_DeleteItemFromObjectCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "scenario"), "output"), "dir");
  char *p = cJSON_PrintUnformatted(j);
  std::string s = p;
  free(p);
  cJSON_Delete(j);
  return s;
}

// Everything a database holds but the wall times: every table's rows, sorted, as text.
std::map<std::string, std::multiset<std::string>> content(const std::string &path) {
  Db db(path);
  std::map<std::string, std::multiset<std::string>> all;
  for (const std::string &t : db.tables()) {
    if (t == "meta") continue;
    std::vector<std::string> names;
    auto rows = db.query("SELECT * FROM \"" + t + "\"", &names);
    for (auto &r : rows) {
      std::string line;
      for (size_t c = 0; c < r.size(); c++) {
        std::string v = r[c];
        if (names[c] == "wall_time_s" || names[c] == "sim_wall_s") v = "-";
        if (t == "results" && names[c] == "json") v = results_without_wall(v.substr(1));
        line += names[c] + "=" + v + "|";
      }
      all[t].insert(line);
    }
  }
  return all;
}

// The CSV cell `file_cell` of a run's file equals the database's value `db_cell` (cell() form): empty is NULL, a
// number printed with %.17g reads back to the same double, text is the same text.
void expect_same_cell(const std::string &file_cell, const std::string &db_cell, const std::string &where) {
  if (file_cell.empty()) {
    EXPECT_EQ(db_cell, "NULL") << where;
    return;
  }
  ASSERT_FALSE(db_cell.empty()) << where;
  if (db_cell[0] == 't') {
    EXPECT_EQ(db_cell.substr(1), file_cell) << where;
    return;
  }
  ASSERT_TRUE(db_cell[0] == 'i' || db_cell[0] == 'r') << where << ": " << db_cell;
  EXPECT_EQ(std::strtod(db_cell.c_str() + 1, nullptr), std::strtod(file_cell.c_str(), nullptr))
      << where << ": file " << file_cell << ", database " << db_cell;
}

// Two databases hold the same content (content()); on a difference, the table and the first rows that differ.
void expect_same_content(const std::string &a, const std::string &b) {
  auto ca = content(a), cb = content(b);
  std::set<std::string> tables;
  for (auto &[t, rows] : ca)
    tables.insert(t);
  for (auto &[t, rows] : cb)
    tables.insert(t);
  for (const std::string &t : tables) {
    const auto &ra = ca[t], &rb = cb[t];
    if (ra == rb) continue;
    std::vector<std::string> only_a, only_b;
    std::set_difference(ra.begin(), ra.end(), rb.begin(), rb.end(), std::back_inserter(only_a));
    std::set_difference(rb.begin(), rb.end(), ra.begin(), ra.end(), std::back_inserter(only_b));
    ADD_FAILURE() << "table " << t << ": " << ra.size() << " rows in " << a << ", " << rb.size() << " in " << b
                  << "\n  only in the first: " << (only_a.empty() ? "" : only_a[0].substr(0, 600))
                  << "\n  only in the second: " << (only_b.empty() ? "" : only_b[0].substr(0, 600));
  }
}

} // namespace

// System: 2 sharing policies x 2 seeds of two applications, events asked, per-run directories requested.
// Expectations: campaign.db holds every run's runs row (runs.csv's values), results.json and scenario.json texts,
// and every row and column of apps.csv, resources.csv, allocations.csv and events.csv, equal as printed; the meta
// rows name the format and hold the campaign and sweep records.
TEST(engine_sweep_db, DatabaseHoldsTheRunDirectoriesValues) {
  Campaign c(R"({"name": "db", "base": "base.json", "grid": {"sharing.policy": ["fcfs", "fairshare"]},
                 "seeds": {"count": 2}})");
  Process p = c.sweep("out", {"--run-dirs", "--jobs", "2"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  Db db(c.dir->file("out/campaign.db"));
  EXPECT_EQ(db.text("SELECT value FROM meta WHERE key = 'format'"), "iosim-campaign/1");
  EXPECT_NE(db.text("SELECT value FROM meta WHERE key = 'campaign'").find("\"sharing.policy\""), std::string::npos);
  EXPECT_NE(db.text("SELECT value FROM meta WHERE key = 'sweep'").find("\"base\""), std::string::npos);
  EXPECT_FALSE(db.text("SELECT value FROM meta WHERE key = 'iosim_version'").empty());
  CsvTable runs = parse_csv(read_text(c.dir->file("out/runs.csv")));
  ASSERT_EQ(runs.size(), 4u);
  for (auto &row : runs) {
    const std::string id = row["run_id"], dir = c.dir->file("out/runs/" + id);
    std::vector<std::string> names;
    auto r = db.query("SELECT * FROM runs WHERE run_id = '" + id + "'", &names);
    ASSERT_EQ(r.size(), 1u) << id;
    for (auto &[col, value] : row) { // every runs.csv column, by name ("index" is "point")
      auto at = std::find(names.begin(), names.end(), col == "index" ? "point" : col);
      ASSERT_NE(at, names.end()) << col;
      expect_same_cell(value, r[0][at - names.begin()], id + " runs." + col);
    }
    EXPECT_EQ(db.text("SELECT json FROM results WHERE run_id = '" + id + "'"), read_text(dir + "/results.json"));
    EXPECT_EQ(db.text("SELECT json FROM scenarios WHERE run_id = '" + id + "'"), read_text(dir + "/scenario.json"));
    for (const char *t : {"apps", "resources", "allocations", "events"}) {
      CsvTable file = parse_csv(read_text(dir + "/" + t + ".csv"));
      ASSERT_FALSE(file.empty()) << t;
      std::vector<std::string> cols;
      auto rows = db.query(std::string("SELECT * FROM ") + t + " WHERE run_id = '" + id + "' ORDER BY rowid", &cols);
      ASSERT_EQ(rows.size(), file.size()) << t;
      ASSERT_EQ(cols.size(), file[0].size() + 1) << t; // run_id, then the file's columns
      for (size_t i = 0; i < rows.size(); i++)
        for (size_t k = 1; k < cols.size(); k++) {
          ASSERT_TRUE(file[i].count(cols[k])) << t << "." << cols[k];
          expect_same_cell(file[i][cols[k]], rows[i][k], id + " " + t + " row " + std::to_string(i) + " " + cols[k]);
        }
    }
  }
  // typed columns: the swept field as text, counts as integers, metrics as reals; names stay text
  EXPECT_EQ(db.text("SELECT typeof(\"sharing.policy\") || typeof(seed) || typeof(events) || typeof(min_yield) FROM "
                    "runs LIMIT 1"),
            "textintegerintegerreal");
  EXPECT_EQ(db.text("SELECT typeof(name) || typeof(nodes) || typeof(io_time_s) FROM apps LIMIT 1"), "textintegerreal");
  // the default: the database and runs.csv, no run directory; the same content
  ASSERT_EQ(c.sweep("plain").exit_code, 0);
  EXPECT_FALSE(file_exists(c.dir->file("plain/runs"))) << "the runs' staging folder is left after the sweep";
  expect_same_content(c.dir->file("plain/campaign.db"), c.dir->file("out/campaign.db"));
  EXPECT_FALSE(read_text(c.dir->file("plain/runs.csv")).empty());
}

namespace {

// About 0.1-0.4 s per run here: enough to kill a sweep of 48 runs in the middle.
std::string slow_base() {
  std::ostringstream o;
  o << R"({"platform": {"kind": "forwarding", "compute": 128, "ionodes": 4}, "workload": {"applications": [)";
  for (int j = 0; j < 40; j++)
    o << (j ? "," : "") << R"({"name": "a)" << j << R"(", "nodes": 1, "iterations": 20, "work": )" << 50 + j % 7
      << R"(, "io": )" << 2e8 + 1e7 * (j % 5) << "}";
  o << "]}}";
  return o.str();
}

const char *kSlowCampaign = R"({"name": "slow", "base": "base.json",
  "grid": {"sharing.policy": ["fairshare", "fcfs", "maxmin"], "allocation.policy": ["static", "random"]},
  "seeds": {"count": 8}})";

long count_runs(const std::string &db_path) {
  sqlite3 *h = nullptr;
  long n = -1;
  if (sqlite3_open_v2(db_path.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(h, 1000);
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM runs", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return n;
}

} // namespace

// System: a 48-run campaign swept 2 at a time, killed with SIGKILL once some runs are committed, then resumed.
// Expectations: the resumed sweep skips every run committed before the kill (none lost, none run twice) and the final
// database equals that of an uninterrupted sweep in every table, up to wall times; runs.csv likewise.
TEST(engine_sweep_db, KilledSweepResumesWithNothingLost) {
  Campaign c(kSlowCampaign, slow_base());
  ASSERT_EQ(c.sweep("whole", {"--jobs", "2"}).exit_code, 0);
  std::string out = c.dir->file("killed"), db = out + "/campaign.db";
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execl(IOSIM_BIN, "iosim", "sweep", c.path.c_str(), "--out", out.c_str(), "--jobs", "2", (char *)nullptr);
    _exit(127);
  }
  long before = 0;
  for (int i = 0; i < 20000 && before < 10; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    before = count_runs(db);
    int st;
    if (waitpid(pid, &st, WNOHANG) == pid) FAIL() << "the sweep ended before it could be killed";
  }
  kill(pid, SIGKILL);
  int st;
  waitpid(pid, &st, 0);
  long committed = count_runs(db);
  ASSERT_GE(committed, 10);
  ASSERT_LT(committed, 48) << "killed too late to test a resume";
  Process resumed = c.sweep("killed", {"--jobs", "2"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("48 points, " + std::to_string(48 - committed) + " to run"), std::string::npos)
      << committed << " committed; " << resumed.err;
  expect_same_content(db, c.dir->file("whole/campaign.db"));
  auto strip = [](CsvTable t) {
    for (auto &r : t)
      r.erase("wall_time_s"), r.erase("sim_wall_s");
    return t;
  };
  EXPECT_EQ(strip(parse_csv(read_text(out + "/runs.csv"))), strip(parse_csv(read_text(c.dir->file("whole/runs.csv")))));
}

// System: the same campaign swept whole and as 3 shards, the shards' databases merged.
// Expectations: the merged database equals the whole one (every table, up to wall times) and so does runs.csv; with
// one shard left out, its points are runs rows with status "missing" and merge exits 1.
TEST(engine_sweep_db, MergeOfThreeShardDatabasesEqualsOneSweep) {
  Campaign c(R"({"name": "m", "base": "base.json", "grid": {"sharing.policy": ["fcfs", "fairshare", "maxmin"]},
                 "seeds": {"count": 3}})");
  ASSERT_EQ(c.sweep("whole").exit_code, 0);
  for (int i = 1; i <= 3; i++)
    ASSERT_EQ(c.sweep("shard-" + std::to_string(i), {"--shard", std::to_string(i) + "/3"}).exit_code, 0);
  Process m = run_iosim(
      {"merge", c.dir->file("shard-1"), c.dir->file("shard-2"), c.dir->file("shard-3"), "--out", c.dir->file("merged")},
      c.dir->path());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  expect_same_content(c.dir->file("merged/campaign.db"), c.dir->file("whole/campaign.db"));
  for (const char *d : {"whole/runs", "shard-1/runs", "merged/runs"}) // no run directories asked: no runs/ folder
    EXPECT_FALSE(file_exists(c.dir->file(d))) << d;
  auto strip = [](CsvTable t) {
    for (auto &r : t)
      r.erase("wall_time_s"), r.erase("sim_wall_s");
    return t;
  };
  EXPECT_EQ(strip(parse_csv(read_text(c.dir->file("merged/runs.csv")))),
            strip(parse_csv(read_text(c.dir->file("whole/runs.csv")))));
  Process part =
      run_iosim({"merge", c.dir->file("shard-1"), c.dir->file("shard-3"), "--out", c.dir->file("part")}, c.dir->path());
  EXPECT_EQ(part.exit_code, 1) << part.err;
  Db db(c.dir->file("part/campaign.db"));
  EXPECT_EQ(db.text("SELECT count(*) FROM runs WHERE status = 'missing'"), "3");
  EXPECT_EQ(db.text("SELECT count(*) FROM apps WHERE run_id IN (SELECT run_id FROM runs WHERE status = 'missing')"),
            "0");
}

// `iosim run --db FILE` records the run (its runs row, results.json, scenario, apps); run again with the same
// scenario it replaces its rows; a bad database path exits 2 naming the file and the fix, before simulating.
TEST(engine_sweep_db, RunRecordsIntoADatabaseAndBadPathsExitTwo) {
  Campaign c(R"({"base": "base.json", "grid": {"seed": [1]}})");
  std::string db = c.dir->file("r.db");
  for (int i = 0; i < 2; i++) {
    Process p = run_iosim({"run", c.dir->file("base.json"), "--out", c.dir->file("run"), "--db", db}, c.dir->path());
    ASSERT_EQ(p.exit_code, 0) << p.err;
  }
  {
    Db d(db);
    EXPECT_EQ(d.text("SELECT count(*) FROM runs"), "1");
    EXPECT_EQ(d.text("SELECT status FROM runs"), "complete");
    EXPECT_EQ(d.text("SELECT count(*) FROM apps"), "2");
    EXPECT_EQ(d.text("SELECT json FROM results"), read_text(c.dir->file("run/results.json")));
  }
  Process named = run_iosim(
      {"run", c.dir->file("base.json"), "--out", c.dir->file("run"), "--db", db, "--run-id", "mine"}, c.dir->path());
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(Db(db).text("SELECT count(*) FROM runs WHERE run_id = 'mine'"), "1");
  // a directory that does not exist, a file that is not a database, a database of something else
  c.dir->write("notadb.db", "hello, this is text\n");
  {
    sqlite3 *h;
    sqlite3_open(c.dir->file("other.db").c_str(), &h);
    sqlite3_exec(h, "CREATE TABLE t (x)", nullptr, nullptr, nullptr);
    sqlite3_close(h);
  }
  struct Case {
    std::string path, needle;
  } cases[] = {{c.dir->file("nosuch/dir/x.db"), "its directory exists"},
               {c.dir->file("notadb.db"), "not a results database"},
               {c.dir->file("other.db"), "not an iosim results database"}};
  for (const auto &k : cases) {
    Process p =
        run_iosim({"run", c.dir->file("base.json"), "--out", c.dir->file("bad"), "--db", k.path}, c.dir->path());
    EXPECT_EQ(p.exit_code, 2) << k.path << ": " << p.err;
    EXPECT_NE(p.err.find(k.path), std::string::npos) << p.err;
    EXPECT_NE(p.err.find(k.needle), std::string::npos) << p.err;
    EXPECT_NE(p.err.find("--db"), std::string::npos) << p.err;
    EXPECT_FALSE(file_exists(c.dir->file("bad/results.json"))) << "ran before checking --db";
  }
  // a sweep whose OUT/campaign.db is not a database: exit 2, nothing runs
  mkdir(c.dir->file("sw").c_str(), 0777);
  c.dir->write("sw/campaign.db", "not a database\n");
  Process s = c.sweep("sw");
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_NE(s.err.find(c.dir->file("sw/campaign.db")), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("--out"), std::string::npos) << s.err;
}

// System: 4 `iosim run --db` processes started at once on one database file, each with its own run id.
// Expectations: all exit 0 and the database holds 4 whole runs (WAL and the busy timeout: writers wait for each
// other's transactions instead of failing).
TEST(engine_sweep_db, ConcurrentRunsShareOneDatabase) {
  Campaign c(R"({"base": "base.json", "grid": {"seed": [1]}})");
  std::string db = c.dir->file("shared.db");
  std::vector<pid_t> pids;
  for (int i = 0; i < 4; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      std::string out = c.dir->file("run" + std::to_string(i)), id = "r" + std::to_string(i);
      execl(IOSIM_BIN, "iosim", "run", c.dir->file("base.json").c_str(), "--out", out.c_str(), "--db", db.c_str(),
            "--run-id", id.c_str(), (char *)nullptr);
      _exit(127);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << st;
  }
  Db d(db);
  EXPECT_EQ(d.text("SELECT count(*) FROM runs WHERE status = 'complete'"), "4");
  EXPECT_EQ(d.text("SELECT count(DISTINCT run_id) FROM apps"), "4");
  EXPECT_EQ(d.text("SELECT count(*) FROM apps"), "8");
  EXPECT_EQ(d.text("SELECT count(*) FROM results"), "4");
}
