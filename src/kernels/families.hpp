// The op families: the one list that splits every kernel table (portable and
// each SIMD ISA's) into translation units that compile in parallel, and that
// a change to one family's ops rebuilds alone. src/CMakeLists.txt reads the
// X(...) lines below to generate one translation unit per (ISA, family),
// portable included, from kernels/family_kernels.cpp.in; keep one family per
// line.
//
// Each family `f` has its ops and their list ops::f_ops in ops/<f>.hpp; its
// translation unit's lookup (ops::find_kernels over that list) returns the
// kernels of its own ops for a dtype, built by the ISA's table builder,
// nullptr for any other op. The chain kernels take their ops from all the
// lists (chain_kernels.cpp.in).
#pragma once

#define BCAST_KERNEL_FAMILIES(X) \
    X(arithmetic)           /* ADD SUB MUL */ \
    X(compound_arithmetic)  /* MEAN SQUARED_DIFFERENCE: two arithmetic steps */ \
    X(piecewise)            /* MAX MIN: one of two values, picked by a compare */ \
    X(activation)           /* PRELU */ \
    X(division)             /* DIV FLOOR_DIVIDE FMOD MOD REMAINDER */ \
    X(transcendental)       /* POW ATAN2 LOGADDEXP */ \
    X(comparison)           /* EQUAL NOT_EQUAL LESS LESS_EQUAL GREATER GREATER_EQUAL */ \
    X(logical_bitwise)      /* LOGICAL_* BITWISE_* SHIFT_* */ \
    X(data_movement)        /* SELECT COPY */
