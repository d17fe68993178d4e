// The one place where C++ meets C: runs a body, turns any exception into a
// status and the calling thread's last-error message. Nothing escapes.
#pragma once

#include "core/error.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <string>

namespace bcast::capi {

void set_last_error(const char* message) noexcept;

template <class Body>
bcast_status guarded(Body&& body) noexcept {
    try {
        body();
        return BCAST_OK;
    } catch (const Error& e) {
        set_last_error(e.what());
        return e.status();
    } catch (const std::bad_alloc&) {
        set_last_error("out of memory");
        return BCAST_ERROR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        set_last_error(e.what());
        return BCAST_ERROR_INTERNAL;
    } catch (...) {
        set_last_error("unknown internal error");
        return BCAST_ERROR_INTERNAL;
    }
}

// snprintf-like: describe() into buf (at most size bytes with the NUL), the
// full length returned; 0, "" and the message `oom` (a literal: nothing may
// allocate here) as the last error when it runs out of memory.
template <class Describe>
std::size_t describe_into(Describe&& describe, char* buf, std::size_t size, const char* oom) noexcept {
    try {
        const std::string text = describe();
        if (buf && size > 0) {
            const std::size_t n = std::min(size - 1, text.size());
            std::memcpy(buf, text.data(), n);
            buf[n] = '\0';
        }
        return text.size();
    } catch (...) {
        set_last_error(oom);
        if (buf && size > 0) buf[0] = '\0';
        return 0;
    }
}

}  // namespace bcast::capi
