// Strict semantics: which ranks an input of unknown rank can take where the
// rule's alignment depends on it, for partial_rank_cases.cpp to enumerate.
// Each bound comes from the static rule (rules.hpp and decisions.md):
//  * pdpd / onnx_legacy at an axis: rank(B) <= rank(A). With A's rank
//    unknown and every B's known, A needs at least max(rank(B)) dims, and
//    from rank axis + max(rank(B)) + (A's known dims) on, every B lands in A's
//    unknown leading dims: the answer no longer changes (a tail). With the
//    default axis, B sits at A's end: the tail starts at the least rank.
//  * ncnn: ranks 0 to 4.
//  * Broadcast explicit: rank(data) == axes_count (0 or 1 for a one-entry
//    mapping); the target needs max(axes_mapping) + 1 dims, and from that
//    plus its known dims on the mapping lands in its unknown leading dims.
//  * Broadcast pdpd: the default axis needs rank(data) <= rank(target)
//    (with both unknown it is numpy's alignment: nothing to enumerate); at
//    an axis, data may run past the target's end (in 1s) at any rank, so
//    the data's rank runs to BCAST_MAX_RANK.
// Two inputs of unknown rank whose ranks bound each other (A and a B, data
// and target at an axis) are UNSUPPORTED: no tail exists for the pair.
#include "rules/partial_util.hpp"
#include "rules/rule_util.hpp"

#include <algorithm>

namespace bcast::rules::partial::detail {
namespace {

[[noreturn]] void both_unknown(const std::string& who, const char* what) {
    fail(BCAST_ERROR_UNSUPPORTED,
         who + ": strict inference needs a known rank for " + what +
             " (with both unknown, where the other's known dims land depends on both ranks, "
             "which rank atoms cannot state)");
}

bool any_unknown(const PShape* in, std::size_t n) {
    return std::any_of(in, in + n, [](const PShape& s) { return !s.rank_known; });
}

RankRange fixed(std::size_t lo, std::size_t hi, bool from_start) {
    RankRange r;
    r.enumerate = true;
    r.lo = lo;
    r.hi = std::max(lo, hi);  // empty: the least rank, which the rule refuses
    r.from_start = from_start;
    return r;
}

// From `lo` to `tail`, the last standing for every rank above; a tail past
// BCAST_MAX_RANK is no tail (no rank reaches it).
RankRange with_tail(std::size_t lo, int64_t tail, bool from_start) {
    RankRange r = fixed(lo, kMaxRank, from_start);
    if (tail <= static_cast<int64_t>(kMaxRank)) {
        r.hi = std::max(lo, static_cast<std::size_t>(tail));
        r.tail = true;
    }
    return r;
}

// A into which every B goes (pdpd, onnx_legacy): B from A's axis, or at A's
// end for axis -1.
RankRanges into_primary(const std::string& who, int64_t axis, const PShape* in, std::size_t n) {
    rules::detail::check_axis_argument(who, axis);
    RankRanges ranges(n);
    if (!any_unknown(in, n)) return {};
    const PShape& a = in[0];
    const bool from_start = axis >= 0;
    if (a.rank_known) {
        for (std::size_t j = 1; j < n; ++j)
            if (!in[j].rank_known) ranges[j] = fixed(in[j].rank, a.rank, from_start);
        return ranges;
    }
    std::size_t widest = 0;
    for (std::size_t j = 1; j < n; ++j) {
        if (!in[j].rank_known) both_unknown(who, "A or for every B");
        widest = std::max(widest, in[j].rank);
    }
    const std::size_t lo = std::max(a.rank, widest);
    const int64_t tail = from_start ? std::min<int64_t>(axis, kMaxRank + 1) +
                                          static_cast<int64_t>(widest + a.rank)
                                    : static_cast<int64_t>(lo);
    ranges[0] = with_tail(lo, tail, from_start);
    return ranges;
}

RankRanges ncnn(const PShape* in, std::size_t n) {
    constexpr std::size_t kNcnnMaxRank = 4;
    RankRanges ranges(n);
    if (n != 2 || !any_unknown(in, n)) return {};  // the layout names a wrong count
    for (std::size_t j = 0; j < n; ++j)
        if (!in[j].rank_known) ranges[j] = fixed(in[j].rank, kNcnnMaxRank, true);
    return ranges;
}

RankRanges explicit_ranges(const PShape* in, const int64_t* axes, std::size_t count) {
    RankRanges ranges(2);
    if (!any_unknown(in, 2)) return {};
    const PShape &data = in[0], &target = in[1];
    if (!data.rank_known) {
        // count entries name count data axes; a rank-0 data takes 0 or 1.
        const std::size_t lo = std::max(data.rank, count == 1 ? std::size_t{0} : count);
        ranges[0] = fixed(lo, count, true);
        if (data.rank > count) ranges[0] = fixed(data.rank, data.rank, true);
    }
    if (!target.rank_known) {
        // The target needs every mapped axis; a bad entry is the layout's to
        // name, at the target's least rank.
        int64_t needed = 0;
        bool bad = count > 0 && axes == nullptr;
        for (std::size_t i = 0; !bad && i < count; ++i) {
            bad = axes[i] < 0 || axes[i] >= static_cast<int64_t>(kMaxRank);
            if (!bad) needed = std::max(needed, axes[i] + 1);
        }
        const std::size_t lo = std::max(target.rank, static_cast<std::size_t>(needed));
        ranges[1] = bad ? fixed(target.rank, target.rank, true)
                        : with_tail(lo, needed + static_cast<int64_t>(target.rank), true);
    }
    return ranges;
}

RankRanges expand_pdpd(const PShape* in, int64_t axis) {
    const std::string who = "broadcast pdpd";
    rules::detail::check_axis_argument(who, axis);
    RankRanges ranges(2);
    if (!any_unknown(in, 2)) return {};
    const PShape &data = in[0], &target = in[1];
    const bool from_start = axis >= 0;
    if (!data.rank_known && !target.rank_known) {
        if (from_start) both_unknown(who, "the data or the target");
        return {};  // the default axis: numpy's alignment, which needs no ranks
    }
    if (!data.rank_known) {
        ranges[0] = fixed(data.rank, from_start ? kMaxRank : target.rank, from_start);
    } else if (from_start) {
        ranges[1] = with_tail(target.rank,
                              std::min<int64_t>(axis, kMaxRank + 1) +
                                  static_cast<int64_t>(data.rank + target.rank),
                              true);
    } else {
        const std::size_t lo = std::max(target.rank, data.rank);
        ranges[1] = with_tail(lo, static_cast<int64_t>(lo), false);
    }
    return ranges;
}

}  // namespace

RankRanges rank_ranges_elementwise(bcast_rule rule, int64_t axis, const PShape* in,
                                   std::size_t n) {
    switch (rule) {
        // pdpd's default axis is unidirectional's layout, which takes
        // unknown ranks as they are.
        case BCAST_RULE_PDPD: return axis == -1 ? RankRanges{} : into_primary("pdpd", axis, in, n);
        case BCAST_RULE_ONNX_LEGACY: return into_primary("onnx_legacy", axis, in, n);
        case BCAST_RULE_NCNN: return ncnn(in, n);
        default: return {};
    }
}

RankRanges rank_ranges_expand(bcast_expand_mode mode, const PShape* in,
                              const int64_t* axes_mapping, std::size_t axes_count,
                              int64_t axis) {
    switch (mode) {
        case BCAST_EXPAND_EXPLICIT: return explicit_ranges(in, axes_mapping, axes_count);
        case BCAST_EXPAND_PDPD: return expand_pdpd(in, axis);
        default: return {};
    }
}

}  // namespace bcast::rules::partial::detail
