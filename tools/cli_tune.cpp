// `bcast tune`: measures the tuning choices on this host by timing the real
// kernels under each candidate (tune_rounds.hpp), prints each choice against
// the built-in default with its measured gain, and writes the tuning file
// the library reads at first plan.
#include "cli_commands.hpp"
#include "cli_options.hpp"
#include "cli_tuning.hpp"
#include "tune_rounds.hpp"

#include <bcast/bcast.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bcast_cli {

const char* const kTuneHelp =
    "usage: bcast tune [--quick] [--verbose] [--threads N] [--isa NAME] [--out PATH]\n"
    "\n"
    "Measures on this host, by timing bcast's own kernels under each candidate\n"
    "in alternated rounds, the choices its built-in tuning guesses: the\n"
    "prefetch hint and distance of streamed repeated rows and of fused chains,\n"
    "from how many bytes an op streams its stores on one thread and on a pool,\n"
    "the least work per task, and the elements per block of a fused expression\n"
    "run block by block. A candidate replaces the built-in value only\n"
    "if it wins by more than 2% and three times the run's noise in 4 of 5\n"
    "rounds. Prints each choice against the built-in default with the gain, and\n"
    "writes the tuning file (keyed by CPU vendor, family, model and kernel set)\n"
    "that libbcast reads at its first plan. About a minute on 2 cores.\n"
    "\n"
    "options:\n"
    "  --quick       3 rounds on small cases (seconds; for CI: checks that the\n"
    "                file round-trips, its choices are noise)\n"
    "  --verbose     also print, under each choice, every candidate's time\n"
    "                against the current value and the rounds it won (for the\n"
    "                store crossovers: streaming against cached stores)\n"
    "  --threads N   the pool size for the multi-thread choices (default 0:\n"
    "                every CPU this process may use; 1 skips them)\n"
    "  --isa NAME    tune the kernel set NAME (bcast_set_max_isa) instead\n"
    "  --out PATH    where to write (default $XDG_CACHE_HOME/bcast/tuning.json,\n"
    "                else ~/.cache/bcast/tuning.json; - for stdout, the table\n"
    "                then on stderr); missing directories are created, 0700\n"
    "                for the default, else 0755\n";

namespace {

using bcast::tuning::HostKey;
using bcast::tuning::Prefetch;
using bcast::tuning::PrefetchHint;
using bcast::tuning::Tuning;

const PrefetchHint kHints[] = {PrefetchHint::none, PrefetchHint::nta, PrefetchHint::t2, PrefetchHint::t1,
                               PrefetchHint::t0};

struct Line {
    std::string choice, builtin, chosen, gain, verdict;
};

std::string percent(double log_gain) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * (std::exp(log_gain) - 1.0));
    return buf;
}

std::string mib(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / (1 << 20));
    return buf;
}

class Tuner {
public:
    Tuner(const TuningState& s, bool quick, bool verbose, bcast_pool* pool, std::size_t threads)
        : key_(s.key), builtin_(s.defaults), tuned_(s.defaults), quick_(quick), verbose_(verbose),
          threads_(threads), single_(quick, nullptr, 1), multi_(quick, pool, 2) {}

    void run() {
        const int steps = threads_ > 1 ? 8 : 5;
        prefetch("prefetch.rows", &Tuning::rows, steps, [&] {
            std::vector<Workload> w;
            w.push_back(quick_ ? Workload::add_rows(256, 4096) : Workload::add_rows(2048, 4096));
            return w;
        });
        prefetch("prefetch.chain", &Tuning::chain, steps, [&] {
            std::vector<Workload> w;
            w.push_back(quick_ ? Workload::chain(2, 64, 16384) : Workload::chain(8, 64, 16384));
            return w;
        });
        crossover("nt_min_bytes.1t", &Tuning::nt_min_bytes_1t, single_, steps, &Workload::add_same);
        crossover("nt_min_bytes.1t.one_input", &Tuning::nt_min_bytes_1t_one_input, single_, steps,
                  &Workload::add_scalar);
        if (threads_ > 1) {
            crossover("nt_min_bytes.nt", &Tuning::nt_min_bytes_nt, multi_, steps, &Workload::add_same);
            crossover("nt_min_bytes.nt.one_input", &Tuning::nt_min_bytes_nt_one_input, multi_, steps,
                      &Workload::add_scalar);
            task_size(steps);
        } else {
            const std::pair<const char*, uint64_t> kept[] = {
                {"nt_min_bytes.nt", builtin_.nt_min_bytes_nt},
                {"nt_min_bytes.nt.one_input", builtin_.nt_min_bytes_nt_one_input}};
            for (const auto& [name, value] : kept) {
                lines_.push_back({name, std::to_string(value), std::to_string(value), "", "kept: one thread"});
            }
            lines_.push_back({"task_min_bytes", std::to_string(builtin_.task_min_bytes),
                              std::to_string(builtin_.task_min_bytes), "", "kept: one thread"});
        }
        chain_block(steps);
    }

    const Tuning& tuned() const { return tuned_; }
    const std::vector<Line>& lines() const { return lines_; }
    std::string text(const Tuning& t) const { return bcast::tuning::write_tuning_text(key_, t, ""); }

private:
    HostKey key_;
    Tuning builtin_, tuned_;
    bool quick_;
    bool verbose_;
    std::size_t threads_;
    Rounds single_, multi_;
    std::vector<Line> lines_;
    std::vector<std::string> details_;
    int step_ = 0;

    void begin(const std::string& what, int steps) {
        ++step_;
        std::fprintf(stderr, "[%d/%d] %s ", step_, steps, what.c_str());
        std::fflush(stderr);
    }
    static void dot() {
        std::fputc('.', stderr);
        std::fflush(stderr);
    }
    void end(const std::string& result) {
        std::fprintf(stderr, " %s\n", result.c_str());
        for (const std::string& d : details_) std::fprintf(stderr, "%s\n", d.c_str());
        details_.clear();
    }

    // --verbose: a measurement behind the step's verdict, printed under its
    // line (the step's progress dots are still being written meanwhile).
    // `base`: what the candidate was timed against.
    void detail(const std::string& what, const Comparison& c, std::size_t candidate,
                const char* base = "the current value's") {
        if (!verbose_) return;
        char buf[224];
        std::snprintf(buf, sizeof buf, "      %-24s %.3fx %s time, faster in %d of %d rounds (noise %.1f%%)",
                      what.c_str(), std::exp(c.median_log[candidate]), base, c.faster[candidate], c.rounds,
                      100.0 * c.noise);
        details_.push_back(buf);
    }

    // Hint first (at the built-in distance), then the distance with the
    // hint chosen.
    template <class MakeWorkloads>
    void prefetch(const std::string& name, Prefetch Tuning::*member, int steps, MakeWorkloads make) {
        std::vector<Workload> w = make();
        begin(name + " on " + w[0].name, steps);
        const Prefetch builtin = builtin_.*member;
        std::vector<std::string> texts;
        std::vector<Prefetch> cands;
        for (PrefetchHint h : kHints) {
            if (h == builtin.hint) continue;
            Tuning t = tuned_;
            (t.*member).hint = h;
            cands.push_back(t.*member);
            texts.push_back(text(t));
        }
        std::vector<uint64_t> distances = {1024, 2048, 8192, 16384};
        const Comparison hints = single_.compare(texts, text(tuned_), w, dot);
        for (std::size_t i = 0; i < cands.size(); ++i) {
            detail(std::string("hint ") + bcast::tuning::hint_name(cands[i].hint), hints, i);
        }
        std::size_t best = best_of(hints);
        Prefetch chosen = builtin;
        double gain = 0;
        if (significant(hints, best)) {
            chosen = cands[best];
            gain = -hints.median_log[best];
        }
        if (chosen.hint != PrefetchHint::none) {
            Tuning base = tuned_;
            base.*member = chosen;
            texts.clear();
            cands.clear();
            for (uint64_t d : distances) {
                Tuning t = base;
                (t.*member).distance = d;
                cands.push_back(t.*member);
                texts.push_back(text(t));
            }
            const Comparison far = single_.compare(texts, text(base), w, dot);
            for (std::size_t i = 0; i < cands.size(); ++i) {
                detail("distance " + std::to_string(cands[i].distance), far, i);
            }
            best = best_of(far);
            if (significant(far, best)) {
                chosen = cands[best];
                gain += -far.median_log[best];
            }
        }
        tuned_.*member = chosen;
        const std::string was = std::string(bcast::tuning::hint_name(builtin.hint)) + " " +
                                std::to_string(builtin.distance);
        const std::string now = std::string(bcast::tuning::hint_name(chosen.hint)) + " " +
                                std::to_string(chosen.distance);
        const bool changed = !(chosen == builtin);
        end(now);
        lines_.push_back({name, was, now, changed ? percent(gain) : "",
                          changed ? "adopted" : verdict_kept(hints)});
    }

    static std::size_t best_of(const Comparison& c) {
        return static_cast<std::size_t>(std::min_element(c.median_log.begin(), c.median_log.end()) -
                                        c.median_log.begin());
    }

    static std::string verdict_kept(const Comparison& c) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "kept (no candidate beat noise %.1f%% in %d rounds)",
                      100.0 * c.noise, c.rounds);
        return buf;
    }

    // Streaming against cached stores on adds of rising size (`workload`:
    // same shapes, or a + scalar for the one_input values): the crossover
    // is the smallest size from which streaming wins at every size
    // measured; adopted where some size whose decision it changes gains
    // significantly and none loses significantly (sizes next to a crossover
    // are near-ties by nature: requiring each to gain kept a 1.7x loss).
    void crossover(const std::string& name, uint64_t Tuning::*member, Rounds& rounds, int steps,
                   Workload (*workload)(std::size_t touched)) {
        begin(name, steps);
        std::vector<uint64_t> sizes =
            quick_ ? std::vector<uint64_t>{2u << 20, 8u << 20, 32u << 20}
                   : std::vector<uint64_t>{512u << 10, 1u << 20, 2u << 20, 4u << 20, 8u << 20,
                                           16u << 20, 32u << 20, 64u << 20, 128u << 20};
        Tuning stream = tuned_, cached = tuned_;
        stream.*member = 4096;
        cached.*member = uint64_t{1} << 40;
        std::vector<Comparison> c;
        const auto measure = [&](uint64_t s) {
            std::vector<Workload> w;
            w.push_back(workload(s));
            Comparison r = rounds.compare({text(stream)}, text(cached), w, {});
            dot();
            return r;
        };
        for (uint64_t s : sizes) c.push_back(measure(s));
        // From index `first` on, streaming won everywhere.
        std::size_t first = sizes.size();
        const auto find_first = [&] {
            first = sizes.size();
            while (first > 0 && c[first - 1].median_log[0] < 0) --first;
        };
        find_first();
        // Between a losing size and the first winning one, two sizes more
        // (steps of 2^(1/3)): a cache's edge can sit anywhere in the octave,
        // and ops just below it lost 1.3x on a Zen 4 guest.
        if (!quick_ && first > 0 && first < sizes.size()) {
            const uint64_t lo = sizes[first - 1];
            for (const double step : {1.5874010519681994, 1.2599210498948732}) {
                const uint64_t s = static_cast<uint64_t>(static_cast<double>(lo) * step) / 4096 * 4096;
                sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(first), s);
                c.insert(c.begin() + static_cast<std::ptrdiff_t>(first), measure(s));
            }
            find_first();
        }
        for (std::size_t i = 0; i < sizes.size(); ++i) detail("streaming at " + mib(sizes[i]), c[i], 0, "cached stores'");
        const uint64_t builtin = builtin_.*member;
        uint64_t chosen = builtin;
        double gain = 0;
        int changed = 0;
        bool some_win = false, some_loss = false;
        if (first < sizes.size()) {
            const double geo = first == 0 ? static_cast<double>(sizes[0])
                                          : std::sqrt(static_cast<double>(sizes[first - 1]) * static_cast<double>(sizes[first]));
            chosen = std::max<uint64_t>(4096, static_cast<uint64_t>(geo) / 4096 * 4096);
            if (first == 0) chosen = std::min(chosen, builtin);
            for (std::size_t i = 0; i < sizes.size(); ++i) {
                const bool by_builtin = sizes[i] >= builtin, by_chosen = sizes[i] >= chosen;
                if (by_builtin == by_chosen) continue;
                ++changed;
                // Streaming's log ratio; the gain is its sign as chosen.
                const double g = by_chosen ? -c[i].median_log[0] : c[i].median_log[0];
                // Streaming against cached, and the mirror (cached against
                // streaming); `win` is the chosen side's view.
                Comparison streams = c[i], caches = c[i];
                caches.median_log[0] = -caches.median_log[0];
                caches.faster[0] = caches.rounds - caches.faster[0];
                const Comparison& win = by_chosen ? streams : caches;
                const Comparison& loss = by_chosen ? caches : streams;
                some_win = some_win || significant(win, 0);
                some_loss = some_loss || significant(loss, 0);
                gain += g;
            }
        }
        std::string verdict;
        if (first == sizes.size()) {
            chosen = builtin;
            verdict = "kept (streaming lost at the largest size, " + mib(sizes.back()) + ")";
        } else if (changed == 0) {
            // No measured size tells the two apart: nothing to adopt.
            chosen = builtin;
            verdict = "kept (the measured crossover agrees)";
        } else if (some_loss || !some_win) {
            verdict = "kept (crossover near " + mib(chosen) + (some_loss ? ", a size loses" : ", gain within noise") + ")";
            chosen = builtin;
        } else {
            verdict = "adopted";
        }
        tuned_.*member = chosen;
        end(mib(chosen));
        lines_.push_back({name, std::to_string(builtin), std::to_string(chosen),
                          chosen != builtin ? percent(gain / changed) : "", verdict});
    }

    // The least work per task, on the pool: the geometric mean over small
    // to middling ops, from one that a small value splits too finely
    // (192 KiB) to one that every value splits.
    void task_size(int steps) {
        std::vector<Workload> w;
        for (uint64_t s : {uint64_t{192} << 10, uint64_t{384} << 10, uint64_t{1536} << 10, uint64_t{6} << 20}) {
            w.push_back(Workload::add_same(s));
        }
        size_choice("task_min_bytes", "task_min_bytes", &Tuning::task_min_bytes,
                    {uint64_t{32} << 10, uint64_t{64} << 10, uint64_t{128} << 10, uint64_t{256} << 10,
                     uint64_t{512} << 10, uint64_t{1} << 20},
                    multi_, w, steps);
    }

    // Elements per block of a fused expression that runs block by block:
    // the channels-last chain (patterns), from cache and from memory, on
    // one thread.
    void chain_block(int steps) {
        std::vector<Workload> w;
        w.push_back(Workload::chain_channels_last(1, quick_ ? 256 : 1024, 64));
        w.push_back(quick_ ? Workload::chain_channels_last(1, 8192, 64) : Workload::chain_channels_last(8, 12544, 64));
        size_choice("chain_block", "chain_block on " + w[0].name + ", " + w[1].name, &Tuning::chain_block,
                    {256, 512, 1024, 2048, 4096}, single_, w, steps);
    }

    // One number among `values` (the built-in one left out) against the
    // current value: the best, if significant.
    void size_choice(const std::string& name, const std::string& progress, uint64_t Tuning::*member,
                     const std::vector<uint64_t>& values, Rounds& rounds, std::vector<Workload>& w, int steps) {
        begin(progress, steps);
        std::vector<uint64_t> cands;
        std::vector<std::string> texts;
        for (uint64_t v : values) {
            if (v == builtin_.*member) continue;
            Tuning t = tuned_;
            t.*member = v;
            cands.push_back(v);
            texts.push_back(text(t));
        }
        const Comparison c = rounds.compare(texts, text(tuned_), w, dot);
        for (std::size_t i = 0; i < cands.size(); ++i) detail(name + " " + std::to_string(cands[i]), c, i);
        const std::size_t best = best_of(c);
        const bool adopt = significant(c, best);
        if (adopt) tuned_.*member = cands[best];
        end(std::to_string(tuned_.*member));
        lines_.push_back({name, std::to_string(builtin_.*member), std::to_string(tuned_.*member),
                          adopt ? percent(-c.median_log[best]) : "", adopt ? "adopted" : verdict_kept(c)});
    }
};

// How much of the run this process was off the CPU: the machine's other
// work, which the alternated rounds spread over all candidates but which
// widens the noise every verdict is held to.
std::string disturbance(double wall_seconds) {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double cpu = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                       static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.0f s, %.0f s on a CPU, %ld involuntary context switches", wall_seconds,
                  cpu, u.ru_nivcsw);
    return buf;
}

std::string default_path() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/bcast/tuning.json";
    if (home != nullptr && home[0] == '/') return std::string(home) + "/.cache/bcast/tuning.json";
    usage_error("no absolute XDG_CACHE_HOME or HOME: give --out PATH");
}

// Checks before measuring, so that a bad --out fails at once: a file that
// is there must be one this user may write (it is then written, in place if
// its directory takes no new file); for a new one, the directory it goes in
// is created where missing (the user's cache directory 0700 (XDG), any
// other 0755, so that a system-wide file such as /var/cache/bcast is readable
// by every user) and must take a new file. An empty result is success, else
// what went wrong.
std::string prepare_directory(const std::string& path, bool user_cache) {
    if (path == "-") return "";
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    // A name no file can have is refused before a directory is made (a
    // parent that is a file says so first, as for any path through it).
    const std::string name = path.substr(slash + 1);
    const bool no_name = name.empty() || name == "." || name == "..";
    if (no_name || name.size() > NAME_MAX) {
        struct stat parent {};
        if (slash != std::string::npos && ::stat(dir.c_str(), &parent) == 0 && !S_ISDIR(parent.st_mode))
            return "cannot write in " + dir + ": " + std::strerror(ENOTDIR);
        return "cannot write " + path + ": " + std::strerror(no_name ? EISDIR : ENAMETOOLONG);
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return "cannot write " + path + ": " + std::strerror(EISDIR);
        if (::access(path.c_str(), W_OK) != 0) return "cannot write " + path + ": " + std::strerror(errno);
        return "";
    }
    for (std::size_t at = dir.find('/', 1); slash != std::string::npos && slash != 0;
         at = dir.find('/', at + 1)) {
        const std::string prefix = dir.substr(0, at);
        if (::mkdir(prefix.c_str(), user_cache ? 0700 : 0755) == 0) {
            std::fprintf(stderr, "bcast tune: created %s\n", prefix.c_str());
        } else if (errno != EEXIST) {
            return "cannot create " + prefix + ": " + std::strerror(errno);
        }
        if (at == std::string::npos) break;
    }
    if (::stat(dir.c_str(), &st) != 0) return "cannot write in " + dir + ": " + std::strerror(errno);
    if (!S_ISDIR(st.st_mode)) return "cannot write in " + dir + ": " + std::strerror(ENOTDIR);
    if (::access(dir.c_str(), W_OK) != 0) return "cannot write in " + dir + ": " + std::strerror(errno);
    // Whatever else would refuse the new file refuses it now, not after the
    // measurements (probed beside it: the path may be a link to nothing yet,
    // and another writer may rename a file onto it meanwhile).
    const std::string refused = check_can_create_in(dir);
    if (!refused.empty()) return "cannot write in " + dir + ": " + refused;
    return "";
}

}  // namespace

int cmd_tune(int argc, char** argv) {
    Options o = parse_options(argc, argv, 2,
                              kQuickOption | kVerboseOption | kThreadsOption | kIsaOption | kOutOption);
    if (o.help) return show_help(kTuneHelp);
    if (!o.have_threads) o.threads = 0;  // every CPU, unlike bench's default
    if (!o.args.empty()) usage_error("bcast tune takes no arguments");
    if (!apply_isa(o)) return kExitRefused;
    const std::string path = o.out_path.empty() ? default_path() : o.out_path;
    const std::string unwritable = prepare_directory(path, o.out_path.empty());
    if (!unwritable.empty()) {
        std::fprintf(stderr, "bcast: %s\n", unwritable.c_str());
        return kExitRefused;
    }
    PoolHandle pool;
    std::size_t threads = 1;
    if (o.threads != 1) {
        const bcast_status st = make_pool(o, &pool);
        if (st != BCAST_OK) return refused(st);
        threads = bcast_pool_threads(pool.pool);
    }
    const TuningState before = read_tuning_state();
    std::fprintf(stderr, "bcast tune: %s family %lld model %lld, %s, %zu thread%s, %s\n",
                 before.key.vendor.c_str(), static_cast<long long>(before.key.family),
                 static_cast<long long>(before.key.model), before.key.isa.c_str(), threads,
                 threads == 1 ? "" : "s", o.quick ? "quick" : "full");
    const auto t0 = std::chrono::steady_clock::now();
    Tuner tuner(before, o.quick, o.verbose, pool.pool, threads);
    tuner.run();
    pool.reset();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bcast_tuning_load_string(nullptr, 0);

    // The table goes where the file does not: with --out -, stdout is the file.
    std::FILE* table = path == "-" ? stderr : stdout;
    std::fprintf(table, "%-26s %-16s %-16s %-8s %s\n", "choice", "built-in", "chosen", "gain", "verdict");
    for (const Line& l : tuner.lines()) {
        std::fprintf(table, "%-26s %-16s %-16s %-8s %s\n", l.choice.c_str(), l.builtin.c_str(),
                     l.chosen.c_str(), l.gain.c_str(), l.verdict.c_str());
    }
    char info[256];
    std::snprintf(info, sizeof info,
                  "\"by\":\"bcast tune%s\",\"bcast\":\"%s\",\"threads\":%zu,\"seconds\":%lld,"
                  "\"date\":%lld,\"builtin\":",
                  o.quick ? " --quick" : "", bcast_version_string(), threads,
                  static_cast<long long>(seconds), static_cast<long long>(std::time(nullptr)));
    const std::string text =
        bcast::tuning::write_tuning_text(before.key, tuner.tuned(), info + bcast::tuning::json_quote(before.builtin));
    if (path == "-") {
        std::printf("%s", text.c_str());
        return kExitOk;
    }
    const std::string failed = write_file_whole(path, text.data(), text.size());
    if (!failed.empty()) {
        std::fprintf(stderr, "bcast: cannot write %s\n", failed.c_str());
        return kExitRefused;
    }
    std::printf("wrote %s (%s)\n", path.c_str(), disturbance(seconds).c_str());
    return kExitOk;
}

}  // namespace bcast_cli
