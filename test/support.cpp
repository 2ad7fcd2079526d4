// iosim tests — see support.h.
#include "support.h"

#include "ios_datadir.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ftw.h>
#include <sys/stat.h>
#include <vector>

namespace iosim_test {

TempDir::TempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string templ = std::string(base != nullptr && base[0] != '\0' ? base : "/tmp") + "/iosim-test-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp(" << templ << ") failed: " << std::strerror(errno);
    return;
  }
  path_ = buf.data();
}

static int remove_entry(const char *path, const struct stat *, int, struct FTW *) {
  return std::remove(path);
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  if (std::getenv("IOSIM_KEEP_TEST_DIRS") != nullptr) {
    std::fprintf(stderr, "[iosim test] kept %s\n", path_.c_str());
    return;
  }
  nftw(path_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_parents(const std::string &path) {
  for (size_t pos = path.find('/', 1); pos != std::string::npos; pos = path.find('/', pos + 1))
    mkdir(path.substr(0, pos).c_str(), 0777);
}

std::string TempDir::write(const std::string &name, const std::string &content) const {
  std::string p = file(name);
  make_parents(p);
  std::ofstream f(p, std::ios::binary);
  f << content;
  f.close();
  if (!f) ADD_FAILURE() << "cannot write " << p;
  return p;
}

static std::string where() {
  char buf[4600];
  return ios_data_dir_describe(buf, sizeof buf);
}

std::string data_dir() {
  const char *dir = ios_data_dir(nullptr);
  if (dir == nullptr) {
    ADD_FAILURE() << where() << ": " << IOS_DATA_FIX;
    return "";
  }
  return dir;
}

std::string dataset(const std::string &rel) {
  std::string dir = data_dir();
  if (dir.empty()) return "";
  std::string path = dir + "/" + rel;
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    ADD_FAILURE() << "the dataset file " << rel << " is missing: " << where() << ": " << IOS_DATA_FIX;
    return "";
  }
  return path;
}

} // namespace iosim_test
