/* npuc_main.c: the C entry of firmware produced by npuc.
 *
 * npuc emits `npu_network_run()`, which reads the network inputs at their
 * planned addresses, runs every layer (SA tiles, DMA, workers) and leaves
 * the outputs at their planned addresses. npusim, given the manifest npuc
 * writes next to firmware.elf, reads them from there after the run and
 * compares them with golden.bin: nothing needs to be printed here. The
 * `network` region gives the report the cycles of the whole inference. */
/* npurt.h's markers: npu.h itself needs a config's npu_platform.h, and
 * this object is compiled once for every config. */
extern void npurt_region_begin(const char *name);
extern void npurt_region_end(const char *name);
extern void npu_network_run(void);

int main(void) {
    npurt_region_begin("network");
    npu_network_run();
    npurt_region_end("network");
    return 0;
}
