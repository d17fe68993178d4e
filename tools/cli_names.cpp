#include "cli_names.hpp"

#include "cli_common.hpp"
#include "cli_parse.hpp"

#include <bcast/bcast.h>

#include <algorithm>

namespace bcast_cli {

namespace {

// One kind of name: the library's look-ups and the CLI's own aliases.
struct Alias {
    const char* alias;
    const char* name;
};

struct Kind {
    const char* what;                        // "rule", as the messages say it
    const char* (*name_of)(int32_t) noexcept;  // NULL past the last value
    bcast_status (*value_of)(const char*, int32_t*) noexcept;
    const char* separator;                   // between names in the help texts
};

const Kind kRule = {"rule", bcast_rule_name, bcast_rule_from_name, ", "};
const Kind kMode = {"expand mode", bcast_expand_mode_name, bcast_expand_mode_from_name, ", "};
const Kind kOp = {"op", bcast_opcode_name, bcast_opcode_from_name, " "};
const Kind kDtype = {"dtype", bcast_dtype_name, bcast_dtype_from_name, " "};
// Kernel sets have no value of their own: bcast_set_max_isa takes the name.
const Kind kIsa = {"ISA", bcast_isa_name, nullptr, ", "};

const Alias kRuleAliases[] = {{"multidirectional", "numpy"}, {"legacy", "onnx_legacy"}};
const Alias kOpAliases[] = {
    {"floordiv", "floor_divide"}, {"where", "select"}, {"expand", "copy"}, {"broadcast", "copy"}};
// numpy's spellings: float32 -> f32, uint8 -> u8, bfloat16 -> bf16 ...
const Alias kDtypePrefixes[] = {{"bfloat", "bf"}, {"float", "f"}, {"uint", "u"}, {"int", "i"}};
const Alias kDtypeAliases[] = {{"float", "f32"}, {"double", "f64"}, {"half", "f16"}};

std::string names_of(const Kind& kind) {
    std::string list;
    for (int32_t v = 0; const char* name = kind.name_of(v); ++v)
        list += (v ? kind.separator : "") + name_key(name);
    return list;
}

template <size_t N>
std::string unaliased(const Alias (&aliases)[N], const std::string& key) {
    for (const Alias& a : aliases)
        if (key == a.alias) return a.name;
    return key;
}

std::string numpy_dtype_spelling(const std::string& key) {
    for (const Alias& p : kDtypePrefixes) {
        const std::string prefix = p.alias;
        const std::string bits = key.substr(std::min(prefix.size(), key.size()));
        if (key.compare(0, prefix.size(), prefix) == 0 && !bits.empty() &&
            bits.find_first_not_of("0123456789") == std::string::npos)
            return p.name + bits;
    }
    return unaliased(kDtypeAliases, key);
}

int32_t lookup(const Kind& kind, const std::string& text, const std::string& name,
               const std::string& choices) {
    int32_t value = 0;
    if (kind.value_of(name.c_str(), &value) == BCAST_OK) return value;
    usage_error(std::string("unknown ") + kind.what + " '" + text + "' (" + choices + ")");
}

std::string choose_from(const Kind& kind) { return "choose from: " + names_of(kind); }

}  // namespace

int32_t parse_rule(const std::string& text) {
    return lookup(kRule, text, unaliased(kRuleAliases, name_key(trim(text))), choose_from(kRule));
}

int32_t parse_expand_mode(const std::string& text) {
    return lookup(kMode, text, name_key(trim(text)), choose_from(kMode));
}

int32_t parse_op(const std::string& text) {
    const std::string key = name_key(trim(text));
    int64_t v = 0;
    if (parse_int(key, false, &v)) {  // an opcode number: one the library names
        if (v > INT32_MAX || bcast_opcode_name(static_cast<bcast_opcode>(v)) == nullptr)
            usage_error("unknown op number '" + text + "' (see `bcast plan --help` for the names)");
        return static_cast<int32_t>(v);
    }
    return lookup(kOp, text, unaliased(kOpAliases, key), "see `bcast plan --help` for the names");
}

int32_t parse_dtype(const std::string& text) {
    return lookup(kDtype, text, numpy_dtype_spelling(name_key(trim(text))), choose_from(kDtype));
}

const char* dtype_name(int32_t dtype) {
    const char* name = bcast_dtype_name(dtype);
    return name ? name : "?";
}

std::string with_names(const char* help) {
    static const struct {
        const char* placeholder;
        const Kind* kind;
    } kLists[] = {{"{OPS}", &kOp}, {"{DTYPES}", &kDtype}, {"{RULES}", &kRule}, {"{MODES}", &kMode},
                   {"{ISAS}", &kIsa}};
    std::string text = help;
    for (const auto& list : kLists) {
        for (size_t at; (at = text.find(list.placeholder)) != std::string::npos;) {
            const size_t column = at - (text.rfind('\n', at) + 1);
            const std::string names = names_of(*list.kind);
            // Wrap at the separators' blanks: nothing runs past column 80.
            std::string wrapped;
            size_t width = column;
            for (size_t start = 0; start < names.size();) {
                size_t end = names.find(' ', start);
                if (end == std::string::npos) end = names.size();
                const std::string word = names.substr(start, end - start);
                if (width > column && width + 1 + word.size() > 80) {
                    wrapped += "\n" + std::string(column, ' ');
                    width = column;
                } else if (width > column) {
                    wrapped += ' ';
                    ++width;
                }
                wrapped += word;
                width += word.size();
                start = end + 1;
            }
            text.replace(at, std::string(list.placeholder).size(), wrapped);
        }
    }
    return text;
}

}  // namespace bcast_cli
