#include "kernels/cpu/cpu_features.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace bcast::kernels::cpu {
namespace {

#if defined(__x86_64__) || defined(__i386__)

// XCR0: which register states the OS saves on a context switch. CPUID alone
// is not enough: an OS or hypervisor may leave AVX state disabled.
std::uint64_t read_xcr0() {
    std::uint32_t lo = 0, hi = 0;
    // The mnemonic, not _xgetbv(), which would need -mxsave here.
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

constexpr std::uint64_t kXcr0Ymm = (1u << 1) | (1u << 2);              // SSE, AVX
constexpr std::uint64_t kXcr0Zmm = (1u << 5) | (1u << 6) | (1u << 7);  // opmask, ZMM

CpuFeatures detect() {
    CpuFeatures f;
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return f;
    // The vendor string is EBX, EDX, ECX: "Genu" "ineI" "ntel".
    f.intel = ebx == 0x756e6547u && edx == 0x49656e69u && ecx == 0x6c65746eu;
    std::memcpy(f.vendor, &ebx, 4);
    std::memcpy(f.vendor + 4, &edx, 4);
    std::memcpy(f.vendor + 8, &ecx, 4);
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return f;
    const unsigned base_family = (eax >> 8) & 0xfu;
    f.family = base_family == 0xfu ? base_family + ((eax >> 20) & 0xffu) : base_family;
    f.model = (eax >> 4) & 0xfu;
    if (base_family == 0x6u || base_family == 0xfu) f.model |= ((eax >> 16) & 0xfu) << 4;
    f.sse2 = (edx & bit_SSE2) != 0;
    const bool osxsave = (ecx & bit_OSXSAVE) != 0;
    const bool avx = (ecx & bit_AVX) != 0;
    const bool fma = (ecx & bit_FMA) != 0;
    const bool f16c = (ecx & bit_F16C) != 0;
    // XGETBV faults unless the OS enabled it, which OSXSAVE reports.
    const std::uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    const bool os_ymm = (xcr0 & kXcr0Ymm) == kXcr0Ymm;
    const bool os_zmm = os_ymm && (xcr0 & kXcr0Zmm) == kXcr0Zmm;

    unsigned leaf7_ebx = 0, leaf7_ecx = 0, leaf7_edx = 0;
    if (__get_cpuid_max(0, nullptr) >= 7) {
        __cpuid_count(7, 0, eax, leaf7_ebx, leaf7_ecx, leaf7_edx);
    }
    const bool avx2 = (leaf7_ebx & bit_AVX2) != 0;
    constexpr unsigned kAvx512Bits =
        bit_AVX512F | bit_AVX512BW | bit_AVX512DQ | bit_AVX512VL | bit_AVX512CD;

    f.avx2 = f.sse2 && avx && avx2 && fma && f16c && os_ymm;
    f.avx512 = f.avx2 && (leaf7_ebx & kAvx512Bits) == kAvx512Bits && os_zmm;
    constexpr unsigned kAvx512Fp16Bit = 1u << 23;  // CPUID.(7,0):EDX (cpuid.h only from GCC 12)
    f.avx512fp16 = f.avx512 && (leaf7_edx & kAvx512Fp16Bit) != 0;
    constexpr unsigned kAvx512VbmiBit = 1u << 1;  // CPUID.(7,0):ECX
    f.avx512vbmi = f.avx512 && (leaf7_ecx & kAvx512VbmiBit) != 0;
    return f;
}

#elif defined(__aarch64__)

CpuFeatures detect() {
    CpuFeatures f;
    f.neon = true;  // Advanced SIMD is mandatory on AArch64
    return f;
}

#else

CpuFeatures detect() { return CpuFeatures{}; }

#endif

}  // namespace

const CpuFeatures& cpu_features() {
    static const CpuFeatures features = detect();
    return features;
}

}  // namespace bcast::kernels::cpu
