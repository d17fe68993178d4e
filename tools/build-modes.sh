# Sourced by tools/test.sh and tools/fuzz.sh: each test mode's build
# directory, compilers and CMake options, in one place.
#   build_mode MODE   sets dir, flags (array), targets (array, empty: all)
#                     and exports CC/CXX as needed
build_mode() {
  targets=()
  case "$1" in
    release)
      dir=build
      # -g on the C API objects only, so the ABI gate can check this build.
      flags=(-DCMAKE_BUILD_TYPE=Release -DBCAST_ABI_DEBUG_INFO=ON)
      ;;
    sanitize)
      dir=build-asan
      export CC=clang CXX=clang++
      # Debug keeps assertions; -O1 makes the fuzzers and the SIMD tests
      # several times faster than -O0 and hides nothing from the sanitizers.
      flags=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" "-DCMAKE_C_FLAGS_DEBUG=-g -O1"
             -DBCAST_SANITIZE=ON -DBCAST_FUZZ=ON)
      ;;
    tsan)
      dir=build-tsan
      export CC=clang CXX=clang++
      # The kernel sets only change which loops run; two keep the build short.
      flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBCAST_TSAN=ON "-DBCAST_KERNEL_ISAS=sse2;avx2")
      targets=(bcast_thread_tests)  # the only tests this mode runs
      ;;
    *) return 1 ;;
  esac
  flags+=(-DBCAST_BUILD_TESTS=ON -DBCAST_BUILD_TOOLS=ON)
}
