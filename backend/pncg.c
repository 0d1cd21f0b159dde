/*
 * pncg.c: a flattened propositional network to straight-line C. See pncg.h.
 *
 * The shape, for a component 5 whose outputs are an AND 7 (compiled), a
 * NOT 9 (the legal move of bit 4, whose outputs feed a table-told gate)
 * and 12, a member of a cyclic SCC, with records of 12 bytes:
 *
 *   static void t5(X *x, u32 k)
 *   {
 *       u32 *C = x->c, a = 0x7fffffffu + (k == 1u);
 *       u8 *G = x->g + 9u, p = k == 1u, m = !p;
 *       if ((C[7] += k) == a) { G[84] = p; t7(x, k); }
 *       if ((C[9] += k) == a) { G[108] = m; x->lg[0] ^= 0x10ull; x->q(x->h, 9, m); }
 *       C[12] += k; x->d(x->h, 12);
 *   }
 *
 * k is +1 when 5 rose, -1 (as u32) when it fell. An output's counter
 * takes k; a counter moves by one, so its bit 31 moved exactly when it
 * now equals a, and the target's value is then p (m past a NOT, whose
 * value is its bit 31 inverted). On a flip the value is stored,
 * the next-state and legal-move bits that follow the target toggled, and
 * the target told: now by a call (k, or -k past a NOT), or later by the
 * host's queue. A member of a cyclic SCC is only counted, and the host
 * recomputes its SCC once the queue is empty (as pn's tell does).
 * Functions come callees first (reverse topological order), so that none
 * needs a declaration: the text is what libtcc reads, no macros.
 * Same network, same bytes.
 */
#include "pncg.h"

#include <stdbool.h>
#include <stdlib.h>

#include "../base/base.h"

char *pncg_emit(const PncgNet *net, size_t max_lines, size_t *len, size_t *lines)
{
    if (!max_lines)
        max_lines = PNCG_DEFAULT_MAX_LINES;
    uint32_t n = net->n;
    /* which components get a function: acyclic, with outputs, none of them cyclic */
    bool *fn = base_xcalloc(n + 1, sizeof *fn);
    size_t est = 40 + n / 8 + 1;
    for (uint32_t c = 0; c < n; c++) {
        uint32_t a = net->out_at[c], b = net->out_at[c + 1];
        bool ok = !(net->flags[c] & PNCG_F_CYCLIC) && b > a;
        fn[c] = ok;
        if (ok)
            est += 6 + (b - a);
    }
    if (est > max_lines) {
        free(fn);
        *lines = est;
        return NULL;
    }
    /* the height of each function's direct calls, bounded: a target whose
     * chain of calls is already PNCG_MAX_NEST deep is queued instead */
    uint32_t *h = base_xcalloc(n + 1, sizeof *h);
    uint8_t *direct = base_xcalloc(net->out_at[n] + 1, 1);
    for (uint32_t i = n; i-- > 0;) {
        uint32_t c = net->order[i];
        if (!fn[c])
            continue;
        uint32_t hc = 1;
        for (uint32_t o = net->out_at[c]; o < net->out_at[c + 1]; o++) {
            uint32_t d = net->out[o] & PNCG_E_COMP;
            if (fn[d] && h[d] + 1 <= PNCG_MAX_NEST) {
                direct[o] = 1;
                if (h[d] + 1 > hc)
                    hc = h[d] + 1;
            }
        }
        h[c] = hc;
    }
    StrBuf b = {0};
    strbuf_addf(&b,
                "/* gdlc: a propositional network's propagation, compiled (backend/pncg.c): %u components */\n"
                "typedef unsigned int u32;\n"
                "typedef unsigned char u8;\n"
                "typedef unsigned long long u64;\n"
                "typedef struct X {\n"
                "    u32 *c;\n"
                "    u8 *g;\n"
                "    u64 *nx;\n"
                "    u64 *lg;\n"
                "    void *h;\n"
                "    void (*q)(void *h, u32 comp, u32 v);\n"
                "    void (*d)(void *h, u32 comp);\n"
                "} X;\n",
                n);
    size_t nl = 14;
    /* callees before callers (no declarations): reverse topological order */
    for (uint32_t i = n; i-- > 0;) {
        uint32_t c = net->order[i];
        if (!fn[c])
            continue;
        bool any = false, anym = false;
        for (uint32_t o = net->out_at[c]; o < net->out_at[c + 1]; o++)
            if (!(net->out[o] & PNCG_E_CYC)) {
                any = true;
                anym |= (net->out[o] & PNCG_E_NOT) != 0;
            }
        if (!any) {
            strbuf_addf(&b, "static void t%u(X *x, u32 k)\n{\n    u32 *C = x->c;\n", c);
            nl += 3;
        } else {
            /* a: a counter's value after it crossed bit 31, p the value
             * its gate then has, m a NOT's */
            strbuf_addf(&b, "static void t%u(X *x, u32 k)\n{\n    u32 *C = x->c, a = 0x7fffffffu + (k == 1u);\n", c);
            strbuf_addf(&b, "    u8 *G = x->g + %uu, p = k == 1u", net->val_offset);
            if (anym)
                strbuf_add(&b, ", m = !p");
            strbuf_add(&b, ";\n");
            nl += 4;
        }
        for (uint32_t o = net->out_at[c]; o < net->out_at[c + 1]; o++) {
            uint32_t e = net->out[o], d = e & PNCG_E_COMP;
            bool inv = (e & PNCG_E_NOT) != 0;
            if (e & PNCG_E_CYC) {
                /* a member of a cyclic SCC: counted, and its SCC recomputed later */
                strbuf_addf(&b, "    C[%u] += k; x->d(x->h, %u);\n", d, d);
                nl++;
                continue;
            }
            strbuf_addf(&b, "    if ((C[%u] += k) == a) { G[%llu] = %c;", d, (unsigned long long)d * net->gate_size,
                        inv ? 'm' : 'p');
            for (uint32_t w = net->nw_at[d]; w < net->nw_at[d + 1]; w++)
                strbuf_addf(&b, " x->nx[%u] ^= 0x%llxull;", net->nw[w] >> 6,
                            (unsigned long long)1 << (net->nw[w] & 63));
            for (uint32_t w = net->lb_at[d]; w < net->lb_at[d + 1]; w++)
                strbuf_addf(&b, " x->lg[%u] ^= 0x%llxull;", net->lb[w] >> 6,
                            (unsigned long long)1 << (net->lb[w] & 63));
            if (net->out_at[d + 1] > net->out_at[d]) {
                if (direct[o])
                    strbuf_addf(&b, " t%u(x, %s);", d, inv ? "0u - k" : "k");
                else
                    strbuf_addf(&b, " x->q(x->h, %u, %c);", d, inv ? 'm' : 'p');
            }
            strbuf_add(&b, " }\n");
            nl++;
        }
        strbuf_add(&b, "}\n");
        nl++;
    }
    strbuf_add(&b, "void (*const pncg_tell[])(X *, u32) = {\n");
    nl++;
    for (uint32_t c = 0; c < n; c += 8) {
        strbuf_add(&b, "   ");
        for (uint32_t i = c; i < n && i < c + 8; i++) {
            if (fn[i])
                strbuf_addf(&b, " t%u,", i);
            else
                strbuf_add(&b, " 0,");
        }
        strbuf_add(&b, "\n");
        nl++;
    }
    strbuf_add(&b, "    0\n};\n");
    nl += 2;
    free(fn);
    free(h);
    free(direct);
    *len = b.len;
    *lines = nl;
    return b.s;
}
