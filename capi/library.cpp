// Version and CPU-dispatch entry points.
#include "guard.hpp"
#include "names.hpp"

#include "kernels/dispatch.hpp"

#define BCAST_STR2(x) #x
#define BCAST_STR(x) BCAST_STR2(x)

extern "C" {

uint32_t bcast_version(void) noexcept { return BCAST_VERSION_NUMBER; }

const char* bcast_version_string(void) noexcept {
    return BCAST_STR(BCAST_VERSION_MAJOR) "." BCAST_STR(BCAST_VERSION_MINOR) "." BCAST_STR(
        BCAST_VERSION_PATCH);
}

const char* bcast_isa(void) noexcept { return bcast::kernels::active_isa_name(); }

bcast_status bcast_set_max_isa(const char* name) noexcept {
    return bcast::capi::guarded([&] {
        if (!name) bcast::fail(BCAST_ERROR_INVALID_ARGUMENT, "ISA name is NULL");
        if (!bcast::kernels::set_max_isa(name)) {
            bcast::fail(BCAST_ERROR_INVALID_ARGUMENT, "unknown ISA " + bcast::capi::quoted_name(name) + " (expected one of: " +
                                                          bcast::capi::name_list(bcast_isa_name) + ")");
        }
    });
}

}  // extern "C"
