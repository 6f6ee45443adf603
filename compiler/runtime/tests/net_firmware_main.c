/* Runs a gen_net_firmware.py network layer by layer on the npurt conv kernels
 * and compares every element of every layer's output with the generator's
 * activation (int8: exactly). Tiles: all output channels and the tallest row
 * tile whose working set fits the largest free L1 block (channels halved
 * while even one row does not fit) -- a stand-in for npuc's cost model. */
#include <stdio.h>

#include "net_firmware_main.h"
#include "npu.h"
#include "npurt.h"
#include "npurt_conv.h"

static uint32_t out_size(uint32_t in, uint32_t k, uint32_t s, uint32_t p0, uint32_t p1) {
    return (in + p0 + p1 - k) / s + 1u;
}

static uint32_t run_conv(const net_layer *L, uint32_t budget) {
    npurt_conv2d_args a = {L->in, L->w, L->b, L->m, L->s, L->res, L->out, L->h, L->w_, L->cin, L->cout, L->kh, L->kw,
                           L->stride, L->stride, 1, 1, L->pt, L->pl, L->pb, L->pr, L->act_min, 127, L->res_mult,
                           L->res_shift, out_size(L->h, L->kh, L->stride, L->pt, L->pb), L->cout,
                           NPURT_CONV_PER_CHANNEL, 0, NULL};
    while ((a.l1_bytes = npurt_conv2d_l1_bytes(&a)) > budget) {
        if (a.tile_oh > 1)
            --a.tile_oh;
        else if (a.tile_cout > 16)
            a.tile_cout = (a.tile_cout / 2 + 15u) / 16u * 16u;
        else
            break; /* the kernel reports it */
    }
    npurt_conv2d(&a);
    return a.l1_bytes;
}

static uint32_t run_dw(const net_layer *L, uint32_t budget) {
    npurt_dwconv2d_args a = {L->in, L->w, L->b, L->m, L->s, L->out, L->h, L->w_, L->cin, L->kh, L->kw, L->stride,
                             L->stride, 1, 1, L->pt, L->pl, L->pb, L->pr, L->act_min, 127,
                             out_size(L->h, L->kh, L->stride, L->pt, L->pb), NPURT_CONV_PER_CHANNEL, 0, NULL};
    while ((a.l1_bytes = npurt_dwconv2d_l1_bytes(&a)) > budget && a.tile_oh > 1) --a.tile_oh;
    npurt_dwconv2d(&a);
    return a.l1_bytes;
}

static uint32_t run_avgpool(const net_layer *L, uint32_t budget) {
    npurt_pool2d_args a = {L->in, L->out, L->h, L->w_, L->cin, L->kh, L->kw, L->kh, L->kw, 0, 0, 0, 0,
                           NPURT_POOL_AVG, L->m[0], L->s[0], -128, 127, 0.0f,
                           out_size(L->h, L->kh, L->kh, 0, 0), 0, 0, NULL};
    while ((a.l1_bytes = npurt_pool2d_l1_bytes(&a)) > budget && a.tile_oh > 1) --a.tile_oh;
    npurt_pool2d(&a);
    return a.l1_bytes;
}

int main(void) {
    /* The kernels allocate their block with npu_l1_malloc: stay a little
     * below the largest free block for the allocator's bookkeeping. */
    const uint32_t budget = (uint32_t)npu_l1_free_bytes() - 64u;
    uint64_t total = 0;
    uint32_t compared = 0, expected = 0, bad = 0;
    printf("%s on the npurt conv kernels: %u layers, L1 budget %lu B\n", net_name, net_layer_count,
           (unsigned long)budget);
    npurt_region_begin("network");
    for (unsigned i = 0; i < net_layer_count; ++i) {
        const net_layer *L = &net_layers[i];
        uint32_t n, l1;
        npurt_region_begin(L->name);
        const uint64_t t0 = npu_cycles();
        if (L->kind == LAYER_CONV) {
            n = out_size(L->h, L->kh, L->stride, L->pt, L->pb) * out_size(L->w_, L->kw, L->stride, L->pl, L->pr) *
                L->cout;
            l1 = run_conv(L, budget);
        } else if (L->kind == LAYER_DW) {
            n = out_size(L->h, L->kh, L->stride, L->pt, L->pb) * out_size(L->w_, L->kw, L->stride, L->pl, L->pr) *
                L->cout;
            l1 = run_dw(L, budget);
        } else {
            n = out_size(L->h, L->kh, L->kh, 0, 0) * out_size(L->w_, L->kw, L->kw, 0, 0) * L->cout;
            l1 = run_avgpool(L, budget);
        }
        const uint64_t c = npu_cycles() - t0;
        npurt_region_end(L->name);
        total += c;
        uint32_t wrong = 0;
        for (uint32_t k = 0; k < n; ++k) wrong += L->out[k] != L->expected[k];
        printf("  %-10s %8lu cycles  L1 %6lu B  %7lu MACs  compared %lu of %lu elements, %lu mismatches\n", L->name,
               (unsigned long)c, (unsigned long)l1, (unsigned long)L->macs, (unsigned long)n, (unsigned long)n,
               (unsigned long)wrong);
        compared += n;
        expected += n;
        bad += wrong;
    }
    npurt_region_end("network");
    printf("%s: %lu cycles, %lu MACs, %lu.%02lu MAC/cycle\n", net_name, (unsigned long)total, (unsigned long)net_macs,
           (unsigned long)(net_macs / total), (unsigned long)((net_macs % total) * 100 / total));
    printf("%s: compared %lu of %lu elements, %lu mismatches\n", net_name, (unsigned long)compared,
           (unsigned long)expected, (unsigned long)bad);
    if (compared == 0 || compared != expected || bad) {
        printf("FAIL\n");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
