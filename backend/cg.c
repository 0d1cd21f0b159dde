/*
 * cg.c: emits the C of a game (see cg.h).
 *
 * Shape of the generated code
 * ---------------------------
 * The engine answers five root queries (init, the legal moves of a role,
 * next, terminal, goal) by goal-directed evaluation. A query is a relation
 * with a binding pattern: which argument positions the caller binds. Starting
 * from the roots, every rule of a queried relation is compiled for that
 * pattern, and each call its body makes registers the pattern of that call,
 * until no new pattern appears. So the code holds only the (relation,
 * pattern) pairs evaluation can reach, each with:
 *
 *   qN()         runs every rule of the relation for that pattern;
 *   rR_qN()      one rule: unify the head with the call's bound values, then
 *                the body as nested loops, then add the head to the table;
 *   kR_qN_L()    a continuation: the rest of rule R after its literal L,
 *                when L calls a relation of the head's own recursive
 *                component (engine.h explains how these are fed);
 *   xN(), eR_qN() yes/no functions: is there a proof of a call with every
 *                position bound (or only don't-care variables free)?
 *
 * Body literals, with the bindings known at compile time:
 *   - `true` facts are grouped by the functor and arity of the fact, so
 *     (true (cell ?x ?y b)) is a lookup in the set of `cell/3` tuples with
 *     the third position bound: an index built the first time a state is
 *     asked that way. The tuples end with the fact's own id, which a head
 *     equal to the matched fact reuses (Fx.known). `does` facts likewise,
 *     by the move's functor, with the role first. A relation given only by
 *     ground facts, or evaluated when compiling, is such a set too, loaded
 *     once.
 *   - any other relation is a call: a table of answers per (pattern, bound
 *     values), kept as long as what the relation depends on (the game, the
 *     state, or the move) stays the same.
 *   - negation asks the same with every position bound and tests emptiness;
 *     distinct and equality compare ids (terms are hash-consed);
 *   - a test with every position bound reads the relation's table for fewer
 *     bound positions when that table is asked for anyway (plan.c's
 *     subsumer());
 *   - the body is joined in the order plan.c's join_order() gives: as
 *     written, but filters and lookups of functions given by facts as early
 *     as their inputs are bound.
 * Variables used once in a rule are not bound at all. Function terms are
 * matched by looking at the functor and arguments of the term in the store,
 * and built (interned) where a head or a bound argument needs them.
 *
 * Every decision above (which queries exist, how each literal runs, the
 * join orders, the fact sets and their indexes) is the plan's (plan.h),
 * taken before this file prints anything; printing follows the plan and
 * numbers only names: symbols (S), constants (K), temporaries.
 */
#include "cg.h"

#include "../include/gdl.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct Cg {
    const Front *f;
    const Ir *ir;
    const CgOptions *opt;
    const CgPlan *p;     /* what to print */
    size_t max_bytes;
    U32Vec sidx, slist;  /* symbol id -> S index + 1; S index -> symbol */
    U32Vec kidx, klist;  /* symbol id -> K index + 1; K index -> S index */
    StrBuf protos, funcs;
    U32Vec gix;          /* precomputed facts: store term -> G index + 1 */
    U32Vec glist;        /* G index -> store term */
    uint32_t tmp;        /* numbering of temporaries */
    StrBuf pre_data;     /* the arrays of precomputed facts and of facts of constants */
    char **csyms;        /* symbol id -> its text made safe in a comment, made on first use */
    char *cname;         /* the game's name made safe in a comment */
    char *err;
} Cg;

/* One C function being emitted: a rule for a pattern, or a continuation. */
typedef struct Fx {
    Cg *c;
    uint32_t rule, q, level;
    const IrRule *r;
    StrBuf b;
    bool *bound, *used;
    uint32_t *occ;
    int ind;
    const char *fail;
    const char *ret;    /* "return" or, in a yes/no function, "return 0" */
    const char *key;    /* the call's bound values */
    bool exists;        /* a yes/no function: the head returns 1 */
    const CgStep *steps; /* the plan of the rule's body, in join order */
    /* Function terms whose id a matched state fact gives (its set keeps
     * the fact's id after the arguments): a head or argument built the
     * same way reads the id instead of interning the term again. */
    VEC(struct Known { uint32_t term; char expr[96]; }) known;
} Fx;

static void fail_limit(Cg *c, char *msg)
{
    if (!c->err)
        c->err = msg;
    else
        free(msg);
}

/* ---- names ------------------------------------------------------------ */

static uint32_t sym_ix(Cg *c, uint32_t sym)
{
    if (!c->sidx.v[sym]) {
        vec_push(c->slist, sym);
        c->sidx.v[sym] = c->slist.n;
    }
    return c->sidx.v[sym] - 1;
}

static uint32_t const_ix(Cg *c, uint32_t sym)
{
    if (!c->kidx.v[sym]) {
        vec_push(c->klist, sym_ix(c, sym));
        c->kidx.v[sym] = c->klist.n;
    }
    return c->kidx.v[sym] - 1;
}

/* ---- writing ---------------------------------------------------------- */

static void line(Fx *x, const char *fmt, ...) BASE_PRINTF(2, 3);
static void line(Fx *x, const char *fmt, ...)
{
    for (int i = 0; i < x->ind; i++)
        strbuf_add(&x->b, "    ");
    va_list ap;
    va_start(ap, fmt);
    char *s = base_vsprintf(fmt, ap);
    va_end(ap);
    strbuf_add(&x->b, s);
    strbuf_add(&x->b, "\n");
    free(s);
}

/* Text from outside (a file name, a symbol, a rule's text) made safe inside
 * a C comment: no comment terminator or opener, no line break, no trigraph,
 * no control or non-ASCII byte (those are written as \xHH). Nothing a game
 * or its name holds can end the comment and become code. */
static char *comment_safe(const char *s, size_t len)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i], next = i + 1 < len ? (unsigned char)s[i + 1] : 0;
        if (ch < 32 || ch >= 127 || ch == '\\')
            strbuf_addf(&b, "\\x%02X", ch);
        else {
            char t[2] = {(char)ch, 0};
            strbuf_add(&b, t);
            /* "*" "/" ends a comment, "/" "*" opens one (-Wcomment), "??" starts a trigraph;
             * what follows the text is unknown (a symbol is followed by "/arity" in some
             * comments), so a last '*', '/' or '?' is kept apart from it too */
            if ((ch == '*' && (next == '/' || !next)) || (ch == '/' && (next == '*' || !next)) ||
                (ch == '?' && (next == '?' || !next)))
                strbuf_add(&b, " ");
        }
    }
    return b.s;
}

/* Text from outside as a C string literal: quotes, backslashes, control
 * and non-ASCII bytes escaped, and every '?' as "\?" so that no trigraph
 * can form. */
static void emit_c_string(StrBuf *b, const char *s)
{
    strbuf_add(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\' || ch == '?')
            strbuf_addf(b, "\\%c", ch);
        else if (ch < 32 || ch >= 127)
            strbuf_addf(b, "\\%03o", ch);
        else {
            char t[2] = {(char)ch, 0};
            strbuf_add(b, t);
        }
    }
    strbuf_add(b, "\"");
}

/* A symbol's text for a comment (see comment_safe). */
static const char *csym(Cg *c, uint32_t sym)
{
    if (!c->csyms[sym]) {
        const char *s = symtab_str(&c->f->syms, sym);
        c->csyms[sym] = comment_safe(s, strlen(s));
    }
    return c->csyms[sym];
}

/* Text of a rule for a comment: one line, safe in a comment. */
static char *rule_text(const Ir *ir, uint32_t rule)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return base_xstrdup("?");
    ir_print_rule(m, ir, rule);
    fclose(m);
    base_journal_adopt(buf); /* the C library's block: freed if memory runs out below */
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' '))
        len--;
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\n' || buf[i] == '\r')
            buf[i] = ' ';
    char *safe = comment_safe(buf, len);
    free(buf);
    return safe;
}

static const char *var(Fx *x, uint32_t v, char *buf)
{
    x->used[v] = true;
    sprintf(buf, "v%" PRIu32, v);
    return buf;
}

/* ---- terms ------------------------------------------------------------ */

static const IrTerm *term(const Fx *x, uint32_t t) { return &x->c->ir->terms.v[t]; }
static uint32_t targ(const Fx *x, const IrTerm *t, uint32_t i) { return x->c->ir->targs.v[t->args + i]; }

static bool ground(const Fx *x, uint32_t t)
{
    const IrTerm *p = term(x, t);
    if (p->kind == IR_VAR)
        return x->bound[p->val];
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        if (!ground(x, targ(x, p, i)))
            return false;
    return true;
}

/* The C expression of a ground term into out (64 bytes); function terms
 * are built by statements emitted before. */
static void gval(Fx *x, uint32_t t, char *out)
{
    const IrTerm *p = term(x, t);
    if (p->kind == IR_VAR) {
        var(x, p->val, out);
        return;
    }
    if (p->kind == IR_CONST) {
        sprintf(out, "K[%" PRIu32 "]", const_ix(x->c, p->val));
        return;
    }
    for (uint32_t i = x->known.n; i-- > 0;)
        if (ir_term_same(x->c->ir, x->known.v[i].term, t)) {
            strcpy(out, x->known.v[i].expr);
            return;
        }
    StrBuf args = {0};
    strbuf_add(&args, "");
    for (uint32_t i = 0; i < p->nargs; i++) {
        char a[64];
        gval(x, targ(x, p, i), a);
        if (i)
            strbuf_add(&args, ", ");
        strbuf_add(&args, a);
    }
    uint32_t n = x->c->tmp++;
    uint32_t fsym = x->c->ir->funcs.v[p->val].sym;
    line(x, "u32 a%" PRIu32 "[%" PRIu32 "] = {%s};", n, p->nargs, args.s);
    line(x, "u32 g%" PRIu32 " = mkn(ev, S[%" PRIu32 "], %" PRIu32 ", a%" PRIu32 ");", n, sym_ix(x->c, fsym), p->nargs, n);
    line(x, "if (STOP) %s;", x->ret);
    free(args.s);
    sprintf(out, "g%" PRIu32, n);
}

/* Code that checks the value expr against the term, binding its free
 * variables; on a mismatch runs x->fail. */
static void match(Fx *x, const char *expr, uint32_t t)
{
    const IrTerm *p = term(x, t);
    char a[64];
    switch (p->kind) {
    case IR_VAR:
        if (x->bound[p->val])
            line(x, "if (%s != %s) %s;", expr, var(x, p->val, a), x->fail);
        else if (x->occ[p->val] > 1) {
            line(x, "%s = %s;", var(x, p->val, a), expr);
            x->bound[p->val] = true;
        }
        return;
    case IR_CONST:
        line(x, "if (%s != K[%" PRIu32 "]) %s;", expr, const_ix(x->c, p->val), x->fail);
        return;
    default: {
        uint32_t n = x->c->tmp++;
        uint32_t fsym = x->c->ir->funcs.v[p->val].sym;
        line(x, "u32 t%" PRIu32 " = %s;", n, expr);
        line(x, "if (FN(t%" PRIu32 ") != S[%" PRIu32 "] || AR(t%" PRIu32 ") != %" PRIu32 ") %s;", n,
             sym_ix(x->c, fsym), n, p->nargs, x->fail);
        for (uint32_t i = 0; i < p->nargs; i++) {
            char e[64];
            sprintf(e, "ARG(t%" PRIu32 ", %" PRIu32 ")", n, i);
            match(x, e, targ(x, p, i));
        }
        return;
    }
    }
}

/* Counts the occurrences of each variable in t (a variable seen once in a
 * rule is a don't-care and is never bound). */
static void count_occ(const Ir *ir, uint32_t t, uint32_t *occ)
{
    const IrTerm *p = &ir->terms.v[t];
    if (p->kind == IR_VAR)
        occ[p->val]++;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        count_occ(ir, ir->targs.v[p->args + i], occ);
}

/* ---- rule bodies -------------------------------------------------------- */

static void emit_lits(Fx *x, uint32_t li);

/* The key of a lookup: ground positions hold values, others 0. */
static uint64_t emit_key(Fx *x, const uint32_t *pos, uint32_t k, uint32_t n, bool always)
{
    uint64_t mask = 0;
    for (uint32_t i = 0; i < k; i++)
        if (ground(x, pos[i]))
            mask |= 1ULL << i;
    if (!mask && !always)
        return 0;
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (uint32_t i = 0; i < k; i++) {
        char v[64] = "0";
        if (mask >> i & 1)
            gval(x, pos[i], v);
        strbuf_add(&b, i ? ", " : "");
        strbuf_add(&b, v);
    }
    line(x, "u32 k%" PRIu32 "[%" PRIu32 "] = {%s};", n, k ? k : 1, k ? b.s : "0");
    free(b.s);
    return mask;
}

/* Matches the positions not in mask of tuple aN against the terms. */
static void match_free(Fx *x, const uint32_t *pos, uint32_t k, uint64_t mask, const char *tuple)
{
    for (uint32_t i = 0; i < k; i++)
        if (!(mask >> i & 1)) {
            char e[64];
            sprintf(e, "%s[%" PRIu32 "]", tuple, i);
            match(x, e, pos[i]);
        }
}

/* Would matching the term bind a variable used elsewhere? */
static bool term_binds(const Fx *x, uint32_t t)
{
    const IrTerm *p = term(x, t);
    if (p->kind == IR_VAR)
        return !x->bound[p->val] && x->occ[p->val] > 1;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        if (term_binds(x, targ(x, p, i)))
            return true;
    return false;
}

/* A literal whose free positions bind nothing the rest of the rule uses is
 * a test: the rest runs once if some answer matches, not once per answer. */
static bool binds_nothing(const Fx *x, const uint32_t *pos, uint32_t k, uint64_t mask)
{
    for (uint32_t i = 0; i < k; i++)
        if (!(mask >> i & 1) && term_binds(x, pos[i]))
            return false;
    return true;
}

/* The first fact of set fs matching key kN on the positions of mask:
 * fs_get, with the positions spelt out, when there are three at most (the
 * direct index is then read in line), else fs_first. */
static void lookup_call(char *out, uint32_t fs, uint32_t slot, uint32_t n, uint64_t mask)
{
    uint32_t at[3] = {0, 0, 0}, m = 0;
    for (uint32_t i = 0; i < 64 && m <= 3; i++)
        if (mask >> i & 1) {
            if (m < 3)
                at[m] = i;
            m++;
        }
    if (m == 0 || m > 3)
        sprintf(out, "fs_first(ev, &ev->fs[%" PRIu32 "], %" PRIu32 ", k%" PRIu32 ")", fs, slot, n);
    else
        sprintf(out, "fs_get(ev, &ev->fs[%" PRIu32 "], %" PRIu32 ", k%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32
                     ", %" PRIu32 ")",
                fs, slot, n, m, at[0], at[1], at[2]);
}

/* Notes that the term t of the state fact just matched has the id expr;
 * the caller forgets it (truncates x->known) once the literals after the
 * match are emitted. */
static void known_push(Fx *x, uint32_t t, const char *expr)
{
    struct Known k = {.term = t};
    snprintf(k.expr, sizeof k.expr, "%s", expr);
    vec_push(x->known, k);
}

/* A literal over a fact set (the plan's step s). For a state fact, term is
 * the fact's term (its id is the last column of the set), else BASE_NONE. */
static void emit_set_lit(Fx *x, uint32_t li, const CgStep *s, const uint32_t *pos, uint32_t k, bool neg, uint32_t term)
{
    uint32_t fs = s->target;
    uint32_t n = x->c->tmp++, width = x->c->p->fs.v[fs].arity;
    uint32_t known = x->known.n;
    if (k == 0) {
        line(x, "if (%sev->fs[%" PRIu32 "].n) %s;", neg ? "" : "!", fs, x->fail);
        emit_lits(x, li + 1);
        return;
    }
    uint64_t mask = emit_key(x, pos, k, n, false);
    uint32_t slot = s->slot;
    assert(mask == s->mask);
    char get[128], id[96];
    lookup_call(get, fs, slot, n, mask);
    if (mask == cg_full_mask(k)) {
        if (neg || term == BASE_NONE) {
            line(x, "if (%s %s NONE) %s;", get, neg ? "!=" : "==", x->fail);
        } else {
            line(x, "u32 f%" PRIu32 " = %s;", n, get);
            line(x, "if (f%" PRIu32 " == NONE) %s;", n, x->fail);
            line(x, "(void)f%" PRIu32 ";", n);
            snprintf(id, sizeof id, "ev->fs[%" PRIu32 "].tup[(usize)f%" PRIu32 " * %" PRIu32 " + %" PRIu32 "]", fs, n,
                     width, k);
            known_push(x, term, id);
        }
        emit_lits(x, li + 1);
        x->known.n = known;
        return;
    }
    if (binds_nothing(x, pos, k, mask))
        line(x, "int s%" PRIu32 " = 0;", n);
    if (mask == 0)
        line(x, "for (u32 f%" PRIu32 " = 0; f%" PRIu32 " < ev->fs[%" PRIu32 "].n; f%" PRIu32 "++) {", n, n, fs, n);
    else
        line(x,
             "for (u32 f%" PRIu32 " = %s; f%" PRIu32 " != NONE; f%" PRIu32 " = ev->fs[%" PRIu32 "].ix[%" PRIu32
             "].next[f%" PRIu32 "]) {",
             n, get, n, n, fs, slot, n);
    const char *fail = x->fail;
    bool test = binds_nothing(x, pos, k, mask);
    x->ind++;
    x->fail = "continue";
    line(x, "const u32 *a%" PRIu32 " = ev->fs[%" PRIu32 "].tup + (usize)f%" PRIu32 " * %" PRIu32 ";", n, fs, n, width);
    line(x, "(void)a%" PRIu32 ";", n);
    line(x, "POLL(%s);", x->ret);
    char tup[32];
    sprintf(tup, "a%" PRIu32, n);
    match_free(x, pos, k, mask, tup);
    if (test) {
        /* the first match is enough */
        line(x, "s%" PRIu32 " = 1;", n);
        line(x, "break;");
        x->ind--;
        x->fail = fail;
        line(x, "}");
        line(x, "if (!s%" PRIu32 ") %s;", n, x->fail);
        emit_lits(x, li + 1);
        return;
    }
    if (term != BASE_NONE) {
        snprintf(id, sizeof id, "a%" PRIu32 "[%" PRIu32 "]", n, k);
        known_push(x, term, id);
    }
    emit_lits(x, li + 1);
    x->known.n = known;
    x->ind--;
    x->fail = fail;
    line(x, "}");
}

static void emit_function(Cg *c, uint32_t rule, uint32_t q, const CgStep *steps, uint32_t li, const bool *bound);

static void emit_call_lit(Fx *x, uint32_t li, const IrLit *l, const CgStep *s)
{
    Cg *c = x->c;
    const Ir *ir = c->ir;
    const uint32_t *pos = u32_at(&ir->largs, l->args);
    uint32_t k = l->nargs, n = c->tmp++;
    bool *before = base_xmalloc((x->r->nvars + 1) * sizeof *before);
    memcpy(before, x->bound, x->r->nvars * sizeof *before);
    uint64_t mask = emit_key(x, pos, k, n, true);
    assert(mask == s->mask);
    uint32_t q = s->target;
    if (s->kind == CG_STEP_SUBSUMED) {
        /* Every position bound, and the relation's table for fewer bound
         * positions is wanted elsewhere: a lookup in that table, which
         * many such tests share, rather than a proof of its own each. */
        line(x, "Table *t%" PRIu32 " = tb_call_complete(ev, %" PRIu32 ", k%" PRIu32 ");", n, q, n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        line(x, "if (%stb_has(ev, t%" PRIu32 ", %" PRIu32 ", k%" PRIu32 ")) %s;", l->kind == IR_LIT_NEG ? "" : "!", n, k, n,
             x->fail);
        emit_lits(x, li + 1);
    } else if (s->kind == CG_STEP_YESNO) {
        line(x, "int y%" PRIu32 " = x%" PRIu32 "(ev, k%" PRIu32 ");", n, q, n);
        line(x, "if (STOP) %s;", x->ret);
        line(x, "if (%sy%" PRIu32 ") %s;", l->kind == IR_LIT_NEG ? "" : "!", n, x->fail);
        emit_lits(x, li + 1);
    } else if (s->kind == CG_STEP_NEGATED) {
        line(x, "Table *t%" PRIu32 " = tb_call_complete(ev, %" PRIu32 ", k%" PRIu32 ");", n, q, n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        line(x, "if (t%" PRIu32 "->n) %s;", n, x->fail);
        emit_lits(x, li + 1);
    } else if (s->kind == CG_STEP_RECURSIVE) {
        /* The rest of the body becomes a continuation fed by the table. */
        line(x, "Table *t%" PRIu32 " = tb_call(ev, %" PRIu32 ", k%" PRIu32 ");", n, q, n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        StrBuf env = {0};
        strbuf_add(&env, "");
        uint32_t nv = x->r->nvars;
        for (uint32_t v = 0; v < nv; v++) {
            char a[64] = "0";
            if (before[v])
                var(x, v, a);
            strbuf_add(&env, v ? ", " : "");
            strbuf_add(&env, a);
        }
        line(x, "u32 e%" PRIu32 "[%" PRIu32 "] = {%s};", n, nv ? nv : 1, nv ? env.s : "0");
        free(env.s);
        line(x, "tb_consume(ev, t%" PRIu32 ", k%" PRIu32 "_q%" PRIu32 "_%" PRIu32 ", T, e%" PRIu32 ", %" PRIu32 ");", n,
             x->rule, x->q, li, n, nv);
        line(x, "if (STOP) %s;", x->ret);
        emit_function(c, x->rule, x->q, x->steps, li, before);
    } else {
        line(x, "Table *t%" PRIu32 " = tb_call_complete(ev, %" PRIu32 ", k%" PRIu32 ");", n, q, n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        if (mask == cg_full_mask(k)) {
            line(x, "if (!t%" PRIu32 "->n) %s;", n, x->fail);
            emit_lits(x, li + 1);
        } else {
            line(x, "for (u32 i%" PRIu32 " = 0; i%" PRIu32 " < t%" PRIu32 "->n; i%" PRIu32 "++) {", n, n, n, n);
            const char *fail = x->fail;
            x->ind++;
            x->fail = "continue";
            line(x, "const u32 *a%" PRIu32 " = t%" PRIu32 "->ans + (usize)i%" PRIu32 " * %" PRIu32 ";", n, n, n, k);
            line(x, "(void)a%" PRIu32 ";", n);
            char tup[32];
            sprintf(tup, "a%" PRIu32, n);
            match_free(x, pos, k, mask, tup);
            emit_lits(x, li + 1);
            x->ind--;
            x->fail = fail;
            line(x, "}");
        }
    }
    free(before);
}

/* A literal over `true` or `does`: the fact set by the functor of the
 * (move) term, or the set of every fact when it is a variable. */
static void emit_state_lit(Fx *x, uint32_t li, const IrLit *l, bool does, const CgStep *s)
{
    Cg *c = x->c;
    const uint32_t *args = u32_at(&c->ir->largs, l->args);
    uint32_t t = args[does ? 1 : 0];
    const IrTerm *p = term(x, t);
    uint32_t pos[CG_MAX_ARITY + 2], k = 0;
    if (does)
        pos[k++] = args[0];
    if (p->kind == IR_VAR) {
        pos[k++] = t;
    } else if (p->kind == IR_FN) {
        for (uint32_t i = 0; i < p->nargs; i++)
            pos[k++] = targ(x, p, i);
    }
    /* the set's functor is named where the set is first read */
    if (c->p->fs.v[s->target].sym != BASE_NONE)
        sym_ix(c, c->p->fs.v[s->target].sym);
    emit_set_lit(x, li, s, pos, k, l->kind == IR_LIT_NEG, !does && p->kind == IR_FN ? t : BASE_NONE);
}

static void emit_head(Fx *x)
{
    if (x->exists) {
        line(x, "return 1;");
        return;
    }
    const Ir *ir = x->c->ir;
    const IrRel *rel = &ir->rels.v[x->r->head];
    uint32_t n = x->c->tmp++;
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (uint32_t i = 0; i < rel->arity; i++) {
        char v[64];
        gval(x, ir->largs.v[x->r->args + i], v);
        strbuf_add(&b, i ? ", " : "");
        strbuf_add(&b, v);
    }
    if (rel->arity) {
        line(x, "u32 h%" PRIu32 "[%" PRIu32 "] = {%s};", n, rel->arity, b.s);
        line(x, "tb_add(ev, T, %" PRIu32 ", %" PRIu32 ", h%" PRIu32 ");", rel->arity, x->level, n);
    } else {
        line(x, "tb_add(ev, T, 0, %" PRIu32 ", (const u32 *)0);", x->level);
    }
    free(b.s);
}

static void emit_lits(Fx *x, uint32_t li)
{
    if (x->c->err)
        return;
    if (x->c->funcs.len + x->b.len > x->c->max_bytes) {
        fail_limit(x->c, base_sprintf("the generated C would exceed %zu MiB (the backend's size limit)",
                                      x->c->max_bytes >> 20));
        return;
    }
    if (li == x->r->nlits) {
        emit_head(x);
        return;
    }
    const Ir *ir = x->c->ir;
    const CgStep *s = &x->steps[li];
    const IrLit *l = &ir->lits.v[x->r->lits + s->lit];
    const uint32_t *args = u32_at(&ir->largs, l->args);
    if (l->kind == IR_LIT_DISTINCT || l->kind == IR_LIT_EQUAL) {
        char a[64], b[64];
        gval(x, args[0], a);
        gval(x, args[1], b);
        line(x, "if (%s %s %s) %s;", a, l->kind == IR_LIT_DISTINCT ? "==" : "!=", b, x->fail);
        emit_lits(x, li + 1);
        return;
    }
    const IrRel *rel = &ir->rels.v[l->rel];
    if (rel->kind == IR_REL_TRUE || rel->kind == IR_REL_DOES)
        emit_state_lit(x, li, l, rel->kind == IR_REL_DOES, s);
    else if (s->kind == CG_STEP_SET)
        emit_set_lit(x, li, s, args, l->nargs, l->kind == IR_LIT_NEG, BASE_NONE);
    else
        emit_call_lit(x, li, l, s);
}

/* Emits rR_qN (li == BASE_NONE) or the continuation after literal li,
 * entered with the variables of `bound` set; steps is the plan of the
 * rule for query q. */
static void emit_function(Cg *c, uint32_t rule, uint32_t q, const CgStep *steps, uint32_t li, const bool *bound)
{
    const Ir *ir = c->ir;
    const IrRule *r = &ir->rules.v[rule];
    uint32_t nv = r->nvars;
    bool exists = c->p->qs.v[q].exists;
    Fx x = {.c = c, .rule = rule, .q = q, .r = r, .ind = 1, .fail = exists ? "return 0" : "return",
            .ret = exists ? "return 0" : "return", .key = exists ? "key" : "T->key", .exists = exists,
            .steps = steps};
    x.level = cg_rel_level(ir, r->head);
    x.bound = base_xcalloc(nv + 1, sizeof *x.bound);
    x.used = base_xcalloc(nv + 1, sizeof *x.used);
    x.occ = base_xcalloc(nv + 1, sizeof *x.occ);
    for (uint32_t i = 0; i < ir->rels.v[r->head].arity; i++)
        count_occ(ir, ir->largs.v[r->args + i], x.occ);
    for (uint32_t i = 0; i < r->nlits; i++) {
        const IrLit *l = &ir->lits.v[r->lits + i];
        for (uint32_t j = 0; j < l->nargs; j++)
            count_occ(ir, ir->largs.v[l->args + j], x.occ);
    }
    strbuf_add(&x.b, "");
    char name[96];
    bool cont = li != BASE_NONE;
    if (!cont) {
        sprintf(name, "%c%" PRIu32 "_q%" PRIu32, exists ? 'e' : 'r', rule, q);
        line(&x, "POLL(%s);", x.ret);
        uint64_t mask = c->p->qs.v[q].mask;
        for (uint32_t i = 0; i < ir->rels.v[r->head].arity; i++)
            if (mask >> i & 1) {
                char e[32];
                sprintf(e, "%s[%" PRIu32 "]", x.key, i);
                match(&x, e, ir->largs.v[r->args + i]);
            }
        emit_lits(&x, 0);
    } else {
        sprintf(name, "k%" PRIu32 "_q%" PRIu32 "_%" PRIu32, rule, q, li);
        memcpy(x.bound, bound, nv * sizeof *x.bound);
        line(&x, "POLL(return);");
        const IrLit *l = &ir->lits.v[r->lits + steps[li].lit];
        const uint32_t *pos = u32_at(&ir->largs, l->args);
        uint64_t mask = 0;
        for (uint32_t i = 0; i < l->nargs; i++)
            if (ground(&x, pos[i]))
                mask |= 1ULL << i;
        match_free(&x, pos, l->nargs, mask, "a");
        emit_lits(&x, li + 1);
    }
    /* Declarations: only the variables the body mentions. */
    StrBuf fn = {0};
    char *text = rule_text(ir, rule);
    uint32_t lno = 1, col = 1;
    source_linecol(c->f->src, r->off, &lno, &col);
    if (cont)
        strbuf_addf(&fn, "/* %s:%" PRIu32 ": %s\n   continuation after body literal %" PRIu32 " */\n",
                    c->cname, lno, text, li + 1);
    else
        strbuf_addf(&fn, "/* %s:%" PRIu32 ": %s */\n", c->cname, lno, text);
    free(text);
    if (!c->opt->no_lines) {
        strbuf_addf(&fn, "#line %" PRIu32 " ", lno);
        emit_c_string(&fn, c->f->src->name);
        strbuf_add(&fn, "\n");
    }
    if (cont)
        strbuf_addf(&fn, "static void %s(Ev *ev, Table *T, const u32 *e, const u32 *a)\n{\n", name);
    else if (exists)
        strbuf_addf(&fn, "static int %s(Ev *ev, const u32 *key)\n{\n", name);
    else
        strbuf_addf(&fn, "static void %s(Ev *ev, Table *T)\n{\n", name);
    if (exists)
        strbuf_addf(&c->protos, "static int %s(Ev *ev, const u32 *key);\n", name);
    else
        strbuf_addf(&c->protos, "static void %s(Ev *ev, Table *T%s);\n", name,
                    cont ? ", const u32 *e, const u32 *a" : "");
    for (uint32_t v = 0; v < nv; v++)
        if (x.used[v]) {
            if (cont && bound[v])
                strbuf_addf(&fn, "    MAYBE_UNUSED u32 v%" PRIu32 " = e[%" PRIu32 "];\n", v, v);
            else
                strbuf_addf(&fn, "    MAYBE_UNUSED u32 v%" PRIu32 " = 0;\n", v);
        }
    if (cont)
        strbuf_add(&fn, "    (void)e;\n    (void)a;\n");
    if (exists)
        strbuf_add(&fn, "    (void)key;\n");
    strbuf_add(&fn, x.b.s);
    if (exists)
        strbuf_add(&fn, "    return 0;\n");
    strbuf_add(&fn, "}\n");
    if (!c->opt->no_lines)
        strbuf_add(&fn, "\001\n");
    strbuf_add(&fn, "\n");
    strbuf_add(&c->funcs, fn.s);
    free(fn.s);
    free(x.b.s);
    free(x.bound);
    free(x.used);
    free(x.occ);
    vec_free(x.known);
}

/* ---- the whole file ------------------------------------------------------ */

static void emit_query(Cg *c, uint32_t q)
{
    const Ir *ir = c->ir;
    CgQ cq = c->p->qs.v[q];
    const IrRel *rel = &ir->rels.v[cq.rel];
    StrBuf d = {0};
    strbuf_add(&d, "");
    for (uint32_t k = 0; k < rel->nrules && !c->err; k++) {
        const CgFn *fn = &c->p->fns.v[c->p->qfn.v[q] + k];
        uint32_t rule = fn->rule;
        emit_function(c, rule, q, &c->p->steps.v[fn->steps], BASE_NONE, NULL);
        if (cq.exists)
            strbuf_addf(&d, "    if (e%" PRIu32 "_q%" PRIu32 "(ev, key))\n        return 1;\n    if (STOP)\n        return 0;\n",
                        rule, q);
        else
            strbuf_addf(&d, "    r%" PRIu32 "_q%" PRIu32 "(ev, T);\n    if (STOP) return;\n", rule, q);
    }
    char pat[CG_MAX_ARITY + 1];
    for (uint32_t i = 0; i < rel->arity; i++)
        pat[i] = cq.mask >> i & 1 ? 'b' : 'f';
    pat[rel->arity] = 0;
    if (cq.exists) {
        strbuf_addf(&c->protos, "static int x%" PRIu32 "(Ev *ev, const u32 *key);\n", q);
        strbuf_addf(&c->funcs, "/* %s/%" PRIu32 " with every argument bound: is there a proof? */\nstatic int x%" PRIu32
                               "(Ev *ev, const u32 *key)\n{\n",
                    csym(c, rel->sym), rel->arity, q);
        if (!rel->nrules)
            strbuf_add(&c->funcs, "    (void)ev;\n    (void)key;\n");
        else /* yes/no functions nest once per level of a proof (engine.h) */
            strbuf_addf(&c->funcs, "    if (DEEP)\n        return x_hop(ev, x%" PRIu32 ", key);\n", q);
        strbuf_add(&c->funcs, d.s);
        strbuf_add(&c->funcs, "    return 0;\n}\n\n");
        free(d.s);
        return;
    }
    strbuf_addf(&c->protos, "static void q%" PRIu32 "(Ev *ev, Table *T);\n", q);
    strbuf_addf(&c->funcs, "/* %s/%" PRIu32 " called with pattern %s */\nstatic void q%" PRIu32 "(Ev *ev, Table *T)\n{\n",
                csym(c, rel->sym), rel->arity, rel->arity ? pat : "()", q);
    if (!rel->nrules)
        strbuf_add(&c->funcs, "    (void)ev;\n    (void)T;\n");
    strbuf_add(&c->funcs, d.s);
    strbuf_add(&c->funcs, "}\n\n");
    free(d.s);
}

/* The G index of a term of the precomputation's store (its arguments
 * first, so the table can be built in order). */
static uint32_t g_ix(Cg *c, Gt t)
{
    GtStore *st = c->opt->store;
    if (t < c->gix.n && c->gix.v[t])
        return c->gix.v[t] - 1;
    for (uint32_t i = 0; i < gt_arity(st, t); i++)
        g_ix(c, gt_arg(st, t, i));
    while (c->gix.n <= t)
        vec_push(c->gix, 0);
    vec_push(c->glist, t);
    c->gix.v[t] = c->glist.n;
    sym_ix(c, gt_fn(st, t));
    return c->glist.n - 1;
}

/* load_facts(): the relations given by facts, into their sets. */
static void emit_load_facts(Cg *c, StrBuf *out)
{
    const Ir *ir = c->ir;
    Fx x = {.c = c, .ind = 1, .fail = "return", .ret = "return", .key = "T->key"};
    strbuf_add(&x.b, "");
    bool dummy = false;
    x.bound = x.used = &dummy;
    for (uint32_t f = 0; f < c->p->fs.n; f++) {
        const CgFs *s = &c->p->fs.v[f];
        if (s->kind != FS_FACTS)
            continue;
        const IrRel *rel = &ir->rels.v[s->rel];
        const U32Vec *pre = c->opt->pre ? c->opt->pre[s->rel] : NULL;
        if (pre) {
            uint32_t n = rel->arity ? pre->n / rel->arity : pre->n; /* arity 0: one 0 per answer */
            line(&x, "/* %s/%" PRIu32 ": %" PRIu32 " facts, evaluated when compiling */", csym(c, rel->sym),
                 rel->arity, n);
            line(&x, "load_pre(ev, &ev->fs[%" PRIu32 "], PRE%" PRIu32 ", %" PRIu32 ");", f, f, n);
            strbuf_addf(&c->pre_data, "static const u32 PRE%" PRIu32 "[%" PRIu32 "] = {", f, pre->n + 1);
            for (uint32_t i = 0; rel->arity && i < pre->n; i++)
                strbuf_addf(&c->pre_data, "%s%" PRIu32 ",", i % 16 ? " " : "\n    ", g_ix(c, pre->v[i]));
            strbuf_add(&c->pre_data, "\n    0};\n");
            continue;
        }
        /* Many facts of constants: a table of constant indexes and a loop.
         * libtcc gives each block below stack slots of its own, so
         * thousands of them would make load_facts' frame larger than a
         * player thread's stack; the table also compiles faster. */
        bool consts = rel->nrules > CG_FACT_BLOCKS_MAX && rel->arity > 0;
        for (uint32_t k = 0; k < rel->nrules && consts; k++) {
            const IrRule *r = &ir->rules.v[ir->rule_index.v[rel->rules + k]];
            for (uint32_t i = 0; i < rel->arity && consts; i++)
                consts = ir->terms.v[ir->largs.v[r->args + i]].kind == IR_CONST;
        }
        if (consts) {
            line(&x, "/* %s/%" PRIu32 ": %" PRIu32 " facts */", csym(c, rel->sym), rel->arity,
                 rel->nrules);
            line(&x, "load_consts(ev, &ev->fs[%" PRIu32 "], FACTS%" PRIu32 ", %" PRIu32 ");", f, f, rel->nrules);
            strbuf_addf(&c->pre_data, "static const u32 FACTS%" PRIu32 "[%" PRIu32 "] = {", f,
                        rel->nrules * rel->arity);
            for (uint32_t k = 0, i = 0; k < rel->nrules; k++) {
                const IrRule *r = &ir->rules.v[ir->rule_index.v[rel->rules + k]];
                for (uint32_t a = 0; a < rel->arity; a++, i++)
                    strbuf_addf(&c->pre_data, "%s%" PRIu32 ",", i % 16 ? " " : "\n    ",
                                const_ix(c, ir->terms.v[ir->largs.v[r->args + a]].val));
            }
            strbuf_add(&c->pre_data, "\n};\n");
            continue;
        }
        line(&x, "/* %s/%" PRIu32 " */", csym(c, rel->sym), rel->arity);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            const IrRule *r = &ir->rules.v[ir->rule_index.v[rel->rules + k]];
            x.r = r;
            line(&x, "{");
            x.ind++;
            StrBuf b = {0};
            strbuf_add(&b, "");
            for (uint32_t i = 0; i < rel->arity; i++) {
                char v[64];
                gval(&x, ir->largs.v[r->args + i], v);
                strbuf_add(&b, i ? ", " : "");
                strbuf_add(&b, v);
            }
            line(&x, "u32 t_[%" PRIu32 "] = {%s};", rel->arity ? rel->arity : 1, rel->arity ? b.s : "0");
            line(&x, "fs_add(ev, &ev->fs[%" PRIu32 "], t_);", f);
            free(b.s);
            x.ind--;
            line(&x, "}");
        }
    }
    strbuf_add(out, "static void load_facts(Ev *ev)\n{\n    (void)ev;\n");
    strbuf_add(out, x.b.s);
    strbuf_add(out, "}\n\n");
    free(x.b.s);
}


void cg_note(StrBuf *o, const char hash[17])
{
    strbuf_addf(o, "\n#if defined(__ELF__) && !defined(__TINYC__)\n"
                   "__attribute__((section(\".note.gdlc\"), used, aligned(4)))\n"
                   "static const GdlcNote gdlc_note = {5, sizeof(GdlcNote) - 20, GDLC_NOTE_TYPE, \"gdlc\", GDLC_ABI, "
                   "\"%s\", \"%s\", \"\"};\n#endif\n",
                GDL_VERSION, hash);
}

void cg_game_hash(const Source *src, char out[17])
{
    snprintf(out, 17, "%016" PRIx64, base_hash_bytes(src->text, src->len, 0x67646c63));
}

/* Replaces the \001 markers with #line directives naming the C file. */
static char *fix_lines(const char *s, size_t len, const char *cname, size_t *outlen)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    uint32_t lno = 1;
    const char *p = s, *end = s + len;
    while (p < end) {
        const char *q = memchr(p, '\001', (size_t)(end - p));
        if (!q)
            q = end;
        for (const char *r = p; r < q; r++)
            lno += *r == '\n';
        size_t n = (size_t)(q - p);
        char *chunk = base_xstrndup(p, n);
        strbuf_add(&b, chunk);
        free(chunk);
        if (q < end) {
            strbuf_addf(&b, "#line %" PRIu32 " ", lno + 1);
            emit_c_string(&b, cname);
        }
        p = q + 1;
    }
    *outlen = b.len;
    return b.s;
}

static void cg_init(Cg *c, const CgPlan *p, const CgOptions *opt)
{
    const Front *f = p->f;
    *c = (Cg){.f = f, .ir = &f->ir, .opt = opt, .p = p};
    c->max_bytes = opt->max_bytes ? opt->max_bytes : CG_DEFAULT_MAX_BYTES;
    vec_reserve(c->sidx, f->syms.n + 1);
    vec_reserve(c->kidx, f->syms.n + 1);
    memset(c->sidx.v, 0, (f->syms.n + 1) * sizeof *c->sidx.v);
    memset(c->kidx.v, 0, (f->syms.n + 1) * sizeof *c->kidx.v);
    c->csyms = base_xcalloc(f->syms.n + 1, sizeof *c->csyms);
    c->cname = comment_safe(f->src->name, strlen(f->src->name));
    strbuf_add(&c->protos, "");
    strbuf_add(&c->funcs, "");
}

static void cg_free(Cg *c)
{
    for (uint32_t i = 0; i <= c->f->syms.n; i++)
        free(c->csyms[i]);
    free(c->csyms);
    free(c->cname);
    free(c->err);
    free(c->pre_data.s);
    vec_free(c->gix);
    vec_free(c->glist);
    free(c->protos.s);
    free(c->funcs.s);
    vec_free(c->sidx);
    vec_free(c->slist);
    vec_free(c->kidx);
    vec_free(c->klist);
}

char *cg_emit(const CgPlan *p, const CgOptions *opt, size_t *len, char **err)
{
    const Front *f = p->f;
    const Ir *ir = &f->ir;
    const uint32_t *root = p->root;
    Cg c;
    cg_init(&c, p, opt);
    for (uint32_t i = 0; i < ir->roles.n; i++)
        const_ix(&c, ir->roles.v[i]);
    for (uint32_t q = 0; q < p->qs.n && !c.err; q++)
        emit_query(&c, q);
    StrBuf facts = {0};
    if (!c.err)
        emit_load_facts(&c, &facts);
    char *result = NULL;
    if (c.err) {
        *err = c.err;
        c.err = NULL;
        goto done;
    }
    char hash[17];
    cg_game_hash(f->src, hash);
    StrBuf o = {0};
    strbuf_addf(&o, "/*\n * Generated by gdlc %s from %s (game hash %s). Do not edit.\n", GDL_VERSION,
                c.cname, hash);
    strbuf_add(&o, " * The engine's runtime (abi.h, engine.h, prelude.h) comes first; the game's code\n"
                   " * follows the line \"the game\".\n */\n");
    strbuf_add(&o, cg_text_abi);
    uint32_t nts = 0, nds = 0, nmask = 0, tany = BASE_NONE, dany = BASE_NONE, ngargs = 0;
    for (uint32_t i = 0; i < c.glist.n; i++)
        ngargs += gt_arity(opt->store, c.glist.v[i]);
    for (uint32_t i = 0; i < p->fs.n; i++) {
        const CgFs *s = &p->fs.v[i];
        nmask += s->masks.n;
        if (s->kind == FS_TRUE && s->sym == BASE_NONE)
            tany = i;
        else if (s->kind == FS_TRUE)
            nts++;
        if (s->kind == FS_DOES && s->sym == BASE_NONE)
            dany = i;
        else if (s->kind == FS_DOES)
            nds++;
    }
    strbuf_addf(&o,
                "\nenum { NQ = %" PRIu32 ", NFS = %" PRIu32 ", NSYM = %" PRIu32 ", NK = %" PRIu32 ", NROLE = %" PRIu32
                ", NTS = %" PRIu32 ", NDS = %" PRIu32 ", NMASK = %" PRIu32 ",\n       NG = %" PRIu32 ", NGARGS = %" PRIu32 " };\n",
                p->qs.n, p->fs.n, c.slist.n, c.klist.n, ir->roles.n, nts, nds, nmask, c.glist.n, ngargs);
    char tbuf[16] = "NONE", dbuf[16] = "NONE";
    if (tany != BASE_NONE)
        sprintf(tbuf, "%" PRIu32 "u", tany);
    if (dany != BASE_NONE)
        sprintf(dbuf, "%" PRIu32 "u", dany);
    strbuf_addf(&o, "#define TANY %s\n#define DANY %s\n\n", tbuf, dbuf);
    strbuf_add(&o, cg_text_engine);
    strbuf_add(&o, cg_text_prelude);
    /* The identity note of a shared object (abi.h), read before loading it;
     * libtcc's in-memory code (jit) needs none. */
    cg_note(&o, hash);
    strbuf_add(&o, "\n/* ==== the game ==== */\n\n");
    strbuf_add(&o, "static const char *const SYMNAME[NSYM + 1] = {\n");
    for (uint32_t i = 0; i < c.slist.n; i++) {
        strbuf_add(&o, "    ");
        emit_c_string(&o, symtab_str(&f->syms, c.slist.v[i]));
        strbuf_addf(&o, ", /* S[%" PRIu32 "] */\n", i);
    }
    strbuf_add(&o, "    0};\nstatic const u32 KSYM[NK + 1] = {");
    for (uint32_t i = 0; i < c.klist.n; i++)
        strbuf_addf(&o, "%" PRIu32 ", ", c.klist.v[i]);
    strbuf_add(&o, "0};\nstatic const u32 ROLESYM[NROLE + 1] = {");
    for (uint32_t i = 0; i < ir->roles.n; i++)
        strbuf_addf(&o, "%" PRIu32 ", ", c.sidx.v[ir->roles.v[i]] - 1);
    strbuf_add(&o, "0};\n");
    strbuf_add(&o, "static const u32 ROOT[GQ_N] = {");
    for (int i = 0; i < GQ_N; i++)
        if (root[i] == BASE_NONE)
            strbuf_add(&o, i ? ", NONE" : "NONE");
        else
            strbuf_addf(&o, i ? ", %" PRIu32 : "%" PRIu32, root[i]);
    strbuf_add(&o, "};\n\n/* Fact sets: arity, level, indexes, first mask. */\n");
    strbuf_add(&o, "static const FsInfo FSI[NFS + 1] = {\n");
    uint32_t m0 = 0;
    for (uint32_t i = 0; i < p->fs.n; i++) {
        const CgFs *s = &p->fs.v[i];
        const char *what = s->kind == FS_TRUE ? "true" : s->kind == FS_DOES ? "does" : "facts of";
        const char *name = s->kind == FS_FACTS ? csym(&c, ir->rels.v[s->rel].sym)
                           : s->sym == BASE_NONE ? "any"
                                                 : csym(&c, s->sym);
        strbuf_addf(&o, "    {%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 "}, /* %" PRIu32 ": %s %s/%" PRIu32 " */\n",
                    s->arity, s->level, s->masks.n, m0, i, what, name, s->kind == FS_FACTS ? s->arity : s->sarity);
        m0 += s->masks.n;
    }
    strbuf_add(&o, "    {0, 0, 0, 0}};\nstatic const u64 FSMASK[NMASK + 1] = {");
    for (uint32_t i = 0; i < p->fs.n; i++)
        for (uint32_t k = 0; k < p->fs.v[i].masks.n; k++)
            strbuf_addf(&o, "0x%" PRIx64 "ULL, ", p->fs.v[i].masks.v[k]);
    strbuf_add(&o, "0};\n/* Shapes of state facts and moves: functor, arity, fact set. */\n");
    strbuf_add(&o, "static const Shape TSH[NTS + 1] = {");
    for (uint32_t i = 0; i < p->fs.n; i++)
        if (p->fs.v[i].kind == FS_TRUE && p->fs.v[i].sym != BASE_NONE)
            strbuf_addf(&o, "{%" PRIu32 ", %" PRIu32 ", %" PRIu32 "}, ", c.sidx.v[p->fs.v[i].sym] - 1, p->fs.v[i].sarity, i);
    strbuf_add(&o, "{0, 0, 0}};\nstatic const Shape DSH[NDS + 1] = {");
    for (uint32_t i = 0; i < p->fs.n; i++)
        if (p->fs.v[i].kind == FS_DOES && p->fs.v[i].sym != BASE_NONE)
            strbuf_addf(&o, "{%" PRIu32 ", %" PRIu32 ", %" PRIu32 "}, ", c.sidx.v[p->fs.v[i].sym] - 1, p->fs.v[i].sarity, i);
    strbuf_add(&o, "{0, 0, 0}};\n\n");
    strbuf_add(&o, c.protos.s);
    strbuf_add(&o, "\n");
    strbuf_add(&o, c.funcs.s);
    strbuf_add(&o, "static const QInfo QI[NQ] = {\n");
    for (uint32_t q = 0; q < p->qs.n; q++) {
        const IrRel *rel = &ir->rels.v[p->qs.v[q].rel];
        char fn[24] = "0";
        if (!p->qs.v[q].exists)
            sprintf(fn, "q%" PRIu32, q);
        strbuf_addf(&o, "    {%" PRIu32 ", %" PRIu32 ", 0x%" PRIx64 "ULL, %s}, /* %s%s */\n", rel->arity,
                    cg_rel_level(ir, p->qs.v[q].rel), p->qs.v[q].mask, fn, csym(&c, rel->sym),
                    p->qs.v[q].exists ? ", yes/no" : "");
    }
    strbuf_add(&o, "};\n\n");
    strbuf_add(&o, "/* Terms of the facts evaluated when compiling: symbol, arity, first argument. */\n");
    strbuf_add(&o, "static const u32 GTERM[NG * 3 + 1] = {");
    for (uint32_t i = 0, first = 0; i < c.glist.n; i++) {
        uint32_t ar = gt_arity(opt->store, c.glist.v[i]);
        strbuf_addf(&o, "%s%" PRIu32 ", %" PRIu32 ", %" PRIu32 ",", i % 6 ? " " : "\n    ",
                    c.sidx.v[gt_fn(opt->store, c.glist.v[i])] - 1, ar, first);
        first += ar;
    }
    strbuf_add(&o, "\n    0};\nstatic const u32 GARGS[NGARGS + 1] = {");
    for (uint32_t i = 0; i < c.glist.n; i++)
        for (uint32_t k = 0; k < gt_arity(opt->store, c.glist.v[i]); k++)
            strbuf_addf(&o, "%" PRIu32 ", ", c.gix.v[gt_arg(opt->store, c.glist.v[i], k)] - 1);
    strbuf_add(&o, "0};\n");
    strbuf_add(&o, c.pre_data.s ? c.pre_data.s : "");
    strbuf_add(&o, "\n");
    strbuf_add(&o, facts.s);
    strbuf_addf(&o, "const GdlcModule gdlc_module = {GDLC_ABI, \"%s\", \"%s\", m_create, m_destroy, m_set_state, "
                    "m_set_move, m_query};\n",
                GDL_VERSION, hash);
    if (o.len > c.max_bytes) {
        *err = base_sprintf("the generated C would exceed %zu MiB (the backend's size limit)", c.max_bytes >> 20);
        free(o.s);
        goto done;
    }
    if (opt->no_lines) {
        result = o.s;
        *len = o.len;
    } else {
        char *cname = opt->c_name ? base_xstrdup(opt->c_name) : base_sprintf("%s.c", f->src->name);
        result = fix_lines(o.s, o.len, cname, len);
        free(cname);
        free(o.s);
    }
done:
    free(facts.s);
    cg_free(&c);
    return result;
}
