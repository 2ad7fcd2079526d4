/* iosim — names of the IOS_E* codes (see ios_errors.h). */
#include "ios_errors.h"

const char *ios_strerror(int code) {
  switch (code) {
  case IOS_OK:
    return "success";
  case IOS_EINVAL:
    return "invalid input";
  case IOS_ENOMEM:
    return "out of memory";
  case IOS_EIO:
    return "input/output error";
  case IOS_EINTERNAL:
    return "internal error";
  default:
    return "unknown error";
  }
}
