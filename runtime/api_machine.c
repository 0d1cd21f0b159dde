/*
 * api_machine.c: what GGP-Base's StateMachine offers beyond the queries
 * (gdl.h): a role's goal alone, roles by name, random moves and depth
 * charges, joint-move iterators, successors, base propositions and input
 * moves; and the random number generator they draw from. Built on the
 * engine operations and the API's queries (api.c) only, so every engine
 * has them.
 */
#include <string.h>

#include "../compile/domain.h"
#include "api_shared.h"

/* ---- what GGP-Base's StateMachine offers ----------------------------- */

static GdlStatus goal_(GdlMachine *m, const GdlState *s, unsigned role, int *value)
{
    GdlStatus st = rt_state_check(m, s);
    if (st != GDL_OK)
        return st;
    if (role >= m->roles.n)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    int values[m->roles.n];
    if ((st = rt_goals_of(m, s, values, role)) == GDL_OK)
        *value = values[role];
    return st;
}

GdlStatus gdl_game_role_find(const GdlGame *game, const char *name, unsigned *role)
{
    for (unsigned k = 0; name && k < gdl_game_role_count(game); k++) {
        const char *r = gdl_game_role_name(game, k);
        size_t i = 0;
        /* role names are folded to lower case; fold name's ASCII letters */
        while (r[i] && name[i] && r[i] == ((name[i] >= 'A' && name[i] <= 'Z') ? name[i] - 'A' + 'a' : name[i]))
            i++;
        if (!r[i] && !name[i]) {
            *role = k;
            return GDL_OK;
        }
    }
    return GDL_BAD_ARGUMENT;
}

struct GdlJointMoves {
    uint32_t nroles; /* moves per joint move */
    uint64_t max;    /* joint moves it may give */
    uint64_t given;  /* joint moves given so far */
    uint64_t count;  /* the number of joint moves, UINT64_MAX on overflow */
    bool done;       /* the last one has been given */
    U32Vec moves;    /* every role's legal moves, one role after another */
    uint32_t *start; /* per role, where its moves start in moves (and the end) */
    uint32_t *at;    /* per role, the index of its move in the next joint move */
    GdlMove *joint;  /* the joint move given last */
};

void gdl_joint_moves_free(GdlJointMoves *it)
{
    if (!it)
        return;
    vec_free(it->moves);
    free(it->start);
    free(it->at);
    free(it->joint);
    free(it);
}

static GdlStatus joint_moves_(GdlMachine *m, const GdlState *s, uint64_t max, GdlJointMoves **out)
{
    *out = NULL;
    GdlStatus st = rt_state_check(m, s);
    if (st != GDL_OK)
        return st;
    uint32_t nroles = m->roles.n;
    GdlJointMoves *it = base_xcalloc(1, sizeof *it);
    it->nroles = nroles;
    it->max = max;
    it->count = 1;
    it->start = base_xcalloc(nroles + 1, sizeof *it->start);
    it->at = base_xcalloc(nroles + 1, sizeof *it->at);
    it->joint = base_xcalloc(nroles + 1, sizeof *it->joint);
    for (uint32_t k = 0; k < nroles; k++) {
        if ((st = rt_legal_moves(m, s, k, !m->ops->next_checked)) != GDL_OK) {
            gdl_joint_moves_free(it);
            return st;
        }
        it->start[k] = it->moves.n;
        for (uint32_t i = 0; i < m->scratch.n; i++)
            vec_push(it->moves, m->scratch.v[i]);
        uint64_t n = m->scratch.n;
        it->count = n == 0 ? 0 : it->count > UINT64_MAX / n ? UINT64_MAX : it->count * n;
    }
    it->start[nroles] = it->moves.n;
    it->done = it->count == 0;
    *out = it;
    return GDL_OK;
}

GdlStatus gdl_joint_moves_next(GdlJointMoves *it, const GdlMove **joint)
{
    *joint = NULL;
    if (it->done)
        return GDL_OK;
    if (it->given == it->max)
        return GDL_LIMIT;
    for (uint32_t k = 0; k < it->nroles; k++)
        it->joint[k] = it->moves.v[it->start[k] + it->at[k]];
    *joint = it->joint;
    it->given++;
    /* an odometer, the last role turning fastest */
    uint32_t k = it->nroles;
    while (k > 0) {
        k--;
        if (++it->at[k] < it->start[k + 1] - it->start[k])
            return GDL_OK;
        it->at[k] = 0;
    }
    it->done = true;
    return GDL_OK;
}

uint64_t gdl_joint_moves_count(const GdlJointMoves *it) { return it->count; }

void gdl_successors_free(GdlSuccessors *x)
{
    for (size_t i = 0; x->states && i < x->n; i++)
        gdl_state_free(x->states[i]);
    free(x->states);
    free(x->joints);
    memset(x, 0, sizeof *x);
}

static GdlStatus next_states_(GdlMachine *m, const GdlState *s, uint64_t max, GdlSuccessors *res)
{
    /* built aside, handed over whole: running out of memory leaves *res empty */
    memset(res, 0, sizeof *res);
    GdlSuccessors built = {0}, *out = &built;
    GdlJointMoves *it;
    GdlStatus st = joint_moves_(m, s, max, &it);
    if (st != GDL_OK)
        return st;
    uint64_t count = it->count;
    if (count > max || count > SIZE_MAX / sizeof(GdlState *) / (m->roles.n + 1)) {
        gdl_joint_moves_free(it);
        return rt_fail(&m->ctl, GDL_LIMIT, "more than %llu joint moves", (unsigned long long)max);
    }
    out->roles = m->roles.n;
    out->joints = base_xcalloc((size_t)count * out->roles + 1, sizeof *out->joints);
    out->states = base_xcalloc((size_t)count + 1, sizeof *out->states);
    const GdlMove *joint;
    while (st == GDL_OK && (st = gdl_joint_moves_next(it, &joint)) == GDL_OK && joint) {
        /* legal by construction: no need to check them again */
        m->joint.n = 0;
        for (uint32_t k = 0; k < out->roles; k++) {
            vec_push(m->joint, joint[k]);
            out->joints[out->n * out->roles + k] = joint[k];
        }
        if ((st = rt_next_into(m, s, &out->states[out->n])) == GDL_OK)
            out->n++;
    }
    gdl_joint_moves_free(it);
    if (st != GDL_OK)
        gdl_successors_free(out);
    else
        *res = built;
    return st;
}

/* CpStopFn for the domain analysis: ctx is the machine's RtControl. */
static bool stop_now(void *ctx) { return rt_stop_now(ctx); }

/* The base propositions (role BASE_NONE) or the input moves of a role into
 * m->props, sorted canonically: from the game's rules when it has them and
 * they depend on no state, else from the domain analysis (compile/domain.c). */

static GdlStatus props_of(GdlMachine *m, uint32_t role, uint64_t max, const GdlMove **props, size_t *n)
{
    *props = NULL;
    *n = 0;
    const Ir *ir = &m->game->front.ir;
    uint32_t rel = ir->kwrel[role == BASE_NONE ? IR_REL_BASE : IR_REL_INPUT];
    m->props.n = 0;
    GdlStatus st;
    if (rel != BASE_NONE && ir->rels.v[rel].nrules > 0 && !ir->rels.v[rel].dep_true && !ir->rels.v[rel].dep_does) {
        U32Vec tuples = {0};
        uint64_t cap = max == 0 ? UINT32_MAX - 1 : role == BASE_NONE ? max : max * m->roles.n;
        st = rt_ref_relation(m->game, &m->store, rel, cap < UINT32_MAX - 1 ? (uint32_t)cap : UINT32_MAX - 1,
                             m->ctl.deadline, &tuples);
        uint32_t arity = role == BASE_NONE ? 1 : 2;
        for (uint32_t i = 0; st == GDL_OK && i + arity <= tuples.n; i += arity)
            if (arity == 1 || tuples.v[i] == m->roles.v[role])
                vec_push(m->props, tuples.v[i + arity - 1]);
        vec_free(tuples);
        if (st != GDL_OK)
            return rt_fail(&m->ctl, st, "evaluating the game's %s rules: %s", role == BASE_NONE ? "base" : "input",
                           st == GDL_LIMIT ? "more terms than the bound" : gdl_status_name(st));
    } else if ((st = cp_domain(&m->game->front.ir, &m->store, max ? max * 4 : 0, role, stop_now, &m->ctl, &m->props,
                               &m->ctl.error)) != GDL_OK)
        return st;
    gt_sort(&m->store, m->props.v, m->props.n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->props.n; i++)
        if (k == 0 || m->props.v[k - 1] != m->props.v[i])
            m->props.v[k++] = m->props.v[i];
    m->props.n = k;
    if (max && k > max)
        return rt_fail(&m->ctl, GDL_LIMIT, "more than %llu terms", (unsigned long long)max);
    *props = m->props.v;
    *n = m->props.n;
    return GDL_OK;
}

static GdlStatus base_propositions_(GdlMachine *m, uint64_t max, const GdlFact **props, size_t *n)
{
    return props_of(m, BASE_NONE, max, props, n);
}

static GdlStatus input_moves_(GdlMachine *m, unsigned role, uint64_t max, const GdlMove **moves, size_t *n)
{
    *moves = NULL;
    *n = 0;
    if (role >= m->roles.n)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    return props_of(m, role, max, moves, n);
}

/* ---- the public calls, each under an out-of-memory handler ------------- */

GdlStatus gdl_state_goal(GdlMachine *m, const GdlState *s, unsigned role, int *value)
{
    GUARDED(m, goal_(m, s, role, value));
}

GdlStatus gdl_joint_moves_new(GdlMachine *m, const GdlState *s, uint64_t max, GdlJointMoves **out)
{
    GUARDED(m, joint_moves_(m, s, max, out));
}

GdlStatus gdl_state_successors(GdlMachine *m, const GdlState *s, uint64_t max, GdlSuccessors *out)
{
    GUARDED(m, next_states_(m, s, max, out));
}

GdlStatus gdl_machine_base_propositions(GdlMachine *m, uint64_t max, const GdlFact **props, size_t *n)
{
    GUARDED(m, base_propositions_(m, max, props, n));
}

GdlStatus gdl_machine_input_moves(GdlMachine *m, unsigned role, uint64_t max, const GdlMove **moves, size_t *n)
{
    GUARDED(m, input_moves_(m, role, max, moves, n));
}
