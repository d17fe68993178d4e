# cmake -DCLI=<bcast> -DDIR=<scratch dir> [-DEMULATOR="qemu-aarch64|-L|..."] -P check_tune_roundtrip.cmake
# (a cross build runs the CLI under its emulator, as run_cli_test.cmake does)
# `bcast tune --quick` writes the tuning file where the library looks
# ($XDG_CACHE_HOME/bcast/tuning.json); a later process loads it, says it is
# in force from there, and its choices are the file's.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
string(REPLACE "|" ";" emulator "${EMULATOR}")
set(env ${CMAKE_COMMAND} -E env --unset=BCAST_TUNING "XDG_CACHE_HOME=${DIR}" ${emulator})
execute_process(COMMAND ${env} "${CLI}" tune --quick --threads 2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bcast tune --quick: exit ${rc}\n${out}${err}")
endif()
foreach(choice prefetch.rows prefetch.chain nt_min_bytes.1t nt_min_bytes.1t.one_input nt_min_bytes.nt
               nt_min_bytes.nt.one_input task_min_bytes chain_block)
  if(NOT out MATCHES "\n${choice} ")
    message(FATAL_ERROR "bcast tune --quick does not report ${choice}:\n${out}")
  endif()
endforeach()
if(NOT err MATCHES "\\[7/8\\] task_min_bytes" OR NOT err MATCHES "\\[8/8\\] chain_block")
  message(FATAL_ERROR "bcast tune --quick shows no progress:\n${err}")
endif()
set(file "${DIR}/bcast/tuning.json")
if(NOT EXISTS "${file}")
  message(FATAL_ERROR "bcast tune --quick wrote no ${file}:\n${out}")
endif()
file(READ "${file}" written)
execute_process(COMMAND ${env} "${CLI}" isa RESULT_VARIABLE rc OUTPUT_VARIABLE isa ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT isa MATCHES "\ntuning: +file ${file} ")
  message(FATAL_ERROR "bcast isa does not report ${file} in force (exit ${rc}):\n${isa}${err}")
endif()
execute_process(COMMAND ${env} "${CLI}" isa --json OUTPUT_VARIABLE json)
string(REGEX MATCH "\"choices\":{[^}]*}" written_choices "${written}")
string(REGEX MATCH "\"choices\":{[^}]*}" in_force "${json}")
if(written_choices STREQUAL "" OR NOT written_choices STREQUAL in_force)
  message(FATAL_ERROR "in force ${in_force}, written ${written_choices}")
endif()
# A relative XDG_CACHE_HOME is invalid (XDG spec): ~/.cache is read instead.
file(COPY "${file}" DESTINATION "${DIR}/home/.cache/bcast")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=BCAST_TUNING XDG_CACHE_HOME=relative/cache
                        "HOME=${DIR}/home" ${emulator} "${CLI}" isa
  RESULT_VARIABLE rc OUTPUT_VARIABLE home_isa ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT home_isa MATCHES "\ntuning: +file ${DIR}/home/.cache/bcast/tuning.json ")
  message(FATAL_ERROR "bcast isa does not read ~/.cache under a relative XDG_CACHE_HOME:\n${home_isa}${err}")
endif()
# --out -: stdout is the file alone (the table goes to stderr), and loads.
execute_process(COMMAND ${env} "${CLI}" tune --quick --threads 2 --out -
  RESULT_VARIABLE rc OUTPUT_FILE "${DIR}/stdout.json" ERROR_VARIABLE err)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "BCAST_TUNING=${DIR}/stdout.json" ${emulator} "${CLI}" isa
  RESULT_VARIABLE isa_rc OUTPUT_VARIABLE stdout_isa ERROR_VARIABLE isa_err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "\nchain_block " OR
   NOT stdout_isa MATCHES "\ntuning: +file ${DIR}/stdout.json ")
  message(FATAL_ERROR "bcast tune --out - (exit ${rc}) gave no file that loads:\n${err}${stdout_isa}${isa_err}")
endif()
# --out elsewhere: missing directories are created readable by all (a
# system-wide file); an --out that cannot be written fails before measuring.
set(shared_file "${DIR}/sys/cache/bcast/tuning.json")
execute_process(COMMAND ${env} "${CLI}" tune --quick --threads 2 --out "${shared_file}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out2 ERROR_VARIABLE err)
execute_process(COMMAND stat -c %a "${DIR}/sys/cache/bcast" OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
# 0755 less this process's umask, octal digit by digit.
execute_process(COMMAND sh -c umask OUTPUT_VARIABLE umask OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "([0-7])([0-7])([0-7])$" _ "${umask}")
set(expected_mode "")
foreach(i 1 2 3)
  if(i EQUAL 1)
    math(EXPR digit "7 & ~${CMAKE_MATCH_${i}}")
  else()
    math(EXPR digit "5 & ~${CMAKE_MATCH_${i}}")
  endif()
  string(APPEND expected_mode "${digit}")
endforeach()
string(REGEX REPLACE "^0+([0-7])" "\\1" expected_mode "${expected_mode}")
if(NOT rc EQUAL 0 OR NOT EXISTS "${shared_file}" OR NOT mode STREQUAL expected_mode)
  message(FATAL_ERROR "bcast tune --out ${shared_file}: exit ${rc}, directory mode ${mode}, not ${expected_mode}\n${out2}${err}")
endif()
execute_process(COMMAND ${env} "${CLI}" tune --quick --out /proc/bcast-no-such-dir/tuning.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out3 ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "cannot create /proc/bcast-no-such-dir: " OR err MATCHES "\\[1/")
  message(FATAL_ERROR "bcast tune to an unwritable --out: exit ${rc}\n${out3}${err}")
endif()
# A directory named as the file, with and without a slash: refused before measuring.
get_filename_component(out_dir "${shared_file}" DIRECTORY)
get_filename_component(out_parent "${out_dir}" DIRECTORY)
get_filename_component(out_dir_name "${out_dir}" NAME)
# A regular file as a directory of the path: the same; a dangling link as
# the directory says so, not "Not a directory".
set(dangling "${out_parent}/bcast-dangling-link")
file(REMOVE "${dangling}")
file(CREATE_LINK "${out_parent}/bcast-no-such-target" "${dangling}" SYMBOLIC)
file(REMOVE_RECURSE "${out_parent}/bcast-new-dir")
string(REPEAT "n" 256 long_name)
foreach(out_and_refusal "${out_dir}|cannot write ${out_dir}: Is a directory"
                        "${out_dir_name}|cannot write ${out_dir_name}: Is a directory"
                        "${shared_file}/x.json|cannot write in ${shared_file}: Not a directory"
                        "${shared_file}/|cannot write in ${shared_file}: Not a directory"
                        "${dangling}/x.json|cannot write in ${dangling}: No such file or directory"
                        # a name no file has: refused before a directory is made
                        "${out_parent}/bcast-new-dir/|cannot write ${out_parent}/bcast-new-dir/: Is a directory"
                        "bcast-new-dir/.|cannot write bcast-new-dir/.: Is a directory"
                        "bcast-new-dir/${long_name}|cannot write bcast-new-dir/${long_name}: File name too long")
  string(REPLACE "|" ";" pair "${out_and_refusal}")
  list(GET pair 0 bad_out)
  list(GET pair 1 refusal)
  execute_process(COMMAND ${env} "${CLI}" tune --quick --out "${bad_out}" WORKING_DIRECTORY "${out_parent}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out4 ERROR_VARIABLE err)
  string(FIND "${err}" "${refusal}" said)
  if(NOT rc EQUAL 1 OR said EQUAL -1 OR err MATCHES "\\[1/")
    message(FATAL_ERROR "bcast tune --out ${bad_out}: exit ${rc}, not '${refusal}'\n${out4}${err}")
  endif()
endforeach()
if(EXISTS "${out_parent}/bcast-new-dir")
  message(FATAL_ERROR "a refused bcast tune --out made ${out_parent}/bcast-new-dir")
endif()
file(REMOVE "${dangling}")
# A link to a file not made yet: the file is made where it points, and the
# check before measuring leaves nothing of its own behind.
set(link "${out_dir}/link.json")
file(REMOVE "${out_dir}/target.json" "${link}")
file(CREATE_LINK "target.json" "${link}" SYMBOLIC)
execute_process(COMMAND ${env} "${CLI}" tune --quick --threads 2 --out "${link}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out5 ERROR_VARIABLE err)
file(GLOB probes "${out_dir}/.bcast-probe-*")
if(NOT rc EQUAL 0 OR NOT EXISTS "${out_dir}/target.json" OR NOT IS_SYMLINK "${link}" OR probes)
  message(FATAL_ERROR "bcast tune --out a link to nothing yet: exit ${rc}, left ${probes}\n${out5}${err}")
endif()
message(STATUS "ok: ${out}${isa}${home_isa}")
