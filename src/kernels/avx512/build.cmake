# The avx512 kernels (kernels/isas.hpp): read by src/CMakeLists.txt. The CPU
# check (cpu_features.cpp) requires F, BW, DQ, VL and CD with AVX2, FMA, F16C.
# xsimd's avx512bw arch derives from avx512cd, so CD is needed too.
set(bcast_avx512_flags -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx512cd -mavx2 -mfma -mf16c)
# GCC 12 warns that the _mm512_undefined_* inside its own intrinsics
# (cvtph_ps, slli_epi32, ...) are used uninitialized (GCC bug 105593, fixed
# in GCC 13): noise from the compiler's headers. A flag and not a pragma in
# avx512_isa.hpp: GCC does not keep diagnostic pragmas in a precompiled
# header.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND bcast_avx512_flags -Wno-uninitialized -Wno-maybe-uninitialized)
endif()
bcast_add_isa_kernels(avx512 POLICY Avx512Isa FLAGS ${bcast_avx512_flags})

# Native f16 arithmetic where the CPU has it (dispatch.cpp asks CPUID), in
# front of this table's F16C slots. Toolchains that cannot build vaddph
# (GCC < 12, or binutils < 2.38 behind a GCC that takes the flag) build
# without these slots.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-mavx512fp16")
check_cxx_source_compiles([=[
  #include <immintrin.h>
  __m512h f(__m512h a, __m512h b) { return _mm512_add_ph(a, b); }
  int main() { return 0; }
]=] BCAST_TOOLCHAIN_HAS_AVX512FP16)
unset(CMAKE_REQUIRED_FLAGS)
# Byte permutes where the CPU has AVX512-VBMI (dispatch.cpp asks CPUID): the
# quantized ops' table rows (kernels/avx512vbmi/).
bcast_add_isa_kernels(avx512vbmi FLAGS -mavx512vbmi ${bcast_avx512_flags})
target_compile_definitions(bcast_core_baseline PRIVATE BCAST_HAVE_AVX512VBMI_KERNELS)
if(BCAST_TOOLCHAIN_HAS_AVX512FP16)
  bcast_add_isa_kernels(avx512fp16 FLAGS -mavx512fp16 ${bcast_avx512_flags})
  target_compile_definitions(bcast_core_baseline PRIVATE BCAST_HAVE_AVX512FP16_KERNELS)
endif()
