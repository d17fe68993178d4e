// The vocabulary's names as messages list them (capi/names.cpp).
#pragma once

#include <bcast/bcast.h>

#include <cstdint>
#include <string>

namespace bcast::capi {

// A bcast_*_name look-up: NULL past the last value (values run from 0).
using NameOf = const char* (*)(int32_t) noexcept;

// Every name of name_of, in order, separated by ", ".
std::string name_list(NameOf name_of);

// A name as a message quotes it: at most 64 characters, so that the list of
// names after it fits the message.
std::string quoted_name(const char* name);

}  // namespace bcast::capi
