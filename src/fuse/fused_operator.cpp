#include "fuse/fused_operator.hpp"

#include "core/error.hpp"
#include "exec/execute.hpp"
#include "fuse/fused_execute.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

namespace bcast::fuse {
namespace {

struct PoolRun {
    const FusedPlan* plan;
    const void* const* inputs;
    void* output;
    std::size_t count;
    static void task(void* self, std::size_t i) noexcept {
        const auto* r = static_cast<const PoolRun*>(self);
        run_task(*r->plan, r->inputs, r->output, i, r->count);
    }
};

}  // namespace

void FusedOperator::set_input_dtype(std::size_t input, bcast_dtype dtype) {
    expr_.set_input_dtype(input, dtype);
    forget_plan();
}

std::size_t FusedOperator::add_node(bcast_opcode opcode, bcast_rule rule, int64_t axis,
                                    std::size_t num_operands, const std::size_t* operands) {
    const std::size_t value = expr_.add_node(opcode, rule, axis, num_operands, operands);
    forget_plan();
    return value;
}

void FusedOperator::set_output(std::size_t value) {
    expr_.set_output(value);
    forget_plan();
}

void FusedOperator::plan(std::size_t num_inputs, const std::size_t* ranks,
                         const int64_t* const* dims, const int64_t* const* strides,
                         const int64_t* out_strides) {
    try {
        if (num_inputs != expr_.num_inputs()) {
            fail(BCAST_ERROR_INVALID_ARGUMENT, "the expression has " + std::to_string(expr_.num_inputs()) +
                                                   " inputs, got shapes for " +
                                                   std::to_string(num_inputs));
        }
        const std::vector<Shape> shapes = make_input_shapes(num_inputs, ranks, dims);
        auto next = std::make_unique<FusedPlan>();
        plan_expression(expr_, shapes.data(), strides, out_strides, *next);
        max_tasks_ = fuse::task_count(*next, SIZE_MAX);
        plan_ = std::move(next);
    } catch (const std::bad_alloc&) {
        throw;  // out of memory: the handle stays exactly as it was
    } catch (...) {
        forget_plan();  // refused: no stale plan for other shapes
        throw;
    }
}

const FusedPlan& FusedOperator::planned() const {
    if (!plan_) fail(BCAST_ERROR_INVALID_STATE, "the expression has no plan: call bcast_expr_plan first");
    return *plan_;
}

void FusedOperator::execute(const void* const* inputs, void* output) const {
    const FusedPlan& p = planned();
    exec::check_buffers(buffer_layout(p), inputs, output);
    run(p, inputs, output);
}

std::size_t FusedOperator::task_count(std::size_t max_tasks) const {
    planned();  // refuses an expression without a plan
    if (max_tasks == 0) fail(BCAST_ERROR_INVALID_ARGUMENT, "max_tasks is 0");
    return std::min(max_tasks_, max_tasks);
}

void FusedOperator::execute_task(const void* const* inputs, void* output, std::size_t task,
                                 std::size_t count) const {
    const FusedPlan& p = planned();
    if (task >= count) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "task " + std::to_string(task) + " of " +
                                               std::to_string(count) +
                                               ": tasks are numbered 0 to count - 1");
    }
    exec::check_buffers(buffer_layout(p), inputs, output);
    run_task(p, inputs, output, task, count);
}

void FusedOperator::execute_on(exec::Pool& pool, const void* const* inputs, void* output) const {
    if (!pool.owned_by_this_process()) {
        fail(BCAST_ERROR_INVALID_STATE,
             "the pool was created in another process (fork): create a pool in this one");
    }
    const FusedPlan& p = planned();
    exec::check_buffers(buffer_layout(p), inputs, output);
    const std::size_t count = std::min(max_tasks_, pool.threads());
    if (count <= 1) return run(p, inputs, output);
    PoolRun job{&p, inputs, output, count};
    pool.run(count, &PoolRun::task, &job);
}

std::string FusedOperator::describe() const { return describe_json(expr_, plan_.get()); }

}  // namespace bcast::fuse
