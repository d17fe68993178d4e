// The library's names as the command line spells them (lower case, '-' for
// '_' accepted, a few aliases): parsed through bcast_*_from_name and listed
// in the help texts through bcast_*_name, so the CLI keeps no list of its own.
// Bad text is a usage error (exit 2).
#pragma once

#include <cstdint>
#include <string>

namespace bcast_cli {

int32_t parse_rule(const std::string& text);
int32_t parse_expand_mode(const std::string& text);
int32_t parse_op(const std::string& text);  // a name or an opcode number
int32_t parse_dtype(const std::string& text);

// The library's short dtype name ("f32", "bool"); "?" for unknown values.
const char* dtype_name(int32_t dtype);

// `help` with each {OPS}, {DTYPES}, {RULES}, {MODES} and {ISAS} replaced by the
// library's names, lower case, separated by ", " (OPS: by blanks) and wrapped
// at 80 columns under the column the placeholder starts at.
std::string with_names(const char* help);

}  // namespace bcast_cli
