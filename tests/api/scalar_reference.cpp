// Independent scalar reference; see scalar_reference.hpp. Written from the header
// table and decisions.md, deliberately plain and slow.
#include "api/scalar_reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace bref {

// ---------------------------------------------------------------------------
// dtypes and opcodes
// ---------------------------------------------------------------------------

Kind kind_of(bcast_dtype dt) {
    switch (dt) {
    case BCAST_DTYPE_F32:
    case BCAST_DTYPE_F64:
    case BCAST_DTYPE_F16:
    case BCAST_DTYPE_BF16:
        return Kind::Float;
    case BCAST_DTYPE_I8:
    case BCAST_DTYPE_I16:
    case BCAST_DTYPE_I32:
    case BCAST_DTYPE_I64:
        return Kind::Signed;
    case BCAST_DTYPE_U8:
    case BCAST_DTYPE_U16:
    case BCAST_DTYPE_U32:
    case BCAST_DTYPE_U64:
        return Kind::Unsigned;
    default:
        return Kind::Bool;
    }
}

std::size_t elem_size(bcast_dtype dt) {
    switch (dt) {
    case BCAST_DTYPE_F64:
    case BCAST_DTYPE_I64:
    case BCAST_DTYPE_U64:
        return 8;
    case BCAST_DTYPE_F32:
    case BCAST_DTYPE_I32:
    case BCAST_DTYPE_U32:
        return 4;
    case BCAST_DTYPE_F16:
    case BCAST_DTYPE_BF16:
    case BCAST_DTYPE_I16:
    case BCAST_DTYPE_U16:
        return 2;
    default:
        return 1;
    }
}

int bit_width(bcast_dtype dt) { return static_cast<int>(8 * elem_size(dt)); }

const char* dtype_name(bcast_dtype dt) {
    static const char* const names[kNumDtypes] = {"F32", "F64", "F16", "BF16", "I8",
                                                  "U8",  "I16", "U16", "I32",  "U32",
                                                  "I64", "U64", "BOOL"};
    return (dt >= 0 && dt < kNumDtypes) ? names[dt] : "?dtype";
}

const char* op_name(bcast_opcode op) {
    static const char* const names[kNumOpcodes] = {
        "ADD",          "SUB",           "MUL",         "DIV",          "MAX",
        "MIN",          "POW",           "RSUB",        "RDIV",         "RPOW",
        "ATAN2",        "RATAN2",        "FMOD",        "RFMOD",        "LOGADDEXP",
        "FLOOR_DIVIDE", "RFLOOR_DIVIDE", "REMAINDER",   "RREMAINDER",   "MOD",
        "SQUARED_DIFFERENCE", "PRELU",   "EQUAL",       "NOT_EQUAL",    "LESS",
        "LESS_EQUAL",   "GREATER",       "GREATER_EQUAL", "LOGICAL_AND", "LOGICAL_OR",
        "LOGICAL_XOR",  "BITWISE_AND",   "BITWISE_OR",  "BITWISE_XOR",  "SHIFT_LEFT",
        "SHIFT_RIGHT",  "MEAN",          "SELECT",      "COPY"};
    return (op >= 0 && op < kNumOpcodes) ? names[op] : "?op";
}

namespace {
enum class DtSet { Numeric, Float, Int, IntBool, BoolOnly, NumericBool, All };

DtSet dtset_of(bcast_opcode op) {
    switch (op) {
    case BCAST_OP_ATAN2:
    case BCAST_OP_RATAN2:
    case BCAST_OP_LOGADDEXP:
    case BCAST_OP_REMAINDER:
    case BCAST_OP_RREMAINDER:
    case BCAST_OP_MEAN:
        return DtSet::Float;
    case BCAST_OP_EQUAL:
    case BCAST_OP_NOT_EQUAL:
    case BCAST_OP_LESS:
    case BCAST_OP_LESS_EQUAL:
    case BCAST_OP_GREATER:
    case BCAST_OP_GREATER_EQUAL:
        return DtSet::NumericBool;
    case BCAST_OP_LOGICAL_AND:
    case BCAST_OP_LOGICAL_OR:
    case BCAST_OP_LOGICAL_XOR:
        return DtSet::BoolOnly;
    case BCAST_OP_BITWISE_AND:
    case BCAST_OP_BITWISE_OR:
    case BCAST_OP_BITWISE_XOR:
        return DtSet::IntBool;
    case BCAST_OP_SHIFT_LEFT:
    case BCAST_OP_SHIFT_RIGHT:
        return DtSet::Int;
    case BCAST_OP_SELECT:
    case BCAST_OP_COPY:
        return DtSet::All;
    default: // ADD SUB MUL DIV MAX MIN POW RSUB RDIV RPOW FMOD RFMOD FLOOR_DIVIDE
             // RFLOOR_DIVIDE MOD SQUARED_DIFFERENCE PRELU
        return DtSet::Numeric;
    }
}
} // namespace

bool expected_support(bcast_opcode op, bcast_dtype dt) {
    if (op < 0 || op >= kNumOpcodes || dt < 0 || dt >= kNumDtypes) return false;
    const Kind k = kind_of(dt);
    switch (dtset_of(op)) {
    case DtSet::Numeric: return k != Kind::Bool;
    case DtSet::Float: return k == Kind::Float;
    case DtSet::Int: return k == Kind::Signed || k == Kind::Unsigned;
    case DtSet::IntBool: return k != Kind::Float;
    case DtSet::BoolOnly: return k == Kind::Bool;
    case DtSet::NumericBool: return true;
    case DtSet::All: return true;
    }
    return false;
}

std::size_t min_arity(bcast_opcode op) {
    if (op == BCAST_OP_COPY) return 1;
    if (op == BCAST_OP_SELECT) return 3;
    return 2;
}

std::size_t max_arity(bcast_opcode op) {
    switch (op) {
    case BCAST_OP_ADD:
    case BCAST_OP_MUL:
    case BCAST_OP_MAX:
    case BCAST_OP_MIN:
    case BCAST_OP_MEAN:
        return 16;
    default:
        return min_arity(op);
    }
}

bool is_reversed(bcast_opcode op) {
    switch (op) {
    case BCAST_OP_RSUB:
    case BCAST_OP_RDIV:
    case BCAST_OP_RPOW:
    case BCAST_OP_RATAN2:
    case BCAST_OP_RFMOD:
    case BCAST_OP_RFLOOR_DIVIDE:
    case BCAST_OP_RREMAINDER:
        return true;
    default:
        return false;
    }
}

bcast_opcode base_of_reversed(bcast_opcode op) {
    switch (op) {
    case BCAST_OP_RSUB: return BCAST_OP_SUB;
    case BCAST_OP_RDIV: return BCAST_OP_DIV;
    case BCAST_OP_RPOW: return BCAST_OP_POW;
    case BCAST_OP_RATAN2: return BCAST_OP_ATAN2;
    case BCAST_OP_RFMOD: return BCAST_OP_FMOD;
    case BCAST_OP_RFLOOR_DIVIDE: return BCAST_OP_FLOOR_DIVIDE;
    case BCAST_OP_RREMAINDER: return BCAST_OP_REMAINDER;
    default: return op;
    }
}

bool is_transcendental(bcast_opcode op) {
    const bcast_opcode b = base_of_reversed(op);
    return b == BCAST_OP_POW || b == BCAST_OP_ATAN2 || b == BCAST_OP_LOGADDEXP;
}

bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt) {
    switch (op) {
    case BCAST_OP_EQUAL:
    case BCAST_OP_NOT_EQUAL:
    case BCAST_OP_LESS:
    case BCAST_OP_LESS_EQUAL:
    case BCAST_OP_GREATER:
    case BCAST_OP_GREATER_EQUAL:
    case BCAST_OP_LOGICAL_AND:
    case BCAST_OP_LOGICAL_OR:
    case BCAST_OP_LOGICAL_XOR:
        return BCAST_DTYPE_BOOL;
    default:
        return dt;
    }
}

bcast_dtype input_dtype(bcast_opcode op, bcast_dtype dt, std::size_t input_index) {
    if (op == BCAST_OP_SELECT && input_index == 0) return BCAST_DTYPE_BOOL;
    return dt;
}

// ---------------------------------------------------------------------------
// Small binary floating formats (binary16: 5/10, bfloat16: 8/7)
// ---------------------------------------------------------------------------

namespace {

double decode_small(uint32_t bits, int ebits, int mbits) {
    const int bias = (1 << (ebits - 1)) - 1;
    const uint32_t exp_all = (1u << ebits) - 1u;
    const uint32_t sign = (bits >> (ebits + mbits)) & 1u;
    const uint32_t exp = (bits >> mbits) & exp_all;
    const uint32_t mant = bits & ((1u << mbits) - 1u);
    double mag;
    if (exp == exp_all) {
        mag = mant != 0 ? std::numeric_limits<double>::quiet_NaN()
                        : std::numeric_limits<double>::infinity();
    } else if (exp == 0) {
        mag = std::ldexp(static_cast<double>(mant), 1 - bias - mbits); // subnormal
    } else {
        mag = std::ldexp(static_cast<double>(mant + (1u << mbits)),
                         static_cast<int>(exp) - bias - mbits);
    }
    return sign != 0 ? -mag : mag;
}

uint32_t encode_small(double v, int ebits, int mbits) {
    const int bias = (1 << (ebits - 1)) - 1;
    const uint32_t exp_all = (1u << ebits) - 1u;
    const uint32_t sign = std::signbit(v) ? (1u << (ebits + mbits)) : 0u;
    const uint32_t inf = sign | (exp_all << mbits);
    if (std::isnan(v)) return inf | (1u << (mbits - 1)); // a quiet NaN
    const double a = std::fabs(v);
    if (std::isinf(a)) return inf;
    if (a == 0) return sign;
    int e = 0;
    std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1): unbiased exponent e - 1
    int E = e - 1;
    if (E > bias) return inf;
    if (E < 1 - bias) E = 1 - bias; // subnormals share the smallest binade's spacing
    const double quantum = std::ldexp(1.0, E - mbits);
    const double r = std::nearbyint(a / quantum) * quantum; // ties to even (default mode)
    if (r == 0) return sign;
    if (r >= std::ldexp(1.0, bias + 1)) return inf; // rounded past the largest finite
    std::frexp(r, &e);
    const int E2 = e - 1;
    if (E2 < 1 - bias) {
        const double m = r / std::ldexp(1.0, 1 - bias - mbits);
        return sign | static_cast<uint32_t>(m);
    }
    const double m = r / std::ldexp(1.0, E2 - mbits) - std::ldexp(1.0, mbits);
    return sign | (static_cast<uint32_t>(E2 + bias) << mbits) | static_cast<uint32_t>(m);
}

} // namespace

double f16_to_double(uint16_t bits) { return decode_small(bits, 5, 10); }
uint16_t f16_from_double(double v) { return static_cast<uint16_t>(encode_small(v, 5, 10)); }
double bf16_to_double(uint16_t bits) { return decode_small(bits, 8, 7); }
uint16_t bf16_from_double(double v) { return static_cast<uint16_t>(encode_small(v, 8, 7)); }

double float_value(bcast_dtype dt, uint64_t bits) {
    switch (dt) {
    case BCAST_DTYPE_F32: {
        float f;
        const uint32_t b = static_cast<uint32_t>(bits);
        std::memcpy(&f, &b, 4);
        return f;
    }
    case BCAST_DTYPE_F64: {
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }
    case BCAST_DTYPE_F16: return f16_to_double(static_cast<uint16_t>(bits));
    case BCAST_DTYPE_BF16: return bf16_to_double(static_cast<uint16_t>(bits));
    default: return 0;
    }
}

uint64_t float_bits(bcast_dtype dt, double v) {
    switch (dt) {
    case BCAST_DTYPE_F32: {
        const float f = static_cast<float>(v);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return b;
    }
    case BCAST_DTYPE_F64: {
        uint64_t b;
        std::memcpy(&b, &v, 8);
        return b;
    }
    case BCAST_DTYPE_F16: return f16_from_double(v);
    case BCAST_DTYPE_BF16: return bf16_from_double(v);
    default: return 0;
    }
}

i128 int_value(bcast_dtype dt, uint64_t bits) {
    const int w = bit_width(dt);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1);
    const uint64_t b = bits & mask;
    if (kind_of(dt) == Kind::Signed && ((b >> (w - 1)) & 1u) != 0) {
        // negative: value = b - 2^w
        return static_cast<i128>(b) - (static_cast<i128>(1) << w);
    }
    return static_cast<i128>(b);
}

uint64_t int_bits(bcast_dtype dt, i128 v) {
    const int w = bit_width(dt);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1);
    return static_cast<uint64_t>(static_cast<u128>(v)) & mask;
}

// ---------------------------------------------------------------------------
// Float arithmetic in the computation type. "F" = f32 semantics (used for
// F32, F16 and BF16): each operation is done exactly enough in double and
// rounded once to float. "D" = f64: native double operations (IEEE).
// ---------------------------------------------------------------------------

namespace {

struct F {
    using T = float;
    static T r(double v) { return static_cast<float>(v); }
    static T add(T a, T b) { return r(double(a) + double(b)); }
    static T sub(T a, T b) { return r(double(a) - double(b)); }
    static T mul(T a, T b) { return r(double(a) * double(b)); }
    static T div(T a, T b) { return r(double(a) / double(b)); }
    static T fmod(T a, T b) { return r(std::fmod(double(a), double(b))); }      // exact
    static T rem(T a, T b) { return r(std::remainder(double(a), double(b))); } // exact
};

struct D {
    using T = double;
    static T add(T a, T b) { return a + b; }
    static T sub(T a, T b) { return a - b; }
    static T mul(T a, T b) { return a * b; }
    static T div(T a, T b) { return a / b; }
    static T fmod(T a, T b) { return std::fmod(a, b); }
    static T rem(T a, T b) { return std::remainder(a, b); }
};

// numpy's npy_divmod, floor-division part, in the operands' own precision
// (numpy evaluates f32 in float: when fmod's remainder is tiny, a - mod
// rounds, and numpy's answer is one below the true floor; checked against
// numpy 1.24 on 2M random f32 bit patterns).
template <class A>
typename A::T numpy_floor_divide(typename A::T a, typename A::T b) {
    using T = typename A::T;
    if (b == 0) return A::div(a, b);
    T mod = A::fmod(a, b);
    T div = A::div(A::sub(a, mod), b);
    if (mod != 0) { // also true for NaN
        if ((b < 0) != (mod < 0)) {
            mod = A::add(mod, b);
            div = A::sub(div, T(1));
        }
    }
    T floordiv;
    if (div != 0) { // also true for NaN
        floordiv = std::floor(div);
        if (A::sub(div, floordiv) > T(0.5)) floordiv = A::add(floordiv, T(1));
    } else {
        floordiv = std::copysign(T(0), A::div(a, b));
    }
    return floordiv;
}

template <class A>
typename A::T numpy_mod(typename A::T a, typename A::T b) {
    using T = typename A::T;
    if (b == 0) return std::numeric_limits<T>::quiet_NaN();
    T r = A::fmod(a, b);
    if (r != 0 && !std::isnan(r) && ((r < 0) != (b < 0))) r = A::add(r, b);
    if (r == 0) r = std::copysign(T(0), b);
    return r;
}

long double logaddexp_ld(long double x, long double y) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<long double>::quiet_NaN();
    if (x == y) return x + 0.693147180559945309417232121458176568L; // also +-inf
    const long double t = x - y;
    if (t > 0) return x + std::log1p(std::exp(-t));
    return y + std::log1p(std::exp(t));
}

// Result of a float op before rounding to the output dtype.
struct FloatResult {
    long double value = 0; // for exact ops: already rounded to the compute type
    bool is_bool = false;
    bool transcendental = false;
};

template <class A>
FloatResult float_binary(bcast_opcode op, typename A::T x, typename A::T y) {
    using T = typename A::T;
    FloatResult res;
    auto set = [&res](T v) { res.value = v; };
    auto set_bool = [&res](bool b) {
        res.is_bool = true;
        res.value = b ? 1 : 0;
    };
    switch (op) {
    case BCAST_OP_ADD: set(A::add(x, y)); break;
    case BCAST_OP_SUB: set(A::sub(x, y)); break;
    case BCAST_OP_MUL: set(A::mul(x, y)); break;
    case BCAST_OP_DIV: set(A::div(x, y)); break;
    case BCAST_OP_MAX: set((x >= y || std::isnan(x)) ? x : y); break;
    case BCAST_OP_MIN: set((x <= y || std::isnan(x)) ? x : y); break;
    case BCAST_OP_FMOD: set(A::fmod(x, y)); break;
    case BCAST_OP_REMAINDER: set(A::rem(x, y)); break;
    case BCAST_OP_FLOOR_DIVIDE: set(numpy_floor_divide<A>(x, y)); break;
    case BCAST_OP_MOD: set(numpy_mod<A>(x, y)); break;
    case BCAST_OP_SQUARED_DIFFERENCE: {
        const T d = A::sub(x, y);
        set(A::mul(d, d));
        break;
    }
    case BCAST_OP_PRELU: set(x < 0 ? A::mul(x, y) : x); break;
    case BCAST_OP_EQUAL: set_bool(x == y); break;
    case BCAST_OP_NOT_EQUAL: set_bool(x != y); break;
    case BCAST_OP_LESS: set_bool(x < y); break;
    case BCAST_OP_LESS_EQUAL: set_bool(x <= y); break;
    case BCAST_OP_GREATER: set_bool(x > y); break;
    case BCAST_OP_GREATER_EQUAL: set_bool(x >= y); break;
    case BCAST_OP_POW:
        res.transcendental = true;
        res.value = std::pow(static_cast<long double>(x), static_cast<long double>(y));
        break;
    case BCAST_OP_ATAN2:
        res.transcendental = true;
        res.value = std::atan2(static_cast<long double>(x), static_cast<long double>(y));
        break;
    case BCAST_OP_LOGADDEXP:
        res.transcendental = true;
        res.value = logaddexp_ld(x, y);
        break;
    default:
        set(std::numeric_limits<T>::quiet_NaN()); // not a float binary op
        break;
    }
    return res;
}

template <class A>
FloatResult float_nary(bcast_opcode op, const typename A::T* v, std::size_t n) {
    using T = typename A::T;
    if (op == BCAST_OP_ADD || op == BCAST_OP_MUL || op == BCAST_OP_MAX || op == BCAST_OP_MIN) {
        T acc = v[0];
        for (std::size_t i = 1; i < n; ++i) acc = static_cast<T>(float_binary<A>(op, acc, v[i]).value);
        FloatResult r;
        r.value = acc;
        return r;
    }
    if (op == BCAST_OP_MEAN) {
        T acc = v[0];
        for (std::size_t i = 1; i < n; ++i) acc = A::add(acc, v[i]);
        FloatResult r;
        r.value = A::div(acc, static_cast<T>(n));
        return r;
    }
    return float_binary<A>(op, v[0], v[1]);
}

Expected float_reference(bcast_opcode op, bcast_dtype dt, const uint64_t* in, std::size_t n) {
    Expected e;
    FloatResult r;
    if (dt == BCAST_DTYPE_F64) {
        double v[BCAST_MAX_INPUTS] = {};
        for (std::size_t i = 0; i < n; ++i) v[i] = float_value(dt, in[i]);
        r = float_nary<D>(op, v, n);
    } else {
        float v[BCAST_MAX_INPUTS] = {};
        for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(float_value(dt, in[i])); // exact
        r = float_nary<F>(op, v, n);
    }
    if (r.is_bool) {
        e.bits = r.value != 0 ? 1 : 0;
        return e;
    }
    if (std::isnan(r.value)) {
        e.any_nan = true;
        e.bits = float_bits(dt, std::numeric_limits<double>::quiet_NaN());
        return e;
    }
    if (dt == BCAST_DTYPE_F64) {
        e.bits = float_bits(dt, static_cast<double>(r.value)); // single rounding from long double
    } else {
        const float f = static_cast<float>(r.value); // the f32 result
        e.bits = float_bits(dt, static_cast<double>(f));
    }
    if (r.transcendental && !std::isinf(r.value) && r.value != 0) {
        e.ulp = (dt == BCAST_DTYPE_F32 || dt == BCAST_DTYPE_F64) ? 2 : 1;
    }
    return e;
}

// ---------------------------------------------------------------------------
// Integers: exact values in __int128, wrapped to the width at the end.
// ---------------------------------------------------------------------------

i128 wrap(bcast_dtype dt, u128 v) { return int_value(dt, int_bits(dt, static_cast<i128>(v))); }

i128 int_binary(bcast_opcode op, bcast_dtype dt, i128 x, i128 y, bool* is_bool) {
    const u128 ux = static_cast<u128>(x);
    const u128 uy = static_cast<u128>(y);
    const int w = bit_width(dt);
    *is_bool = false;
    auto boolean = [is_bool](bool b) -> i128 {
        *is_bool = true;
        return b ? 1 : 0;
    };
    switch (op) {
    case BCAST_OP_ADD: return wrap(dt, ux + uy);
    case BCAST_OP_SUB: return wrap(dt, ux - uy);
    case BCAST_OP_MUL: return wrap(dt, ux * uy);
    case BCAST_OP_DIV:
        if (y == 0) return 0;
        return wrap(dt, static_cast<u128>(x / y)); // truncates; INT_MIN / -1 wraps
    case BCAST_OP_FLOOR_DIVIDE: {
        if (y == 0) return 0;
        i128 q = x / y;
        if (x % y != 0 && ((x < 0) != (y < 0))) q -= 1;
        return wrap(dt, static_cast<u128>(q));
    }
    case BCAST_OP_FMOD:
        if (y == 0) return 0;
        return wrap(dt, static_cast<u128>(x % y));
    case BCAST_OP_MOD: {
        if (y == 0) return 0;
        i128 r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return wrap(dt, static_cast<u128>(r));
    }
    case BCAST_OP_MAX: return x > y ? x : y;
    case BCAST_OP_MIN: return x < y ? x : y;
    case BCAST_OP_POW: {
        if (y < 0) {
            if (x == 1) return 1;
            if (x == -1) return (y % 2 != 0) ? -1 : 1;
            return 0;
        }
        u128 result = 1, base = ux, e = uy;
        while (e != 0) {
            if ((e & 1) != 0) result *= base;
            base *= base;
            e >>= 1;
        }
        return wrap(dt, result);
    }
    case BCAST_OP_SQUARED_DIFFERENCE: {
        const u128 d = ux - uy;
        return wrap(dt, d * d);
    }
    case BCAST_OP_PRELU: return x < 0 ? wrap(dt, ux * uy) : x;
    case BCAST_OP_EQUAL: return boolean(x == y);
    case BCAST_OP_NOT_EQUAL: return boolean(x != y);
    case BCAST_OP_LESS: return boolean(x < y);
    case BCAST_OP_LESS_EQUAL: return boolean(x <= y);
    case BCAST_OP_GREATER: return boolean(x > y);
    case BCAST_OP_GREATER_EQUAL: return boolean(x >= y);
    case BCAST_OP_LOGICAL_AND: return boolean(x != 0 && y != 0);
    case BCAST_OP_LOGICAL_OR: return boolean(x != 0 || y != 0);
    case BCAST_OP_LOGICAL_XOR: return boolean((x != 0) != (y != 0));
    case BCAST_OP_BITWISE_AND: return wrap(dt, ux & uy);
    case BCAST_OP_BITWISE_OR: return wrap(dt, ux | uy);
    case BCAST_OP_BITWISE_XOR: return wrap(dt, ux ^ uy);
    case BCAST_OP_SHIFT_LEFT:
        if (y < 0 || y >= w) return 0;
        return wrap(dt, ux << static_cast<int>(y));
    case BCAST_OP_SHIFT_RIGHT:
        if (y < 0 || y >= w) return 0;
        // x is the exact (sign-extended) value: >> on __int128 is arithmetic in GCC;
        // unsigned dtypes hold non-negative values, so this is a logical shift there.
        return wrap(dt, static_cast<u128>(x >> static_cast<int>(y)));
    default:
        return 0;
    }
}

Expected int_reference(bcast_opcode op, bcast_dtype dt, const uint64_t* in, std::size_t n) {
    Expected e;
    bool is_bool = false;
    i128 acc = int_value(dt, in[0]);
    for (std::size_t i = 1; i < n; ++i) acc = int_binary(op, dt, acc, int_value(dt, in[i]), &is_bool);
    e.bits = is_bool ? static_cast<uint64_t>(acc) : int_bits(dt, acc);
    return e;
}

} // namespace

Expected reference(bcast_opcode op, bcast_dtype dt, const uint64_t* in, std::size_t n) {
    if (op == BCAST_OP_COPY) {
        Expected e;
        e.bits = in[0];
        return e;
    }
    if (op == BCAST_OP_SELECT) {
        Expected e;
        e.bits = (in[0] & 0xFF) != 0 ? in[1] : in[2];
        return e;
    }
    if (is_reversed(op)) {
        const uint64_t swapped[2] = {in[1], in[0]};
        return reference(base_of_reversed(op), dt, swapped, 2);
    }
    if (kind_of(dt) == Kind::Float) return float_reference(op, dt, in, n);
    if (kind_of(dt) == Kind::Bool) {
        // BOOL elements are one byte; logical ops treat any non-zero byte as true.
        // Comparisons and bitwise ops see the byte values 0/1 as unsigned numbers.
        uint64_t b[BCAST_MAX_INPUTS] = {};
        for (std::size_t i = 0; i < n; ++i) b[i] = in[i] & 0xFF;
        return int_reference(op, BCAST_DTYPE_U8, b, n);
    }
    return int_reference(op, dt, in, n);
}

// ---------------------------------------------------------------------------
// Comparison and printing
// ---------------------------------------------------------------------------

namespace {
// Monotonic integer image of a float's bits (-0 and +0 both map to 0).
i128 ordered(uint64_t bits, int width) {
    const uint64_t sign_bit = uint64_t{1} << (width - 1);
    const uint64_t mag = bits & (sign_bit - 1);
    return (bits & sign_bit) != 0 ? -static_cast<i128>(mag) : static_cast<i128>(mag);
}
} // namespace

bool matches(bcast_dtype out_dt, const Expected& e, uint64_t got, std::string* why) {
    const int w = bit_width(out_dt);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1);
    got &= mask;
    if (kind_of(out_dt) != Kind::Float) {
        if (got == (e.bits & mask)) return true;
        if (why) *why = "bits differ";
        return false;
    }
    if (!e.any_nan && got == e.bits) return true; // identical bits (also a copied NaN)
    const bool got_nan = std::isnan(float_value(out_dt, got));
    if (e.any_nan) {
        if (got_nan) return true;
        if (why) *why = "expected NaN";
        return false;
    }
    if (got_nan) {
        if (why) *why = "unexpected NaN";
        return false;
    }
    if (e.ulp == 0) {
        if (got == e.bits) return true;
        if (why) *why = "bits differ (exact result required, incl. sign of zero)";
        return false;
    }
    i128 d = ordered(got, w) - ordered(e.bits, w);
    if (d < 0) d = -d;
    if (d <= e.ulp) return true;
    if (why) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "more than %d ulp apart (%lld ulp)", e.ulp,
                      d > 1000000000 ? 1000000000LL : static_cast<long long>(d));
        *why = buf;
    }
    return false;
}

std::string format_bits(bcast_dtype dt, uint64_t bits) {
    char buf[128];
    const int w = bit_width(dt);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1);
    bits &= mask;
    switch (kind_of(dt)) {
    case Kind::Float:
        std::snprintf(buf, sizeof buf, "0x%0*llx (%.17g)", w / 4, static_cast<unsigned long long>(bits),
                      float_value(dt, bits));
        break;
    case Kind::Signed:
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(int_value(dt, bits)));
        break;
    default:
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(bits));
        break;
    }
    return buf;
}

} // namespace bref
