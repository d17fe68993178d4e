// Command-line text to values: integers, shapes and integer lists (names:
// cli_names.hpp). Bad text is a usage error (exit 2).
#pragma once

#include "cli_common.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace bcast_cli {

std::string trim(const std::string& s);

// Lower case, '-' as '_': how the command line's names are compared.
std::string name_key(const std::string& s);

// A whole-string decimal integer (a sign only when allow_negative).
bool parse_int(const std::string& text, bool allow_negative, int64_t* out);

// "2,3,4", "(2,3,4)", "[2,3,4]", "2x3x4", "2 3 4", "(5,)", "()", "scalar", "".
Shape parse_shape(const std::string& arg);

// "0,2" or "(0,2)": a list of integers, negatives allowed.
std::vector<int64_t> parse_int_list(const std::string& arg, const char* what);

// "(2,3,4)", or "[4,3,2]" (innermost first) in ncnn order.
std::string format_shape(const Shape& dims, bool ncnn_order);

}  // namespace bcast_cli
