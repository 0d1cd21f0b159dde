/* fuzz_front.c: libFuzzer target for the whole front end: reader, AST,
 * validation, lowering and graph checks, and diagnostic printing. Any input
 * must end in success or in diagnostics, never in a crash, a leak or a
 * sanitizer report. */
#include <stdio.h>
#include <string.h>

#include "front.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = base_xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    Front f;
    front_run(&f, "fuzz.kif", text, size);
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        diag_print(null, &f.diags, true);
        if (f.stage >= FRONT_AST)
            ast_dump(null, &f.ast, f.src);
        if (f.stage >= FRONT_IR)
            ir_dump(null, &f.ir);
        fclose(null);
    }
    front_free(&f);
    return 0;
}
