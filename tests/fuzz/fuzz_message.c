/* fuzz_message.c: libFuzzer target for the GGP protocol's messages
 * (player/message.c): any request body must end in a parsed message or in
 * an error message, never in a crash, a leak or a sanitizer report. A
 * parsed START or PREVIEW has its rules' spelling made and applied to the
 * moves of the body (or to the body itself), and the body is read as a
 * player's reply too (its first s-expression). */
#include <stdlib.h>
#include <string.h>

#include "../../base/base.h"
#include "../../player/player.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = base_xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    GgpMessage m;
    char *err = NULL;
    if (ggp_message_parse(text, size, &m, &err)) {
        GgpSpelling *sp = m.rules ? ggp_spelling_new(m.rules, strlen(m.rules)) : ggp_spelling_new(text, size);
        for (size_t i = 0; i < m.nmoves; i++)
            free(ggp_spelling_apply(sp, m.moves[i]));
        if (m.rules)
            free(ggp_spelling_apply(sp, m.rules));
        ggp_spelling_free(sp);
        ggp_message_free(&m);
    } else {
        if (!err)
            abort(); /* a refusal always says why */
        free(err);
    }
    size_t off, end;
    if (ggp_first_sexp(text, size, &off, &end) && (off >= end || end > size))
        abort();
    free(text);
    return 0;
}
