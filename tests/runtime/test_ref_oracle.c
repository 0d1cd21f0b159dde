/*
 * test_ref_oracle.c: the reference interpreter against a naive oracle, on
 * random games (tests/gen/gen.c).
 *
 * The oracle is the textbook semantics, written independently of ref.c:
 * materialise every relation bottom up, stratum by stratum, each stratum by
 * naive iteration until nothing changes. It is hopeless on real games and
 * exact on these small ones. Along random playthroughs, at every state,
 * ref's legal moves, terminality, goals and next state must equal the
 * oracle's. GDLC_GEN_SEEDS sets how many games (default 2000).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../runtime/runtime.h"
#include "../gen/gen.h"

typedef struct Oracle {
    const Ir *ir;
    GtStore *st;
    U32Vec *facts;   /* per relation: flat tuples */
    uint8_t *has;    /* per fact term id: derived */
    uint32_t nhas;
    bool changed;
} Oracle;

static Gt fact_term(Oracle *o, uint32_t rel, const Gt *args)
{
    return gt_intern(o->st, o->ir->rels.v[rel].sym, o->ir->rels.v[rel].arity, args);
}

static bool holds(Oracle *o, uint32_t rel, const Gt *args)
{
    Gt t = fact_term(o, rel, args);
    return t < o->nhas && o->has[t];
}

static void add(Oracle *o, uint32_t rel, const Gt *args)
{
    Gt t = fact_term(o, rel, args);
    if (t >= o->nhas) {
        uint32_t n = (t + 1) * 2;
        o->has = realloc(o->has, n);
        memset(o->has + o->nhas, 0, n - o->nhas);
        o->nhas = n;
    }
    if (o->has[t])
        return;
    o->has[t] = 1;
    for (uint32_t i = 0; i < o->ir->rels.v[rel].arity; i++)
        vec_push(o->facts[rel], args[i]);
    if (o->ir->rels.v[rel].arity == 0)
        vec_push(o->facts[rel], 0); /* a marker, so the relation counts one fact */
    o->changed = true;
}

static bool unify(Oracle *o, uint32_t term, Gt g, Gt *env)
{
    const IrTerm *t = &o->ir->terms.v[term];
    if (t->kind == IR_VAR) {
        if (env[t->val] == BASE_NONE) {
            env[t->val] = g;
            return true;
        }
        return env[t->val] == g;
    }
    if (t->kind == IR_CONST)
        return gt_fn(o->st, g) == t->val && gt_arity(o->st, g) == 0;
    if (gt_fn(o->st, g) != o->ir->funcs.v[t->val].sym || gt_arity(o->st, g) != t->nargs)
        return false;
    for (uint32_t i = 0; i < t->nargs; i++)
        if (!unify(o, o->ir->targs.v[t->args + i], gt_arg(o->st, g, i), env))
            return false;
    return true;
}

static Gt make(Oracle *o, uint32_t term, const Gt *env)
{
    const IrTerm *t = &o->ir->terms.v[term];
    if (t->kind == IR_VAR)
        return env[t->val];
    if (t->kind == IR_CONST)
        return gt_intern(o->st, t->val, 0, NULL);
    Gt args[16];
    for (uint32_t i = 0; i < t->nargs; i++)
        args[i] = make(o, o->ir->targs.v[t->args + i], env);
    return gt_intern(o->st, o->ir->funcs.v[t->val].sym, t->nargs, args);
}

static void apply(Oracle *o, const IrRule *r, uint32_t i, const Gt *env_in)
{
    Gt env[64];
    memcpy(env, env_in, r->nvars * sizeof *env);
    if (i == r->nlits) {
        Gt args[16];
        for (uint32_t a = 0; a < o->ir->rels.v[r->head].arity; a++)
            args[a] = make(o, o->ir->largs.v[r->args + a], env);
        add(o, r->head, args);
        return;
    }
    const IrLit *l = &o->ir->lits.v[r->lits + i];
    Gt args[16];
    switch (l->kind) {
    case IR_LIT_POS: {
        uint32_t n = l->nargs ? o->facts[l->rel].n / l->nargs : o->facts[l->rel].n;
        for (uint32_t f = 0; f < n && (l->nargs || f == 0); f++) {
            Gt e2[64];
            memcpy(e2, env, r->nvars * sizeof *e2);
            bool ok = true;
            for (uint32_t a = 0; a < l->nargs && ok; a++)
                ok = unify(o, o->ir->largs.v[l->args + a], o->facts[l->rel].v[f * l->nargs + a], e2);
            if (ok)
                apply(o, r, i + 1, e2);
        }
        return;
    }
    case IR_LIT_NEG:
        for (uint32_t a = 0; a < l->nargs; a++)
            args[a] = make(o, o->ir->largs.v[l->args + a], env);
        if (!holds(o, l->rel, args))
            apply(o, r, i + 1, env);
        return;
    default: {
        Gt x = make(o, o->ir->largs.v[l->args], env), y = make(o, o->ir->largs.v[l->args + 1], env);
        if ((x == y) == (l->kind == IR_LIT_EQUAL))
            apply(o, r, i + 1, env);
        return;
    }
    }
}

/* The whole model for a state and (optionally) a joint move. */
static void model(Oracle *o, const GdlState *s, const Gt *joint)
{
    const Ir *ir = o->ir;
    for (uint32_t r = 0; r < ir->rels.n; r++)
        o->facts[r].n = 0;
    if (o->has)
        memset(o->has, 0, o->nhas);
    for (uint32_t i = 0; i < s->n; i++)
        add(o, ir->kwrel[IR_REL_TRUE], &s->facts[i]);
    for (uint32_t k = 0; joint && k < ir->roles.n; k++) {
        Gt d[2] = {gt_intern(o->st, ir->roles.v[k], 0, NULL), joint[k]};
        add(o, ir->kwrel[IR_REL_DOES], d);
    }
    Gt env[64];
    for (int v = 0; v < 64; v++)
        env[v] = BASE_NONE;
    for (uint32_t stratum = 0; stratum < ir->nstrata; stratum++)
        do {
            o->changed = false;
            for (uint32_t i = 0; i < ir->rules.n; i++)
                if (ir->rules.v[i].stratum == stratum)
                    apply(o, &ir->rules.v[i], 0, env);
        } while (o->changed);
}

static int cmp_gt(const void *a, const void *b)
{
    Gt x = *(const Gt *)a, y = *(const Gt *)b;
    return x < y ? -1 : x > y;
}

/* The sorted values at position pos of a relation's facts whose first
 * argument is `first` (BASE_NONE: any). */
static U32Vec column(Oracle *o, uint32_t kind, Gt first, uint32_t pos)
{
    uint32_t rel = o->ir->kwrel[kind], ar = o->ir->rels.v[rel].arity;
    U32Vec out = {0};
    if (ar == 0) { /* one marker per fact */
        for (uint32_t f = 0; f < o->facts[rel].n; f++)
            vec_push(out, 0);
        return out;
    }
    for (uint32_t f = 0; f * ar < o->facts[rel].n; f++)
        if (first == BASE_NONE || o->facts[rel].v[f * ar] == first)
            vec_push(out, o->facts[rel].v[f * ar + pos]);
    if (out.n > 1)
        qsort(out.v, out.n, sizeof *out.v, cmp_gt);
    return out;
}

static void same_ids(const Gt *a, size_t na, U32Vec *b, const char *what, uint64_t seed, int step)
{
    Gt *x = malloc((na + 1) * sizeof *x);
    for (size_t i = 0; i < na; i++)
        x[i] = a[i];
    if (na > 1)
        qsort(x, na, sizeof *x, cmp_gt);
    bool same = na == b->n && gt_tuple_eq(x, b->v, (uint32_t)na);
    if (!same)
        print_error("seed %llu, step %d: %s differ: ref has %zu, the oracle %u (tests/gen: gengdl %llu)\n",
                    (unsigned long long)seed, step, what, na, b->n, (unsigned long long)seed);
    free(x);
    vec_free(*b);
    assert_true(same);
}

static void differential(void **state)
{
    (void)state;
    const char *env = getenv("GDLC_GEN_SEEDS");
    uint64_t seeds = env ? strtoull(env, NULL, 10) : 2000;
    uint64_t states = 0;
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        char *text = gen_game(seed);
        GdlGame *g = NULL;
        GdlDiagnostics *d = NULL;
        if (gdl_game_load_string("gen.kif", text, strlen(text), &g, &d) != GDL_OK) {
            gdl_diagnostics_print(stderr, d, true);
            fail_msg("seed %llu: the generated game is rejected", (unsigned long long)seed);
        }
        gdl_diagnostics_free(d);
        GdlMachine *m = NULL;
        assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
        Oracle o = {.ir = &g->front.ir, .st = &m->store};
        o.facts = calloc(o.ir->rels.n, sizeof *o.facts);
        GdlRng rng;
        gdl_rng_seed(&rng, seed);
        for (int p = 0; p < 3; p++) {
            GdlState *s = NULL;
            assert_int_equal(gdl_state_initial(m, &s), GDL_OK);
            GdlState empty = {0};
            model(&o, &empty, NULL);
            U32Vec init = column(&o, IR_REL_INIT, BASE_NONE, 0);
            same_ids(s->facts, s->n, &init, "initial states", seed, 0);
            for (int step = 0;; step++) {
                states++;
                model(&o, s, NULL);
                bool terminal;
                assert_int_equal(gdl_state_is_terminal(m, s, &terminal), GDL_OK);
                U32Vec t = column(&o, IR_REL_TERMINAL, BASE_NONE, 0);
                assert_int_equal(terminal, t.n > 0);
                vec_free(t);
                int goals[2];
                GdlStatus gs = gdl_state_goals(m, s, goals);
                for (unsigned k = 0; k < 2; k++) {
                    U32Vec gv = column(&o, IR_REL_GOAL, m->roles.v[k], 1);
                    if (gs == GDL_OK && gv.n == 1)
                        assert_int_equal(goals[k], atoi(gt_text(&m->store, gv.v[0])));
                    else if (gs == GDL_OK)
                        assert_true(gv.n == 0 && goals[k] == GDL_NO_GOAL);
                    vec_free(gv);
                }
                if (terminal)
                    break;
                Gt joint[2];
                for (unsigned k = 0; k < 2; k++) {
                    const GdlMove *moves;
                    size_t n;
                    assert_int_equal(gdl_state_legal(m, s, k, &moves, &n), GDL_OK);
                    U32Vec lv = column(&o, IR_REL_LEGAL, m->roles.v[k], 1);
                    joint[k] = moves[gdl_rng_below(&rng, n)];
                    same_ids(moves, n, &lv, "legal moves", seed, step);
                }
                GdlState *next = NULL;
                assert_int_equal(gdl_state_next(m, s, joint, &next), GDL_OK);
                model(&o, s, joint);
                U32Vec nx = column(&o, IR_REL_NEXT, BASE_NONE, 0);
                /* the oracle's next facts, deduplicated */
                uint32_t k2 = 0;
                for (uint32_t i = 0; i < nx.n; i++)
                    if (!k2 || nx.v[k2 - 1] != nx.v[i])
                        nx.v[k2++] = nx.v[i];
                nx.n = k2;
                same_ids(next->facts, next->n, &nx, "next states", seed, step);
                gdl_state_free(s);
                s = next;
            }
            gdl_state_free(s);
        }
        for (uint32_t r = 0; r < o.ir->rels.n; r++)
            vec_free(o.facts[r]);
        free(o.facts);
        free(o.has);
        gdl_machine_free(m);
        gdl_game_free(g);
        free(text);
    }
    print_message("ref agrees with the oracle on %llu random games, %llu states\n", (unsigned long long)seeds,
                  (unsigned long long)states);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
