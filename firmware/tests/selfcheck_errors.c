/* A harness that counts its mismatches and still returns 0: the self-check
 * recorded 4 errors, so npusim fails the run (exit 8) instead of reporting
 * success (tests/firmware, fw.selfcheck_errors_exit0). ERRORS_AFTER_END:
 * errors reported after npu_check_end fail it too
 * (fw.selfcheck_errors_outside). COMPARED_TOO_MANY, END_WITHOUT_BEGIN and
 * NESTED_BEGIN: a harness that lost track of its checks fails it too. */
#include "npu.h"

int main(void) {
#if defined(COMPARED_TOO_MANY)
    npu_check_begin("logits", 4);
    npu_check_compare(8, 0);
    npu_check_end();
    return 0;
#elif defined(END_WITHOUT_BEGIN)
    npu_check_begin("logits", 4);
    npu_check_compare(4, 0);
    npu_check_end();
    npu_check_end();
    return 0;
#elif defined(NESTED_BEGIN)
    npu_check_begin("logits", 4);
    npu_check_begin("probs", 4);
    npu_check_compare(4, 0);
    npu_check_end();
    return 0;
#endif
#ifdef ERRORS_AFTER_END
    /* Mismatches reported after the check was closed: no check counts them. */
    npu_check_begin("logits", 16);
    npu_check_compare(16, 0);
    npu_check_end();
    npu_check_compare(0, 3);
    return 0;
#endif
    npu_check_begin("logits", 16);
    int errors = 0;
    for (int i = 0; i < 16; ++i) {
        const int bad = i % 5 == 0;
        errors += bad;
        npu_check_compare(1, bad);
    }
    npu_check_end();
    (void)errors; /* the bug: the verdict ignores the count */
    return 0;
}
