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
    /* a caller that may be cancelled (the analyses a player builds in its
     * start clock): grounding stops with GROUND_LIMIT and "grounding
     * cancelled" once *cancel is non-zero or the CLOCK_MONOTONIC seconds
     * pass deadline; polled every few thousand atoms tried */
    const volatile int *cancel; /* NULL: none */
    double deadline;            /* 0: none */
} GroundLimits;

/* Has the caller of grounding cancelled it (lim's cancel flag or deadline)? */
bool ground_cancelled(const GroundLimits *lim);

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

/* ---- condensation: the grounding of the propositional network ----------
 *
 * A rule's body is split where a set of its literals shares few variables
 * with the rest: the frame rule
 *
 *   (<= (next (cell ?x ?y ?p)) (does ?r (move ?q ?x1 ?y1 ?x2 ?y2))
 *       (true (cell ?x ?y ?p)) (different ?x ?y ?x1 ?y1) ...)
 *
 * grounds to one rule per cell, piece and move; its literals without ?p
 * talk to the rest only through ?x and ?y, so it becomes
 *
 *   (<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (next#1 ?x ?y))
 *   (<= (next#1 ?x ?y) (does ?r (move ?q ?x1 ?y1 ?x2 ?y2)) ...)
 *
 * which grounds to one rule per cell and move and one per cell and piece.
 * The rule, applied once the static relations are known (the grounder's
 * first phase): for a variable v of the body, the literals A without v
 * (and with some variable: a ground literal stays with the rest) are split
 * off when
 *  - A reads the state or the move (a literal of a relation that is not
 *    static: the new relation is then dynamic too);
 *  - some variable of A occurs neither in the rest nor in the head, and is
 *    not determined by those that do through A's static literals of at
 *    most one atom per binding (a successor relation: the rule of four in
 *    a row is not split, its instances do not multiply);
 *  - A is not a lone `does` whose variables the rest only compares (a
 *    frame rule's "a move from column x1 to x2" and (distinct ?x ?x1):
 *    left whole, the optimiser makes it the NOT of the moves touching the
 *    cell; split, every move goes through a layer of ORs);
 *  - A is safe alone (each variable of its negations and (in)equalities
 *    bound by a positive literal of A) and the rest with the new literal.
 * Of the variables that allow a split, the one projecting the most
 * variables away is taken, and the two rules made are condensed again
 * until none splits (each split removes variables from both, so this
 * ends). Rules of more than 64 variables or literals are left as they
 * are; rules of static heads too (evaluated exactly, no instance kept).
 *
 * A condensed grounding of at most GROUND_SMALL rules (facts not counted)
 * is made again from the rules as written, and that one is kept when it is
 * at most GROUND_AS_WRITTEN times as large (rules and links): on a small
 * network the optimiser does better with the rules' own shape (Tic-tac-toe's
 * split frame rule adds a layer of ORs that every move goes through: 20%
 * slower), and it costs the grounder little. Counts, not times.
 *
 * The new relation's name is the head's, '#' and a number: '#' is not a
 * character of KIF, so it is never a name of the game. Its arguments are
 * the shared variables in variable order. The program means the same (its
 * relations have the same atoms in every state; the new ones are extra)
 * and stays stratified (the new relation depends on A's literals as the
 * rule did, the rule on it positively). The split follows the rules as
 * written, so it may keep one of two mirror images of a rule whole and
 * split the other: the analyses, which look for the game's symmetries in
 * the network, ground the rules as written (ground_run).
 */

enum { GROUND_SMALL = 5000, GROUND_AS_WRITTEN = 4 };

/* ground_run on the rules condensed: the new relations' names are interned
 * in names, a symbol table whose first symbols are in->syms', id for id,
 * and *out speaks it (out->syms = names). always: keep the condensed
 * grounding however small (the tests: random programs are small). */
GroundResult ground_condensed(const Ir *in, const GroundLimits *lim, Symtab *names, bool always, Ir *out,
                              GroundStats *stats, char **err);

/* The condensed rules alone (--dump=condensed), a program over names as
 * above, to be freed with ir_free; *out left zeroed when no rule splits or
 * ground_condensed keeps the rules as written (the rules are in's). GROUND_LIMIT as ground_run's when the static
 * relations pass a budget. */
GroundResult ground_condense(const Ir *in, const GroundLimits *lim, Symtab *names, bool always, Ir *out, char **err);

#endif
