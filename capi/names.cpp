// The vocabulary's names and back (since 1.3), read from the op and dtype
// tables (core/op_info), so that bindings and tools need no copy of them.
#include "guard.hpp"

#include "core/op_info.hpp"

#include <string>

namespace {

using bcast::fail;

// Names are ASCII: compare them without the locale.
char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_name(const char* a, const char* b) {
    for (; *a && *b; ++a, ++b)
        if (ascii_lower(*a) != ascii_lower(*b)) return false;
    return *a == *b;
}

// The name as a message quotes it: at most 64 characters, so that the list
// of names after it fits the message.
std::string quoted(const char* name) {
    const std::string text(name);
    return "'" + (text.size() > 64 ? text.substr(0, 64) + "..." : text) + "'";
}

// The value whose name_of(value) is `name`; name_of gives NULL past the last
// value (the values run from 0 without gaps).
template <class Value>
bcast_status value_of(const char* (*name_of)(Value) noexcept, const char* what, const char* name,
                      Value* out) noexcept {
    return bcast::capi::guarded([&] {
        if (!name) fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(what) + " name is NULL");
        if (!out) fail(BCAST_ERROR_INVALID_ARGUMENT, "out is NULL");
        std::string names;
        for (Value v = 0; const char* known = name_of(v); ++v) {
            if (same_name(name, known)) {
                *out = v;
                return;
            }
            names += (v ? ", " : "") + std::string(known);
        }
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             "unknown " + std::string(what) + " name " + quoted(name) + " (expected one of: " + names + ")");
    });
}

}  // namespace

extern "C" {

const char* bcast_opcode_name(bcast_opcode opcode) noexcept {
    return bcast::valid_opcode(opcode) ? bcast::op_info(opcode)->name : nullptr;
}

const char* bcast_dtype_name(bcast_dtype dtype) noexcept {
    return bcast::valid_dtype(dtype) ? bcast::dtype_name(dtype) : nullptr;
}

const char* bcast_rule_name(bcast_rule rule) noexcept { return bcast::rule_name(rule); }

const char* bcast_expand_mode_name(bcast_expand_mode mode) noexcept {
    return bcast::expand_mode_name(mode);
}

bcast_status bcast_opcode_from_name(const char* name, bcast_opcode* out) noexcept {
    return value_of(bcast_opcode_name, "opcode", name, out);
}

bcast_status bcast_dtype_from_name(const char* name, bcast_dtype* out) noexcept {
    return value_of(bcast_dtype_name, "dtype", name, out);
}

bcast_status bcast_rule_from_name(const char* name, bcast_rule* out) noexcept {
    return value_of(bcast_rule_name, "rule", name, out);
}

bcast_status bcast_expand_mode_from_name(const char* name, bcast_expand_mode* out) noexcept {
    return value_of(bcast_expand_mode_name, "expand mode", name, out);
}

bcast_status bcast_op_output_dtype(bcast_opcode opcode, bcast_dtype dtype, bcast_dtype* out) noexcept {
    return bcast::capi::guarded([&] {
        if (!out) fail(BCAST_ERROR_INVALID_ARGUMENT, "out is NULL");
        if (!bcast::valid_opcode(opcode))
            fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown opcode " + std::to_string(opcode));
        if (!bcast::valid_dtype(dtype))
            fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown dtype " + std::to_string(dtype));
        if (!bcast::op_supports(opcode, dtype))
            fail(BCAST_ERROR_UNSUPPORTED, std::string(bcast_opcode_name(opcode)) + " does not take dtype " +
                                              bcast::dtype_name(dtype));
        *out = bcast::output_dtype(opcode, dtype);
    });
}

}  // extern "C"
