// iosim — whole-text number parsing (see ios_units.h ios_parse_number).
#include "ios_errors.h"
#include "ios_units.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

int ios_parse_number(const char *text, double *out) {
  const char *end = text + std::strlen(text);
  double x;
  std::from_chars_result r = std::from_chars(text, end, x);
  if (r.ec == std::errc() && r.ptr == end && end != text) {
    *out = x;
    return IOS_OK;
  }
  char *stop; // what from_chars does not take (e.g. "+1", " 1", "0x1p3", 1e999) strtod decides, as before
  x = std::strtod(text, &stop);
  if (stop == text || *stop != '\0') return IOS_EINVAL;
  *out = x;
  return IOS_OK;
}
