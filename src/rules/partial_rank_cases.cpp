// Strict semantics where an unknown rank decides a rule's alignment (pdpd
// and onnx_legacy at an axis, ncnn, Broadcast explicit and pdpd): every
// combination of the ranks planned by partial_rank_ranges.cpp is solved as
// known-rank shapes whose unknown leading dims are anonymous, and the answers
// are joined into one:
//  * a combination is a cell of a grid (one axis per enumerated input);
//  * a clause needed in some cells holds unless the ranks lie outside a box
//    of cells covering them ("rank(in1) <= 1 or rank(in1) >= 4 or ..."); a
//    box may also take cells where the clause is surely true (an axis the
//    input lacks reads 1) or that no values accept;
//  * cells that no values accept are excluded by rank clauses, boxes again;
//  * the output is the hull of the accepted cells' outputs, dim by dim from
//    the last.
// A dim is named the same way in every cell (its known dims from the end,
// its leading dims as the plan says), so that equal clauses merge.
#include "rules/partial_util.hpp"

#include <cstdint>
#include <map>
#include <tuple>

namespace bcast::rules::partial::detail {
namespace {

// More cells than this: UNSUPPORTED (each is a solve, and the clauses grow
// with them).
constexpr std::size_t kMaxCells = 256;

struct Grid {
    std::vector<int32_t> input;  // the enumerated inputs
    std::vector<RankRange> range;
    std::size_t cells = 1;

    std::size_t extent(std::size_t d) const { return range[d].hi - range[d].lo + 1; }

    // Cell index <-> one index per grid axis (axis 0 fastest).
    std::vector<std::size_t> coords(std::size_t cell) const {
        std::vector<std::size_t> c(input.size());
        for (std::size_t d = 0; d < c.size(); ++d) {
            c[d] = cell % extent(d);
            cell /= extent(d);
        }
        return c;
    }
    std::size_t cell(const std::vector<std::size_t>& c) const {
        std::size_t k = 0;
        for (std::size_t d = c.size(); d-- > 0;) k = k * extent(d) + c[d];
        return k;
    }
    bool at_tail(std::size_t cell, std::size_t d) const {
        return range[d].tail && coords(cell)[d] + 1 == extent(d);
    }
};

struct Box {
    std::vector<std::size_t> lo, hi;  // per grid axis, inclusive
};

template <class Fn>
void for_each_cell(const Grid& g, const Box& b, Fn fn) {
    std::vector<std::size_t> c = b.lo;
    while (true) {
        fn(g.cell(c));
        std::size_t d = 0;
        while (d < c.size() && c[d] == b.hi[d]) c[d] = b.lo[d], ++d;
        if (d == c.size()) return;
        ++c[d];
    }
}

// Covers the cells of `target` with boxes lying inside `allowed` (a
// superset), greedily: each uncovered target cell grows a box one grid axis
// at a time, as far as `allowed` lets it.
std::vector<Box> cover(const Grid& g, const std::vector<bool>& target,
                       const std::vector<bool>& allowed) {
    std::vector<Box> boxes;
    std::vector<bool> covered(g.cells, false);
    for (std::size_t k = 0; k < g.cells; ++k) {
        if (!target[k] || covered[k]) continue;
        Box b{g.coords(k), g.coords(k)};
        const auto fits = [&](const Box& t) {
            bool ok = true;
            for_each_cell(g, t, [&](std::size_t c) { ok = ok && allowed[c]; });
            return ok;
        };
        for (std::size_t d = 0; d < b.lo.size(); ++d) {
            for (Box t = b; t.hi[d] + 1 < g.extent(d);) {
                t.lo[d] = t.hi[d] = b.hi[d] + 1;
                if (!fits(t)) break;
                ++b.hi[d];
            }
            for (Box t = b; b.lo[d] > 0;) {
                t.lo[d] = t.hi[d] = b.lo[d] - 1;
                if (!fits(t)) break;
                --b.lo[d];
            }
        }
        for_each_cell(g, b, [&](std::size_t c) { covered[c] = true; });
        boxes.push_back(b);
    }
    return boxes;
}

// "The ranks lie outside the box", as rank atoms.
std::vector<IAtom> outside(const Grid& g, const Box& b) {
    std::vector<IAtom> atoms;
    for (std::size_t d = 0; d < b.lo.size(); ++d) {
        const auto first = static_cast<int64_t>(g.range[d].lo);
        if (b.lo[d] > 0)
            atoms.push_back(rank_atom(AtomKind::rank_le, g.input[d], first + static_cast<int64_t>(b.lo[d]) - 1));
        if (b.hi[d] + 1 < g.extent(d))
            atoms.push_back(rank_atom(AtomKind::rank_ge, g.input[d], first + static_cast<int64_t>(b.hi[d]) + 1));
    }
    return atoms;
}

// Input j's shape at rank r: r - known leading dims, anonymous, then its
// known last dims.
PShape at_rank(const PShape& s, std::size_t r) {
    PShape c;
    c.rank = r;
    for (std::size_t i = 0; i < s.rank; ++i) c.dims[r - s.rank + i] = s.dims[i];
    return c;
}

struct Namer {
    const PShape* inputs;
    const std::vector<std::ptrdiff_t>* grid_axis;  // per input: its grid axis, or -1
    const Grid* grid;

    // A cell's axis to the name every cell shares.
    void name(Ref* r, const PShape* cell) const {
        const std::ptrdiff_t d = (*grid_axis)[static_cast<std::size_t>(r->input)];
        if (d < 0) return;
        const auto rank = static_cast<int64_t>(cell[r->input].rank);
        const auto known = static_cast<int64_t>(inputs[r->input].rank);
        if (r->axis >= rank - known || !grid->range[static_cast<std::size_t>(d)].from_start)
            r->axis -= rank;
    }

    // The dim a shared name reads in a cell (absent: 1).
    Ref read(Ref r, const PShape* cell) const {
        const PShape& s = cell[r.input];
        const auto rank = static_cast<int64_t>(s.rank);
        const int64_t i = r.axis >= 0 ? r.axis : rank + r.axis;
        r.axis = i;
        r.dim = i >= 0 && i < rank ? s.dims[static_cast<std::size_t>(i)] : known(1);
        return r;
    }
};

using AtomKey = std::tuple<int, int32_t, int64_t, int32_t, int64_t, int64_t>;

AtomKey key_of(const IAtom& a) {
    const bool two = a.kind == AtomKind::dim_eq_dim;
    return AtomKey{static_cast<int>(a.kind), a.a.input, a.a.axis, two ? a.b.input : 0,
                   two ? a.b.axis : 0, two ? 0 : a.value};
}

struct SharedClause {
    std::vector<IAtom> atoms;  // named as every cell names them
    std::vector<bool> needed;  // per cell
};

PDim hull(const PDim& x, const PDim& y) {
    PDim h{std::min(x.lo, y.lo), std::max(x.hi, y.hi), x.sym == y.sym ? x.sym : 0};
    return h;
}

}  // namespace

Inference solve_ranks(const RankRanges& ranges, const LayoutOf& layout, const PShape* inputs,
                      std::size_t n, const Symbols& symbols, StaticCheck check,
                      const void* context) {
    Grid g;
    std::vector<std::ptrdiff_t> grid_axis(n, -1);
    for (std::size_t j = 0; j < n; ++j) {
        if (!ranges[j].enumerate) continue;
        grid_axis[j] = static_cast<std::ptrdiff_t>(g.input.size());
        g.input.push_back(static_cast<int32_t>(j));
        g.range.push_back(ranges[j]);
        g.cells *= g.extent(g.input.size() - 1);
        if (g.cells > kMaxCells)
            fail(BCAST_ERROR_UNSUPPORTED,
                 "strict inference enumerates the unknown ranks of " + shapes_text(inputs, n, symbols) +
                     " and would need more than " + std::to_string(kMaxCells) +
                     " combinations of them");
    }
    const Namer namer{inputs, &grid_axis, &g};

    std::string who, first_refusal;
    std::vector<std::array<PShape, kMaxInputs>> cell_shapes(g.cells);
    std::vector<bool> feasible(g.cells, false);
    std::vector<PShape> outs(g.cells);
    std::vector<SharedClause> shared;
    std::map<std::vector<AtomKey>, std::size_t> index;
    for (std::size_t k = 0; k < g.cells; ++k) {
        auto& shapes = cell_shapes[k];
        const std::vector<std::size_t> c = g.coords(k);
        for (std::size_t j = 0; j < n; ++j) {
            const std::ptrdiff_t d = grid_axis[j];
            shapes[j] = d < 0 ? inputs[j] : at_rank(inputs[j], g.range[d].lo + c[d]);
        }
        Solved s;
        try {
            const Layout l = layout(shapes.data());
            who = l.who;
            s = solve_clauses(l, shapes.data(), n, symbols, check, context);
        } catch (const Error& e) {
            if (e.status() != BCAST_ERROR_INCOMPATIBLE_SHAPES) throw;
            if (first_refusal.empty()) first_refusal = e.what();
            continue;
        }
        feasible[k] = true;
        outs[k] = s.out;
        for (const auto& r : s.clauses.ranges) {
            std::vector<IAtom> atoms(s.clauses.atoms.begin() + static_cast<std::ptrdiff_t>(r.first),
                                     s.clauses.atoms.begin() + static_cast<std::ptrdiff_t>(r.second));
            std::vector<AtomKey> key;
            for (IAtom& a : atoms) {
                namer.name(&a.a, shapes.data());
                if (a.kind == AtomKind::dim_eq_dim) namer.name(&a.b, shapes.data());
                key.push_back(key_of(a));
            }
            std::sort(key.begin(), key.end());
            const auto found = index.emplace(key, shared.size());
            if (found.second) shared.push_back(SharedClause{atoms, std::vector<bool>(g.cells, false)});
            shared[found.first->second].needed[k] = true;
        }
    }
    if (std::none_of(feasible.begin(), feasible.end(), [](bool f) { return f; }))
        fail(BCAST_ERROR_INCOMPATIBLE_SHAPES,
             (who.empty() ? std::string("strict") : who) + ": no ranks and values of the unknowns make " +
                 shapes_text(inputs, n, symbols) + " acceptable; at the least ranks: " +
                 first_refusal);

    // Only the accepted cells' bounding box matters; the range clauses
    // exclude the ranks outside it.
    Grid box = g;
    box.cells = 1;
    std::vector<std::size_t> low(g.input.size(), SIZE_MAX), high(g.input.size(), 0);
    for (std::size_t k = 0; k < g.cells; ++k) {
        if (!feasible[k]) continue;
        const std::vector<std::size_t> c = g.coords(k);
        for (std::size_t d = 0; d < c.size(); ++d) {
            low[d] = std::min(low[d], c[d]);
            high[d] = std::max(high[d], c[d]);
        }
    }
    for (std::size_t d = 0; d < g.input.size(); ++d) {
        box.range[d].tail = g.range[d].tail && high[d] + 1 == g.extent(d);
        box.range[d].hi = g.range[d].lo + high[d];
        box.range[d].lo = g.range[d].lo + low[d];
        box.cells *= box.extent(d);
    }
    std::vector<std::size_t> full(box.cells);
    for (std::size_t k = 0; k < box.cells; ++k) {
        std::vector<std::size_t> c = box.coords(k);
        for (std::size_t d = 0; d < c.size(); ++d) c[d] += low[d];
        full[k] = g.cell(c);
    }

    Solved joined;
    Clauses& cl = joined.clauses;
    const auto add = [&](const std::vector<IAtom>& atoms) {
        if (!cl.add(atoms.begin(), atoms.end(), inputs))
            fail(BCAST_ERROR_INTERNAL, who + ": a joined clause over unknown ranks is empty");
    };
    for (std::size_t d = 0; d < box.input.size(); ++d) {
        const RankRange& r = box.range[d];
        if (!r.tail && r.lo == r.hi) {
            add({rank_atom(AtomKind::rank_eq, box.input[d], static_cast<int64_t>(r.lo))});
            continue;
        }
        add({rank_atom(AtomKind::rank_ge, box.input[d], static_cast<int64_t>(r.lo))});
        if (!r.tail && r.hi < kMaxRank)
            add({rank_atom(AtomKind::rank_le, box.input[d], static_cast<int64_t>(r.hi))});
    }
    std::vector<bool> refused(box.cells);
    for (std::size_t k = 0; k < box.cells; ++k) refused[k] = !feasible[full[k]];
    for (const Box& b : cover(box, refused, refused)) add(outside(box, b));
    for (const SharedClause& sc : shared) {
        std::vector<bool> needed(box.cells), allowed = refused;
        for (std::size_t k = 0; k < box.cells; ++k) {
            const std::size_t f = full[k];
            needed[k] = sc.needed[f];
            if (allowed[k] || needed[k]) {
                allowed[k] = true;
                continue;
            }
            for (const IAtom& a : sc.atoms) {
                IAtom at = a;
                at.a = namer.read(a.a, cell_shapes[f].data());
                if (a.kind == AtomKind::dim_eq_dim) at.b = namer.read(a.b, cell_shapes[f].data());
                if (eval(at, cell_shapes[f].data()) == Truth::yes) allowed[k] = true;
            }
        }
        for (const Box& b : cover(box, needed, allowed)) {
            std::vector<IAtom> atoms = sc.atoms;
            const std::vector<IAtom> guard = outside(box, b);
            atoms.insert(atoms.end(), guard.begin(), guard.end());
            add(atoms);
        }
    }

    // The output: its rank is known when every accepted cell gives the same
    // and none stands for a run of ranks (a tail: the planned input is the
    // one whose shape the output takes). A tail named from the first axis
    // shifts its leading dims with the rank: those read unknown.
    bool rank_known = true;
    std::size_t least = kMaxRank;
    std::ptrdiff_t first = -1;
    for (std::size_t k = 0; k < g.cells; ++k) {
        if (!feasible[k]) continue;
        if (first < 0) first = static_cast<std::ptrdiff_t>(k);
        if (outs[k].rank != outs[static_cast<std::size_t>(first)].rank) rank_known = false;
        for (std::size_t d = 0; d < g.input.size(); ++d)
            if (g.at_tail(k, d)) rank_known = false;
        least = std::min(least, outs[k].rank);
    }
    PShape& out = joined.out;
    out.rank_known = rank_known;
    out.rank = least;
    bool seen = false;
    for (std::size_t k = 0; k < g.cells; ++k) {
        if (!feasible[k]) continue;
        std::size_t stable = outs[k].rank;
        for (std::size_t d = 0; d < g.input.size(); ++d)
            if (g.at_tail(k, d) && g.range[d].from_start)
                stable = std::min(stable, inputs[g.input[d]].rank);
        for (std::size_t m = 1; m <= least; ++m) {
            const PDim d = m <= stable ? outs[k].dims[outs[k].rank - m] : PDim{};
            PDim& o = out.dims[least - m];
            o = seen ? hull(o, d) : d;
        }
        seen = true;
    }
    return to_inference(who, joined, inputs, n, symbols);
}

}  // namespace bcast::rules::partial::detail
