# ctest "bench: smoke": bcast_bench --smoke --threads 1,2 must succeed (every
# output checked against its oracle, the pool's too) and print a table row for
# every case of --list at every offset layout (aligned, +4, +16, mixed) and
# thread count, plus the fixed-cost lines.
execute_process(COMMAND ${BENCH} --list OUTPUT_VARIABLE list RESULT_VARIABLE list_status)
if(NOT list_status EQUAL 0 OR list STREQUAL "")
  message(FATAL_ERROR "bcast_bench --list failed (${list_status})")
endif()
execute_process(COMMAND ${BENCH} --smoke --threads 1,2 OUTPUT_VARIABLE table RESULT_VARIABLE status
                ERROR_VARIABLE errors)
message("${table}${errors}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "bcast_bench --smoke exited with ${status}")
endif()

string(REPLACE "\n" ";" lines "${list}")
set(count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(REPLACE "\t" ";" fields "${line}")
  list(GET fields 0 label)
  list(GET fields 1 dtype)
  foreach(offset "+0" "+4" "+16" "a+0 b+4 y+16")
    foreach(threads 1 2)
      string(FIND "${table}" "| ${label} | ${dtype} | ${offset} | ${threads} |" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "no row for case ${label} ${dtype} at offset ${offset} on ${threads} threads")
      endif()
      math(EXPR count "${count} + 1")
    endforeach()
  endforeach()
endforeach()
# The header names the tuning in force: its source and every choice.
if(NOT table MATCHES "- tuning in force: [^\n(]+ \\(prefetch\\.rows\\.hint [a-z0-9]+, [^\n]*chain_block [0-9]+\\)")
  message(FATAL_ERROR "the header does not name the tuning in force")
endif()
foreach(fixed "| execute (16)+(16) f32 |" "| execute (16)+(16) f32 on a pool of 2 |"
              "| plan (8,64,112,112)+(1,64,1,1) f32 |")
  string(FIND "${table}" "${fixed}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no line '${fixed}'")
  endif()
endforeach()

# --offsets picks layouts; a bad name is a usage error that says what is allowed.
execute_process(COMMAND ${BENCH} --smoke --filter "(16)+(16) f32" --offsets 16
                OUTPUT_VARIABLE one RESULT_VARIABLE status)
string(REGEX MATCHALL "\\| \\(16\\)\\+\\(16\\) \\| f32 \\| [^|]+ \\|" rows "${one}")
if(NOT status EQUAL 0 OR NOT rows STREQUAL "| (16)+(16) | f32 | +16 |")
  message(FATAL_ERROR "--offsets 16 should print one +16 row, got (${status}): ${rows}")
endif()
execute_process(COMMAND ${BENCH} --offsets 0,8 RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 2 OR NOT errors MATCHES "unknown offset '8' \\(expected 0, 4, 16 or mixed\\)")
  message(FATAL_ERROR "--offsets 0,8 should be refused (exit 2), got ${status}: ${errors}")
endif()
message("bench smoke: ${count} rows printed")
