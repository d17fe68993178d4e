// The tuning in force as the library describes it (bcast_tuning_describe),
// read with the library's own text reader (src/tuning/tuning_text.cpp,
// compiled into the CLI), for `bcast isa` and `bcast tune`.
#pragma once

#include "tuning/tuning_text.hpp"

#include <string>

namespace bcast_cli {

struct TuningState {
    std::string json;  // bcast_tuning_describe's text
    bcast::tuning::HostKey key;
    bcast::tuning::Tuning in_force;
    bcast::tuning::Tuning defaults;  // the built-in tuning for this CPU
    std::string source;
    std::string ignored;
    std::string builtin;  // the built-in family's name
    int64_t load_ns = 0;
};

// Throws std::runtime_error if the description does not read (a bug).
TuningState read_tuning_state();

}  // namespace bcast_cli
