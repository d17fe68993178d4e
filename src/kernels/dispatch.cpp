#include "kernels/dispatch.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace bcast::kernels {
namespace {

// Ordered from least to most capable. Only the portable kernels exist so far;
// the SIMD tables slot in above them.
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

// The best kernel table this CPU and build offer under the cap.
Isa active_isa() {
    (void)isa_cap();
    return Isa::Scalar;
}

const char* isa_name(Isa isa) {
    for (const IsaName& entry : kIsaNames) {
        if (entry.isa == isa) return entry.name;
    }
    return "scalar";
}

}  // namespace

Selection select_kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    Selection selection{};
    selection.isa = isa_name(active_isa());
    if (const OpKernels* portable = portable_kernels(kernel_op, dtype)) {
        selection.kernels = *portable;
    }
    return selection;
}

const char* active_isa_name() { return isa_name(active_isa()); }

bool set_max_isa(const char* name) {
    Isa cap;
    if (!parse_isa(name, &cap)) return false;
    isa_cap().store(static_cast<int>(cap));
    return true;
}

}  // namespace bcast::kernels
