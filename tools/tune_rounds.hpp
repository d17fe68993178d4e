// How `bcast tune` times tunings against each other on a noisy machine
// (/work/shared/design/tuning-notes.md section 6): workloads planned and run
// through the public API, each sample under a tuning loaded with
// bcast_tuning_load_string; rounds that run every candidate once and the base
// twice in a fresh random order, so drift hits all alike; per round the
// log ratio of each candidate to the base, decided on the median over rounds
// against the noise of the base's two runs.
#pragma once

#include <bcast/bcast.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bcast_cli {

// An op or a fused expression over f32 buffers allocated (and touched) once.
class Workload {
public:
    // (rows, n) + (n): a repeated row (streamed rows prefetch).
    static Workload add_rows(std::size_t rows, std::size_t n);
    // (n) + (n): same shapes, `touched` bytes moved in all.
    static Workload add_same(std::size_t touched);
    // (n) + (1): one running input, `touched` bytes moved in all.
    static Workload add_scalar(std::size_t touched);
    // ((x - m) * s) + t, x (batch, channels, hw) and m, s, t (channels, 1):
    // a fused chain.
    static Workload chain(std::size_t batch, std::size_t channels, std::size_t hw);
    // The same chain channels last: x (batch, hw, channels), m, s, t
    // (channels), which the fused runner reads as patterns, block by block.
    static Workload chain_channels_last(std::size_t batch, std::size_t hw, std::size_t channels);

    Workload(Workload&&) noexcept;
    Workload& operator=(Workload&&) = delete;
    ~Workload();

    // Plans under the tuning in force (the plan reads the thresholds).
    void plan();
    void run(bcast_pool* pool) const;
    std::string name;

private:
    Workload() = default;
    static Workload affine_chain(const std::vector<int64_t>& x, const std::vector<int64_t>& param,
                                 std::size_t channels);
    std::vector<std::vector<float>> inputs_;
    std::vector<float> out_;
    std::vector<std::vector<int64_t>> shapes_;
    std::vector<size_t> operands_;  // chain nodes: value numbers, 2 per node
    bcast_op* op_ = nullptr;
    bcast_expr* expr_ = nullptr;
};

struct Comparison {
    std::vector<double> median_log;  // per candidate: median of log(t / t_base)
    std::vector<int> faster;         // per candidate: rounds it beat the base
    int rounds = 0;
    double noise = 0;  // median |log(base1 / base2)|
};

class Rounds {
public:
    Rounds(bool quick, bcast_pool* pool, uint32_t seed);
    // Each candidate tuning text against `base` over `workloads` (the mean
    // of their log ratios); `progress` is called after each round.
    Comparison compare(const std::vector<std::string>& candidates, const std::string& base,
                       std::vector<Workload>& workloads, const std::function<void()>& progress);
    int rounds() const { return rounds_; }

private:
    double sample(Workload& w, const std::string& tuning, int reps);
    int reps_for(Workload& w, const std::string& tuning);
    double target_seconds_;
    int rounds_;
    bcast_pool* pool_;
    std::mt19937 rng_;
};

// Whether a candidate's gain (-median_log) is worth adopting: above 2% and
// three times the noise, faster in at least 4 of 5 rounds.
bool significant(const Comparison& c, std::size_t candidate);

}  // namespace bcast_cli
