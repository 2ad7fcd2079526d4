#!/bin/sh
# run_example.sh EXAMPLE_DIR PREFIX WORK [SANITIZE]: runs EXAMPLE_DIR/check, which builds the example out of tree against
# the libiosim installed in PREFIX (ctest's library_install) and compares its output with a hand computation, in a fresh
# scratch folder WORK (inside the build tree). SANITIZE = 1 (the ASan build): the example is built with the same
# sanitizers, and Python preloads their runtime.
set -eu
dir=$1 prefix=$2 work=$3 sanitize=${4:-0}
rm -rf "$work" && mkdir -p "$work"
IOSIM_PREFIX=$prefix IOSIM_WORK=$work
export IOSIM_PREFIX IOSIM_WORK
if [ "$sanitize" = 1 ]; then
  IOSIM_EXAMPLE_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
  IOSIM_PY_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
  ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
  export IOSIM_EXAMPLE_FLAGS IOSIM_PY_PRELOAD ASAN_OPTIONS
fi
"$dir/check"
rm -rf "$work"
