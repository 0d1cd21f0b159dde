/*
 * cli.c: helpers shared by the commands, and gdlc check.
 *
 * Output files go through cli_output_open (or cli_output_check for a file
 * written elsewhere and renamed into place), so that no command can destroy
 * its own input or write into a device: the target is looked at with stat
 * before it is opened (opening a fifo would block), opened without
 * truncation, looked at again with fstat (the path may have changed in
 * between), and only then emptied. Sameness is by device and inode, never by
 * comparing path strings. Every write is checked at the close; main checks
 * standard output once, at exit.
 */
#include "cli.h"

#include "../include/gdl.h"
#include "../runtime/pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gdlc %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see 'gdlc help %s')\n", cmd);
    va_end(ap);
    return CLI_USAGE;
}

int cli_take_game(CliArgs *a, const char **path)
{
    const char *arg = a->argv[a->i];
    if (arg[0] == '-' && arg[1])
        return cli_usage_error(a->cmd, "unknown option '%s'", arg);
    if (*path)
        return cli_usage_error(a->cmd, "give one game file");
    *path = arg;
    a->i++;
    return CLI_OK;
}

bool cli_opt_flag(CliArgs *a, const char *name)
{
    if (a->i < a->argc && strcmp(a->argv[a->i], name) == 0) {
        a->i++;
        return true;
    }
    return false;
}

bool cli_opt_value(CliArgs *a, const char *name, const char **value, bool *bad)
{
    if (a->i >= a->argc)
        return false;
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        a->i++;
        return true;
    }
    if (arg[n] != 0)
        return false;
    if (a->i + 1 >= a->argc) {
        cli_usage_error(a->cmd, "%s needs a value", name);
        *bad = true;
        a->i++;
        return true;
    }
    *value = a->argv[a->i + 1];
    a->i += 2;
    return true;
}

bool cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    /* digits only: strtoull alone takes " 5" and "+5", and wraps " -3" round */
    if (!(*s >= '0' && *s <= '9')) {
        cli_usage_error(cmd, "%s takes a whole number, not '%s'", opt, s);
        return false;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) {
        cli_usage_error(cmd, "%s takes a whole number, not '%s'", opt, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_double(const char *cmd, const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !((*s >= '0' && *s <= '9') || *s == '.') || !(v >= 0) || v > 1e9) {
        cli_usage_error(cmd, "%s takes a non-negative number, not '%s'", opt, s);
        return false;
    }
    *out = v;
    return true;
}

/* What a file that is not a regular file is, for messages. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a fifo";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* The output rule for a target whose stat is st. */
static int output_allowed(const char *cmd, const char *out, const struct stat *st, const char *const *inputs,
                          size_t ninputs)
{
    if (!S_ISREG(st->st_mode)) {
        fprintf(stderr, "gdlc %s: will not write %s: it is %s (outputs must be regular files; use standard "
                        "output for anything else)\n",
                cmd, out, file_kind(st->st_mode));
        return CLI_USAGE;
    }
    for (size_t i = 0; i < ninputs; i++) {
        struct stat in;
        if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino) {
            fprintf(stderr, "gdlc %s: will not write %s: it is the input file %s\n", cmd, out, inputs[i]);
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

int cli_output_check(const char *cmd, const char *out, const char *const *inputs, size_t ninputs)
{
    struct stat st;
    if (stat(out, &st) != 0)
        return CLI_OK; /* made new; a missing folder is reported when writing */
    return output_allowed(cmd, out, &st, inputs, ninputs);
}

size_t cli_inputs(const char *game, const char *engine, const char **inputs)
{
    inputs[0] = game;
    inputs[1] = engine && strncmp(engine, "so:", 3) == 0 ? engine + 3 : NULL;
    return inputs[1] ? 2 : 1;
}

FILE *cli_output_open(const char *cmd, const char *out, const char *const *inputs, size_t ninputs)
{
    if (cli_output_check(cmd, out, inputs, ninputs) != CLI_OK)
        return NULL;
    int fd = open(out, O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(stderr, "gdlc %s: cannot write %s: %s\n", cmd, out, strerror(errno));
        return NULL;
    }
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || output_allowed(cmd, out, &st, inputs, ninputs) != CLI_OK) {
        close(fd);
        return NULL;
    }
    if (ftruncate(fd, 0) != 0 || fcntl(fd, F_SETFL, 0) != 0 || !(f = fdopen(fd, "w"))) {
        fprintf(stderr, "gdlc %s: cannot write %s: %s\n", cmd, out, strerror(errno));
        close(fd);
        return NULL;
    }
    return f;
}

int cli_output_close(const char *cmd, FILE *f, const char *out)
{
    errno = 0;
    bool ok = fflush(f) == 0 && !ferror(f);
    int e = errno;
    if (f != stdout) {
        ok = fclose(f) == 0 && ok;
        if (!e)
            e = errno;
    }
    if (ok)
        return CLI_OK;
    fprintf(stderr, "gdlc %s: cannot write %s: %s\n", cmd, out ? out : "standard output",
            e ? strerror(e) : "a write failed");
    return CLI_USAGE;
}

int cli_open_game(const char *path, GdlGame **game, char **why)
{
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_file(path, game, &d);
    if (st == GDL_IO_ERROR) {
        /* the loader's one diagnostic says why */
        const GdlDiagnostic *e = gdl_diagnostics_get(d, 0);
        fprintf(stderr, "gdlc: %s\n", e ? e->message : "cannot read the game");
        if (why)
            *why = e ? base_xstrdup(e->message) : base_sprintf("cannot read %s", path);
        gdl_diagnostics_free(d);
        return CLI_USAGE;
    }
    gdl_diagnostics_print(stderr, d, false);
    if (why && st != GDL_OK) {
        *why = NULL;
        for (size_t i = 0; i < gdl_diagnostics_count(d) && !*why; i++) {
            const GdlDiagnostic *e = gdl_diagnostics_get(d, i);
            if (e->severity == GDL_SEVERITY_ERROR)
                *why = base_sprintf("%s:%u:%u: error: %s", e->file, e->line, e->col, e->message);
        }
        if (!*why)
            *why = base_sprintf("%s: %s", path, gdl_status_name(st));
    }
    gdl_diagnostics_free(d);
    return st == GDL_OK ? CLI_OK : CLI_FAULT;
}

const char *cli_engine_hint(GdlStatus st) { return st == GDL_NO_ENGINE ? "; see 'gdlc help engines'" : ""; }

int cli_open_machine(const char *cmd, const char *path, const char *engine, GdlGame **game, GdlMachine **m,
                     char **why)
{
    *m = NULL;
    int rc = cli_open_game(path, game, why);
    if (rc != CLI_OK)
        return rc;
    GdlStatus st = gdl_machine_new(*game, engine, m);
    if (st == GDL_OK)
        return CLI_OK;
    const char *reason = gdl_game_error(*game), *hint = cli_engine_hint(st);
    if (cmd)
        fprintf(stderr, "gdlc %s: %s%s\n", cmd, reason, hint);
    else
        fprintf(stderr, "gdlc: %s%s\n", reason, hint);
    if (why)
        *why = base_sprintf("%s%s", reason, hint);
    gdl_game_free(*game);
    *game = NULL;
    /* no such engine, or an so: object that cannot be read: exit 2 */
    return st == GDL_NO_ENGINE || st == GDL_IO_ERROR ? CLI_USAGE : CLI_FAULT;
}

int cli_load_game(const char *path, Front *f, bool show_warnings)
{
    char *err = NULL;
    bool ok = front_run_file(f, path, &err);
    if (err) {
        fprintf(stderr, "gdlc: %s\n", err);
        free(err);
        return CLI_USAGE;
    }
    diag_print(stderr, &f->diags, show_warnings);
    return ok ? CLI_OK : CLI_FAULT;
}

int cli_opt_budget(CliArgs *a, GroundLimits *lim)
{
    const char *budget = NULL, *opt;
    bool bad = false;
    if (!((opt = "max-atoms", cli_opt_value(a, "--max-atoms", &budget, &bad)) ||
          (opt = "max-rules", cli_opt_value(a, "--max-rules", &budget, &bad)) ||
          (opt = "max-links", cli_opt_value(a, "--max-links", &budget, &bad))))
        return -1;
    if (bad)
        return CLI_USAGE;
    char *spec = base_sprintf("%s=%s", opt, budget), *err = NULL;
    bool ok = !strchr(budget, ',') && ground_limits_parse(spec, lim, &err);
    if (!ok && !err)
        err = base_sprintf("%s takes a positive whole number, not '%s'", opt, budget);
    free(spec);
    if (ok)
        return CLI_OK;
    int rc = cli_usage_error(a->cmd, "--%s", err);
    free(err);
    return rc;
}

const CliDump *cli_dump_find(const char *cmd, const CliDump *table, size_t n, const char *value)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, value) == 0)
            return &table[i];
    StrBuf names = {0};
    strbuf_add(&names, "");
    for (size_t i = 0; i < n; i++)
        strbuf_addf(&names, "%s'%s'", i == 0 ? "" : i + 1 < n ? ", " : " or ", table[i].name);
    cli_usage_error(cmd, "--dump takes %s, not '%s'", names.s, value);
    free(names.s);
    return NULL;
}

/* ---- gdlc check ------------------------------------------------------ */

static int dump_ast(FILE *out, const Front *f, const CliDumpCtx *ctx)
{
    (void)ctx;
    ast_dump(out, &f->ast, f->src);
    return CLI_OK;
}

static int dump_ir(FILE *out, const Front *f, const CliDumpCtx *ctx)
{
    (void)ctx;
    ir_dump(out, &f->ir);
    return CLI_OK;
}

/* The program as condensed for engine pn's grounding: its rules, the split
 * ones and the new relations' (ground.h). */
static int dump_condensed(FILE *out, const Front *f, const CliDumpCtx *ctx)
{
    /* the new relations' names go to the game's symbols (check owns the Front) */
    Ir c;
    char *err = NULL;
    if (ground_condense(&f->ir, &ctx->lim, (Symtab *)&f->syms, false, &c, &err) != GROUND_OK) {
        fprintf(stderr, "%s: %s\n", ctx->path, err);
        free(err);
        return CLI_FAULT;
    }
    const Ir *p = c.rules.n ? &c : &f->ir;
    for (uint32_t r = 0; r < p->rules.n; r++) {
        ir_print_rule(out, p, r);
        fputc('\n', out);
    }
    ir_free(&c);
    return CLI_OK;
}

static int dump_ground(FILE *out, const Front *f, const CliDumpCtx *ctx)
{
    Ir g;
    GroundStats gs;
    char *err = NULL;
    double g0 = gdl_now();
    if (ground_run(&f->ir, &ctx->lim, &g, &gs, &err) != GROUND_OK) {
        fprintf(stderr, "%s: %s\n", ctx->path, err);
        free(err);
        return CLI_FAULT;
    }
    double g1 = gdl_now();
    ground_dump(out, &g);
    if (ctx->timing)
        fprintf(out, "%s: grounded in %.3f ms: %llu atoms, %llu rules (%llu static facts), %llu links\n", ctx->path,
                (g1 - g0) * 1e3, (unsigned long long)gs.atoms, (unsigned long long)gs.rules,
                (unsigned long long)gs.static_facts, (unsigned long long)gs.links);
    ir_free(&g);
    return CLI_OK;
}

/* The propnet as built (opts 0) or optimised. */
static int dump_pn(FILE *out, const Front *f, const CliDumpCtx *ctx, unsigned opts)
{
    /* the network's names share the game's symbols (check owns the Front) */
    GtStore store;
    gt_init(&store, (Symtab *)&f->syms);
    Propnet pn;
    char *err = NULL;
    int rc = CLI_OK;
    double t0 = gdl_now();
    if (!cp_propnet(&f->ir, &ctx->lim, &store, opts, &pn, NULL, &err)) {
        fprintf(stderr, "%s: %s\n", ctx->path, err);
        free(err);
        rc = CLI_FAULT;
    } else {
        double t1 = gdl_now();
        pn_dump(out, &pn);
        if (ctx->timing)
            fprintf(out, "%s: propnet made in %.3f ms: %u components, %llu links\n", ctx->path, (t1 - t0) * 1e3,
                    pn.comps.n, (unsigned long long)pn_links(&pn));
        pn_free(&pn);
    }
    gt_free(&store);
    return rc;
}

static int dump_pn_raw(FILE *out, const Front *f, const CliDumpCtx *ctx) { return dump_pn(out, f, ctx, 0); }
static int dump_pn_opt(FILE *out, const Front *f, const CliDumpCtx *ctx) { return dump_pn(out, f, ctx, PN_OPT_ALL); }

/* What gdlc check --dump prints: a stage, once the game reached it. */
static const CliDump check_dumps[] = {
    {"ast", FRONT_AST, dump_ast},
    {"ir", FRONT_IR, dump_ir},
    {"condensed", FRONT_IR, dump_condensed},
    {"ground", FRONT_IR, dump_ground},
    {"pn-raw", FRONT_IR, dump_pn_raw},
    {"pn", FRONT_IR, dump_pn_opt},
};

static int check_run(CliArgs *a)
{
    const char *value = NULL;
    const CliDump *dump = NULL;
    int rc;
    bool warnings = true, quiet = false, bad = false, timing = false;
    CliDumpCtx ctx = {0};
    U32Vec files = {0};
    while (a->i < a->argc) {
        const char *arg = a->argv[a->i];
        if (cli_opt_value(a, "--dump", &value, &bad)) {
            if (bad)
                return CLI_USAGE;
            if (!(dump = cli_dump_find(a->cmd, check_dumps, sizeof check_dumps / sizeof *check_dumps, value))) {
                vec_free(files);
                return CLI_USAGE;
            }
        } else if ((rc = cli_opt_budget(a, &ctx.lim)) >= 0) {
            if (rc != CLI_OK) {
                vec_free(files);
                return rc;
            }
        } else if (cli_opt_flag(a, "-w") || cli_opt_flag(a, "--no-warnings")) {
            warnings = false;
        } else if (cli_opt_flag(a, "-q") || cli_opt_flag(a, "--quiet")) {
            quiet = true;
        } else if (cli_opt_flag(a, "--time")) {
            timing = true;
        } else if (arg[0] == '-' && arg[1]) {
            vec_free(files);
            return cli_usage_error(a->cmd, "unknown option '%s'", arg);
        } else {
            vec_push(files, (uint32_t)a->i);
            a->i++;
        }
    }
    if (!files.n)
        return cli_usage_error(a->cmd, "no game file given");
    int status = CLI_OK;
    for (uint32_t k = 0; k < files.n; k++) {
        const char *path = a->argv[files.v[k]];
        Front f;
        double t0 = gdl_now();
        int st = cli_load_game(path, &f, warnings);
        double t1 = gdl_now();
        if (timing && st != CLI_USAGE)
            printf("%s: read, validated and lowered in %.3f ms (%zu bytes)\n", path, (t1 - t0) * 1e3, f.src->len);
        if (st == CLI_USAGE) {
            status = CLI_USAGE;
            continue;
        }
        ctx.path = path;
        ctx.timing = timing;
        if (dump && f.stage >= dump->stage && dump->print(stdout, &f, &ctx) != CLI_OK) {
            /* the game is accepted but a later stage refused it (a budget):
             * its message is the whole answer */
            status = CLI_FAULT;
            front_free(&f);
            continue;
        }
        if (st == CLI_OK) {
            uint32_t nrec = 0;
            for (uint32_t s = 0; s < f.ir.sccs.n; s++)
                nrec += f.ir.sccs.v[s].recursive;
            if (!quiet)
                printf("%s: ok: %u role%s, %u relations, %u rules, %u strat%s, %u recursive component%s, "
                       "%u warning%s\n",
                       path, f.ir.roles.n, f.ir.roles.n == 1 ? "" : "s", f.ir.rels.n, f.ir.rules.n, f.ir.nstrata,
                       f.ir.nstrata == 1 ? "um" : "a", nrec, nrec == 1 ? "" : "s", f.diags.nwarnings,
                       f.diags.nwarnings == 1 ? "" : "s");
        } else {
            printf("%s: rejected: %u error%s\n", path, f.diags.nerrors, f.diags.nerrors == 1 ? "" : "s");
            if (status == CLI_OK)
                status = CLI_FAULT;
        }
        front_free(&f);
    }
    vec_free(files);
    return status;
}

const CliCommand cli_check = {
    "check",
    "parse and validate games, print diagnostics and a summary",
    "usage: gdlc check [options] GAME.kif...\n"
    "\n"
    "Reads each game, validates it and prints its diagnostics (FILE:LINE:COL:\n"
    "error|warning: message, with the source line and a caret) to stderr, then\n"
    "one summary line per game to stdout: roles, relations, rules, strata and\n"
    "recursive components.\n"
    "\n"
    "options:\n"
    "  --dump=ast        print the abstract syntax tree of each accepted stage\n"
    "  --dump=ir         print the intermediate representation: relations,\n"
    "                    rules after `or` expansion, components and strata\n"
    "  --dump=condensed  print the rules as grounded for the propositional\n"
    "                    network: a rule whose literals split into parts\n"
    "                    joined by few variables becomes two, the part's\n"
    "                    rule defining a new relation HEAD#N (see ground.h)\n"
    "  --dump=ground     print the ground program of each accepted game: a line\n"
    "                    'roles: ...', then one rule a line, by head relation\n"
    "                    and then by text; facts of the static relations\n"
    "                    (init, role, tables) and one rule per instance over the\n"
    "                    reachable domain. A game past a budget: a message\n"
    "                    naming the relation that grew, and exit status 1\n"
    "  --dump=pn-raw     print the propositional network as built from the\n"
    "                    ground program (the analyses' network, from the rules\n"
    "                    as written; engine pn's, from the condensed rules, is\n"
    "                    gdlc propnet's), --dump=pn after its optimisations: one\n"
    "                    component a line, then the marks (format: gdlc help\n"
    "                    propnet and middle/propnet.h)\n"
    "  --max-atoms N, --max-rules N, --max-links N\n"
    "                    the grounding budgets (defaults 4000000, 4000000 and\n"
    "                    16000000): atoms of the domain, ground rules (facts\n"
    "                    not counted), body literals of the ground rules\n"
    "  -w, --no-warnings do not print warnings\n"
    "  -q, --quiet       no summary line for accepted games\n"
    "  --time            print how long the front end took for each game (and\n"
    "                    the grounder, with the sizes, under --dump=ground)\n"
    "\n"
    "exit status: 0 all games accepted, 1 a game rejected, 2 usage error or\n"
    "unreadable file.\n",
    check_run,
};

/* ---- one-line fields ----------------------------------------------------- */

void cli_put_line_field(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\')
            fputs("\\\\", f);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
}

/* ---- --state ------------------------------------------------------------ */

/* The edit distance of a and b, bytes, past limit counted as limit + 1:
 * two rows of the table, rows[0, 2 * (strlen(b) + 1)) (a length past
 * limit from a's is never tried). */
static size_t edit_distance(const char *a, const char *b, size_t limit, size_t *rows)
{
    size_t na = strlen(a), nb = strlen(b);
    if ((na > nb ? na - nb : nb - na) > limit)
        return limit + 1;
    size_t *prev = rows, *cur = rows + nb + 1;
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    size_t row_min = 0;
    for (size_t i = 1; i <= na && row_min <= limit; i++) {
        cur[0] = row_min = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            cur[j] = d;
            if (d < row_min)
                row_min = d;
        }
        size_t *t = prev;
        prev = cur, cur = t;
    }
    size_t d = row_min > limit ? limit + 1 : prev[nb];
    return d > limit ? limit + 1 : d;
}

static int cmp_move(const void *a, const void *b)
{
    GdlMove x = *(const GdlMove *)a, y = *(const GdlMove *)b;
    return x < y ? -1 : x > y;
}

int cli_read_state(const char *cmd, GdlMachine *m, const char *text, GdlState **out)
{
    *out = NULL;
    size_t len = strlen(text);
    Source *src = source_new("--state", base_xstrndup(text, len), len);
    Symtab syms;
    symtab_init(&syms);
    DiagList d;
    diag_init(&d, src);
    KifDoc doc = {0};
    int rc = CLI_FAULT;
    if (!kif_read(src, &syms, &d, &doc))
        goto print;
    /* every fact must be one of the game's base propositions (a superset
     * of the facts it can ever hold): a typo would give another state */
    const GdlFact *props = NULL;
    size_t nprops = 0;
    GdlFact *sorted = NULL;
    GdlStatus st = gdl_machine_base_propositions(m, CLI_STATE_MAX_PROPS, &props, &nprops);
    if (st == GDL_OK) {
        sorted = base_xmalloc((nprops ? nprops : 1) * sizeof *sorted);
        memcpy(sorted, props, nprops * sizeof *sorted);
        qsort(sorted, nprops, sizeof *sorted, cmp_move);
    } else {
        fprintf(stderr, "gdlc %s: --state: its facts are not checked against the game's base propositions (%s: %s)\n",
                cmd, gdl_status_name(st), gdl_machine_error(m));
    }
    for (uint32_t i = 0; sorted && i < doc.tops.n && !diag_too_many(&d); i++) {
        const KifNode *node = &doc.nodes.v[doc.tops.v[i]];
        char *fact = NULL;
        size_t flen = 0;
        FILE *f = open_memstream(&fact, &flen);
        if (!f) {
            diag_error(&d, node->off, "out of memory");
            break;
        }
        kif_print(f, &doc, &syms, doc.tops.v[i]);
        fclose(f);
        GdlFact mv;
        if (gdl_fact_parse(m, fact, &mv) != GDL_OK) {
            diag_error(&d, node->off, "%s", gdl_machine_error(m));
        } else if (!bsearch(&mv, sorted, nprops, sizeof *sorted, cmp_move)) {
            /* the nearest base proposition by edit distance, to name the typo */
            size_t flen_ = strlen(fact), best = (size_t)-1, bestd = (flen_ / 2 > 2 ? flen_ / 2 : 2) + 1;
            if (bestd > 64)
                bestd = 64;
            /* candidates are at most flen_ + 63 bytes long (else too far) */
            size_t *rows = base_xmalloc(2 * (flen_ + 64) * sizeof *rows);
            for (size_t k = 0; k < nprops; k++) {
                size_t dk = edit_distance(fact, gdl_fact_text(m, sorted[k]), bestd - 1, rows);
                if (dk < bestd)
                    bestd = dk, best = k;
            }
            free(rows);
            if (best != (size_t)-1)
                diag_error(&d, node->off, "%s is not a fact the game can hold (none of its %zu base propositions); "
                           "the nearest is %s", fact, nprops, gdl_fact_text(m, sorted[best]));
            else
                diag_error(&d, node->off, "%s is not a fact the game can hold (none of its %zu base propositions)",
                           fact, nprops);
        }
        free(fact);
    }
    free(sorted);
    if (d.nerrors > 0)
        goto print;
    if (gdl_state_parse(m, text, out) != GDL_OK) {
        fprintf(stderr, "gdlc %s: --state: %s\n", cmd, gdl_machine_error(m));
        goto done;
    }
    rc = CLI_OK;
    goto done;
print:
    diag_sort(&d);
    diag_print(stderr, &d, false);
done:
    kif_doc_free(&doc);
    diag_free(&d);
    symtab_free(&syms);
    source_free(src);
    return rc;
}
