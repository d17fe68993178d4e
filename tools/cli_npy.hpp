// A small reader/writer for numpy's .npy format (versions 1.0, 2.0, 3.0):
// C-order, little-endian arrays of bcast's dtypes that numpy has (bool, i1..u8,
// f2, f4, f8; numpy has no bfloat16). Anything else is refused with a message
// naming the file: Fortran order, big-endian, object or structured dtypes,
// truncated or oversized files.
#pragma once

#include "cli_common.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bcast_cli {

struct NpyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct NpyArray {
    int32_t dtype = BCAST_DTYPE_F32;  // a bcast_dtype
    Shape shape;
    std::vector<unsigned char> data;  // C order, little-endian
};

// Parses a whole .npy file's bytes (through the same reader as read_npy);
// `name` is used in error messages.
NpyArray parse_npy(const std::vector<unsigned char>& bytes, const std::string& name);

// The .npy bytes of an array (version 1.0; 2.0 only for a huge header).
std::vector<unsigned char> format_npy(const NpyArray& array);

// File I/O around the two; "-" is stdin/stdout. Throw NpyError.
NpyArray read_npy(const std::string& path);
void write_npy(const std::string& path, const NpyArray& array);

}  // namespace bcast_cli
