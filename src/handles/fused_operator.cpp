#include "handles/fused_operator.hpp"

#include "core/error.hpp"

#include <memory>
#include <vector>

namespace bcast {

FusedOperator::FusedOperator(bcast_dtype dtype, std::size_t num_inputs)
    : Planned("the expression has no plan: call bcast_expr_plan first"), expr_(dtype, num_inputs) {}

void FusedOperator::plan(std::size_t num_inputs, const std::size_t* ranks,
                         const int64_t* const* dims, const int64_t* const* strides,
                         const int64_t* out_strides) {
    replan([&] {
        if (num_inputs != expr_.num_inputs()) {
            fail(BCAST_ERROR_INVALID_ARGUMENT, "the expression has " + std::to_string(expr_.num_inputs()) +
                                                   " inputs, got shapes for " +
                                                   std::to_string(num_inputs));
        }
        const std::vector<Shape> shapes = make_input_shapes(num_inputs, ranks, dims);
        auto next = std::make_unique<plan::FusedPlan>();
        plan::plan_expression(expr_, shapes.data(), strides, out_strides, *next);
        return next;
    });
}

std::string FusedOperator::describe() const { return plan::describe_json(expr_, current()); }

}  // namespace bcast
