// ChainCarry's flush (kernel_table.hpp), in baseline code: the ISA kernels
// call it, and an inline function of this namespace compiled into them
// could be the copy the portable path links to (kernels/isa_namespace.hpp).
#include "kernels/kernel_table.hpp"

#include <cstring>

namespace bcast::kernels {

void flush(ChainCarry& carry) noexcept {
    if (carry.size != 0) std::memcpy(carry.at, carry.bytes, carry.size);
    carry.size = 0;
}

}  // namespace bcast::kernels
