// The object behind a bcast_expr handle: the expression as built; its plan,
// execution, tasks and pools are every handle's (planned.hpp). Changing the
// expression discards the plan. The C API layer only converts arguments and
// errors.
#pragma once

#include "handles/planned.hpp"
#include "plan/expression.hpp"
#include "plan/fused_plan.hpp"

#include <string>
#include <type_traits>

namespace bcast {

class FusedOperator : public Planned<plan::FusedPlan> {
public:
    FusedOperator(bcast_dtype dtype, std::size_t num_inputs);

    // Changes the expression through edit(expression), returning what it
    // returns; a change that went through discards the plan.
    template <class Edit>
    auto edit(Edit&& edit) {
        if constexpr (std::is_void_v<decltype(edit(expr_))>) {
            edit(expr_);
            forget_plan();
        } else {
            auto result = edit(expr_);
            forget_plan();
            return result;
        }
    }

    // The inputs' shapes and strides, as bcast_op_plan takes them.
    void plan(std::size_t num_inputs, const std::size_t* ranks, const int64_t* const* dims,
              const int64_t* const* strides, const int64_t* out_strides);
    std::string describe() const;
    const plan::Expression& expression() const { return expr_; }

private:
    plan::Expression expr_;
};

}  // namespace bcast
