/*
 * front.c: the front end's pipeline, one call per stage.
 */
#include "front.h"

#include <string.h>

bool front_run(Front *f, const char *name, char *text, size_t len)
{
    memset(f, 0, sizeof *f);
    symtab_init(&f->syms);
    f->src = source_new(name, text, len);
    diag_init(&f->diags, f->src);
    if (kif_read(f->src, &f->syms, &f->diags, &f->doc))
        f->stage = FRONT_READ;
    if (f->stage == FRONT_READ && ast_build(&f->doc, &f->syms, &f->diags, &f->ast))
        f->stage = FRONT_AST;
    if (f->stage == FRONT_AST && ast_validate(&f->ast, &f->diags))
        f->stage = FRONT_VALID;
    if (f->stage == FRONT_VALID && ir_lower(&f->ast, &f->diags, &f->ir))
        f->stage = FRONT_IR;
    diag_sort(&f->diags);
    return f->stage == FRONT_IR;
}

bool front_run_file(Front *f, const char *path, char **io_err)
{
    size_t len = 0;
    bool too_large = false;
    char *text = base_read_file(path, &len, io_err, &too_large);
    if (text)
        return front_run(f, path, text, len);
    if (!too_large) {
        memset(f, 0, sizeof *f);
        return false;
    }
    /* An oversized file is the input's fault: report it like any error. */
    memset(f, 0, sizeof *f);
    symtab_init(&f->syms);
    f->src = source_new(path, base_xstrdup(""), 0);
    diag_init(&f->diags, f->src);
    diag_error(&f->diags, 0, "%s", *io_err);
    free(*io_err);
    *io_err = NULL;
    return false;
}

void front_free(Front *f)
{
    ir_free(&f->ir);
    ast_free(&f->ast);
    kif_doc_free(&f->doc);
    diag_free(&f->diags);
    symtab_free(&f->syms);
    source_free(f->src);
    memset(f, 0, sizeof *f);
}
