// bcast_nt_crossover: at which output size do non-temporal (streaming) stores
// start to beat normal stores? The benchmark's roofline loops (normal stores,
// best vector ISA) against their AVX2 streaming-store twins, timed
// interleaved at outputs from 1 MiB to 512 MiB for three traffic patterns:
// y = a + b, y = a + c, and a write stream. Each pattern repeats on the same
// buffers, so below the crossover the normal stores hit in cache and win;
// above it they pay the read-for-ownership that streaming stores skip. The
// kernel engineer's threshold comes from here. With --threads N the loops run
// on N threads, each on its share of the output (as bcast's tasks do): cached
// stores scale with the cores' caches, streaming stores with the memory.
//
// No -m flag: the streaming loops carry __attribute__((target("avx2"))) and
// run only when __builtin_cpu_supports("avx2") says so.
//
//   bcast_nt_crossover [--max-mib N] [--budget-ms N] [--threads N]
#include "aligned_buffer.hpp"
#include "machine_info.hpp"
#include "reference_loops.hpp"
#include "reference_streaming.hpp"
#include "thread_team.hpp"
#include "timing.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Pattern {
    const char* name;
    int inputs;  // big input streams besides the output
};
constexpr Pattern kPatterns[] = {{"y=a+b", 2}, {"y=a+c", 1}, {"y=p[i%64]", 0}};

// Time per pass with normal and with streaming stores, interleaved; each
// pass split over the team's threads.
bench::Interleaved measure(const Pattern& p, const float* a, const float* b, float* y,
                           std::size_t n, roofline::ThreadTeam& team, const bench::Budget& budget) {
    const auto on_team = [&team, n](auto loop) {
        return bench::repeated([&team, n, loop] {
            team.run([&](int share, int shares) {
                std::size_t begin = 0, end = 0;
                roofline::share_range(n, sizeof(float), share, shares, begin, end);
                loop(begin, end - begin);
            });
        });
    };
    std::vector<bench::Batch> variants;
    if (p.inputs == 2) {
        variants = {on_team([=](std::size_t i, std::size_t m) { roofline::reference_add(a + i, b + i, y + i, m); }),
                    on_team([=](std::size_t i, std::size_t m) {
                        roofline::reference_add_streaming(a + i, b + i, y + i, m);
                    })};
    } else if (p.inputs == 1) {
        variants = {on_team([=](std::size_t i, std::size_t m) { roofline::reference_add_scalar(a + i, 2.f, y + i, m); }),
                    on_team([=](std::size_t i, std::size_t m) {
                        roofline::reference_add_scalar_streaming(a + i, 2.f, y + i, m);
                    })};
    } else {
        variants = {on_team([=](std::size_t i, std::size_t m) { roofline::reference_write(y + i, m); }),
                    on_team([=](std::size_t i, std::size_t m) { roofline::reference_write_streaming(y + i, m); })};
    }
    return bench::run_interleaved(variants, budget);
}

int run(std::size_t max_mib, double budget_ms, int threads) {
    roofline::ThreadTeam team(threads);
    const bench::MachineInfo m = bench::machine_info();
    std::printf("# Non-temporal store crossover (f32, %d thread%s)\n\n", threads, threads == 1 ? "" : "s");
    std::printf("- CPU: %s; L2 %s, LLC %s; transparent huge pages: %s; %s\n",
                m.cpu_model.c_str(), bench::format_bytes(static_cast<double>(m.l2_bytes)).c_str(),
                bench::format_bytes(static_cast<double>(m.llc_bytes)).c_str(),
                m.transparent_huge_pages.c_str(), m.date_utc.c_str());
    std::printf("- normal stores: the `%s` clone of the roofline loops; streaming: AVX2 _mm256_stream_si256\n",
                roofline::reference_isa());
    std::printf("- GB/s counts the bytes the loop names (inputs + output), from the min time; "
                "`store / stream` is the median over rounds of the time ratio (> 1: streaming wins).\n\n");
    std::printf("| output | pattern | working set | in | store GB/s | stream GB/s | store / stream |\n");
    std::printf("|---:|---|---:|---|---:|---:|---:|\n");
    std::fflush(stdout);

    bench::Budget budget;
    budget.total_ns = budget_ms * 1e6;
    budget.min_rounds = 5;
    std::vector<std::string> crossover(std::size(kPatterns), "none up to the largest size");
    std::vector<bool> winning_since(std::size(kPatterns), false);
    for (std::size_t kib = 256; kib <= max_mib << 10; kib *= 2) {
        const std::size_t bytes = kib << 10;
        const std::size_t n = bytes / sizeof(float);
        bench::AlignedBuffer a(bytes), b(bytes), y(bytes);
        for (std::size_t i = 0; i < n; ++i) {
            a.as<float>()[i] = static_cast<float>(i % 64);
            b.as<float>()[i] = 1.f;
        }
        for (std::size_t k = 0; k < std::size(kPatterns); ++k) {
            const Pattern& p = kPatterns[k];
            const bench::Interleaved t = measure(p, a.as<float>(), b.as<float>(), y.as<float>(), n, team, budget);
            const double moved = static_cast<double>(bytes) * (1 + p.inputs);
            const double ratio = t.paired_ratio(0, 1);
            std::printf("| %s | %s | %s | %s | %.1f | %.1f | %.2fx |\n", bench::format_bytes(static_cast<double>(bytes)).c_str(),
                        p.name, bench::format_bytes(moved).c_str(), bench::residency(moved, m),
                        moved / t.stats(0).min_ns, moved / t.stats(1).min_ns, ratio);
            std::fflush(stdout);
            // The crossover is the smallest size from which streaming keeps winning.
            const bool wins = ratio > 1.0;
            if (wins && !winning_since[k]) crossover[k] = bench::format_bytes(static_cast<double>(bytes)) + " of output";
            if (!wins) crossover[k] = "none up to the largest size";
            winning_since[k] = wins;
        }
    }
    std::printf("\nStreaming stores win from (and at every larger size):\n");
    for (std::size_t k = 0; k < std::size(kPatterns); ++k) {
        std::printf("- %s: %s\n", kPatterns[k].name, crossover[k].c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t max_mib = 512;
    double budget_ms = 300;
    int threads = 1;
    for (int i = 1; i < argc; i += 2) {
        const bool has_value = i + 1 < argc;
        if (has_value && std::strcmp(argv[i], "--max-mib") == 0) {
            max_mib = std::strtoul(argv[i + 1], nullptr, 10);
        } else if (has_value && std::strcmp(argv[i], "--budget-ms") == 0) {
            budget_ms = std::atof(argv[i + 1]);
        } else if (has_value && std::strcmp(argv[i], "--threads") == 0 && std::atoi(argv[i + 1]) >= 1) {
            threads = std::atoi(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: %s [--max-mib N] [--budget-ms N] [--threads N]\n", argv[0]);
            return 2;
        }
    }
    if (roofline::streaming_available()) return run(max_mib, budget_ms, threads);
    std::printf("bcast_nt_crossover: needs an x86-64 CPU with AVX2; nothing measured\n");
    return 0;
}
