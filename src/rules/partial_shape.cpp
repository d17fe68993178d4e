// Partial-shape inference: argument checks, the semantics dispatch, and the
// text and evaluation of conditions.
#include "core/op_info.hpp"
#include "rules/partial_util.hpp"
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::partial {
namespace {

using detail::Layout;

// `what` names the shape in messages ("input 1"); it is only called on a
// refusal, so that a valid call builds no text.
template <class What>
void check_shape(const PShape& s, What what, const Symbols& symbols) {
    if (s.rank > kMaxRank)
        fail(BCAST_ERROR_INVALID_ARGUMENT, what() + ": " + std::to_string(s.rank) +
                                               " dimensions exceed the maximum rank of " +
                                               std::to_string(kMaxRank));
    for (std::size_t i = 0; i < s.rank; ++i) {
        const PDim& d = s.dims[i];
        if (d.lo < 0 || d.hi < d.lo)
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 what() + ": dimension " + std::to_string(i) + " has the empty or negative interval [" +
                     std::to_string(d.lo) + ", " + std::to_string(d.hi) + "]");
        if (d.sym < 0 || static_cast<std::size_t>(d.sym) > symbols.size())
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 what() + ": dimension " + std::to_string(i) + " has symbol id " +
                     std::to_string(d.sym) + " but only " + std::to_string(symbols.size()) +
                     " symbols are named");
    }
}

// Strict reads a symbol as one value: each of its dims gets the
// intersection of every interval it is declared with.
void narrow_symbols(PShape* in, std::size_t n, const Symbols& symbols) {
    if (symbols.empty()) return;
    std::vector<PDim> bound(symbols.size());
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < in[j].rank; ++i) {
            const PDim& d = in[j].dims[i];
            if (d.sym == 0) continue;
            PDim& b = bound[static_cast<std::size_t>(d.sym - 1)];
            b.lo = std::max(b.lo, d.lo);
            b.hi = std::min(b.hi, d.hi);
            if (b.lo > b.hi)
                fail(BCAST_ERROR_INVALID_ARGUMENT,
                     "symbol " + symbols[static_cast<std::size_t>(d.sym - 1)] +
                         " is declared with disjoint intervals (input " + std::to_string(j) +
                         ", dimension " + std::to_string(i) + " leaves nothing)");
        }
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < in[j].rank; ++i) {
            PDim& d = in[j].dims[i];
            if (d.sym == 0) continue;
            const PDim& b = bound[static_cast<std::size_t>(d.sym - 1)];
            d.lo = b.lo;
            d.hi = b.hi;
        }
}

struct ElementwiseContext {
    bcast_rule rule;
    int64_t axis;
};

void check_elementwise(const void* context, const Shape* shapes, std::size_t n) {
    const auto* c = static_cast<const ElementwiseContext*>(context);
    resolve(c->rule, c->axis, shapes, n);
}

struct ExpandContext {
    bcast_expand_mode mode;
    const int64_t* axes;
    std::size_t count;
    int64_t axis;
};

void check_expand(const void* context, const Shape* shapes, std::size_t) {
    const auto* c = static_cast<const ExpandContext*>(context);
    resolve_expand(c->mode, shapes[0], shapes[1], c->axes, c->count, c->axis);
}

void check_semantics(Semantics s) {
    if (s != Semantics::strict && s != Semantics::onnx && s != Semantics::openvino)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             "unknown semantics " + std::to_string(static_cast<int>(s)));
}

// Where a condition's (input, axis) lands in a static shape; an axis the
// shape does not have reads as 1.
int64_t extent(const Shape& s, int64_t axis) {
    const auto r = static_cast<int64_t>(s.rank);
    const int64_t i = axis >= 0 ? axis : r + axis;
    return i >= 0 && i < r ? s[static_cast<std::size_t>(i)] : 1;
}

bool atom_holds(const Atom& a, const Shape* in) {
    const Shape& s = in[a.input];
    const auto rank = static_cast<int64_t>(s.rank);
    switch (a.kind) {
        case AtomKind::dim_eq_value: return extent(s, a.axis) == a.other;
        case AtomKind::dim_eq_dim: return extent(s, a.axis) == extent(in[a.other_input], a.other);
        case AtomKind::rank_eq: return rank == a.other;
        case AtomKind::rank_ge: return rank >= a.other;
        case AtomKind::rank_le: return rank <= a.other;
    }
    fail(BCAST_ERROR_INVALID_ARGUMENT,
         "unknown condition kind " + std::to_string(static_cast<int>(a.kind)));
}

std::string dim_name(const PShape* in, std::size_t n, int32_t j, int64_t axis,
                     const Symbols& symbols) {
    if (j >= 0 && static_cast<std::size_t>(j) < n) {
        const PShape& s = in[j];
        const auto r = static_cast<int64_t>(s.rank);
        // Known rank: axes count from the start; unknown: dims are the last r
        // (r + axis only for a negative axis: a large one would overflow).
        const bool counted = s.rank_known ? axis >= 0 : axis < 0;
        const int64_t i = !counted ? -1 : s.rank_known ? axis : r + axis;
        if (i >= 0 && i < r) {
            const PDim& d = s.dims[static_cast<std::size_t>(i)];
            // A symbol with a line break would split its clause's line.
            if (d.sym != 0 && static_cast<std::size_t>(d.sym) <= symbols.size()) {
                const std::string& name = symbols[static_cast<std::size_t>(d.sym - 1)];
                if (name.find_first_of("\n\r") == std::string::npos) return name;
            }
            if (d.is_static()) return std::to_string(d.lo);
        }
    }
    return "in" + std::to_string(j) + "[" + std::to_string(axis) + "]";
}

std::string atom_text(const Atom& a, const PShape* in, std::size_t n, const Symbols& symbols) {
    const std::string rank = "rank(in" + std::to_string(a.input) + ")";
    switch (a.kind) {
        case AtomKind::dim_eq_value:
            return dim_name(in, n, a.input, a.axis, symbols) + " == " + std::to_string(a.other);
        case AtomKind::dim_eq_dim:
            return dim_name(in, n, a.input, a.axis, symbols) + " == " +
                   dim_name(in, n, a.other_input, a.other, symbols);
        case AtomKind::rank_eq: return rank + " == " + std::to_string(a.other);
        case AtomKind::rank_ge: return rank + " >= " + std::to_string(a.other);
        default: return rank + " <= " + std::to_string(a.other);
    }
}

}  // namespace

Inference infer(Semantics semantics, bcast_rule rule, int64_t axis, const PShape* inputs,
                std::size_t n, const Symbols& symbols) {
    check_semantics(semantics);
    const char* name = rule_name(rule);
    if (!name) fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown broadcast rule " + std::to_string(rule));
    if (n == 0 || n > kMaxInputs)
        fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(name) + ": " + std::to_string(n) +
                                               " inputs given; 1 to " +
                                               std::to_string(kMaxInputs) + " are accepted");
    if (inputs == nullptr) fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(name) + ": inputs is NULL");
    for (std::size_t j = 0; j < n; ++j)
        check_shape(inputs[j], [j] { return "input " + std::to_string(j); }, symbols);
    // The rules that take an axis take one of bcast's under every semantics
    // (ONNX's inference of a legacy broadcast reads none, but the call does).
    if (rule == BCAST_RULE_PDPD || rule == BCAST_RULE_ONNX_LEGACY) rules::detail::check_axis_argument(name, axis);
    switch (semantics) {
        case Semantics::onnx: return detail::onnx_elementwise(rule, inputs, n, symbols);
        case Semantics::openvino:
            return detail::openvino_elementwise(rule, axis, inputs, n, symbols);
        default: break;
    }
    // Strict narrows symbols' intervals in its own copy.
    std::vector<PShape> in(inputs, inputs + n);
    narrow_symbols(in.data(), n, symbols);
    const ElementwiseContext context{rule, axis};
    const detail::RankRanges ranks = detail::rank_ranges_elementwise(rule, axis, in.data(), n);
    if (!ranks.empty())
        return detail::solve_ranks(
            ranks, [&](const PShape* s) { return detail::layout_elementwise(rule, axis, s, n); },
            in.data(), n, symbols, check_elementwise, &context);
    const Layout l = detail::layout_elementwise(rule, axis, in.data(), n);
    return detail::solve(l, in.data(), n, symbols, check_elementwise, &context);
}

Inference infer_expand(Semantics semantics, bcast_expand_mode mode, const PShape& data,
                       const PShape& target, const int64_t* axes_mapping, std::size_t axes_count,
                       int64_t axis, const Symbols& symbols) {
    check_semantics(semantics);
    const char* name = expand_mode_name(mode);
    if (!name) fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown broadcast mode " + std::to_string(mode));
    const std::string who = std::string("broadcast ") + name;
    if (mode != BCAST_EXPAND_EXPLICIT && axes_count > 0)
        fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": axes_mapping is only taken by explicit mode");
    check_shape(data, [] { return std::string("data"); }, symbols);
    check_shape(target, [] { return std::string("target"); }, symbols);
    std::array<PShape, 2> in{data, target};
    switch (semantics) {
        case Semantics::onnx: return detail::onnx_expand(mode, in[0], in[1], symbols);
        case Semantics::openvino: return detail::openvino_expand(mode, in[0], in[1], symbols);
        default: break;
    }
    narrow_symbols(in.data(), 2, symbols);
    const ExpandContext context{mode, axes_mapping, axes_count, axis};
    const detail::RankRanges ranks =
        detail::rank_ranges_expand(mode, in.data(), axes_mapping, axes_count, axis);
    if (!ranks.empty())
        return detail::solve_ranks(
            ranks,
            [&](const PShape* s) {
                return detail::layout_expand(mode, s, axes_mapping, axes_count, axis, symbols);
            },
            in.data(), 2, symbols, check_expand, &context);
    const Layout l = detail::layout_expand(mode, in.data(), axes_mapping, axes_count, axis, symbols);
    return detail::solve(l, in.data(), 2, symbols, check_expand, &context);
}

void check_condition_inputs(const std::vector<Atom>& conditions, std::size_t n, bool known) {
    const auto bad = [&](int32_t j) { return j < 0 || (known && static_cast<std::size_t>(j) >= n); };
    for (std::size_t i = 0; i < conditions.size(); ++i) {
        const Atom& a = conditions[i];
        if (bad(a.input) || (a.kind == AtomKind::dim_eq_dim && bad(a.other_input)))
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "a condition names input " + std::to_string(bad(a.input) ? a.input : a.other_input) +
                     (known ? " of " + std::to_string(n) : std::string()));
        // Clauses are runs of one number: a number seen again after another
        // would be read as a clause of its own.
        if (i > 0 && a.clause < conditions[i - 1].clause)
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "condition " + std::to_string(i) + " is of clause " + std::to_string(a.clause) + " after clause " +
                     std::to_string(conditions[i - 1].clause) + ": atoms come grouped by clause, in order");
    }
}

bool conditions_hold(const std::vector<Atom>& conditions, const Shape* inputs, std::size_t n) {
    check_condition_inputs(conditions, n, true);
    std::size_t i = 0;
    while (i < conditions.size()) {
        const uint32_t clause = conditions[i].clause;
        bool any = false;
        for (; i < conditions.size() && conditions[i].clause == clause; ++i)
            any = atom_holds(conditions[i], inputs) || any;
        if (!any) return false;
    }
    return true;
}

std::string format_conditions(const std::vector<Atom>& conditions, const PShape* inputs,
                              std::size_t n, const Symbols& symbols) {
    std::string text;
    for (std::size_t i = 0; i < conditions.size(); ++i) {
        if (i > 0) text += conditions[i].clause == conditions[i - 1].clause ? " or " : "\n";
        text += atom_text(conditions[i], inputs, n, symbols);
    }
    return text;
}

std::string to_string(const PDim& d, const Symbols& symbols) {
    std::string bounds;
    if (d.is_static())
        bounds = std::to_string(d.lo);
    else if (d.lo == 0 && d.hi == kUnbounded)
        bounds = "?";
    else
        bounds = std::to_string(d.lo) + ".." + (d.hi == kUnbounded ? "" : std::to_string(d.hi));
    if (d.sym == 0) return bounds;
    const std::string name = static_cast<std::size_t>(d.sym) <= symbols.size()
                                 ? symbols[static_cast<std::size_t>(d.sym - 1)]
                                 : "$" + std::to_string(d.sym);
    return bounds == "?" ? name : name + ":" + bounds;
}

std::string to_string(const PShape& s, const Symbols& symbols) {
    std::string text = s.rank_known ? "(" : (s.rank ? "(...," : "(...");
    for (std::size_t i = 0; i < s.rank; ++i) {
        if (i) text += ',';
        text += to_string(s.dims[i], symbols);
    }
    return text + ')';
}

namespace detail {

std::string shapes_text(const PShape* inputs, std::size_t n, const Symbols& symbols) {
    std::string text = n == 1 ? "shape " : "shapes ";
    for (std::size_t j = 0; j < n; ++j) {
        if (j > 0) text += j + 1 == n ? " and " : ", ";
        text += to_string(inputs[j], symbols);
    }
    return text;
}

}  // namespace detail
}  // namespace bcast::rules::partial
