#include "cli_common.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bcast_cli {

void usage_error(const std::string& message) { throw UsageError{message}; }

namespace {

// Writes all of data to an open file and closes it; "" or what went wrong.
// `sync`: on the disk before it closes (a file about to replace another by
// rename, which a crash must not leave empty under the old name).
std::string write_and_close(std::FILE* f, const std::string& path, const void* data, std::size_t size,
                            bool sync = false) {
    bool ok = std::fwrite(data, 1, size, f) == size;
    if (ok && sync) ok = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    const int write_errno = errno;
    if (std::fclose(f) != 0 || !ok) return path + ": " + std::strerror(ok ? errno : write_errno);
    return "";
}

std::string write_in_place(const std::string& path, const void* data, std::size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return path + ": " + std::strerror(errno);
    return write_and_close(f, path, data, size);
}

// While a temporary file exists beside the output, the signals that end a
// command line tool (Ctrl-C, kill, a closed terminal) wait: delivered once
// the file is renamed or removed, they leave no temporary behind. (The
// caller has no other threads by then: PoolHandle::reset.)
class TerminationDeferred {
public:
    TerminationDeferred() {
        sigset_t block;
        sigemptyset(&block);
        for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&block, s);
        blocked_ = ::sigprocmask(SIG_BLOCK, &block, &before_) == 0;
    }
    ~TerminationDeferred() {
        if (blocked_) ::sigprocmask(SIG_SETMASK, &before_, nullptr);
    }
    TerminationDeferred(const TerminationDeferred&) = delete;
    TerminationDeferred& operator=(const TerminationDeferred&) = delete;

private:
    sigset_t before_;
    bool blocked_ = false;
};

}  // namespace

std::string check_can_create_in(const std::string& dir) {
    std::string probe = (dir == "/" ? std::string() : dir) + "/.bcast-probe-XXXXXX";
    const TerminationDeferred deferred;
    const int fd = ::mkstemp(&probe[0]);
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return "";
}

std::string write_file_whole(const std::string& path, const void* data, std::size_t size) {
    // Replaced through a new file only where that is the same file to every
    // reader: a new path, or a regular file with one name (a link's target
    // is resolved). Anything else (a device or FIFO such as /dev/null, a file
    // with other hard links, a directory this user cannot create files in,
    // a name too long for the suffix) is written in place, as before.
    std::string target = path;
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists) {
        // Renaming over a file needs only the directory's permission: a file
        // this user may not write is refused as writing it would be.
        if (::access(path.c_str(), W_OK) != 0) return path + ": " + std::strerror(errno);
        if (!S_ISREG(st.st_mode) || st.st_nlink > 1) return write_in_place(path, data, size);
        if (char* resolved = ::realpath(path.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    } else if (struct stat link {}; ::lstat(path.c_str(), &link) == 0) {
        return write_in_place(path, data, size);  // a link to nothing yet: create its target
    }
    std::string tmp = target + ".XXXXXX";
    const TerminationDeferred deferred;
    const int fd = ::mkstemp(&tmp[0]);  // O_EXCL, in the target's directory
    if (fd < 0) return write_in_place(path, data, size);
    // The mode and, where allowed, the owner the file had (else it becomes
    // the writer's, as with sed -i: writing in place instead could leave it
    // half written), or a new file's.
    if (exists) {
        // Set-id bits only with the owner kept (writing in place clears
        // them too for a writer who could not keep them).
        const bool owner_kept = ::fchown(fd, st.st_uid, st.st_gid) == 0;
        (void)::fchmod(fd, st.st_mode & (owner_kept ? 07777 : 01777));
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        (void)::fchmod(fd, 0666 & ~mask);
    }
    std::FILE* f = ::fdopen(fd, "wb");
    if (f == nullptr) {
        ::close(fd);
        std::remove(tmp.c_str());
        return path + ": " + std::strerror(errno);
    }
    const std::string failed = write_and_close(f, path, data, size, true);
    if (!failed.empty()) {
        std::remove(tmp.c_str());
        return failed;
    }
    if (std::rename(tmp.c_str(), target.c_str()) != 0) {
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
