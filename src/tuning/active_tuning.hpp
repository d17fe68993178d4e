// The tuning in force (docs/kernels.md, "Tuning"). Looked up once, at the
// first call (the first plan): the file named by BCAST_TUNING (or "off":
// the built-in tuning), else $XDG_CACHE_HOME/bcast/tuning.json (or
// ~/.cache/bcast/tuning.json), else /var/cache/bcast/tuning.json; the first
// one that is for this host (CPU vendor, family, model and the ISA in force
// then) and reads cleanly wins, anything else is ignored with a reason. The
// library only reads. load_text swaps in another tuning: later plans and
// kernel calls see it.
#pragma once

#include "tuning/tuning_values.hpp"

#include <string>
#include <string_view>

namespace bcast::tuning {

// Valid for the life of the process (tunings are never freed).
const Tuning& active();

// Where active() came from: "file PATH", "built-in zen4", "built-in zen4
// (BCAST_TUNING=off)" or "string".
std::string active_source();

// Makes `text` the tuning in force if it reads cleanly and is for this host:
// "" then, else why not (and nothing changes).
std::string load_text(std::string_view text);

// Back to what the first lookup found.
void restore_lookup();

// The tuning in force as a tuning text for this host, with "info" telling
// its source, what was ignored and why, the built-in family and defaults,
// and how long finding and reading the files took (bcast_tuning_describe).
std::string describe_json();

}  // namespace bcast::tuning
