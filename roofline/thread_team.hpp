// The multi-thread roofline's threads: `threads - 1` workers and the caller,
// each running its share of a reference loop. Between runs workers spin for
// a while, then sleep on a condition variable, as bcast's pool does, so the
// reference pays the same kind of wake-up and the ratio compares the work.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace roofline {

class ThreadTeam {
public:
    explicit ThreadTeam(int threads);
    ~ThreadTeam();
    ThreadTeam(const ThreadTeam&) = delete;
    ThreadTeam& operator=(const ThreadTeam&) = delete;

    int threads() const { return static_cast<int>(workers_.size()) + 1; }
    // share(i, threads()) for every i, the caller taking share 0; returns
    // when all have returned.
    void run(const std::function<void(int share, int shares)>& share);

private:
    void work(int index);

    static constexpr std::chrono::nanoseconds kSpin{50000};  // as bcast's pool

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::atomic<unsigned long> generation_{0};
    std::atomic<int> running_{0};
    std::atomic<bool> stop_{false};
    std::vector<std::thread> workers_;
};

// [begin, end) of share i of n over `count` elements of `elem_size` bytes,
// cut at multiples of 64 bytes (whole cache lines when the data starts on one).
void share_range(std::size_t count, std::size_t elem_size, int i, int n, std::size_t& begin,
                 std::size_t& end);

}  // namespace roofline
