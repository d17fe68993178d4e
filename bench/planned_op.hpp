// A case's ADD through the public C API only: create, set the rule, plan once;
// then execute as often as the benchmark wants.
#pragma once

#include "cases.hpp"

#include <bcast/bcast.h>

#include <string>

namespace bench {

class PlannedOp {
public:
    PlannedOp() = default;
    ~PlannedOp() { bcast_op_destroy(op_); }
    PlannedOp(PlannedOp&& other) noexcept;
    PlannedOp& operator=(PlannedOp&& other) noexcept;
    PlannedOp(const PlannedOp&) = delete;
    PlannedOp& operator=(const PlannedOp&) = delete;

    // Creates the op and plans it for c under the current ISA cap.
    // Returns "" or the API's error ("BCAST_ERROR_...: message").
    std::string plan(const Case& c);
    // Plans the existing op again (what the plan-time figure measures).
    bcast_status replan(const Case& c);

    // On `pool`'s threads (bcast_op_execute_pool; NULL: this thread alone).
    bcast_status execute(const void* a, const void* b, void* out, bcast_pool* pool = nullptr) const {
        const void* inputs[2] = {a, b};
        return pool ? bcast_op_execute_pool(op_, inputs, out, pool) : bcast_op_execute(op_, inputs, out);
    }

    const bcast_op* handle() const { return op_; }

    // Fields of bcast_op_describe's JSON, e.g. "kernel" -> "periodic".
    std::string described(const char* key) const;

private:
    bcast_op* op_ = nullptr;
};

// "STATUS_NAME: last error message".
std::string api_error(bcast_status status);

}  // namespace bench
