// Strict semantics, part 2: a layout (partial_layout.cpp) to the tightest
// output per column, the clauses that remain for run time, and a refusal
// exactly when no values of the unknowns make the static rule accept.
//
// Per column: entries whose interval excludes 1 are forced; with any forced,
// the output is their intersection and every other entry must be 1 or equal
// to it; without, the output is the hull and every two entries must be
// equal or one of them 1 (numpy's rule, pairwise). Atoms that the intervals
// and symbols already decide are dropped; a clause left empty refuses.
// Clauses that share symbols across columns go to a search (partial_search.cpp).
#include "rules/partial_util.hpp"
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::partial::detail {
namespace {

Truth eval_rank(const PShape& s, AtomKind k, int64_t v) {
    const auto r = static_cast<int64_t>(s.rank);
    if (s.rank_known) {
        const bool t = k == AtomKind::rank_eq ? r == v : k == AtomKind::rank_ge ? r >= v : r <= v;
        return t ? Truth::yes : Truth::no;
    }
    if (k == AtomKind::rank_ge) return r >= v ? Truth::yes : Truth::open;
    return v < r ? Truth::no : Truth::open;  // rank_eq, rank_le: the rank is >= r
}

}  // namespace

Truth eval(const IAtom& a, const PShape* inputs) {
    switch (a.kind) {
        case AtomKind::dim_eq_value:
            if (a.a.dim.is_static()) return a.a.dim.lo == a.value ? Truth::yes : Truth::no;
            return a.a.dim.has(a.value) ? Truth::open : Truth::no;
        case AtomKind::dim_eq_dim: {
            const PDim &x = a.a.dim, &y = a.b.dim;
            if ((x.sym != 0 && x.sym == y.sym) || (a.a.input == a.b.input && a.a.axis == a.b.axis))
                return Truth::yes;
            if (x.is_static() && y.is_static()) return x.lo == y.lo ? Truth::yes : Truth::no;
            return x.hi < y.lo || y.hi < x.lo ? Truth::no : Truth::open;
        }
        default: return eval_rank(inputs[a.a.input], a.kind, a.value);
    }
}

namespace {

bool is_one(const PDim& d) { return d.lo == 1 && d.hi == 1; }
bool forced(const PDim& d) { return !d.has(1); }

bool intersect(PDim* into, const PDim& d) {
    into->lo = std::max(into->lo, d.lo);
    into->hi = std::min(into->hi, d.hi);
    if (into->sym == 0) into->sym = d.sym;
    return into->lo <= into->hi;
}

// The entry every other one is compared with: into's primary; else a known
// forced extent if there is one (conditions then read "N == 3"), else the
// first forced entry, else (equal) the first entry. -1: merge without forced.
std::ptrdiff_t anchor_of(const ColumnSpec& c, const std::vector<Ref>& e) {
    if (c.kind == ColumnKind::into) return c.anchor;
    std::ptrdiff_t first_forced = -1;
    for (std::size_t i = c.begin; i < c.end; ++i) {
        const PDim& d = e[i].dim;
        const bool candidate = c.kind == ColumnKind::equal ? true : forced(d);
        if (!candidate) continue;
        if (d.is_static()) return static_cast<std::ptrdiff_t>(i);
        if (first_forced < 0) first_forced = static_cast<std::ptrdiff_t>(i);
    }
    return first_forced;
}

// x == y, written against a known extent where one side has one.
IAtom equal_atom(const Ref& x, const Ref& y) {
    if (y.dim.is_static()) return is_value(x, y.dim.lo);
    if (x.dim.is_static()) return is_value(y, x.dim.lo);
    return same(x, y);
}

std::string dim_text(const Ref& r, const Symbols& symbols) { return to_string(r.dim, symbols); }

std::string pair_shapes(const PShape* inputs, int32_t a, int32_t b, const Symbols& symbols) {
    if (a == b) return "shape " + to_string(inputs[a], symbols);
    return "shapes " + to_string(inputs[a], symbols) + " and " + to_string(inputs[b], symbols);
}

[[noreturn]] void refuse_column(const Layout& l, const ColumnSpec& c, const Ref& x, const Ref& y,
                                const PShape* inputs, const Symbols& symbols) {
    std::string hint;
    if (!l.out.rank_known)
        hint = "dimension counted within the output's last " + std::to_string(l.out.rank);
    rules::detail::refuse_dim(l.who, c.out_axis, dim_text(x, symbols), dim_text(y, symbols),
                              pair_shapes(inputs, x.input, y.input, symbols), hint);
}

// A static assignment within the declared intervals (symbols consistent:
// their interval is the dims'), every unknown rank at its least: when no
// assignment works, the static rule's refusal of this one is the message.
int64_t sample(const PDim& d) { return d.lo >= 1 ? d.lo : std::min<int64_t>(d.hi, 1); }

[[noreturn]] void refuse_by_example(const Layout& l, const PShape* inputs, std::size_t n,
                                    const Symbols& symbols, StaticCheck check,
                                    const void* context) {
    std::array<Shape, kMaxInputs> shapes{};
    for (std::size_t j = 0; j < n; ++j) {
        shapes[j].rank = inputs[j].rank;
        for (std::size_t i = 0; i < inputs[j].rank; ++i) shapes[j][i] = sample(inputs[j].dims[i]);
    }
    const std::string all = shapes_text(inputs, n, symbols);
    try {
        check(context, shapes.data(), n);
    } catch (const Error& e) {
        fail(e.status(), l.who + ": no values of the unknown dimensions make " + all +
                             " acceptable; for example " + e.what());
    }
    fail(BCAST_ERROR_INTERNAL, l.who + ": strict inference refused " + all +
                                   " but the static rule accepts an example of them");
}

void column_clauses(const ColumnSpec& c, const std::vector<Ref>& e, Clauses* out,
                    const PShape* inputs, const Layout& l, const Symbols& symbols) {
    const std::ptrdiff_t anchor = anchor_of(c, e);
    if (anchor >= 0) {
        const Ref& p = e[static_cast<std::size_t>(anchor)];
        for (std::size_t i = c.begin; i < c.end; ++i) {
            if (static_cast<std::ptrdiff_t>(i) == anchor) continue;
            const Ref& x = e[i];
            const bool ok = c.kind == ColumnKind::equal
                                ? out->add({equal_atom(x, p)}, inputs)
                                : out->add({is_value(x, 1), equal_atom(x, p)}, inputs);
            if (!ok) refuse_column(l, c, p, x, inputs, symbols);
        }
        return;
    }
    for (std::size_t i = c.begin; i < c.end; ++i)
        for (std::size_t k = i + 1; k < c.end; ++k)
            if (!out->add({is_value(e[i], 1), is_value(e[k], 1), equal_atom(e[i], e[k])}, inputs))
                refuse_column(l, c, e[i], e[k], inputs, symbols);
}

}  // namespace

bool column_output(const ColumnSpec& c, const std::vector<Ref>& e, PDim* out, std::size_t* bad_x,
                   std::size_t* bad_y) {
    const std::ptrdiff_t anchor = anchor_of(c, e);
    if (anchor >= 0) {
        const auto p = static_cast<std::size_t>(anchor);
        *out = e[p].dim;
        for (std::size_t i = c.begin; i < c.end; ++i) {
            // into / merge: an entry that may be 1 may stay 1; equal: all meet.
            if (i == p || (c.kind != ColumnKind::equal && !forced(e[i].dim))) continue;
            if (!intersect(out, e[i].dim)) {
                *bad_x = p;
                *bad_y = i;
                return false;
            }
        }
        return true;
    }
    // merge with nothing forced: the output is 1 when all are, else the one
    // entry that is not surely 1, else the hull (named if they share a symbol).
    std::size_t count = 0;
    for (std::size_t i = c.begin; i < c.end; ++i) {
        const PDim& d = e[i].dim;
        if (is_one(d)) continue;
        if (count++ == 0) {
            *out = d;
            continue;
        }
        out->lo = std::min(out->lo, d.lo);
        out->hi = std::max(out->hi, d.hi);
        if (out->sym != d.sym) out->sym = 0;
    }
    if (count == 0) *out = known(1);
    return true;
}

Solved solve_clauses(const Layout& l, const PShape* inputs, std::size_t n, const Symbols& symbols,
                     StaticCheck check, const void* context) {
    if (l.impossible) refuse_by_example(l, inputs, n, symbols, check, context);
    Solved r;
    r.out = l.out;
    Clauses& cl = r.clauses;
    for (const ColumnSpec& c : l.columns) {
        std::size_t bx = 0, by = 0;
        if (!column_output(c, l.entries, &r.out.dims[c.out_axis], &bx, &by))
            refuse_column(l, c, l.entries[bx], l.entries[by], inputs, symbols);
        column_clauses(c, l.entries, &cl, inputs, l, symbols);
    }
    for (const auto& range : l.clauses)
        if (!cl.add(l.atoms.begin() + static_cast<std::ptrdiff_t>(range.first),
                    l.atoms.begin() + static_cast<std::ptrdiff_t>(range.second), inputs))
            refuse_by_example(l, inputs, n, symbols, check, context);
    if (!cl.ranges.empty() && !satisfiable(cl.atoms, cl.ranges, inputs, n))
        refuse_by_example(l, inputs, n, symbols, check, context);
    return r;
}

Inference to_inference(const std::string& who, const Solved& s, const PShape* inputs,
                       std::size_t n, const Symbols& symbols) {
    const Clauses& cl = s.clauses;
    if (cl.atoms.size() > kMaxConditionAtoms)
        fail(BCAST_ERROR_UNSUPPORTED,
             who + ": " + std::to_string(cl.atoms.size()) + " condition atoms for " +
                 shapes_text(inputs, n, symbols) + "; at most " +
                 std::to_string(kMaxConditionAtoms) + " are returned");
    Inference inf;
    inf.out = s.out;
    inf.conditions.resize(cl.atoms.size());
    for (std::size_t k = 0; k < cl.ranges.size(); ++k)
        for (std::size_t i = cl.ranges[k].first; i < cl.ranges[k].second; ++i) {
            const IAtom& a = cl.atoms[i];
            Atom& o = inf.conditions[i];
            o.clause = static_cast<uint32_t>(k);
            o.kind = a.kind;
            o.input = a.a.input;
            o.axis = a.a.axis;
            o.other_input = a.kind == AtomKind::dim_eq_dim ? a.b.input : 0;
            o.other = a.kind == AtomKind::dim_eq_dim ? a.b.axis : a.value;
        }
    return inf;
}

Inference solve(const Layout& l, const PShape* inputs, std::size_t n, const Symbols& symbols,
                StaticCheck check, const void* context) {
    return to_inference(l.who, solve_clauses(l, inputs, n, symbols, check, context), inputs, n,
                        symbols);
}

}  // namespace bcast::rules::partial::detail
