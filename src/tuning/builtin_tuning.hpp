// The built-in tuning: what an untuned host runs with, per microarchitecture
// family where one was measured (docs/kernels.md, "Tuning"), else by vendor.
#pragma once

#include "kernels/cpu/cpu_features.hpp"
#include "tuning/tuning_values.hpp"

#include <cstdint>

namespace bcast::tuning {

struct Builtin {
    const char* name;  // "zen4", "sapphire-rapids", "amd", "intel", "other"
    Tuning tuning;
};

// For the CPU `f`, with cache sizes read from this host (sysconf, sysfs).
Builtin builtin_tuning(const kernels::cpu::CpuFeatures& f);
// The same with the last-level cache given (bytes, 0 if unknown).
Builtin builtin_tuning(const kernels::cpu::CpuFeatures& f, uint64_t llc_bytes);

}  // namespace bcast::tuning
