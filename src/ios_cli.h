/* iosim — small shared I/O helpers: the atomic file writer (used by `iosim platform`, `iosim generate`, the sweep and
 * generated platforms) and the `--set param=value` parser of the one-file commands. */
#ifndef IOS_CLI_H
#define IOS_CLI_H

#include <cjson/cJSON.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the content to `f`. @return IOS_OK or an IOS_E* code (with ios_diag_message() set for IOS_EINVAL). */
typedef int (*ios_cli_writer_t)(FILE *f, void *ctx);

/** Writes through `fn` to `path`: standard output when path is NULL or "-"; directly into an existing non-regular
 * file (a device, a FIFO: never replaced); otherwise into an exclusive temporary file of the same directory renamed
 * over `path` on success (nothing is left behind on failure). @return IOS_OK, fn's error, or IOS_EIO/IOS_ENOMEM with
 * ios_diag_message() naming the path. */
int ios_cli_write(const char *path, ios_cli_writer_t fn, void *ctx);

/** Adds "param=value" to `obj` (the value read as JSON when valid JSON, else as a string; the last one wins).
 * "kind" is refused: `command` ("iosim platform KIND") names where it goes. @return IOS_OK, IOS_EINVAL with
 * ios_diag_message() (`example` shows the syntax, e.g. "ionodes=24"), or IOS_ENOMEM. */
int ios_cli_add_set(cJSON *obj, const char *arg, const char *command, const char *example);

/** Whether `a` asks for help (--help, -h, help). */
int ios_cli_is_help(const char *a);

/** Prints "iosim VERSION" and the version of the SimGrid library in use (and of the headers built against): what
 * every subcommand's --version shows. */
void ios_cli_print_version(FILE *f);

/** Seconds on the monotonic clock (CLOCK_MONOTONIC): differences measure how long something took on the machine
 * (wall time), never simulated time. */
double ios_cli_clock_s(void);

#ifdef __cplusplus
}
#endif
#endif
