#include "kernels/dispatch.hpp"

#include "core/op_info.hpp"
#include "kernels/cpu/cpu_features.hpp"
#include "kernels/built_isas.hpp"
#include "kernels/isas.hpp"
#include "kernels/simd/isa_kernels.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace bcast::kernels {
namespace {

enum class Arch { x86_64, aarch64 };

// scalar, then the SIMD ISAs in the order of their list (kernels/isas.hpp).
#define BCAST_ISA_ENUMERATOR(isa, arch) isa,
enum class Isa : int { scalar = 0, BCAST_SIMD_ISAS(BCAST_ISA_ENUMERATOR) };
#undef BCAST_ISA_ENUMERATOR

struct IsaInfo {
    Isa isa;
    const char* name;
    Arch arch;
    bool built;  // this build has its kernels (kernels/built_isas.hpp)
    bool (*on_cpu)();
    const OpKernels* (*own_kernels)(bcast_opcode, bcast_dtype);
    ChainFn (*chains)(bcast_dtype);
    QuantKernels (*quants)(bcast_dtype);
    QuantBinaryKernels (*quant_binaries)(bcast_opcode, bcast_dtype);
};

#define BCAST_ISA_INFO(isa, arch)                                  \
    {Isa::isa, #isa, Arch::arch, built_isas::isa,                  \
     [] { return cpu::cpu_features().isa; }, &isa::kernels, &isa::chains, &isa::quants, \
     &isa::quant_binaries},
constexpr IsaInfo kSimdIsas[] = {BCAST_SIMD_ISAS(BCAST_ISA_INFO)};
#undef BCAST_ISA_INFO

// An ISA cap, or no cap (the default, and for unknown BCAST_MAX_ISA values).
constexpr int kNoCap = -1;

constexpr int kSimdCount = static_cast<int>(sizeof(kSimdIsas) / sizeof(kSimdIsas[0]));

// The enum follows the list, so an ISA's info is at its value - 1.
const IsaInfo* simd_info(Isa isa) {
    const int index = static_cast<int>(isa) - 1;
    return index >= 0 && index < kSimdCount ? &kSimdIsas[index] : nullptr;  // scalar: none
}

const char* isa_name(Isa isa) {
    const IsaInfo* info = simd_info(isa);
    return info ? info->name : "scalar";
}

bool parse_isa(const char* name, Isa* out) {
    if (!name) return false;
    for (int i = 0; isa_name_at(i) != nullptr; ++i) {
        if (same_name(isa_name_at(i), name)) {
            *out = static_cast<Isa>(i);
            return true;
        }
    }
    return false;
}

int cap_from_environment() {
    Isa cap;
    const char* env = std::getenv("BCAST_MAX_ISA");
    return parse_isa(env, &cap) ? static_cast<int>(cap) : kNoCap;
}

std::atomic<int>& isa_cap() {
    static std::atomic<int> cap{cap_from_environment()};
    return cap;
}

// Whether this build has the ISA's kernels and this CPU (and OS) can run them.
bool available(Isa isa) {
    const IsaInfo* info = simd_info(isa);
    if (!info) return true;  // scalar
    return info->built && info->on_cpu();
}

// Within one architecture a later ISA of the list is above an earlier one;
// a cap naming another architecture's ISA ("neon" on x86) caps nothing.
bool allowed_by_cap(Isa isa, int cap) {
    if (cap == kNoCap) return true;
    const auto capped = static_cast<Isa>(cap);
    if (capped == Isa::scalar) return isa == Isa::scalar;
    const IsaInfo* info = simd_info(isa);
    if (!info) return true;  // scalar is under every cap
    if (info->arch != simd_info(capped)->arch) return true;
    return static_cast<int>(isa) <= cap;
}

// The best kernel table this CPU and build offer under the cap.
Isa active_isa() {
    const int cap = isa_cap().load(std::memory_order_relaxed);
    constexpr auto kCount = sizeof(kSimdIsas) / sizeof(kSimdIsas[0]);
    for (std::size_t i = kCount; i-- > 0;) {
        const Isa isa = kSimdIsas[i].isa;
        if (available(isa) && allowed_by_cap(isa, cap)) return isa;
    }
    return Isa::scalar;
}

// The ISA's own table for (op, dtype); nullptr for scalar or where it has none.
const OpKernels* isa_kernels(Isa isa, bcast_opcode kernel_op, bcast_dtype dtype) {
    const IsaInfo* info = simd_info(isa);
    if (!info) return nullptr;
#if defined(BCAST_HAVE_AVX512FP16_KERNELS)
    // Native f16 + - * / in front of the avx512 table's F16C slots.
    if (isa == Isa::avx512 && cpu::cpu_features().avx512fp16) {
        if (const OpKernels* half = avx512fp16::kernels(kernel_op, dtype)) return half;
    }
#endif
    return info->own_kernels(kernel_op, dtype);
}

template <class Fn>
void merge_slot(Fn& slot, Fn fast, bool& used) {
    if (fast && slot) {
        slot = fast;
        used = true;
    }
}

// The portable slots with every slot the ISA fills put over them. Only pairs
// the portable table supports get fast slots; a 2-D slot only where the
// portable table has its 1-D form.
Selection merged(Isa isa, bcast_opcode kernel_op, bcast_dtype dtype) {
    Selection s{};
    s.isa = isa_name(Isa::scalar);
    const OpKernels* portable = portable_kernels(kernel_op, dtype);
    if (!portable) return s;
    s.kernels = *portable;
    const OpKernels* fast = isa_kernels(isa, kernel_op, dtype);
    if (!fast) return s;
    bool used = false;
    OpKernels& k = s.kernels;
    merge_slot(k.vv, fast->vv, used);
    merge_slot(k.vs, fast->vs, used);
    merge_slot(k.sv, fast->sv, used);
    merge_slot(k.periodic_y, fast->periodic_y, used);
    merge_slot(k.periodic_x, fast->periodic_x, used);
    merge_slot(k.copy, fast->copy, used);
    merge_slot(k.fill, fast->fill, used);
    merge_slot(k.strided, fast->strided, used);
    if (k.vv) k.vv2d = fast->vv2d;
    if (k.vs) k.vs2d = fast->vs2d;
    if (k.sv) k.sv2d = fast->sv2d;
    used = used || k.vv2d || k.vs2d || k.sv2d;
    if (used) s.isa = isa_name(isa);
    return s;
}

constexpr std::size_t kNumPairs = static_cast<std::size_t>(kNumOpcodes) * kNumDtypes;

// One merged table per ISA, built the first time that ISA is asked for
// (thread-safe static initialisation) and never changed after.
struct MergedTable {
    std::array<Selection, kNumPairs> entries{};
    explicit MergedTable(Isa isa) {
        for (int op = 0; op < kNumOpcodes; ++op) {
            for (int dt = 0; dt < kNumDtypes; ++dt) {
                entries[static_cast<std::size_t>(op) * kNumDtypes + dt] = merged(isa, op, dt);
            }
        }
    }
};

const MergedTable& table(Isa isa) {
    switch (isa) {
#define BCAST_ISA_TABLE(isa, arch) \
        case Isa::isa: { static const MergedTable t(Isa::isa); return t; }
        BCAST_SIMD_ISAS(BCAST_ISA_TABLE)
#undef BCAST_ISA_TABLE
        default: { static const MergedTable t(Isa::scalar); return t; }
    }
}

}  // namespace

Selection select_kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    if (kernel_op < 0 || kernel_op >= kNumOpcodes || dtype < 0 || dtype >= kNumDtypes) {
        Selection none{};
        none.isa = isa_name(Isa::scalar);
        return none;
    }
    return table(active_isa()).entries[static_cast<std::size_t>(kernel_op) * kNumDtypes + dtype];
}

ChainFn select_chain(bcast_dtype dtype) {
    const IsaInfo* info = simd_info(active_isa());
    return info ? info->chains(dtype) : nullptr;
}

QuantSelection select_quant_kernels(bcast_dtype dtype) {
    QuantSelection s{};
    s.isa = isa_name(Isa::scalar);
    if (const QuantKernels* portable = portable_quant_kernels(dtype)) s.kernels = *portable;
    const Isa isa = active_isa();
    const IsaInfo* info = simd_info(isa);
    if (!info || !s.kernels.dequantize) return s;
    const QuantKernels fast = info->quants(dtype);
    if (fast.dequantize && fast.quantize) {
        s.kernels = fast;
        s.isa = isa_name(isa);
    }
    return s;
}

QuantBinaryKernels select_quant_binary(bcast_opcode kernel_op, bcast_dtype dtype) {
    const Isa isa = active_isa();
    const IsaInfo* info = simd_info(isa);
    QuantBinaryKernels k = info ? info->quant_binaries(kernel_op, dtype) : QuantBinaryKernels{};
#if defined(BCAST_HAVE_AVX512VBMI_KERNELS)
    if (isa == Isa::avx512 && cpu::cpu_features().avx512vbmi && k.vs && k.sv) {
        k.vs_row = avx512vbmi::quant_row_kernel(false);
        k.sv_row = avx512vbmi::quant_row_kernel(true);
    }
#endif
    return k;
}

QuantKernels isa_quant_kernels(const char* name, bcast_dtype dtype) {
    Isa isa;
    if (!parse_isa(name, &isa) || !available(isa)) return {};
    const IsaInfo* info = simd_info(isa);
    return info ? info->quants(dtype) : QuantKernels{};
}

QuantBinaryKernels isa_quant_binary_kernels(const char* name, bcast_opcode kernel_op, bcast_dtype dtype) {
    Isa isa;
    if (!parse_isa(name, &isa) || !available(isa)) return {};
    const IsaInfo* info = simd_info(isa);
    return info ? info->quant_binaries(kernel_op, dtype) : QuantBinaryKernels{};
}

const char* active_isa_name() { return isa_name(active_isa()); }

const char* isa_name_at(int index) {
    return index >= 0 && index <= kSimdCount ? isa_name(static_cast<Isa>(index)) : nullptr;  // 0: scalar
}

bool set_max_isa(const char* name) {
    Isa cap;
    if (!parse_isa(name, &cap)) return false;
    isa_cap().store(static_cast<int>(cap), std::memory_order_relaxed);
    return true;
}

bool isa_available(const char* name) {
    Isa isa;
    return parse_isa(name, &isa) && available(isa);
}

const OpKernels* isa_own_kernels(const char* name, bcast_opcode kernel_op, bcast_dtype dtype) {
    Isa isa;
    if (!parse_isa(name, &isa) || !available(isa)) return nullptr;
    return isa_kernels(isa, kernel_op, dtype);
}

}  // namespace bcast::kernels
