/*
 * analyze.c: gdlc analyze, the game analyses of issue 14 on the command
 * line: the game-level claims (latches, joint latches, goal latches,
 * inhibitors, dead states, control, irrelevant roles, move partitions) as a
 * readable report or one JSON object; with --state the per-state queries
 * (goal range, winning and losing moves, goal distance); --dot the network
 * coloured by what the analysis knows; --check N the claims held against
 * brute force.
 *
 * Everything goes through the public API (include/gdl.h): a machine of the
 * game (--engine, default jit) reads the --state text and plays for the
 * check; gdl_analysis_new builds its own network of the game beside it.
 * The one exception is --dot, drawn from the network itself as gdlc
 * propnet draws (see draw() below).
 *
 * --check N runs the claim checker of runtime/claim_check.c, which says
 * how it holds each claim against brute force; the driver prints its
 * verdict.
 */
#include <string.h>

#include "../include/gdl.h"
#include "../analysis/analysis.h"
#include "../frontend/kif.h"
#include "../runtime/claim_check.h"
#include "../runtime/pipeline.h"
#include "cli.h"

typedef struct AzOpts {
    const char *path;   /* the game */
    const char *state;  /* --state FACTS or NULL */
    const char *dot;    /* --dot FILE or NULL */
    const char *engine; /* --engine E or NULL (jit) */
    bool json;
    bool check;         /* --check N given */
    uint64_t check_n;
    bool has_samples, has_seed;
    uint64_t samples, seed;
    GroundLimits lim;
} AzOpts;

/* ---- output helpers -------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static const char *role_name(const GdlGame *g, unsigned r) { return gdl_game_role_name(g, r); }

/* ---- the report ------------------------------------------------------ */

static void json_moves(FILE *f, GdlMachine *m, const GdlMove *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        json_str(f, gdl_move_text(m, v[i]));
    }
    fputc(']', f);
}

static void json_claim(FILE *f, GdlMachine *m, const GdlGame *g, const GdlClaim *c)
{
    switch (c->kind) {
    case GDL_CLAIM_LATCH:
        fprintf(f, "{\"sentence\":");
        json_str(f, c->sentences[0]);
        fprintf(f, ",\"value\":%s}", c->values[0] ? "true" : "false");
        break;
    case GDL_CLAIM_JOINT_LATCH:
        fprintf(f, "{\"sentences\":[");
        for (size_t i = 0; i < c->n; i++) {
            if (i)
                fputc(',', f);
            json_str(f, c->sentences[i]);
        }
        fprintf(f, "],\"values\":[");
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, "%s%s", i ? "," : "", c->values[i] ? "true" : "false");
        fprintf(f, "]}");
        break;
    case GDL_CLAIM_GOAL_LATCH:
        fprintf(f, "{\"role\":");
        json_str(f, role_name(g, c->role));
        fprintf(f, ",\"goal\":%d,\"sentence\":", c->goal);
        json_str(f, c->sentences[0]);
        fprintf(f, ",\"value\":%s,\"effect\":\"%s\"}", c->values[0] ? "true" : "false",
                c->fixes ? "fixes" : "excludes");
        break;
    case GDL_CLAIM_INHIBITOR:
        fprintf(f, "{\"inhibitor\":");
        json_str(f, c->sentences[0]);
        fprintf(f, ",\"of\":");
        json_str(f, c->sentences[1]);
        fputc('}', f);
        break;
    case GDL_CLAIM_DEAD:
        fprintf(f, "{\"role\":");
        json_str(f, role_name(g, c->role));
        fprintf(f, ",\"sentence\":");
        json_str(f, c->sentences[0]);
        fprintf(f, ",\"value\":%s}", c->values[0] ? "true" : "false");
        break;
    case GDL_CLAIM_CONTROL:
        json_str(f, c->sentences[0]);
        break;
    case GDL_CLAIM_PARTITION:
        fprintf(f, "{\"role\":");
        json_str(f, role_name(g, c->role));
        fprintf(f, ",\"groups\":[");
        for (size_t k = 0; k < c->ngroups; k++) {
            if (k)
                fputc(',', f);
            json_moves(f, m, c->moves + c->group_at[k], c->group_at[k + 1] - c->group_at[k]);
        }
        fprintf(f, "]}");
        break;
    default:
        fprintf(f, "null");
    }
}

static void json_list(FILE *f, GdlMachine *m, const GdlGame *g, const GdlAnalysis *an, const char *key,
                      GdlClaimKind kind)
{
    fprintf(f, ",\"%s\":[", key);
    size_t n = gdl_analysis_count(an, kind);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        json_claim(f, m, g, gdl_analysis_claim(an, kind, i));
    }
    fputc(']', f);
}

/* The joint latch through the --state state (n 0: none). */
typedef struct AzJoint {
    const char *const *sentences;
    const bool *values;
    size_t n;
} AzJoint;

static void report_json(FILE *f, const AzOpts *o, GdlMachine *m, const GdlGame *g, const GdlAnalysis *an,
                        const ClaimAnswer *ans, const AzJoint *jl, size_t nsym)
{
    unsigned nroles = gdl_game_role_count(g);
    fprintf(f, "{\"game\":");
    json_str(f, o->path);
    fprintf(f, ",\"symmetries\":%zu", nsym);
    json_list(f, m, g, an, "latches", GDL_CLAIM_LATCH);
    json_list(f, m, g, an, "joint_latches", GDL_CLAIM_JOINT_LATCH);
    json_list(f, m, g, an, "goal_latches", GDL_CLAIM_GOAL_LATCH);
    json_list(f, m, g, an, "inhibitors", GDL_CLAIM_INHIBITOR);
    json_list(f, m, g, an, "dead", GDL_CLAIM_DEAD);
    json_list(f, m, g, an, "control", GDL_CLAIM_CONTROL);
    fprintf(f, ",\"irrelevant_roles\":{");
    size_t nirr = gdl_analysis_count(an, GDL_CLAIM_IRRELEVANT);
    for (unsigned r = 0; r < nroles; r++) {
        if (r)
            fputc(',', f);
        json_str(f, role_name(g, r));
        fprintf(f, ":[");
        bool first = true;
        for (size_t i = 0; i < nirr; i++) {
            const GdlClaim *c = gdl_analysis_claim(an, GDL_CLAIM_IRRELEVANT, i);
            if (c->role != r)
                continue;
            if (!first)
                fputc(',', f);
            first = false;
            json_str(f, role_name(g, c->other_role));
        }
        fputc(']', f);
    }
    fputc('}', f);
    json_list(f, m, g, an, "partitions", GDL_CLAIM_PARTITION);
    if (ans) {
        fprintf(f, ",\"goal_range\":{");
        for (unsigned r = 0; r < nroles; r++) {
            fprintf(f, "%s", r ? "," : "");
            json_str(f, role_name(g, r));
            fprintf(f, ":[%d,%d]", ans[r].lo, ans[r].hi);
        }
        fprintf(f, "},\"winning_moves\":{");
        for (unsigned r = 0; r < nroles; r++) {
            fprintf(f, "%s", r ? "," : "");
            json_str(f, role_name(g, r));
            fputc(':', f);
            json_moves(f, m, ans[r].win.v, ans[r].win.n);
        }
        fprintf(f, "},\"losing_moves\":{");
        for (unsigned r = 0; r < nroles; r++) {
            fprintf(f, "%s", r ? "," : "");
            json_str(f, role_name(g, r));
            fputc(':', f);
            json_moves(f, m, ans[r].lose.v, ans[r].lose.n);
        }
        fprintf(f, "},\"goal_distance\":{");
        for (unsigned r = 0; r < nroles; r++) {
            fprintf(f, "%s", r ? "," : "");
            json_str(f, role_name(g, r));
            if (ans[r].distance < 0)
                fprintf(f, ":null");
            else
                fprintf(f, ":%d", ans[r].distance);
        }
        fputc('}', f);
        /* beyond the keys: the joint latch through the state */
        fprintf(f, ",\"state_joint_latch\":");
        if (!jl->n) {
            fprintf(f, "null");
        } else {
            fprintf(f, "{\"sentences\":[");
            for (size_t i = 0; i < jl->n; i++) {
                if (i)
                    fputc(',', f);
                json_str(f, jl->sentences[i]);
            }
            fprintf(f, "],\"values\":[");
            for (size_t i = 0; i < jl->n; i++)
                fprintf(f, "%s%s", i ? "," : "", jl->values[i] ? "true" : "false");
            fprintf(f, "]}");
        }
    }
    fprintf(f, "}\n");
}

static void text_list(FILE *f, GdlMachine *m, const GdlGame *g, const GdlAnalysis *an, const char *title,
                      GdlClaimKind kind)
{
    size_t n = gdl_analysis_count(an, kind);
    fprintf(f, "%s: %zu\n", title, n);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  ");
        claim_print(f, m, g, gdl_analysis_claim(an, kind, i));
        fputc('\n', f);
    }
}

static void report_text(FILE *f, const AzOpts *o, GdlMachine *m, const GdlGame *g, const GdlAnalysis *an,
                        const GdlState *s, const ClaimAnswer *ans, const AzJoint *jl, size_t nsym)
{
    unsigned nroles = gdl_game_role_count(g);
    fprintf(f, "game: %s\n", o->path);
    fprintf(f, "analysis: %.3f s; joint latches sought from %u state%s (the initial one and states of seeded "
               "random playthroughs)\n",
            gdl_analysis_seconds(an), gdl_analysis_sampled(an), gdl_analysis_sampled(an) == 1 ? "" : "s");
    fprintf(f, "symmetries: %zu (the identity included)\n", nsym);
    text_list(f, m, g, an, "latches", GDL_CLAIM_LATCH);
    text_list(f, m, g, an, "joint latches", GDL_CLAIM_JOINT_LATCH);
    text_list(f, m, g, an, "goal latches", GDL_CLAIM_GOAL_LATCH);
    text_list(f, m, g, an, "inhibitors", GDL_CLAIM_INHIBITOR);
    text_list(f, m, g, an, "dead states", GDL_CLAIM_DEAD);
    text_list(f, m, g, an, "control", GDL_CLAIM_CONTROL);
    text_list(f, m, g, an, "irrelevant roles", GDL_CLAIM_IRRELEVANT);
    text_list(f, m, g, an, "partitions", GDL_CLAIM_PARTITION);
    if (!ans)
        return;
    fprintf(f, "state: ");
    claim_print_state(f, m, s);
    fputc('\n', f);
    if (jl->n) {
        fprintf(f, "  joint latch through it: together,");
        for (size_t i = 0; i < jl->n; i++)
            fprintf(f, "%s %s %s", i ? "," : "", jl->sentences[i], jl->values[i] ? "true" : "false");
        fprintf(f, " stay so\n");
    } else {
        fprintf(f, "  joint latch through it: none\n");
    }
    for (unsigned r = 0; r < nroles; r++) {
        fprintf(f, "  %s: goal range [%d, %d]; winning moves:", role_name(g, r), ans[r].lo, ans[r].hi);
        for (size_t i = 0; i < ans[r].win.n; i++)
            fprintf(f, " %s", gdl_move_text(m, ans[r].win.v[i]));
        fprintf(f, "%s; losing moves:", ans[r].win.n ? "" : " none");
        for (size_t i = 0; i < ans[r].lose.n; i++)
            fprintf(f, " %s", gdl_move_text(m, ans[r].lose.v[i]));
        fprintf(f, "%s; goal distance ", ans[r].lose.n ? "" : " none");
        if (ans[r].distance < 0)
            fprintf(f, "never\n");
        else
            fprintf(f, "%d\n", ans[r].distance);
    }
}


/* ---- --dot ----------------------------------------------------------- */

/* The picture is drawn as gdlc propnet draws its own: from the network
 * itself (an_dot of analysis/analysis.h), not through gdl.h, whose
 * GdlAnalysis keeps its network private. So the game is read again, its
 * network built with the same budgets and analysed with the same options
 * (the analyses are deterministic: the claims are those of the report),
 * and the --state facts are mapped to the network's bases. */
static int draw(const char *cmd, const AzOpts *o)
{
    Front f;
    int rc = cli_load_game(o->path, &f, false);
    if (rc != CLI_OK) {
        front_free(&f);
        return rc;
    }
    GtStore store;
    gt_init(&store, &f.syms);
    Propnet pn;
    char *err = NULL;
    if (!cp_propnet(&f.ir, &o->lim, &store, PN_OPT_ALL, &pn, NULL, &err)) {
        fprintf(stderr, "gdlc %s: %s: %s\n", cmd, o->path, err);
        free(err);
        gt_free(&store);
        front_free(&f);
        return CLI_FAULT;
    }
    uint64_t *bits = NULL;
    if (o->state) {
        bits = base_xcalloc(an_state_words(&pn) + 1, sizeof *bits);
        size_t len = strlen(o->state);
        Source *src = source_new("--state", base_xstrndup(o->state, len), len);
        DiagList d;
        diag_init(&d, src);
        KifDoc doc = {0};
        if (kif_read(src, &f.syms, &d, &doc))
            for (uint32_t i = 0; i < doc.tops.n; i++) {
                Gt g = gt_from_kif(&store, &doc, &f.syms, doc.tops.v[i]);
                for (uint32_t b = 0; g != BASE_NONE && b < pn.base.n; b++)
                    if (pn.base.v[b].fact == g)
                        bits[b >> 6] |= (uint64_t)1 << (b & 63);
            }
        kif_doc_free(&doc);
        diag_free(&d);
        source_free(src);
    }
    AnOptions opt = {.samples = o->has_samples ? (uint32_t)o->samples : AN_DEFAULT_SAMPLES, .seed = o->has_seed ? o->seed : 0};
    Analysis an;
    an_analyse(&pn, &opt, &an);
    bool to_stdout = strcmp(o->dot, "-") == 0;
    FILE *out = to_stdout ? stdout : cli_output_open(cmd, o->dot, &o->path, 1);
    rc = CLI_USAGE;
    if (out) {
        an_dot(out, &an, bits, PN_NONE, 0);
        rc = cli_output_close(cmd, out, to_stdout ? NULL : o->dot);
    }
    an_free(&an);
    free(bits);
    pn_free(&pn);
    gt_free(&store);
    front_free(&f);
    return rc;
}

/* ---- the command ----------------------------------------------------- */

static int parse_opts(CliArgs *a, AzOpts *o)
{
    const char *v;
    bool bad = false;
    while (a->i < a->argc) {
        int brc = cli_opt_budget(a, &o->lim);
        if (brc >= 0) {
            if (brc != CLI_OK)
                return brc;
        } else if (cli_opt_flag(a, "--json"))
            o->json = true;
        else if (cli_opt_value(a, "--state", &v, &bad)) {
            if (!bad)
                o->state = v;
        } else if (cli_opt_value(a, "--dot", &v, &bad)) {
            if (!bad)
                o->dot = v;
        } else if (cli_opt_value(a, "--engine", &v, &bad)) {
            if (!bad)
                o->engine = v;
        } else if (cli_opt_value(a, "--check", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--check", v, &o->check_n))
                return CLI_USAGE;
            o->check = true;
        } else if (cli_opt_value(a, "--samples", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--samples", v, &o->samples))
                return CLI_USAGE;
            o->has_samples = true;
        } else if (cli_opt_value(a, "--seed", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--seed", v, &o->seed))
                return CLI_USAGE;
            o->has_seed = true;
        } else if (bad)
            return CLI_USAGE;
        else if (cli_take_game(a, &o->path) != CLI_OK)
            return CLI_USAGE;
        if (bad)
            return CLI_USAGE;
    }
    if (!o->path)
        return cli_usage_error(a->cmd, "give a game file");
    if (o->has_samples && o->samples > UINT32_MAX)
        return cli_usage_error(a->cmd, "--samples takes at most %u", UINT32_MAX);
    if (o->check && o->check_n == 0)
        return cli_usage_error(a->cmd, "--check takes a positive number of states");
    return CLI_OK;
}

/* The options of gdl_analysis_new from the command's. */
static char *analysis_options(const AzOpts *o)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    if (o->has_samples)
        strbuf_addf(&b, "%ssamples=%llu", b.len ? "," : "", (unsigned long long)o->samples);
    if (o->has_seed)
        strbuf_addf(&b, "%sseed=%llu", b.len ? "," : "", (unsigned long long)o->seed);
    if (o->lim.max_atoms)
        strbuf_addf(&b, "%smax-atoms=%llu", b.len ? "," : "", (unsigned long long)o->lim.max_atoms);
    if (o->lim.max_rules)
        strbuf_addf(&b, "%smax-rules=%llu", b.len ? "," : "", (unsigned long long)o->lim.max_rules);
    if (o->lim.max_links)
        strbuf_addf(&b, "%smax-links=%llu", b.len ? "," : "", (unsigned long long)o->lim.max_links);
    if (!b.len) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

static int analyze_run(CliArgs *a)
{
    AzOpts o = {0};
    int rc = parse_opts(a, &o);
    if (rc != CLI_OK)
        return rc;
    if (o.dot && strcmp(o.dot, "-") != 0 && cli_output_check(a->cmd, o.dot, &o.path, 1) != CLI_OK)
        return CLI_USAGE;
    if (o.dot && strcmp(o.dot, "-") == 0 && o.json)
        return cli_usage_error(a->cmd, "--dot - and --json both write to standard output: give --dot a file");

    GdlGame *game = NULL;
    GdlMachine *m = NULL;
    GdlAnalysis *an = NULL;
    GdlState *state = NULL;
    ClaimAnswer *ans = NULL;
    char *opts = analysis_options(&o);
    if ((rc = cli_open_machine(a->cmd, o.path, o.engine, &game, &m, NULL)) != CLI_OK)
        goto out;
    if (o.state && (rc = cli_read_state(a->cmd, m, o.state, &state)) != CLI_OK)
        goto out;
    GdlStatus st = gdl_analysis_new(m, opts, &an);
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc %s: %s: %s\n", a->cmd, o.path, gdl_machine_error(m));
        if (st == GDL_LIMIT)
            fprintf(stderr, "gdlc %s: every analysis of this command reads the game's propositional network: "
                            "none of them runs without it (raise --max-atoms, --max-rules or --max-links)\n",
                    a->cmd);
        rc = st == GDL_BAD_ARGUMENT ? CLI_USAGE : CLI_FAULT;
        goto out;
    }
    unsigned nroles = gdl_game_role_count(game);
    AzJoint jl = {0};
    if (state) {
        /* the joint latch through the state first: the per-state answers
         * use it (the analysis remembers the latches it finds) */
        if ((st = gdl_analysis_joint_latch(an, state, &jl.sentences, &jl.values, &jl.n)) != GDL_OK) {
            fprintf(stderr, "gdlc %s: --state: %s: %s\n", a->cmd, gdl_status_name(st), gdl_machine_error(m));
            rc = CLI_FAULT;
            goto out;
        }
        ans = base_xcalloc(nroles + 1, sizeof *ans);
        for (unsigned r = 0; r < nroles; r++) {
            claim_answer(an, state, r, &ans[r]);
            if (ans[r].st != GDL_OK) {
                fprintf(stderr, "gdlc %s: --state: %s: %s\n", a->cmd, gdl_status_name(ans[r].st),
                        gdl_machine_error(m));
                rc = CLI_FAULT;
                goto out;
            }
        }
    }
    /* again, for the report: the answers' calls moved what it pointed to */
    if (state && (st = gdl_analysis_joint_latch(an, state, &jl.sentences, &jl.values, &jl.n)) != GDL_OK) {
        fprintf(stderr, "gdlc %s: --state: %s: %s\n", a->cmd, gdl_status_name(st), gdl_machine_error(m));
        rc = CLI_FAULT;
        goto out;
    }
    size_t nsym = 1;
    if ((st = gdl_analysis_symmetry_count(an, &nsym)) != GDL_OK) {
        fprintf(stderr, "gdlc %s: symmetries: %s: %s\n", a->cmd, gdl_status_name(st), gdl_machine_error(m));
        rc = CLI_FAULT;
        goto out;
    }
    if (o.json)
        report_json(stdout, &o, m, game, an, ans, &jl, nsym);
    else
        report_text(stdout, &o, m, game, an, state, ans, &jl, nsym);
    if (o.dot && (rc = draw(a->cmd, &o)) != CLI_OK)
        goto out;
    if (o.check) {
        fflush(stdout);
        ClaimCheckOpts co = {o.check_n, o.has_seed ? o.seed : 1, "gdlc analyze"};
        ClaimCheckResult res;
        rc = claim_check(m, game, an, &co, o.json ? stderr : stdout, stderr, &res) ? CLI_OK : CLI_FAULT;
        if (rc == CLI_OK && res.unsound) {
            fprintf(stderr, "gdlc analyze: %s: %llu unsound claim%s or answer%s%s\n", o.path,
                    (unsigned long long)res.unsound, res.unsound == 1 ? "" : "s", res.unsound == 1 ? "" : "s",
                    res.unsound > res.shown ? " (the first ones shown)" : "");
            rc = CLI_FAULT;
        }
    }
out:
    if (ans)
        for (unsigned r = 0; r < gdl_game_role_count(game); r++)
            claim_answer_free(&ans[r]);
    free(ans);
    free(opts);
    gdl_state_free(state);
    gdl_analysis_free(an);
    gdl_machine_free(m);
    gdl_game_free(game);
    return rc;
}

const CliCommand cli_analyze = {
    "analyze",
    "analyse a game's propnet: latches, goal latches, dead states, partitions, ...",
    "usage: gdlc analyze GAME.kif [--json] [--state FACTS] [--dot FILE] [--check N]\n"
    "                     [--samples N] [--seed S] [--engine E]\n"
    "                     [--max-atoms N] [--max-rules N] [--max-links N]\n"
    "\n"
    "Grounds the game into its propositional network and analyses it by\n"
    "implication deduction over turns (see docs/analyses.md):\n"
    "  latches          bases that once true stay true (or once false, false)\n"
    "  joint latches    sets of bases, none a latch alone, that keep each other\n"
    "                   (sought from the initial state and from states of\n"
    "                   seeded random playthroughs: --samples, --seed)\n"
    "  goal latches     a latch that fixes or excludes a goal value of a role\n"
    "  inhibitors       p true makes q false in the next state\n"
    "  dead states      a latch that rules out every best goal of a role\n"
    "  control          bases no move choice affects (step counters, turns)\n"
    "  irrelevant roles roles whose moves cannot affect another role's goals\n"
    "  partitions       a role's moves in groups, each switching off one base\n"
    "                   that must be false in every best-goal state\n"
    "Every claim is sound: deduction is incomplete, so true latches may be\n"
    "missed, but what is claimed holds (--check tests it).\n"
    "\n"
    "  --json           one JSON object, keys: game, latches ([{sentence,\n"
    "                   value}]), joint_latches ([{sentences, values}]),\n"
    "                   goal_latches ([{role, goal, sentence, value, effect:\n"
    "                   fixes|excludes}]), inhibitors ([{inhibitor, of}]), dead\n"
    "                   ([{role, sentence, value}]), control ([sentence]),\n"
    "                   irrelevant_roles ({role: [role]}), partitions ([{role,\n"
    "                   groups: [[move]]}]); with --state also goal_range\n"
    "                   ({role: [min, max]}), winning_moves and losing_moves\n"
    "                   ({role: [move]}), goal_distance ({role: turns or null\n"
    "                   for never}). Sentences and moves in canonical KIF\n"
    "  --state FACTS    a state, as facts: \"(cell 1 1 b) (control x) ...\":\n"
    "                   also each role's goal range, its winning and losing\n"
    "                   moves (proven to end the game at once with its best or\n"
    "                   worst value) and its goal distance (a lower bound on\n"
    "                   the turns before its best goal can hold)\n"
    "  --dot FILE       the network as Graphviz DOT ('-': standard output),\n"
    "                   coloured by what the analysis knows: latched bases,\n"
    "                   control, dead; with --state the values deduced in it\n"
    "  --check N        soundness by brute force with an engine independent of\n"
    "                   the propnet (jit, or --engine's when not pn): when the\n"
    "                   game has at most N reachable states, every one is\n"
    "                   enumerated and every claim checked on every transition\n"
    "                   and state, and the per-state answers in every state;\n"
    "                   the true single latches missed are counted. Past N\n"
    "                   states the claims are checked along seeded random\n"
    "                   playthroughs (--seed) until N states are seen. An\n"
    "                   unsound claim is printed with a state that refutes it\n"
    "                   (exit 1). The report goes to standard output, or to\n"
    "                   standard error with --json\n"
    "  --samples N      states sampled for joint latches (default 16)\n"
    "  --seed S         the seed of the playthroughs (default 1 for --check)\n"
    "  --engine E       the machine's engine (ref, jit (default), aot, so:PATH,\n"
    "                   pn): it reads --state and plays for --check\n"
    "  --max-atoms N, --max-rules N, --max-links N\n"
    "                   the grounder's budgets (see gdlc help check). A game\n"
    "                   past one stops with the grounder's message: no\n"
    "                   analysis runs without the network\n"
    "\n"
    "exit status: 0 success; 1 the game is rejected or does not ground, a bad\n"
    "--state, or an unsound claim under --check; 2 usage error or unreadable\n"
    "file\n",
    analyze_run,
};
