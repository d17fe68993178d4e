#include "bench_options.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {

Options parse_options(int argc, char** argv, double default_ms) {
    Options o;
    double budget_ms = default_ms;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0) {
            o.smoke = true;
        } else if (std::strcmp(argv[i], "--budget-ms") == 0 && i + 1 < argc) {
            budget_ms = std::atof(argv[++i]);
        } else if (std::strcmp(argv[i], "--offset") == 0 && i + 1 < argc) {
            o.offset = static_cast<std::size_t>(std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s [--budget-ms N] [--offset BYTES] [--smoke]\n", argv[0]);
            std::exit(2);
        }
    }
    o.budget.total_ns = (o.smoke ? 20 : budget_ms) * 1e6;
    o.budget.min_rounds = o.smoke ? 1 : 7;
    return o;
}

std::string format_time(double ns) {
    char buf[32];
    if (ns >= 1e6) std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
    else if (ns >= 1e3) std::snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
    else std::snprintf(buf, sizeof buf, "%.1f ns", ns);
    return buf;
}

}  // namespace bench
