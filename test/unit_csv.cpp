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

namespace {

// The fields ios_csv_split finds in `text` (at most `max`).
std::vector<std::string> split(std::string text, int max = 16) {
  std::vector<char> buf(text.begin(), text.end());
  buf.push_back('\0');
  std::vector<char *> fields((size_t)max);
  int n = ios_csv_split(buf.data(), fields.data(), max);
  return std::vector<std::string>(fields.begin(), fields.begin() + n);
}

using Fields = std::vector<std::string>;

} // namespace

// Expectations (by hand, RFC 4180 as written by ios_csv_field): commas separate; spaces around a field go; empty
// fields stay; the line end goes; a quoted field keeps its commas and spaces and undoubles its quotes; text after a
// closing quote is ignored; an unterminated quote runs to the end of the line; at most `max` fields.
TEST(unit_csv, SplitReadsWhatTheWriterWrites) {
  EXPECT_EQ(split("a,b,c\n"), (Fields{"a", "b", "c"}));
  EXPECT_EQ(split(" a , b,c \r\n"), (Fields{"a", "b", "c"}));
  EXPECT_EQ(split("a,,c,"), (Fields{"a", "", "c", ""}));
  EXPECT_EQ(split(""), (Fields{""}));
  EXPECT_EQ(split("\n"), (Fields{""}));
  EXPECT_EQ(split("x,\"a, b\",y"), (Fields{"x", "a, b", "y"}));
  EXPECT_EQ(split("\"say \"\"hi\"\"\",2"), (Fields{"say \"hi\"", "2"}));
  EXPECT_EQ(split(" \"2020-01-01 00:00:00\" ,7"), (Fields{"2020-01-01 00:00:00", "7"}));
  EXPECT_EQ(split("\"\",\"\"\"\""), (Fields{"", "\""}));
  EXPECT_EQ(split("\"ab\"cd,e"), (Fields{"ab", "e"}));
  EXPECT_EQ(split("\"open, never closed"), (Fields{"open, never closed"}));
  EXPECT_EQ(split("a,b,c,d", 2), (Fields{"a", "b"}));
  std::vector<const char *> names = {"plain", "with,comma", "with \"quotes\"", " lead"};
  std::string row;
  for (size_t i = 0; i < names.size(); i++)
    row += (i ? "," : "") + field(names[i]);
  EXPECT_EQ(split(row), (Fields{"plain", "with,comma", "with \"quotes\"", "lead"})) << row;
}
