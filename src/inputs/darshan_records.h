/* iosim — the module records of a Darshan log (darshan_records.c): counters, Lustre layouts, DXT traces. Called by
 * darshan_format.c once the header is read; reads through darshan_region.h. Not a public header. */
#ifndef IOS_DARSHAN_RECORDS_H
#define IOS_DARSHAN_RECORDS_H

#include "darshan_region.h"

/** Reads the module records (counters, Lustre layouts, DXT) of `s` into `log`. @return IOS_OK or an IOS_E* code with
 * ios_diag_message() set. */
int dz_read_modules(const dz_src_t *s, ios_darshan_log_t *log);

#endif
