/* A network for net_firmware_main.c: the layer table gen_net_firmware.py writes. */
#ifndef NET_FIRMWARE_MAIN_H
#define NET_FIRMWARE_MAIN_H

#include <stdint.h>

enum { LAYER_CONV, LAYER_DW, LAYER_AVGPOOL };

typedef struct {
    const char *name; /* also the trace region */
    int kind;
    const int8_t *in;
    const int8_t *w;   /* HWCF (conv; fully connected: [K][N]) or HWC (depthwise) */
    const int32_t *b;  /* [cout] */
    const int32_t *m;  /* [cout] (avg pool: [1]) */
    const int32_t *s;  /* [cout] (avg pool: [1]) */
    const int8_t *res; /* residual input or NULL */
    int8_t *out;
    const int8_t *expected; /* the generator's activation */
    uint32_t h, w_, cin, cout, kh, kw, stride, pt, pl, pb, pr;
    int32_t act_min, res_mult, res_shift;
    uint32_t macs;
} net_layer;

extern const char *const net_name;
extern const uint64_t net_macs;
extern const net_layer *const net_layers;
extern const unsigned net_layer_count;

#endif
