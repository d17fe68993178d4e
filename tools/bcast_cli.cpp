// bcast: command-line front end to libbcast: shape inference, plans, running
// ops on .npy files, and a one-case benchmark.
//
// Uses only the public C API (<bcast/bcast.h>). Exit status: 0 success,
// 1 the library (or an input file) refused (message on stderr), 2 usage error
// (bad option, bad shape, ...). Each subcommand lives in its own cli_*.cpp.

#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_names.hpp"

#include <bcast/bcast.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace {

using namespace bcast_cli;

const char* const kMainHelp =
    "usage: bcast <command> [options] ARGS...\n"
    "\n"
    "Broadcast shape inference, plan inspection, running and timing libbcast ops.\n"
    "\n"
    "commands:\n"
    "  shape   print the broadcast output shape of the given input shapes\n"
    "  plan    plan an element-wise op and print bcast_op_describe's JSON\n"
    "  run     apply an op to .npy files and write the result as .npy\n"
    "  bench   time one planned op against a roofline loop (GB/s, ratio)\n"
    "  isa     print the kernel set and the tuning in force, and where it came from\n"
    "  tune    measure the tuning choices on this host and write the tuning file\n"
    "\n"
    "options:\n"
    "  -h, --help      show this help (or `bcast <command> --help`)\n"
    "  -V, --version   print the library version\n"
    "\n"
    "Shapes are written outer-to-inner (numpy order): 2,3,4  (2,3,4)  [2,3,4]  2x3x4.\n"
    "A scalar (rank 0) is (), [], scalar, or the empty string \"\".\n"
    "\n"
    "examples:\n"
    "  bcast shape 2,1,5 4,1                            -> (2,4,5)\n"
    "  bcast shape --rule pdpd --axis 1 2,3,4,5 3,1     -> (2,3,4,5)\n"
    "  bcast shape --rule ncnn --ncnn-order 2,3,4 4     -> [2,3,4]\n"
    "  bcast shape --expand bidirectional 3,1 2,1,6     -> (2,3,6)\n"
    "  bcast plan --op add --dtype f32 --rule numpy 2,3,4 4\n"
    "  bcast run --op add --rule pdpd --axis 1 -o c.npy a.npy b.npy\n"
    "  bcast bench --op mul --dtype f32 --seconds 2 1024,1024 1024\n"
    "\n"
    "exit status: 0 success, 1 the library or an input file refused (message on\n"
    "stderr), 2 usage error.\n";

// The subcommands: their help and their entry, one list for dispatch, help
// and the usage errors' pointer to a subcommand's help.
struct Command {
    const char* name;
    const char* help;
    int (*run)(int argc, char** argv);
};
const Command kCommands[] = {{"shape", kShapeHelp, cmd_shape}, {"plan", kPlanHelp, cmd_plan},
                             {"run", kRunHelp, cmd_run},       {"bench", kBenchHelp, cmd_bench},
                             {"isa", kIsaHelp, cmd_isa},       {"tune", kTuneHelp, cmd_tune}};

const Command* find_command(const std::string& name) {
    for (const Command& c : kCommands) {
        if (name == c.name) return &c;
    }
    return nullptr;
}

int dispatch(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(kMainHelp, stderr);
        return kExitUsage;
    }
    const std::string cmd = argv[1];
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        const Command* sub = cmd == "help" && argc > 2 ? find_command(argv[2]) : nullptr;
        std::fputs(with_names(sub ? sub->help : kMainHelp).c_str(), stdout);
        return kExitOk;
    }
    if (cmd == "-V" || cmd == "--version" || cmd == "version") {
        std::printf("bcast %s\n", bcast_version_string());
        return kExitOk;
    }
    if (const Command* c = find_command(cmd)) return c->run(argc, argv);
    if (cmd[0] == '-') usage_error("unknown option '" + cmd + "' (before a command: --help or --version)");
    std::string names;  // "shape, plan, ... or tune"
    const std::size_t n = sizeof kCommands / sizeof kCommands[0];
    for (std::size_t i = 0; i < n; ++i) names += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kCommands[i].name;
    usage_error("unknown command '" + cmd + "' (expected " + names + "; see bcast --help)");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const int rc = dispatch(argc, argv);
        if (std::fflush(stdout) != 0) {
            std::fprintf(stderr, "bcast: error writing output\n");
            return kExitRefused;
        }
        return rc;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "bcast: %s\n", e.message.c_str());
        // The subcommand's own help, where the error was in a subcommand.
        const Command* sub = argc > 1 ? find_command(argv[1]) : nullptr;
        std::fprintf(stderr, "Try 'bcast %s%s--help'.\n", sub ? sub->name : "", sub ? " " : "");
        return kExitUsage;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "bcast: out of memory (the inputs or the output do not fit)\n");
        return kExitRefused;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bcast: %s\n", e.what());
        return kExitRefused;
    } catch (...) {
        std::fprintf(stderr, "bcast: unexpected error\n");
        return kExitRefused;
    }
}
