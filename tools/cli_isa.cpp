// `bcast isa`: the kernel set in force and the tuning, where it came from,
// and each choice against the built-in default.
#include "cli_commands.hpp"
#include "cli_options.hpp"
#include "cli_tuning.hpp"

#include <bcast/bcast.h>

#include <cstdio>
#include <cstdlib>

#include <strings.h>

namespace bcast_cli {

const char* const kIsaHelp =
    "usage: bcast isa [--isa NAME] [--json]\n"
    "\n"
    "Prints the kernel set new plans use (bcast_isa), the tuning in force and\n"
    "where it came from (a file from BCAST_TUNING, ~/.cache/bcast/tuning.json or\n"
    "/var/cache/bcast/tuning.json, else the built-in tuning for the CPU's\n"
    "family), any file ignored and why, and each choice against the built-in\n"
    "default.\n"
    "\n"
    "options:\n"
    "  --isa NAME    cap the kernel set first (bcast_set_max_isa)\n"
    "  --json        print bcast_tuning_describe's JSON instead\n";

int cmd_isa(int argc, char** argv) {
    const Options o = parse_options(argc, argv, 2, kIsaOption | kJsonOption);
    if (o.help) return show_help(kIsaHelp);
    if (!o.args.empty()) usage_error("bcast isa takes no arguments");
    if (!apply_isa(o)) return kExitRefused;
    const TuningState s = read_tuning_state();
    if (o.json) {
        std::printf("%s", s.json.c_str());
        return kExitOk;
    }
    std::printf("isa:     %s\n", bcast_isa());
    if (const char* cap = std::getenv("BCAST_MAX_ISA"); cap != nullptr && o.isa.empty()) {
        bool known = false;
        for (int32_t i = 0; const char* name = bcast_isa_name(i); ++i) known = known || strcasecmp(name, cap) == 0;
        std::printf("cap:     BCAST_MAX_ISA=%s (%s)\n", cap,
                    known ? "the best this CPU has up to it; another architecture's set caps nothing"
                          : "not a kernel set's name: ignored");
    }
    std::printf("cpu:     %s family %lld model %lld (built-in tuning: %s)\n", s.key.vendor.c_str(),
                static_cast<long long>(s.key.family), static_cast<long long>(s.key.model),
                s.builtin.c_str());
    std::printf("tuning:  %s (files read in %.1f us)\n", s.source.c_str(),
                static_cast<double>(s.load_ns) / 1000.0);
    if (!s.ignored.empty()) std::printf("ignored: %s\n", s.ignored.c_str());
    std::printf("%-24s %14s %14s\n", "choice", "in force", "built-in");
    const auto row = [](const char* name, const std::string& now, const std::string& builtin) {
        std::printf("%-24s %14s %14s\n", name, now.c_str(), builtin.c_str());
    };
#define BCAST_ROW_HINT(name, member) \
    row(name, bcast::tuning::hint_name(s.in_force.member), bcast::tuning::hint_name(s.defaults.member));
#define BCAST_ROW_SIZE(name, member, lo, hi) \
    row(name, std::to_string(s.in_force.member), std::to_string(s.defaults.member));
    BCAST_TUNING_CHOICES(BCAST_ROW_HINT, BCAST_ROW_SIZE)
#undef BCAST_ROW_HINT
#undef BCAST_ROW_SIZE
    return kExitOk;
}

}  // namespace bcast_cli
