// What every handle that plans and executes shares: the current plan (an
// expression's plan::FusedPlan; a single op's is its one-node expression's)
// and its replacement, the buffer check, the task split and the pool. The
// handles (operator.hpp, fused_operator.hpp) add what they plan from.
#pragma once

#include "core/error.hpp"
#include "exec/check_buffers.hpp"
#include "exec/fused_execute.hpp"
#include "exec/pool.hpp"
#include "exec/tasks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

namespace bcast {

template <class Plan>
class Planned {
public:
    // INVALID_STATE without a plan.
    const Plan& planned() const {
        if (!plan_) fail(BCAST_ERROR_INVALID_STATE, no_plan_);
        return *plan_;
    }

    void execute(const void* const* inputs, void* output) const {
        const Plan& p = planned();
        exec::check_buffers(p, inputs, output);
        exec::run(p, inputs, output);
    }

    std::size_t task_count(std::size_t max_tasks) const {
        planned();  // refuses a handle without a plan
        if (max_tasks == 0) fail(BCAST_ERROR_INVALID_ARGUMENT, "max_tasks is 0");
        return std::min(max_tasks_, max_tasks);  // = exec::task_count(plan, max_tasks)
    }

    void execute_task(const void* const* inputs, void* output, std::size_t task,
                      std::size_t count) const {
        const Plan& p = planned();
        if (task >= count) {
            fail(BCAST_ERROR_INVALID_ARGUMENT, "task " + std::to_string(task) + " of " +
                                                   std::to_string(count) +
                                                   ": tasks are numbered 0 to count - 1");
        }
        exec::check_buffers(p, inputs, output);
        exec::run_task(p, inputs, output, task, count);
    }

    // Inline, so that a small plan's pool execute costs what execute does.
    void execute_on(exec::Pool& pool, const void* const* inputs, void* output) const {
        if (!pool.owned_by_this_process()) {
            fail(BCAST_ERROR_INVALID_STATE,
                 "the pool was created in another process (fork): create a pool in this one");
        }
        if (max_tasks_ <= 1 || pool.threads() <= 1) return execute(inputs, output);
        const Plan& p = planned();
        exec::check_buffers(p, inputs, output);
        PoolRun run{&p, inputs, output, std::min(max_tasks_, pool.threads())};
        pool.run(run.count, &PoolRun::task, &run);
    }

protected:
    // no_plan: the INVALID_STATE message of a call that needs a plan.
    explicit Planned(const char* no_plan) : no_plan_(no_plan) {}

    const Plan* current() const { return plan_.get(); }

    // Installs planner()'s plan, a std::unique_ptr<Plan>. On std::bad_alloc
    // the handle keeps its earlier plan (an OUT_OF_MEMORY leaves it
    // unchanged); on a refusal it has none (no stale plan for other shapes).
    template <class Planner>
    void replan(Planner&& planner) {
        try {
            std::unique_ptr<Plan> next = planner();
            max_tasks_ = exec::task_count(*next, SIZE_MAX);
            plan_ = std::move(next);
        } catch (const std::bad_alloc&) {
            throw;
        } catch (...) {
            forget_plan();
            throw;
        }
    }

    void forget_plan() {
        plan_.reset();
        max_tasks_ = 1;
    }

private:
    struct PoolRun {
        const Plan* plan;
        const void* const* inputs;
        void* output;
        std::size_t count;
        static void task(void* self, std::size_t i) noexcept {
            const auto* r = static_cast<const PoolRun*>(self);
            exec::run_task(*r->plan, r->inputs, r->output, i, r->count);
        }
    };

    const char* no_plan_;
    std::unique_ptr<Plan> plan_;
    // exec::task_count(*plan_, SIZE_MAX), worked out once per plan (1 while
    // there is none): a small plan's pool execute then runs inline after one
    // comparison.
    std::size_t max_tasks_ = 1;
};

}  // namespace bcast
