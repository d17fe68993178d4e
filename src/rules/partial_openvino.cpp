// `openvino` semantics: OpenVINO's PartialShape merge as read in
// src/core/src/dimension.cpp @6a420365 (Dimension::merge, broadcast_merge,
// merge_symbols) and src/core/src/partial_shape.cpp @c59927df (merge_into,
// broadcast_merge_into), folded over the inputs from input 0 the way
// eltwise_shape_infer (eltwise_shape_inference.hpp @77e1c75b) does for two.
// Quirks kept on purpose (docs/partial-shapes.md):
//  * an interval that contains 1 broadcasts: [1..5] with [10..15] is [10..15]
//    and nothing is left to check;
//  * two intervals that both contain 1 give their hull;
//  * a symbol beside an unknown survives (?·N with ? is ?·N), and two
//    symbols merged as equal are recorded as equal for the rest of the call;
//  * numpy and pdpd with an unknown rank on either side: fully dynamic;
//  * pdpd's merge may change A ([1..3] with [2..7] gives [2..7]).
#include "core/op_info.hpp"
#include "rules/partial_util.hpp"
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::partial::detail {
namespace {

// ov::symbol's union-find, for one call.
struct SymbolTable {
    std::vector<int32_t> parent;
    explicit SymbolTable(std::size_t n) : parent(n + 1) {
        for (std::size_t i = 0; i <= n; ++i) parent[i] = static_cast<int32_t>(i);
    }
    int32_t find(int32_t s) const {
        while (parent[static_cast<std::size_t>(s)] != s) s = parent[static_cast<std::size_t>(s)];
        return s;
    }
    bool equal(int32_t a, int32_t b) const { return a != 0 && b != 0 && find(a) == find(b); }
    void set_equal(int32_t a, int32_t b) {
        if (a != 0 && b != 0) parent[static_cast<std::size_t>(find(b))] = find(a);
    }
    // merge_symbols: equal or no rhs: lhs; else rhs if merge_unequal or no lhs.
    int32_t merged(int32_t lhs, int32_t rhs, bool merge_unequal) const {
        if (equal(lhs, rhs) || rhs == 0) return lhs;
        return merge_unequal || lhs == 0 ? rhs : 0;
    }
};

struct OpenVino {
    explicit OpenVino(std::size_t num_symbols) : symbols(num_symbols) {}
    SymbolTable symbols;

    bool merge(PDim* dst, const PDim& d1, const PDim& d2) {
        const int64_t lo = std::max(d1.lo, d2.lo), hi = std::min(d1.hi, d2.hi);
        if (lo > hi) return false;
        symbols.set_equal(d1.sym, d2.sym);
        const int32_t sym = symbols.merged(d1.sym, d2.sym, true);
        *dst = PDim{lo, hi, sym};
        return true;
    }

    bool broadcast_merge(PDim* dst, const PDim& d1, const PDim& d2) {
        const bool one1 = d1.has(1), one2 = d2.has(1);
        if (one1 && one2) {
            const PDim hull{std::min(d1.lo, d2.lo), std::max(d1.hi, d2.hi), 0};
            const int32_t sym = symbols.merged(d1.sym, d2.sym, hull.is_static());
            *dst = hull;
            dst->sym = sym;
            return true;
        }
        if (one1) *dst = d2;
        else if (one2) *dst = d1;
        else return merge(dst, d1, d2);
        return true;
    }

    // The first dimension that failed, for the message.
    std::ptrdiff_t bad_axis = -1;
    PDim bad_x, bad_y;
    void note(bool ok, std::size_t axis, const PDim& x, const PDim& y) {
        if (ok || bad_axis >= 0) return;
        bad_axis = static_cast<std::ptrdiff_t>(axis);
        bad_x = x;
        bad_y = y;
    }

    bool merge_into(PShape* dst, const PShape& src) {
        if (!dst->rank_known) {
            *dst = src;
            return true;
        }
        if (!src.rank_known) return true;
        if (dst->rank != src.rank) return false;
        bool ok = true;
        for (std::size_t i = 0; i < dst->rank; ++i) {
            const PDim x = dst->dims[i];
            const bool m = merge(&dst->dims[i], x, src.dims[i]);
            note(m, i, x, src.dims[i]);
            ok &= m;
        }
        return ok;
    }

    bool numpy_into(PShape* dst, const PShape& src) {
        if (!dst->rank_known || !src.rank_known) {
            *dst = PShape{false, 0, {}};
            return true;
        }
        const std::size_t rank = std::max(dst->rank, src.rank);
        PShape out;
        out.rank = rank;
        bool ok = true;
        for (std::size_t i = 0; i < rank; ++i) {
            const PDim a = i < rank - dst->rank ? known(1) : dst->dims[i - (rank - dst->rank)];
            const PDim b = i < rank - src.rank ? known(1) : src.dims[i - (rank - src.rank)];
            const bool m = broadcast_merge(&out.dims[i], a, b);
            note(m, i, a, b);
            ok &= m;
        }
        *dst = out;  // written even on failure, as OpenVINO does
        return ok;
    }

    bool pdpd_into(PShape* dst, const PShape& src, int64_t axis) {
        if (!dst->rank_known || !src.rank_known) {
            *dst = PShape{false, 0, {}};
            return true;
        }
        const auto rd = static_cast<int64_t>(dst->rank), rs = static_cast<int64_t>(src.rank);
        if (rs > rd) return false;
        const int64_t start = axis == -1 ? rd - rs : axis;
        if (start < 0 || start > rd - rs) return false;  // rs <= rd: no overflow
        bool ok = true;
        for (int64_t i = 0; i < rs; ++i) {
            PDim& a = dst->dims[static_cast<std::size_t>(start + i)];
            const PDim b = src.dims[static_cast<std::size_t>(i)];
            if (a.is_static() && b.is_static() && b.lo > a.lo) {
                note(false, static_cast<std::size_t>(start + i), a, b);
                return false;
            }
            const PDim x = a;
            const bool m = broadcast_merge(&a, x, b);
            note(m, static_cast<std::size_t>(start + i), x, b);
            ok &= m;
        }
        return ok;
    }
};

[[noreturn]] void inconsistent(const std::string& who, const OpenVino& ov, const PShape& a,
                               const PShape& b, const Symbols& symbols) {
    const std::string shapes = "shapes " + to_string(a, symbols) + " and " + to_string(b, symbols);
    const std::string hint = "OpenVINO: Argument shapes are inconsistent";
    if (ov.bad_axis >= 0)
        rules::detail::refuse_dim(who, static_cast<std::size_t>(ov.bad_axis),
                                  to_string(ov.bad_x, symbols), to_string(ov.bad_y, symbols),
                                  shapes, hint);
    fail(BCAST_ERROR_INCOMPATIBLE_SHAPES, who + ": " + hint + " (" + shapes + ")");
}

[[noreturn]] void no_inference(const std::string& what) {
    fail(BCAST_ERROR_UNSUPPORTED, "openvino semantics: OpenVINO has no " + what);
}

}  // namespace

Inference openvino_elementwise(bcast_rule rule, int64_t axis, const PShape* in, std::size_t n,
                               const Symbols& symbols) {
    if (rule != BCAST_RULE_NONE && rule != BCAST_RULE_NUMPY && rule != BCAST_RULE_PDPD)
        no_inference(std::string("auto_broadcast ") + rule_name(rule));
    const auto who = [rule] { return std::string(rule_name(rule)) + " (openvino semantics)"; };
    OpenVino ov(symbols.size());
    Inference inf;
    inf.out = in[0];
    for (std::size_t j = 1; j < n; ++j) {
        const PShape before = inf.out;
        const bool ok = rule == BCAST_RULE_NONE    ? ov.merge_into(&inf.out, in[j])
                        : rule == BCAST_RULE_NUMPY ? ov.numpy_into(&inf.out, in[j])
                                                   : ov.pdpd_into(&inf.out, in[j], axis);
        if (!ok) inconsistent(who(), ov, before, in[j], symbols);
    }
    return inf;
}

Inference openvino_expand(bcast_expand_mode mode, const PShape& data, const PShape& target,
                          const Symbols& symbols) {
    const std::string who = std::string("broadcast ") + expand_mode_name(mode) + " (openvino semantics)";
    OpenVino ov(symbols.size());
    Inference inf;
    inf.out = target;
    if (mode == BCAST_EXPAND_BIDIRECTIONAL) {
        if (!ov.numpy_into(&inf.out, data)) inconsistent(who, ov, target, data, symbols);
        return inf;
    }
    if (mode != BCAST_EXPAND_NUMPY) no_inference(std::string("partial inference for Broadcast ") + expand_mode_name(mode) + " here");
    // Broadcast NUMPY: the output is the target as given; only pairs of
    // known extents are checked.
    if (data.rank_known && target.rank_known) {
        if (data.rank > target.rank)
            fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
                 who + ": data rank " + std::to_string(data.rank) + " exceeds target rank " +
                     std::to_string(target.rank));
        const std::size_t lead = target.rank - data.rank;
        for (std::size_t i = 0; i < data.rank; ++i) {
            const PDim& d = data.dims[i];
            const PDim& t = target.dims[lead + i];
            if (d.is_static() && t.is_static() && d.lo != 1 && d.lo != t.lo)
                rules::detail::refuse_dim(who, lead + i, to_string(d, symbols),
                                          to_string(t, symbols),
                                          "data shape " + to_string(data, symbols) +
                                              ", target shape " + to_string(target, symbols));
        }
    }
    return inf;
}

}  // namespace bcast::rules::partial::detail
