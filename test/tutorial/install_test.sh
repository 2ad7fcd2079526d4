#!/bin/bash
# `cmake --install BUILD --prefix FRESH` puts the bash completion where bash-completion looks for it
# (share/bash-completion/completions/iosim) and the man page where man looks (share/man/man1/iosim.1); both are
# usable from there: the completion defines _iosim for the command iosim, and `man -M PREFIX/share/man iosim` finds
# the page.
# usage: install_test.sh CMAKE BUILD_DIR
set -u
prefix=$(mktemp -d) && trap 'rm -rf "$prefix"' EXIT
if ! "$1" --install "$2" --prefix "$prefix" >"$prefix/install.log" 2>&1; then
  cat "$prefix/install.log"
  exit 1
fi
fails=0
comp=$prefix/share/bash-completion/completions/iosim
page=$prefix/share/man/man1/iosim.1
[[ -s $comp ]] && echo "ok   $comp" || { echo "FAIL no $comp"; fails=1; }
[[ -s $page ]] && echo "ok   $page" || { echo "FAIL no $page"; fails=1; }
if [[ -s $comp ]]; then
  out=$(bash -c 'source "$1" && complete -p iosim' _ "$comp" 2>&1)
  [[ $out == "complete -F _iosim iosim" ]] && echo "ok   $out" || { echo "FAIL completion not registered: $out"; fails=1; }
fi
if [[ -s $page ]] && command -v man >/dev/null; then
  found=$(man -M "$prefix/share/man" -w iosim 2>&1)
  [[ $found == "$page" ]] && echo "ok   man -w iosim: $found" || { echo "FAIL man -w iosim: $found"; fails=1; }
fi
exit $fails
