// What the opaque handles of the C API hold.
#pragma once

#include "core/error.hpp"
#include "core/shape.hpp"
#include "exec/pool.hpp"
#include "fuse/fused_operator.hpp"
#include "op/operator.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

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

// bcast_op_output_shape and bcast_expr_output_shape: a planned output shape
// into the caller's (capacity, rank, dims).
inline void write_output_shape(const Shape& out, size_t capacity, size_t* rank, int64_t* dims) {
    if (!rank) fail(BCAST_ERROR_INVALID_ARGUMENT, "rank is NULL");
    if (out.rank > capacity) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "capacity " + std::to_string(capacity) +
                                               " is below the output rank " +
                                               std::to_string(out.rank));
    }
    if (!dims && out.rank > 0) fail(BCAST_ERROR_INVALID_ARGUMENT, "dims is NULL");
    std::copy(out.dims.begin(), out.dims.begin() + static_cast<std::ptrdiff_t>(out.rank), dims);
    *rank = out.rank;
}

// The same for an expression.
template <class Expr>
Expr* checked_expr(Expr* expr) {
    if (!expr) fail(BCAST_ERROR_INVALID_ARGUMENT, "expr is NULL");
    return expr;
}

}  // namespace bcast::capi
