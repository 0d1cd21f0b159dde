/* net.h: a game's propositional network inside a test (front end, grounder,
 * network, optimiser), and a sentence's component by its text. */
#ifndef GDLC_TEST_NET_H
#define GDLC_TEST_NET_H

#include "corpus.h"
#include "helpers.h"

#include "../../middle/propnet.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct Net {
    Front f;
    GtStore store;
    Ir ground;   /* the ground program, when the game has variables */
    bool grounded;
    Propnet pn;
} Net;

/* Loads a game and builds its network (grounding it first when needed),
 * optimised with opts (0: as built). */
static inline void net_load(Net *n, const char *path, unsigned opts)
{
    char *err = NULL;
    bool ok = front_run_file(&n->f, path, &err);
    if (!ok)
        fail_msg("%s: %s", path, err ? err : "rejected");
    gt_init(&n->store, &n->f.syms);
    const Ir *ir = &n->f.ir;
    n->grounded = false;
    bool vars = false;
    for (uint32_t r = 0; r < ir->rules.n; r++)
        vars |= ir->rules.v[r].nvars > 0;
    if (vars) {
        GroundLimits lim = {0};
        GroundStats st;
        if (ground_run(ir, &lim, &n->ground, &st, &err) != GROUND_OK)
            fail_msg("%s: %s", path, err);
        n->grounded = true;
        ir = &n->ground;
    }
    if (!pn_build(ir, &n->store, &n->pn, &err))
        fail_msg("%s: %s", path, err);
    if (opts)
        pn_optimise(&n->pn, opts);
}

static inline void net_free(Net *n)
{
    pn_free(&n->pn);
    if (n->grounded)
        ir_free(&n->ground);
    gt_free(&n->store);
    front_free(&n->f);
}

/* The term of a sentence or fact written in KIF, in the game's symbols. */
static inline Gt net_term(Net *n, const char *text)
{
    size_t len = strlen(text);
    Source *src = source_new("name", base_xstrndup(text, len), len);
    DiagList d;
    diag_init(&d, src);
    KifDoc doc = {0};
    assert_true(kif_read(src, &n->f.syms, &d, &doc));
    Gt g = gt_from_kif(&n->store, &doc, &n->f.syms, doc.tops.v[0]);
    assert_int_not_equal(g, BASE_NONE);
    kif_doc_free(&doc);
    diag_free(&d);
    source_free(src);
    return g;
}

/* The component computing a sentence, or PN_NONE. */
static inline uint32_t net_named(Net *n, const char *text) { return pn_find(&n->pn, net_term(n, text)); }

/* The index in pn.base of a fact (`(cell 1 1 x)`), or PN_NONE. */
static inline uint32_t net_base(Net *n, const char *fact)
{
    Gt g = net_term(n, fact);
    for (uint32_t b = 0; b < n->pn.base.n; b++)
        if (n->pn.base.v[b].fact == g)
            return b;
    return PN_NONE;
}

#endif
