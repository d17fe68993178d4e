#include "cli_roofline.hpp"

#include "reference_loops.hpp"
#include "reference_streaming.hpp"
#include "thread_team.hpp"

#include <bcast/bcast.h>

#include <cstdint>

namespace bcast_cli {
namespace {

size_t lane_bytes_for(int32_t dtype) {
    if (dtype == BCAST_DTYPE_F32 || dtype == BCAST_DTYPE_F64) return 4;
    return bcast_dtype_size(dtype) == 1 ? 1 : 2;
}

// The loop for lanes of type T (the bytes are what counts, not the values).
template <class T>
void run_typed(bool add_streams, const void* a, const void* b, void* y, size_t n,
               bool streaming) {
    const T* x = static_cast<const T*>(a);
    T* out = static_cast<T*>(y);
    if (add_streams) {
        const T* z = static_cast<const T*>(b);
        if (streaming) return roofline::reference_add_streaming(x, z, out, n);
        return roofline::reference_add(x, z, out, n);
    }
    if (streaming) return roofline::reference_add_scalar_streaming(x, T(1), out, n);
    roofline::reference_add_scalar(x, T(1), out, n);
}

}  // namespace

Roofline::Roofline(const CaseBuffers& buffers) : y_(buffers.output) {
    std::vector<const void*> streams;
    for (size_t i = 0; i < buffers.inputs.size(); ++i) {
        if (buffers.input_bytes[i] >= buffers.output_bytes && buffers.output_bytes > 0)
            streams.push_back(buffers.inputs[i]);
    }
    const size_t out = buffers.output_bytes;
    if (streams.empty()) {
        // The write stream exists for f32 lanes only; a ragged end is left out.
        kind_ = Kind::WriteOnly;
        lane_bytes_ = 4;
        n_ = out / 4;
        bytes_ = n_ * 4;
        return;
    }
    lane_bytes_ = lane_bytes_for(buffers.output_dtype);
    n_ = out / lane_bytes_;
    a_ = streams[0];
    if (streams.size() >= 2) {
        kind_ = Kind::AddStreams;
        b_ = streams[1];
        bytes_ = 3 * out;
    } else {
        kind_ = Kind::ScalarStream;
        bytes_ = 2 * out;
    }
}

bool Roofline::streaming_available() { return roofline::streaming_available(); }

void Roofline::run(bool streaming, size_t begin, size_t end) const {
    const size_t n = end - begin;
    if (kind_ == Kind::WriteOnly) {
        float* out = static_cast<float*>(y_) + begin;
        if (streaming) return roofline::reference_write_streaming(out, n);
        return roofline::reference_write(out, n);
    }
    const bool add = kind_ == Kind::AddStreams;
    const size_t skip = begin * lane_bytes_;
    const auto* a = static_cast<const unsigned char*>(a_) + skip;
    const auto* b = add ? static_cast<const unsigned char*>(b_) + skip : nullptr;
    auto* y = static_cast<unsigned char*>(y_) + skip;
    switch (lane_bytes_) {
        case 4: return run_typed<float>(add, a, b, y, n, streaming);
        case 2: return run_typed<std::uint16_t>(add, a, b, y, n, streaming);
        default: return run_typed<std::int8_t>(add, a, b, y, n, streaming);
    }
}

void Roofline::run(bool streaming, roofline::ThreadTeam& team) const {
    if (team.threads() == 1) return run(streaming);
    team.run([&](int i, int shares) {
        size_t begin = 0, end = 0;
        roofline::share_range(n_, lane_bytes_, i, shares, begin, end);
        if (begin < end) run(streaming, begin, end);
    });
}

std::string Roofline::loop() const {
    const char* name = kind_ == Kind::AddStreams     ? "y=a+b"
                       : kind_ == Kind::ScalarStream ? "y=a+c"
                                                     : "y=p[i%64]";
    return std::string(name) + " on " + std::to_string(lane_bytes_) + "-byte lanes";
}

}  // namespace bcast_cli
