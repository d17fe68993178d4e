// Fuzzes bcast_infer_shape and bcast_infer_expand_shape against a reference
// written here from the spec documents and decisions.md (not from src/rules):
// the status class and, on success, the output shape must agree.
#include <bcast/bcast.h>

#include "fuzz_input.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;

// A reference verdict: the status, and the shape when it is OK. `either`
// names a second status the library may give instead, where the header does
// not say which of two applicable errors wins.
struct Verdict {
    bcast_status status = BCAST_OK;
    Dims shape;
    bcast_status either = BCAST_OK;
};
Verdict ok(Dims d) { return {BCAST_OK, std::move(d), BCAST_OK}; }
Verdict refused(bcast_status s = BCAST_ERROR_INCOMPATIBLE_SHAPES) { return {s, {}, s}; }

// numpy: right-align; equal, or one side 1 (0 vs 1 gives 0).
std::optional<Dims> numpy_merge(const std::vector<Dims>& shapes) {
    std::size_t rank = 0;
    for (const Dims& s : shapes) rank = std::max(rank, s.size());
    Dims out(rank, 1);
    for (const Dims& s : shapes) {
        for (std::size_t k = 0; k < s.size(); ++k) {
            int64_t& o = out[rank - s.size() + k];
            const int64_t d = s[k];
            if (d == o || d == 1) continue;
            if (o != 1) return std::nullopt;
            o = d;
        }
    }
    return out;
}

Verdict rule_none(const std::vector<Dims>& in) {
    for (const Dims& s : in)
        if (s != in[0]) return refused();
    return ok(in[0]);
}

Verdict rule_numpy(const std::vector<Dims>& in) {
    const auto out = numpy_merge(in);
    return out ? ok(*out) : refused();
}

// ONNX unidirectional: every other input numpy-broadcasts into A unchanged.
Verdict rule_unidirectional(const std::vector<Dims>& in) {
    const Dims& a = in[0];
    for (std::size_t j = 1; j < in.size(); ++j) {
        const Dims& b = in[j];
        if (b.size() > a.size()) return refused();
        for (std::size_t k = 0; k < b.size(); ++k) {
            const int64_t ak = a[a.size() - b.size() + k];
            if (b[k] != 1 && b[k] != ak) return refused();
        }
    }
    return ok(a);
}

// OpenVINO pdpd (spec rules 1-5, decisions.md): rank(B) <= rank(A); axis -1
// is rank(A) - rank(B); B's trailing 1s are ignored for the subsequence;
// each remaining B extent is 1 or equals A's.
bool pdpd_fits(const Dims& a, const Dims& b, int64_t axis) {
    if (b.size() > a.size()) return false;
    const int64_t start = axis == -1 ? static_cast<int64_t>(a.size() - b.size()) : axis;
    std::size_t used = b.size();
    while (used > 0 && b[used - 1] == 1) --used;
    if (start > static_cast<int64_t>(a.size())) return false;
    if (static_cast<int64_t>(used) > static_cast<int64_t>(a.size()) - start) return false;
    for (std::size_t i = 0; i < used; ++i)
        if (b[i] != 1 && b[i] != a[static_cast<std::size_t>(start) + i]) return false;
    return true;
}

// ONNX legacy as Caffe2 ran it (decisions.md, header): rank(B) <= rank(A); a
// one-element B fits at any axis; otherwise 0 <= axis <= rank(A) - rank(B),
// B without its leading and trailing 1s equals A exactly there.
bool legacy_fits(const Dims& a, const Dims& b, int64_t axis) {
    if (b.size() > a.size()) return false;
    if (std::all_of(b.begin(), b.end(), [](int64_t d) { return d == 1; })) return true;
    const int64_t room = static_cast<int64_t>(a.size() - b.size());
    const int64_t start = axis == -1 ? room : axis;
    if (start > room) return false;
    std::size_t lo = 0, hi = b.size();
    while (b[lo] == 1) ++lo;
    while (b[hi - 1] == 1) --hi;
    for (std::size_t i = lo; i < hi; ++i)
        if (b[i] != a[static_cast<std::size_t>(start) + i]) return false;
    return true;
}

Verdict rule_into_a(const std::vector<Dims>& in, int64_t axis, bool (*fits)(const Dims&, const Dims&, int64_t)) {
    if (axis < -1) return refused(BCAST_ERROR_INVALID_ARGUMENT);
    for (std::size_t j = 1; j < in.size(); ++j)
        if (!fits(in[0], in[j], axis)) return refused();
    return ok(in[0]);
}

// ncnn, numpy notation (ncnn notes 3.2): the lower-rank operand x goes on
// the outer axes (padded with 1s inside), except a 1-D x unequal to y's
// outermost extent, which goes innermost; rank 0 fits anything. Then every
// axis must be equal or have a 1 (decisions.md).
Verdict rule_ncnn(const std::vector<Dims>& in) {
    if (in.size() != 2) return refused(BCAST_ERROR_INVALID_ARGUMENT);
    if (in[0].size() > 4 || in[1].size() > 4) return refused(BCAST_ERROR_INVALID_ARGUMENT);
    const std::size_t r = std::max(in[0].size(), in[1].size());
    auto placed = [&](const Dims& x, const Dims& y) {
        if (x.size() == r) return x;
        Dims p(r, 1);
        if (x.size() == 1 && x[0] != y[0]) {
            p[r - 1] = x[0];
        } else {
            std::copy(x.begin(), x.end(), p.begin());
        }
        return p;
    };
    const Dims a = placed(in[0], in[1]), b = placed(in[1], in[0]);
    Dims out(r);
    for (std::size_t i = 0; i < r; ++i) {
        if (a[i] == b[i] || b[i] == 1) out[i] = a[i];
        else if (a[i] == 1) out[i] = b[i];
        else return refused();
    }
    return ok(out);
}

// ---- broadcast to a target ----

Verdict expand_numpy(const Dims& data, const Dims& target) {
    if (data.size() > target.size()) return refused();
    for (std::size_t k = 0; k < data.size(); ++k) {
        const int64_t t = target[target.size() - data.size() + k];
        if (data[k] != 1 && data[k] != t) return refused();
    }
    return ok(target);
}

Verdict expand_explicit(const Dims& data, const Dims& target, const Dims& mapping) {
    // Where a mapping is malformed the header does not say whether that is a
    // bad argument or a shape refusal: either is accepted.
    const Verdict bad{BCAST_ERROR_INVALID_ARGUMENT, {}, BCAST_ERROR_INCOMPATIBLE_SHAPES};
    if (data.empty()) {
        if (mapping.empty()) return ok(target);
        if (mapping.size() != 1 || mapping[0] < 0 ||
            mapping[0] >= static_cast<int64_t>(target.size()))
            return bad;
        return target[static_cast<std::size_t>(mapping[0])] == 1 ? ok(target) : bad;
    }
    if (mapping.size() != data.size()) return bad;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const int64_t m = mapping[i];
        if (m < 0 || m >= static_cast<int64_t>(target.size())) return bad;
        if (i > 0 && m < mapping[i - 1]) return bad;
        if (data[i] != 1 && data[i] != target[static_cast<std::size_t>(m)]) return bad;
    }
    return ok(target);
}

// OpenVINO Broadcast PDPD (header): data placed at axis (-1: rank(target) -
// rank(data)); per axis a data 1 keeps the target extent, a target 1 takes
// the data's, else equal; data axes past the target's end must be 1.
Verdict expand_pdpd(const Dims& data, const Dims& target, int64_t axis) {
    if (axis < -1) return refused(BCAST_ERROR_INVALID_ARGUMENT);
    const int64_t rd = static_cast<int64_t>(data.size()), rt = static_cast<int64_t>(target.size());
    const int64_t start = axis == -1 ? rt - rd : axis;
    if (start < 0) return refused();
    Dims out = target;
    for (int64_t i = std::min(start, rt); i < rt; ++i) {
        const int64_t d = i - start < rd ? data[static_cast<std::size_t>(i - start)] : 1;
        int64_t& t = out[static_cast<std::size_t>(i)];
        if (d == t || d == 1) continue;
        if (t != 1) return refused();
        t = d;
    }
    for (int64_t j = std::max<int64_t>(rt - start, 0); j < rd; ++j)
        if (data[static_cast<std::size_t>(j)] != 1) return refused();
    return ok(out);
}

Dims random_dims(fuzz::Input& in, std::size_t rank) {
    Dims d(rank);
    for (int64_t& e : d) e = fuzz::extent(in);
    return d;
}

// Shapes that often fit: a base shape, and others cut from it.
std::vector<Dims> related_shapes(fuzz::Input& in, std::size_t n) {
    const Dims base = random_dims(in, static_cast<std::size_t>(in.range(0, 5)));
    std::vector<Dims> shapes;
    for (std::size_t j = 0; j < n; ++j) {
        if (in.chance(25)) {
            shapes.push_back(random_dims(in, static_cast<std::size_t>(in.range(0, 5))));
            continue;
        }
        const std::size_t skip_front = static_cast<std::size_t>(in.range(0, static_cast<int64_t>(base.size())));
        const std::size_t skip_back = in.chance(30) ? static_cast<std::size_t>(in.range(0, static_cast<int64_t>(base.size() - skip_front))) : 0;
        Dims s(base.begin() + static_cast<std::ptrdiff_t>(skip_front), base.end() - static_cast<std::ptrdiff_t>(skip_back));
        for (int64_t& e : s)
            if (in.chance(30)) e = 1;
        if (in.chance(10)) s.push_back(1);
        shapes.push_back(s);
    }
    return shapes;
}

bool agrees(const Verdict& want, bcast_status got, const Dims& got_shape) {
    if (got != want.status && got != want.either) return false;
    return got != BCAST_OK || got_shape == want.shape;
}

void check_rule(fuzz::Input& in) {
    static const bcast_rule kRules[] = {BCAST_RULE_NONE,  BCAST_RULE_NUMPY,       BCAST_RULE_UNIDIRECTIONAL,
                                        BCAST_RULE_PDPD,  BCAST_RULE_ONNX_LEGACY, BCAST_RULE_NCNN};
    const bcast_rule rule = in.pick(kRules);
    const std::size_t n = rule == BCAST_RULE_NCNN && in.chance(90) ? 2 : static_cast<std::size_t>(in.range(1, 5));
    std::vector<Dims> shapes = related_shapes(in, n);
    static const int64_t kAxes[] = {-1, -1, 0, 1, 2, 3, -2, 1000, INT64_MAX, INT64_MIN};
    const int64_t axis = in.pick(kAxes);

    Verdict want;
    switch (rule) {
        case BCAST_RULE_NONE: want = rule_none(shapes); break;
        case BCAST_RULE_NUMPY: want = rule_numpy(shapes); break;
        case BCAST_RULE_UNIDIRECTIONAL: want = rule_unidirectional(shapes); break;
        case BCAST_RULE_PDPD: want = rule_into_a(shapes, axis, pdpd_fits); break;
        case BCAST_RULE_ONNX_LEGACY: want = rule_into_a(shapes, axis, legacy_fits); break;
        default: want = rule_ncnn(shapes); break;
    }
    // One argument error at a time, each INVALID_ARGUMENT whatever the shapes.
    std::size_t capacity = BCAST_MAX_RANK;
    const int64_t fault = in.chance(20) ? in.range(1, 4) : 0;
    if (fault == 1) {
        shapes[0] = Dims(BCAST_MAX_RANK + 1 + static_cast<std::size_t>(in.range(0, 2)), 1);
    } else if (fault == 2 && !shapes[0].empty()) {
        shapes[0][0] = -static_cast<int64_t>(in.range(1, 3));
    } else if (fault == 3 && want.status == BCAST_OK && !want.shape.empty()) {
        capacity = want.shape.size() - 1;
    }
    const bool argument_fault = fault == 1 || (fault == 2 && !shapes[0].empty()) ||
                                (fault == 3 && capacity < BCAST_MAX_RANK);
    if (argument_fault) want = refused(BCAST_ERROR_INVALID_ARGUMENT);

    std::vector<size_t> ranks;
    std::vector<const int64_t*> dims;
    for (const Dims& s : shapes) {
        ranks.push_back(s.size());
        dims.push_back(s.data());
    }
    int64_t out[BCAST_MAX_RANK + 1];
    std::fill(out, out + BCAST_MAX_RANK + 1, -7);
    size_t out_rank = 999;
    const bcast_status st = bcast_infer_shape(rule, axis, n, ranks.data(), dims.data(), capacity,
                                              &out_rank, out);
    const Dims got(out, out + (st == BCAST_OK ? out_rank : 0));
    if (!agrees(want, st, got)) {
        std::fprintf(stderr, "rule %d axis %lld: status %d (%s), reference %d\n", rule,
                     static_cast<long long>(axis), st, bcast_last_error(), want.status);
        FUZZ_CHECK(false);
    }
    if (st != BCAST_OK) {  // nothing written
        FUZZ_CHECK(out_rank == 999);
        FUZZ_CHECK(std::all_of(out, out + BCAST_MAX_RANK + 1, [](int64_t v) { return v == -7; }));
        FUZZ_CHECK(bcast_last_error()[0] != '\0');
    }
}

void check_expand(fuzz::Input& in) {
    static const bcast_expand_mode kModes[] = {BCAST_EXPAND_NUMPY, BCAST_EXPAND_BIDIRECTIONAL,
                                               BCAST_EXPAND_EXPLICIT, BCAST_EXPAND_PDPD};
    const bcast_expand_mode mode = in.pick(kModes);
    const std::vector<Dims> pair = related_shapes(in, 2);
    const Dims& target = pair[0];
    const Dims& data = pair[1];
    static const int64_t kAxes[] = {-1, -1, 0, 1, 2, 5, -2, INT64_MAX};
    const int64_t axis = mode == BCAST_EXPAND_PDPD ? in.pick(kAxes) : -1;
    Dims mapping;
    if (mode == BCAST_EXPAND_EXPLICIT) {
        // Mostly a sorted mapping of the right length.
        const std::size_t len = in.chance(85) ? data.size() : static_cast<std::size_t>(in.range(0, 3));
        int64_t at = 0;
        for (std::size_t i = 0; i < len; ++i) {
            at = in.chance(90) ? at + in.range(0, 1) : in.range(-1, 6);
            mapping.push_back(at);
        }
    }
    Verdict want;
    switch (mode) {
        case BCAST_EXPAND_NUMPY: want = expand_numpy(data, target); break;
        case BCAST_EXPAND_BIDIRECTIONAL: want = rule_numpy({data, target}); break;
        case BCAST_EXPAND_EXPLICIT: want = expand_explicit(data, target, mapping); break;
        default: want = expand_pdpd(data, target, axis); break;
    }
    int64_t out[BCAST_MAX_RANK];
    std::fill(out, out + BCAST_MAX_RANK, -7);
    size_t out_rank = 999;
    const bcast_status st = bcast_infer_expand_shape(
        mode, data.size(), data.data(), target.size(), target.data(),
        mapping.empty() ? nullptr : mapping.data(), mapping.size(), axis, BCAST_MAX_RANK,
        &out_rank, out);
    const Dims got(out, out + (st == BCAST_OK ? out_rank : 0));
    if (!agrees(want, st, got)) {
        std::fprintf(stderr, "expand mode %d axis %lld: status %d (%s), reference %d\n", mode,
                     static_cast<long long>(axis), st, bcast_last_error(), want.status);
        FUZZ_CHECK(false);
    }
    if (st != BCAST_OK) FUZZ_CHECK(out_rank == 999 && out[0] == -7);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Input in(data, size);
    if (in.chance(70)) {
        check_rule(in);
    } else {
        check_expand(in);
    }
    return 0;
}
