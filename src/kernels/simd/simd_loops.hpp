// The SIMD loop templates, written once over an ISA policy (see
// simd_codec.hpp) and instantiated by each ISA's translation unit: vv, vs,
// sv, periodic_y / periodic_x, their 2-D (rows) forms, copy and fill.
//
// Every loop runs whole steps of kStep elements:
//  - n < kStep: through a zero-padded stack buffer (a masked tail without
//    masks, which xsimd 8.1 lacks);
//  - otherwise full steps, 4 per iteration, and the last, partial step as an
//    overlapping full step ending at n.
// In place (out == an input) is exact: the overlapping steps are computed
// from the inputs before anything is stored, and stored last; where they
// overlap what the body stored they store the same values.
// Large outputs use non-temporal stores on the aligned middle (see
// stream_threshold.hpp), then one fence.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/stream_threshold.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

// Op bound to the codec of its input dtype. A comparison's batch_bool goes
// out through BoolOutCodec (BOOL bytes), anything else through the codec.
template <class Isa, class Op, class Codec>
struct Bound {
    using InCodec = Codec;
    using In = typename Codec::Storage;
    using V = typename Codec::Value;
    static constexpr std::size_t kStep = Codec::kStep;
    using R = decltype(Codec::template apply<Op>(std::declval<V>(), std::declval<V>()));
    static constexpr bool kBoolResult = !std::is_same_v<R, V>;
    using OutCodec = std::conditional_t<kBoolResult, BoolOutCodec<Isa, Codec>, Codec>;
    using Out = typename OutCodec::Storage;
    static constexpr bool kCanStream = !kBoolResult;

    static R apply(V x, V y) { return Codec::template apply<Op>(x, y); }
    template <bool NT>
    static void store(Out* p, R r) { OutCodec::template store<NT>(p, r); }
    static void fence() { Isa::fence(); }
};

// COPY: elements moved as unsigned integers of their size.
template <class Isa, class Codec>
struct Moved {
    using InCodec = Codec;
    using In = typename Codec::Storage;
    using V = typename Codec::Value;
    using R = V;
    using Out = In;
    static constexpr std::size_t kStep = Codec::kStep;
    static constexpr bool kCanStream = true;
    template <bool NT>
    static void store(Out* p, R r) { Codec::template store<NT>(p, r); }
    static void fence() { Isa::fence(); }
};

// ------------------------------------------------------------ partial steps

// The first `count` (< kStep) elements at p, zero-padded to a full step.
template <class Codec>
typename Codec::Value load_part(const typename Codec::Storage* p, std::size_t count) {
    typename Codec::Storage buf[Codec::kStep] = {};
    std::memcpy(buf, p, count * sizeof(typename Codec::Storage));
    return Codec::load(buf);
}

template <class E>
void store_part(typename E::Out* p, std::size_t count, typename E::R r) {
    typename E::Out buf[E::kStep];
    E::template store<false>(buf, r);
    std::memcpy(p, buf, count * sizeof(typename E::Out));
}

// *p in every lane (through the codec, so f16/bf16 convert exactly as loads).
template <class Codec>
typename Codec::Value splat(const typename Codec::Storage* p) {
    typename Codec::Storage buf[Codec::kStep];
    for (auto& b : buf) b = *p;
    return Codec::load(buf);
}

// ----------------------------------------------------------- step sources
// A source computes the result step at element i: at(i) in the body (calls
// in increasing i, one step apart, after seek(begin)), at_any(i) anywhere,
// part(count) for a lone partial step at 0.

template <class E>
struct VvSource {
    using C = typename E::InCodec;
    const typename E::In* x;
    const typename E::In* y;
    void seek(std::size_t) {}
    typename E::R at(std::size_t i) { return E::apply(C::load(x + i), C::load(y + i)); }
    typename E::R at_any(std::size_t i) { return at(i); }
    typename E::R part(std::size_t count) {
        return E::apply(load_part<C>(x, count), load_part<C>(y, count));
    }
};

template <class E>
struct VsSource {
    using C = typename E::InCodec;
    const typename E::In* x;
    typename E::V s;
    void seek(std::size_t) {}
    typename E::R at(std::size_t i) { return E::apply(C::load(x + i), s); }
    typename E::R at_any(std::size_t i) { return at(i); }
    typename E::R part(std::size_t count) { return E::apply(load_part<C>(x, count), s); }
};

template <class E>
struct SvSource {
    using C = typename E::InCodec;
    typename E::V s;
    const typename E::In* y;
    void seek(std::size_t) {}
    typename E::R at(std::size_t i) { return E::apply(s, C::load(y + i)); }
    typename E::R at_any(std::size_t i) { return at(i); }
    typename E::R part(std::size_t count) { return E::apply(s, load_part<C>(y, count)); }
};

// Periods up to this length run from a pattern buffer; longer ones (never
// planned: plan::kMaxPeriod is 16) run one period at a time.
constexpr std::size_t kMaxPatternPeriod = 16;

constexpr std::size_t gcd(std::size_t a, std::size_t b) {
    while (b != 0) {
        const std::size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

// The short operand repeated to len = lcm(period, kStep) elements, plus one
// more step so that a full step can start at any offset below len. Every
// step is then full width; the steps' pattern offsets cycle through len.
template <class E>
struct Pattern {
    typename E::In buf[(kMaxPatternPeriod + 1) * E::kStep];
    std::size_t len;

    Pattern(const typename E::In* p, std::size_t period)
        : len(period / gcd(period, E::kStep) * E::kStep) {
        std::size_t k = 0;
        for (std::size_t j = 0; j < len + E::kStep; ++j) {
            buf[j] = p[k];
            if (++k == period) k = 0;
        }
    }
};

// out[i] = full[i] op pattern[i % period] (PatternIsX: pattern op full).
template <class E, bool PatternIsX>
struct PeriodicSource {
    using C = typename E::InCodec;
    const typename E::In* full;
    const Pattern<E>* pattern;
    std::size_t offset = 0;

    typename E::R combine(typename E::V f, typename E::V p) {
        if constexpr (PatternIsX) return E::apply(p, f);
        else return E::apply(f, p);
    }
    void seek(std::size_t i) { offset = i % pattern->len; }
    typename E::R at(std::size_t i) {
        const typename E::V p = C::load(pattern->buf + offset);
        offset += E::kStep;
        if (offset >= pattern->len) offset -= pattern->len;
        return combine(C::load(full + i), p);
    }
    typename E::R at_any(std::size_t i) {
        return combine(C::load(full + i), C::load(pattern->buf + i % pattern->len));
    }
    typename E::R part(std::size_t count) {
        return combine(load_part<C>(full, count), C::load(pattern->buf));
    }
};

template <class E>
struct CopySource {
    using C = typename E::InCodec;
    const typename E::In* x;
    void seek(std::size_t) {}
    typename E::R at(std::size_t i) { return C::load(x + i); }
    typename E::R at_any(std::size_t i) { return at(i); }
    typename E::R part(std::size_t count) { return load_part<C>(x, count); }
};

template <class E>
struct FillSource {
    typename E::V s;
    void seek(std::size_t) {}
    typename E::R at(std::size_t) { return s; }
    typename E::R at_any(std::size_t) { return s; }
    typename E::R part(std::size_t) { return s; }
};

// ------------------------------------------------------------------ drivers

// Full steps over [begin, end), 4 per iteration.
template <class E, bool NT, class Source>
inline void body(std::size_t begin, std::size_t end, typename E::Out* out, Source& src) {
    constexpr std::size_t S = E::kStep;
    src.seek(begin);
    std::size_t i = begin;
    for (; i + 4 * S <= end; i += 4 * S) {
        const auto r0 = src.at(i);
        const auto r1 = src.at(i + S);
        const auto r2 = src.at(i + 2 * S);
        const auto r3 = src.at(i + 3 * S);
        E::template store<NT>(out + i, r0);
        E::template store<NT>(out + i + S, r1);
        E::template store<NT>(out + i + 2 * S, r2);
        E::template store<NT>(out + i + 3 * S, r3);
    }
    for (; i < end; i += S) E::template store<NT>(out + i, src.at(i));
}

// Streaming stores need aligned addresses: the unaligned first and last
// steps are ordinary (overlapping) stores, computed before the body.
template <class E, class Source>
inline bool drive_streaming(std::size_t n, typename E::Out* out, Source& src) {
    constexpr std::size_t S = E::kStep;
    constexpr std::size_t kBytes = S * sizeof(typename E::Out);
    const auto addr = reinterpret_cast<std::uintptr_t>(out);
    if (addr % sizeof(typename E::Out) != 0) return false;
    const std::size_t head = (kBytes - addr % kBytes) % kBytes / sizeof(typename E::Out);
    const std::size_t end = head + (n - head) / S * S;
    // Ordinary stores into a line that streaming stores also write force a
    // write-combining flush: measured 20x slower on short unaligned rows
    // (one 256-byte row per call). Mix them only where a run is long enough
    // to hide two such lines.
    constexpr std::size_t kMixedRunMinBytes = 64 * 1024;
    if ((head != 0 || end != n) && n * sizeof(typename E::Out) < kMixedRunMinBytes) return false;
    const auto first = src.at_any(0);
    const auto last = src.at_any(n - S);
    body<E, true>(head, end, out, src);
    if (head != 0) E::template store<false>(out, first);
    if (end != n) E::template store<false>(out + (n - S), last);
    return true;
}

// One contiguous run of n output elements. nt: stream (the caller fences).
template <class E, class Source>
inline void drive(std::size_t n, typename E::Out* out, Source& src, bool nt) {
    constexpr std::size_t S = E::kStep;
    if (n < S) {
        if (n != 0) store_part<E>(out, n, src.part(n));
        return;
    }
    if constexpr (E::kCanStream) {
        if (nt && drive_streaming<E>(n, out, src)) return;
    }
    const std::size_t full = n - n % S;
    if (full == n) {
        body<E, false>(0, n, out, src);
        return;
    }
    const auto last = src.at_any(n - S);  // before any store: out may be an input
    body<E, false>(0, full, out, src);
    E::template store<false>(out + (n - S), last);
}

// Whether a call over `elements` output elements, reading `streams`
// full-length inputs, moves enough bytes to stream (stream_threshold.hpp).
template <class E>
bool use_streaming(std::size_t elements, std::size_t streams) {
    if constexpr (!E::kCanStream) {
        return false;
    } else {
        const std::size_t per_element =
            streams * sizeof(typename E::In) + sizeof(typename E::Out);
        return elements * per_element >= stream_threshold_bytes();
    }
}

// One contiguous run, streamed when large.
template <class E, class Source>
inline void run(std::size_t n, std::size_t streams, void* out, Source& src) {
    const bool nt = use_streaming<E>(n, streams);
    drive<E>(n, static_cast<typename E::Out*>(out), src, nt);
    if (nt) E::fence();
}

// ----------------------------------------------------------- kernel entries

template <class T>
const T* in_ptr(const void* p) {
    return static_cast<const T*>(p);
}

template <class E>
void vv(std::size_t n, const void* x, const void* y, void* out) {
    VvSource<E> src{in_ptr<typename E::In>(x), in_ptr<typename E::In>(y)};
    run<E>(n, 2, out, src);
}

template <class E>
void vs(std::size_t n, const void* x, const void* y, void* out) {
    if (n == 0) return;  // y may be NULL for an empty output
    VsSource<E> src{in_ptr<typename E::In>(x), splat<typename E::InCodec>(in_ptr<typename E::In>(y))};
    run<E>(n, 1, out, src);
}

template <class E>
void sv(std::size_t n, const void* x, const void* y, void* out) {
    if (n == 0) return;
    SvSource<E> src{splat<typename E::InCodec>(in_ptr<typename E::In>(x)), in_ptr<typename E::In>(y)};
    run<E>(n, 1, out, src);
}

// out[i] = x[i] op y[i % period] (PatternIsX: x[i % period] op y[i]).
template <class E, bool PatternIsX>
void periodic(std::size_t n, std::size_t period, const void* x, const void* y, void* out) {
    if (n == 0 || period == 0) return;
    const auto* full = in_ptr<typename E::In>(PatternIsX ? y : x);
    const auto* pat = in_ptr<typename E::In>(PatternIsX ? x : y);
    auto* o = static_cast<typename E::Out*>(out);
    if (period > kMaxPatternPeriod) {
        const bool nt = use_streaming<E>(n, 1);
        for (std::size_t start = 0; start < n; start += period) {
            const std::size_t len = n - start < period ? n - start : period;
            VvSource<E> src{PatternIsX ? pat : full + start, PatternIsX ? full + start : pat};
            drive<E>(len, o + start, src, nt);
        }
        if (nt) E::fence();
        return;
    }
    const Pattern<E> pattern(pat, period);
    PeriodicSource<E, PatternIsX> src{full, &pattern};
    run<E>(n, 1, out, src);
}

template <class T>
T* row(T* base, std::size_t r, std::ptrdiff_t stride) {
    return base + static_cast<std::ptrdiff_t>(r) * stride;
}

enum RowKind { kRowsVv = 0, kRowsVs = 1, kRowsSv = 2 };

// rows x n, the operands' inner strides fixed by the kind (vv: 1, 1; vs:
// 1, 0; sv: 0, 1); one streaming decision and one fence for the whole call.
template <class E, int Kind>
void rows2d(std::size_t rows, std::size_t n, const void* x, std::ptrdiff_t x_row, const void* y,
            std::ptrdiff_t y_row, void* out, std::ptrdiff_t out_row) {
    using In = typename E::In;
    using C = typename E::InCodec;
    if (rows == 0 || n == 0) return;
    const bool nt = use_streaming<E>(rows * n, Kind == kRowsVv ? 2 : 1);
    for (std::size_t r = 0; r < rows; ++r) {
        const In* xr = row(in_ptr<In>(x), r, x_row);
        const In* yr = row(in_ptr<In>(y), r, y_row);
        auto* o = row(static_cast<typename E::Out*>(out), r, out_row);
        if constexpr (Kind == kRowsVv) {
            VvSource<E> src{xr, yr};
            drive<E>(n, o, src, nt);
        } else if constexpr (Kind == kRowsVs) {
            VsSource<E> src{xr, splat<C>(yr)};
            drive<E>(n, o, src, nt);
        } else {
            SvSource<E> src{splat<C>(xr), yr};
            drive<E>(n, o, src, nt);
        }
    }
    if (nt) E::fence();
}

template <class E>
void copy(std::size_t n, const void* x, void* out) {
    if (n == 0 || out == x) return;  // in place: nothing to move
    CopySource<E> src{in_ptr<typename E::In>(x)};
    run<E>(n, 1, out, src);
}

template <class E>
void fill(std::size_t n, const void* x, void* out) {
    if (n == 0) return;
    FillSource<E> src{splat<typename E::InCodec>(in_ptr<typename E::In>(x))};
    run<E>(n, 0, out, src);
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
