// The op families: the one list that splits every kernel table (portable and
// each SIMD ISA's) into translation units that compile in parallel, and that
// a change to one family's ops rebuilds alone. src/CMakeLists.txt reads the
// X(...) lines below to generate one SIMD translation unit per (ISA, family)
// from kernels/simd/family_kernels.cpp.in; keep one family per line.
//
// Each family `f` has a lookup f_kernels(op, dtype): the kernels of its own
// ops for that dtype, nullptr for any other op (portable/<f>.cpp, and
// simd::f_kernels<Isa> in simd/family_<f>.hpp, with the family's SIMD ops).
#pragma once

#define BCAST_KERNEL_FAMILIES(X) \
    X(arithmetic)      /* ADD SUB MUL MEAN SQUARED_DIFFERENCE */ \
    X(piecewise)       /* MAX MIN PRELU: one of two values, picked by a compare */ \
    X(division)        /* DIV FLOOR_DIVIDE FMOD MOD REMAINDER */ \
    X(transcendental)  /* POW ATAN2 LOGADDEXP */ \
    X(comparison)      /* EQUAL NOT_EQUAL LESS LESS_EQUAL GREATER GREATER_EQUAL */ \
    X(logical_bitwise) /* LOGICAL_* BITWISE_* SHIFT_* */ \
    X(data_movement)   /* SELECT COPY */
