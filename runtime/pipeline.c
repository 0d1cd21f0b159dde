/*
 * pipeline.c: the compile stage run for the engines (see pipeline.h).
 *
 * Its passes are compile/pipeline.c's; what they need of the runtime is
 * handed in here: the reference interpreter (ref.c's rt_ref_relation),
 * which evaluates the static relations the fold pass turns into facts,
 * and a stack segment (engine_host.h) for the code generator's recursion.
 */
#include "pipeline.h"

#include "engine_host.h"
#include "runtime.h"

/* CpRelationEval by ref: ctx is the game. */
static GdlStatus ref_eval(const void *ctx, GtStore *store, uint32_t rel, uint32_t max, uint64_t *steps,
                          double deadline, U32Vec *out)
{
    return rt_ref_relation_counted(ctx, store, rel, max, steps, deadline, out);
}

void rt_fold(const GdlGame *game, CpFold *fold) { cp_fold(&game->front, ref_eval, game, fold); }

/* rt_back's arguments and result, across a stack segment. */
typedef struct BackCall {
    const GdlGame *game;
    const RtBackOptions *o;
    size_t *len;
    char **err;
    char *out;
} BackCall;

static void back_call(void *p)
{
    BackCall *b = p;
    CpBackOptions o = {(CpBackStop)b->o->stop, b->o->c_name, b->o->no_lines, ref_eval, b->game};
    b->out = cp_back(&b->game->front, &o, b->len, b->err);
}

/* The code generator recurses once per literal of a rule body: it runs on
 * a stack segment, whatever the caller's thread (engine_host.h). */
char *rt_back(const GdlGame *game, const RtBackOptions *o, size_t *len, char **err)
{
    BackCall b = {game, o, len, err, NULL};
    rt_stack_run(back_call, &b);
    return b.out;
}

char *rt_emit(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err)
{
    RtBackOptions o = {RT_BACK_C, c_name, no_lines};
    return rt_back(game, &o, len, err);
}
