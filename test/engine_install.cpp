// iosim engine tests — an installed iosim finds its own files relative to itself (src/cli/main.c iosim_home), with no
// source path compiled in: `cmake --install` into a fresh prefix, then PREFIX/bin/iosim with no argument runs the
// embedded default from PREFIX/share/iosim (one process per run).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace iosim_test;

// System: the build installed into a fresh prefix. Expectations: PREFIX/share/iosim holds deploy/default.json and
// analysis/report.py; PREFIX/bin/iosim with no argument runs deploy/default.json from there (the default platform is
// found relative to it: the header shows PREFIX/share/iosim/platforms/mn4-forwarding.xml, canonical) and writes
// results.json into the current directory's results/default/; IOSIM_HOME, taken as
// given, overrides the lookup: pointing it to a folder without deploy/ makes the default run exit 2 naming the
// missing scenario.
TEST(install_engine, InstalledBinaryFindsItsOwnFiles) {
  TempDir prefix;
  std::string cmd = std::string(IOSIM_CMAKE) + " --install " + IOSIM_BUILD_DIR + " --prefix " + prefix.path() + " > " +
                    prefix.file("install.log") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_text(prefix.file("install.log"));
  EXPECT_TRUE(file_exists(prefix.file("share/iosim/deploy/default.json")));
  EXPECT_TRUE(file_exists(prefix.file("share/iosim/analysis/report.py")));
  TempDir work;
  std::string bin = prefix.file("bin/iosim");
  std::string run = "cd " + work.path() + " && " + bin + " > out.txt 2> err.txt";
  ASSERT_EQ(std::system(run.c_str()), 0) << read_text(work.file("err.txt"));
  EXPECT_TRUE(file_exists(work.file("results/default/results.json"))) << read_text(work.file("out.txt"));
  char *real_prefix = realpath(prefix.path().c_str(), nullptr); // the header shows the platform's canonical path
  ASSERT_NE(real_prefix, nullptr);
  std::string platform_dir = std::string(real_prefix) + "/share/iosim/platforms/";
  free(real_prefix);
  EXPECT_NE(read_text(work.file("out.txt")).find("resources (" + platform_dir + "mn4-forwarding.xml)"),
            std::string::npos)
      << read_text(work.file("out.txt"));
  std::string elsewhere = "cd " + work.path() + " && IOSIM_HOME=" + work.path() + " " + bin + " > out2.txt 2> err2.txt";
  int rc = std::system(elsewhere.c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 2) << read_text(work.file("err2.txt"));
  EXPECT_NE(read_text(work.file("err2.txt")).find(work.path() + "/deploy/default.json"), std::string::npos)
      << read_text(work.file("err2.txt"));
}
