/* gen.h: random small GDL games, for differential tests of engines. */
#ifndef GDLC_TEST_GEN_H
#define GDLC_TEST_GEN_H

#include <stdint.h>

/* A valid game (malloc-ed text) made from seed: two roles that always have a
 * move, a step counter that ends it, fluents over a small domain, and helper
 * relations with left, right and mutual recursion, stratified negation,
 * distinct, or and function terms. */
char *gen_game(uint64_t seed);

/* A game of the same kind for engine board, which plays only flat games
 * (gen.c: gen_flat_game): every fact and move a functor over constants,
 * recursion only among relations of constants, a move never a variable;
 * its state holds a relation with a key ((h X V): one V per X) that a
 * move sometimes breaks late in the game. */
char *gen_flat_game(uint64_t seed);

#endif
