#include "offset_layouts.hpp"

#include <algorithm>

namespace bench {

std::vector<OffsetLayout> all_offset_layouts() {
    return {{"0", 0, 0, 0}, {"4", 4, 4, 4}, {"16", 16, 16, 16}, {"mixed", 0, 4, 16}};
}

bool parse_offset_layouts(const std::string& text, std::vector<OffsetLayout>& layouts,
                          std::string& error) {
    const std::vector<OffsetLayout> known = all_offset_layouts();
    layouts.clear();
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string name = text.substr(begin, end - begin);
        begin = end + 1;
        bool found = false;
        for (const OffsetLayout& layout : known) {
            if (layout.name != name) continue;
            layouts.push_back(layout);
            found = true;
        }
        if (!found) {
            error = "unknown offset '" + name + "' (expected 0, 4, 16 or mixed)";
            return false;
        }
    }
    return true;
}

std::string offset_label(const OffsetLayout& layout) {
    if (layout.a == layout.b && layout.b == layout.out) return "+" + std::to_string(layout.a);
    return "a+" + std::to_string(layout.a) + " b+" + std::to_string(layout.b) + " y+" +
           std::to_string(layout.out);
}

}  // namespace bench
