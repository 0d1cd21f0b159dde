/*
 * ground.h: the grounder: an accepted program to a program without
 * variables over its reachable domain.
 *
 * The domain is a relaxed fixpoint: negation dropped, `true` takes what
 * `init` and `next` take, `does` what `legal` takes. Relations that depend on
 * neither `true` nor `does` (the static ones, `init` and `role` among them)
 * are evaluated exactly, with negation, and folded: they become facts, and
 * a static literal in a dynamic rule is removed when it holds, its rule
 * dropped when it does not. Every other rule is instantiated once per
 * binding of its variables that the relaxed domain allows.
 *
 * The result is an Ir in the same terms as the input, so ref can evaluate
 * it (engine `ref:ground`): the same relations with the same ids, names,
 * kinds and arities (kwrel and roles identical), the same symbol table and
 * source; every rule has nvars == 0, every term is IR_CONST or IR_FN,
 * every body literal is IR_LIT_POS or IR_LIT_NEG (distinct and equality
 * are decided while grounding); rule_index, sccs and strata are computed as
 * ir_lower computes them (ir_analyse). Static relations are given by facts
 * only. Terms are interned once each: two IR_CONST/IR_FN ids are the same
 * term exactly when the ids are equal. A negated literal whose atom is
 * outside the relaxed domain holds in every reachable state: it is dropped.
 *
 * Budgets are counts, never times, so that what grounds does not depend on
 * the machine. A program past one stops with a message naming the relation
 * that grew and its size; so does a term deeper than GT_MAX_DEPTH (a
 * relation whose terms grow without bound), and a join that tries more
 * than 16 times max_links atoms (a product of large tables that makes
 * little). At the default budgets memory stays under some 2 GB (ground.c).
 */
#ifndef GDLC_GROUND_H
#define GDLC_GROUND_H

#include "../frontend/ir.h"

/* The default budgets: every headline game and nearly all of the corpus
 * ground within them, and the worst case stays under some 2 GB (ground.c). */
#define GROUND_DEFAULT_MAX_ATOMS 4000000u
#define GROUND_DEFAULT_MAX_RULES 4000000u
#define GROUND_DEFAULT_MAX_LINKS 16000000u

typedef struct GroundLimits {
    uint64_t max_atoms; /* ground atoms in the domain (0: GROUND_DEFAULT_MAX_ATOMS) */
    uint64_t max_rules; /* ground rules made, facts of static relations not counted (0: GROUND_DEFAULT_MAX_RULES) */
    uint64_t max_links; /* body literals of ground rules, summed (0: GROUND_DEFAULT_MAX_LINKS) */
} GroundLimits;

typedef struct GroundStats {
    uint64_t atoms;      /* atoms in the relaxed domain */
    uint64_t rules;      /* ground rules in the output, facts included */
    uint64_t links;      /* body literals in the output */
    uint64_t static_facts; /* facts of folded static relations */
} GroundStats;

typedef enum GroundResult {
    GROUND_OK,
    GROUND_LIMIT,   /* a budget was exceeded (or a term too deep): *err names the relation */
} GroundResult;

/* Grounds an accepted program into *out (to be freed with ir_free; it
 * shares in->syms and in->src). On GROUND_LIMIT *out is left empty and
 * *err (malloc-ed) says e.g. "grounding stopped: relation 'legal' grew past
 * 1000000 atoms (max-atoms=1000000)". Memory running out jumps (base.h). */
GroundResult ground_run(const Ir *in, const GroundLimits *lim, Ir *out, GroundStats *stats, char **err);

/* --dump=ground: the ground program, one rule a line, in a stable order.
 * First "roles: R1 R2 ...", then the rules of each relation (relations in
 * id order, which is the order of first appearance in the game after the
 * keyword relations), sorted by their text, printed as ir_print_rule does:
 * "(next (cell 1 1 x)) :- (does xplayer (mark 1 1)), (true (cell 1 1 b))"
 * and a fact as its atom alone. The same game gives the same bytes. */
void ground_dump(FILE *f, const Ir *ground);

/* Reads budgets such as "max-atoms=N,max-rules=N,max-links=N" (any
 * subset, any order, N > 0) into *lim, leaving the others as they are.
 * False with *err (malloc-ed) on anything else. */
bool ground_limits_parse(const char *spec, GroundLimits *lim, char **err);

#endif
