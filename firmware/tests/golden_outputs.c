/* Known values in one output buffer per element type, for npusim's golden
 * comparison (npusim --manifest). tests/firmware/run_golden_test.py reads the
 * buffers' addresses from the ELF, writes a manifest + golden.bin from the
 * same formulas, and checks that npusim compares every element (and catches
 * a planted difference). GOLDEN_EXIT_CODE != 0 ends the run with that code
 * instead: the outputs must then not be compared. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#ifndef GOLDEN_EXIT_CODE
#define GOLDEN_EXIT_CODE 0
#endif

/* Shapes: i8 4x10, i16 3x7, i32 3x5, i64 2x3, f32 2x8, f64 5 (keep in sync
 * with run_golden_test.py). */
__attribute__((used)) int8_t out_i8[4 * 10];
__attribute__((used)) int16_t out_i16[3 * 7];
__attribute__((used)) int32_t out_i32[3 * 5];
__attribute__((used)) int64_t out_i64[2 * 3];
__attribute__((used)) float out_f32[2 * 8];
__attribute__((used)) double out_f64[5];

int main(void) {
    for (int i = 0; i < 4 * 10; ++i) out_i8[i] = (int8_t)(i * 7 - 50);
    for (int i = 0; i < 3 * 7; ++i) out_i16[i] = (int16_t)(i * 300 - 3000);
    for (int i = 0; i < 3 * 5; ++i) out_i32[i] = i * 100003 - 7;
    for (int i = 0; i < 2 * 3; ++i) out_i64[i] = (int64_t)i * 0x100000001ll - 5;
    for (int i = 0; i < 2 * 8; ++i) out_f32[i] = (float)i * 0.25f - 1.5f;
    for (int i = 0; i < 5; ++i) out_f64[i] = (double)i * 0.125 - 2.0;
    printf("golden outputs written\n");
    return GOLDEN_EXIT_CODE;
}
