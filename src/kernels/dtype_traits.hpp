// Per-dtype storage and compute types, and the conversions between them. A
// kernel loads each element into Compute, runs the op there and stores back:
// f16/bf16 compute in float and round to nearest even on store; BOOL computes
// as bool so that any non-zero byte reads as true.
#pragma once

#include "kernels/half.hpp"
#include "kernels/isa_namespace.hpp"

#include <bcast/bcast.h>

#include <cstdint>

namespace bcast::kernels::BCAST_KERNEL_ISA {

// Storage == compute: the conversions are the identity.
template <class T>
struct PlainDtype {
    using Storage = T;
    using Compute = T;
    static Compute load(Storage v) { return v; }
    static Storage store(Compute v) { return v; }
};

template <bcast_dtype DT>
struct DtypeTypes;

// Dtype<DT>: Storage, Compute, load, store, and kId (DT itself).
template <bcast_dtype DT>
struct Dtype : DtypeTypes<DT> {
    static constexpr bcast_dtype kId = DT;
};

template <> struct DtypeTypes<BCAST_DTYPE_F32> : PlainDtype<float> {};
template <> struct DtypeTypes<BCAST_DTYPE_F64> : PlainDtype<double> {};
template <> struct DtypeTypes<BCAST_DTYPE_I8> : PlainDtype<std::int8_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_U8> : PlainDtype<std::uint8_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_I16> : PlainDtype<std::int16_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_U16> : PlainDtype<std::uint16_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_I32> : PlainDtype<std::int32_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_U32> : PlainDtype<std::uint32_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_I64> : PlainDtype<std::int64_t> {};
template <> struct DtypeTypes<BCAST_DTYPE_U64> : PlainDtype<std::uint64_t> {};

template <>
struct DtypeTypes<BCAST_DTYPE_F16> {
    using Storage = std::uint16_t;
    using Compute = float;
    static Compute load(Storage v) { return f16_to_f32(v); }
    static Storage store(Compute v) { return f32_to_f16(v); }
};

template <>
struct DtypeTypes<BCAST_DTYPE_BF16> {
    using Storage = std::uint16_t;
    using Compute = float;
    static Compute load(Storage v) { return bf16_to_f32(v); }
    static Storage store(Compute v) { return f32_to_bf16(v); }
};

template <>
struct DtypeTypes<BCAST_DTYPE_BOOL> {
    using Storage = std::uint8_t;
    using Compute = bool;
    static Compute load(Storage v) { return v != 0; }
    static Storage store(Compute v) { return static_cast<Storage>(v ? 1 : 0); }
};

// Calls f(Dtype<dt>{}) with the dtype known at compile time; `fallback` for an
// unknown dtype. Lets one generic lambda stand for a 13-way switch.
template <class R, class F>
R visit_dtype(bcast_dtype dt, R fallback, F&& f) {
    switch (dt) {
        case BCAST_DTYPE_F32: return f(Dtype<BCAST_DTYPE_F32>{});
        case BCAST_DTYPE_F64: return f(Dtype<BCAST_DTYPE_F64>{});
        case BCAST_DTYPE_F16: return f(Dtype<BCAST_DTYPE_F16>{});
        case BCAST_DTYPE_BF16: return f(Dtype<BCAST_DTYPE_BF16>{});
        case BCAST_DTYPE_I8: return f(Dtype<BCAST_DTYPE_I8>{});
        case BCAST_DTYPE_U8: return f(Dtype<BCAST_DTYPE_U8>{});
        case BCAST_DTYPE_I16: return f(Dtype<BCAST_DTYPE_I16>{});
        case BCAST_DTYPE_U16: return f(Dtype<BCAST_DTYPE_U16>{});
        case BCAST_DTYPE_I32: return f(Dtype<BCAST_DTYPE_I32>{});
        case BCAST_DTYPE_U32: return f(Dtype<BCAST_DTYPE_U32>{});
        case BCAST_DTYPE_I64: return f(Dtype<BCAST_DTYPE_I64>{});
        case BCAST_DTYPE_U64: return f(Dtype<BCAST_DTYPE_U64>{});
        case BCAST_DTYPE_BOOL: return f(Dtype<BCAST_DTYPE_BOOL>{});
        default: return fallback;
    }
}

}  // namespace bcast::kernels::BCAST_KERNEL_ISA
