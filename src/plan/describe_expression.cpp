// bcast_expr_describe's JSON: the nodes as built, and once planned the fused
// loop nest, what each kernel operand reads and how each step runs.
#include "core/op_info.hpp"
#include "plan/fused_plan.hpp"
#include "plan/json.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace bcast::plan {
namespace {

std::string nodes_json(const Expression& e) {
    std::string s = "[";
    for (std::size_t k = 0; k < e.num_nodes(); ++k) {
        const Node& n = e.node(k);
        int64_t operands[kMaxInputs];
        for (std::size_t j = 0; j < n.num_operands; ++j) operands[j] = static_cast<int64_t>(n.operands[j]);
        if (k) s += ",";
        s += "{\"value\":" + std::to_string(e.num_inputs() + k) + ",\"op\":" +
             quoted(op_info(n.opcode)->name) + ",\"rule\":" + quoted(rule_name(n.rule)) +
             ",\"axis\":" + std::to_string(n.axis) + ",\"operands\":" +
             json_list(operands, n.num_operands) + ",\"dtype\":" + quoted(dtype_name(n.out_dtype)) + "}";
    }
    return s + "]";
}

std::string inputs_json(const Expression& e) {
    std::string s = "[";
    for (std::size_t i = 0; i < e.num_inputs(); ++i) {
        s += (i ? "," : "") + quoted(dtype_name(e.stored_dtype(i)));
    }
    return s + "]";
}

// How a step's operand is named: "input2" (a read), "step1" (a result).
std::string source_name(const FusedPlan& p, const Source& src) {
    return src.leaf ? "input" + std::to_string(p.input_order[src.index])
                    : "step" + std::to_string(src.index);
}

std::string steps_json(const FusedPlan& p) {
    std::string s = "[";
    for (std::size_t i = 0; i < p.num_steps; ++i) {
        const Step& step = p.steps[i];
        s += i ? "," : "";
        s += "{\"node\":" + std::to_string(step.node) + ",\"kernel_op\":" +
             quoted(op_info(step.kernel_op)->name) + ",\"operands\":[";
        for (std::size_t j = 0; j < step.num_operands; ++j) {
            s += (j ? "," : "") + quoted(source_name(p, step.operands[j]).c_str());
        }
        s += std::string("],\"constant\":") + (step.scalar ? "true" : "false") + "}";
    }
    return s + "]";
}

// Leaves read as a short row repeated along the line: their stride in the
// loops reads 0, like a scalar's, so the period is said here.
std::string patterns_json(const FusedPlan& p) {
    std::string s;
    for (std::size_t l = 0; l < p.num_reads; ++l) {
        if (p.leaf_period[l] == 0) continue;
        s += std::string(s.empty() ? "" : ",") + "{\"operand\":\"input" + std::to_string(p.input_order[l]) +
             "\",\"period\":" + std::to_string(p.leaf_period[l]) + "}";
    }
    return s.empty() ? s : ",\"patterns\":[" + s + "]";
}

// Elements per block: a plan whose line is one call (kWholeLine) says the
// line's length.
uint64_t block_elements(const FusedPlan& p) {
    if (p.block != kWholeLine || p.nest.num_loops == 0) return p.block;
    return std::min<uint64_t>(p.block, static_cast<uint64_t>(p.nest.loops[p.nest.num_loops - 1].extent));
}

// Blocks of whole lines (FusedPlan::block_rows): how many per block.
std::string rows_json(const FusedPlan& p) {
    if (p.block_rows == 0) return "";
    const auto rows = static_cast<uint64_t>(p.nest.loops[p.nest.num_loops - 2].extent);
    return ",\"lines_per_block\":" + std::to_string(std::min<uint64_t>(rows, p.block_rows));
}

}  // namespace

std::string describe_json(const Expression& e, const FusedPlan* p) {
    std::string s = "{\"dtype\":" + quoted(dtype_name(e.dtype())) + ",\"inputs\":" + inputs_json(e) +
                    ",\"nodes\":" + nodes_json(e);
    if (e.num_nodes() > 0) s += ",\"output\":" + std::to_string(e.output());
    if (e.quantized()) {
        std::array<const Quantization*, kMaxInputs> q{};
        for (std::size_t i = 0; i < e.num_inputs(); ++i) q[i] = e.input_quantization(i);
        s += quantization_json(q.data(), e.num_inputs(), e.output_quantization());
    }
    if (!p) return s + ",\"planned\":false}";
    s += layout_json(*p) + ",\"kernel\":\"fused\",\"in_registers\":" + (p->chain || p->quant_binary ? "true" : "false") +
         ",\"elements_per_block\":" + std::to_string(block_elements(*p)) + rows_json(*p) +
         ",\"scratch_slots\":" + std::to_string(p->num_slots) + patterns_json(*p) +
         ",\"steps\":" + steps_json(*p) +
         ",\"streaming_stores\":" + (p->stream ? "true" : "false");
    return s + "}";
}

}  // namespace bcast::plan
