// Strict semantics, part 1: for each rule, which dimensions meet in which
// output column and what else must hold (the same alignment the static rules
// in numpy_rules.cpp, pdpd_rule.cpp, onnx_legacy_rule.cpp, ncnn_rule.cpp and
// expand_rules.cpp use, stated over partial shapes). partial_strict.cpp turns
// a layout into the output and the run-time conditions.
//
// Where a rule's alignment itself depends on an unknown rank (pdpd, legacy,
// ncnn, explicit and pdpd Broadcast place B from its first axis), the ranks
// are enumerated first (partial_rank_ranges.cpp, partial_rank_cases.cpp) and
// these layouts see known ranks only. Between inputs that both have unknown
// ranks (numpy, unidirectional, none), the dims past every known one are
// anonymous and stated axis by axis up to BCAST_MAX_RANK, and a relation
// between the two ranks rank by rank (the conditions have no rank-vs-rank
// atom).
#include "rules/partial_util.hpp"
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::partial::detail {

void Layout::column(ColumnKind kind, std::size_t out_axis) {
    ColumnSpec c;
    c.kind = kind;
    c.out_axis = out_axis;
    c.begin = c.end = entries.size();
    columns.push_back(c);
}

void Layout::add(const Ref& r, bool anchor) {
    ColumnSpec& c = columns.back();
    if (anchor) c.anchor = static_cast<std::ptrdiff_t>(entries.size());
    entries.push_back(r);
    c.end = entries.size();
}

void Layout::clause(std::initializer_list<IAtom> list) {
    const std::size_t begin = atoms.size();
    atoms.insert(atoms.end(), list.begin(), list.end());
    clauses.emplace_back(begin, atoms.size());
}

bool from_end(const PShape* inputs, int32_t j, std::size_t k, Ref* out) {
    const PShape& s = inputs[j];
    out->input = j;
    if (s.rank_known) {
        if (k > s.rank) return false;
        out->axis = static_cast<int64_t>(s.rank - k);
        out->dim = s.dims[s.rank - k];
        return true;
    }
    out->axis = -static_cast<int64_t>(k);
    out->dim = k <= s.rank ? s.dims[s.rank - k] : PDim{};
    return true;
}

Ref at(const PShape* inputs, int32_t j, std::size_t i) {
    Ref r;
    r.input = j;
    r.axis = static_cast<int64_t>(i);
    r.dim = inputs[j].dims[i];
    return r;
}

namespace {

// partial_rank_cases.cpp hands these layouts known ranks only.
void require_known_ranks(const std::string& who, const PShape* in, std::size_t n,
                         const char* why) {
    for (std::size_t j = 0; j < n; ++j)
        if (!in[j].rank_known)
            fail(BCAST_ERROR_INTERNAL, who + ": an unknown rank reached a layout that places B "
                                             "from its first axis (" + why + ")");
}

std::size_t min_rank(const PShape* in, std::size_t n) {
    std::size_t r = 0;
    for (std::size_t j = 0; j < n; ++j) r = std::max(r, in[j].rank);
    return r;
}

// NUMPY and BIDIRECTIONAL: right-aligned merge columns.
Layout numpy_layout(const std::string& who, const PShape* in, std::size_t n) {
    Layout l;
    l.who = who;
    const std::size_t rank = min_rank(in, n);
    l.out.rank = rank;
    l.out.rank_known = std::all_of(in, in + n, [](const PShape& s) { return s.rank_known; });
    for (std::size_t a = 0; a < rank; ++a) {
        l.column(ColumnKind::merge, a);
        for (std::size_t j = 0; j < n; ++j) {
            Ref r;
            if (from_end(in, static_cast<int32_t>(j), rank - a, &r)) l.add(r);
        }
    }
    // Past every known dim, only inputs of unknown rank have dims, anonymous
    // ones: every two must still merge, at each axis a rank can reach.
    for (std::size_t k = rank + 1; k <= kMaxRank; ++k)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) {
                if (in[i].rank_known || in[j].rank_known) continue;
                Ref x, y;
                from_end(in, static_cast<int32_t>(i), k, &x);
                from_end(in, static_cast<int32_t>(j), k, &y);
                l.clause({is_value(x, 1), is_value(y, 1), same(x, y)});
            }
    return l;
}

// Two unknown ranks, rank(in_j) <= rank(in_p), stated rank by rank from
// `least` (below it, in_p's own least rank answers): not (rank(in_j) > r
// while rank(in_p) <= r).
void rank_not_above(Layout& l, int32_t j, int32_t p, std::size_t least) {
    for (std::size_t r = least; r < kMaxRank; ++r)
        l.clause({rank_atom(AtomKind::rank_le, j, static_cast<int64_t>(r)),
                  rank_atom(AtomKind::rank_ge, p, static_cast<int64_t>(r + 1))});
}

// UNIDIRECTIONAL and Broadcast NUMPY: the others right-aligned into `primary`.
Layout into_layout(const std::string& who, const PShape* in, std::size_t n,
                   std::size_t primary) {
    Layout l;
    l.who = who;
    const PShape& p = in[primary];
    const auto prim = static_cast<int32_t>(primary);
    std::size_t rank = p.rank;
    for (std::size_t j = 0; j < n; ++j) {
        if (j == primary) continue;
        const auto jj = static_cast<int32_t>(j);
        if (p.rank_known) {
            if (in[j].rank > p.rank) l.impossible = true;  // the static rule's rank refusal
            if (!in[j].rank_known) l.clause({rank_atom(AtomKind::rank_le, jj, static_cast<int64_t>(p.rank))});
        } else {
            rank = std::max(rank, in[j].rank);
        }
    }
    if (l.impossible) return l;
    if (!p.rank_known && rank > p.rank)
        l.clause({rank_atom(AtomKind::rank_ge, prim, static_cast<int64_t>(rank))});
    // Both ranks unknown: rank(in_j) <= rank(primary), and in_j's dims past
    // every known one are 1 or the primary's there.
    for (std::size_t j = 0; j < n && !p.rank_known; ++j) {
        if (j == primary || in[j].rank_known) continue;
        const auto jj = static_cast<int32_t>(j);
        rank_not_above(l, jj, prim, rank);
        for (std::size_t k = rank + 1; k <= kMaxRank; ++k) {
            Ref x, y;
            from_end(in, jj, k, &x);
            from_end(in, prim, k, &y);
            l.clause({is_value(x, 1), same(x, y)});
        }
    }
    l.out.rank_known = p.rank_known;
    l.out.rank = rank;
    for (std::size_t a = 0; a < rank; ++a) {
        l.column(ColumnKind::into, a);
        Ref r;
        from_end(in, prim, rank - a, &r);
        l.add(r, true);
        for (std::size_t j = 0; j < n; ++j)
            if (j != primary && from_end(in, static_cast<int32_t>(j), rank - a, &r)) l.add(r);
    }
    return l;
}

Layout none_layout(const PShape* in, std::size_t n) {
    Layout l;
    l.who = "none";
    std::ptrdiff_t known = -1;
    for (std::size_t j = 0; j < n; ++j) {
        if (!in[j].rank_known) continue;
        if (known < 0) known = static_cast<std::ptrdiff_t>(in[j].rank);
        if (in[j].rank != static_cast<std::size_t>(known)) l.impossible = true;
    }
    const std::size_t rank = known < 0 ? min_rank(in, n) : static_cast<std::size_t>(known);
    for (std::size_t j = 0; j < n; ++j) {
        if (in[j].rank_known || known < 0) continue;
        if (in[j].rank > rank) l.impossible = true;
        l.clause({rank_atom(AtomKind::rank_eq, static_cast<int32_t>(j), static_cast<int64_t>(rank))});
    }
    if (l.impossible) return l;
    // Every rank unknown: each equals input 0's, stated rank by rank ("if
    // rank(in0) == r then rank(in_j) == r"), and the dims past every known
    // one are equal too.
    for (std::size_t j = 0; j < n && known < 0; ++j)
        if (in[j].rank < rank)
            l.clause({rank_atom(AtomKind::rank_ge, static_cast<int32_t>(j), static_cast<int64_t>(rank))});
    for (std::size_t j = 1; j < n && known < 0; ++j) {
        const auto jj = static_cast<int32_t>(j);
        for (std::size_t r = rank; r < kMaxRank; ++r)
            l.clause({rank_atom(AtomKind::rank_le, 0, static_cast<int64_t>(r) - 1),
                      rank_atom(AtomKind::rank_ge, 0, static_cast<int64_t>(r) + 1),
                      rank_atom(AtomKind::rank_eq, jj, static_cast<int64_t>(r))});
        l.clause({rank_atom(AtomKind::rank_le, 0, static_cast<int64_t>(kMaxRank) - 1),
                  rank_atom(AtomKind::rank_eq, jj, static_cast<int64_t>(kMaxRank))});
        for (std::size_t k = rank + 1; k <= kMaxRank; ++k) {
            Ref x, y;
            from_end(in, jj, k, &x);
            from_end(in, 0, k, &y);
            l.clause({same(x, y)});
        }
    }
    l.out.rank_known = known >= 0;
    l.out.rank = rank;
    for (std::size_t a = 0; a < rank; ++a) {
        l.column(ColumnKind::equal, a);
        for (std::size_t j = 0; j < n; ++j) {
            Ref r;
            from_end(in, static_cast<int32_t>(j), rank - a, &r);
            l.add(r);
        }
    }
    return l;
}

// PDPD and ONNX_LEGACY: each B into A (input 0) from its start axis; the
// output is A. The columns are A's axes in order, so each gathers the B
// dims that land there.
struct Placed {
    std::size_t start = 0;
    bool skip = false;  // legacy: B is one element, it fits anywhere
};

void into_a_columns(Layout& l, const PShape* in, std::size_t n, const Placed* placed) {
    const PShape& a = in[0];
    l.out = a;
    for (std::size_t ax = 0; ax < a.rank; ++ax) {
        l.column(ColumnKind::into, ax);
        l.add(at(in, 0, ax), true);
        for (std::size_t j = 1; j < n; ++j) {
            if (placed[j].skip || ax < placed[j].start) continue;
            const std::size_t i = ax - placed[j].start;
            if (i < in[j].rank) l.add(at(in, static_cast<int32_t>(j), i));
        }
    }
}

// One B's placement into A (and its extra clauses); false when no values of
// the unknowns can place it (the static rule's own refusal then names it).
using PlaceFn = bool (*)(Layout& l, const PShape* in, int32_t j, int64_t axis, Placed* placed);

Layout into_a_layout(const char* who, int64_t axis, const PShape* in, std::size_t n,
                     PlaceFn place) {
    Layout l;
    l.who = who;
    require_known_ranks(who, in, n, "B is placed from A's axis");
    rules::detail::check_axis_argument(who, axis);
    std::array<Placed, kMaxInputs> placed{};
    for (std::size_t j = 1; j < n; ++j)
        if (in[j].rank > in[0].rank || !place(l, in, static_cast<int32_t>(j), axis, &placed[j])) {
            l.impossible = true;
            return l;
        }
    into_a_columns(l, in, n, placed.data());
    return l;
}

bool place_pdpd(Layout& l, const PShape* in, int32_t j, int64_t axis, Placed* placed) {
    const std::size_t ra = in[0].rank, rb = in[j].rank;
    placed->start = axis == -1 ? ra - rb : static_cast<std::size_t>(axis);
    if (placed->start > ra) return false;
    // B's dims past A's end must be 1s (the static rule drops B's trailing 1s).
    for (std::size_t i = ra - placed->start; i < rb; ++i) l.clause({is_value(at(in, j, i), 1)});
    return true;
}

bool all_static_ones(const PShape& s) {
    for (std::size_t i = 0; i < s.rank; ++i)
        if (!(s.dims[i].is_static() && s.dims[i].lo == 1)) return false;
    return true;
}

bool place_legacy(Layout& l, const PShape* in, int32_t j, int64_t axis, Placed* placed) {
    const PShape& b = in[j];
    placed->skip = all_static_ones(b);
    if (placed->skip) return true;
    const std::size_t room = in[0].rank - b.rank;
    const std::size_t start = axis == -1 ? room : static_cast<std::size_t>(axis);
    if (start > room) {
        // Only a one-element B fits at an axis outside [0, room].
        placed->skip = true;
        for (std::size_t i = 0; i < b.rank; ++i) l.clause({is_value(at(in, j, i), 1)});
        return true;
    }
    placed->start = start;
    // Interior 1s do not stretch: b[i] equals A there unless every b before
    // it or every b after it is 1 (it is then a leading or trailing 1, which
    // is dropped). In clauses: for k < i < m, b[i] == A or b[k] == 1 or
    // b[m] == 1.
    for (std::size_t i = 1; i + 1 < b.rank; ++i)
        for (std::size_t k = 0; k < i; ++k)
            for (std::size_t m = i + 1; m < b.rank; ++m)
                l.clause({is_value(at(in, j, k), 1), is_value(at(in, j, m), 1),
                          same(at(in, j, i), at(in, 0, start + i))});
    return true;
}

constexpr std::size_t kNcnnMaxRank = 4;

// ncnn (ncnn_rule.cpp): the lower-rank operand x on the outer axes, except a
// 1-D x that differs from y's outermost extent, which goes innermost. When
// that comparison is open, the first axis is y's either way and the last is
// y's or merge(x, y_last): the output takes the hull, and one clause states
// "x0 == y0, or x0 merges with y_last".
Layout ncnn_layout(const PShape* in, std::size_t n) {
    Layout l;
    l.who = "ncnn";
    if (n != 2) fail(BCAST_ERROR_INVALID_ARGUMENT, "ncnn: takes exactly 2 inputs, got " + std::to_string(n));
    require_known_ranks("ncnn", in, n, "the alignment depends on the ranks");
    for (std::size_t j = 0; j < n; ++j)
        if (in[j].rank > kNcnnMaxRank)
            fail(BCAST_ERROR_INVALID_ARGUMENT,
                 "ncnn: input " + std::to_string(j) + " has rank " + std::to_string(in[j].rank) +
                     "; ncnn's maximum rank is 4");
    const int32_t x = in[0].rank < in[1].rank ? 0 : 1;
    const int32_t y = 1 - x;
    const std::size_t rank = in[y].rank;
    const std::size_t rx = in[x].rank;
    l.out.rank = rank;
    std::size_t start = 0;
    bool open = false;
    if (rx == 1 && rx < rank) {
        const PDim& x0 = in[x].dims[0];
        const PDim& y0 = in[y].dims[0];
        const bool equal = (x0.sym != 0 && x0.sym == y0.sym) || (x0.is_static() && y0.is_static() && x0.lo == y0.lo);
        const bool differ = x0.hi < y0.lo || y0.hi < x0.lo;
        if (differ) start = rank - 1;
        open = !equal && !differ;
    }
    for (std::size_t a = 0; a < rank; ++a) {
        if (open && a + 1 == rank) break;
        l.column(ColumnKind::merge, a);
        l.add(at(in, y, a));
        if (!open && rx > 0 && a >= start && a - start < rx) l.add(at(in, x, a - start));
    }
    if (open) {
        const Ref x0 = at(in, x, 0), y0 = at(in, y, 0), ylast = at(in, y, rank - 1);
        // The inner placement's column, evaluated only for its output.
        Layout inner;
        inner.column(ColumnKind::merge, rank - 1);
        inner.add(ylast);
        inner.add(x0);
        PDim merged;
        std::size_t bx = 0, by = 0;
        PDim last = ylast.dim;
        if (column_output(inner.columns[0], inner.entries, &merged, &bx, &by)) {
            last.lo = std::min(last.lo, merged.lo);
            last.hi = std::max(last.hi, merged.hi);
            if (last.sym != merged.sym) last.sym = 0;
        }
        l.out.dims[rank - 1] = last;
        l.clause({same(x0, y0), is_value(x0, 1), is_value(ylast, 1), same(x0, ylast)});
    }
    return l;
}

Layout explicit_layout(const PShape* in, const int64_t* axes, std::size_t count, const Symbols& symbols) {
    const std::string who = "broadcast explicit";
    Layout l;
    l.who = who;
    require_known_ranks(who, in, 2, "axes_mapping names data axes");
    const PShape& data = in[0];
    const PShape& target = in[1];
    if (count > 0 && axes == nullptr)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": axes_mapping is NULL but axes_count is " + std::to_string(count));
    const auto target_text = [&] { return to_string(target, symbols); };
    l.out = target;
    if (data.rank == 0) {
        if (count > 1)
            fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": axes_mapping has " + std::to_string(count) +
                                                   " entries for rank-0 data (0 or 1 allowed)");
        if (count == 1) {
            rules::detail::check_mapping_entry(who, axes, 0, target.rank, target_text);
            l.clause({is_value(at(in, 1, static_cast<std::size_t>(axes[0])), 1)});
        }
        return l;
    }
    if (count != data.rank)
        fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": axes_mapping has " + std::to_string(count) +
                                               " entries but the data rank is " +
                                               std::to_string(data.rank));
    for (std::size_t i = 0; i < count; ++i)
        rules::detail::check_mapping_entry(who, axes, i, target.rank, target_text);
    std::size_t i = 0;  // sorted: each target axis takes a run of data axes
    for (std::size_t a = 0; a < target.rank; ++a) {
        l.column(ColumnKind::into, a);
        l.add(at(in, 1, a), true);
        for (; i < count && static_cast<std::size_t>(axes[i]) == a; ++i) l.add(at(in, 0, i));
    }
    return l;
}

// Broadcast PDPD (expand_rules.cpp): data placed at `axis` of the target,
// merged both ways there; data axes past the target's end must be 1.
Layout expand_pdpd_layout(const PShape* in, int64_t axis) {
    const std::string who = "broadcast pdpd";
    rules::detail::check_axis_argument(who, axis);
    if (axis == -1 && !in[0].rank_known && !in[1].rank_known) {
        // The default axis right-aligns: numpy's merge, with rank(data) <=
        // rank(target).
        Layout l = numpy_layout(who, in, 2);
        if (in[1].rank < l.out.rank)
            l.clause({rank_atom(AtomKind::rank_ge, 1, static_cast<int64_t>(l.out.rank))});
        rank_not_above(l, 0, 1, l.out.rank);
        return l;
    }
    Layout l;
    l.who = who;
    require_known_ranks(who, in, 2, "data is placed from the target's axis");
    const PShape& data = in[0];
    const PShape& target = in[1];
    const int64_t rd = static_cast<int64_t>(data.rank), rt = static_cast<int64_t>(target.rank);
    const int64_t first = axis == -1 ? rt - rd : axis;
    if (first < 0) {
        l.impossible = true;
        return l;
    }
    const std::size_t start = static_cast<std::size_t>(std::min(first, rt));
    l.out = target;
    for (std::size_t a = start; a < target.rank; ++a) {
        l.column(ColumnKind::merge, a);
        l.add(at(in, 1, a));
        if (a - start < data.rank) l.add(at(in, 0, a - start));
    }
    for (std::size_t j = target.rank - start; j < data.rank; ++j)
        l.clause({is_value(at(in, 0, j), 1)});
    return l;
}

}  // namespace

Layout layout_elementwise(bcast_rule rule, int64_t axis, const PShape* in, std::size_t n) {
    switch (rule) {
        case BCAST_RULE_NONE: return none_layout(in, n);
        case BCAST_RULE_NUMPY: return numpy_layout("numpy", in, n);
        case BCAST_RULE_UNIDIRECTIONAL: return into_layout("unidirectional", in, n, 0);
        // The default axis puts B at A's end: unidirectional's alignment,
        // which takes unknown ranks as they are.
        case BCAST_RULE_PDPD:
            return axis == -1 ? into_layout("pdpd", in, n, 0)
                              : into_a_layout("pdpd", axis, in, n, place_pdpd);
        case BCAST_RULE_ONNX_LEGACY: return into_a_layout("onnx_legacy", axis, in, n, place_legacy);
        default: return ncnn_layout(in, n);
    }
}

Layout layout_expand(bcast_expand_mode mode, const PShape* in, const int64_t* axes_mapping,
                     std::size_t axes_count, int64_t axis, const Symbols& symbols) {
    switch (mode) {
        case BCAST_EXPAND_NUMPY: return into_layout("broadcast numpy", in, 2, 1);
        case BCAST_EXPAND_BIDIRECTIONAL: return numpy_layout("broadcast bidirectional", in, 2);
        case BCAST_EXPAND_EXPLICIT: return explicit_layout(in, axes_mapping, axes_count, symbols);
        default: return expand_pdpd_layout(in, axis);
    }
}

}  // namespace bcast::rules::partial::detail
