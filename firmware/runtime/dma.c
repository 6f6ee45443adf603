/* DMA HAL: the inline copies and wait live in npu_dma.h; see docs/dma.md. */
#include "npu.h"

int npu_dma_wait_all(void) {
    int rc = 0;
    uint32_t busy = npu_dma_status();
    for (int id = 0; busy; ++id, busy >>= 1)
        if ((busy & 1u) && npu_dma_wait(id)) rc = -1;
    return rc;
}
