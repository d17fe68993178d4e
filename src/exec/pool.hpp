// bcast's own thread pool, for callers without one (bcast_pool): threads - 1
// workers and the calling thread, which works too. Every thread claims tasks
// from one counter; the caller returns once every task has finished and no
// worker still holds the run. Between runs a worker spins for kSpin, then
// sleeps on a condition variable (no unbounded spinning).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace bcast::exec {

// noexcept: a task that threw would leave the run open (tasks.cpp's are).
using TaskFn = void (*)(void* context, std::size_t task) noexcept;

// More threads than this is a mistake, not a machine (INVALID_ARGUMENT).
constexpr std::size_t kMaxThreads = 4096;

class Pool {
public:
    // 1 <= threads <= kMaxThreads (the caller included). Throws Error (SYSTEM when a
    // thread cannot be started, OUT_OF_MEMORY) after stopping the threads
    // it started.
    explicit Pool(std::size_t threads);
    ~Pool();
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    std::size_t threads() const { return workers_.size() + 1; }
    // The process that created the pool. A forked child has none of its
    // workers and must not destroy it either: the copied mutex and
    // condition variables may be in any state, and the workers' pthread_t
    // values may already name the child's own threads. It leaks the copy.
    bool owned_by_this_process() const {
        return forks_.load(std::memory_order_relaxed) == fork_generation_;
    }

    // fn(context, i) for every i in [0, count), on the workers and the
    // caller; returns when all have returned. Runs take turns.
    void run(std::size_t count, TaskFn fn, void* context);

    // The CPUs this process may run on (its affinity mask), at least 1.
    static std::size_t available_cpus();

private:
    struct Job {
        TaskFn fn = nullptr;
        void* context = nullptr;
        std::size_t count = 0;
        std::atomic<std::size_t>* next = nullptr;  // the run's task counter
    };
    void work();
    static void claim(const Job& job);
    static void count_fork() noexcept;
    static unsigned long fork_count_at_creation();

    // Bumped in every forked child (pthread_atfork): a pool belongs to the
    // process whose count it was created under. Cheaper than getpid(), a
    // system call on every execute, and not fooled by a reused process id.
    static inline std::atomic<unsigned long> forks_{0};

    // How long a worker spins for the next run, and the caller for the
    // workers, before sleeping on a condition variable. A wake-up from one
    // measured 10-20 us on the 2-vCPU guest: more than a 64K f32 ADD takes.
    static constexpr std::chrono::nanoseconds kSpin{50000};

    std::mutex turn_;   // one run at a time
    std::mutex mutex_;  // changes to the fields below (spinners read the atomics)
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
    bool active_ = false;
    Job job_;
    std::atomic<std::size_t> busy_{0};  // workers inside the current run
    std::atomic<bool> caller_sleeps_{false};  // the caller waits on idle_ (pool.cpp)
    std::vector<std::thread> workers_;
    unsigned long fork_generation_;  // forks seen in this process's line at creation
};

}  // namespace bcast::exec
