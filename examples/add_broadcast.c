#include <bcast/bcast.h>
#include <stdio.h>

int main(void) {
    /* out = a + b with numpy broadcasting: (2,1,3) + (4,1) -> (2,4,3) */
    float a[2 * 1 * 3] = {0, 1, 2, 10, 11, 12};
    float b[4 * 1] = {100, 200, 300, 400};
    float out[2 * 4 * 3];
    const int64_t a_dims[] = {2, 1, 3}, b_dims[] = {4, 1};
    const size_t ranks[] = {3, 2};
    const int64_t* dims[] = {a_dims, b_dims};
    const void* inputs[] = {a, b};
    int64_t out_dims[BCAST_MAX_RANK];
    size_t out_rank;
    bcast_op* op = NULL;
    bcast_status st;

    if (bcast_version() / 10000 != BCAST_VERSION_MAJOR) return 1;

    /* Shape inference alone, no handle. */
    st = bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK,
                           &out_rank, out_dims);
    if (st != BCAST_OK) {
        fprintf(stderr, "%s: %s\n", bcast_status_string(st), bcast_last_error());
        return 1;
    }
    printf("output rank %zu: (%lld,%lld,%lld)\n", out_rank, (long long)out_dims[0],
           (long long)out_dims[1], (long long)out_dims[2]);

    /* Create once, plan per shape, execute many times. */
    st = bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op);
    if (st == BCAST_OK) st = bcast_op_set_param(op, BCAST_PARAM_RULE, BCAST_RULE_NUMPY);
    if (st == BCAST_OK) st = bcast_op_plan(op, 2, ranks, dims, NULL, NULL); /* contiguous */
    if (st == BCAST_OK) st = bcast_op_execute(op, inputs, out);
    if (st != BCAST_OK) {
        fprintf(stderr, "%s: %s\n", bcast_status_string(st), bcast_last_error());
        bcast_op_destroy(op);
        return 1;
    }
    printf("out[1][3][2] = %g\n", out[(1 * 4 + 3) * 3 + 2]); /* 12 + 400 = 412 */
    bcast_op_destroy(op);

    /* A refusal: a status plus a message naming the rule, axis and extents. */
    {
        const int64_t c_dims[] = {2, 3, 5}, d_dims[] = {4, 5};
        const int64_t* bad[] = {c_dims, d_dims};
        st = bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, bad, BCAST_MAX_RANK,
                               &out_rank, out_dims);
        printf("%s: %s\n", bcast_status_string(st), bcast_last_error());
    }
    return 0;
}
