// Parallel execution: tasks on the caller's threads, and bcast's own pool.
#include "guard.hpp"
#include "handles.hpp"

using bcast::capi::guarded;

extern "C" {

bcast_status bcast_op_task_count(const bcast_op* op, size_t max_tasks, size_t* count) noexcept {
    return bcast::capi::task_count(op, max_tasks, count);
}

bcast_status bcast_op_execute_task(const bcast_op* op, const void* const* inputs, void* output,
                                   size_t task, size_t count) noexcept {
    return bcast::capi::execute_task(op, inputs, output, task, count);
}

bcast_status bcast_pool_create(size_t threads, bcast_pool** out) noexcept {
    return bcast::capi::create(out, threads == 0 ? bcast::exec::Pool::available_cpus() : threads);
}

size_t bcast_pool_threads(const bcast_pool* pool) noexcept {
    return pool ? pool->impl.threads() : 0;
}

void bcast_pool_destroy(bcast_pool* pool) noexcept {
    if (pool && !pool->impl.owned_by_this_process()) return;  // a forked child's copy: leaked
    delete pool;
}

bcast_status bcast_op_execute_pool(const bcast_op* op, const void* const* inputs, void* output,
                                   bcast_pool* pool) noexcept {
    return bcast::capi::execute_pool(op, inputs, output, pool);
}

}  // extern "C"
