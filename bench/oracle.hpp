// Independent check of a benchmark's output: every element against x + y
// found by its own numpy-style index walk (b placed as numpy would see it).
#pragma once

#include "cases.hpp"
#include "operands.hpp"

#include <string>

namespace bench {

// "" when every output element is right; otherwise the first mismatch.
std::string check_output(const Case& c, const Operands& operands);

// Fills the output with a byte pattern no correct result here contains, so
// that an element bcast never wrote is caught.
void poison_output(Operands& operands);

}  // namespace bench
