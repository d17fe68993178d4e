// The one place where C++ meets C: runs a body, turns any exception into a
// status and the calling thread's last-error message. Nothing escapes.
#pragma once

#include "core/error.hpp"

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

}  // namespace bcast::capi
