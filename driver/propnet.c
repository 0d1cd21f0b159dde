/*
 * propnet.c: gdlc propnet, the propositional network of a game: its
 * statistics (text or JSON), its dumps and its Graphviz pictures.
 */
#include <string.h>

#include "../include/gdl.h"
#include "../frontend/kif.h"
#include "../runtime/pipeline.h"
#include "cli.h"

typedef struct Sizes {
    uint32_t comps;
    uint64_t links;
    uint32_t kinds[PN_NKINDS];
} Sizes;

static Sizes sizes(const Propnet *pn)
{
    Sizes s = {pn->comps.n, pn_links(pn), {0}};
    for (uint32_t c = 0; c < pn->comps.n; c++)
        s.kinds[pn->comps.v[c].kind]++;
    return s;
}

static void counts(const Propnet *pn, uint32_t *legals, uint32_t *goals)
{
    *legals = *goals = 0;
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        *legals += pn->roles.v[k].legal.n;
        *goals += pn->roles.v[k].goals.n;
    }
}

static void print_sizes(const char *what, const Sizes *s)
{
    printf("%-10s %u components (", what, s->comps);
    for (int k = 0; k < PN_NKINDS; k++)
        printf("%s%s %u", k ? ", " : "", pn_kind_name((PnKind)k), s->kinds[k]);
    printf("), %llu links\n", (unsigned long long)s->links);
}

static void json_sizes(const char *key, const Sizes *s)
{
    printf("\"%s\":{\"components\":%u,\"links\":%llu,\"kinds\":{", key, s->comps, (unsigned long long)s->links);
    for (int k = 0; k < PN_NKINDS; k++)
        printf("%s\"%s\":%u", k ? "," : "", pn_kind_name((PnKind)k), s->kinds[k]);
    printf("}}");
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* The component of a sentence written in KIF, or PN_NONE after a message. */
static uint32_t focus_of(const char *cmd, Front *f, Propnet *pn, const char *text)
{
    size_t len = strlen(text);
    Source *src = source_new("--focus", base_xstrndup(text, len), len);
    DiagList d;
    diag_init(&d, src);
    KifDoc doc = {0};
    uint32_t c = PN_NONE;
    Gt g = BASE_NONE;
    if (kif_read(src, &f->syms, &d, &doc) && doc.tops.n == 1)
        g = gt_from_kif(pn->store, &doc, &f->syms, doc.tops.v[0]);
    if (g == BASE_NONE)
        fprintf(stderr,
                "gdlc %s: --focus takes one ground sentence such as '(legal xplayer noop)' or 'terminal', not '%s'\n",
                cmd, text);
    else if ((c = pn_find(pn, g)) == PN_NONE)
        fprintf(stderr, "gdlc %s: no component is named '%s'%s\n", cmd, gt_text(pn->store, g),
                " (names are sentences as in the game: (true F), (does R M), (legal R M), (next F), terminal, ...)");
    kif_doc_free(&doc);
    diag_free(&d);
    source_free(src);
    return c;
}

/* Writes the DOT to the file (or standard output for "-"). */
static int draw(const char *cmd, const char *path, const char *dot, const Propnet *pn, uint32_t focus, uint32_t depth)
{
    bool to_stdout = strcmp(dot, "-") == 0;
    FILE *out = to_stdout ? stdout : cli_output_open(cmd, dot, &path, 1);
    if (!out)
        return CLI_USAGE;
    pn_dot(out, pn, focus, depth);
    return cli_output_close(cmd, out, to_stdout ? NULL : dot);
}

static int propnet_run(CliArgs *a)
{
    const char *path = NULL, *dot = NULL, *focus = NULL, *v;
    bool stats = false, json = false, dump_raw = false, dump = false, raw = false, bad = false;
    uint64_t depth = 2;
    GroundLimits lim = {0};
    while (a->i < a->argc) {
        int brc = cli_opt_budget(a, &lim);
        if (brc >= 0) {
            if (brc != CLI_OK)
                return brc;
        } else if (cli_opt_flag(a, "--stats"))
            stats = true;
        else if (cli_opt_flag(a, "--json"))
            json = true;
        else if (cli_opt_flag(a, "--dump-raw"))
            dump_raw = true;
        else if (cli_opt_flag(a, "--dump"))
            dump = true;
        else if (cli_opt_flag(a, "--raw"))
            raw = true;
        else if (cli_opt_value(a, "--dot", &v, &bad))
            dot = v;
        else if (cli_opt_value(a, "--focus", &v, &bad))
            focus = v;
        else if (cli_opt_value(a, "--depth", &v, &bad)) {
            if (!cli_parse_u64(a->cmd, "--depth", v, &depth))
                return CLI_USAGE;
        } else if (bad)
            return CLI_USAGE;
        else if (cli_take_game(a, &path) != CLI_OK)
            return CLI_USAGE;
    }
    if (bad)
        return CLI_USAGE;
    if (!path)
        return cli_usage_error(a->cmd, "give a game file");
    if (focus && !dot)
        return cli_usage_error(a->cmd, "--focus draws a cone: give --dot FILE too");
    if (depth > UINT32_MAX - 1)
        depth = UINT32_MAX - 1;
    if (!stats && !json && !dump_raw && !dump && !dot)
        stats = true;
    if (dot && strcmp(dot, "-") != 0 && cli_output_check(a->cmd, dot, &path, 1) != CLI_OK)
        return CLI_USAGE;

    Front f;
    int rc = cli_load_game(path, &f, false);
    if (rc != CLI_OK) {
        front_free(&f);
        return rc;
    }
    GtStore store;
    gt_init(&store, &f.syms);
    Propnet pn;
    GroundStats gs;
    char *err = NULL;
    double t0 = gdl_now();
    bool ok = cp_propnet(&f.ir, &lim, &store, PN_OPT_CONDENSE, &pn, &gs, &err);
    double t1 = gdl_now();
    if (!ok) {
        fprintf(stderr, "gdlc %s: %s: %s\n", a->cmd, path, err);
        free(err);
        gt_free(&store);
        front_free(&f);
        return CLI_FAULT;
    }
    Sizes before = sizes(&pn);
    if (dump_raw)
        pn_dump(stdout, &pn);
    rc = CLI_OK;
    /* the cone is looked up in the network drawn */
    uint32_t focus_comp = PN_NONE;
    if (dot && raw && focus && (focus_comp = focus_of(a->cmd, &f, &pn, focus)) == PN_NONE)
        rc = CLI_FAULT;
    if (dot && raw && rc == CLI_OK)
        rc = draw(a->cmd, path, dot, &pn, focus_comp, (uint32_t)depth);
    pn_optimise(&pn, PN_OPT_ENGINE);
    double t2 = gdl_now();
    Sizes after = sizes(&pn);
    if (dump)
        pn_dump(stdout, &pn);
    uint32_t legals, goals, cyclic = 0, largest = 0;
    counts(&pn, &legals, &goals);
    {
        U32Vec comps = {0}, at = {0};
        uint32_t n = pn_sccs(&pn, &comps, &at);
        for (uint32_t s = 0; s < n; s++) {
            uint32_t size = at.v[s + 1] - at.v[s];
            const PnComp *x = &pn.comps.v[comps.v[at.v[s]]];
            bool self = false;
            for (uint32_t i = 0; size == 1 && i < x->nin; i++)
                self |= pn.in.v[x->in_at + i] == comps.v[at.v[s]];
            if (size > 1 || self) {
                cyclic++;
                largest = size > largest ? size : largest;
            }
        }
        vec_free(comps);
        vec_free(at);
    }
    if (stats) {
        printf("game:      %s\n", path);
        print_sizes("raw:", &before);
        print_sizes("optimised:", &after);
        printf("marks:     %u bases, %u inputs, %u legals, %u goals, %u roles\n", pn.base.n, pn.inputs.n,
               legals, goals, pn.roles.n);
        printf("cycles:    %u cyclic components, the largest of %u\n", cyclic, largest);
        for (uint32_t i = 0; i < pn.passes.n; i++)
            printf("pass:      %-22s removed %lld components, %lld links\n", pn.passes.v[i].name,
                   (long long)pn.passes.v[i].comps_removed, (long long)pn.passes.v[i].links_removed);
        if (gs.rules)
            printf("ground:    %llu atoms, %llu rules, %llu links, %llu static facts\n", (unsigned long long)gs.atoms,
                   (unsigned long long)gs.rules, (unsigned long long)gs.links, (unsigned long long)gs.static_facts);
        printf("time:      ground and build %.3f s, optimise %.3f s\n", t1 - t0, t2 - t1);
    }
    if (json) {
        printf("{\"game\":");
        json_string(path);
        putchar(',');
        json_sizes("raw", &before);
        putchar(',');
        json_sizes("optimised", &after);
        printf(",\"roles\":%u,\"bases\":%u,\"inputs\":%u,\"legals\":%u,\"goals\":%u,\"cyclic_sccs\":%u,"
               "\"largest_scc\":%u,\"passes\":[",
               pn.roles.n, pn.base.n, pn.inputs.n, legals, goals, cyclic, largest);
        for (uint32_t i = 0; i < pn.passes.n; i++) {
            printf("%s{\"name\":", i ? "," : "");
            json_string(pn.passes.v[i].name);
            printf(",\"components_removed\":%lld,\"links_removed\":%lld}", (long long)pn.passes.v[i].comps_removed,
                   (long long)pn.passes.v[i].links_removed);
        }
        printf("],\"ground\":{\"atoms\":%llu,\"rules\":%llu,\"links\":%llu,\"static_facts\":%llu}",
               (unsigned long long)gs.atoms, (unsigned long long)gs.rules, (unsigned long long)gs.links,
               (unsigned long long)gs.static_facts);
        printf(",\"build_seconds\":%.6f,\"optimise_seconds\":%.6f}\n", t1 - t0, t2 - t1);
    }
    if (dot && !raw && rc == CLI_OK) {
        if (focus && (focus_comp = focus_of(a->cmd, &f, &pn, focus)) == PN_NONE)
            rc = CLI_FAULT;
        else
            rc = draw(a->cmd, path, dot, &pn, focus_comp, (uint32_t)depth);
    }
    pn_free(&pn);
    gt_free(&store);
    front_free(&f);
    return rc;
}

const CliCommand cli_propnet = {
    "propnet",
    "build a game's propositional network: sizes, optimisations, dumps, Graphviz",
    "usage: gdlc propnet GAME.kif [--stats] [--json] [--dump-raw] [--dump]\n"
    "                     [--dot FILE [--raw] [--focus SENTENCE] [--depth N]]\n"
    "                     [--max-atoms N] [--max-rules N] [--max-links N]\n"
    "\n"
    "Grounds the game (unless it has no variables; its rules condensed\n"
    "first: a rule whose literals split into parts joined by few variables\n"
    "becomes two, the part's rule defining a new relation HEAD#N, whose\n"
    "gates are named by it: gdlc check --dump=condensed), then builds its\n"
    "propositional network (constants, base propositions (true F), inputs\n"
    "(does R M), AND, OR and NOT gates, transitions to (next F), the legal,\n"
    "goal and terminal propositions marked), then optimises it:\n"
    "constant propagation, removal of what reaches nothing the state machine\n"
    "reads, collapsing of gates of one input, structural hashing of identical\n"
    "gates, base propositions that can never change made constant, factoring\n"
    "(an OR of ANDs that share an input a becomes AND(a, OR of the rests)),\n"
    "and input complement (an OR of most of a role's moves becomes the NOT of\n"
    "the OR of the others; moves never legal are false), to a fixpoint. This\n"
    "is engine pn's network: the input complement holds only where exactly\n"
    "one legal move per role is played, as the engine does; the analyses and\n"
    "check --dump=pn use neither it nor factoring. Every component that\n"
    "computes a sentence is named by it as written in GDL: (true (cell 1 1\n"
    "x)), (does xplayer noop), (legal xplayer noop), (next (cell 1 1 x)),\n"
    "(goal xplayer 100), terminal; a component that optimising merged into\n"
    "another named one keeps its sentence as an alias (the 'alias' lines of\n"
    "--dump), which --focus finds too.\n"
    "\n"
    "  --stats          (the default) components by kind and links, raw and\n"
    "                   optimised; bases, inputs, legals, goals; what each\n"
    "                   optimisation removed; the cycles left; the grounder's\n"
    "                   counts; build and optimisation seconds\n"
    "  --json           the same as one JSON object on one line, keys:\n"
    "                     game (the path), raw and optimised (each {components,\n"
    "                     links, kinds: {const, base, input, and, or, not}}),\n"
    "                     roles, bases, inputs, legals, goals (optimised counts),\n"
    "                     cyclic_sccs and largest_scc (strongly connected\n"
    "                     components with a cycle, in the optimised network),\n"
    "                     passes ([{name, components_removed, links_removed}], in\n"
    "                     the order they first ran), ground ({atoms, rules, links,\n"
    "                     static_facts}: the grounder's counts, all 0 for a game\n"
    "                     without variables), build_seconds (grounding and\n"
    "                     building), optimise_seconds\n"
    "  --dump-raw       the network as built, one component a line (the text\n"
    "                   form documented in middle/propnet.h)\n"
    "  --dump           the optimised network, the same form\n"
    "  --dot FILE       Graphviz DOT of the optimised network ('-': standard\n"
    "                   output), one colour and shape per kind: constants grey,\n"
    "                   bases blue, inputs green, AND orange, OR yellow, NOT red;\n"
    "                   dashed arrows are transitions (next to base). Meant for\n"
    "                   small games; render with: dot -Tsvg FILE -o net.svg\n"
    "  --raw            draw the network as built instead\n"
    "  --focus SENTENCE draw only the cone of components feeding the one named\n"
    "                   SENTENCE (e.g. '(legal xplayer noop)'), up to --depth\n"
    "                   levels upstream (default 2)\n"
    "  --max-atoms N, --max-rules N, --max-links N\n"
    "                   the grounder's budgets (see gdlc help check); a game\n"
    "                   past one stops with a message naming the relation\n"
    "\n"
    "exit status: 0 success; 1 the game is rejected, grounds past a budget,\n"
    "cannot be built, or no component has the --focus name; 2 usage error or\n"
    "unreadable file\n",
    propnet_run,
};
