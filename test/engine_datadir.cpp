// iosim engine tests — where iosim finds the public datasets (src/base/ios_datadir.h): `iosim data dir` and
// ${IOSIM_DATA_DIR} in a scenario, with $IOSIM_DATA_DIR set, empty or unset and iosim's home (IOSIM_HOME) pointing at
// a hand-made folder that has ../shared/datasets, traces/datasets, both or neither. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <string>

using namespace iosim_test;

namespace {

// Sets (or, with nullptr, unsets) an environment variable for the life of the object, then restores it.
class EnvVar {
public:
  EnvVar(const char *name, const char *value) : name_(name) {
    const char *old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value != nullptr)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~EnvVar() {
    if (had_)
      setenv(name_.c_str(), old_.c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  EnvVar(const EnvVar &) = delete;
  EnvVar &operator=(const EnvVar &) = delete;

private:
  std::string name_, old_;
  bool had_ = false;
};

std::string canonical(const std::string &path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) != nullptr ? buf : path;
}

// A fake installation: TMP/home (iosim's home, named by IOSIM_HOME) and, on request, TMP/shared/datasets beside it
// and TMP/home/traces/datasets inside it, each holding one marker file.
struct Layout {
  TempDir tmp;
  std::string home;
  Layout(bool shared, bool fetched) {
    home = tmp.write("home/deploy/default.json", "{}");
    home = tmp.file("home");
    if (shared) tmp.write("shared/datasets/marker", "shared");
    if (fetched) tmp.write("home/traces/datasets/marker", "fetched");
  }
};

// `iosim data dir`, run in `scratch`.
Process where_is_data(const std::string &scratch) {
  return run_iosim({"data", "dir"}, scratch);
}

} // namespace

TEST(engine_datadir, EnvironmentVariableWins) {
  // System: IOSIM_DATA_DIR=/some/where (not even existing) and a home with both folders.
  // Expectations: `iosim data dir` prints /some/where as given (exit 0): an explicit choice is never second-guessed.
  Layout l(true, true);
  EnvVar home("IOSIM_HOME", l.home.c_str()), data("IOSIM_DATA_DIR", "/some/where");
  Process p = where_is_data(l.tmp.path());
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "/some/where\n");
}

TEST(engine_datadir, SharedBesideTheHomeThenTheDataStepsFolder) {
  // System: IOSIM_DATA_DIR empty (as good as unset), then unset; homes with both folders, with traces/datasets only,
  // with ../shared/datasets only.
  // Expectations: HOME/../shared/datasets when it exists (canonical path, the CI copy), else HOME/traces/datasets.
  EnvVar data("IOSIM_DATA_DIR", "");
  Layout both(true, true), fetched(false, true), shared(true, false);
  {
    EnvVar home("IOSIM_HOME", both.home.c_str());
    Process p = where_is_data(both.tmp.path());
    EXPECT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out, canonical(both.tmp.file("shared/datasets")) + "\n");
  }
  EnvVar unset("IOSIM_DATA_DIR", nullptr);
  {
    EnvVar home("IOSIM_HOME", fetched.home.c_str());
    Process p = where_is_data(fetched.tmp.path());
    EXPECT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out, canonical(fetched.tmp.file("home/traces/datasets")) + "\n");
  }
  {
    EnvVar home("IOSIM_HOME", shared.home.c_str());
    Process p = where_is_data(shared.tmp.path());
    EXPECT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out, canonical(shared.tmp.file("shared/datasets")) + "\n");
  }
}

TEST(engine_datadir, NoFolderSaysWhatWasTriedAndHowToGetTheData) {
  // System: IOSIM_DATA_DIR unset, a home with neither folder; `iosim data dir`, then `iosim check` of the shipped
  // deploy/ipdps21-queue.json, whose kernels generator reads ${IOSIM_DATA_DIR}/boito-queue-generator by default.
  // Expectations: both exit 2; the messages name HOME/../shared/datasets and HOME/traces/datasets and say
  // `make data`; check's names the scenario field.
  Layout none(false, false);
  EnvVar home("IOSIM_HOME", none.home.c_str()), data("IOSIM_DATA_DIR", nullptr);
  Process p = where_is_data(none.tmp.path());
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(p.out, "");
  for (const Process &q :
       {p, run_iosim({"check", std::string(IOSIM_SOURCE_DIR) + "/deploy/ipdps21-queue.json"}, none.tmp.path())}) {
    EXPECT_EQ(q.exit_code, 2) << q.err;
    EXPECT_NE(q.err.find(none.home + "/../shared/datasets"), std::string::npos) << q.err;
    EXPECT_NE(q.err.find(none.home + "/traces/datasets"), std::string::npos) << q.err;
    EXPECT_NE(q.err.find("make data"), std::string::npos) << q.err;
  }
}

TEST(engine_datadir, MissingFileNamesTheFolderAndItsRule) {
  // System: IOSIM_DATA_DIR set to an empty folder; `iosim check deploy/mn4-random16.json` (FORGE profiles under
  // ${IOSIM_DATA_DIR}/bez-forge-evaluation).
  // Expectations: exit 2; the message names the missing CSV, the folder and that $IOSIM_DATA_DIR chose it, the field
  // workload.generator.profiles and `make data`.
  TempDir tmp;
  std::string empty = tmp.write("empty/.keep", "");
  empty = tmp.file("empty");
  EnvVar data("IOSIM_DATA_DIR", empty.c_str());
  Process p = run_iosim({"check", std::string(IOSIM_SOURCE_DIR) + "/deploy/mn4-random16.json"}, tmp.path());
  EXPECT_EQ(p.exit_code, 2) << p.err;
  for (const char *says :
       {"mn4_189_patterns_mean_bw_by_ionodes.csv", "workload.generator.profiles", "make data", "($IOSIM_DATA_DIR)"})
    EXPECT_NE(p.err.find(says), std::string::npos) << says << " not in: " << p.err;
  EXPECT_NE(p.err.find("the datasets folder is " + empty), std::string::npos) << p.err;
}

TEST(engine_datadir, TheSourceTreeFindsItsData) {
  // System: the build tree's iosim and this test program with the suite's environment, IOSIM_DATA_DIR unset (the
  // README's `make test` exports nothing).
  // Expectations: `iosim data dir` and the test support's data_dir() agree, and the folder holds the FORGE profiles:
  // `make test` finds the datasets by itself (../shared/datasets beside the clone, else traces/datasets).
  EnvVar data("IOSIM_DATA_DIR", nullptr);
  TempDir tmp;
  Process p = where_is_data(tmp.path());
  ASSERT_EQ(p.exit_code, 0) << p.err;
  std::string dir = iosim_test::data_dir();
  EXPECT_EQ(p.out, dir + "\n");
  EXPECT_FALSE(dataset("bez-forge-evaluation/mn4_189_patterns_mean_bw_by_ionodes.csv").empty());
}
