#include "tuning/tuning_text.hpp"

#include <cstdio>

namespace bcast::tuning {
namespace {

constexpr int kMaxDepth = 8;
constexpr std::size_t kMaxMembers = 512;

// A recursive-descent reader of the subset; every error names the offset.
class Reader {
public:
    Reader(std::string_view text, std::vector<FlatValue>& out) : s_(text), out_(out) {}

    std::string run() {
        if (s_.size() > kMaxTextBytes) {
            return "larger than " + std::to_string(kMaxTextBytes) + " bytes";
        }
        skip_space();
        if (!peek('{')) return error("expected '{'");
        if (!value("", 0)) return error_;
        skip_space();
        if (pos_ != s_.size()) return error("text after the object");
        return "";
    }

private:
    std::string_view s_;
    std::vector<FlatValue>& out_;
    std::size_t pos_ = 0;
    std::string error_;
    // The container being read: its members are out_[scope_begin_...], and
    // their paths start with its path, scope_prefix_ characters long.
    std::size_t scope_begin_ = 0;
    std::size_t scope_prefix_ = 0;

    std::string error(const char* what) {
        error_ = std::string(what) + " at byte " + std::to_string(pos_);
        return error_;
    }
    bool fail(const char* what) {
        error(what);
        return false;
    }
    void skip_space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' ||
                                    s_[pos_] == '\r')) {
            ++pos_;
        }
    }
    bool peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
    bool take(char c) {
        skip_space();
        if (!peek(c)) return false;
        ++pos_;
        return true;
    }
    bool literal(std::string_view word) {
        if (s_.substr(pos_, word.size()) != word) return fail("unknown literal");
        pos_ += word.size();
        return true;
    }
    // A key given again replaces what it held before: the member and,
    // for an object, its members, all among the container's members (an
    // earlier container at its path went when it was given again), whose
    // paths need comparing only past the container's own.
    bool add(FlatValue v) {
        const std::string& p = v.path;
        const std::size_t from = scope_prefix_, n = p.size() - from;
        std::size_t kept = scope_begin_;
        for (std::size_t i = scope_begin_; i < out_.size(); ++i) {
            const std::string& q = out_[i].path;
            if (q.size() >= p.size() && q.compare(from, n, p, from, n) == 0) continue;  // p, or under it
            if (kept != i) out_[kept] = std::move(out_[i]);
            ++kept;
        }
        out_.resize(kept);
        if (out_.size() >= kMaxMembers) return fail("too many members");
        out_.push_back(std::move(v));
        return true;
    }

    static void append_utf8(std::string& s, unsigned cp) {
        if (cp < 0x80) {
            s += static_cast<char>(cp);
        } else if (cp < 0x800) {
            s += static_cast<char>(0xc0 | (cp >> 6));
            s += static_cast<char>(0x80 | (cp & 0x3f));
        } else {
            s += static_cast<char>(0xe0 | (cp >> 12));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            s += static_cast<char>(0x80 | (cp & 0x3f));
        }
    }

    bool string(std::string& out) {
        if (!peek('"')) return fail("expected a string");
        ++pos_;
        for (;;) {
            if (pos_ >= s_.size()) return fail("unterminated string");
            const char c = s_[pos_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) return fail("unterminated escape");
            const char e = s_[pos_++];
            switch (e) {
                case '"': case '\\': case '/': out += e; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned cp = 0;
                    for (int k = 0; k < 4; ++k, ++pos_) {
                        if (pos_ >= s_.size()) return fail("short \\u escape");
                        const char h = s_[pos_];
                        const int d = h >= '0' && h <= '9'   ? h - '0'
                                      : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                      : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                             : -1;
                        if (d < 0) return fail("bad \\u escape");
                        cp = cp * 16 + static_cast<unsigned>(d);
                    }
                    // No surrogate pairs: nothing bcast writes needs them. U+DC80..
                    // U+DCFF are the bytes json_quote found in no character.
                    if (cp >= 0xdc80 && cp <= 0xdcff) {
                        out += static_cast<char>(cp - 0xdc00);
                        break;
                    }
                    if (cp >= 0xd800 && cp <= 0xdfff) return fail("surrogate in \\u escape");
                    append_utf8(out, cp);
                    break;
                }
                default: return fail("bad escape");
            }
        }
    }

    bool integer(int64_t& v) {
        const bool negative = peek('-');
        if (negative) ++pos_;
        if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') return fail("expected a digit");
        if (s_[pos_] == '0' && pos_ + 1 < s_.size() && s_[pos_ + 1] >= '0' && s_[pos_ + 1] <= '9') {
            return fail("leading zero");
        }
        uint64_t magnitude = 0;
        const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
            const auto d = static_cast<uint64_t>(s_[pos_++] - '0');
            if (magnitude > (limit - d) / 10) return fail("integer out of range");
            magnitude = magnitude * 10 + d;
        }
        if (peek('.') || peek('e') || peek('E')) return fail("not an integer");
        v = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
        return true;
    }

    bool value(const std::string& path, int depth) {
        skip_space();
        if (pos_ >= s_.size()) return fail("unexpected end");
        if (depth > kMaxDepth) return fail("nested too deep");
        const char c = s_[pos_];
        FlatValue v;
        v.path = path;
        if (c == '{' || c == '[') {  // recorded, so that a choice given as one is refused
            v.container = c;
            if (!path.empty() && !add(std::move(v))) return false;
            const std::size_t outer_begin = scope_begin_, outer_prefix = scope_prefix_;
            scope_begin_ = out_.size();
            scope_prefix_ = path.size();
            const bool read = c == '{' ? object(path, depth) : array(path, depth);
            scope_begin_ = outer_begin;
            scope_prefix_ = outer_prefix;
            return read;
        }
        if (c == '"') {
            v.is_string = true;
            if (!string(v.text)) return false;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            v.is_integer = true;
            if (!integer(v.integer)) return false;
        } else if (c == 't') {
            if (!literal("true")) return false;
        } else if (c == 'f') {
            if (!literal("false")) return false;
        } else if (c == 'n') {
            if (!literal("null")) return false;
        } else {
            return fail("unexpected character");
        }
        return add(std::move(v));
    }

    bool object(const std::string& path, int depth) {
        ++pos_;  // '{'
        if (take('}')) return true;
        do {
            skip_space();
            std::string key;
            if (!string(key)) return false;
            if (key.find(kKeyEnd) != std::string::npos) return fail("key holds \\u001f");
            if (!take(':')) return fail("expected ':'");
            if (!value(path + key + kKeyEnd, depth + 1)) return false;
        } while (take(','));
        if (!take('}')) return fail("expected ',' or '}'");
        return true;
    }

    // Arrays are read (so that unknown members may hold them), not kept.
    bool array(const std::string& path, int depth) {
        ++pos_;  // '['
        if (take(']')) return true;
        do {
            const std::size_t kept = out_.size();
            if (!value(path + "[]" + kKeyEnd, depth + 1)) return false;
            out_.resize(kept);
        } while (take(','));
        if (!take(']')) return fail("expected ',' or ']'");
        return true;
    }
};

std::string read_choice(const std::vector<FlatValue>& m, const std::string& prefix, const char* name,
                        PrefetchHint& hint) {
    const FlatValue* v = find_member(m, prefix + member_path({name}));
    if (v == nullptr) return "";
    if (!v->is_string || !hint_from_name(v->text, hint)) {
        return std::string(name) + " is not one of none, nta, t2, t1, t0";
    }
    return "";
}

std::string read_choice(const std::vector<FlatValue>& m, const std::string& prefix, const char* name,
                        uint64_t& value, uint64_t lo, uint64_t hi) {
    const FlatValue* v = find_member(m, prefix + member_path({name}));
    if (v == nullptr) return "";
    if (!v->is_integer || v->integer < 0 || static_cast<uint64_t>(v->integer) < lo ||
        static_cast<uint64_t>(v->integer) > hi) {
        return std::string(name) + " is not an integer in [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "]";
    }
    value = static_cast<uint64_t>(v->integer);
    return "";
}

}  // namespace

const char* hint_name(PrefetchHint hint) {
    switch (hint) {
        case PrefetchHint::none: return "none";
        case PrefetchHint::nta: return "nta";
        case PrefetchHint::t2: return "t2";
        case PrefetchHint::t1: return "t1";
        case PrefetchHint::t0: return "t0";
    }
    return "?";
}

bool hint_from_name(const std::string& name, PrefetchHint& hint) {
    for (PrefetchHint h : {PrefetchHint::none, PrefetchHint::nta, PrefetchHint::t2, PrefetchHint::t1,
                           PrefetchHint::t0}) {
        if (name == hint_name(h)) {
            hint = h;
            return true;
        }
    }
    return false;
}

std::string flatten(std::string_view text, std::vector<FlatValue>& out) {
    out.clear();
    return Reader(text, out).run();
}

std::string member_path(std::initializer_list<std::string_view> keys) {
    std::string path;
    for (std::string_view key : keys) (path += key) += kKeyEnd;
    return path;
}

const FlatValue* find_member(const std::vector<FlatValue>& members, std::string_view path) {
    for (const FlatValue& v : members) {
        if (v.path == path) return &v;  // a key given again replaced the earlier one
    }
    return nullptr;
}

std::string read_tuning_text(std::string_view text, const Tuning& defaults, TuningText& out) {
    std::vector<FlatValue> m;
    const std::string bad = flatten(text, m);
    if (!bad.empty()) return "not a tuning text: " + bad;
    const FlatValue* format = find_member(m, member_path({"format"}));
    const FlatValue* gen = find_member(m, member_path({"kernel_gen"}));
    if (format == nullptr || !format->is_integer) return "no integer \"format\"";
    if (format->integer != kFormat) {
        return "format " + std::to_string(format->integer) + ", this library reads " +
               std::to_string(kFormat);
    }
    if (gen == nullptr || !gen->is_integer) return "no integer \"kernel_gen\"";
    if (gen->integer != kKernelGen) {
        return "kernel_gen " + std::to_string(gen->integer) + ", these kernels are " +
               std::to_string(kKernelGen);
    }
    TuningText t;
    t.format = format->integer;
    t.kernel_gen = gen->integer;
    const FlatValue* vendor = find_member(m, member_path({"key", "vendor"}));
    const FlatValue* family = find_member(m, member_path({"key", "family"}));
    const FlatValue* model = find_member(m, member_path({"key", "model"}));
    const FlatValue* isa = find_member(m, member_path({"key", "isa"}));
    if (!vendor || !vendor->is_string || !family || !family->is_integer || !model ||
        !model->is_integer || !isa || !isa->is_string) {
        return "no complete \"key\" (vendor, family, model, isa)";
    }
    t.key = HostKey{vendor->text, family->integer, model->integer, isa->text};
    const FlatValue* choices = find_member(m, member_path({"choices"}));
    if (choices != nullptr && choices->container != '{') return "\"choices\" is not an object";
    const std::string why = read_choices(m, member_path({"choices"}), defaults, t.tuning);
    if (!why.empty()) return why;
    out = t;
    return "";
}

std::string read_choices(const std::vector<FlatValue>& members, const std::string& prefix,
                         const Tuning& defaults, Tuning& out) {
    Tuning t = defaults;
    std::string why;
#define BCAST_READ_HINT(name, member) \
    if (why.empty()) why = read_choice(members, prefix, name, t.member);
#define BCAST_READ_SIZE(name, member, lo, hi) \
    if (why.empty()) why = read_choice(members, prefix, name, t.member, lo, hi);
    BCAST_TUNING_CHOICES(BCAST_READ_HINT, BCAST_READ_SIZE)
#undef BCAST_READ_HINT
#undef BCAST_READ_SIZE
    // A pair's one_input value follows its first where only that is set
    // (files from before the one_input values).
    const auto follows = [&](const char* first, const char* one_input, uint64_t value, uint64_t& follower) {
        if (find_member(members, prefix + member_path({first})) &&
            !find_member(members, prefix + member_path({one_input})))
            follower = value;
    };
    follows("nt_min_bytes.1t", "nt_min_bytes.1t.one_input", t.nt_min_bytes_1t, t.nt_min_bytes_1t_one_input);
    follows("nt_min_bytes.nt", "nt_min_bytes.nt.one_input", t.nt_min_bytes_nt, t.nt_min_bytes_nt_one_input);
    if (why.empty()) out = t;
    return why;
}

std::string choices_json(const Tuning& t) {
    std::string s;
#define BCAST_WRITE_HINT(name, member) \
    s += std::string(s.empty() ? "" : ",") + "\"" name "\":\"" + hint_name(t.member) + "\"";
#define BCAST_WRITE_SIZE(name, member, lo, hi) \
    s += std::string(s.empty() ? "" : ",") + "\"" name "\":" + std::to_string(t.member);
    BCAST_TUNING_CHOICES(BCAST_WRITE_HINT, BCAST_WRITE_SIZE)
#undef BCAST_WRITE_HINT
#undef BCAST_WRITE_SIZE
    return s;
}

std::string key_json(const HostKey& key) {
    return "\"vendor\":" + json_quote(key.vendor) + ",\"family\":" + std::to_string(key.family) +
           ",\"model\":" + std::to_string(key.model) + ",\"isa\":" + json_quote(key.isa);
}

std::string write_tuning_text(const HostKey& key, const Tuning& t, const std::string& info) {
    return "{\"format\":" + std::to_string(kFormat) + ",\"kernel_gen\":" + std::to_string(kKernelGen) +
           ",\n\"key\":{" + key_json(key) + "},\n\"choices\":{" + choices_json(t) + "},\n\"info\":{" +
           info + "}}\n";
}

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (1 for ASCII), or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto at = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const unsigned lead = at(0);
    if (lead < 0x80) return 1;
    // The second byte's range depends on the lead (no overlong forms, no
    // surrogates, nothing past U+10FFFF); later ones are 80..BF.
    std::size_t n = 0;
    unsigned lo = 0x80, hi = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) n = 2;
    else if (lead >= 0xe0 && lead <= 0xef) n = 3, lo = lead == 0xe0 ? 0xa0 : 0x80, hi = lead == 0xed ? 0x9f : 0xbf;
    else if (lead >= 0xf0 && lead <= 0xf4) n = 4, lo = lead == 0xf0 ? 0x90 : 0x80, hi = lead == 0xf4 ? 0x8f : 0xbf;
    else return 0;
    if (at(1) < lo || at(1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k) {
        if (at(k) < 0x80 || at(k) > 0xbf) return 0;
    }
    return n;
}

}  // namespace

std::string json_quote(std::string_view s) {
    std::string q = "\"";
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        const std::size_t n = utf8_length(s, i);
        if (c == '"' || c == '\\') {
            q += '\\';
            q += c;
        } else if (n == 0 || static_cast<unsigned char>(c) < 0x20) {
            // Control characters, and bytes of no UTF-8 character (a path
            // may hold any) as U+DC80..U+DCFF, Python's surrogateescape.
            char buf[8];
            const unsigned u = static_cast<unsigned char>(c);
            std::snprintf(buf, sizeof buf, "\\u%04x", n == 0 ? 0xdc00 + u : u);
            q += buf;
        } else {
            q.append(s.substr(i, n));
            i += n;
            continue;
        }
        ++i;
    }
    return q + "\"";
}

}  // namespace bcast::tuning
