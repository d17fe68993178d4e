// The roofline loops of reference_loops.hpp again, but with non-temporal
// (streaming) stores, which skip the read-for-ownership of each output line.
// Above some output size they beat every normal-store loop, so the roofline of
// a case is the faster of the two, measured in the same rounds. Outputs at any
// offset: a head up to the next cache line and the tail after the last whole
// line take normal stores, every line in between is streamed whole.
#pragma once

#include <cstddef>
#include <cstdint>

namespace roofline {

// True on x86-64 CPUs with AVX2; the functions below must not run otherwise.
bool streaming_available();

void reference_add_streaming(const float* a, const float* b, float* y, std::size_t n);
void reference_add_streaming(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* y,
                             std::size_t n);
void reference_add_streaming(const std::int8_t* a, const std::int8_t* b, std::int8_t* y,
                             std::size_t n);

void reference_add_scalar_streaming(const float* a, float c, float* y, std::size_t n);
void reference_add_scalar_streaming(const std::uint16_t* a, std::uint16_t c, std::uint16_t* y,
                                    std::size_t n);
void reference_add_scalar_streaming(const std::int8_t* a, std::int8_t c, std::int8_t* y,
                                    std::size_t n);

// y[i] = write_pattern_value(i % kWritePatternLength)
void reference_write_streaming(float* y, std::size_t n);

}  // namespace roofline
