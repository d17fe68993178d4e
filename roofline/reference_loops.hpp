// Roofline references: the plainest loops that move the same bytes as a case,
// compiled for the best vector ISA of this CPU, normal (cacheable) stores.
// f16 cases use the 16-bit and i8 cases the 8-bit integer loops: same bytes,
// no conversion work, so the reference is a bound on memory traffic alone.
// Shared by bench/bcast_bench and `bcast bench` (tools/cli_bench.cpp), so both
// compare bcast with the same loops. Any pointer alignment the element type
// allows is fine: callers time them at the offsets bcast is timed at.
#pragma once

#include <cstddef>
#include <cstdint>

namespace roofline {

// y[i] = a[i] + b[i]
void reference_add(const float* a, const float* b, float* y, std::size_t n);
void reference_add(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* y,
                   std::size_t n);
void reference_add(const std::int8_t* a, const std::int8_t* b, std::int8_t* y, std::size_t n);

// y[i] = a[i] + c
void reference_add_scalar(const float* a, float c, float* y, std::size_t n);
void reference_add_scalar(const std::uint16_t* a, std::uint16_t c, std::uint16_t* y,
                          std::size_t n);
void reference_add_scalar(const std::int8_t* a, std::int8_t c, std::int8_t* y, std::size_t n);

// y[i] = write_pattern_value(i % kWritePatternLength): a write stream fed from
// a pattern in L1 (not a memset, which glibc may turn into non-temporal stores).
constexpr std::size_t kWritePatternLength = 64;
constexpr float write_pattern_value(std::size_t i) { return static_cast<float>(i); }  // i < 64
void reference_write(float* y, std::size_t n);

// Which clone the loops above run ("avx512f", "avx2" or "baseline").
const char* reference_isa();

}  // namespace roofline
