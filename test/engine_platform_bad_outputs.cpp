// iosim engine tests — outputs with hostile names and reused output directories (issue 13): host ids holding ',' or
// '"' are quoted in apps.csv and resources.csv (RFC 4180) so that no column shifts; a run in a
// directory that holds an earlier run's outputs removes them first and says so (docs/outputs.md).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kScenario = R"({
  "workload": {"applications": [{"name": "A", "profile": {"1": 8e8, "2": 1.6e9}, "work": 1, "io": 1e9}]},
  "allocation": {"policy": "fixed", "n": 2},
  "output": {"progress": false}
}
)";

} // namespace

// Two I/O nodes named r,0 and r"1 (&quot; in the XML): every row of apps.csv and resources.csv keeps its width, and
// the names read back whole.
TEST(engine_platform_bad_outputs, HostileNamesAreQuoted) {
  TinyPlatform p;
  p.resources = {{"r,0", 1e9}, {"r&quot;1", 1e9}};
  RunOptions opt;
  opt.sets = {"output.events=true"};
  SimRun r = run_scenario(kScenario, tiny_platform_xml(p), opt);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  for (const char *csv : {"/events.csv", "/allocations.csv"}) { // written by the engine: same quoting
    CsvTable t = parse_csv(read_text(r.out_dir + csv));
    ASSERT_FALSE(t.empty()) << csv;
    bool both = false;
    for (const auto &row : t) {
      EXPECT_EQ(row.count("__bad_width"), 0u) << csv << ": " << read_text(r.out_dir + csv);
      both |= row.count("resources") && row.at("resources") == "r\"1;r,0";
      both |= row.count("resource") && row.at("resource") == "r\"1;r,0";
    }
    EXPECT_TRUE(both) << csv << " names both resources whole: " << read_text(r.out_dir + csv);
  }
  ASSERT_EQ(r.resources_csv.size(), 2u);
  for (const auto &row : r.resources_csv)
    EXPECT_EQ(row.count("__bad_width"), 0u) << read_text(r.out_dir + "/resources.csv");
  EXPECT_EQ(r.resources_csv[0].at("name"), "r\"1"); // natural name order: '"' before ','
  EXPECT_EQ(r.resources_csv[1].at("name"), "r,0");
  EXPECT_EQ(r.resources_csv[0].at("kind"), "ionode");
  ASSERT_EQ(r.apps_csv.size(), 1u);
  EXPECT_EQ(r.apps_csv[0].count("__bad_width"), 0u) << read_text(r.out_dir + "/apps.csv");
  EXPECT_EQ(r.apps_csv[0].at("name"), "A");
  EXPECT_EQ(r.apps_csv[0].at("nodes"), "1");
  EXPECT_EQ(r.apps_csv[0].at("resources"), "r\"1;r,0");
  std::string text = read_text(r.out_dir + "/resources.csv");
  EXPECT_NE(text.find("\n\"r,0\",ionode,"), std::string::npos) << text;
  EXPECT_NE(text.find("\n\"r\"\"1\",ionode,"), std::string::npos) << text;
}

// An earlier run's events.csv (and a stray requests.csv) must not survive beside a new run that writes none; the
// summary names what was removed; files that are not iosim outputs stay.
TEST(engine_platform_bad_outputs, ReusedDirectoryStartsClean) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}, {"r1", 1e9}};
  RunOptions opt;
  opt.sets = {"output.events=true"};
  SimRun first = run_scenario(kScenario, tiny_platform_xml(p), opt);
  ASSERT_EQ(first.proc.exit_code, 0) << first.describe();
  ASSERT_TRUE(file_exists(first.out_dir + "/events.csv"));
  first.dir->write("out/requests.csv", "stale\n");
  first.dir->write("out/notes.txt", "mine\n");
  Process again = run_iosim(
      {"run", first.scenario_path, "--set", "platform=" + first.dir->file("platform.xml"), "--out", first.out_dir},
      first.dir->path(), first.dir->path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_FALSE(file_exists(first.out_dir + "/events.csv"));
  EXPECT_FALSE(file_exists(first.out_dir + "/requests.csv"));
  EXPECT_TRUE(file_exists(first.out_dir + "/results.json"));
  EXPECT_TRUE(file_exists(first.out_dir + "/apps.csv"));
  EXPECT_EQ(read_text(first.out_dir + "/notes.txt"), "mine\n");
  EXPECT_NE(again.out.find("held the outputs of an earlier run; removed before this one: results.json, apps.csv, "
                           "resources.csv, events.csv, allocations.csv, requests.csv"),
            std::string::npos)
      << again.out;
  // a fresh directory: no note
  SimRun fresh = run_scenario(kScenario, tiny_platform_xml(p));
  ASSERT_EQ(fresh.proc.exit_code, 0) << fresh.describe();
  EXPECT_EQ(fresh.proc.out.find("earlier run"), std::string::npos) << fresh.proc.out;
}

// --out naming a file: exit 2 and a message saying it is not a directory.
TEST(engine_platform_bad_outputs, OutputDirIsAFile) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}};
  RunOptions opt;
  opt.set_out = false;
  opt.extra_files = {{"afile", "x\n"}};
  opt.sets = {"output.dir=afile"};
  SimRun r = run_scenario(kScenario, tiny_platform_xml(p), opt);
  EXPECT_EQ(r.proc.exit_code, 2) << r.describe();
  EXPECT_NE(r.proc.err.find("is a file, not a directory"), std::string::npos) << r.proc.err;
  EXPECT_EQ(read_text(r.dir->file("afile")), "x\n");
}
