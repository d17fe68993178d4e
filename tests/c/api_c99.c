/*
 * The bcast C API used as a plain C99 program would use it: versions, shape
 * inference, the create/set_param/plan/execute/describe/destroy cycle, and
 * the error paths. Every expected value is computed here, independently.
 *
 * Prints one line per failure and "c99: N passed, M failed" at the end; the
 * exit status is non-zero if anything failed.
 */
#include <bcast/bcast.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int g_passed = 0;
static int g_failed = 0;

static void check(int ok, const char* what, int line) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        printf("FAIL line %d: %s\n", line, what);
        fflush(stdout);
    }
}
#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)

static int shape_eq(size_t rank, const int64_t* dims, size_t want_rank, const int64_t* want) {
    size_t i;
    if (rank != want_rank) return 0;
    for (i = 0; i < rank; ++i)
        if (dims[i] != want[i]) return 0;
    return 1;
}

/* Output shape of a two-input rule; returns the status, shape in out/out_rank. */
static bcast_status infer2(bcast_rule rule, int64_t axis, size_t ra, const int64_t* a,
                           size_t rb, const int64_t* b, size_t* out_rank, int64_t* out) {
    size_t ranks[2];
    const int64_t* dims[2];
    ranks[0] = ra;
    ranks[1] = rb;
    dims[0] = a;
    dims[1] = b;
    return bcast_infer_shape(rule, axis, 2, ranks, dims, BCAST_MAX_RANK, out_rank, out);
}

static void test_version(void) {
    char want[64];
    CHECK(bcast_version() == BCAST_VERSION_NUMBER);
    CHECK(bcast_version() / 10000u == BCAST_VERSION_MAJOR);
    CHECK(BCAST_VERSION_NUMBER == 10400);
    sprintf(want, "%d.%d.%d", BCAST_VERSION_MAJOR, BCAST_VERSION_MINOR, BCAST_VERSION_PATCH);
    CHECK(bcast_version_string() != NULL);
    CHECK(bcast_version_string() != NULL && strcmp(bcast_version_string(), want) == 0);
}

static void test_types_and_names(void) {
    const char* isa = bcast_isa();
    CHECK(sizeof(bcast_status) == 4);
    CHECK(sizeof(bcast_rule) == 4);
    CHECK(sizeof(bcast_dtype) == 4);
    CHECK(sizeof(bcast_opcode) == 4);
    CHECK(BCAST_OK == 0 && BCAST_ERROR_INCOMPATIBLE_SHAPES == 2 && BCAST_ERROR_INTERNAL == 7);
    CHECK(BCAST_OP_RREMAINDER == 18 && BCAST_OP_COPY == 38);
    CHECK(strcmp(bcast_status_string(BCAST_OK), "BCAST_OK") == 0);
    CHECK(strcmp(bcast_status_string(BCAST_ERROR_INCOMPATIBLE_SHAPES),
                 "BCAST_ERROR_INCOMPATIBLE_SHAPES") == 0);
    CHECK(strcmp(bcast_status_string(BCAST_ERROR_SYSTEM), "BCAST_ERROR_SYSTEM") == 0);
    CHECK(strcmp(bcast_status_string(12345), "BCAST_ERROR_UNKNOWN") == 0);
    CHECK(strcmp(bcast_status_string(-1), "BCAST_ERROR_UNKNOWN") == 0);
    CHECK(bcast_last_error() != NULL);
    CHECK(bcast_dtype_size(BCAST_DTYPE_F32) == 4);
    CHECK(bcast_dtype_size(BCAST_DTYPE_F16) == 2);
    CHECK(bcast_dtype_size(BCAST_DTYPE_U64) == 8);
    CHECK(bcast_dtype_size(BCAST_DTYPE_BOOL) == 1);
    CHECK(bcast_dtype_size(999) == 0);
    CHECK(bcast_op_supports(BCAST_OP_ADD, BCAST_DTYPE_F32) == 1);
    CHECK(bcast_op_supports(BCAST_OP_ATAN2, BCAST_DTYPE_I32) == 0);
    CHECK(bcast_op_supports(BCAST_OP_LOGICAL_AND, BCAST_DTYPE_BOOL) == 1);
    CHECK(isa != NULL &&
          (strcmp(isa, "avx512") == 0 || strcmp(isa, "avx2") == 0 || strcmp(isa, "sse2") == 0 ||
           strcmp(isa, "neon") == 0 || strcmp(isa, "scalar") == 0));
}

static void test_infer_shape(void) {
    int64_t out[BCAST_MAX_RANK];
    size_t rank = 0;
    bcast_status st;

    /* numpy: (2,1,5) + (4,1) -> (2,4,5) */
    {
        const int64_t a[] = {2, 1, 5}, b[] = {4, 1}, want[] = {2, 4, 5};
        st = infer2(BCAST_RULE_NUMPY, -1, 3, a, 2, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, want));
    }
    /* numpy: (1,5,3) + (5,2,1,3) -> (5,2,5,3) */
    {
        const int64_t a[] = {1, 5, 3}, b[] = {5, 2, 1, 3}, want[] = {5, 2, 5, 3};
        st = infer2(BCAST_RULE_NUMPY, -1, 3, a, 4, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 4, want));
    }
    /* numpy, three inputs: (3,2,1,4) + (5,4) + () -> (3,2,5,4) */
    {
        const int64_t a[] = {3, 2, 1, 4}, b[] = {5, 4}, want[] = {3, 2, 5, 4};
        size_t ranks[3];
        const int64_t* dims[3];
        ranks[0] = 4;
        ranks[1] = 2;
        ranks[2] = 0;
        dims[0] = a;
        dims[1] = b;
        dims[2] = NULL;
        st = bcast_infer_shape(BCAST_RULE_NUMPY, -1, 3, ranks, dims, BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 4, want));
    }
    /* numpy: scalar + scalar -> scalar; 0 vs 1 gives 0 */
    {
        const int64_t a[] = {0, 3}, b[] = {1, 3}, want[] = {0, 3};
        rank = 99;
        st = infer2(BCAST_RULE_NUMPY, -1, 0, NULL, 0, NULL, &rank, out);
        CHECK(st == BCAST_OK && rank == 0);
        st = infer2(BCAST_RULE_NUMPY, -1, 2, a, 2, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 2, want));
    }
    /* pdpd: (2,3,4,5) + (3,1) axis 1 -> (2,3,4,5); default axis with (4,5) */
    {
        const int64_t a[] = {2, 3, 4, 5}, b[] = {3, 1}, c[] = {4, 5}, d[] = {1, 3};
        st = infer2(BCAST_RULE_PDPD, 1, 4, a, 2, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 4, a));
        st = infer2(BCAST_RULE_PDPD, -1, 4, a, 2, c, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 4, a));
        st = infer2(BCAST_RULE_PDPD, 0, 4, a, 2, d, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 4, a));
        /* (4,5) at axis 1 does not fit (3 vs 4) */
        st = infer2(BCAST_RULE_PDPD, 1, 4, a, 2, c, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        /* other negative axes are refused */
        st = infer2(BCAST_RULE_PDPD, -2, 4, a, 2, c, &rank, out);
        CHECK(st == BCAST_ERROR_INVALID_ARGUMENT);
    }
    /* pdpd: only B into A: (8,1,6,1) + (7,1,5) axis 1 refused */
    {
        const int64_t a[] = {8, 1, 6, 1}, b[] = {7, 1, 5};
        st = infer2(BCAST_RULE_PDPD, 1, 4, a, 3, b, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    }
    /* ncnn (numpy order): ncnn [2,3,4]+[4] is (4,3,2)+(4): B matches the
     * outermost extent and goes there -> (4,3,2). numpy would refuse. */
    {
        const int64_t a[] = {4, 3, 2}, b[] = {4}, b2[] = {2}, b3[] = {3};
        st = infer2(BCAST_RULE_NCNN, -1, 3, a, 1, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, a));
        st = infer2(BCAST_RULE_NUMPY, -1, 3, a, 1, b, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        /* [2,3,4]+[2]: 2 is not the outer extent -> innermost, like numpy */
        st = infer2(BCAST_RULE_NCNN, -1, 3, a, 1, b2, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, a));
        /* [2,3,4]+[3]: matches only h -> on w -> incompatible, an error */
        st = infer2(BCAST_RULE_NCNN, -1, 3, a, 1, b3, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    }
    /* ncnn: a 2-D operand goes on the outer axes: (4,3,2)+(4,3) -> (4,3,2) */
    {
        const int64_t a[] = {4, 3, 2}, b[] = {4, 3};
        st = infer2(BCAST_RULE_NCNN, -1, 3, a, 2, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, a));
    }
    /* ncnn rank growth: [2,3]+[1,1,1] -> [1,2,3], numpy order (3,2)+(1,1,1) -> (3,2,1) */
    {
        const int64_t a[] = {3, 2}, b[] = {1, 1, 1}, want[] = {3, 2, 1};
        st = infer2(BCAST_RULE_NCNN, -1, 2, a, 3, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, want));
    }
    /* ncnn: rank 5 refused */
    {
        const int64_t a[] = {1, 2, 3, 4, 5}, b[] = {5};
        st = infer2(BCAST_RULE_NCNN, -1, 5, a, 1, b, &rank, out);
        CHECK(st == BCAST_ERROR_INVALID_ARGUMENT);
    }
    /* none: [] vs [1] refused; identical accepted */
    {
        const int64_t a[] = {1}, c[] = {2, 3};
        st = infer2(BCAST_RULE_NONE, -1, 0, NULL, 1, a, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        st = infer2(BCAST_RULE_NONE, -1, 2, c, 2, c, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 2, c));
    }
    /* unidirectional: (3,1) into (2,3,4) fine; (2,3,4) into (3,1) not */
    {
        const int64_t a[] = {2, 3, 4}, b[] = {3, 1};
        st = infer2(BCAST_RULE_UNIDIRECTIONAL, -1, 3, a, 2, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, a));
        st = infer2(BCAST_RULE_UNIDIRECTIONAL, -1, 2, b, 3, a, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    }
    /* onnx legacy: (2,3,4,5)+(3,4) axis 1 ok, interior 1 does not stretch */
    {
        const int64_t a[] = {2, 3, 4, 5}, b[] = {3, 4}, c[] = {3, 1, 5};
        st = infer2(BCAST_RULE_ONNX_LEGACY, 1, 4, a, 2, b, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 4, a));
        st = infer2(BCAST_RULE_ONNX_LEGACY, 1, 4, a, 3, c, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    }
}

static void test_infer_expand(void) {
    int64_t out[BCAST_MAX_RANK];
    size_t rank = 0;
    bcast_status st;
    {
        const int64_t data[] = {3, 1}, target[] = {2, 1, 6}, want[] = {2, 3, 6};
        st = bcast_infer_expand_shape(BCAST_EXPAND_BIDIRECTIONAL, 2, data, 3, target, NULL, 0,
                                      -1, BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, want));
        /* one-directional numpy refuses a target 1 against data 3 */
        st = bcast_infer_expand_shape(BCAST_EXPAND_NUMPY, 2, data, 3, target, NULL, 0, -1,
                                      BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        /* pdpd at axis 1: a target 1 takes the data dim */
        st = bcast_infer_expand_shape(BCAST_EXPAND_PDPD, 2, data, 3, target, NULL, 0, 1,
                                      BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, want));
    }
    {
        const int64_t data[] = {1, 4, 1}, target[] = {1, 4}, want[] = {1, 4, 4};
        st = bcast_infer_expand_shape(BCAST_EXPAND_BIDIRECTIONAL, 3, data, 2, target, NULL, 0,
                                      -1, BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, want));
    }
    {
        const int64_t data[] = {3, 1}, target[] = {2, 3, 4};
        st = bcast_infer_expand_shape(BCAST_EXPAND_NUMPY, 2, data, 3, target, NULL, 0, -1,
                                      BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, target));
    }
    {
        const int64_t data[] = {2, 4}, target[] = {2, 3, 4}, map[] = {0, 2}, bad[] = {2, 0};
        st = bcast_infer_expand_shape(BCAST_EXPAND_EXPLICIT, 2, data, 3, target, map, 2, -1,
                                      BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_OK && shape_eq(rank, out, 3, target));
        /* unsorted mapping (a transpose) refused */
        st = bcast_infer_expand_shape(BCAST_EXPAND_EXPLICIT, 2, data, 3, target, bad, 2, -1,
                                      BCAST_MAX_RANK, &rank, out);
        CHECK(st != BCAST_OK);
        /* a mapping is only for EXPLICIT */
        st = bcast_infer_expand_shape(BCAST_EXPAND_NUMPY, 2, data, 3, target, map, 2, -1,
                                      BCAST_MAX_RANK, &rank, out);
        CHECK(st == BCAST_ERROR_INVALID_ARGUMENT);
    }
}

static void test_errors(void) {
    const int64_t a[] = {2, 3, 5}, b[] = {4, 5};
    int64_t out[BCAST_MAX_RANK];
    size_t rank = 77;
    size_t i;
    int untouched = 1;
    bcast_status st;
    const char* msg;

    for (i = 0; i < BCAST_MAX_RANK; ++i) out[i] = -7;
    st = infer2(BCAST_RULE_NUMPY, -1, 3, a, 2, b, &rank, out);
    msg = bcast_last_error();
    CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    CHECK(msg != NULL && msg[0] != '\0');
    CHECK(msg != NULL && strstr(msg, "numpy") != NULL);
    CHECK(msg != NULL && strstr(msg, "3") != NULL && strstr(msg, "4") != NULL);
    CHECK(rank == 77);
    for (i = 0; i < BCAST_MAX_RANK; ++i)
        if (out[i] != -7) untouched = 0;
    CHECK(untouched);
    /* a success does not clear the message */
    {
        const int64_t c[] = {2, 1, 5};
        st = infer2(BCAST_RULE_NUMPY, -1, 3, c, 2, b, &rank, out);
        CHECK(st == BCAST_OK && bcast_last_error()[0] != '\0');
    }

    /* invalid arguments */
    {
        size_t ranks[2];
        const int64_t* dims[2];
        const int64_t neg[] = {2, -1}, fits[] = {2, 1, 5};
        int64_t small[1];
        int64_t big[BCAST_MAX_RANK + 1];
        ranks[0] = 3;
        ranks[1] = 2;
        dims[0] = fits; /* (2,1,5) + (4,5) -> (2,4,5) */
        dims[1] = b;
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_OK);
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, NULL, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK, NULL, out) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(bcast_infer_shape(99, -1, 2, ranks, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 0, ranks, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        /* out_capacity too small: nothing written */
        small[0] = -7;
        rank = 77;
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, 1, &rank, small) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(small[0] == -7 && rank == 77);
        /* negative extent */
        dims[1] = neg;
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        /* rank BCAST_MAX_RANK + 1 refused, BCAST_MAX_RANK accepted */
        for (i = 0; i < BCAST_MAX_RANK + 1; ++i) big[i] = 1;
        ranks[0] = BCAST_MAX_RANK + 1;
        ranks[1] = 1;
        dims[0] = big;
        dims[1] = b;
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_ERROR_INVALID_ARGUMENT);
        ranks[0] = BCAST_MAX_RANK;
        CHECK(bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, BCAST_MAX_RANK, &rank, out) ==
              BCAST_OK && rank == BCAST_MAX_RANK && out[BCAST_MAX_RANK - 1] == 4);
    }
}

/* The full handle cycle: f32 ADD of A (2,1,4) and B (3,1) -> (2,3,4). */
static void test_op_cycle(void) {
    float a[2 * 1 * 4], b[3 * 1], out[2 * 3 * 4], sentinel = -12345.0f;
    const int64_t adims[] = {2, 1, 4}, bdims[] = {3, 1}, want[] = {2, 3, 4};
    size_t ranks[2];
    const int64_t* dims[2];
    const void* inputs[2];
    bcast_op* op = NULL;
    bcast_status st;
    int64_t value = -99, oshape[BCAST_MAX_RANK];
    size_t orank = 0, i, j, k;
    int all_ok = 1;

    for (i = 0; i < 8; ++i) a[i] = (float)i * 0.5f - 1.0f;
    for (i = 0; i < 3; ++i) b[i] = (float)(i + 1) * 100.0f;
    for (i = 0; i < 24; ++i) out[i] = sentinel;
    ranks[0] = 3;
    ranks[1] = 2;
    dims[0] = adims;
    dims[1] = bdims;
    inputs[0] = a;
    inputs[1] = b;

    st = bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op);
    CHECK(st == BCAST_OK && op != NULL);
    if (op == NULL) return;

    CHECK(bcast_op_get_param(op, BCAST_PARAM_RULE, &value) == BCAST_OK &&
          value == BCAST_RULE_NUMPY);
    CHECK(bcast_op_get_param(op, BCAST_PARAM_AXIS, &value) == BCAST_OK && value == -1);
    CHECK(bcast_op_set_param(op, BCAST_PARAM_RULE, BCAST_RULE_NUMPY) == BCAST_OK);
    /* a bad value is refused and leaves the op unchanged */
    CHECK(bcast_op_set_param(op, BCAST_PARAM_RULE, 42) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_set_param(op, 1234, 0) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_get_param(op, BCAST_PARAM_RULE, &value) == BCAST_OK &&
          value == BCAST_RULE_NUMPY);

    /* no plan yet */
    CHECK(bcast_op_execute(op, inputs, out) == BCAST_ERROR_INVALID_STATE);
    CHECK(bcast_op_output_shape(op, BCAST_MAX_RANK, &orank, oshape) ==
          BCAST_ERROR_INVALID_STATE);
    CHECK(out[0] == sentinel);
    {
        char buf[512];
        size_t n = bcast_op_describe(op, buf, sizeof buf);
        CHECK(n > 0 && n < sizeof buf && strstr(buf, "\"planned\"") != NULL);
    }

    st = bcast_op_plan(op, 2, ranks, dims, NULL, NULL);
    CHECK(st == BCAST_OK);
    st = bcast_op_output_shape(op, BCAST_MAX_RANK, &orank, oshape);
    CHECK(st == BCAST_OK && shape_eq(orank, oshape, 3, want));
    /* too small a capacity */
    orank = 55;
    CHECK(bcast_op_output_shape(op, 2, &orank, oshape) == BCAST_ERROR_INVALID_ARGUMENT &&
          orank == 55);

    st = bcast_op_execute(op, inputs, out);
    CHECK(st == BCAST_OK);
    for (i = 0; i < 2; ++i)
        for (j = 0; j < 3; ++j)
            for (k = 0; k < 4; ++k) {
                const float expect = a[i * 4 + k] + b[j];
                if (out[(i * 3 + j) * 4 + k] != expect) {
                    printf("  ADD out[%u][%u][%u] = %g, expected %g\n", (unsigned)i,
                           (unsigned)j, (unsigned)k, (double)out[(i * 3 + j) * 4 + k],
                           (double)expect);
                    all_ok = 0;
                }
            }
    CHECK(all_ok);

    /* describe: snprintf semantics */
    {
        char small[8];
        char* big;
        size_t n = bcast_op_describe(op, NULL, 0), n2, n3;
        static char storage[1 << 16];
        CHECK(n > 0 && n < sizeof storage);
        if (n > 0 && n < sizeof storage) {
            big = storage;
            memset(big, 'Z', n + 8);
            n2 = bcast_op_describe(op, big, n + 1);
            CHECK(n2 == n && big[n] == '\0' && strlen(big) == n);
            CHECK(big[n + 1] == 'Z');
            CHECK(big[0] == '{' && big[n - 1] == '}');
            CHECK(strstr(big, "\"loops\"") != NULL);
            CHECK(strstr(big, "\"kernel\"") != NULL);
            memset(small, 'Z', sizeof small);
            n3 = bcast_op_describe(op, small, 5);
            CHECK(n3 == n && small[4] == '\0' && strncmp(small, big, 4) == 0 && small[5] == 'Z');
        }
        CHECK(bcast_op_describe(NULL, small, sizeof small) == 0);
    }

    /* an incompatible plan: status, message, and the op loses its plan */
    {
        const int64_t cdims[] = {2, 3, 5}, ddims[] = {4, 5};
        dims[0] = cdims;
        dims[1] = ddims;
        ranks[0] = 3;
        ranks[1] = 2;
        st = bcast_op_plan(op, 2, ranks, dims, NULL, NULL);
        CHECK(st == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        CHECK(strstr(bcast_last_error(), "numpy") != NULL);
        for (i = 0; i < 24; ++i) out[i] = sentinel;
        CHECK(bcast_op_execute(op, inputs, out) == BCAST_ERROR_INVALID_STATE);
        CHECK(out[0] == sentinel);
    }
    bcast_op_destroy(op);
}

/* PDPD with axis: MUL f32, A (2,3,4), B (3) at axis 1. Then a transposed
 * (strided) input, in-place execution, and COPY via plan_to. */
static void test_pdpd_strided_inplace(void) {
    bcast_op* op = NULL;
    float a[24], b[3], out[24];
    const int64_t adims[] = {2, 3, 4}, bdims[] = {3};
    size_t ranks[2];
    const int64_t* dims[2];
    const void* inputs[2];
    size_t i, j, k;
    int ok = 1;

    for (i = 0; i < 24; ++i) a[i] = (float)i - 7.0f;
    for (i = 0; i < 3; ++i) b[i] = (float)i + 2.0f;
    ranks[0] = 3;
    ranks[1] = 1;
    dims[0] = adims;
    dims[1] = bdims;
    inputs[0] = a;
    inputs[1] = b;
    CHECK(bcast_op_create(BCAST_OP_MUL, BCAST_DTYPE_F32, &op) == BCAST_OK);
    if (!op) return;
    CHECK(bcast_op_set_param(op, BCAST_PARAM_RULE, BCAST_RULE_PDPD) == BCAST_OK);
    CHECK(bcast_op_set_param(op, BCAST_PARAM_AXIS, 1) == BCAST_OK);
    CHECK(bcast_op_plan(op, 2, ranks, dims, NULL, NULL) == BCAST_OK);
    CHECK(bcast_op_execute(op, inputs, out) == BCAST_OK);
    for (i = 0; i < 2; ++i)
        for (j = 0; j < 3; ++j)
            for (k = 0; k < 4; ++k)
                if (out[(i * 3 + j) * 4 + k] != a[(i * 3 + j) * 4 + k] * b[j]) ok = 0;
    CHECK(ok);
    /* the numpy rule refuses the same pair: (2,3,4) vs (3) */
    CHECK(bcast_op_set_param(op, BCAST_PARAM_RULE, BCAST_RULE_NUMPY) == BCAST_OK);
    CHECK(bcast_op_plan(op, 2, ranks, dims, NULL, NULL) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    bcast_op_destroy(op);
    op = NULL;

    /* SUB with a transposed A: storage t is (4,3) row-major; A = t.T is (3,4)
     * with element strides (1,3). B is (4). out = A - B. */
    {
        float t[12], bb[4], o[12];
        const int64_t ad[] = {3, 4}, bd[] = {4}, astr[] = {1, 3};
        const int64_t* strides[2];
        strides[0] = astr;
        strides[1] = NULL;
        for (i = 0; i < 12; ++i) t[i] = (float)(i * i) * 0.25f;
        for (i = 0; i < 4; ++i) bb[i] = (float)i * 10.0f;
        ranks[0] = 2;
        ranks[1] = 1;
        dims[0] = ad;
        dims[1] = bd;
        inputs[0] = t;
        inputs[1] = bb;
        CHECK(bcast_op_create(BCAST_OP_SUB, BCAST_DTYPE_F32, &op) == BCAST_OK);
        if (!op) return;
        CHECK(bcast_op_plan(op, 2, ranks, dims, strides, NULL) == BCAST_OK);
        CHECK(bcast_op_execute(op, inputs, o) == BCAST_OK);
        ok = 1;
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 4; ++j)
                if (o[i * 4 + j] != t[j * 3 + i] - bb[j]) ok = 0;
        CHECK(ok);
        bcast_op_destroy(op);
        op = NULL;
    }

    /* in place: x (2,3) += y (3), output == input 0 */
    {
        double x[6], y[3], orig[6];
        const int64_t xd[] = {2, 3}, yd[] = {3};
        for (i = 0; i < 6; ++i) x[i] = orig[i] = (double)i * 1.5;
        for (i = 0; i < 3; ++i) y[i] = (double)i - 0.25;
        ranks[0] = 2;
        ranks[1] = 1;
        dims[0] = xd;
        dims[1] = yd;
        inputs[0] = x;
        inputs[1] = y;
        CHECK(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F64, &op) == BCAST_OK);
        if (!op) return;
        CHECK(bcast_op_plan(op, 2, ranks, dims, NULL, NULL) == BCAST_OK);
        CHECK(bcast_op_execute(op, inputs, x) == BCAST_OK);
        ok = 1;
        for (i = 0; i < 6; ++i)
            if (x[i] != orig[i] + y[i % 3]) ok = 0;
        CHECK(ok);
        /* partial overlap is refused and nothing is written */
        for (i = 0; i < 6; ++i) x[i] = orig[i];
        inputs[0] = x;
        CHECK(bcast_op_execute(op, inputs, x + 1) == BCAST_ERROR_INVALID_ARGUMENT);
        ok = 1;
        for (i = 0; i < 6; ++i)
            if (x[i] != orig[i]) ok = 0;
        CHECK(ok);
        bcast_op_destroy(op);
        op = NULL;
    }

    /* COPY via plan_to, bidirectional: data (3,1) to target (2,1,4) -> (2,3,4) */
    {
        int32_t data[3], o[24];
        const int64_t dd[] = {3, 1}, target[] = {2, 1, 4}, want[] = {2, 3, 4};
        int64_t oshape[BCAST_MAX_RANK];
        size_t orank = 0;
        for (i = 0; i < 3; ++i) data[i] = (int32_t)(i * 7) - 3;
        ranks[0] = 2;
        dims[0] = dd;
        inputs[0] = data;
        CHECK(bcast_op_create(BCAST_OP_COPY, BCAST_DTYPE_I32, &op) == BCAST_OK);
        if (!op) return;
        CHECK(bcast_op_set_param(op, BCAST_PARAM_EXPAND_MODE, BCAST_EXPAND_BIDIRECTIONAL) ==
              BCAST_OK);
        CHECK(bcast_op_plan_to(op, 1, ranks, dims, NULL, 3, target, NULL, 0, NULL) == BCAST_OK);
        CHECK(bcast_op_output_shape(op, BCAST_MAX_RANK, &orank, oshape) == BCAST_OK &&
              shape_eq(orank, oshape, 3, want));
        CHECK(bcast_op_execute(op, inputs, o) == BCAST_OK);
        ok = 1;
        for (i = 0; i < 24; ++i)
            if (o[i] != data[(i / 4) % 3]) ok = 0;
        CHECK(ok);
        bcast_op_destroy(op);
        op = NULL;
    }
}

static void test_create_errors(void) {
    bcast_op* op = (bcast_op*)0;
    bcast_op* const marker = (bcast_op*)&g_passed;
    op = marker;
    CHECK(bcast_op_create(BCAST_OP_ATAN2, BCAST_DTYPE_I32, &op) == BCAST_ERROR_UNSUPPORTED);
    CHECK(op == marker);
    CHECK(bcast_op_create(9999, BCAST_DTYPE_F32, &op) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_create(BCAST_OP_ADD, 9999, &op) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(op == marker);
    CHECK(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, NULL) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_set_param(NULL, BCAST_PARAM_RULE, 0) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_execute(NULL, NULL, NULL) != BCAST_OK);
    CHECK(bcast_set_max_isa(NULL) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_set_max_isa("no-such-isa") == BCAST_ERROR_INVALID_ARGUMENT);
    bcast_op_destroy(NULL);
    CHECK(1); /* still alive after bcast_op_destroy(NULL) */
}

/* Integer semantics in C: DIV truncates, FLOOR_DIVIDE floors, MOD has the
 * divisor's sign, division by zero gives 0, INT_MIN / -1 wraps. */
static void test_int_division(void) {
    int32_t x[6] = {7, -7, 7, -7, 5, INT32_MIN};
    int32_t y[6] = {2, 2, -2, -2, 0, -1};
    int32_t o[6];
    const int32_t want_div[6] = {3, -3, -3, 3, 0, INT32_MIN};
    const int32_t want_fdiv[6] = {3, -4, -4, 3, 0, INT32_MIN};
    const int32_t want_mod[6] = {1, 1, -1, -1, 0, 0};
    const int32_t want_fmod[6] = {1, -1, 1, -1, 0, 0};
    const bcast_opcode ops[4] = {BCAST_OP_DIV, BCAST_OP_FLOOR_DIVIDE, BCAST_OP_MOD, BCAST_OP_FMOD};
    const int32_t* wants[4];
    const int64_t d[] = {6};
    size_t ranks[2] = {1, 1};
    const int64_t* dims[2];
    const void* inputs[2];
    int t, i;
    wants[0] = want_div;
    wants[1] = want_fdiv;
    wants[2] = want_mod;
    wants[3] = want_fmod;
    dims[0] = d;
    dims[1] = d;
    inputs[0] = x;
    inputs[1] = y;
    for (t = 0; t < 4; ++t) {
        bcast_op* op = NULL;
        int ok = 1;
        CHECK(bcast_op_create(ops[t], BCAST_DTYPE_I32, &op) == BCAST_OK);
        if (!op) continue;
        CHECK(bcast_op_plan(op, 2, ranks, dims, NULL, NULL) == BCAST_OK);
        CHECK(bcast_op_execute(op, inputs, o) == BCAST_OK);
        for (i = 0; i < 6; ++i)
            if (o[i] != wants[t][i]) {
                printf("  op %d: %d ? %d = %d, expected %d\n", (int)ops[t], (int)x[i], (int)y[i],
                       (int)o[i], (int)wants[t][i]);
                ok = 0;
            }
        CHECK(ok);
        bcast_op_destroy(op);
    }
}

/* MAX propagates NaN from either side (f32). */
static void test_nan_max(void) {
    float x[3], y[3], o[3];
    const int64_t d[] = {3};
    size_t ranks[2] = {1, 1};
    const int64_t* dims[2];
    const void* inputs[2];
    bcast_op* op = NULL;
    x[0] = (float)NAN;
    x[1] = 1.0f;
    x[2] = -2.0f;
    y[0] = 1.0f;
    y[1] = (float)NAN;
    y[2] = 3.0f;
    dims[0] = d;
    dims[1] = d;
    inputs[0] = x;
    inputs[1] = y;
    CHECK(bcast_op_create(BCAST_OP_MAX, BCAST_DTYPE_F32, &op) == BCAST_OK);
    if (!op) return;
    CHECK(bcast_op_plan(op, 2, ranks, dims, NULL, NULL) == BCAST_OK);
    CHECK(bcast_op_execute(op, inputs, o) == BCAST_OK);
    CHECK(isnan(o[0]) && isnan(o[1]) && o[2] == 3.0f);
    bcast_op_destroy(op);
}

/* A fused expression from C: y = (x - m) * s over (2,3) with per-row
 * (2,1) m and s, against values worked out by hand. */
static void test_expression(void) {
    bcast_expr* e = NULL;
    size_t ops[2], diff = 0, out = 0, rank = 0;
    const int64_t xs[2] = {2, 3}, ps[2] = {2, 1};
    const size_t ranks[3] = {2, 2, 2};
    const int64_t* dims[3];
    const float x[6] = {1, 2, 3, 4, 5, 6}, m[2] = {1, 4}, sc[2] = {2, -1};
    const void* in[3];
    float y[6];
    int64_t od[4];
    dims[0] = xs;
    dims[1] = ps;
    dims[2] = ps;
    in[0] = x;
    in[1] = m;
    in[2] = sc;
    CHECK(bcast_expr_create(BCAST_DTYPE_F32, 3, &e) == BCAST_OK);
    ops[0] = 0;
    ops[1] = 1;
    CHECK(bcast_expr_add_node(e, BCAST_OP_SUB, BCAST_RULE_NUMPY, -1, 2, ops, &diff) == BCAST_OK);
    ops[0] = diff;
    ops[1] = 2;
    CHECK(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_NUMPY, -1, 2, ops, &out) == BCAST_OK);
    CHECK(diff == 3 && out == 4);
    CHECK(bcast_expr_plan(e, 3, ranks, dims, NULL, NULL) == BCAST_OK);
    CHECK(bcast_expr_output_shape(e, 4, &rank, od) == BCAST_OK);
    CHECK(rank == 2 && od[0] == 2 && od[1] == 3);
    CHECK(bcast_expr_execute(e, in, y) == BCAST_OK);
    CHECK(y[0] == 0.f && y[1] == 2.f && y[2] == 4.f);
    CHECK(y[3] == 0.f && y[4] == -1.f && y[5] == -2.f);
    ops[1] = 9;
    CHECK(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, NULL) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    bcast_expr_destroy(e);
}

/* Since 1.3: the library names its values; a C user lists them by looping to
 * the first NULL and reads a name back in any case. */
static void test_value_names(void) {
    bcast_opcode op = -1;
    bcast_dtype dt = -1, out_dt = -1;
    bcast_rule rule = -1;
    bcast_expand_mode mode = -1;
    int32_t count = 0;
    CHECK(strcmp(bcast_opcode_name(BCAST_OP_SQUARED_DIFFERENCE), "SQUARED_DIFFERENCE") == 0);
    CHECK(strcmp(bcast_dtype_name(BCAST_DTYPE_U16), "u16") == 0);
    CHECK(strcmp(bcast_rule_name(BCAST_RULE_UNIDIRECTIONAL), "unidirectional") == 0);
    CHECK(strcmp(bcast_expand_mode_name(BCAST_EXPAND_EXPLICIT), "explicit") == 0);
    for (op = 0; bcast_opcode_name(op); ++op) ++count;
    CHECK(count == BCAST_OP_COPY + 1);
    CHECK(bcast_opcode_name(-1) == NULL && bcast_dtype_name(BCAST_DTYPE_BOOL + 1) == NULL);
    CHECK(bcast_rule_name(BCAST_RULE_NCNN + 1) == NULL);
    CHECK(bcast_expand_mode_name(BCAST_EXPAND_PDPD + 1) == NULL);
    CHECK(bcast_opcode_from_name("logaddexp", &op) == BCAST_OK && op == BCAST_OP_LOGADDEXP);
    CHECK(bcast_dtype_from_name("BF16", &dt) == BCAST_OK && dt == BCAST_DTYPE_BF16);
    CHECK(bcast_rule_from_name("Onnx_Legacy", &rule) == BCAST_OK && rule == BCAST_RULE_ONNX_LEGACY);
    CHECK(bcast_expand_mode_from_name("pdpd", &mode) == BCAST_OK && mode == BCAST_EXPAND_PDPD);
    CHECK(bcast_opcode_from_name("nope", &op) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(op == BCAST_OP_LOGADDEXP);
    CHECK(strstr(bcast_last_error(), "'nope'") != NULL);
    CHECK(bcast_dtype_from_name(NULL, &dt) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_rule_from_name("numpy", NULL) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_output_dtype(BCAST_OP_GREATER, BCAST_DTYPE_I32, &out_dt) == BCAST_OK);
    CHECK(out_dt == BCAST_DTYPE_BOOL);
    CHECK(bcast_op_output_dtype(BCAST_OP_SUB, BCAST_DTYPE_I32, &out_dt) == BCAST_OK);
    CHECK(out_dt == BCAST_DTYPE_I32);
    CHECK(bcast_op_output_dtype(BCAST_OP_ATAN2, BCAST_DTYPE_I32, &out_dt) == BCAST_ERROR_UNSUPPORTED);
    CHECK(out_dt == BCAST_DTYPE_I32);
}

/* Partial shapes (1.3): (N,3) + (M,3) under strict is (?,3) with the clause
 * "N == 1 or M == 1 or N == M", which then decides static shapes. */
static void test_partial_shapes(void) {
    bcast_pdim a_dims[2], b_dims[2], out[BCAST_MAX_RANK];
    bcast_pshape in[2];
    bcast_condition conds[8];
    size_t out_n = 99, n_conds = 99, ranks[2] = {2, 2};
    int32_t rank_known = -1, holds = -1;
    int64_t s0[2] = {4, 3}, s1[2] = {1, 3}, s2[2] = {5, 3};
    const int64_t* dims[2];
    char text[128];
    size_t len;
    a_dims[0].lo = 0; a_dims[0].hi = BCAST_DIM_UNBOUNDED; a_dims[0].symbol = "N";
    a_dims[1].lo = 3; a_dims[1].hi = 3; a_dims[1].symbol = NULL;
    b_dims[0].lo = 0; b_dims[0].hi = BCAST_DIM_UNBOUNDED; b_dims[0].symbol = "M";
    b_dims[1] = a_dims[1];
    in[0].rank_known = 1; in[0].num_dims = 2; in[0].dims = a_dims;
    in[1].rank_known = 1; in[1].num_dims = 2; in[1].dims = b_dims;
    CHECK(bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, BCAST_RULE_NUMPY, -1, 2, in,
                                    BCAST_MAX_RANK, out, &out_n, &rank_known, 8, conds,
                                    &n_conds) == BCAST_OK);
    CHECK(out_n == 2 && rank_known == 1);
    CHECK(out[0].lo == 0 && out[0].hi == BCAST_DIM_UNBOUNDED && out[0].symbol == NULL);
    CHECK(out[1].lo == 3 && out[1].hi == 3);
    CHECK(n_conds == 3 && conds[0].clause == 0 && conds[2].clause == 0);
    len = bcast_conditions_format(n_conds, conds, 2, in, text, sizeof text);
    CHECK(len == strlen("N == 1 or M == 1 or N == M"));
    CHECK(strcmp(text, "N == 1 or M == 1 or N == M") == 0);
    dims[0] = s0;
    dims[1] = s1;
    CHECK(bcast_conditions_hold(n_conds, conds, 2, ranks, dims, &holds) == BCAST_OK && holds == 1);
    dims[1] = s2;
    CHECK(bcast_conditions_hold(n_conds, conds, 2, ranks, dims, &holds) == BCAST_OK && holds == 0);
    /* ONNX: the two params differ, so the dim is unknown; no conditions. */
    CHECK(bcast_infer_partial_shape(BCAST_SEMANTICS_ONNX, BCAST_RULE_NUMPY, -1, 2, in,
                                    BCAST_MAX_RANK, out, &out_n, &rank_known, 0, NULL,
                                    &n_conds) == BCAST_OK);
    CHECK(n_conds == 0 && out[0].symbol == NULL);
    /* Too little room for the conditions: refused, nothing written. */
    out_n = 77;
    CHECK(bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, BCAST_RULE_NUMPY, -1, 2, in,
                                    BCAST_MAX_RANK, out, &out_n, &rank_known, 2, conds,
                                    &n_conds) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(out_n == 77 && strstr(bcast_last_error(), "3 condition atoms") != NULL);
    /* The output symbol is the caller's own string. */
    b_dims[0].symbol = "N";
    CHECK(bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, BCAST_RULE_NUMPY, -1, 2, in,
                                    BCAST_MAX_RANK, out, &out_n, &rank_known, 8, conds,
                                    &n_conds) == BCAST_OK);
    CHECK(n_conds == 0 && out[0].symbol == a_dims[0].symbol);
    /* (4..10) + (3): no value of the interval broadcasts with 3. */
    a_dims[0].lo = 4; a_dims[0].hi = 10; a_dims[0].symbol = NULL;
    in[0].num_dims = 1;
    in[1].num_dims = 1;
    b_dims[0].lo = 3; b_dims[0].hi = 3; b_dims[0].symbol = NULL;
    CHECK(bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, BCAST_RULE_NUMPY, -1, 2, in,
                                    BCAST_MAX_RANK, out, &out_n, &rank_known, 8, conds,
                                    &n_conds) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    CHECK(strstr(bcast_last_error(), "3 vs 4..10") != NULL);
}

int main(void) {
    test_version();
    test_expression();
    test_types_and_names();
    test_value_names();
    test_infer_shape();
    test_infer_expand();
    test_errors();
    test_op_cycle();
    test_pdpd_strided_inplace();
    test_create_errors();
    test_int_division();
    test_nan_max();
    test_partial_shapes();
    printf("c99: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
