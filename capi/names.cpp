// The vocabulary's names and back (since 1.3), read from the op and dtype
// tables (core/op_info) and the ISA list (kernels/dispatch, since 1.4), so
// that bindings and tools need no copy of them.
#include "guard.hpp"
#include "names.hpp"

#include "core/op_info.hpp"
#include "kernels/dispatch.hpp"

#include <string>

namespace {

using bcast::fail;
using bcast::same_name;

// The value whose name_of(value) is `name`.
bcast_status value_of(bcast::capi::NameOf name_of, const char* what, const char* name, int32_t* out) noexcept {
    return bcast::capi::guarded([&] {
        if (!name) fail(BCAST_ERROR_INVALID_ARGUMENT, std::string(what) + " name is NULL");
        if (!out) fail(BCAST_ERROR_INVALID_ARGUMENT, "out is NULL");
        for (int32_t v = 0; const char* known = name_of(v); ++v) {
            if (same_name(name, known)) {
                *out = v;
                return;
            }
        }
        fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown " + std::string(what) + " name " + bcast::capi::quoted_name(name) +
                                               " (expected one of: " + bcast::capi::name_list(name_of) + ")");
    });
}

}  // namespace

namespace bcast::capi {

std::string quoted_name(const char* name) {
    const std::string text(name);
    return "'" + (text.size() > 64 ? text.substr(0, 64) + "..." : text) + "'";
}

std::string name_list(NameOf name_of) {
    std::string names;
    for (int32_t v = 0; const char* known = name_of(v); ++v) names += (v ? ", " : "") + std::string(known);
    return names;
}

}  // namespace bcast::capi

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

const char* bcast_isa_name(int32_t index) noexcept { return bcast::kernels::isa_name_at(index); }

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
