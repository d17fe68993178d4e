// A global operator new that can be told to fail its Nth call. The test
// program defines it (failing_allocator.cpp); libbcast.so's own calls to
// operator new bind to it through the dynamic linker, so the library's
// allocations are the ones counted. Built on malloc/free, so that
// LeakSanitizer sees every block.
#pragma once

#include <cstdint>

namespace faults {

// Counts the allocations fn makes through the throwing forms of operator
// new; the `fail_at`th one (1-based) throws std::bad_alloc; 0 never fails.
struct AllocationCount {
    int64_t calls = 0;
    bool failed = false;  // the fail_at-th call was reached
};

void arm(int64_t fail_at);
AllocationCount disarm();

template <class Fn>
AllocationCount count_allocations(Fn&& fn, int64_t fail_at = 0) {
    arm(fail_at);
    fn();
    return disarm();
}

}  // namespace faults
