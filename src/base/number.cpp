// iosim — whole-text number parsing (see ios_units.h ios_parse_number).
#include "ios_errors.h"
#include "ios_units.h"

#include <fast_float/fast_float.h>

#include <cstdlib>
#include <cstring>

/* fast_float (Debian's libfast-float-dev) reads a decimal number to the correctly rounded double, strtod's value, in a
 * few tens of instructions where libstdc++ 12's std::from_chars takes about 250 (a 60-application RR-9502 window holds
 * 166,000 numbers of 17 significant digits: docs/engine.md). */
int ios_parse_number(const char *text, double *out) {
  const char *end = text + std::strlen(text);
  double x;
  fast_float::from_chars_result r = fast_float::from_chars(text, end, x);
  if (r.ec == std::errc() && r.ptr == end && end != text) {
    *out = x;
    return IOS_OK;
  }
  char *stop; // what fast_float does not take (e.g. "+1", " 1", "0x1p3") strtod decides, as before
  x = std::strtod(text, &stop);
  if (stop == text || *stop != '\0') return IOS_EINVAL;
  *out = x;
  return IOS_OK;
}
