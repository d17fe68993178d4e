#include "thread_team.hpp"

#include <chrono>

namespace roofline {

ThreadTeam::ThreadTeam(int threads) {
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

ThreadTeam::~ThreadTeam() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
}

namespace {

// Spins until ready() or about `limit` has passed, checking ready() after
// every pause (a pause is about 65 cycles on Zen: checking every 64 of them
// answered up to 1.3 us late, a fifth of a 768 KiB op on two threads).
template <class Ready>
void spin_until(Ready ready, std::chrono::nanoseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (ready()) return;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#elif defined(__aarch64__)
            asm volatile("yield");
#endif
        }
        if (std::chrono::steady_clock::now() >= until) return;
    }
}

}  // namespace

void ThreadTeam::work(int index) {
    unsigned long seen = 0;
    for (;;) {
        spin_until([&] { return generation_.load(std::memory_order_acquire) != seen ||
                                stop_.load(std::memory_order_relaxed); },
                   kSpin);
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        const std::function<void(int, int)>* job = job_;
        lock.unlock();
        (*job)(index, threads());
        lock.lock();
        if (--running_ == 0) done_.notify_one();
    }
}

void ThreadTeam::run(const std::function<void(int share, int shares)>& share) {
    if (workers_.empty()) {
        share(0, 1);
        return;
    }
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        job_ = &share;
        running_ = static_cast<int>(workers_.size());
        ++generation_;
    }
    wake_.notify_all();
    share(0, threads());
    spin_until([&] { return running_.load(std::memory_order_acquire) == 0; }, kSpin);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return running_ == 0; });
}

void share_range(std::size_t count, std::size_t elem_size, int i, int n, std::size_t& begin,
                 std::size_t& end) {
    const std::size_t line = elem_size < 64 ? 64 / elem_size : 1;
    const auto cut = [&](int k) {
        if (k >= n) return count;
        const std::size_t ideal = count / static_cast<std::size_t>(n) * static_cast<std::size_t>(k);
        return ideal / line * line;
    };
    begin = cut(i);
    end = cut(i + 1);
}

}  // namespace roofline
