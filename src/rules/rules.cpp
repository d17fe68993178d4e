// resolve(): validates what every rule needs (rule, input count, primary,
// shapes) and hands over to the rule family's file.
#include "core/op_info.hpp"
#include "rules/rule_util.hpp"

namespace bcast::rules {

Resolution resolve(bcast_rule rule, int64_t axis, const Shape* inputs, std::size_t num_inputs,
                   std::size_t primary) {
    const char* name = rule_name(rule);
    if (!name) fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown broadcast rule " + std::to_string(rule));
    const std::string who = name;
    if (num_inputs == 0 || num_inputs > kMaxInputs)
        fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": " + std::to_string(num_inputs) +
                                               " inputs given; 1 to " +
                                               std::to_string(kMaxInputs) + " are accepted");
    if (inputs == nullptr) fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": inputs is NULL");
    if (primary >= num_inputs)
        fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": primary input " + std::to_string(primary) +
                                               " does not exist (" +
                                               std::to_string(num_inputs) + " inputs)");
    // Shapes are plain structs: re-check rank and extents before any rule
    // indexes them.
    for (std::size_t j = 0; j < num_inputs; ++j)
        make_shape(inputs[j].rank, inputs[j].dims.data(), ("input " + std::to_string(j)).c_str());
    switch (rule) {
        case BCAST_RULE_NONE: return detail::resolve_none(inputs, num_inputs);
        case BCAST_RULE_NUMPY: return detail::numpy_merge(who, inputs, num_inputs);
        case BCAST_RULE_UNIDIRECTIONAL:
            return detail::resolve_unidirectional(inputs, num_inputs, primary);
        case BCAST_RULE_PDPD: return detail::resolve_pdpd(axis, inputs, num_inputs, primary);
        case BCAST_RULE_ONNX_LEGACY:
            return detail::resolve_onnx_legacy(axis, inputs, num_inputs, primary);
        default: return detail::resolve_ncnn(inputs, num_inputs);
    }
}

}  // namespace bcast::rules
