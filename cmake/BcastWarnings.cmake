# Warnings for bcast's own targets (not imposed on users).
add_library(bcast_warnings INTERFACE)
target_compile_options(bcast_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic>)
