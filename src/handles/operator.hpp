// The object behind a bcast_op handle: the op's identity and parameters;
// its plan, execution, tasks and pools are every handle's (planned.hpp). The
// C API layer only converts arguments and errors.
#pragma once

#include "core/quantization.hpp"
#include "handles/planned.hpp"
#include "plan/fused_plan.hpp"
#include "rules/rules.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bcast {

class Operator : public Planned<plan::FusedPlan> {
public:
    // Throws INVALID_ARGUMENT / UNSUPPORTED for unknown or unsupported pairs.
    Operator(bcast_opcode opcode, bcast_dtype dtype);

    void set_param(bcast_param param, int64_t value);
    int64_t get_param(bcast_param param) const;

    void plan(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
              const int64_t* const* strides, const int64_t* out_strides);
    void plan_to(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
                 const int64_t* const* strides, std::size_t target_rank,
                 const int64_t* target_dims, const int64_t* axes_mapping,
                 std::size_t axes_count, const int64_t* out_strides);

    // The quantization of input `operand` or of the output (kOutputOperand),
    // for u8/i8 ops the table marks quantizable: once set, the op is the QDQ
    // graph (core/quantization.hpp) and needs every operand's. Discards the plan.
    static constexpr std::size_t kOutputOperand = SIZE_MAX;
    void set_quantization(std::size_t operand, float scale, int32_t zero_point);
    // INVALID_STATE where the operand has none.
    Quantization quantization(std::size_t operand) const;

    std::string describe() const;

private:
    // Where quantization_ keeps an operand's: inputs at their index, the
    // output last. INVALID_ARGUMENT beyond the op's arity.
    std::size_t quantization_index(std::size_t operand) const;
    bool quantized() const;
    // Validated input shapes for a plan call.
    std::vector<Shape> read_inputs(std::size_t num_inputs, const std::size_t* ranks,
                                   const int64_t* const* dims) const;
    // The op's plan: its one-node expression's (a quantized op's, the QDQ
    // graph's), placed by the op's rule, or as `resolved` says (plan_to).
    std::unique_ptr<plan::FusedPlan> make_plan(std::size_t num_inputs, const Shape* inputs,
                                               const int64_t* const* strides,
                                               const int64_t* out_strides,
                                               const rules::Resolution* resolved) const;
    std::unique_ptr<plan::FusedPlan> plan_to_shapes(std::size_t num_inputs, const std::size_t* ranks,
                                               const int64_t* const* dims,
                                               const int64_t* const* strides,
                                               std::size_t target_rank,
                                               const int64_t* target_dims,
                                               const int64_t* axes_mapping,
                                               std::size_t axes_count,
                                               const int64_t* out_strides) const;

    bcast_opcode opcode_;
    bcast_dtype dtype_;
    bcast_rule rule_ = BCAST_RULE_NUMPY;
    int64_t axis_ = -1;
    bcast_expand_mode expand_mode_ = BCAST_EXPAND_NUMPY;
    std::array<std::optional<Quantization>, kMaxInputs + 1> quantization_{};
};

}  // namespace bcast
