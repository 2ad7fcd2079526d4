/* iosim — the wall clock. */
#ifndef IOS_CLOCK_H
#define IOS_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/** Seconds on the monotonic clock (CLOCK_MONOTONIC): differences measure how long something took on the machine
 * (wall time), never simulated time. */
double ios_clock_s(void);

#ifdef __cplusplus
}
#endif
#endif
