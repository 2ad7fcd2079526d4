// Unit tests of the validated value reader (src/base/value.c), the units' overflow checks and the diagnostics' cutting
// of long messages: each rule is checked on a value it accepts and on the values it refuses, with the exact message.
#include "ios_diag.h"
#include "ios_policy.h"
#include "ios_units.h"
#include "ios_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

struct Json {
  cJSON *v;
  explicit Json(const char *text) : v(cJSON_Parse(text)) {}
  ~Json() { cJSON_Delete(v); }
};

const ios_num_spec_t kCount = {1, 100, 0, 1, IOS_UNIT_NONE, "the count"};
const ios_num_spec_t kSize = {0, IOS_VALUE_MAX_BYTES, 0, 0, IOS_UNIT_BYTES, NULL};
const ios_num_spec_t kRate = {0, IOS_VALUE_MAX_BANDWIDTH, 1, 0, IOS_UNIT_BANDWIDTH, "b"};

} // namespace

TEST(Value, NumberInRangeIsRead) {
  Json j("42");
  double x = -1;
  EXPECT_EQ(ios_value_number(j.v, &kCount, "f.json", "n", &x), IOS_OK);
  EXPECT_EQ(x, 42);
}

TEST(Value, NumberOutOfRangeNamesFileFieldValueAndRange) {
  Json j("101");
  double x = -1;
  EXPECT_EQ(ios_value_number(j.v, &kCount, "f.json", "n", &x), IOS_EINVAL);
  EXPECT_EQ(x, -1) << "the output must be untouched";
  EXPECT_STREQ(ios_diag_message(), "f.json: n: is 101: give an integer in [1, 100] — the count");
}

TEST(Value, NonIntegerCountIsRefused) {
  Json j("2.5");
  double x;
  EXPECT_EQ(ios_value_number(j.v, &kCount, "f", "n", &x), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(), "f: n: is 2.5: give an integer in [1, 100] — the count");
}

TEST(Value, WrongTypesNullAndMissingAreRefusedNotDereferenced) {
  double x;
  Json s("\"7\""), n("null"), a("[1]");
  EXPECT_EQ(ios_value_number(s.v, &kCount, "f", "n", &x), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(), "f: n: is \"7\" (a string): give an integer in [1, 100] — the count");
  EXPECT_EQ(ios_value_number(n.v, &kCount, "f", "n", &x), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(), "f: n: is null (null): give an integer in [1, 100] — the count");
  EXPECT_EQ(ios_value_number(a.v, &kCount, "f", "n", &x), IOS_EINVAL);
  EXPECT_EQ(ios_value_number(NULL, &kCount, "f", "n", &x), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(), "f: n: is missing: give an integer in [1, 100] — the count");
  const char *str = "unchanged";
  EXPECT_EQ(ios_value_string(n.v, 0, "a name", "f", "s", &str), IOS_EINVAL);
  EXPECT_STREQ(str, "unchanged");
  EXPECT_STREQ(ios_diag_message(), "f: s: is null (null): give a string — a name");
  int b = 7;
  EXPECT_EQ(ios_value_bool(a.v, "f", "b", &b), IOS_EINVAL);
  EXPECT_EQ(b, 7);
  EXPECT_EQ(ios_value_object(n.v, "{}", "f", "o"), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(), "f: o: is null (null): give an object, e.g. {}");
}

TEST(Value, IntegersNeverOverflowAnInt) {
  Json j("2147483648");
  int n = 3;
  EXPECT_EQ(ios_value_int(j.v, 0, 1e300, "a count", "f", "n", &n), IOS_EINVAL);
  EXPECT_EQ(n, 3);
  EXPECT_STREQ(ios_diag_message(), "f: n: is 2147483648: give an integer in [0, 2.14748e+09] — a count");
}

TEST(Value, UnitsAreReadFromStringsAndInfinityIsRefused) {
  Json gib("\"2GiB\""), inf("\"1e308GiB\""), bw("\"1.5GB/s\""), zero("0");
  double x = 0;
  EXPECT_EQ(ios_value_number(gib.v, &kSize, "f", "io", &x), IOS_OK);
  EXPECT_EQ(x, 2.0 * 1073741824.0);
  EXPECT_EQ(ios_value_number(inf.v, &kSize, "f", "io", &x), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(),
               "f: io: is \"1e308GiB\": give a size in [0, 1e+21] (bytes, or a string such as \"2GiB\")");
  EXPECT_EQ(ios_value_number(bw.v, &kRate, "f", "bw", &x), IOS_OK);
  EXPECT_EQ(x, 1.5e9);
  EXPECT_EQ(ios_value_number(zero.v, &kRate, "f", "bw", &x), IOS_EINVAL) << "(0, max]: 0 excluded";
  double y = 5;
  EXPECT_EQ(ios_parse_bytes("1e308GiB", &y), IOS_EINVAL);
  EXPECT_EQ(ios_parse_duration("1e308d", &y), IOS_EINVAL);
  EXPECT_EQ(ios_parse_bandwidth("1e308GB/s", &y), IOS_EINVAL);
  EXPECT_EQ(ios_parse_bytes("inf", &y), IOS_EINVAL);
  EXPECT_EQ(y, 5);
}

TEST(Value, NumbersFromTextCells) {
  double x = 0;
  EXPECT_EQ(ios_value_number_text("12", &kCount, "s.txt", "line 1", &x), IOS_OK);
  EXPECT_EQ(x, 12);
  EXPECT_EQ(ios_value_number_text("12x", &kCount, "s.txt", "line 1", &x), IOS_EINVAL);
  EXPECT_STREQ(ios_diag_message(), "s.txt: line 1: is '12x': give an integer in [1, 100] — the count");
  EXPECT_EQ(ios_value_number_text("1e30", &kCount, "s.txt", "line 1", &x), IOS_EINVAL);
  EXPECT_EQ(ios_value_number_text("nan", &kCount, "s.txt", "line 1", &x), IOS_EINVAL);
  EXPECT_EQ(ios_value_number_text("", &kCount, "s.txt", "line 1", &x), IOS_EINVAL);
  EXPECT_EQ(x, 12);
}

TEST(Value, ChoiceListsTheValidValues) {
  static const char *const modes[] = {"v1", "v2", NULL};
  Json v2("\"v2\""), v3("\"v3\"");
  int i = -1;
  EXPECT_EQ(ios_value_choice(v2.v, modes, NULL, "f", "window.mode", &i), IOS_OK);
  EXPECT_EQ(i, 1);
  EXPECT_EQ(ios_value_choice(v3.v, modes, "the window mode", "f", "window.mode", &i), IOS_EINVAL);
  EXPECT_EQ(i, 1);
  EXPECT_STREQ(ios_diag_message(), "f: window.mode: is \"v3\" (a string): give \"v1\" or \"v2\" — the window mode");
}

// --set: the whole text is JSON, or it is a string (cJSON alone would read "50GBps" as 50).
TEST(Value, CommandLineValues) {
  struct {
    const char *text;
    int is_string;
  } cases[] = {{"50GBps", 1}, {"1N1D", 1}, {"3", 0}, {"[1,", 1}, {"{\"a\": 1}", 0}, {"null", 0}, {"", 1}, {"5 6", 1}};
  for (const auto &c : cases) {
    cJSON *v = ios_value_from_cli(c.text);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(cJSON_IsString(v) != 0, c.is_string != 0) << c.text;
    if (c.is_string) {
      EXPECT_STREQ(v->valuestring, c.text);
    }
    cJSON_Delete(v);
  }
}

TEST(Value, TextOfALongValueIsCut) {
  std::string big = "\"" + std::string(500, 'y') + "\"";
  Json j(big.c_str());
  char buf[200];
  ios_value_text(j.v, buf, sizeof buf);
  EXPECT_EQ(std::string(buf), "\"" + std::string(56, 'y') + "...");
}

// Over 2 KB the message keeps the file, the field and the end of the text (the fix); the middle is cut.
TEST(Diag, LongMessageKeepsFieldAndFix) {
  std::string value(5000, 'z');
  ios_diag_set("scenario.json", "window.mode", "is '%s': give \"v1\" or \"v2\"", value.c_str());
  std::string m = ios_diag_message();
  EXPECT_LT(m.size(), 2048u);
  EXPECT_EQ(m.rfind("scenario.json: window.mode: is 'zzz", 0), 0u) << m;
  EXPECT_NE(m.find(" ... "), std::string::npos);
  const std::string fix = "': give \"v1\" or \"v2\"";
  EXPECT_EQ(m.substr(m.size() - fix.size()), fix) << m;
  ios_diag_set(std::string(3000, 'f').c_str(), "field", "the fix");
  m = ios_diag_message();
  EXPECT_NE(m.find(": field: the fix"), std::string::npos) << m;
  ios_diag_set("f", "w", "line\nbreak");
  EXPECT_STREQ(ios_diag_message(), "f: w: line break");
}
