// Turns a libFuzzer input into decisions. Reading past the end yields zeros,
// so every input, however short, is a complete test case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fuzz {

class Input {
public:
    Input(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    uint64_t u64() {
        uint64_t v = 0;
        const std::size_t n = pos_ < size_ ? (size_ - pos_ < 8 ? size_ - pos_ : 8) : 0;
        if (n) std::memcpy(&v, data_ + pos_, n);
        pos_ += 8;
        return v;
    }
    uint8_t byte() {
        const uint8_t v = pos_ < size_ ? data_[pos_] : 0;
        ++pos_;
        return v;
    }
    // A value in [lo, hi] (inclusive), from one byte when the range is small.
    int64_t range(int64_t lo, int64_t hi) {
        const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
        const uint64_t raw = span <= 256 ? byte() : u64();
        return static_cast<int64_t>(static_cast<uint64_t>(lo) + (span ? raw % span : raw));
    }
    bool chance(int percent) { return byte() % 100 < percent; }
    template <class T, std::size_t N>
    const T& pick(const T (&options)[N]) {
        return options[byte() % N];
    }

private:
    const uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// An extent: mostly small, sometimes 0 or huge.
inline int64_t extent(Input& in) {
    static const int64_t kHuge[] = {int64_t{1} << 31, int64_t{1} << 62, INT64_MAX,
                                   (int64_t{1} << 62) + 1};
    const int r = in.byte() % 100;
    if (r < 70) return in.range(1, 5);
    if (r < 85) return 1;
    if (r < 95) return 0;
    return in.pick(kHuge);
}

}  // namespace fuzz

// Fails the fuzz run (libFuzzer reports it as a crash with the input saved).
#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            std::abort();                                                                 \
        }                                                                                 \
    } while (0)
