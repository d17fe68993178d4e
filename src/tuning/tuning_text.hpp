// The tuning file's text, read and written (docs/kernels.md, "Tuning"):
//
//   {"format":1,"kernel_gen":1,
//    "key":{"vendor":"AuthenticAMD","family":26,"model":2,"isa":"avx512"},
//    "choices":{"prefetch.rows.hint":"nta","prefetch.rows.distance":4096,...},
//    "info":{...anything: not read}}
//
// A JSON subset: objects, arrays (skipped), strings, integers, true, false,
// null; no fractions, so no locale. Caps on size, depth and entries keep
// hostile text cheap; any input gives a result or a reason, never a crash
// (tests/fuzz/fuzz_tuning.cpp). Unknown members are ignored, absent choices
// keep their defaults, a choice out of its range voids the text.
#pragma once

#include "tuning/tuning_values.hpp"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace bcast::tuning {

constexpr std::size_t kMaxTextBytes = 64 * 1024;

// A member, named by its path: its object keys from the top down, each
// ended by kKeyEnd (a key holding that character is refused), so that
// "choices":{"a.b":1} and "choices":{"a":{"b":1}} are told apart.
struct FlatValue {
    std::string path;
    bool is_string = false;
    bool is_integer = false;  // else true, false or null
    char container = 0;       // '{' an object, '[' an array (its members follow; an array's not kept)
    std::string text;         // a string's characters
    int64_t integer = 0;
};

constexpr char kKeyEnd = '\x1f';

// The path of the member under these keys, e.g. member_path({"key", "vendor"}).
std::string member_path(std::initializer_list<std::string_view> keys);

// Every member of the text's top object, nested ones by their path, in
// text order; "" or why the text is not the JSON subset above. JSON lets a
// key repeat: the last one wins, as in most readers (an object given again
// replaces the earlier one and all it held).
std::string flatten(std::string_view text, std::vector<FlatValue>& out);

// The member at `path`, or nullptr.
const FlatValue* find_member(const std::vector<FlatValue>& members, std::string_view path);

struct TuningText {
    int64_t format = 0;
    int64_t kernel_gen = 0;
    HostKey key;
    Tuning tuning;
};

// Reads a tuning text over `defaults`: "" and `out` filled, else why it is
// unusable (not JSON, another format, a choice of the wrong type or out of
// range). The key is read, not checked against any host.
std::string read_tuning_text(std::string_view text, const Tuning& defaults, TuningText& out);

// The choices at prefix + member_path({name}) (prefix: the path of the
// object holding them, e.g. member_path({"choices"})) over `defaults` into
// out: "" or why not (and out unchanged).
std::string read_choices(const std::vector<FlatValue>& members, const std::string& prefix,
                         const Tuning& defaults, Tuning& out);

// "choices" object's contents for t, every choice: "name":value,...
std::string choices_json(const Tuning& t);
std::string key_json(const HostKey& key);

// A whole text for key and t; `info` is the info object's members, already
// JSON ("" for none).
std::string write_tuning_text(const HostKey& key, const Tuning& t, const std::string& info);

// s as a JSON string literal, quotes included: control characters escaped,
// and bytes that belong to no UTF-8 character as U+DC80..U+DCFF (what
// Python's surrogateescape makes of them; the parser here reads them back).
std::string json_quote(std::string_view s);

}  // namespace bcast::tuning
