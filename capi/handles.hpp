// What the opaque handles of the C API hold.
#pragma once

#include "core/error.hpp"
#include "exec/pool.hpp"
#include "fuse/fused_operator.hpp"
#include "op/operator.hpp"

struct bcast_op {
    bcast::Operator impl;
};

struct bcast_pool {
    bcast::exec::Pool impl;
};

struct bcast_expr {
    bcast::fuse::FusedOperator impl;
};

namespace bcast::capi {

// The op of a call (const or not), or INVALID_ARGUMENT for NULL.
template <class Op>
Op* checked(Op* op) {
    if (!op) fail(BCAST_ERROR_INVALID_ARGUMENT, "op is NULL");
    return op;
}

// The same for an expression.
template <class Expr>
Expr* checked_expr(Expr* expr) {
    if (!expr) fail(BCAST_ERROR_INVALID_ARGUMENT, "expr is NULL");
    return expr;
}

}  // namespace bcast::capi
