#include "cli_common.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace bcast_cli {

void usage_error(const std::string& message) { throw UsageError{message}; }

std::string write_file_whole(const std::string& path, const void* data, std::size_t size) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) return path + ": " + std::strerror(errno);
    const bool ok = std::fwrite(data, 1, size, f) == size;
    const int write_errno = errno;
    if (std::fclose(f) != 0 || !ok) {
        const int e = ok ? errno : write_errno;
        std::remove(tmp.c_str());
        return path + ": " + std::strerror(e);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp.c_str());
        return path + ": " + std::strerror(e);
    }
    return "";
}

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
