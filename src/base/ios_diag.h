/* iosim — user-facing error messages for bad input: which file, which field or line, what is wrong, and the fix.
 * Loaders set the message and return IOS_EINVAL (or IOS_EIO); the CLI prints it and exits with code 2. */
#ifndef IOS_DIAG_H
#define IOS_DIAG_H

#ifdef __cplusplus
extern "C" {
#endif

/** Records "FILE: WHERE: message" (printf-style message, which should end with the fix). file/where may be NULL. */
void ios_diag_set(const char *file, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Forgets the last message (ios_diag_message() is then ""), without formatting anything: for a caller that clears
 * it before each of many calls (iosim_share, called per view by the Python module's iosim.share_batch). */
void ios_diag_clear(void);
/** The last message recorded ("" when none). Borrowed; valid until the next ios_diag_set. */
const char *ios_diag_message(void);

/** Prints "iosim: warning: FILE: WHERE: message" on standard error, one line (as ios_diag_set shapes it), for input
 * that is read but not as the user may expect; the message should say what iosim does instead. Leaves
 * ios_diag_message() as it was. */
void ios_diag_warn(const char *file, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Prints "iosim: LABEL: " and the current message (ios_diag_message()) on standard error, one line: for a reader
 * that goes on after an input it refused (label "refused", "skipped") and reports them all at the end. */
void ios_diag_report(const char *label);

#ifdef __cplusplus
}
#endif
#endif
