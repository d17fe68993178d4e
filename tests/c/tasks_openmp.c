/* The tasks of one execute run by OpenMP threads (an engine's own pool),
 * in C: every kind below must equal bcast_op_execute byte for byte,
 * including the padding of an ncnn-style output, which stays untouched. */
#include <bcast/bcast.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                      \
    do {                                                                 \
        if (!(cond)) {                                                   \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", __FILE__,   \
                    __LINE__, #cond, bcast_last_error());                \
            ++failures;                                                  \
        }                                                                \
    } while (0)

/* Plans op over (rank a) + (rank b) with out_strides (NULL: contiguous),
 * runs it once serially and once as `tasks` tasks under OpenMP (more
 * tasks than threads too), and compares out_bytes bytes of both outputs. */
static void check(bcast_opcode opcode, size_t ra, const int64_t* a_dims, size_t a_elems,
                  size_t rb, const int64_t* b_dims, size_t b_elems,
                  const int64_t* out_strides, size_t out_bytes, size_t tasks, int in_place) {
    const size_t ranks[2] = {ra, rb};
    const int64_t* dims[2] = {a_dims, b_dims};
    float* a = malloc(a_elems * sizeof(float));
    float* a2 = malloc(a_elems * sizeof(float));
    float* b = malloc(b_elems * sizeof(float));
    unsigned char* serial = malloc(out_bytes);
    unsigned char* parallel = malloc(out_bytes);
    bcast_op* op = NULL;
    size_t i;
    int failed = 0;
    const void* inputs[2];

    for (i = 0; i < a_elems; ++i) a[i] = (float)((i * 7919) % 1009) - 500.0f;
    for (i = 0; i < b_elems; ++i) b[i] = (float)((i * 104729) % 613) * 0.5f;
    memcpy(a2, a, a_elems * sizeof(float));
    memset(serial, 0xA5, out_bytes);
    memset(parallel, 0xA5, out_bytes);

    CHECK(bcast_op_create(opcode, BCAST_DTYPE_F32, &op) == BCAST_OK);
    CHECK(bcast_op_plan(op, 2, ranks, dims, NULL, out_strides) == BCAST_OK);
    inputs[0] = a;
    inputs[1] = b;
    CHECK(bcast_op_execute(op, inputs, in_place ? (void*)a : serial) == BCAST_OK);
    inputs[0] = a2;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : failed)
    for (i = 0; i < tasks; ++i) {
        void* out = in_place ? (void*)a2 : (void*)parallel;
        if (bcast_op_execute_task(op, inputs, out, tasks - 1 - i, tasks) != BCAST_OK) ++failed;
    }
    CHECK(failed == 0);
    if (in_place) CHECK(memcmp(a, a2, a_elems * sizeof(float)) == 0);
    else CHECK(memcmp(serial, parallel, out_bytes) == 0);
    bcast_op_destroy(op);
    free(a);
    free(a2);
    free(b);
    free(serial);
    free(parallel);
}

int main(void) {
    const size_t counts[] = {1, 2, 3, 7, 64, 1000};
    size_t c;
    for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        const size_t n = counts[c];
        { /* vv */
            const int64_t d[] = {100003};
            check(BCAST_OP_ADD, 1, d, 100003, 1, d, 100003, NULL, 100003 * 4, n, 0);
        }
        { /* periodic: (20000, 3) + (3), in place */
            const int64_t a[] = {20000, 3}, b[] = {3};
            check(BCAST_OP_MUL, 2, a, 60000, 1, b, 3, NULL, 60000 * 4, n, 1);
        }
        { /* rows: (300, 1) - (1, 517): scalar-vector rows */
            const int64_t a[] = {300, 1}, b[] = {1, 517};
            check(BCAST_OP_SUB, 2, a, 300, 2, b, 517, NULL, 300 * 517 * 4, n, 0);
        }
        { /* ncnn cstep: (16, 13, 13) + (16, 1, 1) into channels padded to 176 */
            const int64_t a[] = {16, 13, 13}, b[] = {16, 1, 1}, os[] = {176, 13, 1};
            check(BCAST_OP_ADD, 3, a, 16 * 169, 3, b, 16, os, 16 * 176 * 4, n, 0);
        }
        { /* LESS with x repeated along rows (the plan exchanges to GREATER) */
            const int64_t a[] = {777}, b[] = {50, 777};
            check(BCAST_OP_LESS, 1, a, 777, 2, b, 50 * 777, NULL, 50 * 777, n, 0);
        }
    }
    printf("%s (%d OpenMP threads)\n", failures ? "FAILED" : "passed", omp_get_max_threads());
    return failures ? 1 : 0;
}
