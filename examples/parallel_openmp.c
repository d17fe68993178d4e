/* One op on every core through the caller's own pool: here OpenMP's.
 * bcast_op_task_count says into how many tasks the planned op splits (1 when
 * it is too small to gain), and each task is one bcast_op_execute_task call;
 * together they write what bcast_op_execute writes, bit for bit.
 * Build: cc -fopenmp parallel_openmp.c $(pkg-config --cflags --libs bcast) */
#include <bcast/bcast.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    /* (1024, 4096) + (4096): a row added to every row, 32 MiB moved. */
    const int64_t a_dims[] = {1024, 4096}, b_dims[] = {4096};
    const size_t ranks[] = {2, 1};
    const int64_t* dims[] = {a_dims, b_dims};
    const size_t n_out = 1024 * 4096;
    float* a = malloc(n_out * sizeof *a);
    float* b = malloc(4096 * sizeof *b);
    float* out = malloc(n_out * sizeof *out);
    float* serial = malloc(n_out * sizeof *serial);
    const void* inputs[2];
    bcast_op* op = NULL;
    size_t tasks = 0, i;
    int failed = 0;

    if (!a || !b || !out || !serial) return 1;
    for (i = 0; i < n_out; ++i) a[i] = (float)(i % 1000) * 0.5f;
    for (i = 0; i < 4096; ++i) b[i] = (float)i * 0.25f;
    inputs[0] = a;
    inputs[1] = b;

    if (bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op) != BCAST_OK ||
        bcast_op_plan(op, 2, ranks, dims, NULL, NULL) != BCAST_OK ||
        bcast_op_task_count(op, (size_t)omp_get_max_threads(), &tasks) != BCAST_OK) {
        fprintf(stderr, "bcast: %s\n", bcast_last_error());
        return 1;
    }

    /* Each task checks the buffers and returns a status; count failures. */
#pragma omp parallel for reduction(+ : failed)
    for (i = 0; i < tasks; ++i) {
        if (bcast_op_execute_task(op, inputs, out, i, tasks) != BCAST_OK) ++failed;
    }

    if (bcast_op_execute(op, inputs, serial) != BCAST_OK) failed = 1;
    printf("%zu tasks on %d OpenMP threads, %s bcast_op_execute\n", tasks,
           omp_get_max_threads(),
           !failed && memcmp(out, serial, n_out * sizeof *out) == 0 ? "identical to"
                                                                    : "DIFFERENT from");
    bcast_op_destroy(op);
    free(a);
    free(b);
    free(out);
    free(serial);
    return failed;
}
