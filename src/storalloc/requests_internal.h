/* iosim — what the input files of StorAlloc runs share (config.c: platform and options from JSON; requests.c: request
 * traces; generator.c: the TOKIO-shaped generator). Not a public header (ios_storalloc_requests.h is their API). */
#ifndef IOS_REQUESTS_INTERNAL_H
#define IOS_REQUESTS_INTERNAL_H

#include "ios_storalloc_requests.h"

#include <stddef.h>

#define MAX_REQUESTS 10000000 /* requests of one trace or one generated set */
#define MAX_COLS 64           /* columns of a CSV line read */

/** "obj.field" into buf[n] (either may be NULL); returns buf. */
const char *sa_at(char *buf, size_t n, const char *obj, const char *field);

/** The JSON text of v into buf[n] ("?" when it cannot be printed), for messages. */
void sa_text_of(const cJSON *v, char *buf, size_t n);

#endif
