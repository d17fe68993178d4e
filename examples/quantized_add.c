/* examples/quantized_add.c */
#include <bcast/bcast.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
    /* y = QuantizeLinear(DequantizeLinear(a) + DequantizeLinear(b)): a is
     * (2, 3), b one value per column, all u8 with their own scale and zero point. */
    const uint8_t a[6] = {0, 64, 128, 192, 255, 130}, b[3] = {100, 128, 200};
    uint8_t y[6];
    const int64_t a_dims[] = {2, 3}, b_dims[] = {3};
    const int64_t* dims[] = {a_dims, b_dims};
    const size_t ranks[] = {2, 1};
    const void* inputs[] = {a, b};
    bcast_op* op = NULL;
    if (bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_U8, &op) != BCAST_OK ||
        bcast_op_set_quantization(op, 0, 0.02f, 128) != BCAST_OK ||
        bcast_op_set_quantization(op, 1, 0.05f, 128) != BCAST_OK ||
        bcast_op_set_quantization(op, BCAST_OUTPUT, 0.04f, 128) != BCAST_OK ||
        bcast_op_plan(op, 2, ranks, dims, NULL, NULL) != BCAST_OK ||
        bcast_op_execute(op, inputs, y) != BCAST_OK) {
        fprintf(stderr, "%s\n", bcast_last_error());
        bcast_op_destroy(op);
        return 1;
    }
    for (int i = 0; i < 6; ++i) printf("%d%c", y[i], i % 3 == 2 ? '\n' : ' ');
    bcast_op_destroy(op);
    return 0;
}
