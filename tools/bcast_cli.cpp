// bcast: command-line front end to libbcast's shape inference and planner.
//
// Uses only the public C API (<bcast/bcast.h>). Exit status: 0 success,
// 1 the library refused (status name and bcast_last_error() on stderr),
// 2 usage error (bad option, bad shape, ...).

#include <bcast/bcast.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;

using Shape = std::vector<int64_t>;

// Thrown for usage errors; caught in main, printed, exit 2.
struct UsageError {
    std::string message;
};

[[noreturn]] void usage_error(const std::string& message) { throw UsageError{message}; }

const char* const kMainHelp =
    "usage: bcast <command> [options] SHAPE...\n"
    "\n"
    "Broadcast shape inference and plan inspection for libbcast.\n"
    "\n"
    "commands:\n"
    "  shape   print the broadcast output shape of the given input shapes\n"
    "  plan    plan an element-wise op and print bcast_op_describe's JSON\n"
    "\n"
    "options:\n"
    "  -h, --help      show this help (or `bcast <command> --help`)\n"
    "  -V, --version   print the library version\n"
    "\n"
    "Shapes are written outer-to-inner (numpy order): 2,3,4  (2,3,4)  [2,3,4]  2x3x4.\n"
    "A scalar (rank 0) is (), [], scalar, or the empty string \"\".\n"
    "\n"
    "examples:\n"
    "  bcast shape --rule numpy 2,1,5 4,1               -> (2,4,5)\n"
    "  bcast shape --rule pdpd --axis 1 2,3,4,5 3,1     -> (2,3,4,5)\n"
    "  bcast shape --rule ncnn --ncnn-order 2,3,4 4     -> [2,3,4]\n"
    "  bcast shape --expand bidirectional 3,1 2,1,6     -> (2,3,6)\n"
    "  bcast plan --op add --dtype f32 --rule numpy 2,3,4 4\n"
    "\n"
    "exit status: 0 success, 1 the rule refused the shapes (message on stderr),\n"
    "2 usage error.\n";

const char* const kShapeHelp =
    "usage: bcast shape --rule RULE [--axis N] [--ncnn-order] SHAPE SHAPE...\n"
    "       bcast shape --expand MODE [--axis N] [--axes-mapping I,J,...] DATA TARGET\n"
    "\n"
    "Prints the output shape, e.g. (2,4,5), on stdout.\n"
    "\n"
    "  --rule RULE          element-wise rule (bcast_infer_shape): none, numpy,\n"
    "                       unidirectional, pdpd, onnx_legacy, ncnn\n"
    "                       (also: multidirectional = numpy). Input 0 is the primary\n"
    "                       operand for unidirectional, pdpd and onnx_legacy.\n"
    "  --expand MODE        broadcast DATA to TARGET (bcast_infer_expand_shape):\n"
    "                       numpy, bidirectional, explicit, pdpd\n"
    "  --axis N             axis for pdpd / onnx_legacy / expand pdpd (default -1)\n"
    "  --axes-mapping LIST  target axis of each data axis, for --expand explicit\n"
    "  --ncnn-order         shapes on the command line and the printed result are in\n"
    "                       ncnn notation [w,h,d,c] (innermost first), i.e. reversed;\n"
    "                       the result is printed in brackets, e.g. [2,3,4]\n"
    "\n"
    "Shapes: 2,3,4  (2,3,4)  [2,3,4]  2x3x4; () [] scalar \"\" for rank 0.\n"
    "Exit status: 0 success, 1 refused (\"bcast: <STATUS>: <message>\" on stderr),\n"
    "2 usage error.\n";

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

// ---------------------------------------------------------------------------
// Small parsing helpers

std::string lower(const std::string& s) {
    std::string r = s;
    for (char& c : r) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (c == '-') c = '_';
    }
    return r;
}

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

// A decimal integer, optional sign when allow_negative; whole string.
bool parse_int(const std::string& text, bool allow_negative, int64_t* out) {
    const std::string s = trim(text);
    if (s.empty()) return false;
    size_t i = 0;
    bool negative = false;
    if (s[0] == '+' || s[0] == '-') {
        if (s[0] == '-') {
            if (!allow_negative) return false;
            negative = true;
        }
        i = 1;
    }
    if (i >= s.size()) return false;
    uint64_t value = 0;
    const uint64_t limit = negative ? static_cast<uint64_t>(INT64_MAX) + 1u
                                    : static_cast<uint64_t>(INT64_MAX);
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c < '0' || c > '9') return false;
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (limit - digit) / 10u) return false;  // overflow
        value = value * 10u + digit;
    }
    if (negative) {
        *out = value == static_cast<uint64_t>(INT64_MAX) + 1u ? INT64_MIN
                                                              : -static_cast<int64_t>(value);
    } else {
        *out = static_cast<int64_t>(value);
    }
    return true;
}

// "2,3,4", "(2,3,4)", "[2,3,4]", "2x3x4", "2 3 4", "(5,)", "()", "scalar", "".
Shape parse_shape(const std::string& arg) {
    std::string s = trim(arg);
    if (lower(s) == "scalar") return Shape();
    if (!s.empty() && (s.front() == '(' || s.front() == '[')) {
        const char close = s.front() == '(' ? ')' : ']';
        if (s.size() < 2 || s.back() != close)
            usage_error("bad shape '" + arg + "': unbalanced bracket");
        s = trim(s.substr(1, s.size() - 2));
    }
    Shape dims;
    if (s.empty()) return dims;
    // Split on ',', 'x', 'X', '*' or runs of whitespace.
    std::vector<std::string> parts;
    std::string cur;
    bool last_was_sep = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == ',' || c == 'x' || c == 'X' || c == '*') {
            parts.push_back(cur);
            cur.clear();
            last_was_sep = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            // Whitespace separates only between two numbers ("2 3 4").
            size_t j = i;
            while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
            if (!trim(cur).empty() && j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
                parts.push_back(cur);
                cur.clear();
            }
            i = j - 1;
        } else {
            cur.push_back(c);
            last_was_sep = false;
        }
    }
    // A single trailing comma is allowed, Python style: (5,)
    if (!(last_was_sep && trim(cur).empty() && s.back() == ',' && !parts.empty()))
        parts.push_back(cur);
    for (const std::string& p : parts) {
        int64_t v = 0;
        if (trim(p).empty())
            usage_error("bad shape '" + arg + "': empty extent");
        if (!parse_int(p, false, &v)) {
            std::string t = trim(p);
            if (!t.empty() && t[0] == '-')
                usage_error("bad shape '" + arg + "': extents must be >= 0");
            usage_error("bad shape '" + arg + "': '" + t + "' is not a non-negative integer");
        }
        dims.push_back(v);
    }
    return dims;
}

std::vector<int64_t> parse_int_list(const std::string& arg, const char* what) {
    std::string s = trim(arg);
    if (!s.empty() && (s.front() == '(' || s.front() == '[')) {
        const char close = s.front() == '(' ? ')' : ']';
        if (s.size() < 2 || s.back() != close)
            usage_error(std::string("bad ") + what + " '" + arg + "': unbalanced bracket");
        s = trim(s.substr(1, s.size() - 2));
    }
    std::vector<int64_t> out;
    if (s.empty()) return out;
    if (s.back() == ',') s.pop_back();
    size_t start = 0;
    while (true) {
        const size_t comma = s.find(',', start);
        const std::string p = s.substr(start, comma == std::string::npos ? std::string::npos
                                                                          : comma - start);
        int64_t v = 0;
        if (!parse_int(p, true, &v))
            usage_error(std::string("bad ") + what + " '" + arg + "': '" + trim(p) +
                        "' is not an integer");
        out.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::string format_shape(const Shape& dims, bool ncnn_order) {
    std::string r = ncnn_order ? "[" : "(";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) r += ",";
        r += std::to_string(dims[ncnn_order ? dims.size() - 1 - i : i]);
    }
    r += ncnn_order ? "]" : ")";
    return r;
}

struct Named {
    const char* name;
    int32_t value;
};

const Named kRules[] = {
    {"none", BCAST_RULE_NONE},
    {"numpy", BCAST_RULE_NUMPY},
    {"multidirectional", BCAST_RULE_NUMPY},
    {"unidirectional", BCAST_RULE_UNIDIRECTIONAL},
    {"pdpd", BCAST_RULE_PDPD},
    {"onnx_legacy", BCAST_RULE_ONNX_LEGACY},
    {"legacy", BCAST_RULE_ONNX_LEGACY},
    {"ncnn", BCAST_RULE_NCNN},
};

const Named kExpandModes[] = {
    {"numpy", BCAST_EXPAND_NUMPY},
    {"bidirectional", BCAST_EXPAND_BIDIRECTIONAL},
    {"explicit", BCAST_EXPAND_EXPLICIT},
    {"pdpd", BCAST_EXPAND_PDPD},
};

const Named kOps[] = {
    {"add", BCAST_OP_ADD},
    {"sub", BCAST_OP_SUB},
    {"mul", BCAST_OP_MUL},
    {"div", BCAST_OP_DIV},
    {"max", BCAST_OP_MAX},
    {"min", BCAST_OP_MIN},
    {"pow", BCAST_OP_POW},
    {"rsub", BCAST_OP_RSUB},
    {"rdiv", BCAST_OP_RDIV},
    {"rpow", BCAST_OP_RPOW},
    {"atan2", BCAST_OP_ATAN2},
    {"ratan2", BCAST_OP_RATAN2},
    {"fmod", BCAST_OP_FMOD},
    {"rfmod", BCAST_OP_RFMOD},
    {"logaddexp", BCAST_OP_LOGADDEXP},
    {"floor_divide", BCAST_OP_FLOOR_DIVIDE},
    {"rfloor_divide", BCAST_OP_RFLOOR_DIVIDE},
    {"remainder", BCAST_OP_REMAINDER},
    {"rremainder", BCAST_OP_RREMAINDER},
    {"mod", BCAST_OP_MOD},
    {"squared_difference", BCAST_OP_SQUARED_DIFFERENCE},
    {"prelu", BCAST_OP_PRELU},
    {"equal", BCAST_OP_EQUAL},
    {"not_equal", BCAST_OP_NOT_EQUAL},
    {"less", BCAST_OP_LESS},
    {"less_equal", BCAST_OP_LESS_EQUAL},
    {"greater", BCAST_OP_GREATER},
    {"greater_equal", BCAST_OP_GREATER_EQUAL},
    {"logical_and", BCAST_OP_LOGICAL_AND},
    {"logical_or", BCAST_OP_LOGICAL_OR},
    {"logical_xor", BCAST_OP_LOGICAL_XOR},
    {"bitwise_and", BCAST_OP_BITWISE_AND},
    {"bitwise_or", BCAST_OP_BITWISE_OR},
    {"bitwise_xor", BCAST_OP_BITWISE_XOR},
    {"shift_left", BCAST_OP_SHIFT_LEFT},
    {"shift_right", BCAST_OP_SHIFT_RIGHT},
    {"mean", BCAST_OP_MEAN},
    {"select", BCAST_OP_SELECT},
    {"copy", BCAST_OP_COPY},
    // A few common aliases.
    {"floordiv", BCAST_OP_FLOOR_DIVIDE},
    {"where", BCAST_OP_SELECT},
    {"expand", BCAST_OP_COPY},
    {"broadcast", BCAST_OP_COPY},
};

const Named kDtypes[] = {
    {"f32", BCAST_DTYPE_F32},   {"float32", BCAST_DTYPE_F32}, {"float", BCAST_DTYPE_F32},
    {"f64", BCAST_DTYPE_F64},   {"float64", BCAST_DTYPE_F64}, {"double", BCAST_DTYPE_F64},
    {"f16", BCAST_DTYPE_F16},   {"float16", BCAST_DTYPE_F16}, {"half", BCAST_DTYPE_F16},
    {"bf16", BCAST_DTYPE_BF16}, {"bfloat16", BCAST_DTYPE_BF16},
    {"i8", BCAST_DTYPE_I8},     {"int8", BCAST_DTYPE_I8},
    {"u8", BCAST_DTYPE_U8},     {"uint8", BCAST_DTYPE_U8},
    {"i16", BCAST_DTYPE_I16},   {"int16", BCAST_DTYPE_I16},
    {"u16", BCAST_DTYPE_U16},   {"uint16", BCAST_DTYPE_U16},
    {"i32", BCAST_DTYPE_I32},   {"int32", BCAST_DTYPE_I32},
    {"u32", BCAST_DTYPE_U32},   {"uint32", BCAST_DTYPE_U32},
    {"i64", BCAST_DTYPE_I64},   {"int64", BCAST_DTYPE_I64},
    {"u64", BCAST_DTYPE_U64},   {"uint64", BCAST_DTYPE_U64},
    {"bool", BCAST_DTYPE_BOOL},
};

template <size_t N>
int32_t lookup(const Named (&table)[N], const std::string& text, const char* what,
               const char* choices, bool allow_number) {
    const std::string key = lower(trim(text));
    for (const Named& n : table)
        if (key == n.name) return n.value;
    int64_t v = 0;
    if (allow_number && parse_int(key, false, &v) && v <= INT32_MAX)
        return static_cast<int32_t>(v);  // the library validates the number
    if (std::strncmp(choices, "see ", 4) == 0)
        usage_error(std::string("unknown ") + what + " '" + text + "' (" + choices + ")");
    usage_error(std::string("unknown ") + what + " '" + text + "' (choose from: " + choices +
                ")");
}

const char* const kRuleChoices = "none, numpy, unidirectional, pdpd, onnx_legacy, ncnn";
const char* const kModeChoices = "numpy, bidirectional, explicit, pdpd";
const char* const kDtypeChoices = "f32 f64 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64 bool";
const char* const kOpChoices = "see `bcast plan --help` for the names";

// ---------------------------------------------------------------------------
// Command-line options shared by `shape` and `plan`

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
    int32_t dtype = BCAST_DTYPE_F32;
    std::string isa;
    std::vector<Shape> shapes;
    bool help = false;
};

// Parses argv[first..argc). `plan` enables --op/--dtype/--isa.
Options parse_options(int argc, char** argv, int first, bool plan) {
    Options o;
    bool only_positional = false;
    for (int i = first; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool is_option = !only_positional && arg.size() >= 2 && arg[0] == '-' &&
                               !std::isdigit(static_cast<unsigned char>(arg[1]));
        if (!only_positional && arg == "--") {
            only_positional = true;
            continue;
        }
        if (!is_option) {
            if (!only_positional && arg.size() >= 2 && arg[0] == '-')
                usage_error("bad shape '" + arg + "': extents must be >= 0");
            o.shapes.push_back(parse_shape(arg));
            continue;
        }
        std::string name = arg, value;
        bool has_inline_value = false;
        const size_t eq = arg.find('=');
        if (arg.compare(0, 2, "--") == 0 && eq != std::string::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
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
        } else if (name == "--rule" || name == "-r") {
            if (o.have_rule) usage_error("--rule given twice");
            o.rule = lookup(kRules, take_value(), "rule", kRuleChoices, false);
            o.have_rule = true;
        } else if (name == "--expand" || name == "--mode" || name == "-e") {
            if (o.have_expand) usage_error("--expand given twice");
            o.expand_mode = lookup(kExpandModes, take_value(), "expand mode", kModeChoices, false);
            o.have_expand = true;
        } else if (name == "--axis" || name == "-a") {
            const std::string v = take_value();
            if (!parse_int(v, true, &o.axis))
                usage_error("bad --axis '" + v + "': expected an integer");
            o.have_axis = true;
        } else if (name == "--axes-mapping" || name == "--axes_mapping" || name == "-m") {
            o.mapping = parse_int_list(take_value(), "--axes-mapping");
            o.have_mapping = true;
        } else if (name == "--ncnn-order" || name == "--ncnn_order") {
            no_value();
            o.ncnn_order = true;
        } else if (plan && (name == "--op" || name == "-o")) {
            o.op = lookup(kOps, take_value(), "op", kOpChoices, true);
            o.have_op = true;
        } else if (plan && (name == "--dtype" || name == "-t")) {
            o.dtype = lookup(kDtypes, take_value(), "dtype", kDtypeChoices, false);
        } else if (plan && name == "--isa") {
            o.isa = take_value();
        } else {
            usage_error("unknown option '" + arg + "'");
        }
    }
    if (o.help) return o;
    if (o.have_rule && o.have_expand) usage_error("give either --rule or --expand, not both");
    if (!o.have_rule && !o.have_expand)
        usage_error("missing --rule RULE (or --expand MODE)");
    if (o.have_mapping && !(o.have_expand && o.expand_mode == BCAST_EXPAND_EXPLICIT))
        usage_error("--axes-mapping is only for --expand explicit");
    if (o.ncnn_order && o.have_expand)
        usage_error("--ncnn-order applies to --rule only");
    if (o.ncnn_order && o.have_axis)
        usage_error("--ncnn-order cannot be combined with --axis (axes are in numpy order)");
    if (o.ncnn_order)
        for (Shape& s : o.shapes) std::reverse(s.begin(), s.end());
    if (o.shapes.empty()) usage_error("no shapes given");
    return o;
}

int refused(bcast_status st) {
    const char* msg = bcast_last_error();
    std::fprintf(stderr, "bcast: %s: %s\n", bcast_status_string(st),
                 (msg && *msg) ? msg : "(no message)");
    return kExitRefused;
}

// Pointer table for the C API (NULL for rank-0 shapes is fine, but a valid
// pointer is passed anyway).
struct ShapeTable {
    std::vector<size_t> ranks;
    std::vector<const int64_t*> dims;
    explicit ShapeTable(const std::vector<Shape>& shapes) {
        static const int64_t kNone = 0;
        for (const Shape& s : shapes) {
            ranks.push_back(s.size());
            dims.push_back(s.empty() ? &kNone : s.data());
        }
    }
};

int cmd_shape(int argc, char** argv) {
    const Options o = parse_options(argc, argv, 2, false);
    if (o.help) {
        std::fputs(kShapeHelp, stdout);
        return kExitOk;
    }
    size_t out_rank = 0;
    int64_t out_dims[BCAST_MAX_RANK];
    bcast_status st;
    if (o.have_expand) {
        if (o.shapes.size() != 2)
            usage_error("--expand needs exactly two shapes, DATA and TARGET (got " +
                        std::to_string(o.shapes.size()) + ")");
        const Shape& data = o.shapes[0];
        const Shape& target = o.shapes[1];
        st = bcast_infer_expand_shape(o.expand_mode, data.size(), data.data(), target.size(),
                                      target.data(),
                                      o.have_mapping ? o.mapping.data() : nullptr,
                                      o.have_mapping ? o.mapping.size() : 0, o.axis,
                                      BCAST_MAX_RANK, &out_rank, out_dims);
    } else {
        if (o.shapes.size() > BCAST_MAX_INPUTS)
            usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " shapes");
        ShapeTable t(o.shapes);
        st = bcast_infer_shape(o.rule, o.axis, o.shapes.size(), t.ranks.data(), t.dims.data(),
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

struct OpHandle {
    bcast_op* op = nullptr;
    ~OpHandle() { bcast_op_destroy(op); }
};

int cmd_plan(int argc, char** argv) {
    Options o = parse_options(argc, argv, 2, true);
    if (o.help) {
        std::fputs(kPlanHelp, stdout);
        return kExitOk;
    }
    if (o.have_expand && !o.have_op) o.op = BCAST_OP_COPY;
    if (!o.isa.empty()) {
        const bcast_status st = bcast_set_max_isa(o.isa.c_str());
        if (st != BCAST_OK) return refused(st);
    }
    if (o.shapes.size() > BCAST_MAX_INPUTS + (o.have_expand ? 1u : 0u))
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " input shapes");
    if (o.have_expand && o.shapes.size() < 2)
        usage_error("--expand needs at least two shapes: INPUT... TARGET");

    OpHandle h;
    bcast_status st = bcast_op_create(o.op, o.dtype, &h.op);
    if (st != BCAST_OK) return refused(st);
    if (o.have_rule) {
        st = bcast_op_set_param(h.op, BCAST_PARAM_RULE, o.rule);
        if (st != BCAST_OK) return refused(st);
    } else {
        st = bcast_op_set_param(h.op, BCAST_PARAM_EXPAND_MODE, o.expand_mode);
        if (st != BCAST_OK) return refused(st);
    }
    if (o.have_axis) {
        st = bcast_op_set_param(h.op, BCAST_PARAM_AXIS, o.axis);
        if (st != BCAST_OK) return refused(st);
    }
    if (o.have_expand) {
        const std::vector<Shape> inputs(o.shapes.begin(), o.shapes.end() - 1);
        const Shape& target = o.shapes.back();
        ShapeTable t(inputs);
        st = bcast_op_plan_to(h.op, inputs.size(), t.ranks.data(), t.dims.data(), nullptr,
                              target.size(), target.data(),
                              o.have_mapping ? o.mapping.data() : nullptr,
                              o.have_mapping ? o.mapping.size() : 0, nullptr);
    } else {
        ShapeTable t(o.shapes);
        st = bcast_op_plan(h.op, o.shapes.size(), t.ranks.data(), t.dims.data(), nullptr,
                           nullptr);
    }
    if (st != BCAST_OK) return refused(st);
    const size_t len = bcast_op_describe(h.op, nullptr, 0);
    std::vector<char> buf(len + 1, '\0');
    const size_t len2 = bcast_op_describe(h.op, buf.data(), buf.size());
    if (len2 != len) {
        std::fprintf(stderr, "bcast: bcast_op_describe returned %zu then %zu\n", len, len2);
        return kExitRefused;
    }
    std::fwrite(buf.data(), 1, std::strlen(buf.data()), stdout);
    std::fputc('\n', stdout);
    return kExitOk;
}

int run(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(kMainHelp, stderr);
        return kExitUsage;
    }
    const std::string cmd = argv[1];
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        if (cmd == "help" && argc > 2) {
            const std::string sub = argv[2];
            if (sub == "shape") return std::fputs(kShapeHelp, stdout), kExitOk;
            if (sub == "plan") return std::fputs(kPlanHelp, stdout), kExitOk;
        }
        std::fputs(kMainHelp, stdout);
        return kExitOk;
    }
    if (cmd == "-V" || cmd == "--version" || cmd == "version") {
        std::printf("bcast %s\n", bcast_version_string());
        return kExitOk;
    }
    if (cmd == "shape") return cmd_shape(argc, argv);
    if (cmd == "plan") return cmd_plan(argc, argv);
    usage_error("unknown command '" + cmd + "' (expected shape or plan; see bcast --help)");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const int rc = run(argc, argv);
        if (std::fflush(stdout) != 0) {
            std::fprintf(stderr, "bcast: error writing output\n");
            return kExitRefused;
        }
        return rc;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "bcast: %s\n", e.message.c_str());
        std::fprintf(stderr, "Try 'bcast --help'.\n");
        return kExitUsage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bcast: %s\n", e.what());
        return kExitRefused;
    } catch (...) {
        std::fprintf(stderr, "bcast: unexpected error\n");
        return kExitRefused;
    }
}
