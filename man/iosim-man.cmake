# Writes the iosim(1) man page with help2man (Debian package help2man), at build time:
#   cmake -DIOSIM=path/to/iosim -DHELP2MAN=path/to/help2man -DOUT=iosim.1 -P man/iosim-man.cmake
# help2man reads `iosim --help` (usage, options) and `iosim --version` (the version in the header); an include file
# written here adds a SYNOPSIS (the usage lines, verbatim), a COMMANDS section with `iosim CMD --help` of every
# subcommand named in `iosim --help` (verbatim), and SEE ALSO. Fails (so the build fails) when a command fails.
foreach(var IOSIM HELP2MAN OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "iosim-man.cmake: -D${var}=... is required")
  endif()
endforeach()

# Text -> roff for a no-fill block: backslashes doubled, hyphens as \-, a leading . or ' protected.
function(iosim_roff_verbatim text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# Appends one COMMANDS entry (a subsection titled `title`, the help text verbatim) to h2m. A function, not a macro:
# a macro would expand the ${...} that help texts contain.
function(iosim_man_entry title help)
  iosim_roff_verbatim("${help}" help_roff)
  set(h2m "${h2m}.SS \"${title}\"\n.nf\n${help_roff}.fi\n" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${IOSIM}" --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${IOSIM} --help failed (${rc})")
endif()
# The usage lines: from "usage:" to the line "iosim --version | COMMAND --help".
string(REGEX MATCH "usage:[^\n]*\n([ ]+iosim[^\n]*\n)*" usage "${top}")
string(REGEX REPLACE "^usage: +" "" usage "${usage}")
string(REGEX REPLACE "\n +" "\n" usage "${usage}")
# The subcommands: the second word of every usage line.
string(REGEX MATCHALL "(^|\n)iosim [a-z]+" lines "${usage}")
set(commands "")
foreach(l IN LISTS lines)
  string(REGEX REPLACE ".*iosim " "" c "${l}")
  list(APPEND commands "${c}")
endforeach()
list(REMOVE_DUPLICATES commands)

iosim_roff_verbatim("${usage}" usage_roff)
set(h2m "[SYNOPSIS]\n.nf\n${usage_roff}.fi\n\n[=DESCRIPTION]\n")
string(APPEND h2m "iosim simulates HPC applications that alternate work phases and I/O operations while they compete for "
       "shared I/O resources (I/O forwarding nodes, OSTs, a parallel file system) on a SimGrid platform, under an "
       "allocation, a placement and a bandwidth-sharing policy, and reports the metrics of RR-9502, RR-9549 and "
       "IPDPS'21. Every command takes \\fB\\-h\\fR/\\fB\\-\\-help\\fR and \\fB\\-\\-version\\fR; options take "
       "\\fB\\-\\-opt=value\\fR or \\fB\\-\\-opt value\\fR.\n.PP\nExit codes: 0 ok, 2 bad input (the message names "
       "the file, the field or the option, and the fix), 1 internal error.\n\n[COMMANDS]\n")
# Commands with the same help (run and check) share one entry.
set(pending_title "")
set(pending_help "")
foreach(c IN LISTS commands)
  execute_process(COMMAND "${IOSIM}" ${c} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${IOSIM} ${c} --help failed (${rc})")
  endif()
  if(pending_title AND help STREQUAL pending_help)
    string(APPEND pending_title ", iosim ${c}")
    continue()
  endif()
  if(pending_title)
    iosim_man_entry("${pending_title}" "${pending_help}")
  endif()
  set(pending_title "iosim ${c}")
  set(pending_help "${help}")
endforeach()
if(pending_title)
  iosim_man_entry("${pending_title}" "${pending_help}")
endif()
string(APPEND h2m "\n[SEE ALSO]\nREADME.md, docs/cli.md (every option), docs/tutorial.md (a five-step lab), "
       "docs/scenario.md and docs/outputs.md, in the source tree or in PREFIX/share/iosim.\n")
file(WRITE "${OUT}.h2m" "${h2m}")

execute_process(
  COMMAND "${HELP2MAN}" --no-info --no-discard-stderr
          "--name=simulate the sharing of I/O resources among concurrent HPC applications" "--include=${OUT}.h2m"
          "--output=${OUT}" "${IOSIM}"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc}): ${err}")
endif()
