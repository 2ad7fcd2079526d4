// iosim engine tests — an installed iosim finds its own files relative to itself (src/cli/main.c iosim_home), with no
// source path compiled in: `cmake --install` into a fresh prefix, then PREFIX/bin/iosim with no argument runs the
// embedded default from PREFIX/share/iosim (one process per run).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace iosim_test;

// System: the build installed into a fresh prefix. Expectations: PREFIX/share/iosim holds deploy/default.json, and
// PREFIX/lib/python3/dist-packages/iosim the Python package (report.py, the compiled _core); PREFIX/bin/iosim with no
// argument runs deploy/default.json from there (the default platform is found relative to it: the header shows
// PREFIX/share/iosim/platforms/mn4-forwarding.xml, canonical) and writes results.json into the current directory's
// results/default/; IOSIM_HOME, taken as given, overrides the lookup: pointing it to a folder without deploy/ makes the
// default run exit 2 naming the missing scenario.
TEST(install_engine, InstalledBinaryFindsItsOwnFiles) {
  TempDir prefix;
  std::string cmd = std::string(IOSIM_CMAKE) + " --install " + IOSIM_BUILD_DIR + " --prefix " + prefix.path() + " > " +
                    prefix.file("install.log") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_text(prefix.file("install.log"));
  EXPECT_TRUE(file_exists(prefix.file("share/iosim/deploy/default.json")));
  EXPECT_TRUE(file_exists(prefix.file("lib/python3/dist-packages/iosim/report.py")));
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

// System: the build installed into a fresh prefix, run with no variable pointing back at the build tree. Expectations:
// the Python behind `iosim sweep` + `iosim report` (docs/tutorial.md step 5: 6 runs, report.md and view.html) and
// `iosim calibrate --darshan` (the sample logs) is the installed package's (found beside PREFIX/bin/iosim), and
// `import iosim` there reaches the compiled module (iosim.policies).
TEST(install_engine, InstalledCommandsRunTheInstalledPackage) {
  TempDir prefix;
  std::string cmd = std::string(IOSIM_CMAKE) + " --install " + IOSIM_BUILD_DIR + " --prefix " + prefix.path() + " > " +
                    prefix.file("install.log") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_text(prefix.file("install.log"));
  std::string sample = dataset("darshan-logs/sample.darshan");
  ASSERT_FALSE(sample.empty());
  std::string logs = sample.substr(0, sample.rfind('/'));
  TempDir work;
  std::string bin = prefix.file("bin/iosim");
  std::string env = "cd " + work.path() + " && env -u IOSIM_PYTHONPATH -u PYTHONPATH -u IOSIM_HOME MPLBACKEND=Agg ";
  std::string sweep = env + bin + " sweep " + prefix.file("share/iosim/docs/tutorial/whatif.json") +
                      " --jobs 2 -o camp > sweep.txt 2>&1 && " + env + bin + " report camp > report.txt 2>&1";
  ASSERT_EQ(std::system(sweep.c_str()), 0) << read_text(work.file("sweep.txt")) << read_text(work.file("report.txt"));
  EXPECT_TRUE(file_exists(work.file("camp/report/report.md"))) << read_text(work.file("report.txt"));
  EXPECT_TRUE(file_exists(work.file("camp/report/view.html"))) << read_text(work.file("report.txt"));
  std::string cal = env + bin + " calibrate --darshan " + logs + " --days 100000 -o cal.json > cal.txt 2>&1";
  ASSERT_EQ(std::system(cal.c_str()), 0) << read_text(work.file("cal.txt"));
  EXPECT_NE(read_text(work.file("cal.json")).find("\"darshan\""), std::string::npos)
      << read_text(work.file("cal.json"));
#ifdef IOSIM_SANITIZER_PRELOAD
  // an ASan build's iosim._core needs the sanitizers' runtime first in the interpreter (as iosim itself preloads it)
  env += "LD_PRELOAD='" IOSIM_SANITIZER_PRELOAD "' ASAN_OPTIONS=detect_leaks=0 ";
#endif
  std::string py = env + "PYTHONPATH=" + prefix.file("lib/python3/dist-packages") +
                   " /usr/bin/python3 -c 'import iosim; print(len(iosim.policies(\"sharing\")) > 0, iosim.__file__)' "
                   "> py.txt 2> py-err.txt"; // stderr apart: a debug build's pybind11 warns on import
  ASSERT_EQ(std::system(py.c_str()), 0) << read_text(work.file("py.txt")) << read_text(work.file("py-err.txt"));
  EXPECT_EQ(read_text(work.file("py.txt")).rfind("True " + prefix.file("lib/python3/dist-packages/iosim/"), 0), 0u)
      << read_text(work.file("py.txt")) << read_text(work.file("py-err.txt"));
}
