/*
 * engines.c: the engines by name. The table gdl_machine_new looks a name
 * up in (rt_engine_find: the name before the colon, and whether an
 * argument may or must follow it), and the list of every name it accepts
 * with what each plays by (gdl_engines: `gdlc help engines`, the names a
 * binding offers, the message for an unknown name). An engine added to
 * the table is added to the list, one line each: tests/driver/engines.sh
 * makes a machine of every name listed, so that the list cannot name an
 * engine the table refuses.
 */
#include <string.h>

#include "runtime.h"

/* TCC(x): x where libgdl has libtcc (GDLC_HAVE_LIBTCC), else nothing: a
 * build without it (the Python package's: jit_none.c) has no engine jit
 * and lists none of the names that compile by libtcc. */
#ifdef GDLC_HAVE_LIBTCC
#define TCC(...) __VA_ARGS__
#else
#define TCC(...)
#endif

static const EngineOps *const engines[] = {&rt_engine_ref, TCC(&rt_engine_jit, ) &rt_engine_aot, &rt_engine_so,
                                           &rt_engine_pn, &rt_engine_board};

/* N stands for a number, PATH for a file; options of pn combine with
 * commas (pn:compiled,max-lines=N,no-phases). */
static const GdlEngineInfo list[] = {
    TCC({"jit", "the default: a plan per game, the propositional network where its grounding fits a budget and "
            "it plays faster when timed, else the goal-directed C compiled in process by libtcc "
            "(gdl_machine_plan says which)"},)
    TCC({"jit:goal", "the goal-directed C alone, compiled in process by libtcc when the machine is made"},)
    TCC({"jit:pn", "the propositional network where the grounding fits jit's budget, without the plan; "
               "else the goal-directed C"},)
    {"aot", "as jit, the goal-directed C compiled by the system compiler (GDLC_CC, CC or cc), cached in "
            "$XDG_CACHE_HOME/gdlc; a larger budget for the network"},
    {"aot:goal", "the goal-directed C alone, compiled by the system compiler and cached"},
    {"aot:pn", "the propositional network where the grounding fits aot's budget, without the plan; "
               "else the goal-directed C of the system compiler"},
    {"so:PATH", "a shared object made by gdlc compile, checked against this gdlc and this game"},
    {"pn", "the grounded game as a propositional network, evaluated from tables; refused past the "
           "grounding's budgets"},
    {"pn:max-atoms=N,max-rules=N,max-links=N", "pn within other grounding budgets (any of the three)"},
    TCC({"pn:compiled", "pn with its propagation compiled to C by libtcc, within a budget of lines "
                    "(pn:compiled,max-lines=N); past it, the tables"},)
    {"pn:cc", "pn with its propagation compiled by the system compiler, cached as aot's objects are"},
    {"pn:no-phases", "pn with one network for every state, not one per phase (whose turn it is)"},
    {"pn:whole", "pn with the goals in the network of play, not in one of their own"},
    {"pn:ordered", "pn telling changes in topological order (a network without cycles)"},
    {"pn:queued", "pn telling changes from its depth-first queue"},
    {"pn:condensed", "pn grounding the condensed rules however small the grounding of the rules as written"},
    TCC({"board", "the board backend: the state as slots of small integers found from the rules, the rules as "
              "loops over them, compiled by libtcc; a game it does not compile is played by jit:goal"},)
    {"board:cc", "board compiled by the system compiler, cached as aot's objects are"},
    TCC({"board:tiered", "board by libtcc's code at once, then by the system compiler's, compiled by a thread of its "
                     "own (as the plan of jit plays it)"},)
    TCC({"board:reversed", "board with the layout's facts made in reverse order (for tests: next states then come "
                       "out by id through a bitset, as when the plan of jit makes the board after the network)"},)
    TCC({"board:unchecked", "board without the checks of its layout's claims (for tests: with keys=REL/ARITY:P.P, "
                        "a relation's key positions given, a wrong layout then plays wrong)"},)
    {"ref", "the reference interpreter, goal-directed over the rules as written: every engine is checked "
            "against it"},
    {"ref:ground", "ref evaluating the game's ground program (the grounder checked against the game)"},
    {NULL, NULL},
};

const GdlEngineInfo *gdl_engines(void) { return list; }

const EngineOps *rt_engine_find(const char *name, const char **arg)
{
    const char *colon = strchr(name, ':');
    size_t nlen = colon ? (size_t)(colon - name) : strlen(name);
    *arg = colon ? colon + 1 : NULL;
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
        if (strlen(engines[i]->name) == nlen && strncmp(engines[i]->name, name, nlen) == 0 &&
            (colon ? engines[i]->arg != ENGINE_ARG_NONE : engines[i]->arg != ENGINE_ARG_REQUIRED))
            return engines[i];
    return NULL;
}

char *rt_engine_unknown(const char *name)
{
    StrBuf b = {0};
    strbuf_addf(&b, "no engine named '%s' (engines: ", name);
    for (const GdlEngineInfo *e = list; e->name; e++) {
        const char *arg;
        const EngineOps *ops = rt_engine_find(e->name, &arg);
        size_t len = arg && ops->arg != ENGINE_ARG_REQUIRED ? (size_t)(arg - 1 - e->name) : strlen(e->name);
        bool seen = false; /* named already, with other options */
        for (const GdlEngineInfo *f = list; f < e && !seen; f++)
            seen = strncmp(f->name, e->name, len) == 0 && (f->name[len] == ':' || !f->name[len]);
        if (!seen)
            strbuf_addf(&b, "%s%.*s", e == list ? "" : ", ", (int)len, e->name);
    }
    strbuf_add(&b, "; with their options in gdl_engines)");
    return b.s;
}
