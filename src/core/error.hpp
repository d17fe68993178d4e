// Internal error type: the core throws bcast::Error, the C boundary (capi/)
// catches it and turns it into a status plus the thread's last-error message.
#pragma once

#include <bcast/bcast.h>

#include <stdexcept>
#include <string>

namespace bcast {

class Error : public std::runtime_error {
public:
    Error(bcast_status status, const std::string& message)
        : std::runtime_error(message), status_(status) {}
    bcast_status status() const noexcept { return status_; }

private:
    bcast_status status_;
};

[[noreturn]] inline void fail(bcast_status status, const std::string& message) {
    throw Error(status, message);
}

}  // namespace bcast
