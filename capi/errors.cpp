// Status names and the thread-local last-error message.
#include "guard.hpp"

#include <cstring>

namespace bcast::capi {
namespace {

// Fixed storage: recording an error must not itself fail to allocate.
thread_local char t_last_error[2048] = "";

}  // namespace

void set_last_error(const char* message) noexcept {
    std::strncpy(t_last_error, message, sizeof t_last_error - 1);
    t_last_error[sizeof t_last_error - 1] = '\0';
}

}  // namespace bcast::capi

extern "C" {

const char* bcast_status_string(bcast_status status) noexcept {
    switch (status) {
        case BCAST_OK: return "BCAST_OK";
        case BCAST_ERROR_INVALID_ARGUMENT: return "BCAST_ERROR_INVALID_ARGUMENT";
        case BCAST_ERROR_INCOMPATIBLE_SHAPES: return "BCAST_ERROR_INCOMPATIBLE_SHAPES";
        case BCAST_ERROR_UNSUPPORTED: return "BCAST_ERROR_UNSUPPORTED";
        case BCAST_ERROR_OUT_OF_MEMORY: return "BCAST_ERROR_OUT_OF_MEMORY";
        case BCAST_ERROR_SIZE_OVERFLOW: return "BCAST_ERROR_SIZE_OVERFLOW";
        case BCAST_ERROR_INVALID_STATE: return "BCAST_ERROR_INVALID_STATE";
        case BCAST_ERROR_INTERNAL: return "BCAST_ERROR_INTERNAL";
        case BCAST_ERROR_SYSTEM: return "BCAST_ERROR_SYSTEM";
        default: return "BCAST_ERROR_UNKNOWN";
    }
}

const char* bcast_last_error(void) noexcept { return bcast::capi::t_last_error; }

}  // extern "C"
