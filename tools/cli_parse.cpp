#include "cli_parse.hpp"

#include <cctype>

namespace bcast_cli {

std::string name_key(const std::string& s) {
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
    if (name_key(s) == "scalar") return Shape();
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
            int64_t magnitude = 0;
            if (!t.empty() && t[0] == '-' && parse_int(t.substr(1), false, &magnitude))
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

}  // namespace bcast_cli
