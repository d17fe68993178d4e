// The namespace the shared kernel headers (half.hpp, dtype_traits.hpp,
// ops/) open. Each ISA's translation units are compiled with their
// own -m flags; if they all put these inline functions in one namespace, the
// linker would keep one copy for every ISA and the portable path could end up
// running AVX-512 code. Each ISA's object library defines BCAST_KERNEL_ISA
// (avx2, neon, ...) for all its sources (src/CMakeLists.txt); everything else
// gets `portable`.
#pragma once

#ifndef BCAST_KERNEL_ISA
#define BCAST_KERNEL_ISA portable
#endif
