// Broadcast rules over partial shapes (bcast_infer_partial_shape): dimensions
// that are an interval [lo, hi] (hi may be unbounded; a known extent is
// lo == hi), optionally carrying a symbol, and shapes whose rank may be
// unknown. Three semantics: ONNX's shape inference, OpenVINO's PartialShape
// merge, and bcast's own `strict` one, which also returns the run-time
// conditions under which the static rules (rules.hpp) accept the shapes.
// docs/partial-shapes.md describes all three side by side.
#pragma once

#include "rules/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bcast::rules::partial {

constexpr int64_t kUnbounded = INT64_MAX;

struct PDim {
    int64_t lo = 0;
    int64_t hi = kUnbounded;
    int32_t sym = 0;  // 0: none; k > 0: names[k - 1] of the call's Symbols

    bool is_static() const { return lo == hi; }
    bool has(int64_t v) const { return lo <= v && v <= hi; }
};

inline PDim known(int64_t v) { return PDim{v, v, 0}; }

// rank_known: the rank is `rank`. Otherwise the rank is unknown and at least
// `rank`, and dims[0..rank) are its last `rank` dimensions.
struct PShape {
    bool rank_known = true;
    std::size_t rank = 0;
    std::array<PDim, kMaxRank> dims{};
};

// Symbol names of one call: id k is names[k - 1].
using Symbols = std::vector<std::string>;

enum class Semantics { strict = 0, onnx = 1, openvino = 2 };

// One atom of a condition. An input's axis >= 0 counts from its first axis,
// < 0 from its last (-1 is the last); an axis the input does not have reads
// as extent 1 (it is broadcast).
enum class AtomKind { dim_eq_value = 0, dim_eq_dim = 1, rank_eq = 2, rank_ge = 3, rank_le = 4 };

struct Atom {
    uint32_t clause = 0;  // atoms of one clause are ORed, clauses ANDed
    AtomKind kind = AtomKind::dim_eq_value;
    int32_t input = 0;
    int32_t other_input = 0;  // dim_eq_dim
    int64_t axis = 0;
    int64_t other = 0;  // dim_eq_dim: other_input's axis; otherwise the value
};

struct Inference {
    PShape out;
    // Conjunctive normal form, atoms grouped by clause in clause order. Empty:
    // nothing is left to check at run time. Always empty except for strict.
    std::vector<Atom> conditions;
};

// Most condition atoms one call returns; beyond, UNSUPPORTED.
constexpr std::size_t kMaxConditionAtoms = 4096;

// Element-wise rules, input 0 the primary operand. Throws Error:
// INVALID_ARGUMENT for bad arguments (rule, axis, counts, an interval with
// lo > hi or lo < 0, a symbol id without a name, a symbol declared with
// disjoint intervals), INCOMPATIBLE_SHAPES when the semantics refuses,
// UNSUPPORTED where it has no answer (e.g. ONNX has no pdpd rule).
Inference infer(Semantics semantics, bcast_rule rule, int64_t axis, const PShape* inputs,
                std::size_t num_inputs, const Symbols& symbols);

// Broadcast-to-target; in conditions, input 0 is data and input 1 the target.
Inference infer_expand(Semantics semantics, bcast_expand_mode mode, const PShape& data,
                       const PShape& target, const int64_t* axes_mapping,
                       std::size_t axes_count, int64_t axis, const Symbols& symbols);

// INVALID_ARGUMENT if a condition names a negative input or, where the
// count is `known`, one of num_inputs or more.
void check_condition_inputs(const std::vector<Atom>& conditions, std::size_t num_inputs, bool known);

// Whether static shapes satisfy the conditions (every clause has a true atom).
// A condition naming an input beyond num_inputs is INVALID_ARGUMENT.
bool conditions_hold(const std::vector<Atom>& conditions, const Shape* inputs,
                     std::size_t num_inputs);

// "N == M or N == 1 or M == 1", one line per clause; a dim is named by its
// symbol, or by its extent when known, else as in0[1] / in0[-1].
std::string format_conditions(const std::vector<Atom>& conditions, const PShape* inputs,
                              std::size_t num_inputs, const Symbols& symbols);

// "N", "3", "2..8", "2..", "?", "N:2..8" (a bounded symbol).
std::string to_string(const PDim& d, const Symbols& symbols);
// "(N,3,?)"; unknown rank: "(...,2,3)", "(...)".
std::string to_string(const PShape& s, const Symbols& symbols);

}  // namespace bcast::rules::partial
