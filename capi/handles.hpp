// What the opaque handles of the C API hold.
#pragma once

#include "core/error.hpp"
#include "exec/pool.hpp"
#include "op/operator.hpp"

struct bcast_op {
    bcast::Operator impl;
};

struct bcast_pool {
    bcast::exec::Pool impl;
};

namespace bcast::capi {

// The op of a call (const or not), or INVALID_ARGUMENT for NULL.
template <class Op>
Op* checked(Op* op) {
    if (!op) fail(BCAST_ERROR_INVALID_ARGUMENT, "op is NULL");
    return op;
}

}  // namespace bcast::capi
