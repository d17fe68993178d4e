// Each listed SIMD ISA's kernels(): the first of its family lookups that has
// (op, dtype), or nullptr where this build does not have the ISA (its
// families are then never referenced). Baseline code: it only calls into
// the ISA's objects, which dispatch.cpp does only once the CPU has reported
// the ISA.
#include "kernels/simd/isa_kernels.hpp"

#include "kernels/built_isas.hpp"

#include <cstddef>

namespace bcast::kernels {
namespace {

using FamilyLookup = const OpKernels* (*)(bcast_opcode, bcast_dtype);

template <std::size_t N>
const OpKernels* first_family(const FamilyLookup (&families)[N], bcast_opcode op,
                              bcast_dtype dt) {
    for (FamilyLookup family : families) {
        if (const OpKernels* k = family(op, dt)) return k;
    }
    return nullptr;
}

}  // namespace

// Each ISA's entry points: its objects' answer where this build has the
// ISA, else nothing (its symbols are then never referenced).
#define BCAST_IF_BUILT(isa, call)  \
    if constexpr (built_isas::isa) { \
        return call;                 \
    } else {                         \
        return {};                   \
    }
#define BCAST_FAMILY_LOOKUP(family) family##_kernels,
#define BCAST_DEFINE_ISA_ENTRIES(isa, arch)                                                                \
    const OpKernels* isa::kernels([[maybe_unused]] bcast_opcode kernel_op,                                 \
                                  [[maybe_unused]] bcast_dtype dtype) {                                    \
        if constexpr (built_isas::isa) {                                                                   \
            static constexpr FamilyLookup kFamilies[] = {BCAST_KERNEL_FAMILIES(BCAST_FAMILY_LOOKUP)};      \
            return first_family(kFamilies, kernel_op, dtype);                                              \
        } else {                                                                                           \
            return nullptr;                                                                                \
        }                                                                                                  \
    }                                                                                                      \
    ChainFn isa::chains([[maybe_unused]] bcast_dtype dtype) { BCAST_IF_BUILT(isa, chain_kernel(dtype)) }   \
    QuantKernels isa::quants([[maybe_unused]] bcast_dtype dtype) { BCAST_IF_BUILT(isa, quant_kernels(dtype)) } \
    QuantBinaryKernels isa::quant_binaries([[maybe_unused]] bcast_opcode kernel_op,                        \
                                           [[maybe_unused]] bcast_dtype dtype) {                           \
        BCAST_IF_BUILT(isa, quant_binary_kernels(kernel_op, dtype))                                        \
    }
BCAST_SIMD_ISAS(BCAST_DEFINE_ISA_ENTRIES)
#undef BCAST_DEFINE_ISA_ENTRIES
#undef BCAST_FAMILY_LOOKUP
#undef BCAST_IF_BUILT

}  // namespace bcast::kernels
