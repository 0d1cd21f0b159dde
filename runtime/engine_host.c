/*
 * engine_host.c: the host's copy of the generated engines' runtime.
 *
 * backend/engine.h compiled here by the system compiler, with external
 * names (gdlc_rt_*). Code JIT-compiled by libtcc declares these functions
 * (GDLC_RUNTIME_EXTERN) and is linked to this copy, so the hash lookups,
 * tables and completion run at -O2 while only the game's own rules are
 * compiled by libtcc. Ahead-of-time objects carry their own copy instead.
 */
#include "engine_host.h"

#include "../backend/abi.h"

#define RT
#define ev_fail gdlc_rt_ev_fail
#define ev_poll gdlc_rt_ev_poll
#define zero gdlc_rt_zero
#define copy32 gdlc_rt_copy32
#define arena_alloc gdlc_rt_arena_alloc
#define arena_reset gdlc_rt_arena_reset
#define arena_free gdlc_rt_arena_free
#define hash_cols gdlc_rt_hash_cols
#define eq_cols gdlc_rt_eq_cols
#define hash_all gdlc_rt_hash_all
#define eq_all gdlc_rt_eq_all
#define cols_of gdlc_rt_cols_of
#define mkn gdlc_rt_mkn
#define fs_clear gdlc_rt_fs_clear
#define fs_add gdlc_rt_fs_add
#define fs_dedup gdlc_rt_fs_dedup
#define ix_build gdlc_rt_ix_build
#define fs_first gdlc_rt_fs_first
#define tb_new gdlc_rt_tb_new
#define tb_add gdlc_rt_tb_add
#define tb_has gdlc_rt_tb_has
#define tb_call gdlc_rt_tb_call
#define tb_call_complete gdlc_rt_tb_call_complete
#define tb_eval gdlc_rt_tb_eval
#define tb_consume gdlc_rt_tb_consume
#define ev_reset gdlc_rt_ev_reset
#include "../backend/engine.h"

/* fs_get for code compiled by libtcc (see engine.h). */
u32 gdlc_rt_fs_getn(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n, u32 c0, u32 c1, u32 c2);
u32 gdlc_rt_fs_getn(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n, u32 c0, u32 c1, u32 c2)
{
    return fs_get(ev, s, slot, key, n, c0, c1, c2);
}

const RtJitSymbol rt_engine_symbols[] = {
    {"ev_fail", (const void *)gdlc_rt_ev_fail},
    {"ev_poll", (const void *)gdlc_rt_ev_poll},
    {"zero", (const void *)gdlc_rt_zero},
    {"copy32", (const void *)gdlc_rt_copy32},
    {"arena_alloc", (const void *)gdlc_rt_arena_alloc},
    {"arena_reset", (const void *)gdlc_rt_arena_reset},
    {"arena_free", (const void *)gdlc_rt_arena_free},
    {"hash_cols", (const void *)gdlc_rt_hash_cols},
    {"eq_cols", (const void *)gdlc_rt_eq_cols},
    {"hash_all", (const void *)gdlc_rt_hash_all},
    {"eq_all", (const void *)gdlc_rt_eq_all},
    {"cols_of", (const void *)gdlc_rt_cols_of},
    {"mkn", (const void *)gdlc_rt_mkn},
    {"fs_clear", (const void *)gdlc_rt_fs_clear},
    {"fs_add", (const void *)gdlc_rt_fs_add},
    {"fs_dedup", (const void *)gdlc_rt_fs_dedup},
    {"ix_build", (const void *)gdlc_rt_ix_build},
    {"fs_first", (const void *)gdlc_rt_fs_first},
    {"fs_getn", (const void *)gdlc_rt_fs_getn},
    {"tb_new", (const void *)gdlc_rt_tb_new},
    {"tb_add", (const void *)gdlc_rt_tb_add},
    {"tb_has", (const void *)gdlc_rt_tb_has},
    {"tb_call", (const void *)gdlc_rt_tb_call},
    {"tb_call_complete", (const void *)gdlc_rt_tb_call_complete},
    {"tb_eval", (const void *)gdlc_rt_tb_eval},
    {"tb_consume", (const void *)gdlc_rt_tb_consume},
    {"ev_reset", (const void *)gdlc_rt_ev_reset},
};
const size_t rt_engine_nsymbols = sizeof rt_engine_symbols / sizeof rt_engine_symbols[0];
