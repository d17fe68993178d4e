// The property of strict partial-shape inference, checked through the public
// C API by tests/api/test_partial_shapes.cpp (seeded random cases) and
// tests/fuzz/fuzz_partial.cpp (libFuzzer's cases):
//  * every static assignment of the partial shapes (symbols consistent, each
//    dim within its interval, unknown ranks grown by up to three leading dims)
//    satisfies the returned conditions exactly when bcast_infer_shape /
//    bcast_infer_expand_shape accepts it, and then its output lies inside the
//    inferred one (a symbol's output dim equals the symbol's value);
//  * strict refuses only when every assignment is refused, and when it
//    accepts, some assignment is accepted.
// The oracle is the static rule itself (its own tests check it against the
// spec); the assignments come from every value that can matter: 0, 1, each
// constant and interval end, their neighbours, and three fresh values.
#pragma once

#include <bcast/bcast.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace partial_property {

struct Case {
    bool expand = false;
    bcast_rule rule = BCAST_RULE_NUMPY;
    bcast_expand_mode mode = BCAST_EXPAND_NUMPY;
    int64_t axis = -1;
    std::vector<int64_t> mapping;
    std::vector<std::vector<bcast_pdim>> dims;
    std::vector<int32_t> rank_known;
};

inline const char* const kSymbolNames[] = {"A", "B", "C"};

// A small random case; `src.range(lo, hi)` picks in [lo, hi].
template <class Source>
Case random_case(Source& src) {
    Case c;
    c.expand = src.range(0, 3) == 0;
    if (c.expand) {
        c.mode = static_cast<bcast_expand_mode>(src.range(0, 3));
    } else {
        c.rule = static_cast<bcast_rule>(src.range(0, 5));
    }
    const bool ncnn = !c.expand && c.rule == BCAST_RULE_NCNN;
    const std::size_t n = c.expand || ncnn ? 2 : static_cast<std::size_t>(src.range(1, 3));
    c.dims.resize(n);
    c.rank_known.assign(n, 1);
    for (std::size_t j = 0; j < n; ++j) {
        c.rank_known[j] = src.range(0, 7) == 0 ? 0 : 1;
        const auto rank = static_cast<std::size_t>(src.range(0, 3));
        for (std::size_t i = 0; i < rank; ++i) {
            bcast_pdim d{0, BCAST_DIM_UNBOUNDED, nullptr};
            const int64_t kind = src.range(0, 9);
            if (kind < 5) {
                d.lo = d.hi = src.range(0, 4);
            } else if (kind < 7) {
                d.symbol = kSymbolNames[src.range(0, 2)];
                if (src.range(0, 2) == 0) d.lo = src.range(0, 3);
            } else {
                d.lo = src.range(0, 3);
                const int64_t top = src.range(0, 4);
                d.hi = top == 4 ? BCAST_DIM_UNBOUNDED : std::max(d.lo, top);
            }
            c.dims[j].push_back(d);
        }
    }
    c.axis = src.range(0, 2) == 0 ? src.range(0, 3) : -1;
    if (c.expand && c.mode == BCAST_EXPAND_EXPLICIT) {
        const auto rt = static_cast<int64_t>(c.dims[1].size());
        for (std::size_t i = 0; i < c.dims[0].size(); ++i)
            c.mapping.push_back(rt == 0 ? 0 : src.range(0, rt - 1));
        std::sort(c.mapping.begin(), c.mapping.end());
    }
    return c;
}

struct Outcome {
    std::string violation;  // empty: the property holds
    uint64_t assignments = 0;
    bool checked = false;   // false: strict answered UNSUPPORTED / INVALID_ARGUMENT, or too big
};

namespace detail {

struct Var {
    int64_t lo, hi;
    std::vector<int64_t> values;
};

inline std::string text(const Case& c) {
    std::string t = c.expand ? "expand mode " + std::to_string(c.mode)
                             : "rule " + std::to_string(c.rule);
    t += " axis " + std::to_string(c.axis) + ":";
    for (std::size_t j = 0; j < c.dims.size(); ++j) {
        t += c.rank_known[j] ? " (" : " (...,";
        for (std::size_t i = 0; i < c.dims[j].size(); ++i) {
            const bcast_pdim& d = c.dims[j][i];
            if (i) t += ",";
            if (d.symbol) t += std::string(d.symbol) + ":";
            t += std::to_string(d.lo) + ".." +
                 (d.hi == BCAST_DIM_UNBOUNDED ? "" : std::to_string(d.hi));
        }
        t += ")";
    }
    return t;
}

}  // namespace detail

// An unknown rank grows by up to this many leading dims (the generator's
// largest rank, so that every known rank can be reached).
constexpr int64_t kMaxGrowth = 3;

inline Outcome check(const Case& c, uint64_t max_assignments = 40000) {
    Outcome o;
    const std::size_t n = c.dims.size();
    std::vector<bcast_pshape> in(n);
    for (std::size_t j = 0; j < n; ++j)
        in[j] = bcast_pshape{c.rank_known[j], c.dims[j].size(), c.dims[j].data()};
    bcast_pdim out[BCAST_MAX_RANK];
    size_t out_n = 0, num_conds = 0;
    int32_t out_known = 0;
    std::vector<bcast_condition> conds(BCAST_MAX_CONDITIONS);
    const bcast_status st =
        c.expand ? bcast_infer_partial_expand_shape(
                       BCAST_SEMANTICS_STRICT, c.mode, &in[0], &in[1],
                       c.mapping.empty() ? nullptr : c.mapping.data(), c.mapping.size(), c.axis,
                       BCAST_MAX_RANK, out, &out_n, &out_known, conds.size(), conds.data(),
                       &num_conds)
                 : bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, c.rule, c.axis, n, in.data(),
                                             BCAST_MAX_RANK, out, &out_n, &out_known,
                                             conds.size(), conds.data(), &num_conds);
    if (st != BCAST_OK && st != BCAST_ERROR_INCOMPATIBLE_SHAPES) return o;
    const bool refused = st != BCAST_OK;

    // The values that can matter.
    std::set<int64_t> consts{0, 1};
    int64_t top = 1;
    for (const auto& s : c.dims)
        for (const bcast_pdim& d : s)
            for (int64_t v : {d.lo, d.hi})
                if (v != BCAST_DIM_UNBOUNDED) {
                    for (int64_t k = -2; k <= 2; ++k)
                        if (v + k >= 0) consts.insert(v + k);
                    top = std::max(top, v);
                }
    for (int64_t k = 1; k <= 3; ++k) consts.insert(top + 2 + k);
    // Variables: each symbol (its intervals intersected), each other
    // non-static dim, and for each unknown rank its growth and two extra dims.
    std::vector<detail::Var> vars;
    std::vector<std::string> symbol_of;
    std::vector<std::vector<std::size_t>> var_of(n);
    const auto make_var = [&](int64_t lo, int64_t hi) {
        detail::Var v{lo, hi, {}};
        vars.push_back(v);
        return vars.size() - 1;
    };
    for (std::size_t j = 0; j < n; ++j)
        for (const bcast_pdim& d : c.dims[j]) {
            std::size_t v = SIZE_MAX;
            if (d.symbol) {
                for (std::size_t k = 0; k < symbol_of.size(); ++k)
                    if (symbol_of[k] == d.symbol) v = k;
                if (v == SIZE_MAX) {
                    // Symbols first: their variables are 0..symbols-1.
                    symbol_of.emplace_back(d.symbol);
                }
            }
            var_of[j].push_back(v);
        }
    for (std::size_t k = 0; k < symbol_of.size(); ++k) make_var(0, BCAST_DIM_UNBOUNDED);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < c.dims[j].size(); ++i) {
            const bcast_pdim& d = c.dims[j][i];
            if (d.symbol) {
                std::size_t k = 0;
                while (symbol_of[k] != d.symbol) ++k;
                var_of[j][i] = k;
                vars[k].lo = std::max(vars[k].lo, d.lo);
                vars[k].hi = std::min(vars[k].hi, d.hi);
            } else {
                var_of[j][i] = make_var(d.lo, d.hi);
            }
        }
    std::vector<std::size_t> growth(n, SIZE_MAX);
    for (std::size_t j = 0; j < n; ++j)
        if (!c.rank_known[j]) {
            growth[j] = make_var(0, kMaxGrowth);
            for (int64_t e = 0; e < kMaxGrowth; ++e) make_var(0, BCAST_DIM_UNBOUNDED);
        }
    uint64_t total = 1;
    for (std::size_t v = 0; v < vars.size(); ++v) {
        detail::Var& var = vars[v];
        if (var.lo > var.hi) return o;  // disjoint symbol: strict says INVALID_ARGUMENT
        const bool is_growth = std::find(growth.begin(), growth.end(), v) != growth.end();
        if (is_growth) {
            for (int64_t x = 0; x <= kMaxGrowth; ++x) var.values.push_back(x);
        } else {
            for (int64_t x : consts)
                if (x >= var.lo && x <= var.hi) var.values.push_back(x);
        }
        if (var.values.empty()) var.values.push_back(var.lo);
        total *= var.values.size();
        if (total > max_assignments) return o;
    }
    o.checked = true;

    std::vector<std::size_t> pick(vars.size(), 0);
    std::vector<std::vector<int64_t>> shapes(n);
    bool any_valid = false;
    while (true) {
        const auto value = [&](std::size_t v) { return vars[v].values[pick[v]]; };
        for (std::size_t j = 0; j < n; ++j) {
            shapes[j].clear();
            if (!c.rank_known[j])
                for (int64_t e = 0; e < value(growth[j]); ++e)
                    shapes[j].push_back(value(growth[j] + 1 + static_cast<std::size_t>(e)));
            for (std::size_t i = 0; i < c.dims[j].size(); ++i)
                shapes[j].push_back(value(var_of[j][i]));
        }
        std::vector<size_t> ranks(n);
        std::vector<const int64_t*> dims(n);
        for (std::size_t j = 0; j < n; ++j) {
            ranks[j] = shapes[j].size();
            dims[j] = shapes[j].data();
        }
        size_t rank = 0;
        int64_t got[BCAST_MAX_RANK];
        const bcast_status s =
            c.expand ? bcast_infer_expand_shape(c.mode, ranks[0], dims[0], ranks[1], dims[1],
                                                c.mapping.empty() ? nullptr : c.mapping.data(),
                                                c.mapping.size(), c.axis, BCAST_MAX_RANK, &rank,
                                                got)
                     : bcast_infer_shape(c.rule, c.axis, n, ranks.data(), dims.data(),
                                         BCAST_MAX_RANK, &rank, got);
        const bool ok = s == BCAST_OK;
        ++o.assignments;
        std::string where = detail::text(c) + " at";
        for (const auto& sh : shapes) {
            where += " (";
            for (std::size_t i = 0; i < sh.size(); ++i) where += (i ? "," : "") + std::to_string(sh[i]);
            where += ")";
        }
        if (refused && ok) {
            o.violation = "strict refused but the static rule accepts " + where;
            return o;
        }
        if (!refused) {
            int32_t holds = -1;
            if (bcast_conditions_hold(num_conds, conds.data(), n, ranks.data(), dims.data(),
                                      &holds) != BCAST_OK) {
                o.violation = std::string("bcast_conditions_hold failed: ") + bcast_last_error();
                return o;
            }
            if ((holds == 1) != ok) {
                char buf[512];
                bcast_conditions_format(num_conds, conds.data(), n, in.data(), buf, sizeof buf);
                o.violation = std::string(ok ? "accepted but the conditions fail: "
                                             : "refused but the conditions hold: ") +
                              where + "; conditions: " + buf;
                return o;
            }
            if (ok) {
                any_valid = true;
                const bool rank_ok = out_known ? rank == out_n : rank >= out_n;
                bool inside = rank_ok;
                for (std::size_t i = 0; inside && i < out_n; ++i) {
                    const int64_t v = got[rank - out_n + i];
                    const bcast_pdim& d = out[i];
                    inside = d.lo <= v && v <= d.hi;
                    if (d.symbol)
                        for (std::size_t k = 0; k < symbol_of.size(); ++k)
                            if (symbol_of[k] == d.symbol && value(k) != v) inside = false;
                }
                if (!inside) {
                    o.violation = "output outside the inferred shape: " + where;
                    return o;
                }
            }
        }
        // Next assignment (odometer).
        std::size_t v = 0;
        while (v < vars.size() && ++pick[v] == vars[v].values.size()) pick[v++] = 0;
        if (v == vars.size()) break;
    }
    if (!refused && !any_valid)
        o.violation = "strict accepted but no assignment is accepted: " + detail::text(c);
    return o;
}

}  // namespace partial_property
