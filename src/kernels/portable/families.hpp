// The portable kernel table, split by op family so that each family compiles
// in its own translation unit (in parallel). Each returns the kernels of its
// own ops for dt, nullptr for any other op; portable_kernels() asks them all.
#pragma once

#include "kernels/kernel_table.hpp"

namespace bcast::kernels::portable {

// ADD SUB MUL MAX MIN MEAN SQUARED_DIFFERENCE PRELU
const OpKernels* arithmetic_kernels(bcast_opcode op, bcast_dtype dt);
// DIV FLOOR_DIVIDE FMOD MOD REMAINDER
const OpKernels* division_kernels(bcast_opcode op, bcast_dtype dt);
// POW ATAN2 LOGADDEXP
const OpKernels* transcendental_kernels(bcast_opcode op, bcast_dtype dt);
// EQUAL NOT_EQUAL LESS LESS_EQUAL GREATER GREATER_EQUAL
const OpKernels* comparison_kernels(bcast_opcode op, bcast_dtype dt);
// LOGICAL_* BITWISE_* SHIFT_*
const OpKernels* logical_bitwise_kernels(bcast_opcode op, bcast_dtype dt);
// SELECT COPY
const OpKernels* data_movement_kernels(bcast_opcode op, bcast_dtype dt);

}  // namespace bcast::kernels::portable
