#include <bcast/bcast.h>
#include <stdio.h>

int main(void) {
    /* (N, 3, 1..512) + (M, 3, 1): N and M are symbols, 1..512 an interval. */
    const bcast_pdim a[3] = {{0, BCAST_DIM_UNBOUNDED, "N"}, {3, 3, NULL}, {1, 512, NULL}};
    const bcast_pdim b[3] = {{0, BCAST_DIM_UNBOUNDED, "M"}, {3, 3, NULL}, {1, 1, NULL}};
    const bcast_pshape in[2] = {{1, 3, a}, {1, 3, b}};
    bcast_pdim out[BCAST_MAX_RANK];
    bcast_condition conds[BCAST_MAX_CONDITIONS];
    size_t rank, num_conds;
    int32_t rank_known;
    char text[256];
    if (bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, BCAST_RULE_NUMPY, -1, 2, in,
                                  BCAST_MAX_RANK, out, &rank, &rank_known, BCAST_MAX_CONDITIONS,
                                  conds, &num_conds) != BCAST_OK) {
        fprintf(stderr, "%s\n", bcast_last_error());
        return 1;
    }
    for (size_t i = 0; i < rank; ++i)
        printf("dim %zu: [%lld, %lld]%s%s\n", i, (long long)out[i].lo,
               out[i].hi == BCAST_DIM_UNBOUNDED ? -1LL : (long long)out[i].hi,
               out[i].symbol ? " " : "", out[i].symbol ? out[i].symbol : "");
    bcast_conditions_format(num_conds, conds, 2, in, text, sizeof text);
    printf("check at run time: %s\n", text);
    /* Once N = 4 and M = 1 are known: */
    {
        const int64_t x[3] = {4, 3, 7}, y[3] = {1, 3, 1};
        const int64_t* dims[2] = {x, y};
        const size_t ranks[2] = {3, 3};
        int32_t holds;
        bcast_conditions_hold(num_conds, conds, 2, ranks, dims, &holds);
        printf("(4,3,7) + (1,3,1): %s\n", holds ? "holds" : "fails");
    }
    return 0;
}
