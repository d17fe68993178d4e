# Sourced by tools/test.sh and tools/fuzz.sh: each test mode's build
# directory, compilers and CMake options, in one place.
#   build_mode MODE   sets dir, flags (array), targets (array, empty: all)
#                     and exports CC/CXX as needed
# The SIMD kernel sets this CPU can run (kernels/isas.hpp names): the
# sanitizer builds compile only those, since kernels that cannot run here
# prove nothing under a sanitizer (the Release build compiles them all).
host_kernel_isas() {
  case "$(uname -m)" in
    x86_64)
      local flags isas=sse2
      flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
      has() { for f in "$@"; do [[ $flags == *" $f "* ]] || return 1; done; }
      if has avx2 fma f16c; then
        isas+=";avx2"
        has avx512f avx512bw avx512dq avx512vl avx512cd && isas+=";avx512"
      fi
      echo "$isas" ;;
    aarch64) echo neon ;;
    *) echo all ;;
  esac
}

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
             -DBCAST_SANITIZE=ON -DBCAST_FUZZ=ON "-DBCAST_KERNEL_ISAS=$(host_kernel_isas)")
      ;;
    tsan)
      dir=build-tsan
      export CC=clang CXX=clang++
      flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBCAST_TSAN=ON "-DBCAST_KERNEL_ISAS=$(host_kernel_isas)")
      targets=(bcast_thread_tests)  # the only tests this mode runs
      ;;
    *) return 1 ;;
  esac
  flags+=(-DBCAST_BUILD_TESTS=ON -DBCAST_BUILD_TOOLS=ON)
}
