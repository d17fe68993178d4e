// The subcommands of `bcast`; each returns the exit status and throws
// UsageError for a bad command line. argv[1] is the subcommand's name.
#pragma once

namespace bcast_cli {

int cmd_shape(int argc, char** argv);  // cli_shape.cpp
int cmd_plan(int argc, char** argv);   // cli_plan.cpp
int cmd_run(int argc, char** argv);    // cli_run.cpp
int cmd_bench(int argc, char** argv);  // cli_bench.cpp
int cmd_isa(int argc, char** argv);    // cli_isa.cpp
int cmd_tune(int argc, char** argv);   // cli_tune.cpp

extern const char* const kShapeHelp;
extern const char* const kPlanHelp;
extern const char* const kRunHelp;
extern const char* const kBenchHelp;
extern const char* const kIsaHelp;
extern const char* const kTuneHelp;

}  // namespace bcast_cli
