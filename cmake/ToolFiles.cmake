# Writes the files generated from one built tool (tools/CMakeLists.txt runs it after the tool links):
#   cmake -DTOOL=<path> -DNAME=<tool> -DOUT=<dir> -DHELP2MAN=<path or empty> -P ToolFiles.cmake
#   <dir>/completions/bash/<tool>   `<tool> --completion bash`
#   <dir>/completions/zsh/_<tool>   `<tool> --completion zsh`
#   <dir>/man/<tool>.1, .1.gz       help2man over the tool's --help (when HELP2MAN is set), with each
#                                   subcommand's --help as a COMMANDS section (man_commands.sh), the
#                                   bare VERSION in the footer (the whole --version line, with git and
#                                   the upstream commit, is too long there: it ran into the date) and
#                                   VERSION and SEE ALSO sections (the other tools, the installed docs)
# Each file is written beside and renamed into place, so a failed run leaves no partial file.
foreach(var IN ITEMS TOOL NAME OUT VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "ToolFiles.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run_to_file file)
  get_filename_component(dir "${file}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND ${ARGN} OUTPUT_FILE "${file}.tmp" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE "${file}.tmp")
    message(FATAL_ERROR "${NAME}: `${ARGN}` failed (${rc}): ${err}")
  endif()
  file(RENAME "${file}.tmp" "${file}")
endfunction()

run_to_file("${OUT}/completions/bash/${NAME}" "${TOOL}" --completion bash)
run_to_file("${OUT}/completions/zsh/_${NAME}" "${TOOL}" --completion zsh)

if(HELP2MAN)
  # The NAME line of the page: the first line of --help (the app's description).
  execute_process(COMMAND "${TOOL}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NAME} --help failed (${rc})")
  endif()
  string(REGEX REPLACE "\n.*" "" description "${help}")
  file(MAKE_DIRECTORY "${OUT}/man")
  set(page "${OUT}/man/${NAME}.1")
  # Each subcommand's own options, as a COMMANDS section (cmake/man_commands.sh).
  execute_process(COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/man_commands.sh" "${TOOL}" "${HELP2MAN}" "${page}.commands"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man_commands.sh ${NAME} failed (${rc}): ${err}")
  endif()
  set(include "")
  file(SIZE "${page}.commands" commands_size)
  if(commands_size GREATER 0)
    set(include "--include=${page}.commands")
  endif()
  execute_process(COMMAND "${TOOL}" --version OUTPUT_VARIABLE version_line OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(see_also "")
  foreach(other IN ITEMS oplog-inspect quota-rebuild quota-reconcile snapshot-forge snapshot-golden snapshot-inspect)
    if(NOT other STREQUAL NAME)
      string(APPEND see_also ".BR ${other} (1),\n")
    endif()
  endforeach()
  file(WRITE "${page}.extra"
       "[VERSION]\n${version_line}\n\n[SEE ALSO]\n${see_also}"
       "and the documentation installed in /usr/share/doc/moonquota (README.md, docs/cli/${NAME}.md).\n")
  execute_process(COMMAND "${HELP2MAN}" --no-info --no-discard-stderr --section=1 "--name=${description}"
                          "--version-string=${VERSION}" ${include} "--include=${page}.extra" "--output=${page}.tmp"
                          "${TOOL}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  file(REMOVE "${page}.commands" "${page}.extra")
  if(NOT rc EQUAL 0)
    file(REMOVE "${page}.tmp")
    message(FATAL_ERROR "help2man ${NAME} failed (${rc}): ${err}")
  endif()
  file(RENAME "${page}.tmp" "${page}")
  # gzip -n: no name or time stamp in the header, so the same page gives the same bytes.
  run_to_file("${page}.gz" gzip -9 -n -c "${page}")
endif()
