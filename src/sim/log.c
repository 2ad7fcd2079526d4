/* iosim — the engine's log category `iosim`, the parent of every file's own (iosim_engine, iosim_controller, ...:
 * docs/architecture.md), defined apart so that no file of the engine depends on another for it. */
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(iosim, "iosim: I/O resource sharing simulator");
