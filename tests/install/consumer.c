/* Built against an installed bcast (pkg-config, pkg-config --static, the CMake
 * package, the Debian packages): checks that the header matches the library
 * and that an op computes the right values. Exit 0 only if all holds. */
#include <bcast/bcast.h>
#include <stdio.h>
#include <string.h>

#define N0 2
#define N1 3
#define N2 40

static int failures = 0;

static void check(int ok, const char* what) {
    if (!ok) {
        fprintf(stderr, "consumer: FAILED: %s (%s)\n", what, bcast_last_error());
        failures++;
    }
}

/* out = a - b under Paddle's rule with axis 1: (2,3,40) - (3,1) -> (2,3,40). */
static void check_pdpd_sub(void) {
    static float a[N0 * N1 * N2], b[N1], out[N0 * N1 * N2];
    const int64_t a_dims[] = {N0, N1, N2}, b_dims[] = {N1, 1};
    const int64_t* dims[] = {a_dims, b_dims};
    const size_t ranks[] = {3, 2};
    const void* inputs[] = {a, b};
    int64_t out_dims[BCAST_MAX_RANK];
    size_t out_rank = 0, i, j, k;
    bcast_op* op = NULL;
    bcast_status st;

    for (i = 0; i < N0 * N1 * N2; i++) a[i] = (float)i;
    for (j = 0; j < N1; j++) b[j] = (float)(1000 * (j + 1));

    st = bcast_op_create(BCAST_OP_SUB, BCAST_DTYPE_F32, &op);
    if (st == BCAST_OK) st = bcast_op_set_param(op, BCAST_PARAM_RULE, BCAST_RULE_PDPD);
    if (st == BCAST_OK) st = bcast_op_set_param(op, BCAST_PARAM_AXIS, 1);
    if (st == BCAST_OK) st = bcast_op_plan(op, 2, ranks, dims, NULL, NULL);
    if (st == BCAST_OK) st = bcast_op_output_shape(op, BCAST_MAX_RANK, &out_rank, out_dims);
    if (st == BCAST_OK) st = bcast_op_execute(op, inputs, out);
    bcast_op_destroy(op);
    check(st == BCAST_OK, "pdpd SUB create/plan/execute");
    if (st != BCAST_OK) return;

    check(out_rank == 3 && out_dims[0] == N0 && out_dims[1] == N1 && out_dims[2] == N2,
          "pdpd output shape (2,3,40)");
    for (i = 0; i < N0; i++)
        for (j = 0; j < N1; j++)
            for (k = 0; k < N2; k++) {
                size_t at = (i * N1 + j) * N2 + k;
                if (out[at] != a[at] - b[j]) {
                    fprintf(stderr, "consumer: out[%zu][%zu][%zu] = %g, expected %g\n", i, j,
                            k, (double)out[at], (double)(a[at] - b[j]));
                    failures++;
                    return;
                }
            }
}

/* numpy refuses (2,3,5) with (4,5), naming the rule. */
static void check_refusal(void) {
    const int64_t a_dims[] = {2, 3, 5}, b_dims[] = {4, 5};
    const int64_t* dims[] = {a_dims, b_dims};
    const size_t ranks[] = {3, 2};
    int64_t out_dims[BCAST_MAX_RANK];
    size_t out_rank = 0;
    bcast_status st = bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK,
                                        &out_rank, out_dims);
    check(st == BCAST_ERROR_INCOMPATIBLE_SHAPES, "numpy refuses (2,3,5) + (4,5)");
    check(strstr(bcast_last_error(), "numpy") != NULL, "the refusal names the rule");
}

int main(void) {
    check(bcast_version() == BCAST_VERSION_NUMBER, "header version == library version");
    check(BCAST_VERSION_MAJOR == BCAST_ABI_VERSION, "major version == ABI version");
    check_pdpd_sub();
    check_refusal();
    if (failures) return 1;
    printf("bcast %s: consumer ok\n", bcast_version_string());
    return 0;
}
