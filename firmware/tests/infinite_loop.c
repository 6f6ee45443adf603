/* Every hart spins forever: only the --max-cycles watchdog can end the run,
 * and its report must give each hart's PC (spin_forever on the workers,
 * main on the controller). */
#include <stdio.h>

#include "npu.h"

static volatile int keep_spinning = 1;

__attribute__((noinline)) void spin_forever(void *arg) {
    (void)arg;
    while (keep_spinning) {
    }
}

int main(void) {
    for (unsigned w = 0; w < npu_nb_workers(); ++w) npu_run_on_worker(w, spin_forever, 0);
    printf("all harts spinning\n");
    while (keep_spinning) {
    }
    return 0;
}
