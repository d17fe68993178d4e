// `onnx` semantics: ONNX's shape inference for its broadcasting ops, read in
// onnx/defs/shape_inference.h (multidirectionalBroadcastShapeInference) at
// f7546912. ONNX dims are a value or a param: a known extent is a value, any
// other dim a param (its symbol; none is the empty param, so two anonymous
// dims count as the same one). Intervals do not exist there.
//
// Per column: values other than 1 must agree (else "Incompatible
// dimensions"); params are never checked. The output is the value if it is
// not 1 or no param was seen, else the param when all params were the same
// one, else unknown. Unknown rank: no output shape at all. Unidirectional
// (PRelu, Gemm's C) and legacy (Add-6...) ops copy input 0's shape unchecked.
#include "core/op_info.hpp"
#include "rules/partial_util.hpp"
#include "rules/rule_util.hpp"

namespace bcast::rules::partial::detail {
namespace {

// What ONNX keeps of a dim: the value, or the param with no bounds.
PDim as_onnx(const PDim& d) { return d.is_static() ? known(d.lo) : PDim{0, kUnbounded, d.sym}; }

PShape as_onnx(const PShape& s) {
    PShape o = s;
    if (!s.rank_known) return PShape{false, 0, {}};
    for (std::size_t i = 0; i < s.rank; ++i) o.dims[i] = as_onnx(s.dims[i]);
    return o;
}

Inference multidirectional(const char* who, const PShape* in, std::size_t n,
                           const Symbols& symbols) {
    Inference inf;
    std::size_t rank = 0;
    for (std::size_t j = 0; j < n; ++j) {
        if (!in[j].rank_known) {  // hasNInputShapes fails: nothing is inferred
            inf.out = PShape{false, 0, {}};
            return inf;
        }
        rank = std::max(rank, in[j].rank);
    }
    inf.out.rank = rank;
    for (std::size_t a = 0; a < rank; ++a) {
        int64_t value = 1;
        std::size_t value_from = 0;
        PDim param;
        std::size_t params = 0;
        for (std::size_t j = 0; j < n; ++j) {
            if (a + in[j].rank < rank) continue;  // no dim in this column
            const PDim& d = in[j].dims[a + in[j].rank - rank];
            if (d.is_static()) {
                if (d.lo == 1) continue;
                if (value != 1 && value != d.lo)
                    rules::detail::refuse_dim(
                        who, a, std::to_string(value), std::to_string(d.lo),
                        "shapes " + to_string(in[value_from], symbols) + " and " +
                            to_string(in[j], symbols),
                        "ONNX: Incompatible dimensions");
                value = d.lo;
                value_from = j;
            } else if (params == 0) {
                param = as_onnx(d);
                params = 1;
            } else if (d.sym != param.sym) {
                ++params;
            }
        }
        if (value != 1 || params == 0)
            inf.out.dims[a] = known(value);
        else
            inf.out.dims[a] = params == 1 ? param : PDim{};
    }
    return inf;
}

[[noreturn]] void no_inference(const std::string& what) {
    fail(BCAST_ERROR_UNSUPPORTED, "onnx semantics: ONNX has no shape inference for " + what);
}

}  // namespace

Inference onnx_elementwise(bcast_rule rule, const PShape* in, std::size_t n,
                           const Symbols& symbols) {
    switch (rule) {
        case BCAST_RULE_NUMPY: return multidirectional("numpy (onnx semantics)", in, n, symbols);
        case BCAST_RULE_UNIDIRECTIONAL:
        case BCAST_RULE_ONNX_LEGACY: {
            Inference inf;
            inf.out = as_onnx(in[0]);
            return inf;
        }
        default: no_inference(std::string("rule ") + rule_name(rule));
    }
}

Inference onnx_expand(bcast_expand_mode mode, const PShape& data, const PShape& target,
                      const Symbols& symbols) {
    if (mode != BCAST_EXPAND_BIDIRECTIONAL)
        no_inference(std::string("broadcast mode ") + expand_mode_name(mode) +
                     " (Expand is bidirectional)");
    const PShape pair[2] = {data, target};
    return multidirectional("broadcast bidirectional (onnx semantics)", pair, 2, symbols);
}

}  // namespace bcast::rules::partial::detail
