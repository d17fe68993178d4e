// The namespace the shared kernel headers (half.hpp, dtype_traits.hpp,
// ops/) open. Each ISA's translation units are compiled with their
// own -m flags; if they all put these inline functions in one namespace, the
// linker would keep one copy for every ISA and the portable path could end up
// running AVX-512 code. An ISA's sources define BCAST_KERNEL_ISA (avx2, neon,
// ...) before including any kernel header; everything else gets `portable`.
#pragma once

#ifndef BCAST_KERNEL_ISA
#define BCAST_KERNEL_ISA portable
#endif
