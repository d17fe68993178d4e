// Fuzzes the CLI's .npy reader: any bytes either parse or give NpyError;
// whatever parses writes back (format_npy) and parses again to the same array.
#include "cli_npy.hpp"

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<unsigned char> bytes(data, data + size);
    bcast_cli::NpyArray array;
    try {
        array = bcast_cli::parse_npy(bytes, "fuzz.npy");
    } catch (const bcast_cli::NpyError& e) {
        FUZZ_CHECK(e.what()[0] != '\0');
        return 0;
    }
    // A zero extent makes the array empty even when the other extents'
    // product overflows, so the count is only multiplied out without one.
    bool empty = false;
    for (int64_t d : array.shape) {
        FUZZ_CHECK(d >= 0);
        empty = empty || d == 0;
    }
    int64_t count = 1;
    if (empty) {
        count = 0;
    } else {
        for (int64_t d : array.shape) FUZZ_CHECK(!__builtin_mul_overflow(count, d, &count));
    }
    FUZZ_CHECK(static_cast<uint64_t>(count) * bcast_dtype_size(array.dtype) == array.data.size());
    const bcast_cli::NpyArray again = bcast_cli::parse_npy(bcast_cli::format_npy(array), "again");
    FUZZ_CHECK(again.dtype == array.dtype);
    FUZZ_CHECK(again.shape == array.shape);
    FUZZ_CHECK(again.data == array.data);
    return 0;
}
