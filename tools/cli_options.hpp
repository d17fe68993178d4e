// The options of every subcommand, parsed by one function; each subcommand
// says which option groups it accepts, anything else is a usage error.
#pragma once

#include "cli_common.hpp"

#include <string>
#include <vector>

namespace bcast_cli {

enum OptionGroup : unsigned {
    kRuleOptions = 1u << 0,    // --rule --axis
    kExpandOptions = 1u << 1,  // --expand --axes-mapping --ncnn-order (else --rule, default numpy)
    kOpOption = 1u << 2,       // --op
    kDtypeOption = 1u << 3,    // --dtype
    kIsaOption = 1u << 4,      // --isa
    kOutOption = 1u << 5,      // --out, -o
    kSecondsOption = 1u << 6,  // --seconds
    kThreadsOption = 1u << 7,  // --threads
    kNodeOption = 1u << 8,     // --node (repeatable): a fused expression instead of --rule
    kQuickOption = 1u << 9,    // --quick
    kJsonOption = 1u << 10,    // --json
    kQuantOption = 1u << 11,   // --quant (repeatable): a quantized u8/i8 op
    kVerboseOption = 1u << 12, // --verbose
};

// One operand's quantization, --quant SCALE:ZERO_POINT.
struct QuantArg {
    float scale = 1.0f;
    int32_t zero_point = 0;
};

struct Options {
    bool have_rule = false;
    int32_t rule = BCAST_RULE_NUMPY;
    bool have_expand = false;
    int32_t expand_mode = BCAST_EXPAND_NUMPY;
    bool have_axis = false;
    int64_t axis = -1;
    bool have_mapping = false;
    std::vector<int64_t> mapping;
    bool ncnn_order = false;
    bool have_op = false;
    int32_t op = BCAST_OP_ADD;
    bool have_dtype = false;
    int32_t dtype = BCAST_DTYPE_F32;
    std::string isa;
    std::string out_path;
    double seconds = 1.0;
    std::size_t threads = 1;  // --threads: 1 the calling thread, 0 every CPU we may use
    bool have_threads = false;
    std::vector<std::string> nodes;  // --node OP:V,V[:RULE[:AXIS]], in order
    std::vector<QuantArg> quant;  // --quant: each input's in order, then the output's
    std::vector<std::string> args;  // positional arguments, in order
    bool quick = false;  // --quick: the short run (tune)
    bool verbose = false;  // --verbose: each measurement behind a verdict (tune)
    bool json = false;   // --json: the library's JSON instead of a table
    bool help = false;
};

// Parses argv[first..argc) accepting the given OptionGroup bits.
Options parse_options(int argc, char** argv, int first, unsigned groups);

// The positional arguments as shapes (reversed for --ncnn-order); at least one.
std::vector<Shape> shapes_of(const Options& o);

// Applies --isa (bcast_set_max_isa) if given; false after printing a refusal.
bool apply_isa(const Options& o);

// The pool --threads asks for: none for 1, else bcast_pool_create(o.threads).
bcast_status make_pool(const Options& o, PoolHandle* pool);

// A usage error unless --quant was given not at all or num_inputs + 1 times
// (each input's in order, then the output's).
void check_quant_count(const Options& o, std::size_t num_inputs);

// Creates o.op for `dtype` with o's rule (or expand mode) and axis, and
// --quant's parameters (check_quant_count).
bcast_status create_op(const Options& o, int32_t dtype, std::size_t num_inputs, OpHandle* h);


}  // namespace bcast_cli
