/* iosim — where iosim's own files (its "home") and the public datasets are, found the same way by the iosim binary,
 * the generators (through ${IOSIM_DATA_DIR} in scenario paths), the tests and `iosim data dir` (for scripts). */
#ifndef IOS_DATADIR_H
#define IOS_DATADIR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The data step's folder under iosim's home: `make data` / `iosim data fetch` fill HOME/IOS_DATA_FETCHED. */
#define IOS_DATA_FETCHED "traces/datasets"

/** What to do when a dataset is missing (the end of every such message). */
#define IOS_DATA_FIX                                                                                                   \
  "run `make data` (or `iosim data fetch`) to download the public datasets and check their SHA-256 sums "              \
  "(traces/README.md), or set IOSIM_DATA_DIR to a folder holding them"

/** iosim's own files (deploy/, platforms/, analysis/, traces/), found relative to the executable so that a moved build
 * tree or an installed iosim uses its own: $IOSIM_HOME when set and not empty, else the folder above the executable's
 * (the source tree of build/iosim, and of the test programs beside it), else PREFIX/share/iosim (an installed
 * PREFIX/bin/iosim): the first that holds deploy/default.json. Not normalised (e.g. "/src/build/.."). @return a static
 * buffer, or NULL when none does. */
const char *ios_home_dir(void);

/** Where ios_data_dir() found the datasets folder. */
typedef enum {
  IOS_DATA_NONE = 0,   /**< nowhere: ios_data_dir() returned NULL */
  IOS_DATA_ENV,        /**< $IOSIM_DATA_DIR (used as given, even when it does not exist) */
  IOS_DATA_SHARED,     /**< HOME/../shared/datasets: a copy beside the clone (or the installed home), as CI has */
  IOS_DATA_FETCHED_DIR /**< HOME/traces/datasets, filled by the data step */
} ios_data_origin_t;

/** The public datasets folder (bez-forge-evaluation/, boito-queue-generator/, apex-workflows/, tokio-abc/, ...):
 * $IOSIM_DATA_DIR when set and not empty; else HOME/../shared/datasets when it is a directory; else
 * HOME/traces/datasets (the data step's folder) when it is a directory; HOME is ios_home_dir(). The two last are
 * canonical absolute paths. `origin` (may be NULL) receives which rule gave it. @return a static buffer, or NULL when
 * none applies (ios_data_dir_describe says what was tried). */
const char *ios_data_dir(ios_data_origin_t *origin);

/** One sentence for an error message about a missing dataset: where the datasets folder is and which rule chose it
 * ("the datasets folder is D ($IOSIM_DATA_DIR)"), or what was tried when there is none ("no datasets folder:
 * IOSIM_DATA_DIR is not set and neither H/../shared/datasets nor H/traces/datasets exists"). Written to buf (n
 * bytes, truncated to fit). @return buf. */
const char *ios_data_dir_describe(char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
