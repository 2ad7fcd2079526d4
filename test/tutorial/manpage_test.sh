#!/bin/bash
# The man page written at build time renders as text (man -l, else groff) and names every subcommand that
# `iosim --help` lists, each with its own entry under COMMANDS, plus the version of `iosim --version`.
# usage: manpage_test.sh PAGE IOSIM_BIN
set -u
page=$1
iosim=$2
if [[ ! -s $page ]]; then
  echo "FAIL: $page missing: install help2man (Debian package help2man, make deps) and re-run cmake" >&2
  exit 1
fi
if command -v man >/dev/null; then
  text=$(MANWIDTH=120 man -l "$page" 2>&1 | col -b)
else
  text=$(groff -man -Tutf8 "$page" 2>&1 | col -b)
fi
fails=0
check() { # check REGEX WHAT
  if grep -qE "$1" <<<"$text"; then echo "ok   $2"; else echo "FAIL $2 (no line matching /$1/)"; fails=$((fails + 1)); fi
}
check '^NAME' "a NAME section"
check '^SYNOPSIS' "a SYNOPSIS section"
check '^COMMANDS' "a COMMANDS section"
version=$("$iosim" --version | head -n 1)
check "${version}" "the version ($version)"
for c in $("$iosim" --help | grep -oE '^(usage: +)? +iosim [a-z]+' | awk '{print $NF}' | sort -u); do
  check "^   (.*, )?iosim $c(,|$)" "an entry for iosim $c"
  check "^ +iosim $c( |$)" "iosim $c in the synopsis"
done
if grep -qiE 'warning|error:' <<<"$text"; then
  echo "FAIL the renderer complained:"
  grep -iE 'warning|error:' <<<"$text"
  fails=$((fails + 1))
fi
exit $((fails > 0))
