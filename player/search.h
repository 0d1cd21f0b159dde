/*
 * search.h: the player stage's search, internal to player/ (session.c
 * drives it, mcts.c implements it). One Search per thread: it owns a tree
 * (UCT) or root statistics (flat Monte-Carlo) over one machine, which it
 * alone calls. States are values shared by every machine of a game, so a
 * session's threads start from the same state object.
 */
#ifndef GDLC_PLAYER_SEARCH_H
#define GDLC_PLAYER_SEARCH_H

#include "player.h"

typedef struct Search Search;

/* What a search may use. */
typedef struct SearchConfig {
    PlayStrategy strategy; /* PLAY_FLAT or PLAY_MCTS */
    double c;              /* UCB1's exploration constant, scores in [0, 1] */
    bool goal_ranges;      /* a new node whose every role's goal range is one value is terminal */
    bool winning_moves;    /* at every node (not only the root), a role with a
                              winning move plays only those; moves that lose at
                              once are dropped unless all do (default false) */
    size_t max_nodes;      /* tree size bound (0: 1 << 18) */
    unsigned batch;        /* lanes of a batch (gdl_batch_playouts) playing out each new
                              leaf that many times, the leaf's statistics taking them
                              all (leaf parallelism); 0: one depth charge a leaf; a
                              game the batch cannot take falls back to that */
} SearchConfig;

void search_config_default(SearchConfig *c);

/* A search over machine m (and its analysis an, NULL: none) for a game of
 * nroles roles, with its own random numbers. NULL when memory runs out. */
Search *search_new(GdlMachine *m, GdlAnalysis *an, unsigned nroles, const SearchConfig *cfg, uint64_t seed);
void search_free(Search *s);

/* Gives the search an analysis made on machine an_m, another machine of
 * the game than the search's (states are shared; moves are matched by
 * text), or none (NULL). Its calls are made from the search's thread:
 * nobody else may use an or an_m during search_run. */
void search_set_analysis(Search *s, GdlAnalysis *an, GdlMachine *an_m);

/* Moves the root to state (a copy is kept): the subtree of a root child
 * with that state is kept (tree reuse across turns), the rest freed. */
GdlStatus search_set_root(Search *s, const GdlState *state);

/* Searches from the root until playouts iterations (0: no bound), the
 * deadline (gdl_now seconds; 0: none) or *cancel; role is the player's
 * (flat Monte-Carlo spreads its playouts over that role's moves). Adds the
 * iterations done to *done. GDL_OK, or the machine's failure (the
 * statistics gathered stay usable). */
GdlStatus search_run(Search *s, unsigned role, uint64_t playouts, double deadline, const volatile int *cancel,
                     uint64_t *done);

/* The root's statistics for role: n moves (the machine's), their visits
 * and summed scores (in [0, 1] per visit). Valid until the next call. */
size_t search_root(const Search *s, unsigned role, const GdlMove **moves, const uint32_t **visits,
                   const double **sums);
/* The role's moves at the root that the analysis proves win at once (a
 * subset of search_root's moves then); 0 when none is known. */
bool search_root_winning(const Search *s, unsigned role);
/* Nodes in the tree. */
size_t search_nodes(const Search *s);

#endif
