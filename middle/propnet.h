/*
 * propnet.h: the propositional network of a ground program, and its
 * optimisations.
 *
 * Components are numbered 0..n-1. Each has a kind and a list of inputs
 * (other components); outputs are the inverse lists. A component that
 * computes a sentence of the game carries it as a name: a ground term in
 * the network's store whose functor is the relation (`(legal x (mark 1
 * 1))`, `(next (cell 1 1 x))`, `terminal`), BASE_NONE for a gate of no
 * sentence (the AND of one rule's body). A proposition is the OR of its
 * rules (one rule: the rule's AND or its single literal, after collapsing).
 *
 *  - PN_CONST: value[c] of the constant is const_value (0 or 1).
 *  - PN_BASE: (true s), set from the state. No inputs.
 *  - PN_INPUT: (does r m), set from the joint move. No inputs.
 *  - PN_AND, PN_OR: any number of inputs (an AND of none is true, an OR of
 *    none false; the optimiser removes both).
 *  - PN_NOT: one input.
 * Transitions are not components: base i becomes true in the next state
 * exactly when component base[i].next is true (PN_NONE: never).
 *
 * The marks say what the state machine reads: per role, the legal moves
 * (the component of (legal r m), the move term m, and the input of (does r
 * m) or PN_NONE), the goals (component and value 0..100), the inputs; the
 * terminal component; the base propositions with their fact term s, their
 * next component and whether (init s) holds (an init that reads the state,
 * which validate warns of, as it holds in the state of no fact). Every
 * (legal r m) of a role gets an input (does r m), read or not, so that the
 * engine can map moves; a (does r m) of no role is the constant 0.
 *
 * Fixed bases. A base proposition the optimiser proves can never change
 * (PN_OPT_FIXED_BASE) stays in base[] (states still hold its fact when it
 * is true) but its component becomes a PN_CONST of its init value, and its
 * next is that component itself.
 *
 * Names. Every component that computes a sentence is named by the sentence
 * as written in GDL: `(true (cell 1 1 x))` for a base, `(does x noop)` for
 * an input, `(legal x noop)`, `(next (cell 1 1 x))`, `(goal x 100)`,
 * `terminal`, `(conn a b)`. Optimising keeps names findable as long as the
 * component lives: a gate of one input that collapses gives its name to
 * its input when that has none, and becomes an alias of it when both are
 * named (so do named twins merged by hashing): aliases[] lists the other
 * sentences a component computes, and pn_find looks there too. A mark
 * follows its component, so after optimising a legal, goal, terminal or
 * next may be any component, a base or an input included. A sentence
 * that becomes constant and feeds nothing the engine reads is removed with
 * its name.
 *
 * Cycles. A ground program of a recursive relation over the state (hex's
 * connected cells, any transitive closure of something dynamic) gives
 * positive cycles between gates (never through a NOT: the program is
 * stratified). Their meaning is the least fixpoint: a cycle of ORs and ANDs
 * holds only what its inputs from outside support. Forward propagation of
 * changes cannot compute that alone (a cycle that loses its support would
 * keep itself true), so pn_sccs gives the strongly connected components:
 * an evaluator recomputes a cyclic component from false whenever one of its
 * inputs from outside changes.
 */
#ifndef GDLC_PROPNET_H
#define GDLC_PROPNET_H

#include "../base/terms.h"
#include "../frontend/ir.h"
#include "ground.h"

#define PN_NONE UINT32_MAX

typedef enum PnKind {
    PN_CONST, /* const_value */
    PN_BASE,  /* (true s): from the state */
    PN_INPUT, /* (does r m): from the joint move */
    PN_AND,   /* all its inputs */
    PN_OR,    /* one of its inputs */
    PN_NOT,   /* not its one input */
    PN_NKINDS
} PnKind;

typedef struct PnComp {
    uint8_t kind;      /* PnKind */
    uint8_t const_value; /* PN_CONST: 0 or 1 */
    uint32_t in_at;    /* inputs: in[in_at .. in_at + nin) */
    uint32_t nin;
    uint32_t out_at;   /* outputs: out[out_at .. out_at + nout) */
    uint32_t nout;
    Gt name;           /* the sentence it computes, or BASE_NONE */
    uint32_t index;    /* PN_BASE (and a fixed base's PN_CONST): its index in base[];
                        * PN_INPUT: in inputs[]; else PN_NONE */
} PnComp;

typedef struct PnBase {
    uint32_t comp;     /* its PN_BASE component */
    Gt fact;           /* s of (true s) */
    uint32_t next;     /* the component of (next s), PN_NONE when nothing makes it true */
    bool init;         /* (init s) holds */
} PnBase;

typedef struct PnInput {
    uint32_t comp;     /* its PN_INPUT component */
    uint32_t role;     /* role index */
    Gt move;           /* m of (does r m) */
} PnInput;

typedef struct PnLegal {
    uint32_t comp;     /* the component of (legal r m) */
    Gt move;
    uint32_t input;    /* index in inputs[] of (does r m), or PN_NONE */
} PnLegal;

typedef struct PnGoal {
    uint32_t comp;     /* the component of (goal r v) */
    uint32_t value;    /* 0..100, or PN_NONE when v is no such number (a game fault the API reports) */
    Gt term;           /* v as written */
} PnGoal;

typedef struct PnRole {
    Gt name;
    VEC(PnLegal) legal;
    VEC(PnGoal) goals;
} PnRole;

/* Another sentence a component computes (optimising merged its gate). */
typedef struct PnAlias {
    Gt name;
    uint32_t comp;
} PnAlias;

/* What an optimisation pass removed, for `gdlc propnet --stats`. */
typedef struct PnPassStats {
    const char *name;        /* e.g. "constant propagation" */
    int64_t comps_removed;   /* negative when the pass added more than it removed */
    int64_t links_removed;
} PnPassStats;

typedef struct Propnet {
    GtStore *store;          /* names and terms (the caller's) */
    VEC(PnComp) comps;
    U32Vec in, out;          /* the link lists */
    VEC(PnBase) base;
    VEC(PnInput) inputs;
    VEC(PnRole) roles;       /* in the game's role order */
    uint32_t terminal;       /* the component of `terminal` (a PN_CONST 0 when none) */
    VEC(PnPassStats) passes; /* what each optimisation removed, in order */
    VEC(PnAlias) aliases;    /* names of merged components, in the order they were merged */
} Propnet;

typedef enum PnOpt {
    PN_OPT_CONST = 1u << 0,    /* constant propagation (init and static relations fixed by grounding) */
    PN_OPT_UNUSED = 1u << 1,   /* components that reach no legal, goal, terminal or transition */
    PN_OPT_HASH = 1u << 2,     /* structural hashing of identical gates */
    PN_OPT_SINGLE = 1u << 3,   /* gates of one input collapsed into it */
    PN_OPT_FIXED_BASE = 1u << 4, /* base propositions that can never change become constants */
    PN_OPT_ALL = 0x1f,         /* what the analyses use */
    /* Exact, but not in PN_OPT_ALL: an OR of ANDs sharing an input a
     * becomes AND(a, OR of the rests). Which input it takes first depends
     * on component numbers, so it may factor a gate and its mirror image
     * differently and hide the network's automorphisms from the symmetry
     * analysis (Connect Four's mirror). */
    PN_OPT_FACTOR = 1u << 5,
    /* Not in PN_OPT_ALL: sound only for an evaluator that sets exactly one
     * legal input per role before reading what depends on inputs (engine
     * pn); an OR of most of a role's inputs (directly or through ORs it
     * reads) becomes the NOT of the OR of the others, inputs of no legal
     * sentence false. Not for the analyses,
     * which evaluate with inputs free. */
    PN_OPT_INPUT_COMPLEMENT = 1u << 6,
    /* Not an optimisation of the network but of what it is built from, so
     * for cp_propnet only: the rules condensed before grounding (ground.h).
     * Fewer gates, but the structure no longer mirrors the rules'
     * symmetries, which the analyses look for. */
    PN_OPT_CONDENSE = 1u << 7,
    PN_OPT_CONDENSE_ALWAYS = 1u << 8, /* with it: however small the grounding (ground_condensed) */
    PN_OPT_ENGINE = PN_OPT_ALL | PN_OPT_FACTOR | PN_OPT_INPUT_COMPLEMENT | PN_OPT_CONDENSE, /* engine pn's */
} PnOpt;

/* Builds the network of a program without variables: the grounder's (see
 * ground.h) or any variable-free one of the front end (its static
 * relations are evaluated here, its distinct and equality decided), with
 * names in store, which must share the program's symbol table. False with
 * *err (malloc-ed) on a program it cannot represent (variables left). */
bool pn_build(const Ir *ground, GtStore *store, Propnet *pn, char **err);
/* Runs the optimisations in opts to a fixpoint, renumbering components;
 * appends what each removed to pn->passes. */
void pn_optimise(Propnet *pn, unsigned opts);
void pn_free(Propnet *pn);
/* A copy of src (sharing its store) into dst, to optimise apart. */
void pn_copy(Propnet *dst, const Propnet *src);
/* Renumbers the components: c becomes newid[c] (newid a permutation of
 * 0 .. comps.n), the marks follow; every out list comes sorted by number. */
void pn_permute(Propnet *pn, const uint32_t *newid);
/* Links: the sum of every component's inputs. */
uint64_t pn_links(const Propnet *pn);
/* The strongly connected components of the gates (transitions are not
 * links), in topological order: every component's inputs from outside it
 * come from earlier ones. comps receives every component once, grouped;
 * scc_at (nsccs + 1 entries, malloc-ed) where each group starts; a group of
 * one component without a link to itself is acyclic. Returns nsccs. */
uint32_t pn_sccs(const Propnet *pn, U32Vec *comps, U32Vec *scc_at);

/* --dump=pn-raw and --dump=pn: the text form, stable.
 *   propnet: N components, L links, B bases, I inputs
 * then one component a line, by number:
 *   NUMBER KIND NAME [= VALUE] [<- INPUT...]
 * KIND is const, base, input, and, or, not; NAME the sentence or `-`;
 * VALUE (0 or 1) for a const; the inputs by number, in order. Then the
 * marks, one a line:
 *   base INDEX FACT: comp C [next N] [init]
 *   input INDEX ROLE MOVE: comp C
 *   legal ROLE MOVE: comp C [input INDEX]
 *   goal ROLE VALUE: comp C
 *   terminal: comp C
 *   alias NAME: comp C */
void pn_dump(FILE *f, const Propnet *pn);
/* Graphviz DOT of the network, or with focus != PN_NONE of the cone of
 * components feeding focus up to depth levels upstream. */
void pn_dot(FILE *f, const Propnet *pn, uint32_t focus, uint32_t depth);
/* pn_dot with, per component c, extra[c] (when extra and extra[c] are not
 * NULL) appended to its node's attributes (DOT lets a later attribute win:
 * `fillcolor=...` recolours it), and trailer (when not NULL) written before
 * the closing brace (a legend). The analyses' pictures use it. */
void pn_dot_with(FILE *f, const Propnet *pn, uint32_t focus, uint32_t depth, const char *const *extra,
                 const char *trailer);

/* The component named by a sentence (its name or an alias), or PN_NONE. */
uint32_t pn_find(const Propnet *pn, Gt name);
/* "const", "base", "input", "and", "or", "not". */
const char *pn_kind_name(PnKind k);

/* ---- internal: shared by propnet.c and pnopt.c ---------------------- */

/* Rebuilds every component's in and out lists from (to << 32 | from)
 * pairs; each list keeps the order of its pairs. */
void pn_relink(Propnet *pn, const uint64_t *edges, uint32_t nedges);
/* The marks (bases and their next, inputs, legal and goal sentences,
 * terminal, aliases) renumbered: c becomes map[c]; an alias mapped to
 * PN_NONE is dropped (gone with its component). */
void pn_remap_marks(Propnet *pn, const uint32_t *map);

#endif
