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

#define BCAST_FAMILY_LOOKUP(family) family##_kernels,
#define BCAST_DEFINE_ISA_KERNELS(isa, arch)                                   \
    const OpKernels* isa::kernels(bcast_opcode kernel_op, bcast_dtype dtype) {       \
        if constexpr (built_isas::isa) {                                              \
            static constexpr FamilyLookup kFamilies[] = {                            \
                BCAST_KERNEL_FAMILIES(BCAST_FAMILY_LOOKUP)};                         \
            return first_family(kFamilies, kernel_op, dtype);                        \
        } else {                                                                     \
            (void)kernel_op, (void)dtype;                                            \
            return nullptr;                                                          \
        }                                                                            \
    }
BCAST_SIMD_ISAS(BCAST_DEFINE_ISA_KERNELS)
#undef BCAST_DEFINE_ISA_KERNELS
#undef BCAST_FAMILY_LOOKUP

// Each ISA's chain kernel for dtype (its <isa>_chain object), or nullptr.
#define BCAST_DEFINE_ISA_CHAINS(isa, arch)                 \
    ChainFn isa::chains(bcast_dtype dtype) {               \
        if constexpr (built_isas::isa) {                   \
            return chain_kernel(dtype);                    \
        } else {                                           \
            (void)dtype;                                   \
            return nullptr;                                \
        }                                                  \
    }
BCAST_SIMD_ISAS(BCAST_DEFINE_ISA_CHAINS)
#undef BCAST_DEFINE_ISA_CHAINS

// Each ISA's quantization kernels (its <isa>_quant object), or none.
#define BCAST_DEFINE_ISA_QUANTS(isa, arch)                 \
    QuantKernels isa::quants(bcast_dtype dtype) {          \
        if constexpr (built_isas::isa) {                   \
            return quant_kernels(dtype);                   \
        } else {                                           \
            (void)dtype;                                   \
            return {};                                     \
        }                                                  \
    }
BCAST_SIMD_ISAS(BCAST_DEFINE_ISA_QUANTS)
#undef BCAST_DEFINE_ISA_QUANTS

#define BCAST_DEFINE_ISA_QUANT_BINARIES(isa, arch)                                   \
    QuantBinaryKernels isa::quant_binaries(bcast_opcode kernel_op, bcast_dtype dtype) { \
        if constexpr (built_isas::isa) {                                             \
            return quant_binary_kernels(kernel_op, dtype);                           \
        } else {                                                                     \
            (void)kernel_op, (void)dtype;                                            \
            return {};                                                               \
        }                                                                            \
    }
BCAST_SIMD_ISAS(BCAST_DEFINE_ISA_QUANT_BINARIES)
#undef BCAST_DEFINE_ISA_QUANT_BINARIES

}  // namespace bcast::kernels
