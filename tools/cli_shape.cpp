// `bcast shape`: the output shape of a rule or expand mode (no data).
#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "cli_names.hpp"
#include "cli_parse.hpp"
#include "cli_partial.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace bcast_cli {

const char* const kShapeHelp =
    "usage: bcast shape [--rule RULE] [--axis N] [--ncnn-order] SHAPE SHAPE...\n"
    "       bcast shape --expand MODE [--axis N] [--axes-mapping I,J,...] DATA TARGET\n"
    "\n"
    "Prints the output shape, e.g. (2,4,5), on stdout.\n"
    "\n"
    "  --rule RULE          element-wise rule (bcast_infer_shape; default numpy):\n"
    "                       {RULES}\n"
    "                       (also: multidirectional = numpy). Input 0 is the primary\n"
    "                       operand for unidirectional, pdpd and onnx_legacy.\n"
    "  --expand MODE        broadcast DATA to TARGET (bcast_infer_expand_shape):\n"
    "                       {MODES}\n"
    "  --axis N             axis for pdpd / onnx_legacy / expand pdpd (default -1)\n"
    "  --axes-mapping LIST  target axis of each data axis, for --expand explicit\n"
    "  --ncnn-order         shapes on the command line and the printed result are in\n"
    "                       ncnn notation [w,h,d,c] (innermost first), i.e. reversed;\n"
    "                       the result is printed in brackets, e.g. [2,3,4]\n"
    "\n"
    "Shapes: 2,3,4  (2,3,4)  [2,3,4]  2x3x4; () [] scalar \"\" for rank 0.\n"
    "Partial shapes (strict semantics, docs/partial-shapes.md): ? unknown, N a\n"
    "symbol, 2..8 and 2.. intervals, a leading ... an unknown rank, e.g. N,3 or\n"
    "(...,2..8); the run-time conditions follow the shape after \"where:\".\n"
    "Exit status: 0 success, 1 refused (\"bcast: <STATUS>: <message>\" on stderr),\n"
    "2 usage error.\n";

int cmd_shape(int argc, char** argv) {
    const Options o = parse_options(argc, argv, 2, kRuleOptions | kExpandOptions);
    if (o.help) {
        std::fputs(with_names(kShapeHelp).c_str(), stdout);
        return kExitOk;
    }
    for (const std::string& arg : o.args)
        if (looks_partial(arg)) {
            if (o.ncnn_order) usage_error("--ncnn-order does not take partial shapes");
            return shape_partial(o.args, o.have_expand, o.have_expand ? o.expand_mode : o.rule,
                                 o.axis, o.have_mapping ? &o.mapping : nullptr);
        }
    const std::vector<Shape> shapes = shapes_of(o);
    size_t out_rank = 0;
    int64_t out_dims[BCAST_MAX_RANK];
    bcast_status st;
    if (o.have_expand) {
        if (shapes.size() != 2)
            usage_error("--expand needs exactly two shapes, DATA and TARGET (got " +
                        std::to_string(shapes.size()) + ")");
        const Shape& data = shapes[0];
        const Shape& target = shapes[1];
        st = bcast_infer_expand_shape(o.expand_mode, data.size(), data.data(), target.size(),
                                      target.data(),
                                      o.have_mapping ? o.mapping.data() : nullptr,
                                      o.have_mapping ? o.mapping.size() : 0, o.axis,
                                      BCAST_MAX_RANK, &out_rank, out_dims);
    } else {
        if (shapes.size() > BCAST_MAX_INPUTS)
            usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " shapes");
        ShapeTable t(shapes);
        st = bcast_infer_shape(o.rule, o.axis, shapes.size(), t.ranks.data(), t.dims.data(),
                               BCAST_MAX_RANK, &out_rank, out_dims);
    }
    if (st != BCAST_OK) return refused(st);
    if (out_rank > BCAST_MAX_RANK) {
        std::fprintf(stderr, "bcast: library returned rank %zu > %d\n", out_rank,
                     BCAST_MAX_RANK);
        return kExitRefused;
    }
    const Shape out(out_dims, out_dims + out_rank);
    std::printf("%s\n", format_shape(out, o.ncnn_order).c_str());
    return kExitOk;
}

}  // namespace bcast_cli
