// iosim tests — what every test program shares: temporary directories that are removed, and the public datasets
// found the way iosim finds them (src/base/ios_datadir.h). A missing dataset fails the test; it is never skipped.
#ifndef IOSIM_TEST_SUPPORT_H
#define IOSIM_TEST_SUPPORT_H

#include <string>

namespace iosim_test {

/** A fresh directory under $TMPDIR (or /tmp), removed with its content on destruction unless the environment
 * variable IOSIM_KEEP_TEST_DIRS is set (then its path is printed for inspection). ctest runs every test with TMPDIR
 * in the build tree (CMakeLists.txt, test_tmp_check), where nothing may be left once the suite has run. */
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  /** Absolute path of `name` inside the directory. */
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  /** Writes `content` to `name` (creating parent directories) and returns its absolute path. */
  std::string write(const std::string &name, const std::string &content) const;

private:
  std::string path_;
};

/** The public datasets folder, as iosim finds it (ios_data_dir: $IOSIM_DATA_DIR, else ../shared/datasets beside the
 * source tree, else the data step's traces/datasets), or "" after recording a test failure that says what was tried
 * and how to get the data (`make data`). */
std::string data_dir();

/** The path of `rel` (e.g. "tokio-abc/tokio_abc_jobs_slim.csv") in data_dir(), or "" after recording a test failure
 * naming the file, the folder, the rule that chose it and the fix, when the file is not there. */
std::string dataset(const std::string &rel);

} // namespace iosim_test

#endif
