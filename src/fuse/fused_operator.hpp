// The object behind a bcast_expr handle: the expression as built, and its
// current plan. Changing the expression discards the plan. The C API layer
// only converts arguments and errors.
#pragma once

#include "exec/pool.hpp"
#include "fuse/expression.hpp"
#include "fuse/fused_plan.hpp"

#include <memory>
#include <string>

namespace bcast::fuse {

class FusedOperator {
public:
    FusedOperator(bcast_dtype dtype, std::size_t num_inputs) : expr_(dtype, num_inputs) {}

    void set_input_dtype(std::size_t input, bcast_dtype dtype);
    std::size_t add_node(bcast_opcode opcode, bcast_rule rule, int64_t axis,
                         std::size_t num_operands, const std::size_t* operands);
    void set_output(std::size_t value);

    // The inputs' shapes and strides, as bcast_op_plan takes them.
    void plan(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
              const int64_t* const* strides, const int64_t* out_strides);
    const FusedPlan& planned() const;  // INVALID_STATE without a plan

    void execute(const void* const* inputs, void* output) const;
    std::size_t task_count(std::size_t max_tasks) const;
    void execute_task(const void* const* inputs, void* output, std::size_t task,
                      std::size_t count) const;
    void execute_on(exec::Pool& pool, const void* const* inputs, void* output) const;
    std::string describe() const;

private:
    void forget_plan() {
        plan_.reset();
        max_tasks_ = 1;
    }

    Expression expr_;
    std::unique_ptr<FusedPlan> plan_;
    std::size_t max_tasks_ = 1;  // task_count(*plan_, SIZE_MAX), once per plan
};

}  // namespace bcast::fuse
