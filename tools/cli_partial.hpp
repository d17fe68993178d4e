// `bcast shape` over partial shapes: "N,3", "(?,2..8)", "2..", "(...,3)".
#pragma once

#include "cli_common.hpp"

#include <string>
#include <vector>

namespace bcast_cli {

struct PartialShape {
    int32_t rank_known = 1;
    std::vector<bcast_pdim> dims;        // symbol pointers set by bind()
    std::vector<std::string> symbols;    // one per dim, "" for none
    bcast_pshape bind();                 // call once the shape no longer moves
};

// True when the text uses anything only a partial shape has: '?', "..", or
// a symbol name (letters other than the 'x' separator; "scalar" is static).
bool looks_partial(const std::string& arg);
PartialShape parse_partial_shape(const std::string& arg);

// Infers (strict semantics) and prints the shape, then "where:" and one
// clause per line when run-time conditions remain.
int shape_partial(const std::vector<std::string>& args, bool expand, int32_t rule_or_mode,
                  int64_t axis, const std::vector<int64_t>* mapping);

}  // namespace bcast_cli
