// Partial-shape inference (src/rules/partial*.cpp) on worked examples: the
// cases ONNX's and OpenVINO's own shape-inference tests use for dynamic
// dimensions (rewritten here, each citing where it comes from), the table of
// disagreements in /work/shared/design/partial-shapes-notes.md section 4
// under all three semantics, and strict's conditions and refusals. The
// property test over random shapes is tests/api/test_partial_shapes.cpp.
#include "core/error.hpp"
#include "rules/partial.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

using bcast::Error;
using namespace bcast::rules::partial;

namespace {

// Test-side notation: "(N,3,2..8,2..,?,A:2..4)", "(...,2,3)", "(...)".
struct Call {
    Symbols symbols;
    std::vector<PShape> in;

    int32_t intern(const std::string& name) {
        for (std::size_t i = 0; i < symbols.size(); ++i)
            if (symbols[i] == name) return static_cast<int32_t>(i + 1);
        symbols.push_back(name);
        return static_cast<int32_t>(symbols.size());
    }

    PDim dim(std::string t) {
        PDim d;
        const std::size_t colon = t.find(':');
        if (std::isalpha(static_cast<unsigned char>(t[0])) && t != "?") {
            d.sym = intern(t.substr(0, colon));
            if (colon == std::string::npos) return d;
            t = t.substr(colon + 1);
        }
        if (t == "?") return d;
        const std::size_t dots = t.find("..");
        if (dots == std::string::npos) {
            d.lo = d.hi = std::stoll(t);
            return d;
        }
        d.lo = std::stoll(t.substr(0, dots));
        if (dots + 2 < t.size()) d.hi = std::stoll(t.substr(dots + 2));
        return d;
    }

    PShape shape(const std::string& text) {
        PShape s;
        std::string body = text.substr(1, text.size() - 2);
        if (body.rfind("...", 0) == 0) {
            s.rank_known = false;
            body = body.size() > 3 ? body.substr(4) : "";
        }
        std::size_t start = 0;
        while (!body.empty() && start <= body.size()) {
            const std::size_t comma = body.find(',', start);
            s.dims[s.rank++] = dim(body.substr(start, comma - start));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        return s;
    }

    Call(std::initializer_list<const char*> shapes) {
        for (const char* t : shapes) in.push_back(shape(t));
    }

    Inference run(Semantics sem, bcast_rule rule, int64_t axis = -1) {
        return infer(sem, rule, axis, in.data(), in.size(), symbols);
    }
    Inference expand(Semantics sem, bcast_expand_mode mode, std::vector<int64_t> axes = {},
                     int64_t axis = -1) {
        return infer_expand(sem, mode, in[0], in[1], axes.empty() ? nullptr : axes.data(),
                            axes.size(), axis, symbols);
    }
    std::string text(const Inference& r) const { return to_string(r.out, symbols); }
    std::string conditions(const Inference& r) const {
        return format_conditions(r.conditions, in.data(), in.size(), symbols);
    }
};

std::string out_of(Call c, Semantics sem, bcast_rule rule, int64_t axis = -1) {
    return c.text(c.run(sem, rule, axis));
}

#define CHECK_REFUSED(expr, want_status, part)                                        \
    do {                                                                              \
        bool thrown_ = false;                                                         \
        try {                                                                         \
            (void)(expr);                                                             \
        } catch (const Error& e_) {                                                   \
            thrown_ = true;                                                           \
            INFO("message: " << e_.what());                                           \
            CHECK(e_.status() == (want_status));                                      \
            CHECK_THAT(std::string(e_.what()), Catch::Matchers::Contains(part));      \
        }                                                                             \
        CHECK(thrown_);                                                               \
    } while (0)

const Semantics kStrict = Semantics::strict, kOnnx = Semantics::onnx, kOv = Semantics::openvino;

// {a, b, expected a + b} under numpy.
void check_numpy_pairs(Semantics sem, std::initializer_list<std::array<const char*, 3>> rows) {
    for (const auto& row : rows) {
        INFO(row[0] << " + " << row[1]);
        CHECK(out_of(Call{row[0], row[1]}, sem, BCAST_RULE_NUMPY) == row[2]);
    }
}

// One strict call and what it must give: element-wise under `rule`, or
// (expand >= 0) broadcast to target under that bcast_expand_mode.
struct RuleRow {
    const char* why;
    std::vector<const char*> in;
    int expand;
    bcast_rule rule;
    std::vector<int64_t> mapping;
    const char* out;
    const char* conditions;
    int64_t axis = -1;
};

void check_rule_rows(std::initializer_list<RuleRow> rows) {
    for (const RuleRow& row : rows) {
        INFO(row.why);
        Call c{};
        for (const char* t : row.in) c.in.push_back(c.shape(t));
        const Inference r = row.expand < 0 ? c.run(kStrict, row.rule, row.axis)
                                           : c.expand(kStrict, row.expand, row.mapping, row.axis);
        CHECK(c.text(r) == row.out);
        CHECK(c.conditions(r) == row.conditions);
    }
}

}  // namespace

TEST_CASE("partial: static shapes give the static rule's output and no conditions", "[partial]") {
    // numpy spec examples (shared/spec/onnx-broadcasting.md, openvino-broadcast-rules.md).
    for (Semantics s : {kStrict, kOnnx, kOv}) {
        Call c{"(2,3,4,5)", "(5)"};
        CHECK(out_of(c, s, BCAST_RULE_NUMPY) == "(2,3,4,5)");
        CHECK(out_of(Call{"(1,4,5)", "(2,3,1,1)"}, s, BCAST_RULE_NUMPY) == "(2,3,4,5)");
        CHECK(out_of(Call{"(8,1,6,1)", "(7,1,5)"}, s, BCAST_RULE_NUMPY) == "(8,7,6,5)");
    }
    Call c{"(2,3,4,5)", "(3,4)"};
    const Inference r = c.run(kStrict, BCAST_RULE_PDPD, 1);
    CHECK(c.text(r) == "(2,3,4,5)");
    CHECK(r.conditions.empty());
    CHECK(out_of(Call{"(2,3,4,5)", "(3,1)"}, kStrict, BCAST_RULE_PDPD, 1) == "(2,3,4,5)");
    CHECK(out_of(Call{"(4,3,2)", "(4)"}, kStrict, BCAST_RULE_NCNN) == "(4,3,2)");
}

// onnx/defs/shape_inference.h multidirectionalBroadcastShapeInference, per
// column (notes section 1), and onnx/test/shape_inference_test.py.
TEST_CASE("partial onnx: the column rule on values and params", "[partial]") {
    check_numpy_pairs(kOnnx, {{"(3)", "(N)", "(3)"},
                              {"(0)", "(N)", "(0)"},
                              {"(1)", "(N)", "(N)"},
                              {"(N)", "(N)", "(N)"},
                              {"(N)", "(M)", "(?)"},
                              {"(N)", "(?)", "(?)"},
                              {"(?)", "(?)", "(?)"},
                              // ONNX has no intervals: a non-static one is an anonymous dim.
                              {"(2..8)", "(1)", "(?)"},
                              // test_sum_broadcasting_param.
                              {"(a,1,5)", "(a,4,1)", "(a,4,5)"}});
    CHECK_REFUSED(out_of(Call{"(3)", "(N)", "(4)"}, kOnnx, BCAST_RULE_NUMPY),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES, "Incompatible dimensions");
    // test_sum_multi_broadcasting.
    CHECK(out_of(Call{"(30,1,5)", "(a,4,1)", "(4,b)"}, kOnnx, BCAST_RULE_NUMPY) == "(30,4,5)");
    // test_expand_dynamic_shape: data (1,2,?) to a 3-element shape of unknown values.
    Call e{"(1,2,?)", "(?,?,?)"};
    CHECK(e.text(e.expand(kOnnx, BCAST_EXPAND_BIDIRECTIONAL)) == "(?,2,?)");
    // Unknown rank: hasNInputShapes fails, nothing is inferred.
    CHECK(out_of(Call{"(...)", "(2,3)"}, kOnnx, BCAST_RULE_NUMPY) == "(...)");
    // PRelu / Add-6: input 0's shape, unchecked.
    CHECK(out_of(Call{"(N,3)", "(5)"}, kOnnx, BCAST_RULE_UNIDIRECTIONAL) == "(N,3)");
    CHECK(out_of(Call{"(2,1)", "(?)"}, kOnnx, BCAST_RULE_ONNX_LEGACY, 1) == "(2,1)");
    CHECK_REFUSED(out_of(Call{"(2,1)", "(?)"}, kOnnx, BCAST_RULE_PDPD, 1),
                  BCAST_ERROR_UNSUPPORTED, "onnx");
}

// src/core/tests/dimension.cpp @7de30b0e (broadcast_merge cases) and
// src/core/tests/type_prop/arithmetic_ops.hpp @36b43253 (symbols).
TEST_CASE("partial openvino: broadcast_merge of intervals and symbols", "[partial]") {
    check_numpy_pairs(kOv, {{"(1..5)", "(10..15)", "(10..15)"},
                            {"(1..12)", "(10..15)", "(10..15)"},
                            {"(7..12)", "(10..15)", "(10..12)"},
                            {"(0..12)", "(1..15)", "(0..15)"},
                            {"(1)", "(10)", "(10)"},
                            {"(A,B:3,C:1,D:2..128)", "(?,3,2..224,1)", "(A,B:3,2..224,D:2..128)"},
                            {"(A,B:3,C:1,D:2..128)", "(E,F:3,G:2..224,H:1)", "(?,B:3,G:2..224,D:2..128)"},
                            {"(A:2..4,3,224,1)", "(B:2..4,3,1,224)", "(A:2..4,3,224,224)"},
                            {"(A:2,B:1,C:224,D:1)", "(E:2,F:1,G:1,H:128)", "(A:2,F:1,C:224,H:128)"}});
    CHECK_REFUSED(out_of(Call{"(4..10)", "(3)"}, kOv, BCAST_RULE_NUMPY),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES, "inconsistent");
    // PDPD merges into A, which may change ("A rank smaller" case).
    CHECK(out_of(Call{"(2,1..3)", "(2..7)"}, kOv, BCAST_RULE_PDPD) == "(2,2..7)");
    CHECK_REFUSED(out_of(Call{"(2,3)", "(4)"}, kOv, BCAST_RULE_PDPD),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES, "inconsistent");
    // NONE goes through merge_into: a dynamic rank takes the other shape.
    CHECK(out_of(Call{"(2,?)", "(?,3)"}, kOv, BCAST_RULE_NONE) == "(2,3)");
    CHECK(out_of(Call{"(...)", "(?,3)"}, kOv, BCAST_RULE_NONE) == "(?,3)");
    CHECK(out_of(Call{"(...)", "(2,3)"}, kOv, BCAST_RULE_NUMPY) == "(...)");
    CHECK_REFUSED(out_of(Call{"(2)", "(2)"}, kOv, BCAST_RULE_NCNN), BCAST_ERROR_UNSUPPORTED,
                  "openvino");
}

// partial-shapes-notes.md section 4: where ONNX and OpenVINO disagree, and
// what strict says (with its run-time conditions).
TEST_CASE("partial: the disagreement table under all three semantics", "[partial]") {
    struct Row {
        std::vector<const char*> in;
        bcast_rule rule;
        int64_t axis;
        const char* onnx;  // nullptr: refused or unsupported
        const char* openvino;
        const char* strict;
        const char* conditions;
    };
    const Row rows[] = {
        {{"(N)", "(?)"}, BCAST_RULE_NUMPY, -1, "(?)", "(N)", "(?)", "N == 1 or in1[0] == 1 or N == in1[0]"},
        {{"(N)", "(M)", "(N)"}, BCAST_RULE_NUMPY, -1, "(?)", "(N)", "(?)",
         "N == 1 or M == 1 or N == M\nM == 1 or N == 1 or M == N"},
        {{"(N)", "(M)"}, BCAST_RULE_NUMPY, -1, "(?)", "(?)", "(?)", "N == 1 or M == 1 or N == M"},
        {{"(3)", "(N)"}, BCAST_RULE_NUMPY, -1, "(3)", "(3)", "(3)", "N == 1 or N == 3"},
        {{"(A:2..4)", "(B:3..5)"}, BCAST_RULE_NUMPY, -1, "(?)", "(A:3..4)", "(A:3..4)", "B == A"},
        {{"(4..10)", "(3)"}, BCAST_RULE_NUMPY, -1, "(3)", nullptr, nullptr, ""},
        {{"(3)", "(4)"}, BCAST_RULE_NUMPY, -1, nullptr, nullptr, nullptr, ""},
        {{"(...)", "(2,3)"}, BCAST_RULE_NUMPY, -1, "(...)", "(...)", "(...,2,3)",
         "in0[-2] == 1 or in0[-2] == 2\nin0[-1] == 1 or in0[-1] == 3"},
        {{"(2,1)", "(?)"}, BCAST_RULE_PDPD, 1, nullptr, "(2,?)", "(2,1)", "in1[0] == 1"},
        {{"(1)", "(0)"}, BCAST_RULE_PDPD, -1, nullptr, "(0)", nullptr, ""},
        {{"(2,3)", "(...)"}, BCAST_RULE_PDPD, -1, nullptr, "(...)", "(2,3)",
         "in1[-2] == 1 or in1[-2] == 2\nin1[-1] == 1 or in1[-1] == 3\nrank(in1) <= 2"},
        {{"(2,?)", "(?,3)"}, BCAST_RULE_NONE, -1, nullptr, "(2,3)", "(2,3)",
         "in1[0] == 2\nin0[1] == 3"},
        {{"(N,3)", "(5)"}, BCAST_RULE_UNIDIRECTIONAL, -1, "(N,3)", nullptr, nullptr, ""},
    };
    for (const Row& row : rows) {
        const char* want[3] = {row.strict, row.onnx, row.openvino};
        for (Semantics s : {kStrict, kOnnx, kOv}) {
            Call c{};
            for (const char* t : row.in) c.in.push_back(c.shape(t));
            const char* expected = want[static_cast<int>(s)];
            INFO("row " << row.in[0] << " + " << row.in[1] << ", semantics " << static_cast<int>(s));
            if (!expected) {
                CHECK_THROWS_AS(c.run(s, row.rule, row.axis), Error);
                continue;
            }
            const Inference r = c.run(s, row.rule, row.axis);
            CHECK(c.text(r) == expected);
            if (s == kStrict) CHECK(c.conditions(r) == row.conditions);
        }
    }
}

TEST_CASE("partial strict: refusals need every assignment to fail", "[partial]") {
    // Symbols tie columns: N would have to be 3 and 4 at once.
    CHECK_REFUSED(out_of(Call{"(N:2..,N:2..)", "(3,4)"}, kStrict, BCAST_RULE_NUMPY),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES, "no values of the unknown dimensions");
    // ... unless N may be 1.
    Call c{"(N,N)", "(3,4)"};
    const Inference r = c.run(kStrict, BCAST_RULE_NUMPY);
    CHECK(c.text(r) == "(3,4)");
    CHECK(c.conditions(r) == "N == 1 or N == 3\nN == 1 or N == 4");
    // Column conflicts name the dimension and both extents.
    CHECK_REFUSED(out_of(Call{"(N,2..4)", "(5..8)"}, kStrict, BCAST_RULE_NUMPY),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES,
                  "numpy: cannot broadcast dimension 1: 2..4 vs 5..8 (shapes (N,2..4) and (5..8))");
    // pdpd: a B dim past A's end must be 1.
    Call p{"(2,3)", "(3,?)"};
    const Inference rp = p.run(kStrict, BCAST_RULE_PDPD, 1);
    CHECK(p.text(rp) == "(2,3)");
    CHECK(p.conditions(rp) == "in1[1] == 1");
    CHECK_REFUSED(out_of(Call{"(2,3)", "(3,2..)"}, kStrict, BCAST_RULE_PDPD, 1),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES, "pdpd: B does not fit");
    // Where the alignment depends on two unknown ranks that bound each
    // other, strict has no answer.
    CHECK_REFUSED(out_of(Call{"(...)", "(...,3)"}, kStrict, BCAST_RULE_PDPD, 1),
                  BCAST_ERROR_UNSUPPORTED, "needs a known rank");
    // Symbols declared with disjoint intervals.
    CHECK_REFUSED(out_of(Call{"(N:2..3)", "(N:5..6)"}, kStrict, BCAST_RULE_NUMPY),
                  BCAST_ERROR_INVALID_ARGUMENT, "symbol N");
}

TEST_CASE("partial strict: every rule and expand mode", "[partial]") {
    check_rule_rows({
        {"unidirectional: the primary's dims, narrowed by forced others", {"(?,3)", "(4..,1)"},
         -1, BCAST_RULE_UNIDIRECTIONAL, {}, "(4..,3)", "in1[0] == in0[0]"},
        {"legacy: interior 1s do not stretch", {"(2,3,4)", "(?,?,?)"}, -1,
         BCAST_RULE_ONNX_LEGACY, {}, "(2,3,4)",
         "in1[0] == 1 or in1[0] == 2\nin1[1] == 1 or in1[1] == 3\nin1[2] == 1 or in1[2] == 4\n"
         "in1[0] == 1 or in1[2] == 1 or in1[1] == 3"},
        {"ncnn: a 1-D operand that may equal the outermost extent", {"(N,3,5)", "(M)"}, -1,
         BCAST_RULE_NCNN, {}, "(N,3,5)", "M == N or M == 1 or M == 5"},
        {"none between an unknown rank and a known one", {"(...)", "(2,3)"}, -1,
         BCAST_RULE_NONE, {}, "(2,3)", "in0[-2] == 2\nin0[-1] == 3\nrank(in0) == 2"},
        {"broadcast numpy: the target, data into it", {"(?,1)", "(N,3)"}, BCAST_EXPAND_NUMPY,
         BCAST_RULE_NUMPY, {}, "(N,3)", "in0[0] == 1 or in0[0] == N"},
        {"bidirectional: numpy between data and target", {"(5)", "(?)"},
         BCAST_EXPAND_BIDIRECTIONAL, BCAST_RULE_NUMPY, {}, "(5)", "in1[0] == 1 or in1[0] == 5"},
        {"explicit: data axis 0 to target axis 1", {"(?)", "(2,3)"}, BCAST_EXPAND_EXPLICIT,
         BCAST_RULE_NUMPY, {1}, "(2,3)", "in0[0] == 1 or in0[0] == 3"},
        {"broadcast pdpd: a target 1 takes the data dim", {"(4..6)", "(2,1)"}, BCAST_EXPAND_PDPD,
         BCAST_RULE_NUMPY, {}, "(2,4..6)", ""},
    });
}

// Unknown ranks where the rule places B from its first axis: each row worked
// out by hand from the static rules (decisions.md; the bcast.h rule texts),
// rank by rank. Conditions name B's unknown leading dims from its first axis
// when the rule places it from an axis, from its last at the default axis.
TEST_CASE("partial strict: unknown ranks that decide the alignment", "[partial]") {
    check_rule_rows({
        // rank(B) 1: 4 vs A[1] = 3. 2: (x,4) at axis 1, x is 1 or 3. 3: B
        // runs past A's end with a 4.
        {"pdpd at an axis, B of unknown rank", {"(2,3,4)", "(...,4)"}, -1, BCAST_RULE_PDPD, {},
         "(2,3,4)", "rank(in1) == 2\nin1[0] == 1 or in1[0] == 3", 1},
        // rank(B) 0..2, each B dim 1 or A's; an axis B lacks reads 1.
        {"pdpd at axis 0, B of unknown rank, a symbol", {"(N,3)", "(...)"}, -1, BCAST_RULE_PDPD,
         {}, "(N,3)", "rank(in1) <= 2\nin1[0] == 1 or in1[0] == N\nin1[1] == 1 or in1[1] == 3", 0},
        // rank(A) 2..4 cannot take (4,5) at axis 2 (past the end, or 5 vs
        // 3); from 5 on, A[2] = 4 and A[3] = 5, and A's dims before its
        // last move with its rank.
        {"pdpd at an axis, A of unknown rank", {"(...,3)", "(4,5)"}, -1, BCAST_RULE_PDPD, {},
         "(...,?,?,?,?,3)", "rank(in0) >= 5\nin0[2] == 4\nin0[3] == 5", 2},
        // The default axis: pdpd is unidirectional.
        {"pdpd, default axis, A of unknown rank", {"(...,3)", "(N,1)"}, -1, BCAST_RULE_PDPD, {},
         "(...,?,3)", "N == 1 or N == in0[-2]\nrank(in0) >= 2", -1},
        // Suffix alignment: B's core (5,3) equals A's last two dims.
        {"onnx_legacy, default axis, A of unknown rank", {"(...,3)", "(5,3)"}, -1,
         BCAST_RULE_ONNX_LEGACY, {}, "(...,5,3)", "rank(in0) >= 2\nin0[-2] == 5", -1},
        // rank(B) 0: fits. 1: (x) one element, or x == A[1]. 2: (x,y) at
        // axis 1, x leading 1 or 3, y trailing 1 or 4. 3: no room at axis
        // 1, so only an all-1 B fits. 4: above A's rank.
        {"onnx_legacy at an axis, B of unknown rank", {"(2,3,4)", "(...)"}, -1,
         BCAST_RULE_ONNX_LEGACY, {}, "(2,3,4)",
         "rank(in1) <= 3\nin1[0] == 1 or in1[0] == 3 or rank(in1) >= 3\n"
         "in1[1] == 1 or in1[1] == 4 or rank(in1) >= 3\nin1[0] == 1 or rank(in1) <= 2\n"
         "in1[1] == 1 or rank(in1) <= 2\nin1[2] == 1", 1},
        // rank(A) 0: a scalar. 1: (a) goes outer when a == 2, else inner
        // against 3. 2: numpy. 3, 4: (2,3) on A's outer axes. 5: ncnn's
        // limit. The output's last two dims: 3 or A's own.
        {"ncnn, one operand of unknown rank", {"(...)", "(2,3)"}, -1, BCAST_RULE_NCNN, {},
         "(...,?,?)",
         "rank(in0) <= 4\nin0[0] == 2 or in0[0] == 1 or in0[0] == 3 or rank(in0) >= 2\n"
         "in0[0] == 1 or in0[0] == 2 or rank(in0) <= 1\nin0[1] == 1 or in0[1] == 3", -1},
        // One mapping entry: data of rank 0 or 1, here 1 (it ends in 5).
        {"broadcast explicit, data of unknown rank", {"(...,5)", "(2,5,?)"}, BCAST_EXPAND_EXPLICIT,
         BCAST_RULE_NUMPY, {1}, "(2,5,?)", "rank(in0) == 1", -1},
        // rank(target) 2: 3 vs 4 at axis 1. From 3 on, axis 1 is unknown.
        {"broadcast explicit, target of unknown rank", {"(3)", "(...,4)"}, BCAST_EXPAND_EXPLICIT,
         BCAST_RULE_NUMPY, {1}, "(...,?,?,4)", "rank(in1) >= 3\nin1[1] == 3", -1},
        // rank(data) 1: (2) against 2. 2: (d,2), d merges with 4. 3: data
        // rank above the target's at the default axis.
        {"broadcast pdpd, data of unknown rank", {"(...,2)", "(4,2)"}, BCAST_EXPAND_PDPD,
         BCAST_RULE_NUMPY, {}, "(4,2)", "rank(in0) <= 2\nin0[-2] == 1 or in0[-2] == 4", -1},
        // rank(target) 0, 1: the 3 would land past the end. From 2 on,
        // target[1] merges with 3.
        {"broadcast pdpd at an axis, target of unknown rank", {"(3)", "(...)"}, BCAST_EXPAND_PDPD,
         BCAST_RULE_NUMPY, {}, "(...,?,?)", "rank(in1) >= 2\nin1[1] == 1 or in1[1] == 3", 1},
    });
    // No rank of B fits: (4,5) runs past (2,3) at axis 1 whatever precedes it.
    CHECK_REFUSED(out_of(Call{"(2,3)", "(...,4,5)"}, kStrict, BCAST_RULE_PDPD, 1),
                  BCAST_ERROR_INCOMPATIBLE_SHAPES, "pdpd: no ranks and values of the unknowns");
    // Three B's of unknown rank into a rank-8 A: 9^3 combinations of ranks,
    // past the 256 enumerated.
    CHECK_REFUSED(out_of(Call{"(2,3,4,5,6,7,8,9)", "(...)", "(...)", "(...)"}, kStrict,
                         BCAST_RULE_PDPD, 0),
                  BCAST_ERROR_UNSUPPORTED, "more than 256 combinations");
    // ncnn with both ranks unknown: 5 x 5 combinations, still enumerated.
    Call both{"(...,2)", "(...)"};
    const Inference rb = both.run(kStrict, BCAST_RULE_NCNN);
    CHECK_FALSE(rb.out.rank_known);
}

// Two inputs of unknown rank: their dims past every known one are anonymous
// and must still obey the rule at each axis a rank can reach (up to
// BCAST_MAX_RANK = 32); a relation between the ranks is stated rank by rank.
TEST_CASE("partial strict: two inputs of unknown rank", "[partial]") {
    const auto axis = [](int k) { return "[" + std::to_string(-k) + "]"; };
    const auto check = [](Call c, bcast_rule rule, const char* out, const std::string& want) {
        const Inference r = c.run(kStrict, rule);
        CHECK(c.text(r) == out);
        CHECK(c.conditions(r) == want);
    };
    // Whether static shapes a and b satisfy r's conditions.
    const auto holds = [](const Inference& r, std::initializer_list<int64_t> a,
                          std::initializer_list<int64_t> b) {
        std::array<bcast::Shape, 2> shapes{};
        for (const auto* s : {&a, &b}) {
            bcast::Shape& to = shapes[s == &a ? 0 : 1];
            for (int64_t d : *s) to[to.rank++] = d;
        }
        return conditions_hold(r.conditions, shapes.data(), 2);
    };
    // numpy: every axis from the end merges, none is known.
    std::string numpy;
    for (int k = 1; k <= 32; ++k)
        numpy += (k > 1 ? "\n" : "") + ("in0" + axis(k)) + " == 1 or in1" + axis(k) +
                 " == 1 or in0" + axis(k) + " == in1" + axis(k);
    check(Call{"(...)", "(...)"}, BCAST_RULE_NUMPY, "(...)", numpy);
    // unidirectional: N broadcasts into in0's last dim 2; rank(in1) <=
    // rank(in0), i.e. for each r, not (rank(in1) > r and rank(in0) <= r);
    // in1's other dims are 1 or in0's.
    std::string uni = "N == 1 or N == 2";
    for (int k = 1; k < 32; ++k)
        uni += "\nrank(in1) <= " + std::to_string(k) + " or rank(in0) >= " + std::to_string(k + 1);
    for (int k = 2; k <= 32; ++k)
        uni += "\nin1" + axis(k) + " == 1 or in1" + axis(k) + " == in0" + axis(k);
    check(Call{"(...,2)", "(...,N)"}, BCAST_RULE_UNIDIRECTIONAL, "(...,2)", uni);
    // none: in1 ends in 2 too; rank(in1) == rank(in0), i.e. for each r, if
    // rank(in0) == r then rank(in1) == r; every other dim equal.
    std::string none = "in1[-1] == 2\nrank(in1) >= 1\nrank(in0) >= 2 or rank(in1) == 1";
    for (int k = 2; k < 32; ++k)
        none += "\nrank(in0) <= " + std::to_string(k - 1) + " or rank(in0) >= " +
                std::to_string(k + 1) + " or rank(in1) == " + std::to_string(k);
    none += "\nrank(in0) <= 31 or rank(in1) == 32";
    for (int k = 2; k <= 32; ++k) none += "\nin1" + axis(k) + " == in0" + axis(k);
    check(Call{"(...,2)", "(...)"}, BCAST_RULE_NONE, "(...,2)", none);
    // none: input 0 needs the rank input 1 is known to have at least; (2)
    // and (1,2) differ in rank although input 0's missing axis reads 1.
    const Inference r = Call{"(...)", "(...,1,2)"}.run(kStrict, BCAST_RULE_NONE);
    CHECK_FALSE(holds(r, {2}, {1, 2}));
    CHECK(holds(r, {1, 2}, {1, 2}));
    // Broadcast pdpd at its default axis: data right-aligned into the
    // target and merged both ways (2 with 1, ? with 3), rank(data) <=
    // rank(target): data (1,1,2) into target (3,1) is refused, (3,2) into
    // (5,3,1) is not.
    Call b{"(...,2)", "(...,3,1)"};
    const Inference rb = b.expand(kStrict, BCAST_EXPAND_PDPD);
    CHECK(b.text(rb) == "(...,3,2)");
    CHECK_FALSE(holds(rb, {1, 1, 2}, {3, 1}));
    CHECK(holds(rb, {3, 2}, {5, 3, 1}));
}
