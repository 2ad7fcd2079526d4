/* iosim — the order of a platform's OSTs (platform_osts.c), for the platform loader (platform.c); not for other
 * modules, which use ios_platform.h. Pure: no SimGrid call. The rule (platforms/README.md, "The order of the OSTs"):
 * - every OST named as Lustre names its targets, FSNAME-OSTxxxx (xxxx: 4 to 8 hexadecimal digits, the OST's index in
 *   its file system; scratch-OST000a is index 10), is taken by (FSNAME, index): the index Darshan records for a
 *   file's stripes (LUSTRE module) is that very OST;
 * - otherwise natural name order (a run of digits compares as a decimal number: ost2 before ost10), the k-th OST in
 *   that order standing for Lustre index k. When the names give no order (no name holds a digit, or two names
 *   differ only in leading zeros such as ost1 and ost01) they are ordered byte by byte, with a warning. */
#ifndef IOS_PLATFORM_OSTS_H
#define IOS_PLATFORM_OSTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Natural order of two names: runs of decimal digits compare as numbers ("c2" < "c10"), other bytes as unsigned
 * chars; < 0, 0 or > 0 as strcmp. Names equal in this order may still differ ("ost1", "ost01"). */
int ios_name_natural_cmp(const char *a, const char *b);

/** Whether `name` is a Lustre target name FSNAME-OSTxxxx (FSNAME non-empty, "-OST", then 4 to 8 hexadecimal digits of
 * either case and nothing else): 1 with *index (>= 0) and *fslen (the length of FSNAME), else 0 (outputs untouched). */
int ios_ost_lustre_name(const char *name, long *index, size_t *fslen);

/** Orders the `n` OST names `names` [n] by the rule above: order [n] receives the indices into `names` in platform
 * order and index [n] (NULL: not wanted) the Lustre index of each OST in that order (-1 when the names are not all
 * Lustre names). warning [wsize] receives "" or, when the names give no order, one sentence saying what was done.
 * @return 0, or -1 when two Lustre names of one file system carry the same index (*dup_a, *dup_b: the two names'
 * indices into `names`; order and index then hold nothing meaningful). */
int ios_ost_order(const char *const *names, int n, int *order, long *index, char *warning, size_t wsize, int *dup_a,
                  int *dup_b);

#ifdef __cplusplus
}
#endif
#endif
