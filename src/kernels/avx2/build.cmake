# The avx2 kernels (kernels/isas.hpp): read by src/CMakeLists.txt. The CPU
# check (cpu_features.cpp) requires FMA and F16C with AVX2.
bcast_add_isa_kernels(avx2 POLICY Avx2Isa FLAGS -mavx2 -mfma -mf16c)
