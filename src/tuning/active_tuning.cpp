#include "tuning/active_tuning.hpp"

#include "kernels/dispatch.hpp"
#include "tuning/builtin_tuning.hpp"
#include "tuning/tuning_text.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bcast::tuning {
namespace {

constexpr const char* kSystemPath = "/var/cache/bcast/tuning.json";

struct State {
    Tuning tuning;
    std::string source;
    std::string ignored;  // "PATH: why; ..." for files passed over
    HostKey key;
    Builtin builtin;
    int64_t load_ns = 0;  // finding, reading and parsing files: what tuning adds
};

std::atomic<const State*> g_state{nullptr};
const State* g_lookup = nullptr;  // set once, under the once flag
std::once_flag g_once;

HostKey host_key() {
    const kernels::cpu::CpuFeatures& f = kernels::cpu::cpu_features();
    return HostKey{f.vendor, f.family, f.model, kernels::active_isa_name()};
}

// Reasons stay short: the description holding them is a tuning text, at
// most kMaxTextBytes. s past `most` bytes is cut, saying how long it was.
std::string cut(std::string s, std::size_t most) {
    if (s.size() > most) s = s.substr(0, most) + "... (" + std::to_string(s.size()) + " bytes)";
    return s;
}

// A key's string as a reason shows it: a file's key may hold anything, and
// a reason must also stay whole as a C string (no NUL).
std::string shown(std::string s) {
    for (char& c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u > 0x7e) c = '?';
    }
    return cut(std::move(s), 64);
}

std::string key_text(const HostKey& k) {
    return (k.vendor.empty() ? std::string("no vendor") : shown(k.vendor)) + " family " +
           std::to_string(k.family) + " model " + std::to_string(k.model) + " " + shown(k.isa);
}

// "" and the file's text, or why not. Regular files of at most
// kMaxTextBytes only; O_NONBLOCK so that a FIFO put there cannot block.
std::string read_file(const std::string& path, std::string& text) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return errno == ENOENT ? "absent" : "cannot open (errno " + std::to_string(errno) + ")";
    struct stat st {};
    std::string why;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        why = "not a regular file";
    } else if (static_cast<uint64_t>(st.st_size) > kMaxTextBytes) {
        why = "larger than " + std::to_string(kMaxTextBytes) + " bytes";
    } else {
        // The size fstat gave, plus a byte to see a file that grew meanwhile.
        text.resize(static_cast<std::size_t>(st.st_size) + 1);
        std::size_t got = 0;
        for (;;) {
            const ssize_t n = ::read(fd, &text[got], text.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                why = "read error (errno " + std::to_string(errno) + ")";
                break;
            }
            if (n == 0 || (got += static_cast<std::size_t>(n)) == text.size()) break;
        }
        text.resize(got);
    }
    ::close(fd);
    return why;
}

// "" and s.tuning set from text, or why the text does not apply here.
std::string use_text(std::string_view text, State& s) {
    TuningText t;
    const std::string why = read_tuning_text(text, s.builtin.tuning, t);
    if (!why.empty()) return why;
    if (!(t.key == s.key)) return "for " + key_text(t.key) + ", this host is " + key_text(s.key);
    s.tuning = t.tuning;
    return "";
}

// A path past PATH_MAX (which no file has) is cut.
void note_ignored(State& s, const std::string& where, const std::string& why) {
    s.ignored += (s.ignored.empty() ? "" : "; ") + cut(where, PATH_MAX) + ": " + why;
}

const State* lookup() {
    auto* s = new State;  // immortal: kernels may read it to the last moment
    s->key = host_key();
    s->builtin = builtin_tuning(kernels::cpu::cpu_features());
    s->tuning = s->builtin.tuning;
    const auto start = std::chrono::steady_clock::now();
    s->source = std::string("built-in ") + s->builtin.name;
    // secure_getenv: a set-uid program ignores the caller's environment.
    const char* env = secure_getenv("BCAST_TUNING");
    std::vector<std::string> paths;
    const bool named = env != nullptr && *env != '\0';
    if (named && std::strcmp(env, "off") == 0) {
        s->source += " (BCAST_TUNING=off)";
    } else if (named) {
        paths.emplace_back(env);
    } else {
        // XDG: a relative XDG_CACHE_HOME is invalid and ignored.
        const char* xdg = secure_getenv("XDG_CACHE_HOME");
        const char* home = secure_getenv("HOME");
        if (xdg != nullptr && xdg[0] == '/') paths.push_back(std::string(xdg) + "/bcast/tuning.json");
        else if (home != nullptr && home[0] == '/') paths.push_back(std::string(home) + "/.cache/bcast/tuning.json");
        paths.emplace_back(kSystemPath);
    }
    for (const std::string& path : paths) {
        std::string text;
        std::string why = read_file(path, text);
        if (why == "absent" && !named) continue;  // the usual case: nothing to say
        if (why.empty()) why = use_text(text, *s);
        if (why.empty()) {
            s->source = "file " + path;
            break;
        }
        note_ignored(*s, path, why);
    }
    s->load_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    return s;
}

const State& state() {
    if (const State* s = g_state.load(std::memory_order_acquire)) return *s;
    std::call_once(g_once, [] {
        g_lookup = lookup();
        g_state.store(g_lookup, std::memory_order_release);
    });
    return *g_state.load(std::memory_order_acquire);
}

}  // namespace

const Tuning& active() { return state().tuning; }

std::string active_source() { return state().source; }

std::string load_text(std::string_view text) {
    state();  // g_lookup
    // The lookup's key, kernel set included: a later bcast_set_max_isa does
    // not look again, so a text must be for the key the description shows.
    auto s = std::make_unique<State>(*g_lookup);
    s->ignored.clear();
    const std::string why = use_text(text, *s);
    if (!why.empty()) return why;  // never published
    s->source = "string";
    // Published states live as long as the process, as the first one: plans
    // and other threads may still read one after the next is loaded. They
    // stay reachable (a leak checker sees them kept, not lost).
    static std::mutex kept_mutex;
    static auto* const kept = new std::vector<std::unique_ptr<State>>;
    const State* published = s.get();
    {
        const std::lock_guard<std::mutex> lock(kept_mutex);
        kept->push_back(std::move(s));
    }
    g_state.store(published, std::memory_order_release);
    return "";
}

void restore_lookup() {
    state();
    g_state.store(g_lookup, std::memory_order_release);
}

std::string describe_json() {
    const State& s = state();
    std::string info = "\"source\":" + json_quote(s.source) + ",\"ignored\":" + json_quote(s.ignored) +
                       ",\"builtin\":" + json_quote(s.builtin.name) +
                       ",\"load_ns\":" + std::to_string(s.load_ns) + ",\"defaults\":{" +
                       choices_json(s.builtin.tuning) + "}";
    return write_tuning_text(s.key, s.tuning, info);
}

}  // namespace bcast::tuning
