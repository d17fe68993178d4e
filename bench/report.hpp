// The benchmark's output: a Markdown report on stdout (header, one table row
// per case as soon as it is measured, the fixed costs) and optionally JSON.
#pragma once

#include "case_runner.hpp"
#include "machine_info.hpp"
#include "offset_layouts.hpp"
#include "overheads.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace bench {

struct RunInfo {
    MachineInfo machine;
    std::string bcast_version;
    std::string default_isa;       // bcast_isa() before any cap was set
    std::string env_cap;           // BCAST_MAX_ISA, "" if unset
    std::string tuning_json;       // bcast_tuning_describe: the tuning in force
    std::string tuning_source;     // its info.source ("file PATH", "built-in zen4", ...)
    std::string tuning_choices;    // its choices, "name value, ..."
    std::vector<std::string> caps;  // --isa values; {""} = none given
    std::string reference_isa;
    std::vector<OffsetLayout> layouts;  // --offsets, in the order run
    std::vector<int> threads{1};        // --threads, in the order run
    bool smoke = false;
};

void print_header(std::FILE* out, const RunInfo& run);
void print_table_start(std::FILE* out, const RunInfo& run);
// speedup_column: the run has several thread counts (print_table_start's column).
void print_case_row(std::FILE* out, std::size_t number, const CaseResult& r,
                    bool speedup_column = false);
void print_overheads(std::FILE* out, const std::vector<OverheadResult>& overheads);

// false if the file cannot be written.
bool write_json(const std::string& path, const RunInfo& run,
                const std::vector<CaseResult>& cases,
                const std::vector<OverheadResult>& overheads);

}  // namespace bench
