// The SIMD ISAs that have a generated kernel table: the one list. Adding an
// ISA is a line here, plus what is new about it: its directory (the policy
// header kernels/<isa>/<isa>_isa.hpp, and kernels/<isa>/build.cmake, which
// builds it with its compiler flags) and its CPU feature bit
// (cpu/cpu_features.*: a field named as the ISA).
//
//   X(isa, architecture)
//
// src/CMakeLists.txt reads these lines: it builds each ISA of the target's
// architecture (BCAST_KERNEL_ISAS may pick fewer) and writes which were built
// into kernels/built_isas.hpp. dispatch.cpp derives from them its names,
// its order of preference (later lines of one architecture first), the CPU
// check and the table switch; the objects link in this order too (the
// least demanding copy of a weak symbol comes first). Keep one ISA per line.
// An ISA of a new architecture also needs that architecture in dispatch.cpp
// (Arch) and in src/CMakeLists.txt (target_arch).
#pragma once

#define BCAST_SIMD_ISAS(X) \
    X(sse2, x86_64)   \
    X(avx2, x86_64)   \
    X(avx512, x86_64) \
    X(neon, aarch64)
