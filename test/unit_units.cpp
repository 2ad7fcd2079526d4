// Unit tests of the human-unit parsers (src/base/ios_units.h): sizes, bandwidths and durations, their prefixes and
// bit/byte distinction, and the error cases (which must leave the output untouched).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "ios_policy.h"
#include "ios_units.h"

namespace {

constexpr double kSentinel = -12345.5; // an output value no valid input produces

typedef int (*parser_t)(const char *, double *);

// Parses text, expecting success; returns the value (NaN when the parser failed, which fails the caller's check).
double ok(parser_t parse, const char *text) {
  double v = kSentinel;
  int rc = parse(text, &v);
  EXPECT_EQ(rc, IOS_OK) << "input \"" << text << "\"";
  return rc == IOS_OK ? v : std::nan("");
}

// Expects IOS_EINVAL and an untouched output.
void fails(parser_t parse, const char *text) {
  double v = kSentinel;
  EXPECT_EQ(parse(text, &v), IOS_EINVAL) << "input \"" << text << "\" was accepted as " << v;
  EXPECT_EQ(v, kSentinel) << "input \"" << text << "\" modified the output";
}

} // namespace

// ------------------------------------------------------------------------------------------------ sizes
TEST(ParseBytes, DecimalPrefixes) {
  // System: decimal prefixes k M G T P E = 10^3, 10^6, ... with "B" = bytes.
  // Expectations: "200GB" = 200·1e9 = 2e11; "1kB" = "1KB" = 1e3; "3MB" = 3e6; "2TB" = 2e12; "1PB" = 1e15;
  // "1EB" = 1e18; "5B" = 5.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "200GB"), 2e11);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1kB"), 1e3);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1KB"), 1e3);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "3MB"), 3e6);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "2TB"), 2e12);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1PB"), 1e15);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1EB"), 1e18);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "5B"), 5.0);
}

TEST(ParseBytes, BinaryPrefixes) {
  // System: binary prefixes Ki Mi Gi Ti Pi = 2^10, 2^20, 2^30, 2^40, 2^50.
  // Expectations: "1.5GiB" = 1.5·2^30 = 1610612736; "1KiB" = 1024; "4MiB" = 4194304; "2TiB" = 2^41; "1PiB" = 2^50.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1.5GiB"), 1610612736.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1KiB"), 1024.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "4MiB"), 4194304.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "2TiB"), std::ldexp(1.0, 41));
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1PiB"), std::ldexp(1.0, 50));
}

TEST(ParseBytes, BareNumbersAreBytes) {
  // System: no unit. Expectations: "1024" = 1024; "0" = 0; "1e3" = 1000; "2.5" = 2.5.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1024"), 1024.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "0"), 0.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1e3"), 1000.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "2.5"), 2.5);
}

TEST(ParseBytes, LowerCaseBIsBits) {
  // System: a lower-case "b" means bits (8 bits per byte).
  // Expectations: "8Gb" = 8·1e9/8 = 1e9 bytes; "1Kib" = 1024/8 = 128 bytes; "16b" = 2 bytes.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "8Gb"), 1e9);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "1Kib"), 128.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "16b"), 2.0);
}

TEST(ParseBytes, SpacesAroundTheUnit) {
  // System: spaces between number and unit and around the text (the parser trims them).
  // Expectations: "12.5 GiB " = 12.5·2^30 = 13421772800; " 3 kB" = 3000.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "12.5 GiB "), 13421772800.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, " 3 kB"), 3000.0);
}

TEST(ParseBytes, SpelledOutBytesAreNotBits) {
  // System: the unit spelled out in lower case, "bytes" (the parser knows the suffixes "yte"/"ytes").
  // Expectations: "5bytes" means 5 bytes. Reading its lower-case "b" as "bits" would give 5/8 = 0.625 bytes, a
  // silent factor-8 error in a scenario; rejecting the spelling would be acceptable, 0.625 is not.
  double v = kSentinel;
  int rc = ios_parse_bytes("5bytes", &v);
  if (rc == IOS_OK) {
    EXPECT_DOUBLE_EQ(v, 5.0) << "\"5bytes\" parsed as bits";
  } else {
    EXPECT_EQ(v, kSentinel);
  }
  v = kSentinel;
  rc = ios_parse_bytes("2kbyte", &v);
  if (rc == IOS_OK) {
    EXPECT_DOUBLE_EQ(v, 2000.0) << "\"2kbyte\" parsed as bits";
  }
  // The upper-case spelling is unambiguous: "5Bytes" = 5.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bytes, "5Bytes"), 5.0);
}

TEST(ParseBytes, Errors) {
  // System: malformed inputs. Expectations: IOS_EINVAL, output untouched, for an empty string, no number, a
  // negative size, an unknown unit, NaN and infinities, a unit without number, a bandwidth unit, and NULL.
  fails(ios_parse_bytes, "");
  fails(ios_parse_bytes, "   ");
  fails(ios_parse_bytes, "abc");
  fails(ios_parse_bytes, "-5GB");
  fails(ios_parse_bytes, "5 parsecs");
  fails(ios_parse_bytes, "nan");
  fails(ios_parse_bytes, "NaN GB");
  fails(ios_parse_bytes, "inf");
  fails(ios_parse_bytes, "1e400");
  fails(ios_parse_bytes, "GB");
  fails(ios_parse_bytes, "5GB/s");
  fails(ios_parse_bytes, "5G");
  fails(ios_parse_bytes, "5gB");
  fails(ios_parse_bytes, "5 GB extra");
  fails(ios_parse_bytes, nullptr);
}

// ------------------------------------------------------------------------------------------------ bandwidths
TEST(ParseBandwidth, BytesPerSecond) {
  // System: "<prefix>B/s" and SimGrid's "<prefix>Bps" are bytes/s.
  // Expectations: "1.2GiB/s" = 1.2·2^30 = 1288490188.8; "1.25GBps" = 1.25e9; "10MiBps" = 10·2^20 = 10485760;
  // "500MB/s" = 5e8; "3kBps" = 3000; "7B/s" = 7.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "1.2GiB/s"), 1288490188.8);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "1.25GBps"), 1.25e9);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "10MiBps"), 10485760.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "500MB/s"), 5e8);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "3kBps"), 3000.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "7B/s"), 7.0);
}

TEST(ParseBandwidth, BitsPerSecond) {
  // System: "bps" and "b/s" are bits/s. Expectations: "100Gbps" = 100·1e9/8 = 12.5e9 bytes/s;
  // "10Gb/s" = 1.25e9; "800bps" = 100; "1Mibps" = 2^20/8 = 131072.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "100Gbps"), 12.5e9);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "10Gb/s"), 1.25e9);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "800bps"), 100.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "1Mibps"), 131072.0);
}

TEST(ParseBandwidth, BareNumberIsBytesPerSecond) {
  // System: no unit. Expectations: "1000000" = 1e6 bytes/s; "2.5e9" = 2.5e9; " 42 " = 42.
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "1000000"), 1e6);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, "2.5e9"), 2.5e9);
  EXPECT_DOUBLE_EQ(ok(ios_parse_bandwidth, " 42 "), 42.0);
}

TEST(ParseBandwidth, Errors) {
  // System: malformed bandwidths. Expectations: IOS_EINVAL and output untouched, including a size without "/s"
  // ("10GB" is a volume, not a rate), a duration unit, negative and non-finite values.
  fails(ios_parse_bandwidth, "");
  fails(ios_parse_bandwidth, "fast");
  fails(ios_parse_bandwidth, "-1GBps");
  fails(ios_parse_bandwidth, "10GB");
  fails(ios_parse_bandwidth, "10Gb");
  fails(ios_parse_bandwidth, "10GB/min");
  fails(ios_parse_bandwidth, "10 s");
  fails(ios_parse_bandwidth, "nan");
  fails(ios_parse_bandwidth, "inf GBps");
  fails(ios_parse_bandwidth, "5 parsecs");
  fails(ios_parse_bandwidth, "GBps");
  fails(ios_parse_bandwidth, nullptr);
}

// ------------------------------------------------------------------------------------------------ durations
TEST(ParseDuration, Units) {
  // System: units ns us ms s min h d. Expectations: "5min" = 5·60 = 300; "2h" = 7200; "30s" = 30;
  // "100ms" = 0.1; "1d" = 86400; "250us" = 2.5e-4; "10ns" = 1e-8; "1.5h" = 5400; "5 min" = 300.
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "5min"), 300.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "2h"), 7200.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "30s"), 30.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "100ms"), 0.1);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "1d"), 86400.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "250us"), 2.5e-4);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "10ns"), 1e-8);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "1.5h"), 5400.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "5 min"), 300.0);
}

TEST(ParseDuration, BareNumberIsSeconds) {
  // System: no unit. Expectations: "42" = 42 s; "0.5" = 0.5 s; "0" = 0.
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "42"), 42.0);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "0.5"), 0.5);
  EXPECT_DOUBLE_EQ(ok(ios_parse_duration, "0"), 0.0);
}

TEST(ParseDuration, Errors) {
  // System: malformed durations. Expectations: IOS_EINVAL and output untouched.
  fails(ios_parse_duration, "");
  fails(ios_parse_duration, "5 parsecs");
  fails(ios_parse_duration, "-1s");
  fails(ios_parse_duration, "soon");
  fails(ios_parse_duration, "s");
  fails(ios_parse_duration, "nan");
  fails(ios_parse_duration, "inf s");
  fails(ios_parse_duration, "5GB");
  fails(ios_parse_duration, "3 hours later");
  fails(ios_parse_duration, nullptr);
}

// System: ios_parse_number on 100,000 doubles drawn over the whole exponent range, written with %.17g, %.9g and %g
// (sample files hold 17-digit numbers), and on the texts std::from_chars does not take. Expectations: the same value
// as strtod, bit for bit (both round correctly); "+1", " 1", "0x1p3" and "1e999" give strtod's 1, 1, 8 and inf;
// "", "1x", "1 " and "--1" are errors leaving the output untouched.
TEST(ParseNumber, SameBitsAsStrtod) {
  std::mt19937_64 gen(9502);
  char buf[64];
  for (int i = 0; i < 100000; i++) {
    uint64_t bits = gen();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    for (const char *fmt : {"%.17g", "%.9g", "%g"}) {
      std::snprintf(buf, sizeof buf, fmt, x);
      double got = kSentinel, want = std::strtod(buf, nullptr);
      ASSERT_EQ(ios_parse_number(buf, &got), 0) << buf;
      ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << buf << ": " << got << " vs " << want;
    }
  }
  EXPECT_EQ(ok(ios_parse_number, "+1"), 1.0);
  EXPECT_EQ(ok(ios_parse_number, " 1"), 1.0);
  EXPECT_EQ(ok(ios_parse_number, "0x1p3"), 8.0);
  EXPECT_EQ(ok(ios_parse_number, "1e999"), INFINITY);
  for (const char *bad : {"", "1x", "1 ", "--1"}) {
    double v = kSentinel;
    EXPECT_NE(ios_parse_number(bad, &v), 0) << bad;
    EXPECT_EQ(v, kSentinel) << bad;
  }
}
