// The built-in tuning: what an untuned host runs with, per microarchitecture
// family where one was measured (docs/kernels.md, "Tuning"), else by vendor.
#pragma once

#include "kernels/cpu/cpu_features.hpp"
#include "tuning/tuning_values.hpp"

namespace bcast::tuning {

struct Builtin {
    const char* name;  // "zen4", "sapphire-rapids", "amd", "intel", "other"
    Tuning tuning;
};

// For the CPU `f`, with cache sizes read from this host (sysconf, sysfs).
Builtin builtin_tuning(const kernels::cpu::CpuFeatures& f);

}  // namespace bcast::tuning
