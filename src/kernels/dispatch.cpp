#include "kernels/dispatch.hpp"

#include "core/op_info.hpp"
#include "kernels/cpu/cpu_features.hpp"
#include "kernels/simd/isa_kernels.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace bcast::kernels {
namespace {

// Ordered from least to most capable within each architecture's ladder
// (x86: scalar < sse2 < avx2 < avx512; aarch64: scalar < neon). A cap naming
// the other architecture's ISA caps nothing but itself: "neon" on x86 and
// "sse2" on aarch64 both leave every ISA of this machine allowed.
enum class Isa : int { Scalar = 0, Sse2, Avx2, Avx512, Neon };

struct IsaName {
    Isa isa;
    const char* name;
};

constexpr IsaName kIsaNames[] = {{Isa::Scalar, "scalar"}, {Isa::Sse2, "sse2"},
                                 {Isa::Avx2, "avx2"},     {Isa::Avx512, "avx512"},
                                 {Isa::Neon, "neon"}};

bool parse_isa(const char* name, Isa* out) {
    if (!name) return false;
    for (const IsaName& entry : kIsaNames) {
        if (std::strcmp(entry.name, name) == 0) {
            *out = entry.isa;
            return true;
        }
    }
    return false;
}

const char* isa_name(Isa isa) {
    for (const IsaName& entry : kIsaNames) {
        if (entry.isa == isa) return entry.name;
    }
    return "scalar";
}

Isa cap_from_environment() {
    Isa cap = Isa::Neon;  // no cap
    const char* env = std::getenv("BCAST_MAX_ISA");
    if (env && !parse_isa(env, &cap)) cap = Isa::Neon;  // unknown values are ignored
    return cap;
}

std::atomic<int>& isa_cap() {
    static std::atomic<int> cap{static_cast<int>(cap_from_environment())};
    return cap;
}

bool is_x86(Isa isa) { return isa == Isa::Sse2 || isa == Isa::Avx2 || isa == Isa::Avx512; }

// Whether this build has the ISA's kernels and this CPU (and OS) can run them.
bool available(Isa isa) {
    [[maybe_unused]] const cpu::CpuFeatures& cpu = cpu::cpu_features();
    switch (isa) {
        case Isa::Scalar: return true;
#if defined(BCAST_HAVE_SSE2_KERNELS)
        case Isa::Sse2: return cpu.sse2;
#endif
#if defined(BCAST_HAVE_AVX2_KERNELS)
        case Isa::Avx2: return cpu.avx2;
#endif
#if defined(BCAST_HAVE_AVX512_KERNELS)
        case Isa::Avx512: return cpu.avx512;
#endif
#if defined(BCAST_HAVE_NEON_KERNELS)
        case Isa::Neon: return cpu.neon;
#endif
        default: return false;
    }
}

bool allowed_by_cap(Isa isa, Isa cap) {
    if (cap == Isa::Scalar) return isa == Isa::Scalar;
    if (is_x86(isa) && is_x86(cap)) return static_cast<int>(isa) <= static_cast<int>(cap);
    return true;
}

// The best kernel table this CPU and build offer under the cap.
Isa active_isa() {
    const auto cap = static_cast<Isa>(isa_cap().load(std::memory_order_relaxed));
    constexpr Isa kBestFirst[] = {Isa::Avx512, Isa::Avx2, Isa::Sse2, Isa::Neon};
    for (Isa isa : kBestFirst) {
        if (available(isa) && allowed_by_cap(isa, cap)) return isa;
    }
    return Isa::Scalar;
}

// The ISA's own table for (op, dtype); nullptr for scalar or where it has none.
const OpKernels* isa_kernels(Isa isa, [[maybe_unused]] bcast_opcode kernel_op,
                             [[maybe_unused]] bcast_dtype dtype) {
    switch (isa) {
#if defined(BCAST_HAVE_SSE2_KERNELS)
        case Isa::Sse2: return sse2::kernels(kernel_op, dtype);
#endif
#if defined(BCAST_HAVE_AVX2_KERNELS)
        case Isa::Avx2: return avx2::kernels(kernel_op, dtype);
#endif
#if defined(BCAST_HAVE_AVX512_KERNELS)
        case Isa::Avx512: {
#if defined(BCAST_HAVE_AVX512FP16_KERNELS)
            if (cpu::cpu_features().avx512fp16) {
                if (const OpKernels* half = avx512fp16::kernels(kernel_op, dtype)) return half;
            }
#endif
            return avx512::kernels(kernel_op, dtype);
        }
#endif
#if defined(BCAST_HAVE_NEON_KERNELS)
        case Isa::Neon: return neon::kernels(kernel_op, dtype);
#endif
        default: return nullptr;
    }
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
    s.isa = isa_name(Isa::Scalar);
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
        case Isa::Sse2: { static const MergedTable t(Isa::Sse2); return t; }
        case Isa::Avx2: { static const MergedTable t(Isa::Avx2); return t; }
        case Isa::Avx512: { static const MergedTable t(Isa::Avx512); return t; }
        case Isa::Neon: { static const MergedTable t(Isa::Neon); return t; }
        default: { static const MergedTable t(Isa::Scalar); return t; }
    }
}

}  // namespace

Selection select_kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    if (kernel_op < 0 || kernel_op >= kNumOpcodes || dtype < 0 || dtype >= kNumDtypes) {
        Selection none{};
        none.isa = isa_name(Isa::Scalar);
        return none;
    }
    return table(active_isa()).entries[static_cast<std::size_t>(kernel_op) * kNumDtypes + dtype];
}

const char* active_isa_name() { return isa_name(active_isa()); }

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
