// Fuzzes the tuning file's reader (tuning/tuning_text.hpp), which the
// library runs on whatever file it finds at first plan: any bytes give a
// tuning or a reason, never a crash; whatever reads writes back and reads
// again to the same key and choices, each within its range.
#include "tuning/tuning_text.hpp"

#include "fuzz_input.hpp"

#include <string_view>

namespace {

using namespace bcast::tuning;

void check_ranges(const Tuning& t) {
#define BCAST_CHECK_HINT(name, member) FUZZ_CHECK(hint_name(t.member)[0] != '?');
#define BCAST_CHECK_SIZE(name, member, lo, hi) FUZZ_CHECK(t.member >= (lo) && t.member <= (hi));
    BCAST_TUNING_CHOICES(BCAST_CHECK_HINT, BCAST_CHECK_SIZE)
#undef BCAST_CHECK_HINT
#undef BCAST_CHECK_SIZE
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Tuning defaults;
    defaults.nt_min_bytes_1t = defaults.nt_min_bytes_nt = defaults.task_min_bytes = 4096;
    defaults.nt_min_bytes_1t_one_input = defaults.nt_min_bytes_nt_one_input = 4096;
    TuningText first;
    const std::string why = read_tuning_text(text, defaults, first);
    if (!why.empty()) return 0;
    check_ranges(first.tuning);
    TuningText again;
    FUZZ_CHECK(read_tuning_text(write_tuning_text(first.key, first.tuning, ""), Tuning{}, again).empty());
    FUZZ_CHECK(again.key == first.key);
    FUZZ_CHECK(again.tuning == first.tuning);
    return 0;
}
