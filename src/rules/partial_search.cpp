// Strict semantics, part 3: can the remaining clauses all hold at once? Each
// clause is made true by one of its atoms (x == c narrows x's interval,
// x == y joins their classes and intersects intervals); a branch dies when a
// class's interval empties or a clause has no atom left that can hold. With
// only equalities, any state where every clause holds is realised by picking
// each class a value in its interval, so the answer is exact unless the
// budget runs out (then: satisfiable, which never refuses wrongly).
#include "rules/partial_util.hpp"

#include <algorithm>
#include <array>

namespace bcast::rules::partial::detail {
namespace {

constexpr std::size_t kBudget = 20000;  // search nodes

struct State {
    std::vector<std::size_t> parent;
    std::vector<int64_t> lo, hi;

    std::size_t find(std::size_t v) const {
        while (parent[v] != v) v = parent[v];
        return v;
    }
};

// A term: a class of the search (symbol or anonymous dim), or a known value.
struct Term {
    bool known = false;
    int64_t value = 0;
    std::size_t var = 0;
};

struct Search {
    std::vector<std::vector<std::pair<Term, Term>>> clauses;  // atom: first == second
    std::vector<std::pair<int64_t, std::pair<int32_t, int64_t>>> keys;  // var -> dim key
    std::size_t nodes = 0;
    bool out_of_budget = false;

    std::size_t var_of(const Ref& r, State* s) {
        // Symbols by id (negative key), anonymous dims by (input, axis).
        const std::pair<int64_t, std::pair<int32_t, int64_t>> key =
            r.dim.sym != 0 ? std::make_pair(-static_cast<int64_t>(r.dim.sym), std::make_pair(0, int64_t{0}))
                           : std::make_pair(int64_t{0}, std::make_pair(r.input, r.axis));
        for (std::size_t v = 0; v < keys.size(); ++v)
            if (keys[v] == key) return v;
        keys.push_back(key);
        s->parent.push_back(s->parent.size());
        s->lo.push_back(r.dim.lo);
        s->hi.push_back(r.dim.hi);
        return keys.size() - 1;
    }

    Term term(const Ref& r, State* s) {
        Term t;
        if (r.dim.is_static()) {
            t.known = true;
            t.value = r.dim.lo;
        } else {
            t.var = var_of(r, s);
        }
        return t;
    }

    // Makes a == b true in s; false if that empties an interval.
    static bool apply(const Term& a, const Term& b, State* s) {
        if (a.known && b.known) return a.value == b.value;
        if (a.known || b.known) {
            const std::size_t v = s->find(a.known ? b.var : a.var);
            const int64_t c = a.known ? a.value : b.value;
            if (c < s->lo[v] || c > s->hi[v]) return false;
            s->lo[v] = s->hi[v] = c;
            return true;
        }
        const std::size_t x = s->find(a.var), y = s->find(b.var);
        if (x == y) return true;
        s->parent[y] = x;
        s->lo[x] = std::max(s->lo[x], s->lo[y]);
        s->hi[x] = std::min(s->hi[x], s->hi[y]);
        return s->lo[x] <= s->hi[x];
    }

    enum class Truth { no, yes, open };
    static Truth holds(const Term& a, const Term& b, const State& s) {
        if (a.known && b.known) return a.value == b.value ? Truth::yes : Truth::no;
        if (a.known || b.known) {
            const std::size_t v = s.find(a.known ? b.var : a.var);
            const int64_t c = a.known ? a.value : b.value;
            if (c < s.lo[v] || c > s.hi[v]) return Truth::no;
            return s.lo[v] == s.hi[v] ? Truth::yes : Truth::open;
        }
        const std::size_t x = s.find(a.var), y = s.find(b.var);
        if (x == y || (s.lo[x] == s.hi[x] && s.lo[y] == s.hi[y] && s.lo[x] == s.lo[y]))
            return Truth::yes;
        return s.hi[x] < s.lo[y] || s.hi[y] < s.lo[x] ? Truth::no : Truth::open;
    }

    bool solve(const State& s) {
        if (++nodes > kBudget) {
            out_of_budget = true;
            return true;
        }
        // The first clause not yet true; fewest live atoms first would prune
        // more, but the clauses are few and short.
        for (const auto& c : clauses) {
            bool any_true = false;
            for (const auto& atom : c)
                if (holds(atom.first, atom.second, s) == Truth::yes) any_true = true;
            if (any_true) continue;
            for (const auto& atom : c) {
                if (holds(atom.first, atom.second, s) == Truth::no) continue;
                State next = s;
                if (apply(atom.first, atom.second, &next) && solve(next)) return true;
            }
            return false;
        }
        return true;
    }
};

bool is_dim_atom(const IAtom& a) {
    return a.kind == AtomKind::dim_eq_value || a.kind == AtomKind::dim_eq_dim;
}

// Unknown ranks: the rank atoms come as single-atom clauses; they bound each
// input's rank to an interval, which must stay non-empty.
bool ranks_fit(const std::vector<IAtom>& atoms,
               const std::vector<std::pair<std::size_t, std::size_t>>& clauses,
               const PShape* inputs, std::size_t n) {
    std::array<int64_t, kMaxInputs> lo{}, hi{};
    for (std::size_t j = 0; j < n; ++j) {
        lo[j] = static_cast<int64_t>(inputs[j].rank);
        hi[j] = inputs[j].rank_known ? lo[j] : static_cast<int64_t>(kMaxRank);
    }
    for (const auto& r : clauses) {
        const IAtom& a = atoms[r.first];
        if (is_dim_atom(a) || r.second - r.first != 1) continue;  // no layout mixes them
        const auto j = static_cast<std::size_t>(a.a.input);
        if (a.kind != AtomKind::rank_le) lo[j] = std::max(lo[j], a.value);
        if (a.kind != AtomKind::rank_ge) hi[j] = std::min(hi[j], a.value);
        if (lo[j] > hi[j]) return false;
    }
    return true;
}

// Whether no dimension (a symbol, or an anonymous dim's position) appears in
// two clauses.
bool independent(const std::vector<IAtom>& atoms,
                 const std::vector<std::pair<std::size_t, std::size_t>>& clauses) {
    struct Seen {
        int32_t sym, input;
        int64_t axis;
        std::size_t clause;
    };
    std::vector<Seen> seen;
    seen.reserve(atoms.size() * 2);
    for (std::size_t k = 0; k < clauses.size(); ++k)
        for (std::size_t i = clauses[k].first; i < clauses[k].second; ++i) {
            if (!is_dim_atom(atoms[i])) continue;
            for (const Ref* r : {&atoms[i].a, &atoms[i].b}) {
                if (r == &atoms[i].b && atoms[i].kind != AtomKind::dim_eq_dim) continue;
                if (r->dim.is_static()) continue;
                const Seen s{r->dim.sym, r->dim.sym ? 0 : r->input, r->dim.sym ? 0 : r->axis, k};
                for (const Seen& o : seen)
                    if (o.sym == s.sym && o.input == s.input && o.axis == s.axis && o.clause != k)
                        return false;
                seen.push_back(s);
            }
        }
    return true;
}

}  // namespace

bool satisfiable(const std::vector<IAtom>& atoms,
                 const std::vector<std::pair<std::size_t, std::size_t>>& clauses,
                 const PShape* inputs, std::size_t n) {
    if (!ranks_fit(atoms, clauses, inputs, n)) return false;
    // Clauses that share no dimension hold together as soon as each can
    // hold alone, which every kept clause can (its atoms are not false).
    if (independent(atoms, clauses)) return true;
    Search search;
    State state;
    for (const auto& r : clauses) {
        if (!is_dim_atom(atoms[r.first])) continue;
        std::vector<std::pair<Term, Term>> c;
        for (std::size_t i = r.first; i < r.second; ++i) {
            const IAtom& a = atoms[i];
            if (a.kind == AtomKind::dim_eq_value) {
                Term v;
                v.known = true;
                v.value = a.value;
                c.emplace_back(search.term(a.a, &state), v);
            } else {
                c.emplace_back(search.term(a.a, &state), search.term(a.b, &state));
            }
        }
        search.clauses.push_back(std::move(c));
    }
    return search.solve(state);
}

}  // namespace bcast::rules::partial::detail
