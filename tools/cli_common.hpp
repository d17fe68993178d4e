// Pieces every `bcast` subcommand shares: exit codes, usage errors, library
// refusals, and RAII/pointer-table helpers around the C API.
#pragma once

#include <bcast/bcast.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bcast_cli {

constexpr int kExitOk = 0;
constexpr int kExitRefused = 1;  // the library (or an input file) refused
constexpr int kExitUsage = 2;    // bad command line

using Shape = std::vector<int64_t>;

// Thrown for usage errors; caught in main, printed, exit 2.
struct UsageError {
    std::string message;
};

[[noreturn]] void usage_error(const std::string& message);

// Prints "bcast: <STATUS>: <bcast_last_error()>" on stderr; returns kExitRefused.
int refused(bcast_status st);

// Prints a subcommand's help on stdout; returns kExitOk.
int show_help(const char* text);

// Rank/dims pointer tables for the C API (a valid pointer even for rank 0).
struct ShapeTable {
    std::vector<size_t> ranks;
    std::vector<const int64_t*> dims;
    explicit ShapeTable(const std::vector<Shape>& shapes);
};

// Owns a bcast_op; destroyed on scope exit.
struct OpHandle {
    bcast_op* op = nullptr;
    OpHandle() = default;
    OpHandle(const OpHandle&) = delete;
    OpHandle& operator=(const OpHandle&) = delete;
    ~OpHandle() { bcast_op_destroy(op); }
};

// A bcast_pool for --threads (NULL: execute on the calling thread alone).
struct PoolHandle {
    bcast_pool* pool = nullptr;
    PoolHandle() = default;
    PoolHandle(const PoolHandle&) = delete;
    PoolHandle& operator=(const PoolHandle&) = delete;
    ~PoolHandle() { reset(); }
    // Its threads gone before the output is written, the signals that
    // write_file_whole defers reach no thread that would end the process
    // with a temporary file left.
    void reset() {
        bcast_pool_destroy(pool);
        pool = nullptr;
    }
};

// A bcast_expr for `bcast plan --node`.
struct ExprHandle {
    bcast_expr* expr = nullptr;
    ExprHandle() = default;
    ExprHandle(const ExprHandle&) = delete;
    ExprHandle& operator=(const ExprHandle&) = delete;
    ~ExprHandle() { bcast_expr_destroy(expr); }
};

// Writes size bytes to path: into a new file beside it, renamed over it,
// so that no reader (nor the file it replaces) sees half of it; the file
// keeps its mode (and owner where allowed), a symbolic link its target.
// Where that would not be the same file (a device, a FIFO, other hard links)
// or cannot be done there, in place. "" on success, else what went wrong.
std::string write_file_whole(const std::string& path, const void* data, std::size_t size);

// "" if a new file can be made in directory dir, else why not (a read-only
// file system, no inodes left): a file of a name of its own, made and
// removed at once (signals deferred meanwhile, as for write_file_whole).
std::string check_can_create_in(const std::string& dir);

// bcast_op_describe as a string ("" on a describe failure).
std::string describe(const bcast_op* op);

// The dtype an op writes (bcast_op_output_dtype); `dtype` for a pair the
// library refuses, which creating the op then reports.
int32_t output_dtype(int32_t opcode, int32_t dtype);

}  // namespace bcast_cli
