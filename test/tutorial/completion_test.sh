#!/bin/bash
# Sources the bash completion and checks what it offers, calling _iosim with COMP_WORDS/COMP_CWORD as bash sets
# them (bash splits `key=value` at `=`, COMP_WORDBREAKS). The expected lists come from the help texts as documented in
# docs/cli.md and from `iosim policies` (hand-written below), not from the completion itself.
# usage: completion_test.sh COMPLETION_FILE IOSIM_BIN
set -u
source "$1" || exit 1
iosim=$2
fails=0
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir "$work/out-dir" && touch "$work/scen.json" "$work/other.txt"

# expect "WORD ... CURRENT_WORD" "EXPECTED REPLIES (sorted, space-separated)"
expect() {
  local -a w
  read -ra w <<<"$1"
  [[ $1 == *" " ]] && w+=("")
  COMP_WORDS=("$iosim" "${w[@]}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _iosim
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ')
  got=${got% }
  if [[ $got == "$2" ]]; then
    echo "ok   iosim $1|  -> $got"
  else
    echo "FAIL iosim $1|"
    echo "  expected: $2"
    echo "  got:      $got"
    fails=$((fails + 1))
  fi
}

expect " " "calibrate check compare data generate lab merge platform policies report run sweep view whatif"
expect "s" "sweep"
expect "-" "--help --version"
expect "run --" "--cfg --db --help --log --out --run-id --set --skip-bad --trace --version"
expect "run -" "--cfg --db --help --log --out --run-id --set --skip-bad --trace --version -h -o"
expect "policies -" "--family --help --version -f -h"
expect "sweep --re" "--retry-failed"
expect "sweep --s" "--seeds --set --shard --shards"
expect "report --b" "--baseline --by-position"
expect "policies --family s" "sharing storage striping"
expect "run x.json --set sharing.policy = f" "fairshare fcfs"
expect "run x.json --set sharing.policy = greedy-" "greedy-com greedy-yield"
expect "run x.json --set allocation.policy = bb" "bba"
expect "check x.json --set placement.policy = g" "gc gnc greedy-clairvoyant greedy-non-clairvoyant"
expect "run x.json --set sh" "sharing.policy="
expect "platform " "forwarding oss-ost pfs-single storage"
expect "generate " "apex rr9502"
expect "data " "dir fetch list verify"
expect "data fetch --m" "--mirror"
expect "lab --m" "--max-queue --modules"
expect "lab --port " ""
cd "$work" || exit 1
expect "run s" "scen.json"
expect "run -o o" "out-dir"       # run --out is a directory
expect "platform -o o" "other.txt out-dir" # platform --out is a file
expect "lab --modules o" "out-dir"      # lab --modules is a folder
exit $((fails > 0))
