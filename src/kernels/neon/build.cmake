# The neon kernels (kernels/isas.hpp): read by src/CMakeLists.txt. Advanced
# SIMD is AArch64 baseline: no flag.
bcast_add_isa_kernels(neon POLICY NeonIsa)
