// What this CPU and its OS let us run, detected once. Compiled without any -m
// flag: only CPUID and XGETBV are used here, never a vector instruction.
#pragma once

namespace bcast::kernels::cpu {

struct CpuFeatures {
    bool sse2 = false;
    // AVX2 + FMA + F16C, with the OS saving YMM state (XCR0 bits 1 and 2).
    bool avx2 = false;
    // AVX-512 F + BW + DQ + VL + CD on top of avx2, with the OS saving
    // opmask and ZMM state (XCR0 bits 5, 6 and 7).
    bool avx512 = false;
    // AVX512-FP16 on top of avx512 (same OS state): native half arithmetic.
    bool avx512fp16 = false;
    // AVX512-VBMI on top of avx512: byte permutes (quantized table rows).
    bool avx512vbmi = false;
    // Advanced SIMD: part of the aarch64 baseline.
    bool neon = false;
    // CPUID vendor "GenuineIntel".
    bool intel = false;
    // What the tuning is keyed by (tuning/host_key.hpp): the CPUID vendor
    // string ("" off x86), and the display family and model (extended fields
    // folded in as the vendors' manuals say: Zen 4 is family 25, model 17).
    char vendor[13] = {};
    unsigned family = 0;
    unsigned model = 0;
};

// Detected on first use (thread-safe), then cached.
const CpuFeatures& cpu_features();

}  // namespace bcast::kernels::cpu
