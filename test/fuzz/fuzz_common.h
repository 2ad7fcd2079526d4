/* iosim fuzz targets — what the targets share: the input written to a private temporary file (the readers take
 * paths), and a platform made by hand (no SimGrid: nothing is simulated). See docs/fuzzing.md. */
#ifndef IOS_FUZZ_COMMON_H
#define IOS_FUZZ_COMMON_H

#include "ios_platform.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes data[size] to a temporary file of this process whose name ends with `suffix` (".json", ".txt", ...) and
 * returns its path (static storage, valid until the next call; the file is removed when the process exits); NULL
 * when it cannot be written. */
const char *ios_fuzz_file(const uint8_t *data, size_t size, const char *suffix);

/** Removes `path` when this process exits (normally, or when libFuzzer stops; not a forked child's exit). */
void ios_fuzz_remove_at_exit(const char *path);

/** A platform of 4 compute nodes and 2 resources of 1e9 bytes/s each, built without SimGrid (hosts are NULL). */
const ios_platform_t *ios_fuzz_platform(void);

/** The entry point every target defines (libFuzzer's). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif
#endif
