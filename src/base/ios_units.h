/* iosim — human units in inputs: sizes ("200GB", "1.5GiB"), bandwidths ("1.2GiB/s", "10Gbps", SimGrid's
 * "1.25GBps") and durations ("5min", "2h", "30s"). Decimal prefixes k M G T P = 10^3k, binary Ki Mi Gi Ti Pi =
 * 2^10k; a lower-case "b" means bits. A bare number is in the base unit (bytes, bytes/s, seconds). */
#ifndef IOS_UNITS_H
#define IOS_UNITS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Parses a size into bytes. @return 0, or IOS_EINVAL (bad syntax, unknown unit, negative, NaN/inf, or a value
 * that overflows to infinity once converted, e.g. "1e308GiB"); out untouched. */
int ios_parse_bytes(const char *text, double *out);
/** Parses a bandwidth into bytes/s ("B/s", "Bps", "bps" bits/s, with prefixes). Same errors. */
int ios_parse_bandwidth(const char *text, double *out);
/** Parses a duration into seconds (units: ns us ms s min h d). Same errors. */
int ios_parse_duration(const char *text, double *out);

/** Parses the whole of `text` as one number, exactly as strtod (the same value, bit for bit: correctly rounded),
 * through std::from_chars when it can (several times faster on 17-digit decimals: sample files hold 10^5 of them)
 * and strtod otherwise (leading spaces or '+', hexadecimal, out of range). @return 0, or IOS_EINVAL when `text` is
 * not one number with nothing after it; out untouched then. */
int ios_parse_number(const char *text, double *out);

/** Writes x in the shortest of %.15g, %.16g, %.17g that strtod reads back as exactly x (n bytes of buf, at least 32):
 * how every output writes a double that must read back unchanged (CSV cells, generated XML and workloads).
 * @return buf. */
const char *ios_fmt_double(char *buf, size_t n, double x);

#ifdef __cplusplus
}
#endif
#endif
