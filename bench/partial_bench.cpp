// Time of strict / onnx / openvino partial-shape inference on rank-8 shapes
// through the C API (issue target: under 2 us per call), beside the static
// bcast_infer_shape on the same extents for scale.
//   bcast_partial_bench [--budget-ms N] [--smoke]
#include <bcast/bcast.h>

#include "timing.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int64_t U = BCAST_DIM_UNBOUNDED;

struct Case {
    const char* name;
    std::vector<bcast_pdim> a, b;
};

bcast_status infer(bcast_semantics sem, const Case& c, std::vector<bcast_condition>* conds) {
    const bcast_pshape in[2] = {{1, c.a.size(), c.a.data()}, {1, c.b.size(), c.b.data()}};
    bcast_pdim out[BCAST_MAX_RANK];
    size_t n = 0, nc = 0;
    int32_t known = 0;
    return bcast_infer_partial_shape(sem, BCAST_RULE_NUMPY, -1, 2, in, BCAST_MAX_RANK, out, &n,
                                     &known, conds->size(), conds->data(), &nc);
}

}  // namespace

int main(int argc, char** argv) {
    bench::Budget budget;
    budget.total_ns = 3e8;
    bool smoke = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0) {
            smoke = true;
        } else if (std::strcmp(argv[i], "--budget-ms") == 0 && i + 1 < argc) {
            budget.total_ns = std::atof(argv[++i]) * 1e6;
        } else {
            std::fprintf(stderr, "usage: %s [--budget-ms N] [--smoke]\n", argv[0]);
            return 2;
        }
    }
    if (smoke) {
        budget.total_ns = 1e6;
        budget.min_rounds = 1;
    }
    const bcast_pdim n{0, U, "N"}, m{0, U, "M"}, q{0, U, nullptr}, one{1, 1, nullptr};
    const auto k = [](int64_t v) { return bcast_pdim{v, v, nullptr}; };
    const bcast_pdim r{1, 512, nullptr};
    const Case cases[] = {
        {"static (2,3,4,5,6,7,8,9)+(1,3,1,5,1,7,1,9)",
         {k(2), k(3), k(4), k(5), k(6), k(7), k(8), k(9)},
         {one, k(3), one, k(5), one, k(7), one, k(9)}},
        {"(N,3,?,5,1..512,7,8,M)+(M,1,4,?,1,7,N,1)",
         {n, k(3), q, k(5), r, k(7), k(8), m},
         {m, one, k(4), q, one, k(7), n, one}},
        {"(N,?,?,?,?,?,?,?)+(M,?,?,?,?,?,?,?)", {n, q, q, q, q, q, q, q}, {m, q, q, q, q, q, q, q}},
    };
    std::vector<bcast_condition> conds(BCAST_MAX_CONDITIONS);
    std::printf("| shapes | strict | onnx | openvino | static bcast_infer_shape |\n");
    std::printf("| --- | --- | --- | --- | --- |\n");
    for (const Case& c : cases) {
        for (bcast_semantics s : {BCAST_SEMANTICS_STRICT, BCAST_SEMANTICS_ONNX, BCAST_SEMANTICS_OPENVINO})
            if (infer(s, c, &conds) != BCAST_OK) {
                std::fprintf(stderr, "%s: refused: %s\n", c.name, bcast_last_error());
                return 1;
            }
        int64_t sa[8], sb[8];  // the lower bounds (1s where unknown) for scale
        for (int i = 0; i < 8; ++i) {
            sa[i] = c.a[i].lo ? c.a[i].lo : 1;
            sb[i] = c.b[i].lo ? c.b[i].lo : 1;
        }
        std::vector<bench::Batch> variants;
        for (bcast_semantics s : {BCAST_SEMANTICS_STRICT, BCAST_SEMANTICS_ONNX, BCAST_SEMANTICS_OPENVINO})
            variants.push_back(bench::repeated([&, s] { infer(s, c, &conds); }));
        variants.push_back(bench::repeated([&] {
            const size_t ranks[2] = {8, 8};
            const int64_t* dims[2] = {sa, sb};
            size_t rank = 0;
            int64_t out[BCAST_MAX_RANK];
            bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK, &rank, out);
        }));
        const bench::Interleaved t = bench::run_interleaved(variants, budget);
        std::printf("| %s |", c.name);
        for (std::size_t v = 0; v < variants.size(); ++v)
            std::printf(" %.2f us |", t.stats(v).median_ns / 1000.0);
        std::printf("\n");
    }
    return 0;
}
