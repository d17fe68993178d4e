// `bcast run`: apply an op to .npy files and write the result as .npy.
#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_npy.hpp"
#include "cli_options.hpp"
#include "cli_names.hpp"
#include "cli_parse.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace bcast_cli {

const char* const kRunHelp =
    "usage: bcast run [--op OP] [--rule RULE] [--axis N] [-o OUT.npy] [--isa NAME]\n"
    "                 [--threads N] [--quant S:Z...] INPUT.npy INPUT.npy...\n"
    "\n"
    "Reads the inputs (numpy .npy, versions 1-3, C order, little-endian), applies\n"
    "the op under the rule and writes the result as .npy to OUT.npy, or to stdout\n"
    "when -o is not given and stdout is not a terminal ('-' also means stdout).\n"
    "\n"
    "  --op OP       opcode name or number (see `bcast plan --help`); default add\n"
    "  --rule RULE   {RULES}\n"
    "                (default numpy)\n"
    "  --axis N      axis for pdpd / onnx_legacy (default -1)\n"
    "  -o FILE       where to write the result (long form: --out FILE)\n"
    "  --isa NAME    cap the kernel set first (bcast_set_max_isa)\n"
    "  --threads N   run on N threads (bcast_pool; 0: every CPU this process may\n"
    "                use; default 1); the result is the same\n"
    "  --quant S:Z   quantized u8/i8 (bcast_op_set_quantization): each input's\n"
    "                scale and zero point in order, then the output's\n"
    "\n"
    "dtypes: bool, i1, u1, i2, u2, i4, u4, i8, u8, f2, f4, f8 (numpy has no bfloat16).\n"
    "All inputs share one dtype (select: the condition is bool, x and y share one);\n"
    "the result has that dtype, or bool for comparisons and logical ops.\n"
    "Exit status: 0 success, 1 an input file or the library refused (message on\n"
    "stderr), 2 usage error.\n";

namespace {

// The op's dtype: that of the data inputs, which must agree (SELECT's
// input 0 is its bool condition).
int32_t op_dtype(int32_t opcode, const std::vector<NpyArray>& inputs,
                 const std::vector<std::string>& names) {
    const size_t first = opcode == BCAST_OP_SELECT && inputs.size() > 1 ? 1 : 0;
    if (first == 1 && inputs[0].dtype != BCAST_DTYPE_BOOL)
        throw NpyError("select's condition " + names[0] + " is " + dtype_name(inputs[0].dtype) +
                       ", not bool");
    for (size_t i = first + 1; i < inputs.size(); ++i)
        if (inputs[i].dtype != inputs[first].dtype)
            throw NpyError(std::string("inputs have different dtypes: ") + names[first] +
                           " is " + dtype_name(inputs[first].dtype) + ", " + names[i] +
                           " is " + dtype_name(inputs[i].dtype) + " (bcast does not promote)");
    return inputs[first].dtype;
}

}  // namespace

int cmd_run(int argc, char** argv) {
    const Options o = parse_options(argc, argv, 2, kRuleOptions | kOpOption | kOutOption |
                                                       kIsaOption | kThreadsOption | kQuantOption);
    if (o.help) {
        std::fputs(with_names(kRunHelp).c_str(), stdout);
        return kExitOk;
    }
    if (o.args.empty()) usage_error("no input files given");
    if (o.args.size() > BCAST_MAX_INPUTS)
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " input files");
    const std::string out_path = o.out_path.empty() ? "-" : o.out_path;
    if (out_path == "-" && isatty(STDOUT_FILENO))
        usage_error("not writing binary .npy to a terminal; give -o FILE");
    if (!apply_isa(o)) return kExitRefused;

    std::vector<NpyArray> inputs;
    for (const std::string& path : o.args) inputs.push_back(read_npy(path));
    const int32_t dtype = op_dtype(o.op, inputs, o.args);

    OpHandle h;
    PoolHandle pool;
    bcast_status st = make_pool(o, &pool);
    if (st == BCAST_OK) st = create_op(o, dtype, inputs.size(), &h);
    std::vector<Shape> shapes;
    std::vector<const void*> pointers;
    for (const NpyArray& a : inputs) {
        shapes.push_back(a.shape);
        pointers.push_back(a.data.data());
    }
    const ShapeTable table(shapes);
    if (st == BCAST_OK)
        st = bcast_op_plan(h.op, shapes.size(), table.ranks.data(), table.dims.data(), nullptr,
                           nullptr);
    NpyArray result;
    result.dtype = output_dtype(o.op, dtype);
    int64_t dims[BCAST_MAX_RANK];
    size_t rank = 0;
    if (st == BCAST_OK) st = bcast_op_output_shape(h.op, BCAST_MAX_RANK, &rank, dims);
    if (st != BCAST_OK) return refused(st);
    result.shape.assign(dims, dims + rank);
    size_t count = 1;
    for (int64_t d : result.shape) count *= static_cast<size_t>(d);  // the plan checked overflow
    result.data.resize(count * bcast_dtype_size(result.dtype));
    st = bcast_op_execute_pool(h.op, pointers.data(), result.data.data(), pool.pool);
    if (st != BCAST_OK) return refused(st);
    pool.reset();
    write_npy(out_path, result);
    return kExitOk;
}

}  // namespace bcast_cli
