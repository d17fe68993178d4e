// `bcast plan`: plan an op for some shapes and print bcast_op_describe's JSON.
#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "cli_names.hpp"
#include "cli_parse.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace bcast_cli {

const char* const kPlanHelp =
    "usage: bcast plan [--op OP] [--dtype DT] [--rule RULE] [--axis N] [--ncnn-order]\n"
    "                  [--quant S:Z...] SHAPE SHAPE...\n"
    "       bcast plan [--op OP] [--dtype DT] --expand MODE [--axis N]\n"
    "                  [--axes-mapping I,J,...] INPUT... TARGET\n"
    "       bcast plan [--dtype DT] --node OP:V,V[:RULE[:AXIS]]... SHAPE...\n"
    "\n"
    "Creates an op, plans it (bcast_op_plan, or bcast_op_plan_to with --expand: the\n"
    "last shape is the target) and prints bcast_op_describe's JSON: the output shape,\n"
    "the coalesced loops with per-operand element strides, and the inner kernel kind.\n"
    "\n"
    "  --op OP       opcode name or number (default add; copy with --expand):\n"
    "                {OPS}\n"
    "  --dtype DT    {DTYPES}\n"
    "                (default f32; numpy spellings such as float32, int64, uint8\n"
    "                also work, and C's float, double, half)\n"
    "  --rule, --expand, --axis, --axes-mapping, --ncnn-order: as for `bcast shape`\n"
    "                (the JSON itself is always in numpy order)\n"
    "  --isa NAME    cap the kernel set first (bcast_set_max_isa), one of:\n"
    "                {ISAS}\n"
    "  --quant S:Z   quantized u8/i8 (bcast_op_set_quantization): each input's\n"
    "                scale and zero point in order, then the output's\n"
    "  --node SPEC   with one or more --node, plans a fused expression over the\n"
    "                SHAPEs (bcast_expr_plan) and prints bcast_expr_describe's JSON.\n"
    "                Values: the inputs 0..N-1, then each node in order. SPEC is\n"
    "                OP:OPERANDS[:RULE[:AXIS]], e.g. sub:0,1 then mul:4,2:pdpd:1.\n"
    "                The last node is the output. Example, a normalisation tail:\n"
    "                bcast plan --node sub:0,1 --node mul:5,2 --node mul:6,3\n"
    "                  --node add:7,4 8,64,112,112 1,64,1,1 1,64,1,1 1,64,1,1 1,64,1,1\n"
    "                With --dtype u8 (or i8) and --quant, the inputs and the output\n"
    "                are quantized and the nodes run on the dequantized f32 values.\n"
    "\n"
    "Ops compute as include/bcast/bcast.h says; where numpy's name means another\n"
    "thing: remainder is C's IEEE remainder, mod is numpy's remainder.\n";

namespace {

// One --node value: OP:OPERANDS[:RULE[:AXIS]].
struct NodeSpec {
    int32_t op;
    std::vector<size_t> operands;
    int32_t rule = BCAST_RULE_NUMPY;
    int64_t axis = -1;
};

NodeSpec parse_node(const std::string& spec) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t colon; (colon = spec.find(':', start)) != std::string::npos; start = colon + 1) {
        parts.push_back(spec.substr(start, colon - start));
    }
    parts.push_back(spec.substr(start));
    if (parts.size() < 2 || parts.size() > 4)
        usage_error("bad --node '" + spec + "': expected OP:OPERANDS[:RULE[:AXIS]]");
    NodeSpec n;
    n.op = parse_op(parts[0]);
    for (int64_t v : parse_int_list(parts[1], "--node operands")) {
        if (v < 0) usage_error("bad --node '" + spec + "': operands are value numbers (>= 0)");
        n.operands.push_back(static_cast<size_t>(v));
    }
    if (parts.size() > 2) n.rule = parse_rule(parts[2]);
    if (parts.size() > 3 && !parse_int(parts[3], true, &n.axis))
        usage_error("bad --node '" + spec + "': the axis must be an integer");
    return n;
}

int plan_expression(const Options& o, const std::vector<Shape>& shapes) {
    if (shapes.size() > BCAST_MAX_INPUTS)
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " input shapes");
    std::vector<NodeSpec> nodes;
    for (const std::string& spec : o.nodes) nodes.push_back(parse_node(spec));
    check_quant_count(o, shapes.size());
    // Quantized: the inputs are read and the output written as --dtype, and
    // the nodes run over their dequantized f32 values (bcast_expr_set_quantization).
    const bool quantized = !o.quant.empty();
    ExprHandle h;
    bcast_status st = bcast_expr_create(quantized ? BCAST_DTYPE_F32 : o.dtype, shapes.size(), &h.expr);
    for (std::size_t k = 0; st == BCAST_OK && k < o.quant.size(); ++k) {
        st = bcast_expr_set_quantization(h.expr, k < shapes.size() ? k : BCAST_OUTPUT, o.dtype,
                                         o.quant[k].scale, o.quant[k].zero_point);
    }
    for (const NodeSpec& n : nodes) {
        if (st != BCAST_OK) break;
        st = bcast_expr_add_node(h.expr, n.op, n.rule, n.axis, n.operands.size(), n.operands.data(),
                                 nullptr);
    }
    if (st == BCAST_OK) {
        ShapeTable t(shapes);
        st = bcast_expr_plan(h.expr, shapes.size(), t.ranks.data(), t.dims.data(), nullptr, nullptr);
    }
    if (st != BCAST_OK) return refused(st);
    const size_t len = bcast_expr_describe(h.expr, nullptr, 0);
    std::string json(len + 1, '\0');
    if (len == 0 || bcast_expr_describe(h.expr, &json[0], json.size()) != len) {
        std::fprintf(stderr, "bcast: bcast_expr_describe failed\n");
        return kExitRefused;
    }
    json.resize(len);
    std::printf("%s\n", json.c_str());
    return kExitOk;
}

}  // namespace

int cmd_plan(int argc, char** argv) {
    Options o = parse_options(argc, argv, 2,
                              kRuleOptions | kExpandOptions | kOpOption | kDtypeOption | kIsaOption |
                                  kNodeOption | kQuantOption);
    if (o.help) {
        std::fputs(with_names(kPlanHelp).c_str(), stdout);
        return kExitOk;
    }
    const std::vector<Shape> shapes = shapes_of(o);
    if (!o.nodes.empty()) {
        if (!apply_isa(o)) return kExitRefused;
        return plan_expression(o, shapes);
    }
    if (o.have_expand && !o.have_op) o.op = BCAST_OP_COPY;
    if (!apply_isa(o)) return kExitRefused;
    if (shapes.size() > BCAST_MAX_INPUTS + (o.have_expand ? 1u : 0u))
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " input shapes");
    if (o.have_expand && shapes.size() < 2)
        usage_error("--expand needs at least two shapes: INPUT... TARGET");

    OpHandle h;
    bcast_status st = create_op(o, o.dtype, shapes.size() - (o.have_expand ? 1 : 0), &h);
    if (st != BCAST_OK) return refused(st);
    if (o.have_expand) {
        const std::vector<Shape> inputs(shapes.begin(), shapes.end() - 1);
        const Shape& target = shapes.back();
        ShapeTable t(inputs);
        st = bcast_op_plan_to(h.op, inputs.size(), t.ranks.data(), t.dims.data(), nullptr,
                              target.size(), target.data(),
                              o.have_mapping ? o.mapping.data() : nullptr,
                              o.have_mapping ? o.mapping.size() : 0, nullptr);
    } else {
        ShapeTable t(shapes);
        st = bcast_op_plan(h.op, shapes.size(), t.ranks.data(), t.dims.data(), nullptr,
                           nullptr);
    }
    if (st != BCAST_OK) return refused(st);
    const std::string json = describe(h.op);
    if (json.empty()) {
        std::fprintf(stderr, "bcast: bcast_op_describe failed\n");
        return kExitRefused;
    }
    std::printf("%s\n", json.c_str());
    return kExitOk;
}

}  // namespace bcast_cli
