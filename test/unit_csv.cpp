// iosim unit tests — CSV field quoting (RFC 4180): names with ',', '"' or line breaks must not shift columns.
#include "ios_csv.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

// What `write` puts in a FILE, as a string.
template <class F> std::string capture(F write) {
  FILE *f = tmpfile();
  write(f);
  std::string out;
  rewind(f);
  for (int c; (c = fgetc(f)) != EOF;)
    out += (char)c;
  fclose(f);
  return out;
}

std::string field(const char *s) {
  return capture([&](FILE *f) { ios_csv_field(f, s); });
}

const char *item(int i, void *ctx) {
  return (*static_cast<std::vector<const char *> *>(ctx))[(size_t)i];
}

std::string list(std::vector<const char *> items, char sep = ';') {
  return capture([&](FILE *f) { ios_csv_list(f, (int)items.size(), item, &items, sep); });
}

} // namespace

TEST(unit_csv, PlainFieldsUnchanged) {
  EXPECT_EQ(field("io0"), "io0");
  EXPECT_EQ(field(""), "");
  EXPECT_EQ(field("a b;c"), "a b;c");
  EXPECT_EQ(field(nullptr), "");
  EXPECT_FALSE(ios_csv_needs_quotes("c10"));
  EXPECT_FALSE(ios_csv_needs_quotes(nullptr));
}

TEST(unit_csv, QuotedWhenNeeded) {
  EXPECT_EQ(field("a,b"), "\"a,b\"");
  EXPECT_EQ(field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(field("\""), "\"\"\"\"");
  EXPECT_TRUE(ios_csv_needs_quotes(","));
}

TEST(unit_csv, ListIsOneField) {
  EXPECT_EQ(list({}), "");
  EXPECT_EQ(list({"io0"}), "io0");
  EXPECT_EQ(list({"io0", "io1", "io2"}), "io0;io1;io2");
  EXPECT_EQ(list({"io0", "i,o1"}), "\"io0;i,o1\"");
  EXPECT_EQ(list({"a\"b", "c"}), "\"a\"\"b;c\"");
  EXPECT_EQ(list({"a", "b"}, ','), "\"a,b\"");
}
