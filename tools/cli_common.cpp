#include "cli_common.hpp"

#include <cstdio>

namespace bcast_cli {

void usage_error(const std::string& message) { throw UsageError{message}; }

int refused(bcast_status st) {
    const char* msg = bcast_last_error();
    std::fprintf(stderr, "bcast: %s: %s\n", bcast_status_string(st),
                 (msg && *msg) ? msg : "(no message)");
    return kExitRefused;
}

int show_help(const char* text) {
    std::fputs(text, stdout);
    return kExitOk;
}

ShapeTable::ShapeTable(const std::vector<Shape>& shapes) {
    static const int64_t kNone = 0;
    for (const Shape& s : shapes) {
        ranks.push_back(s.size());
        dims.push_back(s.empty() ? &kNone : s.data());
    }
}

std::string describe(const bcast_op* op) {
    const size_t len = bcast_op_describe(op, nullptr, 0);
    std::string text(len + 1, '\0');
    if (bcast_op_describe(op, &text[0], text.size()) != len) return std::string();
    text.resize(len);
    return text;
}

int32_t output_dtype(int32_t opcode, int32_t dtype) {
    bcast_dtype out = dtype;  // left alone when the library refuses the pair
    bcast_op_output_dtype(opcode, dtype, &out);
    return out;
}

}  // namespace bcast_cli
