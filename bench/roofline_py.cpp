// The same-run roofline of `bcast bench` (tools/cli_roofline.hpp: the loop
// picked by the bytes a case moves, on N threads each on its share) behind a
// C interface for Python's ctypes, so that bench/throughput_sweep.py times it
// on the very arrays it gives numpy and bcast, in the same rounds. A tool of
// the benchmarks, never installed; nothing here may throw into ctypes.
#include "cli_roofline.hpp"

#include "thread_team.hpp"

#include <cstddef>
#include <cstdint>

#define ROOFLINE_PY_API extern "C" __attribute__((visibility("default")))

namespace {

struct PyRoofline {
    PyRoofline(const bcast_cli::CaseBuffers& buffers, int threads)
        : roofline(buffers), team(threads) {}
    bcast_cli::Roofline roofline;
    roofline::ThreadTeam team;
};

}  // namespace

// A roofline over the case's buffers (inputs[i] of input_bytes[i] bytes, the
// output of output_bytes bytes and bcast dtype output_dtype) run by `threads`
// threads; NULL when threads < 1 or the threads cannot start.
ROOFLINE_PY_API void* bcast_roofline_py_create(size_t count, const void* const* inputs,
                                               const size_t* input_bytes, void* output,
                                               size_t output_bytes, int32_t output_dtype,
                                               int threads) {
    if (threads < 1 || (count > 0 && (inputs == nullptr || input_bytes == nullptr))) return nullptr;
    try {
        bcast_cli::CaseBuffers buffers;
        buffers.inputs.assign(inputs, inputs + count);
        buffers.input_bytes.assign(input_bytes, input_bytes + count);
        buffers.output = output;
        buffers.output_bytes = output_bytes;
        buffers.output_dtype = output_dtype;
        return new PyRoofline(buffers, threads);
    } catch (...) {  // std::bad_alloc, std::system_error from a thread
        return nullptr;
    }
}

// One pass with normal stores (streaming 0) or non-temporal ones (1; the
// normal ones where bcast_roofline_py_streaming() is 0). 0, or -1 when the
// team could not run it.
ROOFLINE_PY_API int bcast_roofline_py_run(void* handle, int streaming) {
    auto* r = static_cast<PyRoofline*>(handle);
    try {
        r->roofline.run(streaming != 0 && bcast_cli::Roofline::streaming_available(), r->team);
        return 0;
    } catch (...) {  // the team's job wrapper (std::function) could not be made
        return -1;
    }
}

// Bytes one pass reads and writes (the time of a pass scales to the case's bytes).
ROOFLINE_PY_API size_t bcast_roofline_py_bytes(const void* handle) {
    return static_cast<const PyRoofline*>(handle)->roofline.bytes();
}

ROOFLINE_PY_API int bcast_roofline_py_streaming(void) {
    return bcast_cli::Roofline::streaming_available() ? 1 : 0;
}

ROOFLINE_PY_API void bcast_roofline_py_destroy(void* handle) {
    delete static_cast<PyRoofline*>(handle);
}
