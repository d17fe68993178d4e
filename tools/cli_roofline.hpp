// The roofline of `bcast bench`: the reference loops bench/bcast_bench uses
// (roofline/), picked by the bytes the case moves and run on the case's own
// buffers, so that bcast and its roofline see the same alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace roofline {
class ThreadTeam;
}

namespace bcast_cli {

// What an execute touches: every input buffer once, the output once.
struct CaseBuffers {
    std::vector<const void*> inputs;
    std::vector<size_t> input_bytes;
    void* output = nullptr;
    size_t output_bytes = 0;
    int32_t output_dtype = 0;  // picks the lanes
};

class Roofline {
public:
    // Inputs at least as large as the output are big streams: two or more
    // make y=a+b, one y=a+c, none a write stream, all over the output's bytes.
    // Lanes: f32 (bench's loops) for f32 and f64, 16-bit integers for other
    // 2-, 4- and 8-byte types (integers read as floats could be subnormal,
    // which some CPUs add slowly), 8-bit integers for 1-byte types.
    explicit Roofline(const CaseBuffers& buffers);

    // One pass, with normal or (when streaming_available()) non-temporal stores.
    void run(bool streaming) const { run(streaming, 0, n_); }
    // Lanes [begin, end) of a pass: a thread's share (roofline/thread_team.hpp).
    void run(bool streaming, size_t begin, size_t end) const;
    // One pass on every thread of `team`, each on its share of the lanes:
    // the multi-thread roofline (`bcast bench --threads`, bench/roofline_py).
    void run(bool streaming, roofline::ThreadTeam& team) const;
    static bool streaming_available();

    size_t bytes() const { return bytes_; }  // read + written per pass
    // "y=a+b on 4-byte lanes".
    std::string loop() const;

private:
    enum class Kind { AddStreams, ScalarStream, WriteOnly };
    Kind kind_ = Kind::WriteOnly;
    size_t lane_bytes_ = 4;  // 1, 2 or 4 (an f64 runs as two f32 lanes)
    const void* a_ = nullptr;
    const void* b_ = nullptr;
    void* y_ = nullptr;
    size_t n_ = 0;  // lanes written
    size_t bytes_ = 0;
};

}  // namespace bcast_cli
