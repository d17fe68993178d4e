# cmake -DCLI=<bcast> -DARGS="a|b|c" -DRC=<expected exit code>
#       [-DSTDOUT=<regex>] [-DSTDERR=<regex>] [-DEMULATOR="qemu-aarch64|-L|..."]
#       -P run_cli_test.cmake
# Runs the CLI (under EMULATOR when set) and fails unless the exit code is RC
# and stdout/stderr match.
if(NOT DEFINED CLI)
  message(FATAL_ERROR "CLI not set")
endif()
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" emulator "${EMULATOR}")
execute_process(COMMAND ${emulator} "${CLI}" ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(ok TRUE)
if(NOT "${rc}" STREQUAL "${RC}")
  message("exit code ${rc}, expected ${RC}")
  set(ok FALSE)
endif()
if(NOT "${STDOUT}" STREQUAL "" AND NOT out MATCHES "${STDOUT}")
  message("stdout does not match '${STDOUT}'")
  set(ok FALSE)
endif()
if(NOT "${STDERR}" STREQUAL "" AND NOT err MATCHES "${STDERR}")
  message("stderr does not match '${STDERR}'")
  set(ok FALSE)
endif()
if(NOT ok)
  message(FATAL_ERROR "bcast ${args}\n--- stdout:\n${out}--- stderr:\n${err}")
endif()
message(STATUS "ok: bcast ${args} -> ${rc}: ${out}${err}")
