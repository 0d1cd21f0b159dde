/*
 * api_bytes.c: states as bytes (gdl_state_write, gdl_state_read): a compact
 * encoding of a state's facts by the game's symbols, read back by any
 * machine of the same game, checked on the way in.
 */
#include <string.h>

#include "api_shared.h"

/* ---- states as bytes ------------------------------------------------- */

typedef VEC(uint8_t) Bytes;

static void put_varint(Bytes *b, uint64_t x)
{
    do {
        vec_push(*b, (uint8_t)((x & 127) | (x > 127 ? 128 : 0)));
        x >>= 7;
    } while (x);
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* Writes term t in prefix order, numbering its symbols in syms as they
 * first appear (m->symidx maps a symbol to its number + 1). */
static void put_term(GdlMachine *m, Bytes *b, U32Vec *syms, Gt t)
{
    uint32_t fn = gt_fn(&m->store, t);
    if (m->symidx.v[fn] == 0) {
        vec_push(*syms, fn);
        m->symidx.v[fn] = syms->n;
    }
    uint32_t arity = gt_arity(&m->store, t);
    put_varint(b, (uint64_t)(m->symidx.v[fn] - 1) * 8 + (arity < 7 ? arity : 7));
    if (arity >= 7)
        put_varint(b, arity - 7);
    for (uint32_t i = 0; i < gt_arity(&m->store, t); i++)
        put_term(m, b, syms, gt_arg(&m->store, t, i));
}

static GdlStatus state_write_(GdlMachine *m, const GdlState *s, void *buf, size_t cap, size_t *len)
{
    *len = 0;
    GdlStatus st = rt_state_check(m, s);
    if (st != GDL_OK)
        return st;
    uint32_t have = m->symidx.n, need = m->syms.n;
    if (need > have) {
        vec_reserve(m->symidx, need);
        memset(m->symidx.v + have, 0, (size_t)(need - have) * sizeof *m->symidx.v);
        m->symidx.n = need;
    }
    rt_state_sort(m, s);
    Bytes facts = {0}, out = {0};
    U32Vec syms = {0};
    put_varint(&facts, s->n);
    for (uint32_t i = 0; i < s->n; i++)
        put_term(m, &facts, &syms, m->sorted.v[i]);
    const uint8_t head[5] = {'G', 'D', 'L', 'S', GDL_STATE_FORMAT};
    for (int i = 0; i < 5; i++)
        vec_push(out, head[i]);
    put_varint(&out, syms.n);
    for (uint32_t i = 0; i < syms.n; i++) {
        uint32_t n = m->syms.len[syms.v[i]];
        const char *text = symtab_str(&m->syms, syms.v[i]);
        put_varint(&out, n);
        for (uint32_t j = 0; j < n; j++)
            vec_push(out, (uint8_t)text[j]);
        m->symidx.v[syms.v[i]] = 0;
    }
    for (uint32_t i = 0; i < facts.n; i++)
        vec_push(out, facts.v[i]);
    uint64_t h = fnv1a(out.v, out.n);
    for (int i = 0; i < 8; i++)
        vec_push(out, (uint8_t)(h >> (8 * i)));
    *len = out.n;
    if (cap < out.n)
        st = rt_fail(&m->ctl, GDL_LIMIT, "the state needs %u bytes, the buffer has %zu", out.n, cap);
    else
        memcpy(buf, out.v, out.n);
    vec_free(facts);
    vec_free(out);
    vec_free(syms);
    return st;
}

/* Reads bytes of a written state: checks everything in one pass that makes
 * nothing (m NULL), then reads again making the terms. */
typedef struct Reader {
    const uint8_t *p, *end; /* the bytes not read yet */
    uint32_t nsyms;
    uint32_t *symid;        /* when making: the symbol id of each index */
    GdlMachine *m;          /* NULL while checking */
} Reader;

static bool get_varint(Reader *r, uint32_t *x)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (r->p == r->end)
            return false;
        uint8_t byte = *r->p++;
        v |= (uint64_t)(byte & 127) << shift;
        if (!(byte & 128)) {
            if (v > UINT32_MAX || (byte == 0 && shift > 0))
                return false; /* too large, or written longer than needed */
            *x = (uint32_t)v;
            return true;
        }
    }
    return false;
}

/* A symbol as the KIF lexer makes them: folded to lower case. */
static bool symbol_ok(const uint8_t *s, uint32_t n)
{
    static const char word[] = "abcdefghijklmnopqrstuvwxyz0123456789!$%&*+-./<=>@_~";
    if (n == 0)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (!s[i] || (!strchr(word, s[i]) && !(i > 0 && s[i] == '?')))
            return false;
    return true;
}

static bool get_term(Reader *r, uint32_t depth, Gt *out)
{
    uint32_t head, sym, arity, more = 0;
    if (depth > GT_MAX_DEPTH || !get_varint(r, &head) || (sym = head / 8) >= r->nsyms)
        return false;
    if ((arity = head % 8) == 7 && (!get_varint(r, &more) || more > UINT32_MAX - 7))
        return false;
    arity += more;
    if (arity > (size_t)(r->end - r->p))
        return false;
    Gt small[16], *args = arity <= 16 ? small : base_xmalloc(arity * sizeof *args);
    bool ok = true;
    for (uint32_t i = 0; i < arity && ok; i++)
        ok = get_term(r, depth + 1, &args[i]);
    if (ok && r->m && (*out = gt_intern(&r->m->store, r->symid[sym], arity, args)) == BASE_NONE)
        ok = false;
    if (args != small)
        free(args);
    return ok;
}

/* Reads the symbols and facts (between header and hash) into m->scratch. */
static bool read_state(Reader *r)
{
    uint32_t nfacts;
    if (!get_varint(r, &r->nsyms) || r->nsyms > (size_t)(r->end - r->p))
        return false;
    for (uint32_t i = 0; i < r->nsyms; i++) {
        uint32_t n;
        if (!get_varint(r, &n) || n > (size_t)(r->end - r->p) || !symbol_ok(r->p, n))
            return false;
        if (r->m)
            r->symid[i] = symtab_intern(&r->m->syms, (const char *)r->p, n);
        r->p += n;
    }
    if (!get_varint(r, &nfacts) || nfacts > (size_t)(r->end - r->p))
        return false;
    for (uint32_t i = 0; i < nfacts; i++) {
        Gt t = BASE_NONE;
        if (!get_term(r, 1, &t))
            return false;
        if (r->m)
            vec_push(r->m->scratch, t);
    }
    return r->p == r->end;
}

static GdlStatus state_read_(GdlMachine *m, const void *buf, size_t len, GdlState **out)
{
    *out = NULL;
    const uint8_t *b = buf;
    if (!b || len < 5 + 8 || memcmp(b, "GDLS", 4) != 0)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "not a state written by gdl_state_write");
    if (b[4] != GDL_STATE_FORMAT)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a state in format %u; this library reads format %u", b[4],
                       GDL_STATE_FORMAT);
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h |= (uint64_t)b[len - 8 + i] << (8 * i);
    if (h != fnv1a(b, len - 8))
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a damaged state: the hash does not match");
    Reader r = {.p = b + 5, .end = b + len - 8};
    if (!read_state(&r))
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a damaged state: its hash matches but not its structure");
    /* Checked: now make the terms. */
    uint32_t nsyms = r.nsyms;
    r = (Reader){.p = b + 5, .end = b + len - 8, .m = m};
    r.symid = base_xcalloc((size_t)nsyms + 1, sizeof *r.symid);
    m->scratch.n = 0;
    bool ok = read_state(&r);
    free(r.symid);
    if (!ok) /* cannot happen: the first pass checked the same */
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a damaged state");
    *out = rt_state_make(m, m->scratch.v, m->scratch.n);
    return GDL_OK;
}

/* ---- the public calls, each under an out-of-memory handler ------------- */

GdlStatus gdl_state_write(GdlMachine *m, const GdlState *s, void *buf, size_t cap, size_t *len)
{
    GUARDED(m, state_write_(m, s, buf, cap, len));
}

GdlStatus gdl_state_read(GdlMachine *m, const void *buf, size_t len, GdlState **out)
{
    GUARDED(m, state_read_(m, buf, len, out));
}
