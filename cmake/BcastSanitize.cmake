# AddressSanitizer + UndefinedBehaviorSanitizer (BCAST_SANITIZERS) for every
# target; any report is fatal so that ctest sees it. clang (tools/test.sh
# --sanitize) and g++ both build it; g++'s -fsanitize=null makes a test of an
# object's address against nullptr no constant expression, which is why the
# op table's constexpr queries index the table instead (core/op_info.hpp).
add_compile_options(-fsanitize=${BCAST_SANITIZERS} -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_link_options(-fsanitize=${BCAST_SANITIZERS})
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # A C program (the C99 test, the C example) linking the C++ library needs
  # the C++ half of clang's UBSan runtime (and the C++ ABI library it
  # uses), which only the C++ driver adds.
  add_link_options($<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime> $<$<LINK_LANGUAGE:C>:-lstdc++>)
endif()
