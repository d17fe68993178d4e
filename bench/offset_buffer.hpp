// Benchmark memory whose data starts `offset` bytes past a 64-byte boundary,
// the way callers' memory does. The allocation has `offset` bytes of slack in
// front, so all `bytes` stay inside it.
#pragma once

#include "aligned_buffer.hpp"

#include <cstddef>
#include <stdexcept>

namespace bench {

class OffsetBuffer {
public:
    // Throws std::invalid_argument unless offset < 64, std::bad_alloc when the
    // memory is not there.
    OffsetBuffer(std::size_t bytes, std::size_t offset)
        : storage_(checked(offset) + bytes), bytes_(bytes), offset_(offset) {}

    void* data() const { return static_cast<unsigned char*>(storage_.data()) + offset_; }
    std::size_t bytes() const { return bytes_; }
    std::size_t offset() const { return offset_; }
    template <class T>
    T* as() const {
        return static_cast<T*>(data());
    }

private:
    static std::size_t checked(std::size_t offset) {
        if (offset >= 64) throw std::invalid_argument("offset must be below 64 bytes");
        return offset;
    }

    AlignedBuffer storage_;
    std::size_t bytes_, offset_;
};

}  // namespace bench
