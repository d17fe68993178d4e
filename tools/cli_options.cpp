#include "cli_options.hpp"

#include "cli_names.hpp"
#include "cli_parse.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace bcast_cli {

namespace {

double parse_seconds(const std::string& text) {
    const std::string s = trim(text);
    char* end = nullptr;
    const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || v <= 0.0 || v > 1e6)
        usage_error("bad --seconds '" + text + "': expected a positive number of seconds");
    return v;
}

std::size_t parse_threads(const std::string& text) {
    const std::string s = trim(text);
    char* end = nullptr;
    const unsigned long long v = s.empty() || s[0] == '-' ? 0 : std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || s[0] == '-' || *end != '\0' || v > 4096)
        usage_error("bad --threads '" + text + "': expected 0 (every CPU) to 4096");
    return static_cast<std::size_t>(v);
}

QuantArg parse_quant(const std::string& text) {
    const std::string s = trim(text);
    const std::size_t colon = s.find(':');
    const std::string scale = colon == std::string::npos ? std::string() : s.substr(0, colon);
    QuantArg q;
    char* end = nullptr;
    int64_t zp = 0;
    errno = 0;
    if (!scale.empty()) q.scale = std::strtof(scale.c_str(), &end);
    const bool out_of_range = errno == ERANGE;
    if (end == nullptr || *end != '\0' || !parse_int(s.substr(colon + 1), true, &zp) ||
        zp < INT32_MIN || zp > INT32_MAX) {
        usage_error("bad --quant '" + text + "': expected SCALE:ZERO_POINT, e.g. 0.05:128");
    }
    // Said with the scale as typed: the library would name the float it became.
    if (out_of_range) {
        char became[32];
        std::snprintf(became, sizeof became, "%g", static_cast<double>(q.scale));
        usage_error("bad --quant '" + text + "': the scale " + scale +
                    " is beyond float32's normal range (it would be " + became + ")");
    }
    q.zero_point = static_cast<int32_t>(zp);
    return q;  // the library checks the values
}

}  // namespace

Options parse_options(int argc, char** argv, int first, unsigned groups) {
    Options o;
    const auto accepts = [groups](unsigned group) { return (groups & group) != 0; };
    bool only_positional = false;
    // An option that takes one value is given once (--node and --quant
    // repeat by design); a second one is an error, not a silent override.
    std::vector<std::string> given;
    std::string name;  // the option as spelled (-e, --mode: --expand's other names)
    const auto once = [&given, &name](const char* option) {
        if (std::find(given.begin(), given.end(), option) != given.end()) {
            usage_error(name + " given twice" + (name == option ? "" : std::string(" (another name of ") + option + ")"));
        }
        given.emplace_back(option);
    };
    for (int i = first; i < argc; ++i) {
        const std::string arg = argv[i];
        // "-3" is a (bad) shape, not an option.
        const bool is_option = !only_positional && arg.size() >= 2 && arg[0] == '-' &&
                               !std::isdigit(static_cast<unsigned char>(arg[1]));
        if (!only_positional && arg == "--") {
            only_positional = true;
            continue;
        }
        if (!is_option) {
            o.args.push_back(arg);
            continue;
        }
        name = arg;
        std::string value;
        bool has_inline_value = false;
        const size_t eq = arg.find('=');
        if (arg.compare(0, 2, "--") == 0 && eq != std::string::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            has_inline_value = true;
        } else if (arg[1] != '-' && arg.size() > 2) {  // -oFILE, as getopt takes it
            name = arg.substr(0, 2);
            value = arg.substr(2);
            has_inline_value = true;
        }
        auto take_value = [&]() -> std::string {
            if (has_inline_value) return value;
            if (i + 1 >= argc) usage_error("option " + name + " needs a value");
            return argv[++i];
        };
        auto no_value = [&]() {
            if (has_inline_value) usage_error("option " + name + " takes no value");
        };
        if (name == "-h" || name == "--help") {
            no_value();
            o.help = true;
        } else if (accepts(kRuleOptions) && (name == "--rule" || name == "-r")) {
            once("--rule");
            o.rule = parse_rule(take_value());
            o.have_rule = true;
        } else if (accepts(kExpandOptions) &&
                   (name == "--expand" || name == "--mode" || name == "-e")) {
            once("--expand");
            o.expand_mode = parse_expand_mode(take_value());
            o.have_expand = true;
        } else if (accepts(kRuleOptions) && (name == "--axis" || name == "-a")) {
            once("--axis");
            const std::string v = take_value();
            if (!parse_int(v, true, &o.axis))
                usage_error("bad --axis '" + v + "': expected an integer");
            o.have_axis = true;
        } else if (accepts(kExpandOptions) &&
                   (name == "--axes-mapping" || name == "--axes_mapping" || name == "-m")) {
            once("--axes-mapping");
            o.mapping = parse_int_list(take_value(), "--axes-mapping");
            o.have_mapping = true;
        } else if (accepts(kExpandOptions) && (name == "--ncnn-order" || name == "--ncnn_order")) {
            no_value();
            o.ncnn_order = true;
        } else if (accepts(kOpOption) && name == "--op") {
            once("--op");
            o.op = parse_op(take_value());
            o.have_op = true;
        } else if (accepts(kDtypeOption) && (name == "--dtype" || name == "-t")) {
            once("--dtype");
            o.dtype = parse_dtype(take_value());
            o.have_dtype = true;
        } else if (accepts(kIsaOption) && name == "--isa") {
            once("--isa");
            o.isa = take_value();
            if (o.isa.empty()) usage_error("--isa needs a kernel set name");
        } else if (accepts(kOutOption) && (name == "--out" || name == "-o")) {
            once("--out");
            o.out_path = take_value();
            if (o.out_path.empty()) usage_error("--out needs a file name");
        } else if (accepts(kSecondsOption) && name == "--seconds") {
            once("--seconds");
            o.seconds = parse_seconds(take_value());
        } else if (accepts(kNodeOption) && name == "--node") {
            o.nodes.push_back(take_value());
        } else if (accepts(kQuantOption) && name == "--quant") {
            o.quant.push_back(parse_quant(take_value()));
        } else if (accepts(kQuickOption) && arg == "--quick") {
            o.quick = true;
        } else if (accepts(kVerboseOption) && arg == "--verbose") {
            o.verbose = true;
        } else if (accepts(kJsonOption) && arg == "--json") {
            o.json = true;
        } else if (accepts(kThreadsOption) && name == "--threads") {
            once("--threads");
            o.threads = parse_threads(take_value());
            o.have_threads = true;
        } else {
            usage_error("unknown option '" + arg + "'");
        }
    }
    if (!o.help && !o.quant.empty() && accepts(kDtypeOption) && !o.have_dtype)
        usage_error("--quant quantizes u8 or i8 values: give --dtype u8 or --dtype i8");
    if (o.help || !accepts(kExpandOptions)) return o;
    if (!o.nodes.empty()) {  // a fused expression: each node has its own rule
        if (o.have_rule || o.have_expand || o.have_op || o.have_axis)
            usage_error("--node takes its op, rule and axis in its own value, not --op/--rule/--axis/--expand");
        if (o.have_mapping) usage_error("--axes-mapping is only for --expand explicit, not for --node");
        return o;  // --ncnn-order: the inputs' shapes are given innermost first, as anywhere
    }
    if (o.have_rule && o.have_expand) usage_error("give either --rule or --expand, not both");
    if (!o.quant.empty() && o.have_expand)  // the library: UNSUPPORTED from bcast_op_plan_to
        usage_error("--quant does not go with --expand: a quantized op broadcasts by --rule");
    if (o.have_mapping && !(o.have_expand && o.expand_mode == BCAST_EXPAND_EXPLICIT))
        usage_error("--axes-mapping is only for --expand explicit");
    if (o.ncnn_order && o.have_expand)
        usage_error("--ncnn-order applies to --rule only");
    if (o.ncnn_order && o.have_axis)
        usage_error("--ncnn-order cannot be combined with --axis (axes are in numpy order)");
    return o;
}

std::vector<Shape> shapes_of(const Options& o) {
    std::vector<Shape> shapes;
    for (const std::string& arg : o.args) {
        shapes.push_back(parse_shape(arg));
        if (o.ncnn_order) std::reverse(shapes.back().begin(), shapes.back().end());
    }
    if (shapes.empty()) usage_error("no shapes given");
    return shapes;
}

bool apply_isa(const Options& o) {
    if (o.isa.empty()) return true;
    const bcast_status st = bcast_set_max_isa(o.isa.c_str());
    if (st == BCAST_ERROR_INVALID_ARGUMENT) usage_error(std::string("--isa: ") + bcast_last_error());
    if (st != BCAST_OK) {
        refused(st);
        return false;
    }
    // A cap above what the CPU runs, or another architecture's ("neon" on
    // x86), caps less than it says: tell, so that no figure is misread.
    if (o.isa != bcast_isa())
        std::fprintf(stderr, "bcast: note: --isa %s runs %s on this CPU and build\n", o.isa.c_str(), bcast_isa());
    return true;
}

bcast_status make_pool(const Options& o, PoolHandle* pool) {
    if (o.threads == 1) return BCAST_OK;
    return bcast_pool_create(o.threads, &pool->pool);
}

void check_quant_count(const Options& o, std::size_t num_inputs) {
    if (!o.quant.empty() && o.quant.size() != num_inputs + 1) {
        usage_error("--quant given " + std::to_string(o.quant.size()) + " times: give it once per "
                    "input (" + std::to_string(num_inputs) + ") and once for the output");
    }
}

bcast_status create_op(const Options& o, int32_t dtype, std::size_t num_inputs, OpHandle* h) {
    check_quant_count(o, num_inputs);
    bcast_status st = bcast_op_create(o.op, dtype, &h->op);
    for (std::size_t k = 0; st == BCAST_OK && k < o.quant.size(); ++k) {
        const std::size_t operand = k < num_inputs ? k : BCAST_OUTPUT;
        st = bcast_op_set_quantization(h->op, operand, o.quant[k].scale, o.quant[k].zero_point);
    }
    if (st == BCAST_OK && o.have_expand)
        st = bcast_op_set_param(h->op, BCAST_PARAM_EXPAND_MODE, o.expand_mode);
    else if (st == BCAST_OK)
        st = bcast_op_set_param(h->op, BCAST_PARAM_RULE, o.rule);
    if (st == BCAST_OK && o.have_axis) st = bcast_op_set_param(h->op, BCAST_PARAM_AXIS, o.axis);
    return st;
}

}  // namespace bcast_cli
