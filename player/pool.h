/*
 * pool.h: matches of one game run by a few threads at once, for gdlc match
 * and gdlc balance, their records handed back in match order.
 *
 * Each thread (a job) has players of its own, made by the caller from the
 * same specs and seeds: a built-in player's play depends on its seed and
 * the match's id only, so which job runs a match changes nothing. Match k
 * (from 0) is played with seed seed * 0x9E3779B97F4A7C15 + k; its players
 * rotate over the seats, player j in role (j + k) mod R, unless the seats
 * are fixed (player j in role j). After a match fails no new one starts.
 */
#ifndef GDLC_PLAYER_POOL_H
#define GDLC_PLAYER_POOL_H

#include "player.h"

typedef struct MatchPool MatchPool;

/* Starts up to jobs threads that play matches 0 .. n-1 of game (rules: its
 * text, len bytes, sent to the players), job j with the players
 * players[j * R .. j * R + R), R the game's roles; o's clocks and log hold
 * for every match (its seed is the pool's). Everything passed must outlive
 * the pool. NULL, with *why ("out of memory", "cannot start a thread"),
 * when nothing could start. */
MatchPool *match_pool_start(const GdlGame *game, const char *rules, size_t len, MatchPlayer *const *players,
                            unsigned jobs, uint64_t n, bool fixed_seats, const MatchOptions *o, uint64_t seed,
                            const char **why);

/* Waits for match k (k < n) and hands over what match_run gave: its
 * status, the record (GDL_OK) or the message (otherwise, may be NULL), both
 * the caller's to free. Take the matches in order, each once, and none
 * after a failed one (it may never start). */
GdlStatus match_pool_take(MatchPool *p, uint64_t k, MatchRecord **rec, char **err);

/* Starts no more matches, waits for the running ones, and frees the pool
 * with the records not taken. NULL is ignored. */
void match_pool_free(MatchPool *p);

#endif
