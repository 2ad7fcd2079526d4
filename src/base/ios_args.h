/* iosim — the command-line conventions every subcommand shares (parsed with getopt_long): -h/--help, --version,
 * -o/--out, and SimGrid's own --cfg=name:value and --log=... flags, collected here and handed to SimGrid by the
 * subcommands that simulate (run, check, sweep). --version prints ios_print_version (src/cli/ios_cli.h). docs/cli.md
 * lists them. */
#ifndef IOS_ARGS_H
#define IOS_ARGS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* getopt_long codes of the long-only options shared by the subcommands (short options use their letter) */
enum {
  IOS_OPT_VERSION = 0x100,
  IOS_OPT_CFG,
  IOS_OPT_LOG,
  IOS_OPT_SET,
  IOS_OPT_FIRST_FREE /**< a subcommand numbers its own long-only options from here */
};

/** SimGrid flags given on a command line, in order: "--cfg=name:value" and "--log=setting" strings (owned). */
typedef struct ios_sg_flags {
  int n;
  char **flags; /**< [n] */
} ios_sg_flags_t;

/** Adds `--cfg=VALUE` (`log` = 0) or `--log=VALUE` (`log` = 1) to `f`. A --cfg must read name:value, or be `help`
 * (SimGrid's list of settings: ios_sg_flags_help), and must not change a setting iosim fixes (network/model,
 * network/crosstraffic, contexts/stack-size: see ios_args_fixed_setting); giving such a setting iosim's own value
 * (network/crosstraffic also as no, off or false) is accepted. @return 0, 2 after a message on stderr naming the
 * flag, the setting, iosim's value and why (bad input), or 1 on ENOMEM. */
int ios_sg_flags_add(ios_sg_flags_t *f, int log, const char *value);

/** Whether `f` holds --cfg=help: the command then prints SimGrid's settings and exits 0 (ios_cli_cfg_help). */
int ios_sg_flags_help(const ios_sg_flags_t *f);

/** Why iosim fixes SimGrid setting `name` (e.g. "network/model"; '_' and '-' are the same), or NULL when a --cfg may
 * change it. */
const char *ios_args_fixed_setting(const char *name);

/** The value iosim gives fixed setting `name` ("CM02", "0", "256"), or NULL when iosim does not fix it. */
const char *ios_args_fixed_value(const char *name);

/** The fixed settings: how many, and the name of the i-th (0-based; NULL out of range). */
int ios_args_fixed_count(void);
const char *ios_args_fixed_name(int i);

/** Frees the strings of `f` and zeroes it. */
void ios_sg_flags_free(ios_sg_flags_t *f);

/** After getopt_long returned '?' or ':' (optstring begins with ':'): prints "iosim CMD: error: unknown option 'X'"
 * or "option 'X' needs a value", then `usage`, to stderr. `argv` is the subcommand's. @return 2 (the exit code). */
int ios_args_error(int c, char *const *argv, const char *cmd, const char *usage);

/** Prints "iosim: error: " and the formatted message, then `usage`, to stderr. @return 2. */
int ios_args_bad(const char *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Whether `a` asks for help (--help, -h, help). */
int ios_args_is_help(const char *a);

/** Adds "param=value" to `obj` (the value read as JSON when valid JSON, else as a string; the last one wins).
 * "kind" is refused: `command` ("iosim platform KIND") names where it goes. @return IOS_OK, IOS_EINVAL with
 * ios_diag_message() (`example` shows the syntax, e.g. "ionodes=24"), or IOS_ENOMEM. */
int ios_args_add_set(cJSON *obj, const char *arg, const char *command, const char *example);

#ifdef __cplusplus
}
#endif
#endif
