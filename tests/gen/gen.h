/* gen.h: random small GDL games, for differential tests of engines. */
#ifndef GDLC_TEST_GEN_H
#define GDLC_TEST_GEN_H

#include <stdint.h>

/* A valid game (malloc-ed text) made from seed: two roles that always have a
 * move, a step counter that ends it, fluents over a small domain, and helper
 * relations with left, right and mutual recursion, stratified negation,
 * distinct, or and function terms. */
char *gen_game(uint64_t seed);

#endif
