// A small timing harness for a noisy VM: each variant runs in batches long
// enough to dwarf the clock's cost, variants take turns in every round (the
// starting variant rotates), and results are min and median over rounds plus
// the median of per-round ratios, so that a slow patch of the machine hits
// the reference loop and bcast alike.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace bench {

// Runs the measured operation `reps` times back to back.
using Batch = std::function<void(std::int64_t reps)>;

// The Batch that calls once() reps times.
template <class Once>
Batch repeated(Once once) {
    return [once](std::int64_t reps) {
        for (std::int64_t r = 0; r < reps; ++r) once();
    };
}

struct Stats {
    double min_ns = 0;     // per call
    double median_ns = 0;  // per call
    std::size_t samples = 0;
};

struct Budget {
    double sample_ns = 1e6;   // aim for batches of about this length
    double total_ns = 2e9;    // stop adding rounds after this much time
    int min_rounds = 7;
    int max_rounds = 101;
};

struct Interleaved {
    std::vector<std::vector<double>> per_call_ns;  // [variant][round]
    Stats stats(std::size_t variant) const;
    // Median over rounds of variant[num] / variant[den] (same round).
    double paired_ratio(std::size_t num, std::size_t den) const;
};

double now_ns();
double median(std::vector<double> values);
Stats summarize(const std::vector<double>& per_call_ns);
// Median over rounds of num[r] / den[r].
double median_ratio(const std::vector<double>& num, const std::vector<double>& den);
// Per round, the faster of two variants.
std::vector<double> per_round_min(const std::vector<double>& x, const std::vector<double>& y);

// Calibrates each variant's batch length, then runs rounds in which every
// variant takes one timed batch.
Interleaved run_interleaved(const std::vector<Batch>& variants, const Budget& budget);

}  // namespace bench
