# The sse2 kernels (kernels/isas.hpp): read by src/CMakeLists.txt.
bcast_add_isa_kernels(sse2 POLICY Sse2Isa FLAGS -msse2)
