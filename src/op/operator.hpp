// The object behind a bcast_op handle: the op's identity and parameters, and
// its current plan. The C API layer only converts arguments and errors.
#pragma once

#include "exec/pool.hpp"
#include "plan/plan.hpp"

#include <memory>
#include <string>
#include <vector>

namespace bcast {

class Operator {
public:
    // Throws INVALID_ARGUMENT / UNSUPPORTED for unknown or unsupported pairs.
    Operator(bcast_opcode opcode, bcast_dtype dtype);

    void set_param(bcast_param param, int64_t value);
    int64_t get_param(bcast_param param) const;

    void plan(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
              const int64_t* const* strides, const int64_t* out_strides);
    void plan_to(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
                 const int64_t* const* strides, std::size_t target_rank,
                 const int64_t* target_dims, const int64_t* axes_mapping,
                 std::size_t axes_count, const int64_t* out_strides);

    const plan::Plan& planned() const;  // INVALID_STATE without a plan
    void execute(const void* const* inputs, void* output) const;
    // Parallel execution (exec/tasks.hpp, exec/pool.hpp).
    std::size_t task_count(std::size_t max_tasks) const;
    void execute_task(const void* const* inputs, void* output, std::size_t task,
                      std::size_t count) const;
    // Inline, so that a small op's pool execute costs what execute does.
    void execute_on(exec::Pool& pool, const void* const* inputs, void* output) const {
        if (!pool.owned_by_this_process()) refuse_foreign_pool();
        if (max_tasks_ <= 1 || pool.threads() <= 1) return execute(inputs, output);
        execute_split(pool, inputs, output);
    }
    std::string describe() const;

private:
    // Validated input shapes for a plan call.
    std::vector<Shape> read_inputs(std::size_t num_inputs, const std::size_t* ranks,
                                   const int64_t* const* dims) const;
    std::unique_ptr<plan::Plan> make_plan(std::size_t num_inputs, const Shape* inputs,
                                          const int64_t* const* strides,
                                          const int64_t* out_strides,
                                          const rules::Resolution& resolution) const;
    std::unique_ptr<plan::Plan> plan_to_shapes(std::size_t num_inputs, const std::size_t* ranks,
                                               const int64_t* const* dims,
                                               const int64_t* const* strides,
                                               std::size_t target_rank,
                                               const int64_t* target_dims,
                                               const int64_t* axes_mapping,
                                               std::size_t axes_count,
                                               const int64_t* out_strides) const;
    // Installs planner()'s plan. On std::bad_alloc the op keeps its earlier
    // plan (an OUT_OF_MEMORY leaves the handle unchanged); on a refusal it
    // has none.
    template <class Planner>
    void replan(Planner&& planner);
    [[noreturn]] static void refuse_foreign_pool();
    void execute_split(exec::Pool& pool, const void* const* inputs, void* output) const;

    bcast_opcode opcode_;
    bcast_dtype dtype_;
    bcast_rule rule_ = BCAST_RULE_NUMPY;
    int64_t axis_ = -1;
    bcast_expand_mode expand_mode_ = BCAST_EXPAND_NUMPY;
    std::unique_ptr<plan::Plan> plan_;
    // exec::task_count(*plan_, SIZE_MAX), worked out once per plan (1 while
    // there is none): a small op's pool execute then runs inline after one
    // comparison.
    std::size_t max_tasks_ = 1;
};

}  // namespace bcast
