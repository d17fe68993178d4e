// bcast_tuning_load_string, bcast_tuning_describe: the tuning in force
// (tuning/active_tuning.hpp).
#include "guard.hpp"

#include "tuning/active_tuning.hpp"

extern "C" {

bcast_status bcast_tuning_load_string(const char* text, size_t len) noexcept {
    return bcast::capi::guarded([&] {
        if (text == nullptr) {
            bcast::tuning::restore_lookup();
            return;
        }
        const std::string why = bcast::tuning::load_text(std::string_view(text, len));
        if (!why.empty()) bcast::fail(BCAST_ERROR_INVALID_ARGUMENT, "tuning text ignored: " + why);
    });
}

size_t bcast_tuning_describe(char* buf, size_t size) noexcept {
    return bcast::capi::describe_into([] { return bcast::tuning::describe_json(); }, buf, size,
                                      "bcast_tuning_describe: out of memory");
}

}  // extern "C"
