# cmake -DCLI=<bcast> -DDIR=<scratch dir> -P check_tune_roundtrip.cmake
# `bcast tune --quick` writes the tuning file where the library looks
# ($XDG_CACHE_HOME/bcast/tuning.json); a later process loads it, says it is
# in force from there, and its choices are the file's.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(env ${CMAKE_COMMAND} -E env --unset=BCAST_TUNING "XDG_CACHE_HOME=${DIR}")
execute_process(COMMAND ${env} "${CLI}" tune --quick --threads 2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bcast tune --quick: exit ${rc}\n${out}${err}")
endif()
foreach(choice prefetch.rows prefetch.chain nt_min_bytes.1t nt_min_bytes.nt task_min_bytes)
  if(NOT out MATCHES "\n${choice} ")
    message(FATAL_ERROR "bcast tune --quick does not report ${choice}:\n${out}")
  endif()
endforeach()
if(NOT err MATCHES "\\[5/5\\] task_min_bytes")
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
                        "HOME=${DIR}/home" "${CLI}" isa
  RESULT_VARIABLE rc OUTPUT_VARIABLE home_isa ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT home_isa MATCHES "\ntuning: +file ${DIR}/home/.cache/bcast/tuning.json ")
  message(FATAL_ERROR "bcast isa does not read ~/.cache under a relative XDG_CACHE_HOME:\n${home_isa}${err}")
endif()
message(STATUS "ok: ${out}${isa}${home_isa}")
