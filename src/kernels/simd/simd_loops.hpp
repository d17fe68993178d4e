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
// Ops the plan marks as streaming (kernel_table.hpp) use non-temporal stores
// on the aligned middle, then one fence per call.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/prefetch_hint.hpp"
#include "kernels/simd/simd_codec.hpp"
#include "kernels/simd/tuning.hpp"

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
    using Arch = typename Isa::arch;
    static constexpr bool kBoolResult = !std::is_same_v<R, V>;
    using OutCodec = std::conditional_t<kBoolResult, BoolOutCodec<Isa, Codec>, Codec>;
    using Out = typename OutCodec::Storage;
    static constexpr bool kCanStream = !kBoolResult;
    static constexpr std::size_t kVectorBytes = sizeof(Batch<std::uint8_t, typename Isa::arch>);

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
    return Codec::splat(p);
}

// ----------------------------------------------------------- step sources
// A source computes the result step at element i: at(i) in the body (calls
// in increasing i, one step apart, after seek(begin)), at_any(i) anywhere,
// part(count) for a lone partial step at 0.

// Software prefetch of the 64-byte lines pf.distance bytes past in + i, for
// one body iteration of `span` elements, with pf.hint (prefetch_hint.hpp).
// Address arithmetic in integers: the last lines may lie past the array,
// which a prefetch may touch (it never faults) but pointer arithmetic may
// not.
template <std::size_t span, class In>
inline void prefetch_ahead(const In* in, std::size_t i, const Prefetch& pf) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(in) + i * sizeof(In) + pf.distance;
    for (std::size_t line = 0; line < span * sizeof(In); line += 64) {
        const auto* p = reinterpret_cast<const void*>(at + line);
        // The locality must be a constant: one branch per hint.
        switch (pf.hint) {
            case PrefetchHint::nta: __builtin_prefetch(p, 0, 0); break;
            case PrefetchHint::t2: __builtin_prefetch(p, 0, 1); break;
            case PrefetchHint::t1: __builtin_prefetch(p, 0, 2); break;
            case PrefetchHint::t0: __builtin_prefetch(p, 0, 3); break;
            case PrefetchHint::none: break;
        }
    }
}

// A source with a prefetch<span>(i) member is asked, in streamed body
// iterations only, to prefetch for the iteration at i. Only the repeated-row
// sources have one (contiguous streams gain nothing from it:
// docs/kernels.md).
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

// A period runs from a pattern buffer when it is short (the plan's periodic
// kernels) or is a row repeated along the rows of a 2-D call; longer ones
// run one period at a time.
using tuning::kMaxRepeatedRowBytes;
using tuning::kMaxShortPeriod;
using tuning::kPatternBytes;

constexpr std::size_t gcd(std::size_t a, std::size_t b) {
    while (b != 0) {
        const std::size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

template <class E>
constexpr bool fits_pattern(std::size_t period) {
    return period <= kMaxShortPeriod || period * sizeof(typename E::In) <= kMaxRepeatedRowBytes;
}

// The short operand repeated over `filled` elements: len plus two steps, so
// a full step can start at any offset below len + kStep, plus up to
// kPatternSpareSteps more (a short run fills no more than it can use). len
// is a multiple of the period and of at least one step: lcm(period, kStep)
// for short periods (every step's pattern then starts at one of a few
// offsets), the period times the fewest repeats that cover a step for rows.
// Each step's pattern is one full-width load; the offsets advance with i and
// are rewound by a multiple of len now and then.
template <class E>
struct Pattern {
    using In = typename E::In;
    static constexpr std::size_t S = E::kStep;
    static constexpr std::size_t kSpare = tuning::kPatternSpareSteps * S;
    static constexpr std::size_t kCapacity = kPatternBytes / sizeof(In);
    static_assert(S * sizeof(In) <= 64, "kPatternBytes counts steps of at most 64 bytes");
    static_assert(kMaxShortPeriod * S + 2 * S + kSpare <= kCapacity, "short periods fit");
    static_assert(kMaxRepeatedRowBytes / sizeof(In) + 2 * S + kSpare <= kCapacity, "rows fit");
    alignas(64) In buf[kCapacity];
    std::size_t len;
    std::size_t filled;
    std::size_t rewind;  // a multiple of len, >= kStep and <= filled - kStep

    static constexpr std::size_t length(std::size_t period) {
        if (period <= kMaxShortPeriod) return period / gcd(period, S) * S;
        return period * ((S + period - 1) / period);
    }
    // n: the run's length. period: fits_pattern<E>(period).
    Pattern(const In* p, std::size_t period, std::size_t n)
        : len(length(period)),
          filled(len + 2 * S + (n < kSpare ? n : kSpare)),
          rewind(len * ((filled - S) / len)) {
        // One period, then the filled part doubled until it is full.
        std::memcpy(buf, p, period * sizeof(In));
        for (std::size_t have = period; have < filled; have *= 2) {
            const std::size_t more = filled - have < have ? filled - have : have;
            std::memcpy(buf + have, buf, more * sizeof(In));
        }
    }
};

// out[i] = full[i] op pattern[i % period] (PatternIsX: pattern op full).
template <class E, bool PatternIsX>
struct PeriodicSource {
    using C = typename E::InCodec;
    const typename E::In* full;
    const Pattern<E>* pattern;
    // Step i's pattern starts at base_offset + (i - base_i): computed from i
    // alone, so the unrolled steps do not wait on one another.
    std::size_t base_i = 0, base_offset = 0;

    typename E::R combine(typename E::V f, typename E::V p) {
        if constexpr (PatternIsX) return E::apply(p, f);
        else return E::apply(f, p);
    }
    void seek(std::size_t i) {
        base_i = i;
        base_offset = i % pattern->len;
    }
    typename E::R at(std::size_t i) {
        std::size_t offset = base_offset + (i - base_i);
        if (offset + E::kStep > pattern->filled) {  // steps come in order: in
            offset -= pattern->rewind;               // (filled - kStep, filled]
            base_i = i;
            base_offset = offset;
        }
        return combine(C::load(full + i), C::load(pattern->buf + offset));
    }
    typename E::R at_any(std::size_t i) {
        return combine(C::load(full + i), C::load(pattern->buf + i % pattern->len));
    }
    typename E::R part(std::size_t count) {
        return combine(load_part<C>(full, count), C::load(pattern->buf));
    }
};

// A periodic source over rows that one operand repeats (a pattern of up to
// kMaxRepeatedRowBytes): streamed, it prefetches the running operand as
// RepeatedRowSource does.
template <class E, bool PatternIsX>
struct RepeatedRowPeriodicSource : PeriodicSource<E, PatternIsX> {
    Prefetch pf;  // repeated_row_prefetch(), once per call

    template <std::size_t span>
    void prefetch(std::size_t i) const {
        prefetch_ahead<span>(this->full, i, pf);
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

// Whether a source prefetches (see VvSource).
template <class Source, std::size_t span, class = void>
inline constexpr bool kPrefetches = false;
template <class Source, std::size_t span>
inline constexpr bool kPrefetches<
    Source, span, std::void_t<decltype(std::declval<const Source&>().template prefetch<span>(0))>> =
    true;

// Full steps over [begin, end), 4 per iteration; streamed runs ask the
// source to prefetch. On a local copy of the source: a stateful source's
// members could otherwise be re-read after every store to out, which the
// compiler must assume may alias them (2x on RowScalarsSource's splats).
template <class E, bool NT, class Source>
inline void body(std::size_t begin, std::size_t end, typename E::Out* out, const Source& shared) {
    constexpr std::size_t S = E::kStep;
    Source src = shared;
    src.seek(begin);
    std::size_t i = begin;
    for (; i + 4 * S <= end; i += 4 * S) {
        if constexpr (NT && kPrefetches<Source, 4 * S>) src.template prefetch<4 * S>(i);
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

// Elements from out to the next step-aligned address (kStep * sizeof(Out)
// bytes, what a streaming store needs) into `head`; false when out is not
// even aligned to its element size, so that no step of it can be aligned.
template <class E>
bool elements_to_aligned_step(const typename E::Out* out, std::size_t& head) {
    constexpr std::size_t kBytes = E::kStep * sizeof(typename E::Out);
    const auto addr = reinterpret_cast<std::uintptr_t>(out);
    if (addr % sizeof(typename E::Out) != 0) return false;
    head = (kBytes - addr % kBytes) % kBytes / sizeof(typename E::Out);
    return true;
}

// The body at aligned addresses: the unaligned first and last steps are
// ordinary (overlapping) stores, computed before the body. Streaming stores
// need the alignment; cached ones gain from it too, since an unaligned full
// vector splits loads and stores in two lines, and the inputs of a
// same-layout op (numpy's 16-byte aligned arrays) are then aligned as well.
// Returns false (nothing written) where it does not apply.
// Not inlined: it serves long runs only, and keeping it out of drive keeps
// drive small enough to inline into the per-row loops of short rows.
template <class E, bool NT, class Source>
[[gnu::noinline]] bool drive_aligned(std::size_t n, typename E::Out* out, Source& src) {
    constexpr std::size_t S = E::kStep;
    std::size_t head = 0;
    if (!elements_to_aligned_step<E>(out, head)) return false;
    if (n < head + S || (!NT && head == 0)) return false;  // cached + aligned: plain body
    const std::size_t end = head + (n - head) / S * S;
    if constexpr (NT) {
        // Ordinary stores into a line that streaming stores also write force
        // a write-combining flush (tuning.hpp).
        if ((head != 0 || end != n) &&
            n * sizeof(typename E::Out) < tuning::kMixedRunMinBytes) {
            return false;
        }
    }
    const auto first = src.at_any(0);
    const auto last = src.at_any(n - S);
    body<E, NT>(head, end, out, src);
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
        if (nt && drive_aligned<E, true>(n, out, src)) return;
    }
    // Cached runs realign only when long (tuning.hpp).
    if (n >= tuning::kRealignMinSteps * S && drive_aligned<E, false>(n, out, src)) return;
    const std::size_t full = n - n % S;
    if (full == n) {
        body<E, false>(0, n, out, src);
        return;
    }
    const auto last = src.at_any(n - S);  // before any store: out may be an input
    body<E, false>(0, full, out, src);
    E::template store<false>(out + (n - S), last);
}

// Whether E's stores may be non-temporal, and the fence that ends a call
// that streamed, unless the caller fences (kernel_table.hpp: Stores).
template <class E>
bool streams(Stores stores) {
    return E::kCanStream && stores.stream;
}
template <class E>
void end_streaming(Stores stores) {
    if (streams<E>(stores) && stores.fence) E::fence();
}

// One contiguous run, streamed when the op streams (kernel_table.hpp).
template <class E, class Source>
inline void run(std::size_t n, Stores stores, void* out, Source& src) {
    drive<E>(n, static_cast<typename E::Out*>(out), src, streams<E>(stores));
    end_streaming<E>(stores);
}

// ----------------------------------------------------------- kernel entries

template <class T>
const T* in_ptr(const void* p) {
    return static_cast<const T*>(p);
}

template <class E>
void vv(std::size_t n, const void* x, const void* y, void* out, Stores stores) {
    VvSource<E> src{in_ptr<typename E::In>(x), in_ptr<typename E::In>(y)};
    run<E>(n, stores, out, src);
}

template <class E>
void vs(std::size_t n, const void* x, const void* y, void* out, Stores stores) {
    if (n == 0) return;  // y may be NULL for an empty output
    VsSource<E> src{in_ptr<typename E::In>(x), splat<typename E::InCodec>(in_ptr<typename E::In>(y))};
    run<E>(n, stores, out, src);
}

template <class E>
void sv(std::size_t n, const void* x, const void* y, void* out, Stores stores) {
    if (n == 0) return;
    SvSource<E> src{splat<typename E::InCodec>(in_ptr<typename E::In>(x)), in_ptr<typename E::In>(y)};
    run<E>(n, stores, out, src);
}

// out[i] = x[i] op y[i % period] (PatternIsX: x[i % period] op y[i]).
// row_pattern: the period is a row that the 2-D walker repeats, whose
// running operand a streamed run prefetches (RepeatedRowPeriodicSource).
// Only that streamed, aligned body differs, so only it is built twice.
template <class E, bool PatternIsX>
void periodic_run(std::size_t n, std::size_t period, const void* x, const void* y, void* out,
                  Stores stores, bool row_pattern) {
    if (n == 0 || period == 0) return;
    const auto* full = in_ptr<typename E::In>(PatternIsX ? y : x);
    const auto* pat = in_ptr<typename E::In>(PatternIsX ? x : y);
    auto* o = static_cast<typename E::Out*>(out);
    if (!fits_pattern<E>(period)) {
        const bool nt = streams<E>(stores);
        for (std::size_t start = 0; start < n; start += period) {
            const std::size_t len = n - start < period ? n - start : period;
            VvSource<E> src{PatternIsX ? pat : full + start, PatternIsX ? full + start : pat};
            drive<E>(len, o + start, src, nt);
        }
        end_streaming<E>(stores);
        return;
    }
    const Pattern<E> pattern(pat, period, n);
    if constexpr (E::kCanStream) {
        if (row_pattern && streams<E>(stores)) {
            RepeatedRowPeriodicSource<E, PatternIsX> src{{full, &pattern}, repeated_row_prefetch()};
            if (drive_aligned<E, true>(n, o, src)) {
                end_streaming<E>(stores);
                return;
            }
        }
    }
    PeriodicSource<E, PatternIsX> src{full, &pattern};
    run<E>(n, stores, out, src);
}

template <class E, bool PatternIsX>
void periodic(std::size_t n, std::size_t period, const void* x, const void* y, void* out,
              Stores stores) {
    periodic_run<E, PatternIsX>(n, period, x, y, out, stores, false);
}

template <class T>
T* row(T* base, std::size_t r, std::ptrdiff_t stride) {
    return base + static_cast<std::ptrdiff_t>(r) * stride;
}

enum RowKind { kRowsVv = 0, kRowsVs = 1, kRowsSv = 2 };

// The step source of one row of a 2-D call.
template <class E, int Kind>
struct RowSource {
    using In = typename E::In;
    using C = typename E::InCodec;
    using type = std::conditional_t<Kind == kRowsVv, VvSource<E>,
                                    std::conditional_t<Kind == kRowsVs, VsSource<E>, SvSource<E>>>;
    static type make(const In* xr, const In* yr) {
        if constexpr (Kind == kRowsVv) return type{xr, yr};
        else if constexpr (Kind == kRowsVs) return type{xr, splat<C>(yr)};
        else return type{splat<C>(xr), yr};
    }
};

// vs (sv) rows whose x (y) and output both have row stride n >= kStep, run
// as one contiguous run of rows * n elements: a step covers at most two
// rows, and its scalar operand is a blend of those rows' scalars. On short
// rows this replaces per-row runs and their overlapping last step per row;
// with no per-row edge steps, a long run can realign as a whole.
template <class E, int Kind>
struct RowScalarsSource {
    static_assert(Kind == kRowsVs || Kind == kRowsSv, "one operand is a scalar per row");
    using C = typename E::InCodec;
    using In = typename E::In;
    using V = typename E::V;
    static constexpr std::size_t S = E::kStep;
    const In* full;     // row r at full + r * n
    const In* scalars;  // row r's scalar at scalars + r * scalar_row
    std::ptrdiff_t scalar_row;
    std::size_t n, rows;
    // For at(): the row of the next step and where in the row it starts,
    // and the splats of that row's scalar and of the next row's.
    std::size_t r = 0, pos = 0;
    V cur{}, next{};

    V splat_row(std::size_t row_index) const {
        const std::size_t last = rows - 1;
        return C::splat(row(scalars, row_index < last ? row_index : last, scalar_row));
    }
    // The scalar operand of the step starting at position pos of row r.
    static V blended(std::size_t pos, std::size_t n, V a, V b) {
        const std::size_t k = n - pos;  // lanes still in row r
        return C::first_lanes(k < S ? k : S, a, b);
    }
    typename E::R combine(typename E::V f, V s) {
        if constexpr (Kind == kRowsVs) return E::apply(f, s);
        else return E::apply(s, f);
    }
    void seek(std::size_t i) {
        r = i / n;
        pos = i % n;
        cur = splat_row(r);
        next = splat_row(r + 1);
    }
    typename E::R at(std::size_t i) {
        const auto result = combine(C::load(full + i), blended(pos, n, cur, next));
        pos += S;
        if (pos >= n) {  // steps come in order, one step apart; n >= S
            pos -= n;
            ++r;
            cur = next;
            next = splat_row(r + 1);
        }
        return result;
    }
    typename E::R at_any(std::size_t i) {
        const std::size_t ri = i / n;
        return combine(C::load(full + i), blended(i % n, n, splat_row(ri), splat_row(ri + 1)));
    }
    typename E::R part(std::size_t) { return at_any(0); }  // never: rows * n >= kStep
};

// The RowScalarsSource of vs (sv) rows: x (y) is the full operand.
template <class E, int Kind>
RowScalarsSource<E, Kind> row_scalars(std::size_t rows, std::size_t n, const typename E::In* x,
                                      std::ptrdiff_t x_row, const typename E::In* y,
                                      std::ptrdiff_t y_row) {
    if constexpr (Kind == kRowsVs) return {x, y, y_row, n, rows};
    else return {y, x, x_row, n, rows};
}

// The step of a contiguous 2-D output that holds the last k elements of row
// r and the first S - k of row r + 1 (x0/y0, x1/y1: the two rows), its
// inputs gathered lane by lane so that it is computed exactly as the rows'
// own steps are.
template <class E, int Kind>
typename E::R straddling_step(const typename E::In* x0, const typename E::In* y0,
                              const typename E::In* x1, const typename E::In* y1, std::size_t n,
                              std::size_t k) {
    using In = typename E::In;
    using C = typename E::InCodec;
    constexpr std::size_t S = E::kStep;
    In xb[S], yb[S];
    for (std::size_t j = 0; j < S; ++j) {
        const bool first = j < k;
        const std::size_t at = first ? n - k + j : j - k;  // index within its row
        const In* xr = first ? x0 : x1;
        const In* yr = first ? y0 : y1;
        xb[j] = Kind == kRowsSv ? xr[0] : xr[at];
        yb[j] = Kind == kRowsVs ? yr[0] : yr[at];
    }
    return E::apply(C::load(xb), C::load(yb));
}

// A vv row of a streamed 2-D call where one operand runs on into the next
// rows (row stride n) and the other repeats one row (row stride 0), too long
// for one periodic run: (4096,4096)+(4096) f32. The streamed operand is
// prefetched ahead, on past the row's end (the next row's lines are the
// next read): its loads, one per op, leave too few misses in flight to keep
// memory busy (tuning/builtin_tuning.cpp).
template <class E>
struct RepeatedRowSource : VvSource<E> {
    const typename E::In* streamed;  // x or y of this row
    Prefetch pf;             // repeated_row_prefetch(), once per call

    template <std::size_t span>
    void prefetch(std::size_t i) const {
        prefetch_ahead<span>(streamed, i, pf);
    }
};

// The last `count` lanes of r, stored ending at p (ordinary stores).
template <class E>
void store_last_part(typename E::Out* p, std::size_t count, typename E::R r) {
    typename E::Out buf[E::kStep];
    E::template store<false>(buf, r);
    std::memcpy(p - count, buf + (E::kStep - count), count * sizeof(typename E::Out));
}

// rows x n streamed into a contiguous output (out_row == n, n >= kStep,
// rows > 1) as one run of rows * n elements: every output line but the
// first and last is written by streaming stores only, whatever the rows'
// alignment. Per-row runs could not: an unaligned row boundary puts the end
// of one row and the start of the next in one line, and ordinary stores into
// a line that streaming stores also fill cost a write-combining flush each.
// Returns false (nothing written) when the output is not aligned to its
// element size.
template <class E, int Kind>
bool rows2d_streaming(std::size_t rows, std::size_t n, const typename E::In* x,
                       std::ptrdiff_t x_row, const typename E::In* y, std::ptrdiff_t y_row,
                       typename E::Out* out) {
    constexpr std::size_t S = E::kStep;
    std::size_t head = 0;
    if (!elements_to_aligned_step<E>(out, head)) return false;
    const auto row_n = static_cast<std::ptrdiff_t>(n);
    const bool full_contiguous = Kind == kRowsVs ? x_row == row_n : Kind == kRowsSv && y_row == row_n;
    const std::size_t total = rows * n;
    // Aligned element indices are head + j * S.
    const auto align_down = [&](std::size_t g) { return g < head ? 0 : head + (g - head) / S * S; };
    // Both partial lines at the ends are computed before anything is stored
    // (in place), and stored with ordinary stores into lines no streaming
    // store touches.
    auto first = RowSource<E, Kind>::make(x, y);
    const auto first_step = first.at_any(0);
    auto last = RowSource<E, Kind>::make(row(x, rows - 1, x_row), row(y, rows - 1, y_row));
    const auto last_step = last.at_any(n - S);
    const std::size_t tail_begin = align_down(total);
    // vv with one operand repeated and the other running on: prefetched.
    const bool x_runs_on = x_row == row_n && y_row == 0;
    const bool y_runs_on = y_row == row_n && x_row == 0;
    const Prefetch pf = repeated_row_prefetch();
    std::size_t next = head;  // first element no whole step has covered
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t begin = r * n, end = begin + n;
        const typename E::In* xr = row(x, r, x_row);
        const typename E::In* yr = row(y, r, y_row);
        const std::size_t body_end = align_down(end);  // >= next: n >= S
        if (next < body_end) {
            const std::size_t from = next - begin, to = body_end - begin;
            if (Kind == kRowsVv && (x_runs_on || y_runs_on)) {
                const RepeatedRowSource<E> src{{xr, yr}, x_runs_on ? xr : yr, pf};
                body<E, true>(from, to, out + begin, src);
            } else {
                body<E, true>(from, to, out + begin, RowSource<E, Kind>::make(xr, yr));
            }
        }
        next = body_end;
        if (r + 1 == rows || next == end) continue;
        // The step from next (aligned, inside this row) into the next row:
        // vs/sv over a contiguous operand blended as a RowScalarsSource's
        // steps are, anything else gathered.
        const auto straddle = [&] {
            if constexpr (Kind != kRowsVv) {
                if (full_contiguous) {
                    return row_scalars<E, Kind>(rows, n, x, x_row, y, y_row).at_any(next);
                }
            }
            return straddling_step<E, Kind>(xr, yr, row(x, r + 1, x_row), row(y, r + 1, y_row), n,
                                            end - next);
        };
        E::template store<true>(out + next, straddle());
        next += S;
    }
    if (head != 0) store_part<E>(out, head, first_step);
    if (tail_begin < total) store_last_part<E>(out + total, total - tail_begin, last_step);
    return true;
}

// Cached rows of kStep <= n < kRealignMinSteps steps: drive()'s per-run
// choices (short, streamed, long enough to realign, whole steps) made once
// for all rows; on rows this short they were a third of the instructions
// per row. Each row ends with an overlapping last step, computed before the
// row's stores (in place).
template <class E, int Kind>
void short_rows(std::size_t rows, std::size_t n, const typename E::In* x, std::ptrdiff_t x_row,
                const typename E::In* y, std::ptrdiff_t y_row, typename E::Out* out,
                std::ptrdiff_t out_row) {
    constexpr std::size_t S = E::kStep;
    const std::size_t full = n - n % S;
    for (std::size_t r = 0; r < rows; ++r) {
        auto src = RowSource<E, Kind>::make(row(x, r, x_row), row(y, r, y_row));
        typename E::Out* o = row(out, r, out_row);
        const auto last = src.at_any(n - S);
        body<E, false>(0, full, o, src);
        E::template store<false>(o + (n - S), last);
    }
}

// vs (sv) rows shorter than a step whose full operand and output run on
// from row to row: blocks of whole rows whose scalars are laid out row by
// row in a buffer, then one vv run over the block. A run per row of fewer
// elements than a step costs a partial step each: 3-5x numpy's time for
// 2-15 f32 elements per row on AVX-512 (docs/kernels.md, "Rows shorter
// than a step"). The vv run applies the op to the same lanes as the row's
// own step would.
template <class E, int Kind>
void expanded_rows(std::size_t rows, std::size_t n, const typename E::In* full,
                   const typename E::In* scalars, std::ptrdiff_t scalar_row, typename E::Out* out,
                   bool nt) {
    using In = typename E::In;
    using Lanes = Batch<In, typename E::Arch>;
    static_assert(Lanes::size >= E::kStep, "a row shorter than a step must fit one store");
    constexpr std::size_t kBlock = 1024;
    In expanded[kBlock + Lanes::size];
    const std::size_t per_block = kBlock / n;
    for (std::size_t r = 0; r < rows;) {
        const std::size_t count = std::min(per_block, rows - r);
        // Each row's value over a whole vector from the row's start: the
        // next row's store overwrites the lanes past it.
        for (std::size_t k = 0; k < count; ++k) Lanes(*row(scalars, r + k, scalar_row)).store_unaligned(expanded + k * n);
        const In* f = full + r * n;
        VvSource<E> src = Kind == kRowsVs ? VvSource<E>{f, expanded} : VvSource<E>{expanded, f};
        drive<E>(count * n, out + r * n, src, nt);
        r += count;
    }
}

// rows x n, the operands' inner strides fixed by the kind (vv: 1, 1; vs:
// 1, 0; sv: 0, 1); one fence for the whole call. !LeftForms: vv rows over a
// repeated x take the general path (the plan exchanges the operands of such
// ops instead, simd_table.hpp).
template <class E, int Kind, bool LeftForms = true>
void rows2d(std::size_t rows, std::size_t n, const void* x, std::ptrdiff_t x_row, const void* y,
            std::ptrdiff_t y_row, void* out, std::ptrdiff_t out_row, Stores stores) {
    using In = typename E::In;
    using Out = typename E::Out;
    if (rows == 0 || n == 0) return;
    const bool nt = streams<E>(stores);
    auto* o = static_cast<Out*>(out);
    const auto row_n = static_cast<std::ptrdiff_t>(n);
    const bool one_output_run = rows > 1 && n >= E::kStep && out_row == row_n;
    if constexpr (Kind == kRowsVv) {
        // Rows that continue each other everywhere (a fused plan's blocks of
        // lines over a slot: a single op's planner coalesces them): one run.
        if (x_row == row_n && y_row == row_n && out_row == row_n) {
            VvSource<E> src{in_ptr<In>(x), in_ptr<In>(y)};
            run<E>(rows * n, stores, out, src);
            return;
        }
        // One operand repeats a row that the other and the output run on
        // from (NHWC per-channel: (8,112,112,64)+(64)): one periodic run over
        // all rows, so its stores can be aligned as a whole and no row pays
        // its own edge steps or a kernel call.
        const bool y_repeats = y_row == 0 && x_row == row_n;
        const bool x_repeats = LeftForms && x_row == 0 && y_row == row_n;
        if (rows >= tuning::kMinRepeatedRows && out_row == row_n && (y_repeats || x_repeats) &&
            fits_pattern<E>(n)) {
            if (y_repeats) periodic_run<E, false>(rows * n, n, x, y, out, stores, true);
            else if constexpr (LeftForms) periodic_run<E, true>(rows * n, n, x, y, out, stores, true);
            return;
        }
    }
    if constexpr (Kind != kRowsVv) {
        const std::ptrdiff_t full_row = Kind == kRowsVs ? x_row : y_row;
        if (n < E::kStep && rows > 1 && out_row == row_n && full_row == row_n) {
            if constexpr (Kind == kRowsVs) expanded_rows<E, Kind>(rows, n, in_ptr<In>(x), in_ptr<In>(y), y_row, o, nt);
            else expanded_rows<E, Kind>(rows, n, in_ptr<In>(y), in_ptr<In>(x), x_row, o, nt);
            end_streaming<E>(stores);
            return;
        }
        // Short cached rows as one blended run where vectors are wide
        // (tuning.hpp). Long rows stay per row, and streamed rows go to
        // rows2d_streaming, which streams short calls too.
        constexpr bool wide_vectors = E::kVectorBytes >= tuning::kBlendRowsMinVectorBytes;
        if constexpr (wide_vectors) {  // not even instantiated elsewhere
            if (!nt && one_output_run && full_row == row_n &&
                n < tuning::kBlendRowsMaxSteps * E::kStep) {
                auto src = row_scalars<E, Kind>(rows, n, in_ptr<In>(x), x_row, in_ptr<In>(y), y_row);
                run<E>(rows * n, stores, out, src);
                return;
            }
        }
    }
    if (nt && one_output_run &&
        rows2d_streaming<E, Kind>(rows, n, in_ptr<In>(x), x_row, in_ptr<In>(y), y_row, o)) {
        end_streaming<E>(stores);
        return;
    }
    if (!nt && n >= E::kStep && n < tuning::kRealignMinSteps * E::kStep) {
        short_rows<E, Kind>(rows, n, in_ptr<In>(x), x_row, in_ptr<In>(y), y_row, o, out_row);
        return;
    }
    for (std::size_t r = 0; r < rows; ++r) {
        auto src = RowSource<E, Kind>::make(row(in_ptr<In>(x), r, x_row), row(in_ptr<In>(y), r, y_row));
        drive<E>(n, row(o, r, out_row), src, nt);
    }
    end_streaming<E>(stores);
}

template <class E>
void copy(std::size_t n, const void* x, void* out, Stores stores) {
    if (n == 0 || out == x) return;  // in place: nothing to move
    CopySource<E> src{in_ptr<typename E::In>(x)};
    run<E>(n, stores, out, src);
}

template <class E>
void fill(std::size_t n, const void* x, void* out, Stores stores) {
    if (n == 0) return;
    FillSource<E> src{splat<typename E::InCodec>(in_ptr<typename E::In>(x))};
    run<E>(n, stores, out, src);
}

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
