/*
 * dot.c: the network as a picture of what the analysis knows (gdlc analyze
 * --dot): Graphviz DOT with the shapes and layout of pn_dot (middle/
 * propnet.c, through pn_dot_with), each node recoloured by the claims:
 *   - a positive latch base filled green, a negative one orange (a base
 *     that is both, which only an unreachable one can be, is orange);
 *   - a control base (not a latch) filled purple;
 *   - a base whose literal makes states dead for a role: a double border
 *     and an outside label `dead: ROLE if true|false`;
 *   - with a state: every component whose value at turn 0 deduction forces
 *     from the state (two turns, moves played: so an illegal move's does is
 *     false too; one turn without move rules when the state is terminal)
 *     gets a thick border, green when true, red and dashed when false;
 *     constants are left as they are.
 * A legend (a cluster of sample nodes, only for the marks used) ends the
 * graph. Each node's extra attributes are built in one buffer; offsets
 * into it become the per-component strings pn_dot_with appends.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    MK_POS = 1,
    MK_NEG = 2,
    MK_CONTROL = 4,
    MK_DEAD = 8,
    MK_TRUE = 16,
    MK_FALSE = 32,
};

#define POS_FILL "fillcolor=\"#1b9e77\",fontcolor=\"#ffffff\""
#define NEG_FILL "fillcolor=\"#d95f02\",fontcolor=\"#ffffff\""
#define CONTROL_FILL "fillcolor=\"#7570b3\",fontcolor=\"#ffffff\""
#define DEAD_MARK "peripheries=2"
#define TRUE_MARK "color=\"#1a9641\",penwidth=3"
#define FALSE_MARK "color=\"#d7191c\",penwidth=3,style=\"filled,dashed\""

/* Appends a DOT string (quoted, escaped). */
static void add_quoted(StrBuf *b, const char *s)
{
    strbuf_add(b, "\"");
    for (; *s; s++) {
        char ch[3] = {'\\', *s == '\n' ? 'n' : *s, 0};
        strbuf_add(b, *s == '"' || *s == '\\' || *s == '\n' ? ch : ch + 1);
    }
    strbuf_add(b, "\"");
}

static void add_attr(StrBuf *b, const char *attr)
{
    if (b->len)
        strbuf_add(b, ",");
    strbuf_add(b, attr);
}

void an_dot(FILE *f, const Analysis *a, const uint64_t *state, uint32_t focus, uint32_t depth)
{
    const Propnet *pn = a->pn;
    uint32_t n = pn->comps.n;
    uint8_t *mark = base_xcalloc(n + 1, 1);
    for (uint32_t i = 0; i < a->latches.n; i++)
        mark[pn->base.v[a->latches.v[i].base].comp] |= a->latches.v[i].value ? MK_POS : MK_NEG;
    for (uint32_t i = 0; i < a->control.n; i++)
        mark[pn->base.v[a->control.v[i]].comp] |= MK_CONTROL;
    for (uint32_t i = 0; i < a->dead.n; i++)
        mark[pn->base.v[a->dead.v[i].lit.base].comp] |= MK_DEAD;
    if (state) {
        AnDeduce *d = an_deduce_new(pn, 2, AN_MOVES_PLAYED);
        if (!an_deduce_set_state(d, state, 0)) {
            an_deduce_free(d);
            d = an_deduce_new(pn, 1, 0);
            an_deduce_set_state(d, state, 0);
        }
        for (uint32_t c = 0; c < n; c++) {
            if (pn->comps.v[c].kind == PN_CONST)
                continue;
            int v = an_deduce_get(d, c, 0);
            if (v >= 0)
                mark[c] |= v ? MK_TRUE : MK_FALSE;
        }
        an_deduce_free(d);
    }
    /* the extra attributes: one buffer, offsets per component */
    StrBuf all = {0};
    uint32_t *at = base_xmalloc((n + 1) * sizeof *at);
    unsigned used = 0;
    for (uint32_t c = 0; c < n; c++) {
        at[c] = PN_NONE;
        if (!mark[c])
            continue;
        used |= mark[c];
        StrBuf b = {0};
        if (mark[c] & MK_NEG)
            add_attr(&b, NEG_FILL);
        else if (mark[c] & MK_POS)
            add_attr(&b, POS_FILL);
        else if (mark[c] & MK_CONTROL)
            add_attr(&b, CONTROL_FILL);
        if (mark[c] & MK_TRUE)
            add_attr(&b, TRUE_MARK);
        if (mark[c] & MK_FALSE)
            add_attr(&b, FALSE_MARK);
        if (mark[c] & MK_DEAD) {
            add_attr(&b, DEAD_MARK ",xlabel=");
            StrBuf t = {0};
            uint32_t bi = pn->comps.v[c].index;
            for (uint32_t i = 0; i < a->dead.n; i++) {
                if (a->dead.v[i].lit.base != bi)
                    continue;
                if (t.len)
                    strbuf_add(&t, "\n");
                strbuf_add(&t, "dead: ");
                strbuf_add(&t, gt_text(pn->store, pn->roles.v[a->dead.v[i].role].name));
                strbuf_add(&t, a->dead.v[i].lit.value ? " if true" : " if false");
            }
            add_quoted(&b, t.s ? t.s : "dead");
            free(t.s);
        }
        at[c] = (uint32_t)all.len;
        strbuf_add(&all, b.s ? b.s : "");
        strbuf_add(&all, "\x01"); /* a separator, made NUL below */
        free(b.s);
    }
    const char **extra = base_xcalloc(n + 1, sizeof *extra);
    for (size_t k = 0; k < all.len; k++)
        if (all.s[k] == '\x01')
            all.s[k] = 0;
    for (uint32_t c = 0; c < n; c++)
        if (at[c] != PN_NONE)
            extra[c] = all.s + at[c];
    /* the legend */
    StrBuf leg = {0};
    if (used) {
        static const struct {
            unsigned mk;
            const char *label, *attrs;
        } keys[] = {
            {MK_POS, "positive latch", POS_FILL},
            {MK_NEG, "negative latch", NEG_FILL},
            {MK_CONTROL, "control", CONTROL_FILL},
            {MK_DEAD, "dead literal", DEAD_MARK},
            {MK_TRUE, "true in the state", TRUE_MARK},
            {MK_FALSE, "false in the state", FALSE_MARK},
        };
        strbuf_add(&leg, "  subgraph cluster_legend {\n    label=\"legend\";\n");
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            if (!(used & keys[k].mk))
                continue;
            strbuf_addf(&leg, "    legend%zu [shape=box,style=filled,fillcolor=\"#a6cee3\",label=\"%s\",%s];\n", k,
                        keys[k].label, keys[k].attrs);
        }
        strbuf_add(&leg, "  }\n");
    }
    pn_dot_with(f, pn, focus, depth, extra, leg.s);
    free(leg.s);
    free(extra);
    free(all.s);
    free(at);
    free(mark);
}
