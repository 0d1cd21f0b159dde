/*
 * bg.c: the board backend's code generator (see bg.h).
 *
 * Shape of the generated code
 * ---------------------------
 * A state is c->st, an array of slots. A relation's facts (cell ?x ?y ?p)
 * with key (x, y) and value (p) are the slots [off, off + groups): slot
 * off + place(x) * stride + place(y) holds 0 when no (cell x y _) holds,
 * else 1 + place(p) (the mixed radix of the value's places, for a value of
 * several positions). place(s) is the place of symbol s in the position's
 * domain, read from IX_<rel>_<pos>[s] (its place + 1, 0 outside it);
 * DOM_<rel>_<pos> lists the domain; DEC_<rel>_<pos>[code] is the symbol a
 * code holds at a value position. So:
 *   (true (cell 1 1 ?p))     one read of a slot, then DEC for ?p;
 *   (true (cell ?x ?y x))    a loop over the key's domains, a read each;
 *   (not (true (cell ?x ?y b)))  one read and a compare.
 * A move is c->mshape[role] (its functor and arity, SH_) and its arguments
 * c->marg[role * BG_MAX_ARITY + i]. Relations of constants (succ, index)
 * are tables T_<rel> of tuples, indexed by one bound position (TX_, TO_:
 * the tuples whose position holds a symbol, as a range).
 *
 * A relation the rules call is a function per binding pattern and mode:
 *   line_1_b_test(c, a)   1 when some rule proves (line a[0]), at the first
 *                         proof;
 *   row_2_fb_enum(c, a)   pushes every answer's free positions on the
 *                         answer stack (c->sp); the caller loops over them,
 *                         then pops them (bg_pop keeps what its own head
 *                         pushed meanwhile).
 * and every rule a function of its own (line_1_b_test_r12: rule 12 of the
 * IR), its body nested loops in the order plan_rule gives. The roots are
 * bg_legal (move numbers into c->out, once each: c->mark), bg_next (slots
 * of c->nx; a second value for a slot is BG_CLAIM), bg_terminal and
 * bg_goals ((role, value) pairs into c->out).
 */
#include "bg.h"

#include <assert.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { MODE_TEST, MODE_ENUM, MODE_LEGAL, MODE_NEXT, MODE_GOAL, MODE_CAND };

/* A literal of the frames' own rules (below, "Frames"): (= X T) with X a
 * variable not bound yet binds it; not a kind of the IR's. */
enum { LIT_BIND_EQ = 0x100 };

typedef struct BgQuery {
    uint32_t rel;
    uint64_t mask; /* bound positions */
    uint32_t mode;
} BgQuery;

/* A relation of the state whose facts the frame rules carry over (see
 * "Frames" below): next copies its slots, then clears those of the facts
 * no frame rule keeps, found among candidates. */
typedef struct BgFrame {
    uint32_t ri;     /* the relation of the layout */
    U32Vec rules;    /* its frame rules (IR ids) */
    U32Vec keep;     /* per frame rule, its body less (true F) (rule ids of Bg.ir) */
    U32Vec moved;    /* per frame rule, the body's part that is not of F
                      * (BASE_NONE when empty) */
    U32Vec cand;     /* candidate rules, three numbers each: the rule (a frame
                      * rule's literal of X flipped), that literal's place
                      * in the body, the frame rule's place in rules */
    U32Vec all;      /* per frame rule, (true F) alone: every fact it may keep */
} BgFrame;

typedef struct Bg {
    const BgGame *g;
    const Ir *ir;     /* the game's IR, and the frames' rules after its own */
    Ir own;           /* that copy (lits and rules grown) */
    VEC(BgFrame) frames;
    uint8_t *framed;  /* per IR rule of next: carried by a frame, not run */
    VEC(BgQuery) qs;
    StrBuf data, protos, funcs;
    uint32_t tmp;
    uint8_t *ix_done;  /* per (rel, pos) or (shape, pos): tables printed */
    U32Vec tx_done;    /* static indexes (rel << 8 | mask) and domains printed */
    uint8_t *stat_done;
    uint8_t *sym_named;
    char *err;
} Bg;

typedef struct Fx {
    Bg *b;
    const IrRule *r;
    uint32_t rule, q;
    StrBuf *o;
    int ind;
    bool *bound;
    uint32_t *occ;
    uint32_t *order; /* body literals in join order */
    const char *fail; /* "return", "return 0" or "continue" */
    const char *ret;
    uint32_t mode;          /* the query's, or MODE_TEST or MODE_CAND for a frame's rule */
    const uint32_t *hargs;  /* the head's arguments: the rule's, or a frame's fact's */
    uint32_t harity;
    uint64_t hmask;         /* the head's bound positions */
    uint32_t frame;         /* MODE_CAND: the frame (Bg.frames) */
} Fx;

/* ---- names ----------------------------------------------------------- */

static void sanitised(StrBuf *b, const char *s, size_t max)
{
    size_t n = 0;
    for (; *s && n < max; s++) {
        char ch = *s;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        char t[2] = {ok ? ch : '_', 0};
        strbuf_add(b, t);
        n++;
    }
}

static const char *symtext(const Bg *b, uint32_t s) { return symtab_str(b->g->syms, s); }

/* A symbol's constant in the code: its id, with its text in a comment. */
static void symconst(Bg *b, uint32_t s, char *out)
{
    const char *t = symtext(b, s);
    bool plain = strlen(t) < 24;
    for (const char *p = t; plain && *p; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
                *p == '-';
    if (plain)
        snprintf(out, 64, "%" PRIu32 "u /* %s */", s, t);
    else
        snprintf(out, 64, "%" PRIu32 "u", s);
}

static void qname(Bg *b, uint32_t q, StrBuf *o)
{
    const BgQuery *Q = &b->qs.v[q];
    const IrRel *rel = &b->ir->rels.v[Q->rel];
    sanitised(o, symtext(b, rel->sym), 20);
    strbuf_addf(o, "_%" PRIu32 "_", rel->arity);
    for (uint32_t i = 0; i < rel->arity; i++)
        strbuf_add(o, Q->mask >> i & 1 ? "b" : "f");
    static const char *const mode[] = {"test", "enum", "root", "root", "root"};
    strbuf_addf(o, "%s%s_q%" PRIu32, rel->arity ? "_" : "", mode[Q->mode], q);
}

static char *qname_s(Bg *b, uint32_t q)
{
    StrBuf o = {0};
    strbuf_add(&o, "");
    qname(b, q, &o);
    return o.s;
}

static void vname(const Fx *x, uint32_t v, char *out)
{
    const char *t = symtab_str(x->b->g->syms, x->b->ir->varsyms.v[x->r->varnames + v]);
    StrBuf o = {0};
    strbuf_add(&o, "");
    sanitised(&o, t[0] == '?' ? t + 1 : t, 16);
    snprintf(out, 64, "v%" PRIu32 "_%s", v, o.s);
    free(o.s);
}

/* ---- output ------------------------------------------------------------ */

static void line(Fx *x, const char *fmt, ...) BASE_PRINTF(2, 3);
static void line(Fx *x, const char *fmt, ...)
{
    for (int i = 0; i < x->ind; i++)
        strbuf_add(x->o, "    ");
    va_list ap;
    va_start(ap, fmt);
    char *s = base_vsprintf(fmt, ap);
    va_end(ap);
    strbuf_add(x->o, s);
    strbuf_add(x->o, "\n");
    free(s);
}

static void fail_with(Bg *b, char *msg)
{
    if (!b->err)
        b->err = msg;
    else
        free(msg);
}

/* ---- layout ------------------------------------------------------------ */

uint32_t bg_place(const U32Vec *dom, uint32_t s)
{
    uint32_t lo = 0, hi = dom->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (dom->v[mid] < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < dom->n && dom->v[lo] == s ? lo : BASE_NONE;
}

uint32_t bg_rel_of(const BgGame *g, uint32_t sym, uint32_t arity)
{
    for (uint32_t i = 0; i < g->rels.n; i++)
        if (g->rels.v[i].sym == sym && g->rels.v[i].arity == arity)
            return i;
    return BASE_NONE;
}

uint32_t bg_shape_of(const BgGame *g, uint32_t sym, uint32_t arity)
{
    for (uint32_t i = 0; i < g->shapes.n; i++)
        if (g->shapes.v[i].sym == sym && g->shapes.v[i].arity == arity)
            return i;
    return BASE_NONE;
}

bool bg_layout(BgGame *g, char **err)
{
    uint64_t slots = 0, moves = 0;
    for (uint32_t i = 0; i < g->rels.n; i++) {
        BgRel *R = &g->rels.v[i];
        uint64_t groups = 1, codes = 1;
        for (uint32_t j = 0; j < R->nkey; j++)
            groups *= R->dom[R->key[j]].n;
        for (uint32_t j = 0; j < R->nval; j++)
            codes *= R->dom[R->val[j]].n;
        if (codes >= 0xffff || groups > BG_MAX_SLOTS) {
            *err = base_sprintf("the facts of %s/%" PRIu32 " take more than %u slots or 65534 values a slot",
                                symtab_str(g->syms, R->sym), R->arity, BG_MAX_SLOTS);
            return false;
        }
        R->off = (uint32_t)slots;
        R->groups = (uint32_t)groups;
        R->codes = (uint32_t)codes;
        slots += groups;
        if (slots > BG_MAX_SLOTS) {
            *err = base_sprintf("a state would take more than %u slots", BG_MAX_SLOTS);
            return false;
        }
    }
    for (uint32_t i = 0; i < g->shapes.n; i++) {
        BgShape *S = &g->shapes.v[i];
        uint64_t n = 1;
        for (uint32_t j = 0; j < S->arity; j++)
            n *= S->dom[j].n;
        S->base = (uint32_t)moves;
        moves += n;
        if (moves > BG_MAX_MOVES) {
            *err = base_sprintf("the moves would take more than %u numbers", BG_MAX_MOVES);
            return false;
        }
        S->count = (uint32_t)n;
    }
    g->nslots = (uint32_t)slots;
    g->nmoves = (uint32_t)moves;
    return true;
}

/* The stride of key position j (row-major over R->key) or value j. */
static uint64_t key_stride(const BgRel *R, uint32_t j)
{
    uint64_t s = 1;
    for (uint32_t k = j + 1; k < R->nkey; k++)
        s *= R->dom[R->key[k]].n;
    return s;
}

static uint64_t val_stride(const BgRel *R, uint32_t j)
{
    uint64_t s = 1;
    for (uint32_t k = j + 1; k < R->nval; k++)
        s *= R->dom[R->val[k]].n;
    return s;
}

static uint64_t arg_stride(const BgShape *S, uint32_t j)
{
    uint64_t s = 1;
    for (uint32_t k = j + 1; k < S->arity; k++)
        s *= S->dom[k].n;
    return s;
}

/* ---- tables ------------------------------------------------------------ */

static void print_u32s(StrBuf *o, const char *type, const char *name, const uint32_t *v, uint32_t n)
{
    strbuf_addf(o, "static const %s %s[%" PRIu32 "] BG_UNUSED = {", type, name, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        strbuf_addf(o, "%s%" PRIu32, i % 16 ? ", " : (i ? ",\n    " : "\n    "), v[i]);
    strbuf_add(o, n ? "\n};\n" : "0};\n");
}

/* IX_<kind><i>_<pos>: symbol -> place + 1 in dom (0 outside). */
static void ix_table(Bg *b, char kind, uint32_t i, uint32_t pos, const U32Vec *dom)
{
    uint32_t key = (kind == 'S' ? b->g->rels.n : 0) + i;
    if (b->ix_done[key * BG_MAX_ARITY + pos])
        return;
    b->ix_done[key * BG_MAX_ARITY + pos] = 1;
    uint32_t n = b->g->syms->n;
    uint32_t *t = base_xcalloc(n ? n : 1, sizeof *t);
    for (uint32_t k = 0; k < dom->n; k++)
        if (dom->v[k] < n)
            t[dom->v[k]] = k + 1;
    char name[64];
    snprintf(name, sizeof name, "IX_%c%" PRIu32 "_%" PRIu32, kind, i, pos);
    print_u32s(&b->data, dom->n < 0xffff ? "unsigned short" : "unsigned int", name, t, n);
    snprintf(name, sizeof name, "DOM_%c%" PRIu32 "_%" PRIu32, kind, i, pos);
    print_u32s(&b->data, "unsigned int", name, dom->v, dom->n);
    free(t);
}

/* DEC_R<i>_<pos>: value code -> the symbol at value position pos. */
static void dec_table(Bg *b, uint32_t i, uint32_t j)
{
    const BgRel *R = &b->g->rels.v[i];
    uint32_t pos = R->val[j];
    uint32_t key = (b->g->rels.n + b->g->shapes.n) + i;
    if (b->ix_done[key * BG_MAX_ARITY + pos])
        return;
    b->ix_done[key * BG_MAX_ARITY + pos] = 1;
    uint64_t stride = val_stride(R, j);
    uint32_t n = R->codes + 1;
    uint32_t *t = base_xcalloc(n, sizeof *t);
    const U32Vec *dom = &R->dom[pos];
    for (uint32_t code = 1; code < n; code++)
        t[code] = dom->v[((code - 1) / stride) % dom->n];
    char name[64];
    snprintf(name, sizeof name, "DEC_R%" PRIu32 "_%" PRIu32, i, pos);
    print_u32s(&b->data, "unsigned int", name, t, n);
    free(t);
}

/* T_<rel>: a static relation's tuples; TX_/TO_ for position pos. */
static void stat_table(Bg *b, uint32_t rel)
{
    if (b->stat_done[rel])
        return;
    b->stat_done[rel] = 1;
    const U32Vec *t = b->g->stat[rel];
    char name[64];
    snprintf(name, sizeof name, "T_%" PRIu32, rel);
    print_u32s(&b->data, "unsigned int", name, t->v, t->n);
}

/* The domain of position pos of a static relation: its symbols, sorted,
 * and SIX_<rel>_<pos> (symbol -> place + 1), printed once. */
static void stat_dom(Bg *b, uint32_t rel, uint32_t pos, U32Vec *dom)
{
    const U32Vec *t = b->g->stat[rel];
    uint32_t a = b->ir->rels.v[rel].arity, ns = b->g->syms->n;
    uint8_t *seen = base_xcalloc(ns + 1, 1);
    for (uint32_t k = 0; k + a <= t->n; k += a)
        if (t->v[k + pos] < ns)
            seen[t->v[k + pos]] = 1;
    for (uint32_t s = 0; s < ns; s++)
        if (seen[s])
            vec_push(*dom, s);
    free(seen);
    uint32_t key = rel << 8 | pos | 1u << 31;
    for (uint32_t i = 0; i < b->tx_done.n; i++)
        if (b->tx_done.v[i] == key)
            return;
    vec_push(b->tx_done, key);
    uint32_t *ix = base_xcalloc(ns ? ns : 1, sizeof *ix);
    for (uint32_t k = 0; k < dom->n; k++)
        ix[dom->v[k]] = k + 1;
    char name[64];
    snprintf(name, sizeof name, "SIX_%" PRIu32 "_%" PRIu32, rel, pos);
    print_u32s(&b->data, "unsigned int", name, ix, ns);
    free(ix);
}

/* TX_<rel>_<mask>, TO_<rel>_<mask>: the tuples of a static relation by the
 * mixed radix of the places of its positions in mask (sizes in n[]), as
 * ranges of TO (tuple offsets in T_<rel>); false when the key space is
 * too large. */
static bool stat_index(Bg *b, uint32_t rel, uint64_t mask, uint32_t *n)
{
    const U32Vec *t = b->g->stat[rel];
    uint32_t a = b->ir->rels.v[rel].arity, nt = a ? t->n / a : 0;
    U32Vec dom[BG_MAX_ARITY + 8] = {{0}};
    uint64_t space = 1;
    for (uint32_t p = 0; p < a; p++)
        if (mask >> p & 1) {
            stat_dom(b, rel, p, &dom[p]);
            n[p] = dom[p].n;
            space *= dom[p].n ? dom[p].n : 1;
        }
    bool ok = space <= (1u << 22);
    uint32_t key = rel << 8 | (uint32_t)mask;
    bool done = false;
    for (uint32_t i = 0; i < b->tx_done.n; i++)
        done |= b->tx_done.v[i] == key;
    if (ok && !done) {
        vec_push(b->tx_done, key);
        uint32_t *start = base_xcalloc(space + 1, sizeof *start), *order = base_xcalloc(nt ? nt : 1, sizeof *order);
        uint32_t *keys = base_xcalloc(nt ? nt : 1, sizeof *keys);
        for (uint32_t k = 0; k < nt; k++) {
            uint64_t kk = 0;
            for (uint32_t p = 0; p < a; p++)
                if (mask >> p & 1)
                    kk = kk * dom[p].n + bg_place(&dom[p], t->v[k * a + p]);
            keys[k] = (uint32_t)kk;
            start[kk + 1]++;
        }
        for (uint64_t s = 0; s < space; s++)
            start[s + 1] += start[s];
        uint32_t *fill = base_xcalloc(space + 1, sizeof *fill);
        memcpy(fill, start, (space + 1) * sizeof *fill);
        for (uint32_t k = 0; k < nt; k++)
            order[fill[keys[k]]++] = k * a;
        char name[64];
        snprintf(name, sizeof name, "TX_%" PRIu32 "_%" PRIx64, rel, mask);
        print_u32s(&b->data, "unsigned int", name, start, (uint32_t)space + 1);
        snprintf(name, sizeof name, "TO_%" PRIu32 "_%" PRIx64, rel, mask);
        print_u32s(&b->data, "unsigned int", name, order, nt);
        free(start);
        free(order);
        free(keys);
        free(fill);
    }
    for (uint32_t p = 0; p < a; p++)
        vec_free(dom[p]);
    return ok;
}

/* ---- queries ------------------------------------------------------------ */

static uint32_t query_of(Bg *b, uint32_t rel, uint64_t mask, uint32_t mode)
{
    for (uint32_t i = 0; i < b->qs.n; i++)
        if (b->qs.v[i].rel == rel && b->qs.v[i].mask == mask && b->qs.v[i].mode == mode)
            return i;
    BgQuery q = {rel, mask, mode};
    vec_push(b->qs, q);
    return b->qs.n - 1;
}

/* ---- terms ------------------------------------------------------------- */

static const IrTerm *term(const Bg *b, uint32_t t) { return &b->ir->terms.v[t]; }
static uint32_t targ(const Bg *b, const IrTerm *t, uint32_t i) { return b->ir->targs.v[t->args + i]; }

/* Is t bound (a constant, a bound variable, a move of bound ones)? */
static bool is_bound(const Fx *x, uint32_t t)
{
    const IrTerm *p = term(x->b, t);
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        if (!is_bound(x, targ(x->b, p, i)))
            return false;
    return p->kind != IR_VAR || x->bound[p->val];
}

/* The shape of a function term as a value: a move's; BASE_NONE (and the
 * generator fails) otherwise. */
static uint32_t term_shape(Bg *b, const IrTerm *p)
{
    uint32_t sym = b->ir->funcs.v[p->val].sym;
    uint32_t si = bg_shape_of(b->g, sym, p->nargs);
    bool flat = true;
    for (uint32_t i = 0; i < p->nargs; i++)
        flat &= term(b, targ(b, p, i))->kind != IR_FN;
    if (si == BASE_NONE || !flat) {
        fail_with(b, base_sprintf("a function term (%s/%" PRIu32 ") that is not a move", symtext(b, sym), p->nargs));
        return BASE_NONE;
    }
    return si;
}

/* A bound term's value into out: a constant, a variable, or a move's
 * number made by a statement before (outside its shape's domains: the
 * query is not answered here, BG_CLAIM). */
static void val(Fx *x, uint32_t t, char *out)
{
    const IrTerm *p = term(x->b, t);
    if (p->kind == IR_CONST) {
        symconst(x->b, p->val, out);
        return;
    }
    if (p->kind == IR_VAR) {
        vname(x, p->val, out);
        return;
    }
    Bg *b = x->b;
    uint32_t si = term_shape(b, p);
    if (si == BASE_NONE) {
        snprintf(out, 64, "0u");
        return;
    }
    const BgShape *S = &b->g->shapes.v[si];
    StrBuf num = {0}, cond = {0};
    strbuf_addf(&num, "NSYM + %" PRIu32 "u", S->base);
    strbuf_add(&cond, "1");
    for (uint32_t j = 0; j < p->nargs; j++) {
        char v[64];
        val(x, targ(b, p, j), v);
        ix_table(b, 'S', si, j, &S->dom[j]);
        strbuf_addf(&num, " + (IX_S%" PRIu32 "_%" PRIu32 "[%s] - 1u) * %" PRIu64 "u", si, j, v, arg_stride(S, j));
        strbuf_addf(&cond, " && IX_S%" PRIu32 "_%" PRIu32 "[%s]", si, j, v);
    }
    uint32_t n = b->tmp++;
    line(x, "if (!(%s)) { c->bad = BG_CLAIM; %s; }", cond.s, x->ret);
    line(x, "unsigned int m%" PRIu32 " = %s;", n, num.s);
    snprintf(out, 64, "m%" PRIu32, n);
    free(num.s);
    free(cond.s);
}

/* Checks expr against term t: compares when bound, else binds. */
static void match(Fx *x, const char *expr, uint32_t t)
{
    const IrTerm *p = term(x->b, t);
    char v[64];
    if (p->kind == IR_FN) {
        /* a move's number: in the shape's range, then its arguments */
        Bg *b = x->b;
        uint32_t si = term_shape(b, p);
        if (si == BASE_NONE)
            return;
        const BgShape *S = &b->g->shapes.v[si];
        uint32_t n = b->tmp++;
        line(x, "unsigned int d%" PRIu32 " = %s;", n, expr);
        line(x, "if (d%" PRIu32 " < NSYM + %" PRIu32 "u || d%" PRIu32 " >= NSYM + %" PRIu32 "u) %s;", n, S->base, n,
             S->base + S->count, x->fail);
        for (uint32_t j = 0; j < p->nargs; j++) {
            ix_table(b, 'S', si, j, &S->dom[j]);
            char e[128];
            snprintf(e, sizeof e, "DOM_S%" PRIu32 "_%" PRIu32 "[(d%" PRIu32 " - NSYM - %" PRIu32 "u) / %" PRIu64 "u %% %" PRIu32 "u]",
                     si, j, n, S->base, arg_stride(S, j), S->dom[j].n);
            match(x, e, targ(b, p, j));
        }
        return;
    }
    if (p->kind == IR_CONST) {
        symconst(x->b, p->val, v);
        line(x, "if (%s != %s) %s;", expr, v, x->fail);
    } else if (x->bound[p->val]) {
        vname(x, p->val, v);
        line(x, "if (%s != %s) %s;", expr, v, x->fail);
    } else if (x->occ[p->val] > 1) {
        vname(x, p->val, v);
        line(x, "unsigned int %s BG_UNUSED = %s;", v, expr);
        x->bound[p->val] = true;
    }
}

/* The arguments of a flat term (a constant: none) into args. */
static uint32_t flat_args(Bg *b, uint32_t t, uint32_t *sym, uint32_t *args, const char *what)
{
    const IrTerm *p = term(b, t);
    if (p->kind == IR_CONST) {
        *sym = p->val;
        return 0;
    }
    if (p->kind != IR_FN) {
        fail_with(b, base_sprintf("%s is a variable, not a term of known functor", what));
        *sym = BASE_NONE;
        return 0;
    }
    *sym = b->ir->funcs.v[p->val].sym;
    if (p->nargs > BG_MAX_ARITY) {
        fail_with(b, base_sprintf("%s has more than %d arguments", what, BG_MAX_ARITY));
        return 0;
    }
    for (uint32_t i = 0; i < p->nargs; i++) {
        args[i] = targ(b, p, i);
        if (term(b, args[i])->kind == IR_FN)
            fail_with(b, base_sprintf("%s has a function term inside", what));
    }
    return p->nargs;
}

static void count_occ(const Bg *b, uint32_t t, uint32_t *occ)
{
    const IrTerm *p = term(b, t);
    if (p->kind == IR_VAR)
        occ[p->val]++;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        count_occ(b, targ(b, p, i), occ);
}

static void emit_lits(Fx *x, uint32_t li);
static void emit_cand_head(Fx *x);

/* ---- literals ------------------------------------------------------------ */

/* Appends to out the mixed radix of the places of the terms at positions
 * pos[0..n) of a fact of R (all bound), each a term " + place * stride"
 * (a constant's place known now, a variable's read from IX_), and to cond
 * that each variable's place exists; false when a constant is outside its
 * domain. */
static bool radix_expr(Fx *x, uint32_t ri, const uint32_t *args, const uint32_t *pos, uint32_t n, StrBuf *out,
                       StrBuf *cond)
{
    const BgRel *R = &x->b->g->rels.v[ri];
    for (uint32_t j = 0; j < n; j++) {
        uint32_t at = pos[j];
        const IrTerm *p = term(x->b, args[at]);
        uint64_t stride = 1;
        for (uint32_t k = j + 1; k < n; k++)
            stride *= R->dom[pos[k]].n;
        if (p->kind == IR_CONST) {
            uint32_t place = bg_place(&R->dom[at], p->val);
            if (place == BASE_NONE)
                return false;
            strbuf_addf(out, " + %" PRIu64 "u", (uint64_t)place * stride);
        } else {
            char v[64];
            vname(x, p->val, v);
            ix_table(x->b, 'R', ri, at, &R->dom[at]);
            strbuf_addf(out, " + (IX_R%" PRIu32 "_%" PRIu32 "[%s] - 1u) * %" PRIu64 "u", ri, at, v, stride);
            strbuf_addf(cond, " && IX_R%" PRIu32 "_%" PRIu32 "[%s]", ri, at, v);
        }
    }
    return true;
}

/* The slot index of a fact of R given its key terms, all bound, as an
 * expression, and the condition that every one is in its domain; false
 * when a constant is outside it (the fact cannot be). */
static bool slot_expr(Fx *x, uint32_t ri, const uint32_t *args, StrBuf *idx, StrBuf *cond)
{
    const BgRel *R = &x->b->g->rels.v[ri];
    strbuf_addf(idx, "%" PRIu32 "u", R->off);
    return radix_expr(x, ri, args, R->key, R->nkey, idx, cond);
}

/* The code of a fact of R's value positions, all bound, likewise. */
static bool code_expr(Fx *x, uint32_t ri, const uint32_t *args, StrBuf *code, StrBuf *cond)
{
    const BgRel *R = &x->b->g->rels.v[ri];
    strbuf_add(code, "1u");
    return radix_expr(x, ri, args, R->val, R->nval, code, cond);
}

/* (true F) and (not (true F)). */
static void emit_true(Fx *x, uint32_t li, const IrLit *l, bool neg)
{
    Bg *b = x->b;
    uint32_t args[BG_MAX_ARITY], sym;
    uint32_t n = flat_args(b, b->ir->largs.v[l->args], &sym, args, "a fact under true");
    if (b->err)
        return;
    uint32_t ri = bg_rel_of(b->g, sym, n);
    if (neg) {
        StrBuf idx = {0}, code = {0}, cond = {0};
        strbuf_add(&cond, "");
        bool can = ri != BASE_NONE && slot_expr(x, ri, args, &idx, &cond) && code_expr(x, ri, args, &code, &cond);
        if (can) /* else the fact cannot hold: the negation does */
            line(x, "if (1%s && c->st[%s] == %s) %s;", cond.s, idx.s, code.s, x->fail);
        free(idx.s);
        free(code.s);
        free(cond.s);
        emit_lits(x, li + 1);
        return;
    }
    if (ri == BASE_NONE) {
        line(x, "%s; /* no state holds (%s ...) */", x->fail, symtext(b, sym));
        return;
    }
    const BgRel *R = &b->g->rels.v[ri];
    uint32_t t = b->tmp++;
    const char *fail = x->fail;
    int ind = x->ind;
    /* the key: bound positions add to the slot, free ones loop */
    /* a value bound before the loops: its code, compared with the slot's */
    bool vbound = R->nval > 0;
    for (uint32_t j = 0; j < R->nval; j++)
        vbound &= is_bound(x, args[R->val[j]]);
    if (vbound) {
        StrBuf code = {0}, cond = {0};
        strbuf_add(&cond, "1");
        if (!code_expr(x, ri, args, &code, &cond)) {
            line(x, "%s; /* a value outside the domain */", x->fail);
            free(code.s);
            free(cond.s);
            return;
        }
        if (strcmp(cond.s, "1") != 0)
            line(x, "if (!(%s)) %s;", cond.s, x->fail);
        line(x, "unsigned int w%" PRIu32 " = %s;", t, code.s);
        free(code.s);
        free(cond.s);
    }
    line(x, "unsigned int g%" PRIu32 "_0 = %" PRIu32 "u;", t, R->off);
    for (uint32_t j = 0; j < R->nkey; j++) {
        uint32_t pos = R->key[j];
        const IrTerm *p = term(b, args[pos]);
        uint64_t stride = key_stride(R, j);
        if (p->kind == IR_CONST) {
            uint32_t k = bg_place(&R->dom[pos], p->val);
            if (k == BASE_NONE) {
                line(x, "%s; /* outside the domain */", x->fail);
                goto close;
            }
            line(x, "unsigned int g%" PRIu32 "_%" PRIu32 " = g%" PRIu32 "_%" PRIu32 " + %" PRIu64 "u;", t, j + 1, t, j,
                 (uint64_t)k * stride);
        } else if (x->bound[p->val]) {
            char v[64];
            vname(x, p->val, v);
            ix_table(b, 'R', ri, pos, &R->dom[pos]);
            line(x, "unsigned int i%" PRIu32 "_%" PRIu32 " = IX_R%" PRIu32 "_%" PRIu32 "[%s];", t, j, ri, pos, v);
            line(x, "if (!i%" PRIu32 "_%" PRIu32 ") %s;", t, j, x->fail);
            line(x, "unsigned int g%" PRIu32 "_%" PRIu32 " = g%" PRIu32 "_%" PRIu32 " + (i%" PRIu32 "_%" PRIu32
                    " - 1u) * %" PRIu64 "u;",
                 t, j + 1, t, j, t, j, stride);
        } else {
            ix_table(b, 'R', ri, pos, &R->dom[pos]);
            line(x, "for (unsigned int j%" PRIu32 "_%" PRIu32 " = 0; j%" PRIu32 "_%" PRIu32 " < %" PRIu32 "u; j%" PRIu32
                    "_%" PRIu32 "++) {",
                 t, j, t, j, R->dom[pos].n, t, j);
            x->ind++;
            x->fail = "continue";
            char v[64], e[64];
            snprintf(e, sizeof e, "DOM_R%" PRIu32 "_%" PRIu32 "[j%" PRIu32 "_%" PRIu32 "]", ri, pos, t, j);
            if (x->occ[p->val] > 1) {
                vname(x, p->val, v);
                line(x, "unsigned int %s BG_UNUSED = %s;", v, e);
                x->bound[p->val] = true;
            }
            line(x, "unsigned int g%" PRIu32 "_%" PRIu32 " = g%" PRIu32 "_%" PRIu32 " + j%" PRIu32 "_%" PRIu32
                    " * %" PRIu64 "u;",
                 t, j + 1, t, j, t, j, stride);
        }
    }
    line(x, "unsigned int c%" PRIu32 " = c->st[g%" PRIu32 "_%" PRIu32 "];", t, t, R->nkey);
    if (vbound) {
        line(x, "if (c%" PRIu32 " != w%" PRIu32 ") %s;", t, t, x->fail);
        emit_lits(x, li + 1);
        goto close;
    }
    line(x, "if (!c%" PRIu32 ") %s;", t, x->fail);
    for (uint32_t j = 0; j < R->nval; j++) {
        uint32_t pos = R->val[j];
        dec_table(b, ri, j);
        char e[64];
        snprintf(e, sizeof e, "DEC_R%" PRIu32 "_%" PRIu32 "[c%" PRIu32 "]", ri, pos, t);
        match(x, e, args[pos]);
    }
    emit_lits(x, li + 1);
close:
    while (x->ind > ind) {
        x->ind--;
        line(x, "}");
    }
    x->fail = fail;
}

/* The role index of a role term (into out, 96 bytes): a number, or an
 * expression. */
static bool role_expr(Fx *x, uint32_t t, char *out)
{
    const IrTerm *p = term(x->b, t);
    if (p->kind == IR_CONST) {
        for (uint32_t i = 0; i < x->b->ir->roles.n; i++)
            if (x->b->ir->roles.v[i] == p->val) {
                snprintf(out, 96, "%" PRIu32 "u", i);
                return true;
            }
        return false;
    }
    char v[64];
    vname(x, p->val, v);
    snprintf(out, 96, "(ROLEIX[%s] - 1u)", v);
    return true;
}

/* The role of a does literal into ri (96 bytes): a loop over the roles
 * opened (binding the variable) when it is a variable not bound yet, else
 * its index, checked to be a role; false (the body fails here) when it is
 * a constant that is no role. */
static bool role_of(Fx *x, uint32_t term_id, uint32_t t, char *ri)
{
    const IrTerm *rt = term(x->b, term_id);
    if (rt->kind == IR_VAR && !x->bound[rt->val]) {
        line(x, "for (unsigned int r%" PRIu32 " = 0; r%" PRIu32 " < NROLE; r%" PRIu32 "++) {", t, t, t);
        x->ind++;
        x->fail = "continue";
        if (x->occ[rt->val] > 1) {
            char v[64];
            vname(x, rt->val, v);
            line(x, "unsigned int %s BG_UNUSED = ROLESYM[r%" PRIu32 "];", v, t);
            x->bound[rt->val] = true;
        }
        snprintf(ri, 96, "r%" PRIu32, t);
        return true;
    }
    if (!role_expr(x, term_id, ri)) {
        line(x, "%s; /* not a role */", x->fail);
        return false;
    }
    if (rt->kind == IR_VAR) {
        char v[64];
        vname(x, rt->val, v);
        line(x, "if (!ROLEIX[%s]) %s;", v, x->fail);
    }
    return true;
}

/* (does R M) and its negation. */
static void emit_does(Fx *x, uint32_t li, const IrLit *l, bool neg)
{
    Bg *b = x->b;
    const uint32_t *la = u32_at(&b->ir->largs, l->args);
    uint32_t args[BG_MAX_ARITY], sym;
    const IrTerm *mt = term(b, la[1]);
    bool mvar = mt->kind == IR_VAR;
    uint32_t n = mvar ? 0 : flat_args(b, la[1], &sym, args, "a move under does");
    if (b->err)
        return;
    uint32_t si = mvar ? 0 : bg_shape_of(b->g, sym, n);
    const char *fail = x->fail;
    int ind = x->ind;
    uint32_t t = b->tmp++;
    const IrTerm *rt = term(b, la[0]);
    char ri[96];
    if (mvar) {
        /* the whole move: its value (c->mval) */
        if (neg) {
            char v[64];
            vname(x, mt->val, v);
            if (!role_expr(x, la[0], ri)) {
                emit_lits(x, li + 1);
                return;
            }
            if (rt->kind == IR_VAR) {
                char rv[64];
                vname(x, rt->val, rv);
                line(x, "if (ROLEIX[%s] && c->mval[%s] == %s) %s;", rv, ri, v, x->fail);
            } else
                line(x, "if (c->mval[%s] == %s) %s;", ri, v, x->fail);
            emit_lits(x, li + 1);
            return;
        }
        if (!role_of(x, la[0], t, ri))
            return;
        char e[160];
        snprintf(e, sizeof e, "c->mval[%s]", ri);
        match(x, e, la[1]);
        emit_lits(x, li + 1);
        while (x->ind > ind) {
            x->ind--;
            line(x, "}");
        }
        x->fail = fail;
        return;
    }
    if (neg) {
        if (si == BASE_NONE || !role_expr(x, la[0], ri)) {
            emit_lits(x, li + 1);
            return;
        }
        StrBuf cond = {0};
        strbuf_addf(&cond, "c->mshape[%s] == %" PRIu32 "u", ri, si);
        for (uint32_t i = 0; i < n; i++) {
            char v[64];
            val(x, args[i], v);
            strbuf_addf(&cond, " && c->marg[%s * %du + %" PRIu32 "u] == %s", ri, BG_MAX_ARITY, i, v);
        }
        if (rt->kind == IR_VAR) {
            char rv[64];
            vname(x, rt->val, rv);
            line(x, "if (ROLEIX[%s] && %s) %s;", rv, cond.s, x->fail);
        } else
            line(x, "if (%s) %s;", cond.s, x->fail);
        free(cond.s);
        emit_lits(x, li + 1);
        return;
    }
    if (si == BASE_NONE) {
        line(x, "%s; /* no move (%s ...) */", x->fail, symtext(b, sym));
        return;
    }
    if (!role_of(x, la[0], t, ri))
        return;
    line(x, "if (c->mshape[%s] != %" PRIu32 "u) %s;", ri, si, x->fail);
    for (uint32_t i = 0; i < n; i++) {
        char e[160];
        snprintf(e, sizeof e, "c->marg[%s * %du + %" PRIu32 "u]", ri, BG_MAX_ARITY, i);
        match(x, e, args[i]);
    }
    emit_lits(x, li + 1);
    while (x->ind > ind) {
        x->ind--;
        line(x, "}");
    }
    x->fail = fail;
}

/* A literal over a relation of constants: a range of its index on the
 * bound positions, or every tuple when none is bound. */
static void emit_static(Fx *x, uint32_t li, const IrLit *l, bool neg)
{
    Bg *b = x->b;
    const uint32_t *args = u32_at(&b->ir->largs, l->args);
    uint32_t a = l->nargs;
    if (a == 0) {
        bool holds = b->g->stat_holds[l->rel];
        if (holds == neg) {
            line(x, "%s; /* %s */", x->fail, neg ? "it holds" : "it does not hold");
            return;
        }
        emit_lits(x, li + 1);
        return;
    }
    stat_table(b, l->rel);
    uint32_t t = b->tmp++, rel = l->rel;
    uint64_t mask = 0;
    for (uint32_t i = 0; i < a; i++) {
        if (term(b, args[i])->kind == IR_FN) {
            fail_with(b, base_sprintf("a function term in a call of %s", symtext(b, b->ir->rels.v[rel].sym)));
            return;
        }
        if (is_bound(x, args[i]))
            mask |= 1ULL << i;
    }
    uint32_t n[BG_MAX_ARITY + 8] = {0};
    if (mask && !stat_index(b, rel, mask, n)) {
        fail_with(b, base_sprintf("relation %s/%" PRIu32 " is too large to index", symtext(b, b->ir->rels.v[rel].sym), a));
        return;
    }
    const char *fail = x->fail;
    int ind = x->ind;
    /* the key: the places of the bound positions */
    StrBuf key = {0}, cond = {0};
    strbuf_add(&key, "0u");
    strbuf_add(&cond, "1");
    for (uint32_t i = 0; i < a; i++)
        if (mask >> i & 1) {
            char v[64];
            val(x, args[i], v);
            StrBuf k2 = {0};
            strbuf_addf(&k2, "(%s) * %" PRIu32 "u + (SIX_%" PRIu32 "_%" PRIu32 "[%s] - 1u)", key.s, n[i], rel, i, v);
            free(key.s);
            key = k2;
            strbuf_addf(&cond, " && SIX_%" PRIu32 "_%" PRIu32 "[%s]", rel, i, v);
        }
    if (neg) {
        /* every position is bound: a tuple of that key is the literal */
        line(x, "if (%s) {", cond.s);
        line(x, "    unsigned int q%" PRIu32 " = %s;", t, key.s);
        line(x, "    if (TX_%" PRIu32 "_%" PRIx64 "[q%" PRIu32 "] < TX_%" PRIu32 "_%" PRIx64 "[q%" PRIu32 " + 1u]) %s;", rel,
             mask, t, rel, mask, t, x->fail);
        line(x, "}");
        free(key.s);
        free(cond.s);
        emit_lits(x, li + 1);
        return;
    }
    if (mask) {
        line(x, "if (!(%s)) %s;", cond.s, x->fail);
        line(x, "unsigned int q%" PRIu32 " = %s;", t, key.s);
        line(x, "for (unsigned int k%" PRIu32 " = TX_%" PRIu32 "_%" PRIx64 "[q%" PRIu32 "]; k%" PRIu32 " < TX_%" PRIu32
                "_%" PRIx64 "[q%" PRIu32 " + 1u]; k%" PRIu32 "++) {",
             t, rel, mask, t, t, rel, mask, t, t);
        x->ind++;
        line(x, "const unsigned int *t%" PRIu32 " BG_UNUSED = T_%" PRIu32 " + TO_%" PRIu32 "_%" PRIx64 "[k%" PRIu32 "];", t, rel,
             rel, mask, t);
    } else {
        line(x, "for (unsigned int k%" PRIu32 " = 0; k%" PRIu32 " < %" PRIu32 "u; k%" PRIu32 " += %" PRIu32 "u) {", t, t,
             b->g->stat[rel]->n, t, a);
        x->ind++;
        line(x, "const unsigned int *t%" PRIu32 " BG_UNUSED = T_%" PRIu32 " + k%" PRIu32 ";", t, rel, t);
    }
    free(key.s);
    free(cond.s);
    x->fail = "continue";
    for (uint32_t i = 0; i < a; i++) {
        if (mask >> i & 1)
            continue;
        char e[64];
        snprintf(e, sizeof e, "t%" PRIu32 "[%" PRIu32 "]", t, i);
        match(x, e, args[i]);
    }
    emit_lits(x, li + 1);
    while (x->ind > ind) {
        x->ind--;
        line(x, "}");
    }
    x->fail = fail;
}

/* Is the call (the body's last literal, an enumeration) in an enumerating
 * rule whose answers are the call's, position for position: the head's
 * free positions hold the call's free variables in the same order, seen
 * nowhere else? (A line walked by recursion: openPath's answers are those
 * of openPath one cell further.) */
static bool last_call(const Fx *x, uint32_t li, const uint32_t *args, uint32_t a, uint64_t mask)
{
    Bg *b = x->b;
    if (x->mode != MODE_ENUM || li + 1 != x->r->nlits)
        return false;
    const uint32_t *h = x->hargs;
    uint32_t arity = x->harity, k = 0;
    for (uint32_t i = 0; i < arity; i++) {
        if (x->hmask >> i & 1)
            continue;
        while (k < a && (mask >> k & 1))
            k++;
        if (k == a)
            return false;
        const IrTerm *p = term(b, h[i]), *q = term(b, args[k]);
        if (p->kind != IR_VAR || q->kind != IR_VAR || p->val != q->val || x->occ[p->val] != 2)
            return false;
        k++;
    }
    while (k < a && (mask >> k & 1))
        k++;
    return k == a;
}

/* A literal over a relation of the rules: a test or an enumeration. */
static void emit_call(Fx *x, uint32_t li, const IrLit *l, bool neg)
{
    Bg *b = x->b;
    const uint32_t *args = u32_at(&b->ir->largs, l->args);
    uint32_t a = l->nargs, t = b->tmp++;
    uint64_t mask = 0;
    bool test = true;
    for (uint32_t i = 0; i < a; i++) {
        const IrTerm *p = term(b, args[i]);
        if (is_bound(x, args[i]))
            mask |= 1ULL << i;
        else if (p->kind == IR_FN) {
            /* a pattern the answers must match (its functor, at least):
             * enumerated, not tested */
            test = false;
            if (term_shape(b, p) == BASE_NONE)
                return;
        } else if (x->occ[p->val] > 1)
            test = false;
    }
    StrBuf av = {0};
    strbuf_add(&av, "");
    for (uint32_t i = 0; i < a; i++) {
        char v[64] = "0";
        if (mask >> i & 1)
            val(x, args[i], v);
        strbuf_addf(&av, "%s%s", i ? ", " : "", v);
    }
    line(x, "unsigned int a%" PRIu32 "[%" PRIu32 "] = {%s};", t, a ? a : 1, a ? av.s : "0");
    free(av.s);
    if (neg || test) {
        uint32_t q = query_of(b, l->rel, mask, MODE_TEST);
        char *name = qname_s(b, q);
        line(x, "if (%s%s(c, a%" PRIu32 ")) %s;", neg ? "" : "!", name, t, x->fail);
        free(name);
        emit_lits(x, li + 1);
        return;
    }
    uint32_t q = query_of(b, l->rel, mask, MODE_ENUM);
    char *name = qname_s(b, q);
    uint32_t nfree = 0;
    for (uint32_t i = 0; i < a; i++)
        nfree += !(mask >> i & 1);
    if (last_call(x, li, args, a, mask)) {
        /* its answers are the rule's: pushed where the rule's go */
        line(x, "%s(c, a%" PRIu32 ");", name, t);
        free(name);
        return;
    }
    line(x, "unsigned int *b%" PRIu32 " = c->sp;", t);
    line(x, "%s(c, a%" PRIu32 ");", name, t);
    free(name);
    line(x, "unsigned int *e%" PRIu32 " = c->sp;", t);
    line(x, "for (unsigned int *p%" PRIu32 " = b%" PRIu32 "; p%" PRIu32 " < e%" PRIu32 "; p%" PRIu32 " += %" PRIu32
            "u) {",
         t, t, t, t, t, nfree);
    const char *fail = x->fail;
    x->ind++;
    x->fail = "continue";
    uint32_t k = 0;
    for (uint32_t i = 0; i < a; i++)
        if (!(mask >> i & 1)) {
            char e[64];
            snprintf(e, sizeof e, "p%" PRIu32 "[%" PRIu32 "]", t, k++);
            match(x, e, args[i]);
        }
    emit_lits(x, li + 1);
    x->ind--;
    line(x, "}");
    x->fail = fail;
    line(x, "bg_pop(c, b%" PRIu32 ", e%" PRIu32 ");", t, t);
}

/* ---- heads --------------------------------------------------------------- */

static void emit_head(Fx *x)
{
    Bg *b = x->b;
    const uint32_t *h = x->hargs;
    uint32_t arity = x->harity;
    switch (x->mode) {
    case MODE_TEST:
        line(x, "return 1;");
        return;
    case MODE_CAND:
        emit_cand_head(x);
        return;
    case MODE_ENUM: {
        uint32_t nfree = 0;
        for (uint32_t i = 0; i < arity; i++)
            nfree += !(x->hmask >> i & 1);
        line(x, "if (c->sp + %" PRIu32 " > c->spend) { c->bad = BG_SPACE; return; }", nfree);
        uint32_t k = 0;
        for (uint32_t i = 0; i < arity; i++)
            if (!(x->hmask >> i & 1)) {
                char v[64];
                val(x, h[i], v);
                line(x, "c->sp[%" PRIu32 "] = %s;", k++, v);
            }
        line(x, "c->sp += %" PRIu32 ";", nfree);
        return;
    }
    case MODE_LEGAL: {
        uint32_t args[BG_MAX_ARITY], sym;
        if (term(b, h[1])->kind == IR_VAR) {
            /* a move's value: a constant move's symbol, or NSYM + its number */
            char v[64];
            vname(x, term(b, h[1])->val, v);
            line(x, "unsigned int m = %s < NSYM ? CMOVE[%s] - 1u : %s - NSYM;", v, v, v);
            line(x, "if (m >= NMOVE) { c->bad = BG_CLAIM; return; }");
            line(x, "if (c->mark[m] != c->epoch) {");
            line(x, "    c->mark[m] = c->epoch;");
            line(x, "    c->out[c->nout++] = m;");
            line(x, "}");
            return;
        }
        uint32_t n = flat_args(b, h[1], &sym, args, "a legal move");
        if (b->err)
            return;
        uint32_t si = bg_shape_of(b->g, sym, n);
        if (si == BASE_NONE) {
            line(x, "c->bad = BG_CLAIM; /* a move outside the input moves */");
            line(x, "return;");
            return;
        }
        const BgShape *S = &b->g->shapes.v[si];
        StrBuf num = {0}, cond = {0};
        strbuf_addf(&num, "%" PRIu32 "u", S->base);
        strbuf_add(&cond, "1");
        for (uint32_t j = 0; j < n; j++) {
            const IrTerm *p = term(b, args[j]);
            uint64_t stride = arg_stride(S, j);
            if (p->kind == IR_CONST) {
                uint32_t k = bg_place(&S->dom[j], p->val);
                if (k == BASE_NONE) {
                    strbuf_add(&cond, " && 0");
                    continue;
                }
                strbuf_addf(&num, " + %" PRIu64 "u", (uint64_t)k * stride);
            } else {
                char v[64];
                vname(x, p->val, v);
                ix_table(b, 'S', si, j, &S->dom[j]);
                strbuf_addf(&num, " + (IX_S%" PRIu32 "_%" PRIu32 "[%s] - 1u) * %" PRIu64 "u", si, j, v, stride);
                strbuf_addf(&cond, " && IX_S%" PRIu32 "_%" PRIu32 "[%s]", si, j, v);
            }
        }
        line(x, "if (!(%s)) { c->bad = BG_CLAIM; return; }", cond.s);
        line(x, "unsigned int m = %s;", num.s);
        line(x, "if (c->mark[m] != c->epoch) {");
        line(x, "    c->mark[m] = c->epoch;");
        line(x, "    c->out[c->nout++] = m;");
        line(x, "}");
        free(num.s);
        free(cond.s);
        return;
    }
    case MODE_NEXT: {
        uint32_t args[BG_MAX_ARITY], sym;
        uint32_t n = flat_args(b, h[0], &sym, args, "a fact under next");
        if (b->err)
            return;
        uint32_t ri = bg_rel_of(b->g, sym, n);
        StrBuf idx = {0}, code = {0}, cond = {0};
        strbuf_add(&cond, "1");
        if (ri == BASE_NONE || !slot_expr(x, ri, args, &idx, &cond) || !code_expr(x, ri, args, &code, &cond)) {
            line(x, "c->bad = BG_CLAIM; /* a fact outside the layout */");
            line(x, "return;");
        } else {
            line(x, "if (!(%s)) { c->bad = BG_CLAIM; return; }", cond.s);
            line(x, "unsigned short *s = c->nx + (%s);", idx.s);
            line(x, "unsigned int v = %s;", code.s);
            if (!b->g->unchecked)
                line(x, "if (*s && *s != v) { c->bad = BG_CLAIM; return; }");
            line(x, "*s = (unsigned short)v;");
        }
        free(idx.s);
        free(code.s);
        free(cond.s);
        return;
    }
    case MODE_GOAL: {
        char r[96], v[64];
        if (!role_expr(x, h[0], r))
            return;
        const IrTerm *rt = term(b, h[0]);
        if (rt->kind == IR_VAR) {
            char rv[64];
            vname(x, rt->val, rv);
            line(x, "if (!ROLEIX[%s]) %s;", rv, x->fail);
        }
        if (term(b, h[1])->kind == IR_FN) {
            fail_with(b, base_sprintf("a goal value is a function term"));
            return;
        }
        val(x, h[1], v);
        line(x, "if (c->nout + 2 > c->cap) { c->bad = BG_SPACE; return; }");
        line(x, "c->out[c->nout++] = %s;", r);
        line(x, "c->out[c->nout++] = %s;", v);
        return;
    }
    default:
        assert(0);
    }
}

static void emit_lits(Fx *x, uint32_t li)
{
    Bg *b = x->b;
    if (b->err)
        return;
    if (li == x->r->nlits) {
        emit_head(x);
        return;
    }
    const IrLit *l = &b->ir->lits.v[x->r->lits + x->order[li]];
    const uint32_t *args = u32_at(&b->ir->largs, l->args);
    if (l->kind == LIT_BIND_EQ) {
        /* a frame's failing (distinct X T) flipped: X takes T's value */
        uint32_t u = args[0], w = args[1];
        if (!is_bound(x, u)) {
            u = args[1];
            w = args[0];
        }
        char v[64];
        val(x, u, v);
        match(x, v, w);
        emit_lits(x, li + 1);
        return;
    }
    if (l->kind == IR_LIT_DISTINCT || l->kind == IR_LIT_EQUAL) {
        if (term(b, args[0])->kind == IR_FN || term(b, args[1])->kind == IR_FN) {
            fail_with(b, base_sprintf("a function term under distinct"));
            return;
        }
        char u[64], v[64];
        val(x, args[0], u);
        val(x, args[1], v);
        line(x, "if (%s %s %s) %s;", u, l->kind == IR_LIT_DISTINCT ? "==" : "!=", v, x->fail);
        emit_lits(x, li + 1);
        return;
    }
    bool neg = l->kind == IR_LIT_NEG;
    const IrRel *rel = &b->ir->rels.v[l->rel];
    if (rel->kind == IR_REL_TRUE)
        emit_true(x, li, l, neg);
    else if (rel->kind == IR_REL_DOES)
        emit_does(x, li, l, neg);
    else if (b->g->stat[l->rel])
        emit_static(x, li, l, neg);
    else if (!rel->dep_true && !rel->dep_does)
        fail_with(b, base_sprintf("relation %s/%" PRIu32 " was not evaluated ahead", symtext(b, rel->sym), rel->arity));
    else
        emit_call(x, li, l, neg);
}

/* ---- join order ------------------------------------------------------------ */

/* The number of distinct symbols at position pos of a static relation. */
static uint32_t stat_distinct(const Bg *b, uint32_t rel, uint32_t pos)
{
    const U32Vec *t = b->g->stat[rel];
    uint32_t a = b->ir->rels.v[rel].arity, ns = b->g->syms->n, n = 0;
    uint8_t *seen = base_xcalloc(ns + 1, 1);
    for (uint32_t k = 0; k + a <= t->n; k += a)
        if (t->v[k + pos] < ns && !seen[t->v[k + pos]]) {
            seen[t->v[k + pos]] = 1;
            n++;
        }
    free(seen);
    return n ? n : 1;
}

/* What running literal l costs with the variables of bound: the reads it
 * makes per run (work) and the answers it gives per run (fan-out, below 1
 * for a filter); false when it cannot run yet (a negation, distinct or
 * equal with a variable unbound). Estimates: a slot scan reads every
 * group of its free key positions, about a third of them holding a fact
 * of a given value; a relation of the rules gives about ten answers per
 * free position. */
static bool lit_cost(const Bg *b, const IrLit *l, const bool *bound, double *work, double *fan)
{
    const uint32_t *args = u32_at(&b->ir->largs, l->args);
    uint32_t nfree = 0;
    for (uint32_t i = 0; i < l->nargs; i++) {
        uint32_t vs[BG_MAX_ARITY + 1], nv = 0;
        const IrTerm *p = term(b, args[i]);
        if (p->kind == IR_VAR)
            vs[nv++] = p->val;
        for (uint32_t k = 0; p->kind == IR_FN && k < p->nargs && nv <= BG_MAX_ARITY; k++)
            if (term(b, targ(b, p, k))->kind == IR_VAR)
                vs[nv++] = term(b, targ(b, p, k))->val;
        bool any = false;
        for (uint32_t k = 0; k < nv; k++)
            if (!bound[vs[k]])
                any = true;
        nfree += any;
    }
    *work = 1;
    *fan = 0.5;
    if (l->kind == LIT_BIND_EQ) {
        *fan = 1;
        return nfree < 2;
    }
    if (l->kind != IR_LIT_POS) {
        if (nfree)
            return false;
        if (l->kind == IR_LIT_NEG && !b->g->stat[l->rel] && b->ir->rels.v[l->rel].kind != IR_REL_TRUE &&
            b->ir->rels.v[l->rel].kind != IR_REL_DOES)
            *work = 10;
        return true;
    }
    const IrRel *rel = &b->ir->rels.v[l->rel];
    if (rel->kind == IR_REL_TRUE) {
        uint32_t sym, a[BG_MAX_ARITY];
        uint32_t n = flat_args((Bg *)b, args[0], &sym, a, "a fact under true");
        uint32_t ri = bg_rel_of(b->g, sym, n);
        if (ri == BASE_NONE) {
            *fan = 0;
            return true;
        }
        const BgRel *R = &b->g->rels.v[ri];
        double loops = 1;
        for (uint32_t j = 0; j < R->nkey; j++) {
            const IrTerm *p = term(b, a[R->key[j]]);
            if (p->kind == IR_VAR && !bound[p->val])
                loops *= R->dom[R->key[j]].n;
        }
        bool vfree = false;
        for (uint32_t j = 0; j < R->nval; j++) {
            const IrTerm *p = term(b, a[R->val[j]]);
            if (p->kind == IR_VAR && !bound[p->val])
                vfree = true;
        }
        *work = loops;
        *fan = loops * (vfree || R->nval == 0 ? 0.7 : 1.0 / (R->codes + 1 > 3 ? R->codes + 1 : 3));
        return true;
    }
    if (rel->kind == IR_REL_DOES) {
        const IrTerm *p = term(b, args[0]);
        bool role_free = p->kind == IR_VAR && !bound[p->val];
        *work = role_free ? (double)b->ir->roles.n : 1;
        *fan = role_free ? 1 : 0.7;
        return true;
    }
    if (b->g->stat[l->rel]) {
        uint32_t a = l->nargs;
        double n = a ? (double)b->g->stat[l->rel]->n / a : 1;
        for (uint32_t i = 0; i < a; i++) {
            const IrTerm *p = term(b, args[i]);
            if (p->kind == IR_CONST || (p->kind == IR_VAR && bound[p->val]))
                n /= stat_distinct(b, l->rel, i);
        }
        *work = n < 1 ? 1 : n;
        *fan = n < 0.25 ? 0.25 : n;
        return true;
    }
    *work = 10;
    *fan = 0.5;
    for (uint32_t i = 0; i < nfree; i++) {
        *fan *= 10;
        *work *= 5;
    }
    return true;
}

static void mark_bound(const Bg *b, uint32_t t, bool *bound)
{
    const IrTerm *p = term(b, t);
    if (p->kind == IR_VAR)
        bound[p->val] = true;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        mark_bound(b, targ(b, p, i), bound);
}

/* The body's join order: the order of least estimated cost, the sum over
 * literals of the runs before it times its work (lit_cost), found by a
 * search bounded at PLAN_NODES literals tried; the written order when the
 * search finds nothing better (it is safe: ir.h). */
enum { PLAN_NODES = 20000 };

typedef struct Planner {
    const Bg *b;
    const IrRule *r;
    uint32_t *cur, *best;
    bool *done;
    double best_cost;
    uint32_t nodes;
    bool stopped; /* BgGame.stop said so */
    /* scratch for every depth k, allocated once (the search visits up to
     * PLAN_NODES nodes; the board is made while a match starts): the bound
     * variables after k literals, and the candidates at k with their costs */
    bool *bound;   /* (nlits + 1) rows of nvars + 1 */
    uint32_t *cand; /* nlits rows of nlits + 1 */
    double *work, *fan;
} Planner;

static void plan_search(Planner *p, uint32_t k, double runs, double cost)
{
    const IrRule *r = p->r;
    if (cost >= p->best_cost)
        return;
    if (k == r->nlits) {
        p->best_cost = cost;
        memcpy(p->best, p->cur, r->nlits * sizeof *p->best);
        return;
    }
    size_t nb = (size_t)r->nvars + 1, nl = (size_t)r->nlits + 1;
    const bool *bound = p->bound + k * nb;
    bool *next = p->bound + (k + 1) * nb;
    /* the cheapest first, so that a good order is found early */
    uint32_t *cand = p->cand + k * nl, nc = 0;
    double *work = p->work + k * nl, *fan = p->fan + k * nl;
    for (uint32_t i = 0; i < r->nlits; i++) {
        double w, f;
        if (p->done[i] || !lit_cost(p->b, &p->b->ir->lits.v[r->lits + i], bound, &w, &f))
            continue;
        uint32_t at = nc++;
        for (; at > 0 && work[at - 1] + fan[at - 1] > w + f; at--) {
            cand[at] = cand[at - 1];
            work[at] = work[at - 1];
            fan[at] = fan[at - 1];
        }
        cand[at] = i;
        work[at] = w;
        fan[at] = f;
    }
    for (uint32_t c = 0; c < nc && p->nodes < PLAN_NODES; c++) {
        uint32_t i = cand[c];
        const IrLit *l = &p->b->ir->lits.v[r->lits + i];
        if ((++p->nodes & 255) == 0 && p->b->g->stop && p->b->g->stop(p->b->g->stop_ctx)) {
            p->stopped = true;
            p->nodes = PLAN_NODES;
        }
        if (cost + runs * work[c] >= p->best_cost)
            continue; /* (the call would return at once) */
        memcpy(next, bound, r->nvars * sizeof *next);
        if (l->kind == IR_LIT_POS || l->kind == LIT_BIND_EQ)
            for (uint32_t a = 0; a < l->nargs; a++)
                mark_bound(p->b, p->b->ir->largs.v[l->args + a], next);
        p->done[i] = true;
        p->cur[k] = i;
        plan_search(p, k + 1, runs * fan[c], cost + runs * work[c]);
        p->done[i] = false;
    }
}

/* False when BgGame.stop stopped the search (order is then the best
 * found so far). */
static bool plan_rule(const Bg *b, const IrRule *r, const bool *bound0, uint32_t *order)
{
    Planner p = {.b = b, .r = r, .best_cost = 1e300};
    size_t nb = (size_t)r->nvars + 1, nl = (size_t)r->nlits + 1;
    p.cur = base_xcalloc(nl, sizeof *p.cur);
    p.best = base_xcalloc(nl, sizeof *p.best);
    p.done = base_xcalloc(nl, sizeof *p.done);
    p.bound = base_xcalloc(nl * nb, sizeof *p.bound);
    p.cand = base_xcalloc(nl * nl, sizeof *p.cand);
    p.work = base_xcalloc(nl * nl, sizeof *p.work);
    p.fan = base_xcalloc(nl * nl, sizeof *p.fan);
    memcpy(p.bound, bound0, r->nvars * sizeof *p.bound);
    for (uint32_t i = 0; i < r->nlits; i++)
        p.best[i] = i;
    plan_search(&p, 0, 1, 0);
    memcpy(order, p.best, r->nlits * sizeof *order);
    free(p.cur);
    free(p.best);
    free(p.done);
    free(p.bound);
    free(p.cand);
    free(p.work);
    free(p.fan);
    return !p.stopped;
}

/* ---- functions --------------------------------------------------------------- */

/* A rule's function, NAME: its body's loops, then the head's work by mode,
 * with the head's positions in hmask bound from a[] (hargs: the head's
 * arguments, the rule's own or a frame's fact's). */
static void emit_rule_as(Bg *b, const char *name, uint32_t rule, uint32_t mode, const uint32_t *hargs,
                         uint32_t harity, uint64_t hmask, uint32_t frame)
{
    const IrRule *r = &b->ir->rules.v[rule];
    uint32_t nv = r->nvars;
    Fx x = {.b = b, .r = r, .rule = rule, .ind = 1, .mode = mode, .hargs = hargs, .harity = harity, .hmask = hmask,
            .frame = frame};
    x.bound = base_xcalloc(nv + 1, sizeof *x.bound);
    x.occ = base_xcalloc(nv + 1, sizeof *x.occ);
    x.order = base_xcalloc(r->nlits + 1, sizeof *x.order);
    bool test = mode == MODE_TEST;
    x.fail = x.ret = test ? "return 0" : "return";
    for (uint32_t i = 0; i < harity; i++)
        count_occ(b, hargs[i], x.occ);
    for (uint32_t i = 0; i < r->nlits; i++) {
        const IrLit *l = &b->ir->lits.v[r->lits + i];
        for (uint32_t k = 0; k < l->nargs; k++)
            count_occ(b, b->ir->largs.v[l->args + k], x.occ);
    }
    uint32_t line_no = 0, col = 0;
    source_linecol(b->ir->src, r->off, &line_no, &col);
    StrBuf body = {0};
    strbuf_add(&body, "");
    x.o = &body;
    /* the head's bound positions */
    for (uint32_t i = 0; i < harity; i++) {
        if (!(hmask >> i & 1))
            continue;
        const IrTerm *p = term(b, hargs[i]);
        char e[32];
        snprintf(e, sizeof e, "a[%" PRIu32 "]", i);
        if (p->kind == IR_VAR && !x.bound[p->val] && x.occ[p->val] == 1)
            continue;
        if (p->kind == IR_VAR && !x.bound[p->val]) {
            char v[64];
            vname(&x, p->val, v);
            line(&x, "unsigned int %s BG_UNUSED = %s;", v, e);
            x.bound[p->val] = true;
        } else {
            match(&x, e, hargs[i]);
        }
    }
    if (!plan_rule(b, r, x.bound, x.order))
        fail_with(b, base_xstrdup("cancelled"));
    emit_lits(&x, 0);
    strbuf_addf(&b->protos, "static %s %s(BgCtx *c, const unsigned int *a);\n", test ? "int" : "void", name);
    strbuf_addf(&b->funcs, "/* line %" PRIu32 " of the game */\n", line_no);
    strbuf_addf(&b->funcs, "static %s %s(BgCtx *c, const unsigned int *a)\n{\n    (void)c;\n    (void)a;\n%s%s}\n\n",
                test ? "int" : "void", name, body.s, test ? "    return 0;\n" : "");
    free(body.s);
    free(x.bound);
    free(x.occ);
    free(x.order);
}

static void emit_rule(Bg *b, uint32_t q, uint32_t rule)
{
    const BgQuery *Q = &b->qs.v[q];
    const IrRule *r = &b->ir->rules.v[rule];
    char *name = qname_s(b, q);
    char *fn = base_sprintf("%s_r%" PRIu32, name, rule);
    emit_rule_as(b, fn, rule, Q->mode, u32_at(&b->ir->largs, r->args), b->ir->rels.v[r->head].arity, Q->mask,
                 BASE_NONE);
    free(fn);
    free(name);
}

/* ---- frames ------------------------------------------------------------ */
/*
 * A frame rule carries a fact over: (<= (next F) (true F) B ...), F a fact
 * of a relation R of the layout whose key positions hold variables, each
 * once. Most of R's facts are kept from a state to the next, so next copies
 * R's slots, then clears those whose fact no frame rule keeps, found among
 * few candidates, where the rules would test every slot. B splits into
 *   - M, the literals with no variable of F (the move's part: (does ?w
 *     (mark ?j ?k))),
 *   - tests of the value: distinct over F's value variables and constants,
 *   - X, the key's tests: (distinct K T) or (not (P ...)), with variables
 *     of F's key and no value variable of F.
 * A frame rule with another literal runs as the other next rules do. Take
 * a fact in a slot, and a frame rule whose F and value tests accept its
 * value (R is not framed when some value of its domains has none). When
 * the rule does not keep the fact, either M has no answer, or for every
 * answer of M some literal of X fails. So the facts to clear are among
 *   - every fact of R, when some frame rule's M has no answer;
 *   - else the answers of (M, X's literal flipped, (true F)), for every
 *     frame rule and every literal of X: the distinct an equality that
 *     binds K, the negation a positive call.
 * Each candidate's fact is then tested by the frame rules' bodies less
 * (true F), its variables bound (the keep test), and its slot cleared when
 * none holds. Then the other next rules run, writing over the copy as they
 * would over zeros: a second value for a slot is still BG_CLAIM.
 */

/* The flat fact of a head (next F): its arguments, or false. */
static bool fact_of(const Bg *b, uint32_t t, uint32_t *sym, uint32_t *args, uint32_t *n)
{
    const IrTerm *p = term(b, t);
    *n = 0;
    if (p->kind == IR_CONST) {
        *sym = p->val;
        return true;
    }
    if (p->kind != IR_FN || p->nargs > BG_MAX_ARITY)
        return false;
    *sym = b->ir->funcs.v[p->val].sym;
    for (uint32_t i = 0; i < p->nargs; i++) {
        args[i] = targ(b, p, i);
        if (term(b, args[i])->kind == IR_FN)
            return false;
    }
    *n = p->nargs;
    return true;
}

/* Marks in has[0] a variable of the key (kv) and in has[1] one of the
 * value (vv) under term t. */
static void vars_under(const Bg *b, uint32_t t, const uint8_t *kv, const uint8_t *vv, bool *has)
{
    const IrTerm *p = term(b, t);
    if (p->kind == IR_VAR) {
        has[0] |= kv[p->val];
        has[1] |= vv[p->val];
    }
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        vars_under(b, targ(b, p, i), kv, vv, has);
}

enum { LIT_T, LIT_M, LIT_VTEST, LIT_X };

/* A frame rule of R: the index of (true F) in its body and each literal's
 * part (LIT_*) in part[]; false when the rule is not of the shape above. */
static bool frame_rule(const Bg *b, uint32_t rule, uint32_t ri, uint32_t *tl, uint8_t *part)
{
    const Ir *ir = b->ir;
    const IrRule *r = &ir->rules.v[rule];
    const BgRel *R = &b->g->rels.v[ri];
    uint32_t head = ir->largs.v[r->args], args[BG_MAX_ARITY], sym, n;
    if (!fact_of(b, head, &sym, args, &n))
        return false;
    uint8_t *kv = base_xcalloc(r->nvars + 1, 1), *vv = base_xcalloc(r->nvars + 1, 1);
    bool ok = true;
    for (uint32_t j = 0; j < R->nkey && ok; j++) {
        const IrTerm *p = term(b, args[R->key[j]]);
        ok = p->kind == IR_VAR && !kv[p->val];
        if (ok)
            kv[p->val] = 1;
    }
    for (uint32_t j = 0; j < R->nval && ok; j++) {
        const IrTerm *p = term(b, args[R->val[j]]);
        ok = p->kind == IR_CONST || (p->kind == IR_VAR && !kv[p->val] && !vv[p->val]);
        if (ok && p->kind == IR_VAR)
            vv[p->val] = 1;
    }
    *tl = BASE_NONE;
    for (uint32_t i = 0; i < r->nlits && ok; i++) {
        const IrLit *l = &ir->lits.v[r->lits + i];
        if (*tl == BASE_NONE && l->kind == IR_LIT_POS && ir->rels.v[l->rel].kind == IR_REL_TRUE &&
            ir_term_same(ir, ir->largs.v[l->args], head)) {
            *tl = i;
            part[i] = LIT_T;
            continue;
        }
        bool has[2] = {false, false};
        for (uint32_t k = 0; k < l->nargs; k++)
            vars_under(b, ir->largs.v[l->args + k], kv, vv, has);
        bool cmp = l->kind == IR_LIT_DISTINCT || l->kind == IR_LIT_EQUAL;
        if (!has[0] && !has[1])
            part[i] = LIT_M;
        else if (has[1] && !has[0] && cmp) {
            /* over value variables and constants only */
            for (uint32_t k = 0; k < 2 && ok; k++) {
                const IrTerm *p = term(b, ir->largs.v[l->args + k]);
                ok = p->kind == IR_CONST || (p->kind == IR_VAR && vv[p->val]);
            }
            part[i] = LIT_VTEST;
        } else if (has[0] && !has[1] && (l->kind == IR_LIT_DISTINCT || l->kind == IR_LIT_NEG))
            part[i] = LIT_X;
        else
            ok = false;
    }
    free(kv);
    free(vv);
    return ok && *tl != BASE_NONE;
}

/* Does a frame rule accept the value of code (0-based) of R: its F's
 * constants and its value tests? */
static bool frame_accepts(const Bg *b, uint32_t rule, uint32_t ri, const uint8_t *part, uint32_t code)
{
    const Ir *ir = b->ir;
    const IrRule *r = &ir->rules.v[rule];
    const BgRel *R = &b->g->rels.v[ri];
    uint32_t args[BG_MAX_ARITY], sym, n;
    fact_of(b, ir->largs.v[r->args], &sym, args, &n);
    uint32_t *is = base_xcalloc(r->nvars + 1, sizeof *is); /* a value variable's symbol + 1 */
    bool ok = true;
    for (uint32_t j = 0; j < R->nval && ok; j++) {
        uint32_t s = R->dom[R->val[j]].v[code / val_stride(R, j) % R->dom[R->val[j]].n];
        const IrTerm *p = term(b, args[R->val[j]]);
        if (p->kind == IR_CONST)
            ok = p->val == s;
        else
            is[p->val] = s + 1;
    }
    for (uint32_t i = 0; i < r->nlits && ok; i++) {
        if (part[i] != LIT_VTEST)
            continue;
        const IrLit *l = &ir->lits.v[r->lits + i];
        uint32_t s[2];
        for (uint32_t k = 0; k < 2; k++) {
            const IrTerm *p = term(b, ir->largs.v[l->args + k]);
            s[k] = p->kind == IR_CONST ? p->val : is[p->val] - 1;
        }
        ok = (s[0] == s[1]) == (l->kind == IR_LIT_EQUAL);
    }
    free(is);
    return ok;
}

/* A rule of the frames: rule's body literals lits[0..n) (indexes in its
 * body), of kinds kinds[], appended to Bg.own; its id. */
static uint32_t frame_synth(Bg *b, uint32_t rule, const uint32_t *lits, const uint32_t *kinds, uint32_t n)
{
    IrRule r = b->own.rules.v[rule];
    uint32_t first = b->own.lits.n;
    for (uint32_t i = 0; i < n; i++) {
        IrLit l = b->own.lits.v[r.lits + lits[i]];
        l.kind = kinds[i];
        vec_push(b->own.lits, l);
    }
    r.lits = first;
    r.nlits = n;
    vec_push(b->own.rules, r);
    return b->own.rules.n - 1;
}

/* Finds the frames of the game's next rules, and makes their rules. */
static void frames_find(Bg *b)
{
    const Ir *ir = b->g->ir;
    b->own = *ir;
    b->own.lits.v = NULL;
    b->own.lits.n = b->own.lits.cap = 0;
    b->own.rules.v = NULL;
    b->own.rules.n = b->own.rules.cap = 0;
    vec_reserve(b->own.lits, ir->lits.n + 1);
    vec_reserve(b->own.rules, ir->rules.n + 1);
    if (ir->lits.n)
        memcpy(b->own.lits.v, ir->lits.v, ir->lits.n * sizeof *ir->lits.v);
    if (ir->rules.n)
        memcpy(b->own.rules.v, ir->rules.v, ir->rules.n * sizeof *ir->rules.v);
    b->own.lits.n = ir->lits.n;
    b->own.rules.n = ir->rules.n;
    b->ir = &b->own;
    b->framed = base_xcalloc(ir->rules.n + 1, 1);
    uint32_t next = ir->kwrel[IR_REL_NEXT];
    if (next == BASE_NONE)
        return;
    const IrRel *nrel = &ir->rels.v[next];
    for (uint32_t ri = 0; ri < b->g->rels.n; ri++) {
        const BgRel *R = &b->g->rels.v[ri];
        BgFrame f = {.ri = ri};
        U32Vec tls = {0};
        uint8_t **parts = base_xcalloc(nrel->nrules + 1, sizeof *parts);
        for (uint32_t i = 0; i < nrel->nrules; i++) {
            uint32_t rule = ir->rule_index.v[nrel->rules + i], sym, n, args[BG_MAX_ARITY], tl;
            const IrRule *r = &ir->rules.v[rule];
            if (!fact_of(b, ir->largs.v[r->args], &sym, args, &n) || sym != R->sym || n != R->arity)
                continue;
            uint8_t *part = base_xcalloc(r->nlits + 1, 1);
            if (!frame_rule(b, rule, ri, &tl, part)) {
                free(part);
                continue;
            }
            parts[f.rules.n] = part;
            vec_push(f.rules, rule);
            vec_push(tls, tl);
        }
        /* every value has a frame rule that takes it */
        bool ok = f.rules.n > 0;
        for (uint32_t code = 0; code < R->codes && ok; code++) {
            bool any = false;
            for (uint32_t k = 0; k < f.rules.n && !any; k++)
                any = frame_accepts(b, f.rules.v[k], ri, parts[k], code);
            ok = any;
        }
        for (uint32_t k = 0; k < f.rules.n && ok; k++) {
            uint32_t rule = f.rules.v[k], nl = ir->rules.v[rule].nlits, tl = tls.v[k];
            const uint8_t *part = parts[k];
            uint32_t *lits = base_xcalloc(nl + 1, sizeof *lits), *kinds = base_xcalloc(nl + 1, sizeof *kinds), n = 0;
            /* keep: the body less (true F), as written */
            for (uint32_t i = 0; i < nl; i++)
                if (i != tl) {
                    lits[n] = i;
                    kinds[n++] = ir->lits.v[ir->rules.v[rule].lits + i].kind;
                }
            vec_push(f.keep, frame_synth(b, rule, lits, kinds, n));
            /* moved: M alone */
            n = 0;
            for (uint32_t i = 0; i < nl; i++)
                if (part[i] == LIT_M) {
                    lits[n] = i;
                    kinds[n++] = ir->lits.v[ir->rules.v[rule].lits + i].kind;
                }
            uint32_t nm = n;
            vec_push(f.moved, nm ? frame_synth(b, rule, lits, kinds, nm) : BASE_NONE);
            /* candidates: M, a literal of X flipped, (true F), the value tests */
            for (uint32_t j = 0; j < nl; j++) {
                if (part[j] != LIT_X)
                    continue;
                uint32_t kind = ir->lits.v[ir->rules.v[rule].lits + j].kind;
                n = nm;
                lits[n] = j;
                kinds[n++] = kind == IR_LIT_DISTINCT ? LIT_BIND_EQ : IR_LIT_POS;
                lits[n] = tl;
                kinds[n++] = IR_LIT_POS;
                for (uint32_t i = 0; i < nl; i++)
                    if (part[i] == LIT_VTEST) {
                        lits[n] = i;
                        kinds[n++] = ir->lits.v[ir->rules.v[rule].lits + i].kind;
                    }
                vec_push(f.cand, frame_synth(b, rule, lits, kinds, n));
                vec_push(f.cand, j); /* the literal flipped, for the name */
                vec_push(f.cand, k);
            }
            /* all: (true F) alone */
            lits[0] = tl;
            kinds[0] = IR_LIT_POS;
            vec_push(f.all, frame_synth(b, rule, lits, kinds, 1));
            free(lits);
            free(kinds);
        }
        for (uint32_t k = 0; k < f.rules.n; k++)
            free(parts[k]);
        free(parts);
        vec_free(tls);
        if (ok) {
            for (uint32_t k = 0; k < f.rules.n; k++)
                b->framed[f.rules.v[k]] = 1;
            vec_push(b->frames, f);
        } else {
            vec_free(f.rules);
            vec_free(f.keep);
            vec_free(f.moved);
            vec_free(f.cand);
            vec_free(f.all);
        }
    }
}

static void frames_free(Bg *b)
{
    for (uint32_t i = 0; i < b->frames.n; i++) {
        BgFrame *f = &b->frames.v[i];
        vec_free(f->rules);
        vec_free(f->keep);
        vec_free(f->moved);
        vec_free(f->cand);
        vec_free(f->all);
    }
    vec_free(b->frames);
    vec_free(b->own.lits);
    vec_free(b->own.rules);
    free(b->framed);
    b->framed = NULL;
}

/* A frame's function's name: the relation's, then what, then the frame's
 * number (malloc-ed). */
static char *frame_name(Bg *b, uint32_t fi, const char *what)
{
    const BgRel *R = &b->g->rels.v[b->frames.v[fi].ri];
    StrBuf o = {0};
    strbuf_add(&o, "");
    sanitised(&o, symtext(b, R->sym), 20);
    strbuf_addf(&o, "_%" PRIu32 "_%s%" PRIu32, R->arity, what, fi);
    return o.s;
}

/* The head of a candidate rule: its fact's slot is cleared unless a frame
 * rule keeps the fact. */
static void emit_cand_head(Fx *x)
{
    Bg *b = x->b;
    const BgFrame *f = &b->frames.v[x->frame];
    StrBuf av = {0}, idx = {0}, cond = {0};
    strbuf_add(&av, "");
    strbuf_add(&cond, "1");
    for (uint32_t i = 0; i < x->harity; i++) {
        char v[64];
        val(x, x->hargs[i], v);
        strbuf_addf(&av, "%s%s", i ? ", " : "", v);
    }
    if (slot_expr(x, f->ri, x->hargs, &idx, &cond)) {
        uint32_t t = b->tmp++;
        char *name = frame_name(b, x->frame, "keep");
        if (strcmp(cond.s, "1") != 0)
            line(x, "if (!(%s)) %s;", cond.s, x->fail);
        line(x, "unsigned int k%" PRIu32 "[%" PRIu32 "] = {%s};", t, x->harity ? x->harity : 1,
             x->harity ? av.s : "0");
        line(x, "if (!%s(c, k%" PRIu32 ")) c->nx[%s] = 0;", name, t, idx.s);
        free(name);
    }
    free(av.s);
    free(idx.s);
    free(cond.s);
}

/* The arguments of a frame rule's fact F (NULL for a proposition). */
static const uint32_t *frame_fact(const Bg *b, uint32_t rule)
{
    const IrTerm *F = term(b, b->ir->largs.v[b->ir->rules.v[rule].args]);
    return F->kind == IR_FN ? u32_at(&b->ir->targs, F->args) : NULL;
}

/* A frame rule's function NAME_WHATn_rRULE (malloc-ed). */
static char *frame_fn(Bg *b, uint32_t fi, const char *what, uint32_t rule)
{
    char *base = frame_name(b, fi, what);
    char *fn = base_sprintf("%s_r%" PRIu32, base, rule);
    free(base);
    return fn;
}

/* A frame's functions: NAME_frameN (called first by next) copies the slots,
 * then runs the candidates, which clear what NAME_keepN (the test of a
 * fact) does not keep. */
static void emit_frame(Bg *b, uint32_t fi)
{
    const BgFrame *f = &b->frames.v[fi];
    const BgRel *R = &b->g->rels.v[f->ri];
    char *frame = frame_name(b, fi, "frame");
    bool any_moved = false;
    for (uint32_t i = 0; i < f->rules.n; i++)
        any_moved |= f->moved.v[i] != BASE_NONE;
    StrBuf d = {0};
    strbuf_addf(&b->protos, "static void %s(BgCtx *c, const unsigned int *a);\n", frame);
    strbuf_addf(&d, "/* R%" PRIu32 "'s facts carried over: copied, then those no frame rule keeps cleared */\n", f->ri);
    strbuf_addf(&d, "static void %s(BgCtx *c, const unsigned int *a)\n{\n", frame);
    strbuf_addf(&d, "    for (unsigned int i = %" PRIu32 "u; i < %" PRIu32 "u; i++)\n        c->nx[i] = c->st[i];\n", R->off,
                R->off + R->groups);
    if (!any_moved && f->cand.n == 0) {
        /* every frame rule keeps every fact it takes */
        strbuf_add(&d, "    (void)a;\n}\n\n");
        strbuf_add(&b->funcs, d.s);
        free(d.s);
        free(frame);
        return;
    }
    /* the keep test: the frame rules' bodies less (true F), F bound */
    char *keep = frame_name(b, fi, "keep");
    uint64_t all = R->arity >= 64 ? ~0ULL : (1ULL << R->arity) - 1;
    StrBuf k = {0};
    strbuf_addf(&b->protos, "static int %s(BgCtx *c, const unsigned int *a);\n", keep);
    strbuf_addf(&k, "/* Is fact a[] of R%" PRIu32 " kept by a frame rule? */\nstatic int %s(BgCtx *c, const unsigned int *a)\n{\n    unsigned int *s0 = c->sp;\n",
                f->ri, keep);
    for (uint32_t i = 0; i < f->rules.n; i++) {
        char *fn = frame_fn(b, fi, "keep", f->rules.v[i]);
        emit_rule_as(b, fn, f->keep.v[i], MODE_TEST, frame_fact(b, f->rules.v[i]), R->arity, all, BASE_NONE);
        strbuf_addf(&k, "    if (%s(c, a)) {\n        c->sp = s0;\n        return 1;\n    }\n", fn);
        free(fn);
    }
    strbuf_add(&k, "    c->sp = s0;\n    return 0;\n}\n\n");
    strbuf_add(&b->funcs, k.s);
    free(k.s);
    free(keep);
    if (any_moved) {
        /* a frame rule whose move part has no answer keeps nothing: then
         * every fact is a candidate */
        strbuf_add(&d, "    unsigned int *s0 = c->sp;\n    int moved = ");
        bool first = true;
        for (uint32_t i = 0; i < f->rules.n; i++) {
            if (f->moved.v[i] == BASE_NONE)
                continue;
            char *fn = frame_fn(b, fi, "moved", f->rules.v[i]);
            emit_rule_as(b, fn, f->moved.v[i], MODE_TEST, NULL, 0, 0, BASE_NONE);
            strbuf_addf(&d, "%s%s(c, a)", first ? "" : " && ", fn);
            first = false;
            free(fn);
        }
        strbuf_add(&d, ";\n    c->sp = s0;\n    if (!moved) {\n");
        for (uint32_t i = 0; i < f->rules.n; i++) {
            char *fn = frame_fn(b, fi, "all", f->rules.v[i]);
            emit_rule_as(b, fn, f->all.v[i], MODE_CAND, frame_fact(b, f->rules.v[i]), R->arity, 0, fi);
            strbuf_addf(&d, "        %s(c, a);\n", fn);
            free(fn);
        }
        strbuf_add(&d, "        return;\n    }\n");
    }
    for (uint32_t i = 0; i + 2 < f->cand.n; i += 3) {
        uint32_t rule = f->rules.v[f->cand.v[i + 2]];
        char *base = frame_name(b, fi, "cand");
        char *fn = base_sprintf("%s_r%" PRIu32 "_l%" PRIu32, base, rule, f->cand.v[i + 1] + 1);
        emit_rule_as(b, fn, f->cand.v[i], MODE_CAND, frame_fact(b, rule), R->arity, 0, fi);
        strbuf_addf(&d, "    %s(c, a);\n", fn);
        free(fn);
        free(base);
    }
    strbuf_add(&d, "}\n\n");
    strbuf_add(&b->funcs, d.s);
    free(d.s);
    free(frame);
}

static void emit_query(Bg *b, uint32_t q)
{
    const BgQuery Q = b->qs.v[q];
    const IrRel *rel = &b->ir->rels.v[Q.rel];
    char *name = qname_s(b, q);
    bool test = Q.mode == MODE_TEST;
    strbuf_addf(&b->protos, "static %s %s(BgCtx *c, const unsigned int *a);\n", test ? "int" : "void", name);
    StrBuf f = {0};
    strbuf_addf(&f, "static %s %s(BgCtx *c, const unsigned int *a)\n{\n", test ? "int" : "void", name);
    bool rec = b->ir->sccs.v[rel->scc].recursive;
    /* a test that may cost more than a few reads is remembered for the
     * rest of the query (by its arguments): the same call again is one
     * lookup. A call under way is not in the memo yet; one that ended is
     * final (BG_DEEP throws the query's answers away). */
    uint32_t nlits = 0;
    for (uint32_t i = 0; i < rel->nrules; i++)
        nlits += b->ir->rules.v[b->ir->rule_index.v[rel->rules + i]].nlits;
    bool memo = test && rel->arity <= BG_MEMO_ARITY && (rec || nlits >= 4);
    if (memo) {
        StrBuf h = {0}, eq = {0};
        strbuf_addf(&h, "%" PRIu32 "u * 0x9e3779b1u", q + 1);
        strbuf_addf(&eq, "l[0] == c->memo_epoch && l[1] == %" PRIu32 "u", q);
        for (uint32_t i = 0; i < rel->arity; i++) {
            strbuf_addf(&h, " ^ (a[%" PRIu32 "] + 0x7f4a7c15u) * %uu", i, 0x85ebca6bu + 2 * i);
            strbuf_addf(&eq, " && l[%" PRIu32 "] == a[%" PRIu32 "]", 2 + i, i);
        }
        strbuf_addf(&f, "    unsigned int hm = %s;\n", h.s);
        strbuf_add(&f, "    unsigned int *l = c->memo + ((hm ^ hm >> 15) & c->memo_mask) * 8u;\n");
        strbuf_addf(&f, "    if (%s)\n        return (int)l[6];\n", eq.s);
        free(h.s);
        free(eq.s);
    }
    if (rec) {
        /* without tables: bounded (BG_DEEP) */
        strbuf_addf(&f, "    if (c->depth >= %du || c->budget == 0) {\n        c->bad = BG_DEEP;\n        return%s;\n    }\n",
                    BG_MAX_DEPTH, test ? " 0" : "");
        strbuf_add(&f, "    c->depth++;\n    c->budget--;\n");
    }
    if (test)
        strbuf_add(&f, "    unsigned int *s0 = c->sp;\n");
    if (Q.mode == MODE_NEXT)
        for (uint32_t i = 0; i < b->frames.n; i++) {
            emit_frame(b, i);
            char *fn = frame_name(b, i, "frame");
            strbuf_addf(&f, "    %s(c, a);\n", fn);
            free(fn);
        }
    for (uint32_t i = 0; i < rel->nrules; i++) {
        uint32_t rule = b->ir->rule_index.v[rel->rules + i];
        if (Q.mode == MODE_NEXT && b->framed[rule])
            continue;
        emit_rule(b, q, rule);
        if (test)
            strbuf_addf(&f, "    if (%s_r%" PRIu32 "(c, a)) {\n        c->sp = s0;\n%s%s        return 1;\n    }\n", name,
                        rule, rec ? "        c->depth--;\n" : "", memo ? "        MEMO(1);\n" : "");
        else
            strbuf_addf(&f, "    %s_r%" PRIu32 "(c, a);\n", name, rule);
    }
    if (rec)
        strbuf_add(&f, "    c->depth--;\n");
    if (memo)
        strbuf_add(&f, "    MEMO(0);\n");
    strbuf_add(&f, test ? "    c->sp = s0;\n    return 0;\n}\n\n" : "}\n\n");
    if (memo) {
        /* MEMO(r): the line takes this call and its answer */
        StrBuf m = {0};
        strbuf_addf(&m, "#define MEMO(r) do { l[0] = c->memo_epoch; l[1] = %" PRIu32 "u;", q);
        for (uint32_t i = 0; i < rel->arity; i++)
            strbuf_addf(&m, " l[%" PRIu32 "] = a[%" PRIu32 "];", 2 + i, i);
        strbuf_add(&m, " l[6] = (r); } while (0)\n");
        StrBuf g = {0};
        strbuf_addf(&g, "%s%s#undef MEMO\n\n", m.s, f.s);
        free(m.s);
        free(f.s);
        f = g;
    }
    strbuf_add(&b->funcs, f.s);
    free(f.s);
    free(name);
}

/* The longest chain of calls among the relations of the rules (a
 * component of mutual recursion counted once): the generated code's
 * calls of non-recursive relations nest that deep on the machine's own
 * stack (a chain of 10,000 propositions: unit/deep). */
static uint32_t call_depth(const Ir *ir)
{
    uint32_t *d = base_xcalloc(ir->sccs.n + 1, sizeof *d), most = 0;
    for (uint32_t c = 0; c < ir->sccs.n; c++) { /* dependencies first */
        const IrScc *S = &ir->sccs.v[c];
        for (uint32_t k = 0; k < S->nrels; k++) {
            const IrRel *rel = &ir->rels.v[ir->scc_rels.v[S->rels + k]];
            for (uint32_t i = 0; i < rel->nrules; i++) {
                const IrRule *r = &ir->rules.v[ir->rule_index.v[rel->rules + i]];
                for (uint32_t j = 0; j < r->nlits; j++) {
                    const IrLit *l = &ir->lits.v[r->lits + j];
                    if (l->kind != IR_LIT_POS && l->kind != IR_LIT_NEG)
                        continue;
                    uint32_t t = ir->rels.v[l->rel].scc;
                    if (t != c && d[t] + 1 > d[c])
                        d[c] = d[t] + 1;
                }
            }
        }
        most = d[c] > most ? d[c] : most;
    }
    free(d);
    return most;
}

/* How the relations the code reaches are evaluated, in words. */
static char *summary_of(Bg *b)
{
    const Ir *ir = b->ir;
    StrBuf o = {0}, rec = {0}, tab = {0};
    strbuf_add(&o, "compiled");
    strbuf_add(&rec, "");
    strbuf_add(&tab, "");
    uint8_t *seen = base_xcalloc(ir->rels.n + 1, 1);
    for (uint32_t q = 0; q < b->qs.n; q++) {
        uint32_t r = b->qs.v[q].rel;
        if (seen[r])
            continue;
        seen[r] = 1;
        const IrRel *rel = &ir->rels.v[r];
        bool recursive = ir->sccs.v[rel->scc].recursive;
        strbuf_addf(recursive ? &rec : &o, "%s%s/%" PRIu32, recursive && !rec.len ? "" : " ", symtext(b, rel->sym),
                    rel->arity);
    }
    for (uint32_t r = 0; r < ir->rels.n; r++)
        if (b->stat_done[r])
            strbuf_addf(&tab, "%s%s/%" PRIu32, tab.len ? " " : "", symtext(b, ir->rels.v[r].sym), ir->rels.v[r].arity);
    if (rec.len)
        strbuf_addf(&o, "; recursive, without tables, bounded: %s", rec.s);
    if (tab.len)
        strbuf_addf(&o, "; tables of constants: %s", tab.s);
    for (uint32_t i = 0; i < b->frames.n; i++) {
        const BgRel *R = &b->g->rels.v[b->frames.v[i].ri];
        strbuf_addf(&o, "%s%s/%" PRIu32, i ? " " : "; carried over by frames (copied, the facts no frame rule keeps cleared): ",
                    symtext(b, R->sym), R->arity);
    }
    free(rec.s);
    free(tab.s);
    free(seen);
    return o.s;
}

char *bg_emit(const BgGame *g, size_t *len, char **err) { return bg_emit_summary(g, len, NULL, err); }

char *bg_emit_summary(const BgGame *g, size_t *len, char **summary, char **err)
{
    Bg b = {.g = g, .ir = g->ir};
    const Ir *ir = g->ir;
    frames_find(&b);
    uint32_t nkeys = (g->rels.n * 2 + g->shapes.n + 1) * BG_MAX_ARITY;
    b.ix_done = base_xcalloc(nkeys, 1);
    b.stat_done = base_xcalloc(ir->rels.n + 1, 1);
    strbuf_add(&b.data, "");
    strbuf_add(&b.protos, "");
    strbuf_add(&b.funcs, "");
    uint32_t legal = ir->kwrel[IR_REL_LEGAL], next = ir->kwrel[IR_REL_NEXT], terminal = ir->kwrel[IR_REL_TERMINAL],
             goal = ir->kwrel[IR_REL_GOAL];
    if (legal == BASE_NONE || next == BASE_NONE || terminal == BASE_NONE || goal == BASE_NONE) {
        *err = base_xstrdup("the game lacks legal, next, terminal or goal rules");
        frames_free(&b);
        free(b.ix_done);
        free(b.stat_done);
        free(b.data.s);
        free(b.protos.s);
        free(b.funcs.s);
        return NULL;
    }
    uint32_t depth = call_depth(ir);
    if (depth > BG_MAX_CALL_DEPTH)
        fail_with(&b, base_sprintf("the rules call relations %" PRIu32 " deep, more than %d", depth, BG_MAX_CALL_DEPTH));
    uint32_t ql = query_of(&b, legal, 1, MODE_LEGAL), qn = query_of(&b, next, 0, MODE_NEXT),
             qt = query_of(&b, terminal, 0, MODE_TEST), qg = query_of(&b, goal, 0, MODE_GOAL);
    for (uint32_t q = 0; q < b.qs.n && !b.err; q++)
        emit_query(&b, q);
    StrBuf o = {0};
    if (!b.err) {
        strbuf_add(&o, "/* ==== the runtime's code ==== */\n");
        strbuf_add(&o, "typedef struct BgCtx {\n    " BG_STR(BG_CTX_FIELDS) "\n} BgCtx;\n");
        strbuf_addf(&o, "enum { BG_CLAIM = %d, BG_SPACE = %d, BG_DEEP = %d };\n", BG_CLAIM, BG_SPACE, BG_DEEP);
        strbuf_add(&o, "#define BG_UNUSED __attribute__((unused))\n");
        strbuf_add(&o, "/* Pops the answers [b, e) of a call, keeping what was pushed above them. */\n"
                       "static BG_UNUSED void bg_pop(BgCtx *c, unsigned int *b, unsigned int *e)\n{\n"
                       "    unsigned int *d = b;\n    for (unsigned int *s = e; s < c->sp; s++)\n        *d++ = *s;\n"
                       "    c->sp = d;\n}\n\n");
        strbuf_add(&o, "/* ==== the game ==== */\n");
        uint32_t nr = ir->roles.n, ns = g->syms->n;
        strbuf_addf(&o, "enum { NROLE = %" PRIu32 " };\n", nr);
        strbuf_addf(&o, "/* Values: a symbol's id, or NSYM + a move's number. */\n#define NSYM %" PRIu32 "u\n#define NMOVE %" PRIu32 "u\n", ns, g->nmoves);
        uint32_t *cm = base_xcalloc(ns ? ns : 1, sizeof *cm);
        for (uint32_t i = 0; i < g->shapes.n; i++)
            if (g->shapes.v[i].arity == 0 && g->shapes.v[i].sym < ns)
                cm[g->shapes.v[i].sym] = g->shapes.v[i].base + 1;
        strbuf_add(&o, "/* A constant move's number + 1, by its symbol. */\n");
        print_u32s(&o, "unsigned int", "CMOVE", cm, ns);
        free(cm);
        print_u32s(&o, "unsigned int", "ROLESYM", ir->roles.v, nr);
        uint32_t *rix = base_xcalloc(ns ? ns : 1, sizeof *rix);
        for (uint32_t i = 0; i < nr; i++)
            if (ir->roles.v[i] < ns)
                rix[ir->roles.v[i]] = i + 1;
        print_u32s(&o, "unsigned int", "ROLEIX", rix, ns);
        free(rix);
        strbuf_add(&o, "/* The layout: state relations' slots, the moves' shapes. */\n");
        for (uint32_t i = 0; i < g->rels.n; i++) {
            const BgRel *R = &g->rels.v[i];
            strbuf_addf(&o, "/* R%" PRIu32 ": (%s", i, symtext(&b, R->sym));
            for (uint32_t j = 0; j < R->arity; j++) {
                bool key = false;
                for (uint32_t k = 0; k < R->nkey; k++)
                    key |= R->key[k] == j;
                strbuf_addf(&o, " %s%" PRIu32, key ? "key" : "value", j);
            }
            strbuf_addf(&o, "): slots %" PRIu32 "..%" PRIu32 ", %" PRIu32 " values */\n", R->off, R->off + R->groups,
                        R->codes);
        }
        for (uint32_t i = 0; i < g->shapes.n; i++)
            strbuf_addf(&o, "/* SH %" PRIu32 ": (%s/%" PRIu32 "), moves %" PRIu32 "..%" PRIu32 " */\n", i,
                        symtext(&b, g->shapes.v[i].sym), g->shapes.v[i].arity, g->shapes.v[i].base,
                        g->shapes.v[i].base + g->shapes.v[i].count);
        strbuf_add(&o, b.data.s);
        strbuf_add(&o, "\n");
        strbuf_add(&o, b.protos.s);
        strbuf_add(&o, "\n");
        strbuf_add(&o, b.funcs.s);
        char *nl = qname_s(&b, ql), *nn = qname_s(&b, qn), *nt = qname_s(&b, qt), *ng = qname_s(&b, qg);
        strbuf_addf(&o, "void bg_legal(BgCtx *c, unsigned int role)\n{\n    unsigned int a[2] = {role, 0};\n    %s(c, a);\n}\n", nl);
        strbuf_addf(&o, "void bg_next(BgCtx *c)\n{\n    unsigned int a[1] = {0};\n    %s(c, a);\n}\n", nn);
        strbuf_addf(&o, "int bg_terminal(BgCtx *c)\n{\n    unsigned int a[1] = {0};\n    return %s(c, a);\n}\n", nt);
        strbuf_addf(&o, "void bg_goals(BgCtx *c)\n{\n    unsigned int a[2] = {0, 0};\n    %s(c, a);\n}\n", ng);
        strbuf_add(&o, "/* ==== end of the game ==== */\n");
        free(nl);
        free(nn);
        free(nt);
        free(ng);
    }
    if (summary && !b.err)
        *summary = summary_of(&b);
    free(b.ix_done);
    free(b.stat_done);
    free(b.data.s);
    free(b.protos.s);
    free(b.funcs.s);
    frames_free(&b);
    vec_free(b.qs);
    vec_free(b.tx_done);
    free(b.sym_named);
    if (b.err) {
        free(o.s);
        *err = b.err;
        return NULL;
    }
    *len = o.len;
    return o.s;
}
