#include "tune_rounds.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace bcast_cli {
namespace {

using Clock = std::chrono::steady_clock;

void check(bcast_status st, const char* what) {
    if (st != BCAST_OK) {
        throw std::runtime_error(std::string(what) + ": " + bcast_status_string(st) + ": " +
                                 bcast_last_error());
    }
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::vector<float> filled(std::size_t count, float scale) {
    std::vector<float> v(count);
    for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<float>(i % 251) * scale;
    return v;
}

}  // namespace

Workload Workload::add_rows(std::size_t rows, std::size_t n) {
    Workload w;
    w.name = "(" + std::to_string(rows) + "," + std::to_string(n) + ")+(" + std::to_string(n) + ")";
    w.inputs_ = {filled(rows * n, 0.5f), filled(n, 0.25f)};
    w.shapes_ = {{static_cast<int64_t>(rows), static_cast<int64_t>(n)}, {static_cast<int64_t>(n)}};
    w.out_.assign(rows * n, 0.0f);
    return w;
}

Workload Workload::add_same(std::size_t touched) {
    const std::size_t n = std::max<std::size_t>(touched / 12, 16);
    Workload w;
    w.name = "(" + std::to_string(n) + ")+(" + std::to_string(n) + ")";
    w.inputs_ = {filled(n, 0.5f), filled(n, 0.25f)};
    w.shapes_ = {{static_cast<int64_t>(n)}, {static_cast<int64_t>(n)}};
    w.out_.assign(n, 0.0f);
    return w;
}

Workload Workload::add_scalar(std::size_t touched) {
    const std::size_t n = std::max<std::size_t>(touched / 8, 16);
    Workload w;
    w.name = "(" + std::to_string(n) + ")+(1)";
    w.inputs_ = {filled(n, 0.5f), filled(1, 0.25f)};
    w.shapes_ = {{static_cast<int64_t>(n)}, {1}};
    w.out_.assign(n, 0.0f);
    return w;
}

// ((x - m) * s) + t over x of shape `x` and m, s, t of shape `param`
// (`channels` elements each).
Workload Workload::affine_chain(const std::vector<int64_t>& x, const std::vector<int64_t>& param,
                                std::size_t channels) {
    Workload w;
    std::size_t count = 1;
    w.name = "((x-m)*s)+t x(";
    for (std::size_t d = 0; d < x.size(); ++d) {
        count *= static_cast<std::size_t>(x[d]);
        w.name += (d ? "," : "") + std::to_string(x[d]);
    }
    w.name += ")";
    w.inputs_ = {filled(count, 0.5f), filled(channels, 0.1f), filled(channels, 0.01f), filled(channels, 0.2f)};
    w.shapes_ = {x, param, param, param};
    w.operands_ = {0, 1, 4, 2, 5, 3};  // v4 = x - m, v5 = v4 * s, v6 = v5 + t
    w.out_.assign(count, 0.0f);
    return w;
}

Workload Workload::chain(std::size_t batch, std::size_t channels, std::size_t hw) {
    const auto c = static_cast<int64_t>(channels);
    return affine_chain({static_cast<int64_t>(batch), c, static_cast<int64_t>(hw)}, {c, 1}, channels);
}

Workload Workload::chain_channels_last(std::size_t batch, std::size_t hw, std::size_t channels) {
    const auto c = static_cast<int64_t>(channels);
    return affine_chain({static_cast<int64_t>(batch), static_cast<int64_t>(hw), c}, {c}, channels);
}

Workload::Workload(Workload&& o) noexcept
    : name(std::move(o.name)),
      inputs_(std::move(o.inputs_)),
      out_(std::move(o.out_)),
      shapes_(std::move(o.shapes_)),
      operands_(std::move(o.operands_)),
      op_(o.op_),
      expr_(o.expr_) {
    o.op_ = nullptr;
    o.expr_ = nullptr;
}

Workload::~Workload() {
    bcast_op_destroy(op_);
    bcast_expr_destroy(expr_);
}

void Workload::plan() {
    std::vector<size_t> ranks;
    std::vector<const int64_t*> dims;
    for (const auto& s : shapes_) {
        ranks.push_back(s.size());
        dims.push_back(s.data());
    }
    if (operands_.empty()) {
        if (op_ == nullptr) check(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op_), "create");
        check(bcast_op_plan(op_, ranks.size(), ranks.data(), dims.data(), nullptr, nullptr), "plan");
        return;
    }
    if (expr_ == nullptr) {
        check(bcast_expr_create(BCAST_DTYPE_F32, shapes_.size(), &expr_), "expr create");
        const bcast_opcode ops[3] = {BCAST_OP_SUB, BCAST_OP_MUL, BCAST_OP_ADD};
        for (std::size_t k = 0; k < 3; ++k) {
            check(bcast_expr_add_node(expr_, ops[k], BCAST_RULE_NUMPY, -1, 2, &operands_[2 * k], nullptr),
                  "expr node");
        }
    }
    check(bcast_expr_plan(expr_, ranks.size(), ranks.data(), dims.data(), nullptr, nullptr), "expr plan");
}

void Workload::run(bcast_pool* pool) const {
    std::vector<const void*> in;
    for (const auto& v : inputs_) in.push_back(v.data());
    void* out = const_cast<float*>(out_.data());
    if (op_ != nullptr) {
        check(pool ? bcast_op_execute_pool(op_, in.data(), out, pool) : bcast_op_execute(op_, in.data(), out),
              "execute");
    } else {
        check(pool ? bcast_expr_execute_pool(expr_, in.data(), out, pool)
                   : bcast_expr_execute(expr_, in.data(), out),
              "expr execute");
    }
}

Rounds::Rounds(bool quick, bcast_pool* pool, uint32_t seed)
    : target_seconds_(quick ? 0.002 : 0.025), rounds_(quick ? 3 : 11), pool_(pool), rng_(seed) {}

double Rounds::sample(Workload& w, const std::string& tuning, int reps) {
    check(bcast_tuning_load_string(tuning.data(), tuning.size()), "tuning");
    w.plan();
    w.run(pool_);  // warm: pages, caches, the pool's threads
    const Clock::time_point t0 = Clock::now();
    for (int r = 0; r < reps; ++r) w.run(pool_);
    return std::chrono::duration<double>(Clock::now() - t0).count() / reps;
}

int Rounds::reps_for(Workload& w, const std::string& tuning) {
    const double one = sample(w, tuning, 1);
    return static_cast<int>(std::clamp(target_seconds_ / std::max(one, 1e-9), 1.0, 100000.0));
}

Comparison Rounds::compare(const std::vector<std::string>& candidates, const std::string& base,
                           std::vector<Workload>& workloads, const std::function<void()>& progress) {
    std::vector<int> reps;
    for (Workload& w : workloads) reps.push_back(reps_for(w, base));
    const std::size_t n = candidates.size();
    std::vector<std::vector<double>> logs(n);
    std::vector<double> noise;
    Comparison c;
    c.faster.assign(n, 0);
    c.rounds = rounds_;
    for (int round = 0; round < rounds_; ++round) {
        // Slots 0..n-1 the candidates, n and n+1 the base twice.
        std::vector<std::size_t> order(n + 2);
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::shuffle(order.begin(), order.end(), rng_);
        std::vector<double> log_time(n + 2, 0.0);  // summed over workloads
        for (std::size_t k : order) {
            const std::string& text = k < n ? candidates[k] : base;
            for (std::size_t i = 0; i < workloads.size(); ++i) {
                log_time[k] += std::log(sample(workloads[i], text, reps[i])) / static_cast<double>(workloads.size());
            }
        }
        const double base_log = (log_time[n] + log_time[n + 1]) / 2;
        noise.push_back(std::fabs(log_time[n] - log_time[n + 1]));
        for (std::size_t k = 0; k < n; ++k) {
            logs[k].push_back(log_time[k] - base_log);
            if (log_time[k] < base_log) ++c.faster[k];
        }
        if (progress) progress();
    }
    for (std::size_t k = 0; k < n; ++k) c.median_log.push_back(median(logs[k]));
    c.noise = median(noise);
    return c;
}

bool significant(const Comparison& c, std::size_t candidate) {
    const double gain = -c.median_log[candidate];
    const double margin = std::max(0.02, 3 * c.noise);
    return gain > margin && c.faster[candidate] * 5 >= c.rounds * 4;
}

}  // namespace bcast_cli
