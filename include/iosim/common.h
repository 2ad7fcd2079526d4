/* iosim/common.h — what every face of libiosim shares: the export macro, the return codes and the error message of
 * every face (docs/library.md). */
#ifndef IOSIM_COMMON_H
#define IOSIM_COMMON_H

#ifndef IOSIM_API
#define IOSIM_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The codes the functions of the policy and scenario faces return (the same values as the plugin face's). */
#define IOSIM_OK 0
#define IOSIM_EINVAL (-1)    /**< bad input: a name, a value or an array the call refuses (iosim_error() says which) */
#define IOSIM_ENOMEM (-2)    /**< out of memory */
#define IOSIM_EIO (-3)       /**< a file could not be read or written */
#define IOSIM_EINTERNAL (-4) /**< a bug, or a run that ended abnormally (a crash of the simulating child) */

/** The message of the last failed call of any face in this thread (policy, scenario, and the plugin's, which
 * iosim_plugin_error() also gives process-wide): what was wrong (the file, the field or parameter, the value) and the
 * fix; "" when none failed yet. Thread-local, owned by the library, valid until the next failing call in the same
 * thread. Never NULL. */
IOSIM_API const char *iosim_error(void);

#ifdef __cplusplus
}
#endif
#endif
