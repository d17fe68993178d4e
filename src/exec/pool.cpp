#include "exec/pool.hpp"

#include "core/error.hpp"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <new>
#include <string>
#include <system_error>

namespace bcast::exec {

void Pool::count_fork() noexcept { forks_.fetch_add(1, std::memory_order_relaxed); }

// Registers the counter once, before the first pool takes its count; an
// execute then only reads it.
unsigned long Pool::fork_count_at_creation() {
    static const bool registered = pthread_atfork(nullptr, nullptr, &count_fork) == 0;
    (void)registered;
    return forks_.load(std::memory_order_relaxed);
}

Pool::Pool(std::size_t threads) : fork_generation_(fork_count_at_creation()) {
    if (threads < 1) fail(BCAST_ERROR_INVALID_ARGUMENT, "a pool needs at least one thread");
    if (threads > kMaxThreads) {
        fail(BCAST_ERROR_INVALID_ARGUMENT, "a pool of " + std::to_string(threads) +
                                               " threads: at most " +
                                               std::to_string(kMaxThreads));
    }
    try {
        workers_.reserve(threads - 1);
        for (std::size_t t = 1; t < threads; ++t) workers_.emplace_back([this] { work(); });
    } catch (...) {
        const std::size_t started = workers_.size();
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& w : workers_) w.join();
        workers_.clear();
        try {
            throw;
        } catch (const std::system_error& e) {
            fail(BCAST_ERROR_SYSTEM, "could not start thread " + std::to_string(started + 2) +
                                         " of " + std::to_string(threads) + ": " + e.what());
        }
    }
}

Pool::~Pool() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
}


std::size_t Pool::available_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int n = CPU_COUNT(&set);
        if (n > 0) return static_cast<std::size_t>(n);
    }
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<std::size_t>(online) : 1;
}

void Pool::claim(const Job& job) {
    for (;;) {
        const std::size_t i = job.next->fetch_add(1, std::memory_order_relaxed);
        if (i >= job.count) return;
        job.fn(job.context, i);
    }
}

namespace {

// Spins until ready() or about `limit` has passed; the answer of ready().
template <class Ready>
bool spin_until(Ready ready, std::chrono::nanoseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#elif defined(__aarch64__)
            asm volatile("yield");
#endif
        }
        if (std::chrono::steady_clock::now() >= until) return ready();
    }
}

}  // namespace

void Pool::work() {
    uint64_t seen = 0;
    for (;;) {
        // Back-to-back runs find the worker awake: waking it from the
        // condition variable costs more than a mid-sized task (tuning below).
        spin_until([&] { return generation_.load(std::memory_order_acquire) != seen ||
                                stop_.load(std::memory_order_relaxed); },
                   kSpin);
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (!active_) continue;  // woke after the run had ended
        const Job job = job_;
        ++busy_;
        lock.unlock();
        claim(job);
        // Out of the run without the lock: a caller spinning for busy_ to
        // fall would otherwise find it held and sleep on it (a futex round
        // trip, a fifth of a 1 us two-thread run). A caller asleep on idle_
        // (caller_sleeps_, read after the decrement: one of the two sees the
        // other) is woken under the lock, which it holds until it waits.
        if (busy_.fetch_sub(1) == 1 && caller_sleeps_.load()) {
            lock.lock();
            idle_.notify_one();
        }
    }
}

void Pool::run(std::size_t count, TaskFn fn, void* context) {
    const std::lock_guard<std::mutex> turn(turn_);
    std::atomic<std::size_t> next{0};
    const Job job{fn, context, count, &next};
    if (count > 1 && !workers_.empty()) {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            job_ = job;
            active_ = true;
            ++generation_;
        }
        wake_.notify_all();  // no system call when every worker is spinning
    }
    claim(job);
    if (count > 1 && !workers_.empty()) {
        // Every task is claimed; wait for the workers still running theirs
        // (spinning first, as they do), and close the run so that a late
        // worker does not join it.
        spin_until([&] { return busy_.load(std::memory_order_acquire) == 0; }, kSpin);
        std::unique_lock<std::mutex> lock(mutex_);
        caller_sleeps_.store(true);
        idle_.wait(lock, [&] { return busy_.load() == 0; });
        caller_sleeps_.store(false, std::memory_order_relaxed);
        active_ = false;
        job_ = Job{};
    }
}

}  // namespace bcast::exec
