// Independent scalar reference for bcast's element-wise ops, written from the
// public header's op table and docs/decisions ("Element-wise math") only.
//
// Every element is handled as its storage bits (zero-extended into a uint64_t);
// the reference decodes them per dtype, computes the expected output element and
// says how it must be compared (exact bits, any NaN, or within N ulp).
#ifndef BCAST_TESTS_API_SCALAR_REFERENCE_HPP
#define BCAST_TESTS_API_SCALAR_REFERENCE_HPP

#include <bcast/bcast.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bref {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr int kNumOpcodes = 39; // BCAST_OP_ADD .. BCAST_OP_COPY
constexpr int kNumDtypes = 13;  // BCAST_DTYPE_F32 .. BCAST_DTYPE_BOOL

enum class Kind { Float, Signed, Unsigned, Bool };

Kind kind_of(bcast_dtype dt);
std::size_t elem_size(bcast_dtype dt); // bytes, from the header's dtype comments
int bit_width(bcast_dtype dt);         // 8 * elem_size
const char* dtype_name(bcast_dtype dt);
const char* op_name(bcast_opcode op);

// ---- Support table, transcribed from the header's op table ----
bool expected_support(bcast_opcode op, bcast_dtype dt);
std::size_t min_arity(bcast_opcode op);
std::size_t max_arity(bcast_opcode op);
bool is_reversed(bcast_opcode op);          // RSUB, RDIV, ...
bcast_opcode base_of_reversed(bcast_opcode op);
bool is_transcendental(bcast_opcode op);    // POW/RPOW (floats), ATAN2/RATAN2, LOGADDEXP
bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt);
bcast_dtype input_dtype(bcast_opcode op, bcast_dtype dt, std::size_t input_index);

// ---- IEEE binary16 / bfloat16, by bit fields (decode) and frexp/ldexp (encode) ----
double f16_to_double(uint16_t bits);
uint16_t f16_from_double(double v); // round to nearest even, overflow -> inf
double bf16_to_double(uint16_t bits);
uint16_t bf16_from_double(double v);

// Value of float-dtype bits (exact), and bits of a value rounded (once) to dtype.
// For F16/BF16 the argument must already be representable as a double.
double float_value(bcast_dtype dt, uint64_t bits);
uint64_t float_bits(bcast_dtype dt, double v);
// Value of integer-dtype bits (sign-extended for signed dtypes).
i128 int_value(bcast_dtype dt, uint64_t bits);
// Bits of v wrapped to the dtype's width (two's complement).
uint64_t int_bits(bcast_dtype dt, i128 v);

// ---- The reference ----
struct Expected {
    uint64_t bits = 0;    // expected output bits
    bool any_nan = false; // float output: expected is NaN; any NaN is accepted
    int ulp = 0;          // 0: exact bits; otherwise max ulp distance (finite results)
};

// `in` holds n input elements (storage bits of input_dtype(op, dt, i)).
// Variadic ops fold left to right; R-ops are the base op with operands swapped.
Expected reference(bcast_opcode op, bcast_dtype dt, const uint64_t* in, std::size_t n);

// Does `got` (bits of output_dtype) satisfy `e`? On mismatch `why` explains.
bool matches(bcast_dtype out_dt, const Expected& e, uint64_t got, std::string* why);

std::string format_bits(bcast_dtype dt, uint64_t bits); // "0x3c00 (1)" etc.

} // namespace bref

#endif
