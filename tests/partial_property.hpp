// The property of strict partial-shape inference, checked through the public
// C API by tests/api/test_partial_shapes.cpp (seeded random cases) and
// tests/fuzz/fuzz_partial.cpp (libFuzzer's cases):
//  * every static assignment of the partial shapes (symbols consistent, each
//    dim within its interval, unknown ranks grown by up to kMaxGrowth leading
//    dims) satisfies the returned conditions exactly when bcast_infer_shape /
//    bcast_infer_expand_shape accepts it, and then its output lies inside the
//    inferred one (a symbol's output dim equals the symbol's value);
//  * strict refuses only when every assignment is refused, and when it
//    accepts, some assignment is accepted.
// The oracle is the static rule itself (its own tests check it against the
// spec); the assignments come from every value that can matter: 0, 1, each
// constant and interval end, their neighbours, and three fresh values (grown
// leading dims: 0, 1, each constant and two fresh values). When they are too
// many, a seeded sample of a quarter as many is checked instead (then
// "accepts only when some assignment is accepted" is not concluded).
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
        c.rank_known[j] = src.range(0, 3) == 0 ? 0 : 1;
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
        // Unknown ranks: the mapping may name more data axes, and target axes
        // beyond the known ones.
        const auto rt = static_cast<int64_t>(c.dims[1].size()) + (c.rank_known[1] ? 0 : 2);
        const std::size_t count =
            c.dims[0].size() + (c.rank_known[0] ? 0 : static_cast<std::size_t>(src.range(0, 1)));
        for (std::size_t i = 0; i < count; ++i)
            c.mapping.push_back(rt == 0 ? 0 : src.range(0, rt - 1));
        std::sort(c.mapping.begin(), c.mapping.end());
    }
    return c;
}

struct Outcome {
    std::string violation;  // empty: the property holds
    uint64_t assignments = 0;
    bool checked = false;     // false: strict answered UNSUPPORTED / INVALID_ARGUMENT
    bool exhaustive = false;  // every assignment was tried (else a sample)
};

namespace detail {

struct Var {
    int64_t lo, hi;
    std::vector<int64_t> values;
};

inline std::string text(const Case& c) {
    std::string t = c.expand ? "expand mode " + std::to_string(c.mode)
                             : "rule " + std::to_string(c.rule);
    t += " axis " + std::to_string(c.axis);
    if (!c.mapping.empty()) {
        t += " mapping";
        for (int64_t m : c.mapping) t += " " + std::to_string(m);
    }
    t += ":";
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

// An unknown rank grows by up to this many leading dims: past the
// generator's largest rank (3), so that every known rank can be reached, and
// far enough for the ranks from which a rule's answer stops changing (pdpd
// at axis 3 with B of rank 3 needs 6 more dims than A's known ones).
constexpr std::size_t kMaxGrowth = 6;

namespace detail {

// splitmix64: the sample's seed comes from the case, so a failure repeats.
inline uint64_t mix(uint64_t* state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace detail

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
    // Each unknown rank: a variable over its grown leading dims, every tuple
    // of 0..kMaxGrowth values from `lead` (shortest first).
    std::vector<int64_t> lead{0, 1, top + 3, top + 4};
    for (const auto& sh : c.dims)
        for (const bcast_pdim& d : sh)
            for (int64_t v : {d.lo, d.hi})
                if (v > 1 && v != BCAST_DIM_UNBOUNDED &&
                    std::find(lead.begin(), lead.end(), v) == lead.end())
                    lead.push_back(v);
    uint64_t tuples = 0, power = 1;
    for (std::size_t len = 0; len <= kMaxGrowth; ++len, power *= lead.size()) tuples += power;
    const auto tuple = [&](uint64_t index, std::vector<int64_t>* dims_out) {
        std::size_t len = 0;
        for (uint64_t p = 1; index >= p; p *= lead.size(), ++len) index -= p;
        for (std::size_t e = 0; e < len; ++e, index /= lead.size())
            dims_out->push_back(lead[index % lead.size()]);
    };
    std::vector<std::size_t> growth(n, SIZE_MAX);
    for (std::size_t j = 0; j < n; ++j)
        if (!c.rank_known[j]) growth[j] = make_var(0, 0);
    uint64_t total = 1;
    for (std::size_t v = 0; v < vars.size(); ++v) {
        detail::Var& var = vars[v];
        if (var.lo > var.hi) return o;  // disjoint symbol: strict says INVALID_ARGUMENT
        const bool is_growth = std::find(growth.begin(), growth.end(), v) != growth.end();
        if (is_growth) {
            for (uint64_t x = 0; x < tuples; ++x) var.values.push_back(static_cast<int64_t>(x));
        } else {
            for (int64_t x : consts)
                if (x >= var.lo && x <= var.hi) var.values.push_back(x);
        }
        if (var.values.empty()) var.values.push_back(var.lo);
        total = total > max_assignments ? total : total * var.values.size();
    }
    o.checked = true;
    o.exhaustive = total <= max_assignments;
    uint64_t seed = 0;
    for (char ch : detail::text(c)) seed = seed * 131 + static_cast<unsigned char>(ch);

    std::vector<std::size_t> pick(vars.size(), 0);
    std::vector<std::vector<int64_t>> shapes(n);
    bool any_valid = false;
    for (uint64_t round = 0;; ++round) {
        if (!o.exhaustive) {
            // A sample: each leading-dims tuple by its length first, so that
            // the long ones do not crowd out the short.
            if (round == max_assignments / 4) break;  // refusals throw inside: costly
            for (std::size_t v = 0; v < vars.size(); ++v) {
                if (std::find(growth.begin(), growth.end(), v) == growth.end()) {
                    pick[v] = detail::mix(&seed) % vars[v].values.size();
                    continue;
                }
                const std::size_t len = detail::mix(&seed) % (kMaxGrowth + 1);
                uint64_t first = 0, count = 1;
                for (std::size_t l = 0; l < len; ++l) first += count, count *= lead.size();
                pick[v] = first + detail::mix(&seed) % count;
            }
        }
        const auto value = [&](std::size_t v) { return vars[v].values[pick[v]]; };
        for (std::size_t j = 0; j < n; ++j) {
            shapes[j].clear();
            if (!c.rank_known[j]) tuple(static_cast<uint64_t>(value(growth[j])), &shapes[j]);
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
        const auto where = [&] {  // only for a violation's message
            std::string t = detail::text(c) + " at";
            for (const auto& sh : shapes) {
                t += " (";
                for (std::size_t i = 0; i < sh.size(); ++i) t += (i ? "," : "") + std::to_string(sh[i]);
                t += ")";
            }
            return t;
        };
        if (refused && ok) {
            o.violation = "strict refused but the static rule accepts " + where();
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
                              where() + "; conditions: " + buf;
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
                    o.violation = "output outside the inferred shape: " + where();
                    return o;
                }
            }
        }
        if (!o.exhaustive) continue;
        // Next assignment (odometer).
        std::size_t v = 0;
        while (v < vars.size() && ++pick[v] == vars[v].values.size()) pick[v++] = 0;
        if (v == vars.size()) break;
    }
    if (!refused && !any_valid && o.exhaustive)
        o.violation = "strict accepted but no assignment is accepted: " + detail::text(c);
    return o;
}

}  // namespace partial_property
