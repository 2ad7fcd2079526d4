# bash completion for iosim (installed as share/bash-completion/completions/iosim; or `source completion/iosim.bash`).
#
# Completes the subcommands, each subcommand's options as `iosim CMD --help` lists them, the policy names that
# `iosim policies --family F` lists (for --family and for --set allocation.policy=, placement.policy=,
# sharing.policy=, storage.policy=, striping.policy=), platform and generator kinds, and file or directory names
# for scenarios, campaigns and --out. The help texts and policy lists are read from the iosim being completed (the
# first word of the line) when first needed, then kept for the shell session. Needs only bash itself (no
# bash-completion helpers). Words that bash splits at `=` or `:` (COMP_WORDBREAKS) are joined back first.

_iosim_cache_get() { # _iosim_cache_get KEY COMMAND... : prints the cached output of COMMAND (run once per key)
  local key=$1
  shift
  if [[ -z ${_iosim_cache[$key]+set} ]]; then
    _iosim_cache[$key]=$("$@" 2>/dev/null)
  fi
  printf '%s\n' "${_iosim_cache[$key]}"
}
declare -gA _iosim_cache 2>/dev/null || declare -A _iosim_cache

# Options of one subcommand, from its --help (duplicates with the -h --help --version added by the caller are harmless): every -x / --long-option written after a space, `[`, `(`, `|` or `,`.
_iosim_options() { # _iosim_options IOSIM CMD
  _iosim_cache_get "help $1 $2" "$1" "$2" --help |
    grep -oE '(^|[][ (|,])--?[A-Za-z][A-Za-z-]*' | sed -E 's/^[][ (|,]//' | sort -u
}

# Policy names and aliases of one family, from `iosim policies --family F`.
_iosim_policies() { # _iosim_policies IOSIM FAMILY
  _iosim_cache_get "policies $1 $2" "$1" policies --family "$2" |
    sed -nE 's/^  ([a-z0-9][a-z0-9_-]*) .*/\1/p; s/.*alias: ([a-z0-9_-]+).*/\1/p'
}

_iosim() {
  local IFS=$' \t\n'
  local iosim=${COMP_WORDS[0]}
  local cmds="run check policies platform generate sweep merge report view lab compare whatif calibrate data"
  local families="allocation placement sharing storage striping"
  # Join the words bash split at = and : (COMP_WORDBREAKS): words[] is the line as typed, cur its last word.
  local -a words=()
  local i w glued=0
  for ((i = 0; i <= COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if ((i > 0)) && [[ $w == "=" || $w == ":" || $glued == 1 ]]; then
      words[${#words[@]} - 1]+=$w
      [[ $w == "=" || $w == ":" ]] && glued=1 || glued=0
    else
      words+=("$w")
      glued=0
    fi
  done
  local cur=${words[${#words[@]} - 1]}
  local prev=""
  ((${#words[@]} > 1)) && prev=${words[${#words[@]} - 2]}
  local strip=$((${#cur} - ${#COMP_WORDS[COMP_CWORD]})) # what bash does not replace (before its own word)

  local cmd=""
  for ((i = 1; i < ${#words[@]} - 1; i++)); do
    if [[ " $cmds " == *" ${words[i]} "* ]]; then
      cmd=${words[i]}
      break
    fi
  done

  local -a cand=()
  local files="" dirs=""
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      cand=(--help --version)
    else
      cand=($cmds)
    fi
  else
    case $prev in
    -f | --family) cand=($families) ;;
    -o | --out | --mirror | --modules | --workdir) [[ $cmd == platform || $cmd == generate ]] && files=1 || dirs=1 ;;
    --set)
      if [[ $cmd == run || $cmd == check || $cmd == sweep || $cmd == whatif ]]; then
        local key=${cur%%=*} fam
        if [[ $cur == *=* ]]; then
          case $key in
          allocation.policy | placement.policy | sharing.policy | storage.policy | striping.policy)
            fam=${key%.policy}
            cand=($(_iosim_policies "$iosim" "$fam" | sed "s|^|$key=|"))
            ;;
          platform | workload.file | output.dir)
            local f
            while read -r f; do [[ -n $f ]] && cand+=("$key=$f"); done < <(compgen -f -- "${cur#*=}")
            ;;
          esac
        else
          cand=(allocation.policy= placement.policy= sharing.policy= storage.policy= striping.policy= seed=
            platform= workload.file= output.dir= output.events=true window.stop_at_end=true)
          compopt -o nospace 2>/dev/null
        fi
      fi
      ;;
    -j | --jobs | --seeds | --seed | --shard | --shards | --unit | --x | --policy | --metrics | --baseline | --gantt | \
      --by-position | --title | --labels | --max-resources | --vary | --port | --host | --workers | --max-queue | \
      --timeout | --threads) ;; # a number, an address or a column name: nothing to offer
    *)
      if [[ $cur == -* ]]; then
        cand=($(_iosim_options "$iosim" "$cmd") -h --help --version) # every subcommand takes these (docs/cli.md)
      else
        case $cmd in
        run | check | sweep | whatif) files=1 ;;
        merge | report | view | compare) dirs=1 ;;
        platform)
          cand=($(_iosim_cache_get "help $iosim platform" "$iosim" platform --help | sed -nE 's/^  ([a-z0-9-]+): .*/\1/p'))
          ;;
        generate) cand=(rr9502 apex) ;;
        data) [[ $prev == data ]] && cand=(fetch verify list dir) || dirs=1 ;;
        esac
      fi
      ;;
    esac
  fi

  if [[ -n $files || -n $dirs ]]; then
    compopt -o filenames 2>/dev/null
    if [[ -n $dirs ]]; then
      cand=($(compgen -d -- "$cur"))
    else
      cand=($(compgen -f -- "$cur"))
    fi
  fi
  COMPREPLY=()
  local c
  for c in "${cand[@]}"; do
    [[ $c == "$cur"* ]] && COMPREPLY+=("${c:strip}")
  done
}

complete -F _iosim iosim
