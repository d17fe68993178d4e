#include "cli_parse.hpp"

#include <cctype>
#include <cstring>

namespace bcast_cli {

namespace {

std::string lower(const std::string& s) {
    std::string r = s;
    for (char& c : r) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (c == '-') c = '_';
    }
    return r;
}

}  // namespace

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

namespace {

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

}  // namespace

int32_t parse_rule(const std::string& text) {
    return lookup(kRules, text, "rule", kRuleChoices, false);
}

int32_t parse_expand_mode(const std::string& text) {
    return lookup(kExpandModes, text, "expand mode", kModeChoices, false);
}

int32_t parse_op(const std::string& text) { return lookup(kOps, text, "op", kOpChoices, true); }

int32_t parse_dtype(const std::string& text) {
    return lookup(kDtypes, text, "dtype", kDtypeChoices, false);
}

const char* dtype_name(int32_t dtype) {
    for (const Named& n : kDtypes)  // the first spelling of each is the short name
        if (n.value == dtype) return n.name;
    return "?";
}


}  // namespace bcast_cli
