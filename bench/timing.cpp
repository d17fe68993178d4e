#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace bench {
namespace {

// One untimed call first: each batch is timed in its variant's steady
// state, not charged for the caches the previous variant left (its
// streaming stores evict the shared output; a cached-store variant's first
// call then fetches it back from memory: 60-300 us on a 20 us op).
double time_batch(const Batch& batch, std::int64_t reps) {
    batch(1);
    const double start = now_ns();
    batch(reps);
    return (now_ns() - start) / static_cast<double>(reps);
}

// Enough repetitions for one batch to last about budget.sample_ns, so that
// every variant's batches are equally exposed to preemption. The first, single
// call doubles as a warm-up; the best of three trials resists a preempted one.
std::int64_t calibrate(const Batch& batch, const Budget& budget) {
    double per_call = time_batch(batch, 1);
    std::int64_t reps = 1;
    while (per_call * static_cast<double>(reps) < budget.sample_ns / 8 && reps < (1 << 24)) {
        reps *= 8;
        per_call = time_batch(batch, reps);
    }
    for (int trial = 0; trial < 2; ++trial) per_call = std::min(per_call, time_batch(batch, reps));
    const double wanted = budget.sample_ns / std::max(per_call, 0.1);
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(wanted));
}

}  // namespace

double now_ns() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::nano>(clock::now().time_since_epoch()).count();
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Stats summarize(const std::vector<double>& per_call_ns) {
    Stats s;
    s.samples = per_call_ns.size();
    if (per_call_ns.empty()) return s;
    s.min_ns = *std::min_element(per_call_ns.begin(), per_call_ns.end());
    s.median_ns = median(per_call_ns);
    return s;
}

Stats Interleaved::stats(std::size_t variant) const { return summarize(per_call_ns[variant]); }

double Interleaved::paired_ratio(std::size_t num, std::size_t den) const {
    return median_ratio(per_call_ns[num], per_call_ns[den]);
}

double median_ratio(const std::vector<double>& num, const std::vector<double>& den) {
    std::vector<double> ratios;
    for (std::size_t r = 0; r < num.size() && r < den.size(); ++r) {
        if (den[r] > 0) ratios.push_back(num[r] / den[r]);
    }
    return ratios.empty() ? std::nan("") : median(ratios);
}

std::vector<double> per_round_min(const std::vector<double>& x, const std::vector<double>& y) {
    std::vector<double> best;
    for (std::size_t r = 0; r < x.size() && r < y.size(); ++r) best.push_back(std::min(x[r], y[r]));
    return best;
}

Interleaved run_interleaved(const std::vector<Batch>& variants, const Budget& budget) {
    const std::size_t n = variants.size();
    std::vector<std::int64_t> reps(n);
    for (std::size_t v = 0; v < n; ++v) reps[v] = calibrate(variants[v], budget);

    Interleaved out;
    out.per_call_ns.assign(n, {});
    const double start = now_ns();
    for (int round = 0; round < budget.max_rounds; ++round) {
        if (round >= budget.min_rounds && now_ns() - start > budget.total_ns) break;
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t v = (static_cast<std::size_t>(round) + k) % n;
            out.per_call_ns[v].push_back(time_batch(variants[v], reps[v]));
        }
    }
    return out;
}

}  // namespace bench
