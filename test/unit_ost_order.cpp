// The order of a platform's OSTs (src/inputs/platform_osts.c; platforms/README.md, "The order of the OSTs").
#include "platform_osts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

struct Ordered {
  int rc;
  std::vector<std::string> names; // in platform order
  std::vector<long> index;
  std::string warning;
  int dup_a = -1, dup_b = -1;
};

Ordered order_of(const std::vector<std::string> &in) {
  std::vector<const char *> names;
  for (const auto &s : in)
    names.push_back(s.c_str());
  std::vector<int> order(in.size());
  std::vector<long> index(in.size());
  char warning[512];
  Ordered o;
  o.rc = ios_ost_order(names.data(), (int)in.size(), order.data(), index.data(), warning, sizeof warning, &o.dup_a,
                       &o.dup_b);
  if (o.rc == 0)
    for (size_t i = 0; i < in.size(); i++) {
      o.names.push_back(in[(size_t)order[i]]);
      o.index.push_back(index[i]);
    }
  o.warning = warning;
  return o;
}

} // namespace

TEST(OstOrder, LustreNamesParseTheirHexadecimalIndex) {
  // System: Lustre target names. Expectations: 000a is 10, 00ff 255, ffff 65535, either case; the file system's
  // name is what precedes the last "-OST"; 3 or 9 digits, a non-hex digit or no name before "-OST" are not Lustre's.
  long idx = -7;
  size_t fs = 0;
  EXPECT_EQ(ios_ost_lustre_name("scratch-OST000a", &idx, &fs), 1);
  EXPECT_EQ(idx, 10);
  EXPECT_EQ(fs, 7u);
  EXPECT_EQ(ios_ost_lustre_name("scratch-OST00FF", &idx, &fs), 1);
  EXPECT_EQ(idx, 255);
  EXPECT_EQ(ios_ost_lustre_name("my-fs-OSTffff", &idx, &fs), 1);
  EXPECT_EQ(idx, 65535);
  EXPECT_EQ(fs, 5u);
  idx = -7;
  EXPECT_EQ(ios_ost_lustre_name("scratch-OST00a", &idx, &fs), 0);
  EXPECT_EQ(ios_ost_lustre_name("scratch-OST00000000a", &idx, &fs), 0);
  EXPECT_EQ(ios_ost_lustre_name("scratch-OST000g", &idx, &fs), 0);
  EXPECT_EQ(ios_ost_lustre_name("-OST0001", &idx, &fs), 0);
  EXPECT_EQ(ios_ost_lustre_name("ost3", &idx, &fs), 0);
  EXPECT_EQ(idx, -7); // untouched when not a Lustre name
}

TEST(OstOrder, HexadecimalNamesInIndexOrder) {
  // System: 16 OSTs scratch-OST0000 .. scratch-OST000f, given shuffled. Expectations: index order 0..15, so
  // position 2 is OST0002 and position 11 OST000b (the decimal-run natural order put 000a..000f before 0001 and
  // position 2 on OST000b); no warning.
  std::vector<std::string> in;
  const char *hex = "0123456789abcdef";
  for (int k : {5, 0xb, 2, 0, 0xf, 1, 0xa, 3, 0xe, 4, 0xc, 6, 0xd, 7, 9, 8})
    in.push_back(std::string("scratch-OST000") + hex[k]);
  Ordered o = order_of(in);
  ASSERT_EQ(o.rc, 0);
  for (int k = 0; k < 16; k++) {
    EXPECT_EQ(o.names[(size_t)k], std::string("scratch-OST000") + hex[k]) << k;
    EXPECT_EQ(o.index[(size_t)k], k);
  }
  EXPECT_EQ(o.names[2], "scratch-OST0002");
  EXPECT_EQ(o.names[11], "scratch-OST000b");
  EXPECT_EQ(o.warning, "");
}

TEST(OstOrder, TwoFileSystemsByNameThenIndexAndDuplicatesRefused) {
  // Expectations: by file system name (a < b), then index; the same index twice in one file system: -1 naming both.
  Ordered o = order_of({"b-OST0001", "a-OST0010", "b-OST0000", "a-OST0002"});
  ASSERT_EQ(o.rc, 0);
  EXPECT_EQ(o.names, (std::vector<std::string>{"a-OST0002", "a-OST0010", "b-OST0000", "b-OST0001"}));
  EXPECT_EQ(o.index, (std::vector<long>{2, 16, 0, 1}));
  Ordered d = order_of({"fs-OST000a", "fs-OST0001", "fs-OST000A"});
  EXPECT_EQ(d.rc, -1);
  EXPECT_EQ(d.dup_a + d.dup_b, 0 + 2); // the two names of index 10
}

TEST(OstOrder, OtherNamesNaturalOrderWarningWhenNoOrder) {
  // Expectations: ost0..ost10 in natural order (ost2 before ost10), no warning, no Lustre index; names without a
  // number: byte order and a warning; ost1 and ost01: a warning naming both; a mix of Lustre and other names:
  // natural order and a warning.
  Ordered n = order_of({"ost10", "ost2", "ost0", "ost1"});
  ASSERT_EQ(n.rc, 0);
  EXPECT_EQ(n.names, (std::vector<std::string>{"ost0", "ost1", "ost2", "ost10"}));
  EXPECT_EQ(n.index, (std::vector<long>{-1, -1, -1, -1}));
  EXPECT_EQ(n.warning, "");
  Ordered w = order_of({"gamma", "alpha", "beta"});
  ASSERT_EQ(w.rc, 0);
  EXPECT_EQ(w.names, (std::vector<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_NE(w.warning.find("no OST name holds a number"), std::string::npos) << w.warning;
  Ordered z = order_of({"ost01", "ost1", "ost0"});
  ASSERT_EQ(z.rc, 0);
  EXPECT_EQ(z.names, (std::vector<std::string>{"ost0", "ost01", "ost1"}));
  EXPECT_NE(z.warning.find("ost01 and ost1"), std::string::npos) << z.warning;
  Ordered m = order_of({"fs-OST0001", "ost0"});
  ASSERT_EQ(m.rc, 0);
  EXPECT_NE(m.warning.find("1 of the 2 OSTs"), std::string::npos) << m.warning;
}

TEST(OstOrder, NaturalCompareIsDecimalRuns) {
  EXPECT_LT(ios_name_natural_cmp("c2", "c10"), 0);
  EXPECT_GT(ios_name_natural_cmp("c10", "c9"), 0);
  EXPECT_EQ(ios_name_natural_cmp("ost01", "ost1"), 0);
  EXPECT_LT(ios_name_natural_cmp("a", "b"), 0);
  EXPECT_LT(ios_name_natural_cmp("n99999999999999999999998", "n99999999999999999999999"), 0); // no overflow
}
