#include "core/op_info.hpp"

namespace bcast {

bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt) {
    const OpInfo* info = op_info(op);
    return (info && info->bool_output) ? BCAST_DTYPE_BOOL : dt;
}

const char* rule_name(bcast_rule rule) {
    switch (rule) {
        case BCAST_RULE_NONE: return "none";
        case BCAST_RULE_NUMPY: return "numpy";
        case BCAST_RULE_UNIDIRECTIONAL: return "unidirectional";
        case BCAST_RULE_PDPD: return "pdpd";
        case BCAST_RULE_ONNX_LEGACY: return "onnx_legacy";
        case BCAST_RULE_NCNN: return "ncnn";
        default: return nullptr;
    }
}

bool same_name(const char* a, const char* b) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (; *a != '\0' && *b != '\0'; ++a, ++b)
        if (lower(*a) != lower(*b)) return false;
    return *a == *b;
}

const char* expand_mode_name(bcast_expand_mode m) {
    switch (m) {
        case BCAST_EXPAND_NUMPY: return "numpy";
        case BCAST_EXPAND_BIDIRECTIONAL: return "bidirectional";
        case BCAST_EXPAND_EXPLICIT: return "explicit";
        case BCAST_EXPAND_PDPD: return "pdpd";
        default: return nullptr;
    }
}

}  // namespace bcast
