// Benchmark memory: 64-byte aligned, every page touched before any timing, so
// neither page faults nor first-touch zeroing land inside a measurement.
#pragma once

#include <cstddef>

namespace bench {

class AlignedBuffer {
public:
    AlignedBuffer() = default;
    // Allocates bytes (at least one cache line), zeroed page by page.
    // Throws std::bad_alloc when the memory is not there.
    explicit AlignedBuffer(std::size_t bytes);
    ~AlignedBuffer();
    AlignedBuffer(AlignedBuffer&& other) noexcept;
    AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }
    template <class T>
    T* as() const {
        return static_cast<T*>(data_);
    }

private:
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace bench
