// bcast_bench: the "bcast fast" case matrix against same-run roofline loops.
//
//   bcast_bench [--isa NAME[,NAME...]] [--offsets LIST] [--threads LIST]
//               [--json FILE] [--filter TEXT] [--budget-ms N] [--smoke] [--list]
//               [--help]
//
// Every case runs once per offset layout (offset_layouts.hpp): operands 64-byte
// aligned, all at +4 B, all at +16 B (what malloc and numpy give), and mixed.
// --isa caps the kernel set with bcast_set_max_isa (several caps are planned
// side by side and timed in the same rounds); without it BCAST_MAX_ISA, read
// by the library at load time, applies. --smoke runs every case at tiny sizes
// in about a second (the ctest "bench: smoke"). --list prints the matrix, one
// tab-separated case per line (compare_numpy.py reads it). --threads runs
// every row on each thread count: bcast on a bcast_pool of that size, the
// reference loops on as many threads, each on its share.
#include "case_runner.hpp"
#include "cases.hpp"
#include "offset_layouts.hpp"
#include "overheads.hpp"
#include "reference_loops.hpp"
#include "report.hpp"
#include "thread_team.hpp"
#include "tuning/tuning_text.hpp"

#include <bcast/bcast.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Options {
    std::vector<std::string> caps{""};
    std::vector<bench::OffsetLayout> layouts = bench::all_offset_layouts();
    std::vector<int> threads{1};
    std::string json_path;
    std::string filter;
    double budget_ms = 2000;
    bool smoke = false;
    bool list = false;
    bool help = false;
};

constexpr std::int64_t kSmokeExtent = 33;

std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        if (end > begin) parts.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    return parts;
}

const char* const kUsage =
    "usage: %s [--isa NAME[,NAME...]] [--offsets LIST] [--threads LIST] [--json FILE]\n"
    "       [--filter TEXT] [--budget-ms N] [--smoke] [--list] [--help]\n";

const char* const kHelp =
    "\n"
    "Times bcast's ADD on the case matrix against same-run roofline loops.\n"
    "\n"
    "  --isa NAMES     cap the kernel set (bcast_set_max_isa); several caps are timed\n"
    "                  side by side (default: BCAST_MAX_ISA, or none)\n"
    "  --offsets LIST  operand layouts to run each case at (default 0,4,16,mixed):\n"
    "                  0, 4, 16  both inputs and the output that many bytes past a\n"
    "                            64-byte boundary (malloc and numpy give 16)\n"
    "                  mixed     a +0, b +4, output +16 (no two alike)\n"
    "                  The reference loops run on the same buffers at the same offsets.\n"
    "  --threads LIST  thread counts to run each row at (default 1), e.g. 1,2: bcast\n"
    "                  on a bcast_pool of that many threads, the reference loops on as\n"
    "                  many threads, each on its share of the output\n"
    "  --json FILE     also write the results as JSON\n"
    "  --filter TEXT   only cases whose 'label dtype' contains TEXT\n"
    "  --budget-ms N   measuring time per row (default 2000)\n"
    "  --smoke         every case at tiny sizes, for a quick check (ctest)\n"
    "  --list          print the case matrix, one tab-separated case per line\n";

int usage(const char* program, const std::string& error) {
    if (!error.empty()) std::fprintf(stderr, "bcast_bench: %s\n", error.c_str());
    std::fprintf(stderr, kUsage, program);
    return 2;
}

// false with `error` saying why.
bool parse(int argc, char** argv, Options& o, std::string& error) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--help" || arg == "-h") {
            o.help = true;
        } else if (arg == "--smoke") {
            o.smoke = true;
        } else if (arg == "--list") {
            o.list = true;
        } else if (arg == "--isa" && has_value) {
            o.caps = split_commas(argv[++i]);
            if (o.caps.empty()) {
                error = "--isa needs at least one name";
                return false;
            }
        } else if (arg == "--offsets" && has_value) {
            if (!bench::parse_offset_layouts(argv[++i], o.layouts, error)) return false;
        } else if (arg == "--threads" && has_value) {
            o.threads.clear();
            for (const std::string& t : split_commas(argv[++i])) {
                const int n = std::atoi(t.c_str());
                if (n < 1 || n > 256 || std::to_string(n) != t) {
                    error = "bad --threads '" + std::string(argv[i]) + "' (counts from 1 to 256)";
                    return false;
                }
                o.threads.push_back(n);
            }
            if (o.threads.empty()) {
                error = "--threads needs at least one count";
                return false;
            }
        } else if (arg == "--json" && has_value) {
            o.json_path = argv[++i];
        } else if (arg == "--filter" && has_value) {
            o.filter = argv[++i];
        } else if (arg == "--budget-ms" && has_value) {
            o.budget_ms = std::atof(argv[++i]);
            if (!(o.budget_ms > 0)) {
                error = "bad --budget-ms '" + std::string(argv[i]) + "' (milliseconds, > 0)";
                return false;
            }
        } else {
            const bool takes_value = arg == "--isa" || arg == "--offsets" || arg == "--threads" ||
                                     arg == "--json" ||
                                     arg == "--filter" || arg == "--budget-ms";
            error = takes_value ? arg + " needs a value" : "unknown argument '" + arg + "'";
            return false;
        }
    }
    return true;
}

void print_list(const std::vector<bench::Case>& cases) {
    for (const bench::Case& c : cases) {
        std::printf("%s\t%s\t%s\t%s\t%d\t%lld\t%s\n", c.label.c_str(), bench::dtype_name(c.dtype),
                    bench::dims_csv(c.a).c_str(), bench::dims_csv(c.b).c_str(), c.rule,
                    static_cast<long long>(c.axis), bench::dims_csv(c.b_as_numpy).c_str());
    }
}

bench::Budget case_budget(const Options& o) {
    bench::Budget b;
    if (o.smoke) {
        b.sample_ns = 2e4;
        b.total_ns = 1e6;
        b.min_rounds = b.max_rounds = 3;
    } else {
        b.total_ns = o.budget_ms * 1e6;
    }
    return b;
}

// The tuning in force (bcast_tuning_describe): the whole text for the JSON,
// its source and choices for the header.
void read_tuning(bench::RunInfo& run) {
    run.tuning_json.assign(bcast_tuning_describe(nullptr, 0) + 1, '\0');
    run.tuning_json.resize(bcast_tuning_describe(&run.tuning_json[0], run.tuning_json.size()));
    std::vector<bcast::tuning::FlatValue> members;
    if (!bcast::tuning::flatten(run.tuning_json, members).empty()) {
        run.tuning_json.clear();
        run.tuning_source = "unreadable description";
        return;
    }
    const std::string source = bcast::tuning::member_path({"info", "source"});
    const std::string choices = bcast::tuning::member_path({"choices"});
    for (const bcast::tuning::FlatValue& v : members) {
        if (v.path == source) run.tuning_source = v.text;
        if (v.path.size() <= choices.size() || v.path.compare(0, choices.size(), choices) != 0) continue;
        const std::string name = v.path.substr(choices.size(), v.path.size() - choices.size() - 1);
        run.tuning_choices += (run.tuning_choices.empty() ? "" : ", ") + name + " " +
                              (v.is_string ? v.text : std::to_string(v.integer));
    }
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    std::string error;
    if (!parse(argc, argv, options, error)) return usage(argv[0], error);
    if (options.help) {
        std::printf(kUsage, argv[0]);
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::vector<bench::Case> cases = bench::benchmark_cases();
    if (options.list) {
        print_list(cases);
        return 0;
    }

    bench::RunInfo run;
    run.machine = bench::machine_info();
    run.bcast_version = bcast_version_string();
    run.default_isa = bcast_isa();
    read_tuning(run);
    const char* env = std::getenv("BCAST_MAX_ISA");
    run.env_cap = env ? env : "";
    run.caps = options.caps;
    run.reference_isa = roofline::reference_isa();
    run.smoke = options.smoke;
    run.layouts = options.layouts;
    run.threads = options.threads;
    for (const std::string& cap : run.caps) {
        if (!cap.empty() && bcast_set_max_isa(cap.c_str()) != BCAST_OK) {
            std::fprintf(stderr, "bcast_bench: unknown ISA '%s': %s\n", cap.c_str(), bcast_last_error());
            return 2;
        }
    }

    // One bcast pool and one reference team per thread count above 1.
    std::vector<bench::Parallel> parallels;
    std::vector<std::unique_ptr<roofline::ThreadTeam>> teams;
    for (int t : options.threads) {
        bench::Parallel p;
        p.threads = t;
        if (t > 1) {
            if (bcast_pool_create(static_cast<std::size_t>(t), &p.pool) != BCAST_OK) {
                std::fprintf(stderr, "bcast_bench: bcast_pool_create(%d): %s\n", t, bcast_last_error());
                return 1;
            }
            teams.push_back(std::make_unique<roofline::ThreadTeam>(t));
            p.team = teams.back().get();
        }
        parallels.push_back(p);
    }

    bench::print_header(stdout, run);
    bench::print_table_start(stdout, run);
    const bench::Budget budget = case_budget(options);
    std::vector<bench::CaseResult> results;
    bool failed = false;
    for (const bench::Case& full : cases) {
        const std::string name = full.label + " " + bench::dtype_name(full.dtype);
        if (!options.filter.empty() && name.find(options.filter) == std::string::npos) continue;
        const bench::Case c = options.smoke ? bench::shrunk(full, kSmokeExtent) : full;
        for (const bench::OffsetLayout& layout : options.layouts) {
            for (const bench::Parallel& parallel : parallels) {
                results.push_back(bench::run_case(c, layout, run.caps, budget, run.machine, parallel));
                bench::CaseResult& r = results.back();
                bench::print_case_row(stdout, results.size(), r, parallels.size() >= 2);
                failed = failed || !r.error.empty();
            }
        }
    }
    const std::vector<bench::OverheadResult> overheads =
        bench::measure_overheads(run.caps, options.smoke, parallels);
    for (const bench::Parallel& p : parallels) bcast_pool_destroy(p.pool);
    bench::print_overheads(stdout, overheads);
    for (const bench::OverheadResult& o : overheads) failed = failed || !o.error.empty();

    if (!options.json_path.empty() && !bench::write_json(options.json_path, run, results, overheads)) {
        std::fprintf(stderr, "bcast_bench: cannot write %s\n", options.json_path.c_str());
        return 1;
    }
    return failed ? 1 : 0;
}
