// `bcast plan`: plan an op for some shapes and print bcast_op_describe's JSON.
#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "cli_parse.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace bcast_cli {

const char* const kPlanHelp =
    "usage: bcast plan [--op OP] [--dtype DT] --rule RULE [--axis N] [--ncnn-order]\n"
    "                  SHAPE SHAPE...\n"
    "       bcast plan [--op OP] [--dtype DT] --expand MODE [--axis N]\n"
    "                  [--axes-mapping I,J,...] INPUT... TARGET\n"
    "\n"
    "Creates an op, plans it (bcast_op_plan, or bcast_op_plan_to with --expand: the\n"
    "last shape is the target) and prints bcast_op_describe's JSON: the output shape,\n"
    "the coalesced loops with per-operand element strides, and the inner kernel kind.\n"
    "\n"
    "  --op OP       opcode name or number (default add; copy with --expand):\n"
    "                add sub mul div max min pow rsub rdiv rpow atan2 ratan2 fmod\n"
    "                rfmod logaddexp floor_divide rfloor_divide remainder rremainder\n"
    "                mod squared_difference prelu equal not_equal less less_equal\n"
    "                greater greater_equal logical_and logical_or logical_xor\n"
    "                bitwise_and bitwise_or bitwise_xor shift_left shift_right mean\n"
    "                select copy\n"
    "  --dtype DT    f32 (default) f64 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64 bool\n"
    "                (numpy spellings such as float32, int64, uint8 also work)\n"
    "  --rule, --expand, --axis, --axes-mapping, --ncnn-order: as for `bcast shape`\n"
    "                (the JSON itself is always in numpy order)\n"
    "  --isa NAME    cap the kernel set first (bcast_set_max_isa): scalar, sse2,\n"
    "                avx2, avx512, neon\n";

int cmd_plan(int argc, char** argv) {
    Options o = parse_options(argc, argv, 2,
                              kRuleOptions | kExpandOptions | kOpOption | kDtypeOption | kIsaOption);
    if (o.help) {
        std::fputs(kPlanHelp, stdout);
        return kExitOk;
    }
    const std::vector<Shape> shapes = shapes_of(o);
    if (o.have_expand && !o.have_op) o.op = BCAST_OP_COPY;
    if (!apply_isa(o)) return kExitRefused;
    if (shapes.size() > BCAST_MAX_INPUTS + (o.have_expand ? 1u : 0u))
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " input shapes");
    if (o.have_expand && shapes.size() < 2)
        usage_error("--expand needs at least two shapes: INPUT... TARGET");

    OpHandle h;
    bcast_status st = create_op(o, o.dtype, &h);
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
