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
 *   legal_2_bf()        runs every rule of the relation (legal/2) for the
 *                       pattern (first argument bound, second free);
 *   legal_2_bf_rule7()  one rule (the IR's rule 7): unify the head with
 *                       the call's bound values, then the body as nested
 *                       loops, then add the head to the table;
 *   reach_2_bf_rule7_after1()  a continuation: the rest of rule 7 after
 *                       its body literal 1 (counted as in the .kif), when
 *                       that literal calls a relation of the head's own
 *                       recursive component (engine.h explains how these
 *                       are fed);
 *   blocked_1_b_holds(), blocked_1_b_holds_rule8()  yes/no functions: is
 *                       there a proof of a call with every position bound
 *                       (or only don't-care variables free)?
 * A query's number is Q_ and its function's name (Q_legal_2_bf); see
 * "names" below for how the names are made.
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
 * only names things: queries, symbols (S_), constants (K_), variables,
 * temporaries (a letter and a number).
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
    VEC(char *) snames, knames; /* S index, K index -> its name (S_cell, K_cell) */
    char **qname;        /* query -> the name of its function (legal_2_bf) */
    char **fsname;       /* fact set -> its name (T_cell_3, D_mark_2, F_succ_2, TANY) */
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
    bool *bound, *used, *read; /* per variable: bound here; declared; read */
    char **vname;               /* per variable: its name (var_name) */
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
    VEC(struct Known { uint32_t term; char expr[192]; }) known;
} Fx;

static void fail_limit(Cg *c, char *msg)
{
    if (!c->err)
        c->err = msg;
    else
        free(msg);
}

/* ---- names ------------------------------------------------------------ */

/* Names in the generated C come from the game: a query is named after its
 * relation, arity and binding pattern (legal_2_bf: legal/2, first argument
 * bound), a rule's function after the query and the rule (legal_2_bf_rule7),
 * a variable after the rule's variable (?x1 is x1), a symbol after its text
 * (S_cell, K_cell: its index in S and K). The names are a function of the
 * game alone, so the file stays byte-identical across runs, and injective:
 *  - a name used as written only holds [a-z0-9] (and '_' inside a
 *    relation's name), is short (CG_NAME_MAX), and is no C keyword nor a name
 *    the generated code uses itself;
 *  - anything else (other characters, too long, a clash) is written
 *    sanitised and truncated, followed by the number that makes it unique,
 *    in a form the verbatim names cannot take (S12_cell_x, v3_if,
 *    next_to_2_bf_q5).
 * Nothing from outside reaches an identifier unless it is [A-Za-z0-9_]. */
enum { CG_NAME_MAX = 24, CG_NAME_PART = 16 };

static bool name_char(char ch, bool under)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || (under && ch == '_');
}

/* s with every character outside [A-Za-z0-9] as '_', runs of them as one,
 * none at either end, at most CG_NAME_PART characters, appended to b. */
static void name_sanitised(StrBuf *b, const char *s)
{
    size_t n = 0;
    bool gap = false;
    for (; *s && n < CG_NAME_PART; s++) {
        if (!name_char(*s, false)) {
            gap = n > 0;
            continue;
        }
        if (gap) {
            strbuf_add(b, "_");
            n++;
            gap = false;
        }
        char t[2] = {*s, 0};
        strbuf_add(b, t);
        n++;
    }
}

/* A symbol's name after prefix ("S" or "K"), its index ix in that table. */
static char *sym_name(const char *prefix, const char *text, uint32_t ix)
{
    size_t len = strlen(text);
    bool plain = len > 0 && len <= CG_NAME_MAX;
    for (size_t i = 0; plain && i < len; i++)
        plain = name_char(text[i], false);
    if (plain)
        return base_sprintf("%s_%s", prefix, text);
    StrBuf b = {0};
    strbuf_addf(&b, "%s%" PRIu32, prefix, ix);
    StrBuf t = {0};
    strbuf_add(&t, "");
    name_sanitised(&t, text);
    if (t.len)
        strbuf_addf(&b, "_%s", t.s);
    free(t.s);
    return b.s;
}

/* Identifiers a variable's name must not shadow or be: C's keywords and
 * the lowercase names the generated functions use. Temporaries are a
 * letter and a number (a5, f3; see var_name). */
static const char *const RESERVED[] = {
    "a", "ans", "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "e", "else",
    "enum", "env", "ev", "extern", "float", "for", "goto", "if", "inline", "int", "key", "long", "mkn",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "u32", "u64", "u8", "union", "unsigned", "usize", "void", "volatile", "while", "zero",
};

/* The C name of variable v of a rule, whose name in the game is text
 * ("?x1"). Verbatim names are [a-z][a-z0-9]* without '_', so they never
 * meet the fallback "v<number>_..." nor a function or symbol name (those
 * hold '_'); temporaries are one of the letters below and a number. */
static char *var_name(const char *text, uint32_t v)
{
    const char *s = text[0] == '?' ? text + 1 : text;
    size_t len = strlen(s);
    bool plain = len > 0 && len <= CG_NAME_MAX && s[0] >= 'a' && s[0] <= 'z';
    for (size_t i = 0; plain && i < len; i++)
        plain = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9');
    if (plain && strchr("aefghikstvy", s[0]) && len > 1 && strspn(s + 1, "0123456789") == len - 1)
        plain = false; /* a temporary's form */
    for (size_t i = 0; plain && i < sizeof RESERVED / sizeof *RESERVED; i++)
        plain = strcmp(s, RESERVED[i]) != 0;
    if (plain)
        return base_xstrdup(s);
    StrBuf b = {0};
    strbuf_addf(&b, "v%" PRIu32, v);
    StrBuf t = {0};
    strbuf_add(&t, "");
    name_sanitised(&t, s);
    if (t.len)
        strbuf_addf(&b, "_%s", t.s);
    free(t.s);
    return b.s;
}

/* The name of every query (see above): REL_ARITY[_PATTERN][_holds], or,
 * for a relation's name that is not plain or two queries that would meet,
 * the same from the sanitised name followed by _q<number>. The last part
 * of a name tells the forms apart: a pattern of b and f, the arity, "holds"
 * or "q" and a number, never "rule" or "after" (a rule's function, a
 * continuation: see emit_function). */
static void query_names(Cg *c)
{
    const CgPlan *p = c->p;
    const Ir *ir = c->ir;
    c->qname = base_xcalloc(p->qs.n + 1, sizeof *c->qname);
    bool *clash = base_xcalloc(p->qs.n + 1, sizeof *clash);
    for (uint32_t q = 0; q < p->qs.n; q++) {
        const IrRel *rel = &ir->rels.v[p->qs.v[q].rel];
        const char *r = symtab_str(&c->f->syms, rel->sym);
        size_t len = strlen(r);
        bool plain = len > 0 && len <= CG_NAME_MAX + 8 && r[0] >= 'a' && r[0] <= 'z' && r[len - 1] != '_' && !strstr(r, "__");
        for (size_t i = 0; plain && i < len; i++)
            plain = name_char(r[i], true) && !(r[i] >= 'A' && r[i] <= 'Z');
        StrBuf b = {0};
        strbuf_add(&b, "");
        if (plain)
            strbuf_add(&b, r);
        else {
            StrBuf t = {0};
            strbuf_add(&t, "");
            name_sanitised(&t, r);
            if (!t.len || !(t.s[0] >= 'a' && t.s[0] <= 'z') )
                strbuf_add(&b, "r");
            strbuf_add(&b, t.s);
            free(t.s);
        }
        strbuf_addf(&b, "_%" PRIu32, rel->arity);
        if (rel->arity) {
            strbuf_add(&b, "_");
            for (uint32_t i = 0; i < rel->arity; i++)
                strbuf_add(&b, p->qs.v[q].mask >> i & 1 ? "b" : "f");
        }
        if (p->qs.v[q].exists)
            strbuf_add(&b, "_holds");
        c->qname[q] = b.s;
        clash[q] = !plain;
    }
    /* two queries of one relation and pattern: both numbered */
    for (uint32_t q = 0; q < p->qs.n; q++)
        for (uint32_t o = q + 1; o < p->qs.n; o++)
            if (!strcmp(c->qname[q], c->qname[o]))
                clash[q] = clash[o] = true;
    for (uint32_t q = 0; q < p->qs.n; q++)
        if (clash[q]) {
            char *n = base_sprintf("%s_q%" PRIu32, c->qname[q], q);
            free(c->qname[q]);
            c->qname[q] = n;
        }
    free(clash);
}

/* The name of every fact set: T_ (state facts), D_ (moves) or F_ (facts
 * of a relation), the functor's or relation's name and the arity
 * (T_cell_3), TANY and DANY (engine.h's names) for the sets of all state
 * facts and moves; a name that is not plain gets the set's number
 * (T4_cell_state_2), two sets that would meet get it at the end. */
static void fs_names(Cg *c)
{
    const CgPlan *p = c->p;
    c->fsname = base_xcalloc(p->fs.n + 1, sizeof *c->fsname);
    for (uint32_t i = 0; i < p->fs.n; i++) {
        const CgFs *s = &p->fs.v[i];
        if (s->kind != FS_FACTS && s->sym == BASE_NONE) {
            c->fsname[i] = base_xstrdup(s->kind == FS_TRUE ? "TANY" : "DANY");
            continue;
        }
        uint32_t sym = s->kind == FS_FACTS ? c->ir->rels.v[s->rel].sym : s->sym;
        char *n = sym_name(s->kind == FS_TRUE ? "T" : s->kind == FS_DOES ? "D" : "F", symtab_str(&c->f->syms, sym), i);
        c->fsname[i] = base_sprintf("%s_%" PRIu32, n, s->kind == FS_FACTS ? s->arity : s->sarity);
        free(n);
    }
    for (uint32_t i = 0; i < p->fs.n; i++)
        for (uint32_t o = i + 1; o < p->fs.n; o++)
            if (!strcmp(c->fsname[i], c->fsname[o])) {
                char *n = base_sprintf("%s_%" PRIu32, c->fsname[o], o);
                free(c->fsname[o]);
                c->fsname[o] = n;
            }
}

static uint32_t sym_ix(Cg *c, uint32_t sym)
{
    if (!c->sidx.v[sym]) {
        vec_push(c->slist, sym);
        c->sidx.v[sym] = c->slist.n;
        vec_push(c->snames, sym_name("S", symtab_str(&c->f->syms, sym), c->slist.n - 1));
    }
    return c->sidx.v[sym] - 1;
}

/* The name of symbol sym's index in S (S_cell). */
static const char *sname(Cg *c, uint32_t sym)
{
    uint32_t i = sym_ix(c, sym); /* first: it may grow snames */
    return c->snames.v[i];
}

static uint32_t const_ix(Cg *c, uint32_t sym)
{
    if (!c->kidx.v[sym]) {
        vec_push(c->klist, sym_ix(c, sym));
        c->kidx.v[sym] = c->klist.n;
        vec_push(c->knames, sym_name("K", symtab_str(&c->f->syms, sym), c->klist.n - 1));
    }
    return c->kidx.v[sym] - 1;
}

/* The name of constant sym's index in K (K_cell). */
static const char *kname(Cg *c, uint32_t sym)
{
    uint32_t i = const_ix(c, sym); /* first: it may grow knames */
    return c->knames.v[i];
}

/* Is name used as an identifier in s (not as a member after . or ->)? */
static bool ident_in(const char *s, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
        char before = p > s ? p[-1] : ' ', after = p[n];
        if (!name_char(before, true) && before != '.' && before != '>' && !name_char(after, true))
            return true;
    }
    return false;
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

/* A variable's name into buf (64 bytes), where the code reads it. */
static const char *var(Fx *x, uint32_t v, char *buf)
{
    x->used[v] = x->read[v] = true;
    snprintf(buf, 64, "%s", x->vname[v]);
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
        sprintf(out, "K[%s]", kname(x->c, p->val));
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
    line(x, "u32 g%" PRIu32 " = mkn(ev, S[%s], %" PRIu32 ", a%" PRIu32 ");", n, sname(x->c, fsym), p->nargs, n);
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
            x->used[p->val] = true;
            line(x, "%s = %s;", x->vname[p->val], expr);
            x->bound[p->val] = true;
        }
        return;
    case IR_CONST:
        line(x, "if (%s != K[%s]) %s;", expr, kname(x->c, p->val), x->fail);
        return;
    default: {
        uint32_t n = x->c->tmp++;
        uint32_t fsym = x->c->ir->funcs.v[p->val].sym;
        line(x, "u32 t%" PRIu32 " = %s;", n, expr);
        line(x, "if (FN(t%" PRIu32 ") != S[%s] || AR(t%" PRIu32 ") != %" PRIu32 ") %s;", n,
             sname(x->c, fsym), n, p->nargs, x->fail);
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
static void lookup_call(char *out, const char *fs, uint32_t slot, uint32_t n, uint64_t mask)
{
    uint32_t at[3] = {0, 0, 0}, m = 0;
    for (uint32_t i = 0; i < 64 && m <= 3; i++)
        if (mask >> i & 1) {
            if (m < 3)
                at[m] = i;
            m++;
        }
    if (m == 0 || m > 3)
        sprintf(out, "fs_first(ev, &ev->fs[%s], %" PRIu32 ", k%" PRIu32 ")", fs, slot, n);
    else
        sprintf(out, "fs_get(ev, &ev->fs[%s], %" PRIu32 ", k%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32
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

/* Removes the line [from, to) of x->b, the declaration of name, when
 * nothing after it uses name. */
static void drop_if_unused(Fx *x, size_t from, size_t to, const char *name)
{
    if (ident_in(x->b.s + to, name))
        return;
    memmove(x->b.s + from, x->b.s + to, x->b.len - to + 1);
    x->b.len -= to - from;
}

/* A literal over a fact set (the plan's step s). For a state fact, term is
 * the fact's term (its id is the last column of the set), else BASE_NONE. */
static void emit_set_lit(Fx *x, uint32_t li, const CgStep *s, const uint32_t *pos, uint32_t k, bool neg, uint32_t term)
{
    const char *fs = x->c->fsname[s->target];
    uint32_t n = x->c->tmp++, width = x->c->p->fs.v[s->target].arity;
    uint32_t known = x->known.n;
    if (k == 0) {
        line(x, "if (%sev->fs[%s].n) %s;", neg ? "" : "!", fs, x->fail);
        emit_lits(x, li + 1);
        return;
    }
    uint64_t mask = emit_key(x, pos, k, n, false);
    uint32_t slot = s->slot;
    assert(mask == s->mask);
    char get[256], id[192];
    lookup_call(get, fs, slot, n, mask);
    if (mask == cg_full_mask(k)) {
        if (neg || term == BASE_NONE) {
            line(x, "if (%s %s NONE) %s;", get, neg ? "!=" : "==", x->fail);
        } else {
            line(x, "u32 f%" PRIu32 " = %s;", n, get);
            line(x, "if (f%" PRIu32 " == NONE) %s;", n, x->fail);
            snprintf(id, sizeof id, "ev->fs[%s].tup[(usize)f%" PRIu32 " * %" PRIu32 " + %" PRIu32 "]", fs, n,
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
        line(x, "for (u32 f%" PRIu32 " = 0; f%" PRIu32 " < ev->fs[%s].n; f%" PRIu32 "++) {", n, n, fs, n);
    else
        line(x,
             "for (u32 f%" PRIu32 " = %s; f%" PRIu32 " != NONE; f%" PRIu32 " = ev->fs[%s].ix[%" PRIu32
             "].next[f%" PRIu32 "]) {",
             n, get, n, n, fs, slot, n);
    const char *fail = x->fail;
    bool test = binds_nothing(x, pos, k, mask);
    x->ind++;
    x->fail = "continue";
    size_t decl = x->b.len;
    line(x, "const u32 *a%" PRIu32 " = ev->fs[%s].tup + (usize)f%" PRIu32 " * %" PRIu32 ";", n, fs, n, width);
    size_t declend = x->b.len;
    line(x, "POLL(%s);", x->ret);
    char tup[32];
    sprintf(tup, "a%" PRIu32, n);
    match_free(x, pos, k, mask, tup);
    if (test) {
        /* the first match is enough */
        line(x, "s%" PRIu32 " = 1;", n);
        line(x, "break;");
        drop_if_unused(x, decl, declend, tup);
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
    drop_if_unused(x, decl, declend, tup);
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
        line(x, "Table *t%" PRIu32 " = tb_call_complete(ev, Q_%s, k%" PRIu32 ");", n, c->qname[q], n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        line(x, "if (%stb_has(ev, t%" PRIu32 ", %" PRIu32 ", k%" PRIu32 ")) %s;", l->kind == IR_LIT_NEG ? "" : "!", n, k, n,
             x->fail);
        emit_lits(x, li + 1);
    } else if (s->kind == CG_STEP_YESNO) {
        line(x, "int y%" PRIu32 " = %s(ev, k%" PRIu32 ");", n, c->qname[q], n);
        line(x, "if (STOP) %s;", x->ret);
        line(x, "if (%sy%" PRIu32 ") %s;", l->kind == IR_LIT_NEG ? "" : "!", n, x->fail);
        emit_lits(x, li + 1);
    } else if (s->kind == CG_STEP_NEGATED) {
        line(x, "Table *t%" PRIu32 " = tb_call_complete(ev, Q_%s, k%" PRIu32 ");", n, c->qname[q], n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        line(x, "if (t%" PRIu32 "->n) %s;", n, x->fail);
        emit_lits(x, li + 1);
    } else if (s->kind == CG_STEP_RECURSIVE) {
        /* The rest of the body becomes a continuation fed by the table. */
        line(x, "Table *t%" PRIu32 " = tb_call(ev, Q_%s, k%" PRIu32 ");", n, c->qname[q], n);
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
        line(x, "tb_consume(ev, t%" PRIu32 ", %s_rule%" PRIu32 "_after%" PRIu32 ", T, e%" PRIu32 ", %" PRIu32 ");", n,
             c->qname[x->q], x->rule, x->steps[li].lit + 1, n, nv);
        line(x, "if (STOP) %s;", x->ret);
        emit_function(c, x->rule, x->q, x->steps, li, before);
    } else {
        line(x, "Table *t%" PRIu32 " = tb_call_complete(ev, Q_%s, k%" PRIu32 ");", n, c->qname[q], n);
        line(x, "if (!t%" PRIu32 ") %s;", n, x->ret);
        if (mask == cg_full_mask(k)) {
            line(x, "if (!t%" PRIu32 "->n) %s;", n, x->fail);
            emit_lits(x, li + 1);
        } else {
            line(x, "for (u32 i%" PRIu32 " = 0; i%" PRIu32 " < t%" PRIu32 "->n; i%" PRIu32 "++) {", n, n, n, n);
            const char *fail = x->fail;
            x->ind++;
            x->fail = "continue";
            size_t decl = x->b.len;
            line(x, "const u32 *a%" PRIu32 " = t%" PRIu32 "->ans + (usize)i%" PRIu32 " * %" PRIu32 ";", n, n, n, k);
            size_t declend = x->b.len;
            char tup[32];
            sprintf(tup, "a%" PRIu32, n);
            match_free(x, pos, k, mask, tup);
            emit_lits(x, li + 1);
            drop_if_unused(x, decl, declend, tup);
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
    x.read = base_xcalloc(nv + 1, sizeof *x.read);
    x.vname = base_xcalloc(nv + 1, sizeof *x.vname);
    for (uint32_t v = 0; v < nv; v++)
        x.vname[v] = var_name(symtab_str(&c->f->syms, ir->varsyms.v[r->varnames + v]), v);
    x.occ = base_xcalloc(nv + 1, sizeof *x.occ);
    for (uint32_t i = 0; i < ir->rels.v[r->head].arity; i++)
        count_occ(ir, ir->largs.v[r->args + i], x.occ);
    for (uint32_t i = 0; i < r->nlits; i++) {
        const IrLit *l = &ir->lits.v[r->lits + i];
        for (uint32_t j = 0; j < l->nargs; j++)
            count_occ(ir, ir->largs.v[l->args + j], x.occ);
    }
    strbuf_add(&x.b, "");
    char *name;
    bool cont = li != BASE_NONE;
    if (!cont) {
        name = base_sprintf("%s_rule%" PRIu32, c->qname[q], rule);
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
        name = base_sprintf("%s_rule%" PRIu32 "_after%" PRIu32, c->qname[q], rule, steps[li].lit + 1);
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
        strbuf_addf(&fn, "/* %s:%" PRIu32 ": %s\n   the rest after body literal %" PRIu32 ", fed by its table */\n",
                    c->cname, lno, text, steps[li].lit + 1);
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
    /* a variable only set (a yes/no function does not build its head) is
     * declared unused rather than its settings left out */
    bool env = false;
    for (uint32_t v = 0; v < nv; v++)
        if (x.used[v]) {
            const char *mu = x.read[v] ? "" : "MAYBE_UNUSED ";
            if (cont && bound[v]) {
                strbuf_addf(&fn, "    %su32 %s = e[%" PRIu32 "];\n", mu, x.vname[v], v);
                env = true;
            } else
                strbuf_addf(&fn, "    %su32 %s = 0;\n", mu, x.vname[v]);
        }
    if (cont && !env)
        strbuf_add(&fn, "    (void)e;\n");
    if (cont && !ident_in(x.b.s, "a"))
        strbuf_add(&fn, "    (void)a;\n");
    if (exists && !ident_in(x.b.s, "key"))
        strbuf_add(&fn, "    (void)key;\n");
    strbuf_add(&fn, x.b.s);
    /* a proof found at the top level of the body ends the function */
    size_t blen = strlen(x.b.s);
    if (exists && !(blen >= 14 && !strcmp(x.b.s + blen - 14, "\n    return 1;\n")))
        strbuf_add(&fn, "    return 0;\n");
    strbuf_add(&fn, "}\n");
    if (!c->opt->no_lines)
        strbuf_add(&fn, "\001\n");
    strbuf_add(&fn, "\n");
    strbuf_add(&c->funcs, fn.s);
    free(fn.s);
    free(x.b.s);
    free(name);
    for (uint32_t v = 0; v < nv; v++)
        free(x.vname[v]);
    free(x.vname);
    free(x.read);
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
        /* no check of STOP after the last rule: the function returns then */
        bool last = k + 1 == rel->nrules;
        if (cq.exists)
            strbuf_addf(&d, "    if (%s_rule%" PRIu32 "(ev, key))\n        return 1;\n%s", c->qname[q], rule,
                        last ? "" : "    if (STOP)\n        return 0;\n");
        else
            strbuf_addf(&d, "    %s_rule%" PRIu32 "(ev, T);\n%s", c->qname[q], rule, last ? "" : "    if (STOP) return;\n");
    }
    char pat[CG_MAX_ARITY + 1];
    for (uint32_t i = 0; i < rel->arity; i++)
        pat[i] = cq.mask >> i & 1 ? 'b' : 'f';
    pat[rel->arity] = 0;
    if (cq.exists) {
        strbuf_addf(&c->protos, "static int %s(Ev *ev, const u32 *key);\n", c->qname[q]);
        strbuf_addf(&c->funcs, "/* %s/%" PRIu32 " with every argument bound: is there a proof? */\nstatic int %s"
                               "(Ev *ev, const u32 *key)\n{\n",
                    csym(c, rel->sym), rel->arity, c->qname[q]);
        if (!rel->nrules)
            strbuf_add(&c->funcs, "    (void)ev;\n    (void)key;\n");
        else /* yes/no functions nest once per level of a proof (engine.h) */
            strbuf_addf(&c->funcs, "    if (DEEP)\n        return x_hop(ev, %s, key);\n", c->qname[q]);
        strbuf_add(&c->funcs, d.s);
        strbuf_add(&c->funcs, "    return 0;\n}\n\n");
        free(d.s);
        return;
    }
    strbuf_addf(&c->protos, "static void %s(Ev *ev, Table *T);\n", c->qname[q]);
    strbuf_addf(&c->funcs, "/* %s/%" PRIu32 " called with pattern %s */\nstatic void %s(Ev *ev, Table *T)\n{\n",
                csym(c, rel->sym), rel->arity, rel->arity ? pat : "()", c->qname[q]);
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
    x.bound = x.used = x.read = &dummy;
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
            line(&x, "load_pre(ev, &ev->fs[%s], PRE%" PRIu32 ", %" PRIu32 ");", c->fsname[f], f, n);
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
            line(&x, "load_consts(ev, &ev->fs[%s], FACTS%" PRIu32 ", %" PRIu32 ");", c->fsname[f], f, rel->nrules);
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
            line(&x, "fs_add(ev, &ev->fs[%s], t_);", c->fsname[f]);
            free(b.s);
            x.ind--;
            line(&x, "}");
        }
    }
    strbuf_add(out, x.b.len ? "static void load_facts(Ev *ev)\n{\n" : "static void load_facts(Ev *ev)\n{\n    (void)ev;\n");
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

/* The declarations (first) or the code (!first) of engine.h or prelude.h:
 * the text before or after its line "==== the runtime's code ====", which
 * the game's code goes between. */
static void add_half(StrBuf *o, const char *text, bool first)
{
    const char *mark = strstr(text, "\n/* ==== the runtime's code ==== ");
    assert(mark);
    if (first) {
        char *head = base_xstrndup(text, (size_t)(mark - text) + 1);
        strbuf_add(o, head);
        free(head);
    } else {
        const char *eol = strchr(mark + 1, '\n');
        strbuf_add(o, eol ? eol + 1 : "");
    }
}

/* An enum of names (each after prefix), numbered from 0 in order, in
 * lines of about 100 columns. */
static void emit_enum(StrBuf *o, char *const *names, uint32_t n, const char *prefix)
{
    if (!n)
        return;
    strbuf_add(o, "enum {");
    size_t col = 100;
    for (uint32_t i = 0; i < n; i++) {
        size_t w = strlen(prefix) + strlen(names[i]) + 2;
        if (col + w > 100) {
            strbuf_add(o, "\n   ");
            col = 3;
        }
        strbuf_addf(o, " %s%s,", prefix, names[i]);
        col += w;
    }
    strbuf_add(o, "\n};\n");
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
    query_names(c);
    fs_names(c);
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
    for (uint32_t i = 0; i < c->snames.n; i++)
        free(c->snames.v[i]);
    for (uint32_t i = 0; i < c->knames.n; i++)
        free(c->knames.v[i]);
    vec_free(c->snames);
    vec_free(c->knames);
    for (uint32_t q = 0; q < c->p->qs.n; q++)
        free(c->qname[q]);
    free(c->qname);
    for (uint32_t i = 0; i < c->p->fs.n; i++)
        free(c->fsname[i]);
    free(c->fsname);
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
    strbuf_add(&o, " * The declarations of the engine's runtime (abi.h, engine.h, prelude.h) come\n"
                   " * first, then the game's code, from the line \"the game\" to the line \"end of\n"
                   " * the game\", then the runtime's code.\n */\n");
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
    add_half(&o, cg_text_engine, true);
    add_half(&o, cg_text_prelude, true);
    strbuf_add(&o, "\n/* ==== the game ==== */\n\n");
    strbuf_add(&o, "/* Symbols: S[S_cell] is the id of the symbol cell, K[K_cell] that of the\n"
                   " * constant term cell; Q_ names a query (a relation and binding pattern). */\n");
    emit_enum(&o, c.snames.v, c.snames.n, "");
    emit_enum(&o, c.knames.v, c.knames.n, "");
    emit_enum(&o, c.qname, p->qs.n, "Q_");
    strbuf_add(&o, "/* Fact sets: ev->fs[T_cell_3] holds the state facts (cell _ _ _), D_ the moves\n"
                   " * by functor, F_ the facts of a relation, TANY and DANY all of them. */\n");
    uint32_t named = 0;
    for (uint32_t i = 0, col = 100; i < p->fs.n; i++) {
        if (!strcmp(c.fsname[i], "TANY") || !strcmp(c.fsname[i], "DANY"))
            continue;
        if (!named++)
            strbuf_add(&o, "enum {");
        char e[160];
        snprintf(e, sizeof e, " %s = %" PRIu32 ",", c.fsname[i], i);
        if (col + strlen(e) > 100) {
            strbuf_add(&o, "\n   ");
            col = 3;
        }
        strbuf_add(&o, e);
        col += (uint32_t)strlen(e);
    }
    if (named)
        strbuf_add(&o, "\n};\n");
    strbuf_add(&o, "\nstatic const char *const SYMNAME[NSYM + 1] = {\n");
    for (uint32_t i = 0; i < c.slist.n; i++) {
        strbuf_addf(&o, "    [%s] = ", c.snames.v[i]);
        emit_c_string(&o, symtab_str(&f->syms, c.slist.v[i]));
        strbuf_add(&o, ",\n");
    }
    strbuf_add(&o, "    0};\nstatic const u32 KSYM[NK + 1] = {");
    for (uint32_t i = 0; i < c.klist.n; i++)
        strbuf_addf(&o, "%s, ", c.snames.v[c.klist.v[i]]);
    strbuf_add(&o, "0};\nstatic const u32 ROLESYM[NROLE + 1] = {");
    for (uint32_t i = 0; i < ir->roles.n; i++)
        strbuf_addf(&o, "%s, ", c.snames.v[c.sidx.v[ir->roles.v[i]] - 1]);
    strbuf_add(&o, "0};\n");
    strbuf_add(&o, "static const u32 ROOT[GQ_N] = {");
    for (int i = 0; i < GQ_N; i++)
        if (root[i] == BASE_NONE)
            strbuf_add(&o, i ? ", NONE" : "NONE");
        else
            strbuf_addf(&o, i ? ", Q_%s" : "Q_%s", c.qname[root[i]]);
    strbuf_add(&o, "};\n\n/* Fact sets: arity, level, indexes, first mask. */\n");
    strbuf_add(&o, "static const FsInfo FSI[NFS + 1] = {\n");
    uint32_t m0 = 0;
    for (uint32_t i = 0; i < p->fs.n; i++) {
        const CgFs *s = &p->fs.v[i];
        const char *what = s->kind == FS_TRUE ? "true" : s->kind == FS_DOES ? "does" : "facts of";
        const char *name = s->kind == FS_FACTS ? csym(&c, ir->rels.v[s->rel].sym)
                           : s->sym == BASE_NONE ? "any"
                                                 : csym(&c, s->sym);
        strbuf_addf(&o, "    [%s] = {%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 "}, /* %s %s/%" PRIu32 " */\n",
                    c.fsname[i], s->arity, s->level, s->masks.n, m0, what, name,
                    s->kind == FS_FACTS ? s->arity : s->sarity);
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
            strbuf_addf(&o, "{%s, %" PRIu32 ", %s}, ", c.snames.v[c.sidx.v[p->fs.v[i].sym] - 1], p->fs.v[i].sarity,
                        c.fsname[i]);
    strbuf_add(&o, "{0, 0, 0}};\nstatic const Shape DSH[NDS + 1] = {");
    for (uint32_t i = 0; i < p->fs.n; i++)
        if (p->fs.v[i].kind == FS_DOES && p->fs.v[i].sym != BASE_NONE)
            strbuf_addf(&o, "{%s, %" PRIu32 ", %s}, ", c.snames.v[c.sidx.v[p->fs.v[i].sym] - 1], p->fs.v[i].sarity,
                        c.fsname[i]);
    strbuf_add(&o, "{0, 0, 0}};\n\n");
    strbuf_add(&o, c.protos.s);
    strbuf_add(&o, "\n");
    strbuf_add(&o, c.funcs.s);
    strbuf_add(&o, "static const QInfo QI[NQ] = {\n");
    for (uint32_t q = 0; q < p->qs.n; q++) {
        const IrRel *rel = &ir->rels.v[p->qs.v[q].rel];
        strbuf_addf(&o, "    [Q_%s] = {%" PRIu32 ", %" PRIu32 ", 0x%" PRIx64 "ULL, %s}, /* %s%s */\n", c.qname[q],
                    rel->arity, cg_rel_level(ir, p->qs.v[q].rel), p->qs.v[q].mask,
                    p->qs.v[q].exists ? "0" : c.qname[q], csym(&c, rel->sym), p->qs.v[q].exists ? ", yes/no" : "");
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
    strbuf_add(&o, "/* ==== end of the game ==== */\n\n");
    add_half(&o, cg_text_engine, false);
    add_half(&o, cg_text_prelude, false);
    /* The identity note of a shared object (abi.h), read before loading it;
     * libtcc's in-memory code (jit) needs none. */
    cg_note(&o, hash);
    strbuf_add(&o, "\n");
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
