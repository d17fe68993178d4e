// Where a case's operands start relative to a 64-byte boundary. bcast's
// callers rarely hand it 64-byte aligned memory (malloc and numpy give 16
// bytes, views and slices less), so every case runs at several layouts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

struct OffsetLayout {
    std::string name;                    // as --offsets names it: "0", "4", "16", "mixed"
    std::size_t a = 0, b = 0, out = 0;   // bytes past a 64-byte boundary
};

// "0", "4", "16": both inputs and the output at that offset. "mixed": a +0,
// b +4, out +16, no two at the same offset, so a kernel cannot align its
// loads and its stores with one peel.
std::vector<OffsetLayout> all_offset_layouts();

// Parses a comma-separated list of the names above. On a bad name returns
// false and says why in `error`.
bool parse_offset_layouts(const std::string& text, std::vector<OffsetLayout>& layouts,
                          std::string& error);

// The report's label: "+0", "+16", "a+0 b+4 y+16".
std::string offset_label(const OffsetLayout& layout);

}  // namespace bench
