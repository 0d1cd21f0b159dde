/*
 * pncg.c: a flattened propositional network to straight-line C. See pncg.h.
 *
 * The shape, for a component 5 whose outputs are an AND 7 (compiled), a
 * NOT 9 (the legal move of bit 4, whose outputs feed a table-told gate)
 * and 12, a member of a cyclic SCC:
 *
 *   static void t5(X *x, u32 k)
 *   {
 *       u32 *C = x->c, a = 0x7fffffffu + (k == 1u), b = ~a;
 *       u8 *G = x->g + 9u, p = k == 1u, m = !p;
 *       P(7) { S(7, p) t7(x, k); }
 *       M(9) { S(9, m) L(4) Q(9, m) }
 *       C[12] += k; D(12)
 *   }
 *
 * k is +1 when 5 rose, -1 (as u32) when it fell. P adds it to a counter, M
 * (a NOT) subtracts it; a counter moves by one, so its bit 31 (the value)
 * moved exactly when it now equals a (P) or b (M), and the target's value
 * is then p (P) or m (M). S stores the value, B toggles a next-state bit,
 * L a legal move's bit, Q queues the target with the host, a call tells
 * it now (k, or -k past a NOT); a member of a cyclic SCC is only counted,
 * and D has the host recompute its SCC once the queue is empty (as pn's
 * tell does).
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
                "} X;\n"
                "void pncg_host_queue(void *h, u32 comp, u32 v);\n"
                "void pncg_host_dirty(void *h, u32 comp);\n"
                "#define P(d) if ((C[d] += k) == a)\n"
                "#define M(d) if ((C[d] -= k) == b)\n"
                "#define S(d, v) G[(d) * %uu] = (u8)(v);\n"
                "#define B(b) x->nx[(b) >> 6] ^= (u64)1 << ((b) & 63);\n"
                "#define L(b) x->lg[(b) >> 6] ^= (u64)1 << ((b) & 63);\n"
                "#define Q(d, v) pncg_host_queue(x->h, d, v);\n"
                "#define D(d) pncg_host_dirty(x->h, d);\n",
                n, net->gate_size);
    size_t nl = 20;
    for (uint32_t c = 0; c < n; c++)
        if (fn[c]) {
            strbuf_addf(&b, "static void t%u(X *x, u32 k);\n", c);
            nl++;
        }
    for (uint32_t c = 0; c < n; c++) {
        if (!fn[c])
            continue;
        bool anyp = false, anym = false;
        for (uint32_t o = net->out_at[c]; o < net->out_at[c + 1]; o++)
            if (!(net->out[o] & PNCG_E_CYC))
                *((net->out[o] & PNCG_E_NOT) ? &anym : &anyp) = true;
        if (!anyp && !anym) {
            strbuf_addf(&b, "static void t%u(X *x, u32 k)\n{\n    u32 *C = x->c;\n", c);
            nl += 3;
        } else {
            /* a: a P counter's value after it crossed bit 31, p the value it
             * then has; b and m the same for M */
            strbuf_addf(&b, "static void t%u(X *x, u32 k)\n{\n    u32 *C = x->c, a = 0x7fffffffu + (k == 1u)", c);
            if (anym)
                strbuf_add(&b, ", b = ~a");
            strbuf_addf(&b, ";\n    u8 *G = x->g + %uu, p = k == 1u", net->val_offset);
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
                strbuf_addf(&b, "    C[%u] %c= k; D(%u)\n", d, inv ? '-' : '+', d);
                nl++;
                continue;
            }
            strbuf_addf(&b, "    %c(%u) { S(%u, %c)", inv ? 'M' : 'P', d, d, inv ? 'm' : 'p');
            for (uint32_t w = net->nw_at[d]; w < net->nw_at[d + 1]; w++)
                strbuf_addf(&b, " B(%u)", net->nw[w]);
            for (uint32_t w = net->lb_at[d]; w < net->lb_at[d + 1]; w++)
                strbuf_addf(&b, " L(%u)", net->lb[w]);
            if (net->out_at[d + 1] > net->out_at[d]) {
                if (direct[o])
                    strbuf_addf(&b, " t%u(x, %s);", d, inv ? "0u - k" : "k");
                else
                    strbuf_addf(&b, " Q(%u, %c)", d, inv ? 'm' : 'p');
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
