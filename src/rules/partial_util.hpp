// Private to src/rules' partial-shape files: the strict engine's layout (what
// each rule compares with what), the engine that turns a layout into an
// output and conditions, and the semantics' entry points.
#pragma once

#include "core/error.hpp"
#include "rules/partial.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace bcast::rules::partial::detail {

// One dimension of one input, as a condition names it (axis as in Atom), and
// what is known about it.
struct Ref {
    int32_t input = 0;
    int64_t axis = 0;
    PDim dim;
};

struct IAtom {
    AtomKind kind = AtomKind::dim_eq_value;
    Ref a;
    Ref b;  // dim_eq_dim
    int64_t value = 0;
};

inline IAtom is_value(const Ref& r, int64_t v) { return IAtom{AtomKind::dim_eq_value, r, {}, v}; }
inline IAtom same(const Ref& a, const Ref& b) { return IAtom{AtomKind::dim_eq_dim, a, b, 0}; }
inline IAtom rank_atom(AtomKind k, int32_t input, int64_t v) {
    Ref r;
    r.input = input;
    return IAtom{k, r, {}, v};
}

inline bool same_ref(const Ref& x, const Ref& y) { return x.input == y.input && x.axis == y.axis; }
inline bool same_atom(const IAtom& x, const IAtom& y) {
    return x.kind == y.kind && same_ref(x.a, y.a) && x.value == y.value &&
           (x.kind != AtomKind::dim_eq_dim || same_ref(x.b, y.b));
}

enum class Truth { no, yes, open };

// What the intervals, symbols and ranks of `inputs` already decide about an
// atom (a rank atom reads inputs[atom's input]).
Truth eval(const IAtom& a, const PShape* inputs);

// CNF under construction: clauses as [begin, end) ranges of atoms.
struct Clauses {
    std::vector<IAtom> atoms;
    std::vector<std::pair<std::size_t, std::size_t>> ranges;

    // Adds the clause minus its false atoms; false when it is left empty.
    // A clause with a true atom holds already and is not kept.
    template <class It>
    bool add(It begin, It end, const PShape* inputs) {
        const std::size_t start = atoms.size();
        for (It it = begin; it != end; ++it) {
            const Truth t = eval(*it, inputs);
            if (t == Truth::yes) {
                atoms.resize(start);
                return true;
            }
            if (t == Truth::open && std::none_of(atoms.begin() + static_cast<std::ptrdiff_t>(start),
                                                 atoms.end(), [&](const IAtom& a) { return same_atom(a, *it); }))
                atoms.push_back(*it);
        }
        if (atoms.size() == start) return false;
        ranges.emplace_back(start, atoms.size());
        return true;
    }
    bool add(std::initializer_list<IAtom> list, const PShape* inputs) {
        return add(list.begin(), list.end(), inputs);
    }
};

// merge: numpy (every entry 1 or the common extent, which is the output);
// into: the anchor is the output, every other entry is 1 or equal to it;
// equal: every entry equals the anchor (rule none).
enum class ColumnKind { merge, into, equal };

struct ColumnSpec {
    ColumnKind kind = ColumnKind::merge;
    std::size_t out_axis = 0;
    std::size_t begin = 0, end = 0;  // entries
    std::ptrdiff_t anchor = -1;      // index into entries (into, equal)
};

// What a rule compares, built by partial_layout.cpp, solved by
// partial_strict.cpp.
struct Layout {
    std::string who;  // the rule's name in messages
    PShape out;       // rank and the dims no column sets
    std::vector<Ref> entries;
    std::vector<ColumnSpec> columns;
    std::vector<IAtom> atoms;                                     // extra clauses
    std::vector<std::pair<std::size_t, std::size_t>> clauses;     // [begin, end) of atoms
    // Every assignment is refused whatever the unknowns are (a rank or axis
    // misfit); the static rule's own refusal names it.
    bool impossible = false;

    void column(ColumnKind kind, std::size_t out_axis);
    void add(const Ref& r, bool anchor = false);
    void clause(std::initializer_list<IAtom> atoms);
};

// Input j's dimension k-th from its end (k >= 1): its own when it surely has
// one there, an unknown one (absent reads as 1) when its rank is unknown and
// may be too small. False when its known rank is below k.
bool from_end(const PShape* inputs, int32_t j, std::size_t k, Ref* out);
// Input j's axis i of a known-rank input.
Ref at(const PShape* inputs, int32_t j, std::size_t i);

// The output extent of a column, or false with the two entries that conflict
// (indices into `entries`).
bool column_output(const ColumnSpec& c, const std::vector<Ref>& entries, PDim* out,
                   std::size_t* bad_x, std::size_t* bad_y);

// The strict rules' layouts.
Layout layout_elementwise(bcast_rule rule, int64_t axis, const PShape* inputs, std::size_t n);
// symbols: for the messages that print the target.
Layout layout_expand(bcast_expand_mode mode, const PShape* in /* data, target */,
                     const int64_t* axes_mapping, std::size_t axes_count, int64_t axis,
                     const Symbols& symbols);

// Solves a layout: output, conditions, refusal when no assignment works.
// `refuse_static` gets a static assignment that every condition rejects and
// must throw the static rule's refusal for it.
using StaticCheck = void (*)(const void* context, const Shape* shapes, std::size_t n);
Inference solve(const Layout& layout, const PShape* inputs, std::size_t n,
                const Symbols& symbols, StaticCheck check, const void* context);

// solve in two steps: the output and clauses (throws the refusal), then the
// public form (UNSUPPORTED past kMaxConditionAtoms).
struct Solved {
    PShape out;
    Clauses clauses;
};
Solved solve_clauses(const Layout& layout, const PShape* inputs, std::size_t n,
                     const Symbols& symbols, StaticCheck check, const void* context);
Inference to_inference(const std::string& who, const Solved& solved, const PShape* inputs,
                       std::size_t n, const Symbols& symbols);

// Unknown ranks where a rule's alignment depends on them
// (partial_rank_ranges.cpp plans, partial_rank_cases.cpp solves): each
// enumerated input takes every rank in [lo, hi]; `tail`: hi stands for every
// rank >= hi (the rule's answer no longer changes there); `from_start`:
// conditions name its unknown leading dims from its first axis, else from
// its last.
struct RankRange {
    bool enumerate = false;
    std::size_t lo = 0, hi = 0;
    bool tail = false;
    bool from_start = false;
};
using RankRanges = std::vector<RankRange>;

// Empty: no rank needs enumerating (the layout takes the shapes as they are).
// Throws UNSUPPORTED where the ranks are not bounded enough to enumerate.
RankRanges rank_ranges_elementwise(bcast_rule rule, int64_t axis, const PShape* inputs,
                                   std::size_t n);
RankRanges rank_ranges_expand(bcast_expand_mode mode, const PShape* in /* data, target */,
                              const int64_t* axes_mapping, std::size_t axes_count,
                              int64_t axis);

// Solves every combination of ranks as known-rank shapes through `layout`
// and joins the answers: each clause guarded by rank atoms, combinations
// that no values make acceptable excluded, the output the hull per dim.
using LayoutOf = std::function<Layout(const PShape* inputs)>;
Inference solve_ranks(const RankRanges& ranges, const LayoutOf& layout, const PShape* inputs,
                      std::size_t n, const Symbols& symbols, StaticCheck check,
                      const void* context);

// Whether the conditions can all hold for some values within the declared
// intervals (symbols shared): a search over which atom makes each clause
// true. False only when proved impossible; true when the search budget runs
// out.
bool satisfiable(const std::vector<IAtom>& atoms,
                 const std::vector<std::pair<std::size_t, std::size_t>>& clauses,
                 const PShape* inputs, std::size_t n);

// The other two semantics.
Inference onnx_elementwise(bcast_rule rule, const PShape* inputs, std::size_t n,
                           const Symbols& symbols);
Inference onnx_expand(bcast_expand_mode mode, const PShape& data, const PShape& target,
                      const Symbols& symbols);
Inference openvino_elementwise(bcast_rule rule, int64_t axis, const PShape* inputs,
                               std::size_t n, const Symbols& symbols);
Inference openvino_expand(bcast_expand_mode mode, const PShape& data, const PShape& target,
                          const Symbols& symbols);

// "shapes (N,3) and (5)"; "shapes (N,3), (5) and (1)" for more.
std::string shapes_text(const PShape* inputs, std::size_t n, const Symbols& symbols);

}  // namespace bcast::rules::partial::detail
