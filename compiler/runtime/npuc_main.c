/* npuc_main.c: the C entry of firmware produced by npuc (cores-only codegen).
 *
 * npuc emits `npu_network_run()`, which reads the network inputs from the
 * global buffer `npu_input`, runs the network on the cluster controller and
 * copies every output, back to back, into the global buffer `npu_output`
 * (`npu_output_size` bytes). Addresses and the layout of both buffers are in
 * the manifest npuc writes next to firmware.elf.
 *
 * After the run the output bytes are dumped over the UART as hex, between
 * the lines `npuc-output <bytes>` and `npuc-output-end`, so a test can
 * compare them with a reference computed on the host. */
#include <stdint.h>
#include <stdio.h>

extern void npu_network_run(void);
extern uint8_t npu_output[];
extern const uint32_t npu_output_size;

int main(void) {
    npu_network_run();
    uint32_t n = npu_output_size;
    printf("npuc-output %u\n", (unsigned)n);
    for (uint32_t i = 0; i < n; i++) {
        printf("%02x", (unsigned)npu_output[i]);
        if ((i & 31u) == 31u || i + 1 == n) printf("\n");
    }
    printf("npuc-output-end\n");
    return 0;
}
