/*
 * _gdlc.c: the Python extension of gdlc, over libgdl's public API
 * (include/gdl.h), built without libtcc (python/setup.py).
 *
 * Three types, which gdlc/__init__.py wraps into the OpenSpiel and
 * PettingZoo shapes:
 *   Game   a loaded game and one machine of it; the roles' input moves
 *          (action ids are indexes into them) and the base propositions
 *          (observation columns), with maps from the machine's ids back.
 *   State  a state of a Game's machine, mutable as OpenSpiel's states are
 *          (apply_actions replaces it in place); it holds its Game.
 *   Batch  issue 39's batched engine over a machine of its own, stepped
 *          by numpy arrays of lanes.
 *
 * Locking: the calls of a Game and its States keep the GIL (they are
 * short), so the GIL alone orders them. A Game is made, and a Batch is
 * made and stepped, with the GIL released; a Batch has a lock of its own,
 * taken around every call, since another thread may call it meanwhile.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdl.h"

static PyObject *GdlError; /* gdlc.GdlError */

/* ---- a map from a machine's ids to indexes ---------------------------- */

typedef struct IdMap {
    uint32_t cap; /* a power of two */
    uint32_t *key;
    int32_t *val;
} IdMap;

static int idmap_init(IdMap *t, const uint32_t *ids, size_t n)
{
    t->cap = 16;
    while (t->cap < 2 * n + 2)
        t->cap *= 2;
    t->key = malloc(t->cap * sizeof *t->key);
    t->val = malloc(t->cap * sizeof *t->val);
    if (!t->key || !t->val)
        return -1;
    memset(t->key, 0xff, t->cap * sizeof *t->key);
    for (size_t i = 0; i < n; i++) {
        uint32_t j = (ids[i] * 2654435761u) & (t->cap - 1);
        while (t->key[j] != UINT32_MAX && t->key[j] != ids[i])
            j = (j + 1) & (t->cap - 1);
        t->key[j] = ids[i];
        t->val[j] = (int32_t)i;
    }
    return 0;
}

/* The index of id, or -1. */
static inline int32_t idmap_get(const IdMap *t, uint32_t id)
{
    for (uint32_t j = (id * 2654435761u) & (t->cap - 1); t->key[j] != UINT32_MAX; j = (j + 1) & (t->cap - 1))
        if (t->key[j] == id)
            return t->val[j];
    return -1;
}

static void idmap_free(IdMap *t)
{
    free(t->key);
    free(t->val);
    t->key = NULL;
    t->val = NULL;
}

/* ---- errors ------------------------------------------------------------- */

/* A str of text from a game (symbols may hold any bytes): UTF-8, with
 * what is not UTF-8 replaced. */
static PyObject *str_of(const char *t) { return PyUnicode_DecodeUTF8(t, (Py_ssize_t)strlen(t), "replace"); }

/* Raises the exception of status st with message msg: ValueError for a bad
 * argument, MemoryError, else gdlc.GdlError (its status name in .status).
 * Returns NULL. */
static PyObject *raise_status(GdlStatus st, const char *msg)
{
    if (st == GDL_BAD_ARGUMENT) {
        PyObject *text = str_of(msg && *msg ? msg : "bad argument");
        if (text) {
            PyErr_SetObject(PyExc_ValueError, text);
            Py_DECREF(text);
        }
        return NULL;
    }
    if (st == GDL_OUT_OF_MEMORY)
        return PyErr_NoMemory();
    PyObject *text = str_of(msg && *msg ? msg : gdl_status_name(st));
    PyObject *e = text ? PyObject_CallOneArg(GdlError, text) : NULL;
    Py_XDECREF(text);
    if (e) {
        PyObject *name = PyUnicode_FromString(gdl_status_name(st));
        if (name)
            PyObject_SetAttrString(e, "status", name);
        Py_XDECREF(name);
        PyErr_SetObject(GdlError, e);
        Py_DECREF(e);
    }
    return NULL;
}

/* ---- Game ---------------------------------------------------------------- */

typedef struct GameObject {
    PyObject_HEAD GdlGame *game;
    GdlMachine *m;
    unsigned nroles;
    PyObject *roles;     /* tuple of str */
    GdlMove **inputs;    /* per role, its input moves (the action ids' moves) */
    size_t *ninputs;
    size_t max_inputs;
    IdMap *move_map;     /* per role: move id -> action id */
    GdlFact *bases;      /* the base propositions, canonical order */
    size_t nbases;
    IdMap fact_map;      /* fact id -> column */
    GdlMove *joint;      /* nroles, scratch */
    int *goals;          /* nroles, scratch */
    GdlState *initial;
    PyObject *spell;     /* folded symbol -> the rules' first spelling, where they differ (NULL: none) */
} GameObject;

static PyTypeObject GameType, StateType, BatchType;

static void game_dealloc(GameObject *g)
{
    gdl_state_free(g->initial);
    for (unsigned k = 0; g->inputs && k < g->nroles; k++)
        free(g->inputs[k]);
    for (unsigned k = 0; g->move_map && k < g->nroles; k++)
        idmap_free(&g->move_map[k]);
    free(g->inputs);
    free(g->ninputs);
    free(g->move_map);
    free(g->bases);
    idmap_free(&g->fact_map);
    free(g->joint);
    free(g->goals);
    gdl_machine_free(g->m);
    gdl_game_free(g->game);
    Py_XDECREF(g->roles);
    Py_XDECREF(g->spell);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

/* What loading and making a machine did, without the GIL. */
typedef struct Made {
    GdlStatus st;
    GdlDiagnostics *diags;
    char *msg; /* malloc-ed */
} Made;

static char *diag_text(const GdlDiagnostics *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    gdl_diagnostics_print(f, d, false);
    fclose(f);
    while (len && buf[len - 1] == '\n')
        buf[--len] = 0;
    return buf;
}

/* Loads and makes the machine, its tables too; called without the GIL. */
static void game_make(GameObject *g, const char *src, Py_ssize_t srclen, int is_text, const char *name,
                      const char *engine, double timeout, Made *r)
{
    r->st = is_text ? gdl_game_load_string(name, src, (size_t)srclen, &g->game, &r->diags)
                    : gdl_game_load_file(src, &g->game, &r->diags);
    if (r->st != GDL_OK) {
        r->msg = diag_text(r->diags);
        return;
    }
    double deadline = timeout > 0 ? gdl_now() + timeout : 0;
    r->st = gdl_machine_new_until(g->game, engine, deadline, NULL, &g->m);
    if (r->st != GDL_OK) {
        r->msg = strdup(gdl_game_error(g->game));
        return;
    }
    g->nroles = gdl_game_role_count(g->game);
    g->inputs = calloc(g->nroles, sizeof *g->inputs);
    g->ninputs = calloc(g->nroles, sizeof *g->ninputs);
    g->move_map = calloc(g->nroles, sizeof *g->move_map);
    g->joint = calloc(g->nroles + 1, sizeof *g->joint);
    g->goals = calloc(g->nroles + 1, sizeof *g->goals);
    if (!g->inputs || !g->ninputs || !g->move_map || !g->joint || !g->goals) {
        r->st = GDL_OUT_OF_MEMORY;
        return;
    }
    for (unsigned k = 0; k < g->nroles; k++) {
        const GdlMove *mv;
        size_t n;
        if ((r->st = gdl_machine_input_moves(g->m, k, 0, &mv, &n)) != GDL_OK) {
            r->msg = strdup(gdl_machine_error(g->m));
            return;
        }
        g->inputs[k] = malloc((n + 1) * sizeof *mv);
        if (!g->inputs[k] || idmap_init(&g->move_map[k], mv, n) != 0) {
            r->st = GDL_OUT_OF_MEMORY;
            return;
        }
        memcpy(g->inputs[k], mv, n * sizeof *mv);
        g->ninputs[k] = n;
        if (n > g->max_inputs)
            g->max_inputs = n;
    }
    if ((r->st = gdl_state_initial(g->m, &g->initial)) != GDL_OK)
        r->msg = strdup(gdl_machine_error(g->m));
}

/* The diagnostics as a list of (severity, file, line, col, message). */
static PyObject *diag_list(const GdlDiagnostics *d)
{
    static const char *const sev[] = {"error", "warning", "note"};
    size_t n = gdl_diagnostics_count(d);
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        const GdlDiagnostic *x = gdl_diagnostics_get(d, i);
        PyObject *t = Py_BuildValue("(sNIIN)", sev[x->severity], str_of(x->file ? x->file : ""), x->line, x->col,
                                    str_of(x->message ? x->message : ""));
        if (!t) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, t);
    }
    return l;
}

static PyObject *game_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"source", "is_text", "name", "engine", "timeout", NULL};
    const char *src, *name = "<text>", *engine = NULL;
    Py_ssize_t srclen;
    int is_text = 0;
    double timeout = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|pszd", kwlist, &src, &srclen, &is_text, &name, &engine,
                                     &timeout))
        return NULL;
    if (!is_text && strlen(src) != (size_t)srclen)
        return PyErr_Format(PyExc_ValueError, "a path with a NUL byte in it");
    GameObject *g = (GameObject *)type->tp_alloc(type, 0);
    if (!g)
        return NULL;
    Made r = {0};
    Py_BEGIN_ALLOW_THREADS game_make(g, src, srclen, is_text, name, engine, timeout, &r);
    Py_END_ALLOW_THREADS if (r.st != GDL_OK)
    {
        if (r.st == GDL_OUT_OF_MEMORY && !r.msg)
            PyErr_NoMemory();
        else
            raise_status(r.st, r.msg);
        if (r.diags && PyErr_ExceptionMatches(GdlError)) {
            PyObject *et, *ev, *tb;
            PyErr_Fetch(&et, &ev, &tb);
            PyErr_NormalizeException(&et, &ev, &tb);
            PyObject *l = diag_list(r.diags);
            if (l && ev)
                PyObject_SetAttrString(ev, "diagnostics", l);
            Py_XDECREF(l);
            PyErr_Restore(et, ev, tb);
        }
        free(r.msg);
        gdl_diagnostics_free(r.diags);
        Py_DECREF(g);
        return NULL;
    }
    gdl_diagnostics_free(r.diags);
    g->roles = PyTuple_New(g->nroles);
    for (unsigned k = 0; g->roles && k < g->nroles; k++) {
        PyObject *s = str_of(gdl_game_role_name(g->game, k));
        if (!s) {
            Py_DECREF(g);
            return NULL;
        }
        PyTuple_SET_ITEM(g->roles, k, s);
    }
    if (!g->roles) {
        Py_DECREF(g);
        return NULL;
    }
    return (PyObject *)g;
}

static PyObject *machine_error(GameObject *g, GdlStatus st) { return raise_status(st, gdl_machine_error(g->m)); }

/* The base propositions, found when first asked (a game may have more
 * than the domain analysis's limit, and is played all the same): 0, or -1
 * with an exception. */
static int game_bases(GameObject *g)
{
    if (g->bases)
        return 0;
    const GdlFact *f;
    size_t n;
    GdlStatus st = gdl_machine_base_propositions(g->m, 0, &f, &n);
    if (st != GDL_OK) {
        machine_error(g, st);
        return -1;
    }
    GdlFact *copy = malloc((n + 1) * sizeof *f);
    if (!copy || idmap_init(&g->fact_map, f, n) != 0) {
        free(copy);
        idmap_free(&g->fact_map);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(copy, f, n * sizeof *f);
    g->bases = copy;
    g->nbases = n;
    return 0;
}

static int role_arg(GameObject *g, PyObject *o, unsigned *role)
{
    long k = PyLong_AsLong(o);
    if (k == -1 && PyErr_Occurred())
        return -1;
    if (k < 0 || (unsigned long)k >= g->nroles) {
        PyErr_Format(PyExc_ValueError, "no player %ld (the game has %u)", k, g->nroles);
        return -1;
    }
    *role = (unsigned)k;
    return 0;
}

static PyObject *game_num_actions(GameObject *g, PyObject *arg)
{
    unsigned k;
    if (role_arg(g, arg, &k) < 0)
        return NULL;
    return PyLong_FromSize_t(g->ninputs[k]);
}

/* text with every symbol spelled as the rules spell it (g->spell). */
static PyObject *respell(GameObject *g, const char *text)
{
    if (!g->spell || PyDict_GET_SIZE(g->spell) == 0)
        return str_of(text);
    PyObject *parts = PyList_New(0);
    for (const char *p = text; parts && *p;) {
        size_t n = strcspn(p, " ()");
        if (n == 0)
            n = 1;
        PyObject *atom = PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "replace");
        PyObject *as = atom ? PyDict_GetItemWithError(g->spell, atom) : NULL;
        int bad = !atom || (!as && PyErr_Occurred()) || PyList_Append(parts, as ? as : atom) < 0;
        Py_XDECREF(atom);
        if (bad) {
            Py_CLEAR(parts);
            break;
        }
        p += n;
    }
    if (!parts)
        return NULL;
    PyObject *empty = PyUnicode_FromString("");
    PyObject *r = empty ? PyUnicode_Join(empty, parts) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(parts);
    return r;
}

static PyObject *game_set_spelling(GameObject *g, PyObject *arg)
{
    if (!PyDict_Check(arg))
        return PyErr_Format(PyExc_TypeError, "_set_spelling takes a dict");
    Py_INCREF(arg);
    Py_XSETREF(g->spell, arg);
    Py_RETURN_NONE;
}

static PyObject *game_action_to_string(GameObject *g, PyObject *args)
{
    unsigned k;
    PyObject *ko;
    long a;
    if (!PyArg_ParseTuple(args, "Ol", &ko, &a) || role_arg(g, ko, &k) < 0)
        return NULL;
    if (a < 0 || (size_t)a >= g->ninputs[k])
        return PyErr_Format(PyExc_ValueError, "no action %ld of player %u (it has %zu)", a, k, g->ninputs[k]);
    return respell(g, gdl_move_text(g->m, g->inputs[k][a]));
}

static PyObject *game_string_to_action(GameObject *g, PyObject *args)
{
    unsigned k;
    PyObject *ko;
    const char *text;
    if (!PyArg_ParseTuple(args, "Os", &ko, &text) || role_arg(g, ko, &k) < 0)
        return NULL;
    GdlMove mv;
    GdlStatus st = gdl_move_parse(g->m, text, &mv);
    if (st != GDL_OK)
        return machine_error(g, st);
    int32_t a = idmap_get(&g->move_map[k], mv);
    if (a < 0)
        return PyErr_Format(PyExc_ValueError, "%s is not a move of player %u (%U)", text, k,
                            PyTuple_GET_ITEM(g->roles, k));
    return PyLong_FromLong(a);
}

static PyObject *game_base_propositions(GameObject *g, PyObject *unused)
{
    if (game_bases(g) < 0)
        return NULL;
    PyObject *l = PyList_New((Py_ssize_t)g->nbases);
    for (size_t i = 0; l && i < g->nbases; i++) {
        PyObject *s = str_of(gdl_fact_text(g->m, g->bases[i]));
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, s);
    }
    return l;
}

static PyObject *state_wrap(GameObject *g, GdlState *s);

static PyObject *game_initial_state(GameObject *g, PyObject *unused)
{
    GdlState *s = gdl_state_copy(g->initial);
    if (!s)
        return PyErr_NoMemory();
    return state_wrap(g, s);
}

static PyObject *game_deserialize_state(GameObject *g, PyObject *arg)
{
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) < 0)
        return NULL;
    GdlState *s = NULL;
    GdlStatus st = gdl_state_read(g->m, buf.buf, (size_t)buf.len, &s);
    PyBuffer_Release(&buf);
    if (st != GDL_OK)
        return machine_error(g, st);
    return state_wrap(g, s);
}

static PyObject *game_state_from_text(GameObject *g, PyObject *arg)
{
    const char *text = PyUnicode_AsUTF8(arg);
    if (!text)
        return NULL;
    GdlState *s = NULL;
    GdlStatus st = gdl_state_parse(g->m, text, &s);
    if (st != GDL_OK)
        return machine_error(g, st);
    return state_wrap(g, s);
}

static PyObject *game_get_roles(GameObject *g, void *c)
{
    Py_INCREF(g->roles);
    return g->roles;
}
static PyObject *game_get_engine(GameObject *g, void *c) { return PyUnicode_FromString(gdl_machine_engine(g->m)); }
static PyObject *game_get_plan(GameObject *g, void *c) { return PyUnicode_FromString(gdl_machine_plan(g->m)); }
static PyObject *game_get_nbases(GameObject *g, void *c)
{
    return game_bases(g) < 0 ? NULL : PyLong_FromSize_t(g->nbases);
}
static PyObject *game_get_max_inputs(GameObject *g, void *c) { return PyLong_FromSize_t(g->max_inputs); }

static PyMethodDef game_methods[] = {
    {"num_actions", (PyCFunction)game_num_actions, METH_O,
     "num_actions(player) -> the number of the player's input moves: its action ids are 0 .. that - 1."},
    {"action_to_string", (PyCFunction)game_action_to_string, METH_VARARGS,
     "action_to_string(player, action) -> the move, spelled as the rules spell it (canonical KIF: single spaces, "
     "each symbol as the rules first write it)."},
    {"_set_spelling", (PyCFunction)game_set_spelling, METH_O,
     "_set_spelling(dict): folded symbol -> the rules' spelling (load_game sets it)."},
    {"string_to_action", (PyCFunction)game_string_to_action, METH_VARARGS,
     "string_to_action(player, text) -> the action id of the move written in KIF; ValueError if none."},
    {"base_propositions", (PyCFunction)game_base_propositions, METH_NOARGS,
     "base_propositions() -> the facts a state may hold, in canonical order: the observation's columns."},
    {"initial_state", (PyCFunction)game_initial_state, METH_NOARGS, "initial_state() -> a new State."},
    {"deserialize_state", (PyCFunction)game_deserialize_state, METH_O,
     "deserialize_state(bytes) -> the State that State.serialize wrote; ValueError on damaged bytes."},
    {"state_from_text", (PyCFunction)game_state_from_text, METH_O,
     "state_from_text(text) -> the State holding the facts written in KIF, e.g. '(cell 1 1 b) (control x)'."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"roles", (getter)game_get_roles, NULL, "the role names, in declaration order", NULL},
    {"engine", (getter)game_get_engine, NULL, "the engine's name", NULL},
    {"plan", (getter)game_get_plan, NULL, "how the engine plays this game (gdl_machine_plan)", NULL},
    {"num_bases", (getter)game_get_nbases, NULL, "the number of base propositions", NULL},
    {"max_actions", (getter)game_get_max_inputs, NULL, "the most input moves of a role", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gdlc._gdlc.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Game(source, is_text=False, name='<text>', engine=None, timeout=0): a game loaded from a file (or "
              "from text) and one machine of it. gdlc.load_game is the public way in.",
    .tp_methods = game_methods,
    .tp_getset = game_getset,
    .tp_new = game_new,
};

/* ---- State ---------------------------------------------------------------- */

typedef struct StateObject {
    PyObject_HEAD GameObject *g;
    GdlState *s;
    int8_t terminal;   /* -1: not known */
    uint8_t *known;    /* per role: legal[k] is this state's */
    uint32_t **legal;  /* per role, the legal action ids (NULL until asked) */
    size_t *nlegal;
} StateObject;

static void state_forget(StateObject *x)
{
    x->terminal = -1;
    if (x->known)
        memset(x->known, 0, x->g->nroles);
}

static void state_dealloc(StateObject *x)
{
    gdl_state_free(x->s);
    if (x->legal)
        for (unsigned k = 0; k < x->g->nroles; k++)
            free(x->legal[k]);
    free(x->legal);
    free(x->nlegal);
    free(x->known);
    Py_XDECREF(x->g);
    Py_TYPE(x)->tp_free((PyObject *)x);
}

/* Takes s. */
static PyObject *state_wrap(GameObject *g, GdlState *s)
{
    StateObject *x = PyObject_New(StateObject, &StateType);
    if (!x) {
        gdl_state_free(s);
        return NULL;
    }
    Py_INCREF(g);
    x->g = g;
    x->s = s;
    x->terminal = -1;
    x->known = NULL;
    x->legal = NULL;
    x->nlegal = NULL;
    return (PyObject *)x;
}

static int state_terminal(StateObject *x)
{
    if (x->terminal < 0) {
        bool t;
        GdlStatus st = gdl_state_is_terminal(x->g->m, x->s, &t);
        if (st != GDL_OK) {
            machine_error(x->g, st);
            return -1;
        }
        x->terminal = t;
    }
    return x->terminal;
}

/* Role k's legal action ids in x->legal[k]; -1 with an exception. */
static int state_legal(StateObject *x, unsigned k)
{
    GameObject *g = x->g;
    if (!x->known) {
        x->known = calloc(g->nroles, 1);
        x->legal = calloc(g->nroles, sizeof *x->legal);
        x->nlegal = calloc(g->nroles, sizeof *x->nlegal);
        if (!x->known || !x->legal || !x->nlegal) {
            free(x->known);
            free(x->legal);
            free(x->nlegal);
            x->known = NULL;
            x->legal = NULL;
            x->nlegal = NULL;
            PyErr_NoMemory();
            return -1;
        }
    }
    if (x->known[k])
        return 0;
    const GdlMove *mv;
    size_t n;
    GdlStatus st = gdl_state_legal(g->m, x->s, k, &mv, &n);
    if (st != GDL_OK) {
        machine_error(g, st);
        return -1;
    }
    if (!x->legal[k] && !(x->legal[k] = malloc((g->ninputs[k] + 1) * sizeof **x->legal))) {
        PyErr_NoMemory();
        return -1;
    }
    if (n > g->ninputs[k]) {
        PyErr_Format(GdlError, "player %u has %zu legal moves, more than its %zu input moves", k, n, g->ninputs[k]);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t a = idmap_get(&g->move_map[k], mv[i]);
        if (a < 0) {
            PyErr_Format(GdlError, "legal move %s of player %u is not among its input moves", gdl_move_text(g->m, mv[i]),
                         k);
            return -1;
        }
        x->legal[k][i] = (uint32_t)a;
    }
    x->nlegal[k] = n;
    x->known[k] = 1;
    return 0;
}

static PyObject *state_legal_actions(StateObject *x, PyObject *const *args, Py_ssize_t nargs)
{
    unsigned k = 0;
    if (nargs > 1)
        return PyErr_Format(PyExc_TypeError, "legal_actions takes at most one argument");
    if (nargs == 1 && args[0] != Py_None) {
        if (role_arg(x->g, args[0], &k) < 0)
            return NULL;
    } else if (x->g->nroles != 1) {
        /* OpenSpiel's legal_actions(): the current player's (None too) */
        int t = state_terminal(x);
        if (t < 0)
            return NULL;
        if (t)
            return PyList_New(0);
        int who = -1;
        for (unsigned r = 0; r < x->g->nroles; r++) {
            if (state_legal(x, r) < 0)
                return NULL;
            if (x->nlegal[r] > 1)
                who = who == -1 ? (int)r : -2;
        }
        if (who == -2)
            return PyErr_Format(PyExc_ValueError, "several players have a choice: name one");
        k = who < 0 ? 0 : (unsigned)who;
    }
    if (state_terminal(x) < 0)
        return NULL;
    if (x->terminal)
        return PyList_New(0);
    if (state_legal(x, k) < 0)
        return NULL;
    PyObject *l = PyList_New((Py_ssize_t)x->nlegal[k]);
    for (size_t i = 0; l && i < x->nlegal[k]; i++) {
        PyObject *a = PyLong_FromUnsignedLong(x->legal[k][i]);
        if (!a) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, a);
    }
    return l;
}

static PyObject *state_legal_actions_mask(StateObject *x, PyObject *arg)
{
    unsigned k;
    if (role_arg(x->g, arg, &k) < 0)
        return NULL;
    int t = state_terminal(x);
    if (t < 0 || (!t && state_legal(x, k) < 0))
        return NULL;
    npy_intp dim = (npy_intp)x->g->ninputs[k];
    PyArrayObject *a = (PyArrayObject *)PyArray_ZEROS(1, &dim, NPY_UINT8, 0);
    if (!a)
        return NULL;
    uint8_t *p = PyArray_DATA(a);
    if (!t)
        for (size_t i = 0; i < x->nlegal[k]; i++)
            p[x->legal[k][i]] = 1;
    return (PyObject *)a;
}

/* Who moves: the one role with more than one legal move; -2 when several
 * have one; the first role when none has; -4 at the end. */
static int state_current(StateObject *x)
{
    int t = state_terminal(x);
    if (t < 0)
        return -100;
    if (t)
        return -4;
    int who = -1;
    for (unsigned r = 0; r < x->g->nroles; r++) {
        if (state_legal(x, r) < 0)
            return -100;
        if (x->nlegal[r] > 1)
            who = who == -1 ? (int)r : -2;
    }
    return who == -1 ? 0 : who;
}

static PyObject *state_current_player(StateObject *x, PyObject *unused)
{
    int who = state_current(x);
    return who == -100 ? NULL : PyLong_FromLong(who);
}

/* Plays joint (action ids, one per role): checked, in place. */
static PyObject *state_play(StateObject *x, const long *acts)
{
    GameObject *g = x->g;
    for (unsigned k = 0; k < g->nroles; k++) {
        if (acts[k] < 0 || (size_t)acts[k] >= g->ninputs[k])
            return PyErr_Format(PyExc_ValueError, "no action %ld of player %u (it has %zu)", acts[k], k,
                                g->ninputs[k]);
        g->joint[k] = g->inputs[k][acts[k]];
    }
    int t = state_terminal(x);
    if (t < 0)
        return NULL;
    if (t)
        return PyErr_Format(PyExc_ValueError, "the state is terminal: no action applies");
    GdlStatus st = gdl_state_next_into(g->m, x->s, g->joint, &x->s);
    if (st != GDL_OK)
        return machine_error(g, st);
    state_forget(x);
    Py_RETURN_NONE;
}

static PyObject *state_apply_actions(StateObject *x, PyObject *arg)
{
    GameObject *g = x->g;
    PyObject *seq = PySequence_Fast(arg, "apply_actions takes a sequence of action ids, one per player");
    if (!seq)
        return NULL;
    if ((size_t)PySequence_Fast_GET_SIZE(seq) != g->nroles) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "apply_actions takes %u action ids, one per player, not %zd",
                            g->nroles, PySequence_Fast_GET_SIZE(seq));
    }
    long acts[64], *a = g->nroles <= 64 ? acts : malloc(g->nroles * sizeof *a);
    if (!a) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    PyObject *r = NULL;
    for (unsigned k = 0; k < g->nroles; k++) {
        a[k] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (a[k] == -1 && PyErr_Occurred())
            goto out;
    }
    r = state_play(x, a);
out:
    if (a != acts)
        free(a);
    Py_DECREF(seq);
    return r;
}

static PyObject *state_apply_action(StateObject *x, PyObject *arg)
{
    GameObject *g = x->g;
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred())
        return NULL;
    int who = state_current(x);
    if (who == -100)
        return NULL;
    if (who == -4)
        return PyErr_Format(PyExc_ValueError, "the state is terminal: no action applies");
    if (who == -2)
        return PyErr_Format(PyExc_ValueError, "several players have a choice: use apply_actions");
    long acts[64], *j = g->nroles <= 64 ? acts : malloc(g->nroles * sizeof *j);
    if (!j)
        return PyErr_NoMemory();
    for (unsigned k = 0; k < g->nroles; k++) {
        if ((int)k != who && x->nlegal[k] == 0) {
            if (j != acts)
                free(j);
            return PyErr_Format(GdlError, "player %u has no legal move in a state that is not terminal", k);
        }
        j[k] = (int)k == who ? a : (long)x->legal[k][0];
    }
    PyObject *r = state_play(x, j);
    if (j != acts)
        free(j);
    return r;
}

static PyObject *state_is_terminal(StateObject *x, PyObject *unused)
{
    int t = state_terminal(x);
    return t < 0 ? NULL : PyBool_FromLong(t);
}

/* The goals: as floats, 0 before the end (returns), or as ints with None
 * where a role has none (goals). */
static PyObject *state_goals_list(StateObject *x, bool returns)
{
    GameObject *g = x->g;
    int t = state_terminal(x);
    if (t < 0)
        return NULL;
    PyObject *l = PyList_New(g->nroles);
    if (!l)
        return NULL;
    if (returns && !t) {
        for (unsigned k = 0; k < g->nroles; k++) {
            PyObject *z = PyFloat_FromDouble(0);
            if (!z) {
                Py_DECREF(l);
                return NULL;
            }
            PyList_SET_ITEM(l, k, z);
        }
        return l;
    }
    GdlStatus st = gdl_state_goals(g->m, x->s, g->goals);
    if (st != GDL_OK) {
        Py_DECREF(l);
        return machine_error(g, st);
    }
    for (unsigned k = 0; k < g->nroles; k++) {
        PyObject *v;
        if (returns)
            v = PyFloat_FromDouble(g->goals[k]);
        else if (g->goals[k] == GDL_NO_GOAL)
            v = Py_NewRef(Py_None);
        else
            v = PyLong_FromLong(g->goals[k]);
        if (!v) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, k, v);
    }
    return l;
}

static PyObject *state_returns(StateObject *x, PyObject *unused) { return state_goals_list(x, true); }
static PyObject *state_goals(StateObject *x, PyObject *unused) { return state_goals_list(x, false); }

static PyObject *state_clone(StateObject *x, PyObject *unused)
{
    GdlState *s = gdl_state_copy(x->s);
    if (!s)
        return PyErr_NoMemory();
    return state_wrap(x->g, s);
}

static PyObject *state_facts(StateObject *x, PyObject *unused)
{
    size_t n = gdl_state_size(x->s);
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        const char *f = gdl_state_fact(x->g->m, x->s, i);
        PyObject *s = f ? str_of(f) : NULL;
        if (!s) {
            if (!f)
                PyErr_SetString(GdlError, gdl_machine_error(x->g->m));
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, s);
    }
    return l;
}

static PyObject *state_str(StateObject *x)
{
    PyObject *l = state_facts(x, NULL);
    if (!l)
        return NULL;
    PyObject *sep = PyUnicode_FromString("\n");
    PyObject *r = sep ? PyUnicode_Join(sep, l) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(l);
    return r;
}

/* Writes the state's observation (a byte per base proposition) into p. */
static int state_observe(StateObject *x, uint8_t *p)
{
    GameObject *g = x->g;
    const GdlFact *f;
    size_t n;
    if (game_bases(g) < 0)
        return -1;
    GdlStatus st = gdl_state_facts(g->m, x->s, &f, &n);
    if (st != GDL_OK) {
        machine_error(g, st);
        return -1;
    }
    memset(p, 0, g->nbases);
    for (size_t i = 0; i < n; i++) {
        int32_t c = idmap_get(&g->fact_map, f[i]);
        if (c < 0) {
            PyErr_Format(GdlError, "fact %s of the state is not a base proposition of the game",
                         gdl_fact_text(g->m, f[i]));
            return -1;
        }
        p[c] = 1;
    }
    return 0;
}

static PyObject *state_observation_tensor(StateObject *x, PyObject *unused)
{
    if (game_bases(x->g) < 0)
        return NULL;
    npy_intp dim = (npy_intp)x->g->nbases;
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_UINT8);
    if (!a)
        return NULL;
    if (state_observe(x, PyArray_DATA(a)) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return (PyObject *)a;
}

static PyObject *state_serialize(StateObject *x, PyObject *unused)
{
    size_t len = 0;
    GdlStatus st = gdl_state_write(x->g->m, x->s, NULL, 0, &len);
    if (st != GDL_OK && st != GDL_LIMIT)
        return machine_error(x->g, st);
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
    if (!b)
        return NULL;
    st = gdl_state_write(x->g->m, x->s, PyBytes_AS_STRING(b), len, &len);
    if (st != GDL_OK) {
        Py_DECREF(b);
        return machine_error(x->g, st);
    }
    return b;
}

static PyObject *state_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &StateType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    bool eq = gdl_state_equal(((StateObject *)a)->s, ((StateObject *)b)->s);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t state_hash(StateObject *x)
{
    Py_hash_t h = (Py_hash_t)gdl_state_hash(x->s);
    return h == -1 ? -2 : h;
}

static PyObject *state_action_to_string(StateObject *x, PyObject *args)
{
    return game_action_to_string(x->g, args);
}

static PyObject *state_string_to_action(StateObject *x, PyObject *args)
{
    return game_string_to_action(x->g, args);
}

static PyObject *state_get_game(StateObject *x, void *c) { return Py_NewRef((PyObject *)x->g); }

static PyMethodDef state_methods[] = {
    {"legal_actions", (PyCFunction)(void (*)(void))state_legal_actions, METH_FASTCALL,
     "legal_actions(player=None) -> the player's legal action ids, ascending (the game's canonical move order); "
     "[] in a terminal state. Without a player: the current player's."},
    {"legal_actions_mask", (PyCFunction)state_legal_actions_mask, METH_O,
     "legal_actions_mask(player) -> a numpy uint8 vector over the player's input moves, 1 where legal."},
    {"current_player", (PyCFunction)state_current_player, METH_NOARGS,
     "current_player() -> the one player with more than one legal move; gdlc.SIMULTANEOUS (-2) when several "
     "have a choice; the first player when none has (every player's move is forced); gdlc.TERMINAL (-4) at "
     "the end."},
    {"apply_actions", (PyCFunction)state_apply_actions, METH_O,
     "apply_actions([a0, a1, ...]) plays the joint move, an action id per player; ValueError when one is not "
     "legal (the state is then unchanged)."},
    {"apply_action", (PyCFunction)state_apply_action, METH_O,
     "apply_action(a) plays a for the current player and the only legal move of every other player; "
     "ValueError when several players have a choice."},
    {"is_terminal", (PyCFunction)state_is_terminal, METH_NOARGS, "is_terminal() -> True at the end of the game."},
    {"returns", (PyCFunction)state_returns, METH_NOARGS,
     "returns() -> the goals (0-100 as the game gives them) as floats in a terminal state, 0.0 each before."},
    {"goals", (PyCFunction)state_goals, METH_NOARGS,
     "goals() -> the goal values the rules give in this state, None for a player with none."},
    {"action_to_string", (PyCFunction)state_action_to_string, METH_VARARGS,
     "action_to_string(player, action) -> the move, spelled as the rules spell it (canonical KIF)."},
    {"string_to_action", (PyCFunction)state_string_to_action, METH_VARARGS,
     "string_to_action(player, text) -> the action id of the move written in KIF; ValueError if none."},
    {"clone", (PyCFunction)state_clone, METH_NOARGS, "clone() -> an independent copy."},
    {"facts", (PyCFunction)state_facts, METH_NOARGS, "facts() -> the state's facts as KIF, in canonical order."},
    {"observation_tensor", (PyCFunction)state_observation_tensor, METH_NOARGS,
     "observation_tensor() -> a numpy uint8 vector, 1 for each base proposition (Game.base_propositions() order) "
     "that holds."},
    {"serialize", (PyCFunction)state_serialize, METH_NOARGS,
     "serialize() -> the state's bytes (gdlc's versioned format; Game.deserialize_state reads them)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef state_getset[] = {
    {"game", (getter)state_get_game, NULL, "the Game whose state this is", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gdlc._gdlc.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_dealloc = (destructor)state_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A state of a game, as OpenSpiel's: apply_actions changes it in place; clone() copies it.",
    .tp_methods = state_methods,
    .tp_getset = state_getset,
    .tp_str = (reprfunc)state_str,
    .tp_richcompare = state_richcompare,
    .tp_hash = (hashfunc)state_hash,
};

/* ---- Batch ------------------------------------------------------------------ */

typedef struct BatchObject {
    PyObject_HEAD GameObject *g;
    GdlMachine *m;      /* the batch's own */
    GdlBatch *b;
    PyThread_type_lock lock;
    unsigned lanes, nroles;
    uint32_t *obs_col;  /* the batch's base i -> the Game's column */
    size_t nbbases;
    uint32_t **act_col; /* per role: the batch's action i -> the Game's action id */
    int32_t **to_act;   /* per role: the Game's action id -> the batch's action, -1: never legal */
    uint32_t *acts;     /* lanes x roles, scratch */
    uint8_t *term;      /* lanes */
    int *goals;         /* lanes x roles */
} BatchObject;

static void batch_dealloc(BatchObject *x)
{
    gdl_batch_free(x->b);
    gdl_machine_free(x->m);
    for (unsigned k = 0; x->act_col && k < x->nroles; k++) {
        free(x->act_col[k]);
        free(x->to_act[k]);
    }
    free(x->act_col);
    free(x->to_act);
    free(x->obs_col);
    free(x->acts);
    free(x->term);
    free(x->goals);
    if (x->lock)
        PyThread_free_lock(x->lock);
    Py_XDECREF(x->g);
    Py_TYPE(x)->tp_free((PyObject *)x);
}

/* The Game's index of each text of the batch's machine, through a dict of
 * the Game's texts (made once per batch). */
static int map_texts(PyObject *dict, GdlMachine *m, const uint32_t *ids, size_t n, uint32_t *out, bool facts,
                     const char *what)
{
    for (size_t i = 0; i < n; i++) {
        const char *t = facts ? gdl_fact_text(m, ids[i]) : gdl_move_text(m, ids[i]);
        PyObject *k = str_of(t);
        if (!k)
            return -1;
        PyObject *v = PyDict_GetItemWithError(dict, k);
        Py_DECREF(k);
        if (!v) {
            if (!PyErr_Occurred())
                PyErr_Format(GdlError, "the batch's %s %s is not among the game's", what, t);
            return -1;
        }
        out[i] = (uint32_t)PyLong_AsUnsignedLong(v);
    }
    return 0;
}

static PyObject *text_dict(GameObject *g, const uint32_t *ids, size_t n, bool facts)
{
    PyObject *d = PyDict_New();
    for (size_t i = 0; d && i < n; i++) {
        PyObject *v = PyLong_FromSize_t(i);
        PyObject *k = str_of(facts ? gdl_fact_text(g->m, ids[i]) : gdl_move_text(g->m, ids[i]));
        if (!v || !k || PyDict_SetItem(d, k, v) < 0) {
            Py_XDECREF(v);
            Py_XDECREF(k);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
        Py_DECREF(k);
    }
    return d;
}

typedef struct BatchMade {
    GdlStatus st;
    char *msg;
} BatchMade;

static void batch_make(BatchObject *x, unsigned lanes, unsigned long long seed, unsigned long long max_steps,
                       BatchMade *r)
{
    /* ref: made at once; the batch grounds the game itself */
    if ((r->st = gdl_machine_new(x->g->game, "ref", &x->m)) != GDL_OK) {
        r->msg = strdup(gdl_game_error(x->g->game));
        return;
    }
    if ((r->st = gdl_batch_new(x->m, lanes, seed, max_steps, &x->b)) != GDL_OK)
        r->msg = strdup(gdl_machine_error(x->m));
}

static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"game", "lanes", "seed", "max_steps", NULL};
    GameObject *g;
    unsigned lanes;
    unsigned long long seed = 0, max_steps = 1000000; /* the cap of run's and playouts' playouts */
    long long nl;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!L|KK", kwlist, &GameType, &g, &nl, &seed, &max_steps))
        return NULL;
    if (nl < 64 || nl > GDL_BATCH_MAX_LANES || nl % 64)
        return PyErr_Format(PyExc_ValueError, "a batch has 64 to %d lanes, a multiple of 64, not %lld",
                            GDL_BATCH_MAX_LANES, nl);
    lanes = (unsigned)nl;
    if (game_bases(g) < 0)
        return NULL;
    BatchObject *x = (BatchObject *)type->tp_alloc(type, 0);
    if (!x)
        return NULL;
    Py_INCREF(g);
    x->g = g;
    x->nroles = g->nroles;
    x->lanes = lanes;
    if (!(x->lock = PyThread_allocate_lock())) {
        Py_DECREF(x);
        return PyErr_NoMemory();
    }
    BatchMade r = {0};
    Py_BEGIN_ALLOW_THREADS batch_make(x, lanes, seed, max_steps, &r);
    Py_END_ALLOW_THREADS if (r.st != GDL_OK)
    {
        raise_status(r.st, r.msg);
        free(r.msg);
        Py_DECREF(x);
        return NULL;
    }
    const GdlFact *bf;
    x->nbbases = gdl_batch_bases(x->b, &bf);
    x->obs_col = malloc((x->nbbases + 1) * sizeof *x->obs_col);
    x->act_col = calloc(x->nroles, sizeof *x->act_col);
    x->to_act = calloc(x->nroles, sizeof *x->to_act);
    x->acts = malloc((size_t)lanes * x->nroles * sizeof *x->acts);
    x->term = malloc(lanes);
    x->goals = malloc((size_t)lanes * x->nroles * sizeof *x->goals);
    if (!x->obs_col || !x->act_col || !x->to_act || !x->acts || !x->term || !x->goals) {
        Py_DECREF(x);
        return PyErr_NoMemory();
    }
    PyObject *d = text_dict(g, g->bases, g->nbases, true);
    int bad = !d || map_texts(d, x->m, bf, x->nbbases, x->obs_col, true, "base proposition") < 0;
    Py_XDECREF(d);
    for (unsigned k = 0; !bad && k < x->nroles; k++) {
        const GdlMove *mv;
        size_t n = gdl_batch_role_moves(x->b, k, &mv);
        x->act_col[k] = malloc((n + 1) * sizeof **x->act_col);
        x->to_act[k] = malloc((g->ninputs[k] + 1) * sizeof **x->to_act);
        if (!x->act_col[k] || !x->to_act[k]) {
            PyErr_NoMemory();
            bad = 1;
            break;
        }
        d = text_dict(g, g->inputs[k], g->ninputs[k], false);
        bad = !d || map_texts(d, x->m, mv, n, x->act_col[k], false, "move") < 0;
        Py_XDECREF(d);
        for (size_t a = 0; a < g->ninputs[k]; a++)
            x->to_act[k][a] = -1;
        for (size_t i = 0; !bad && i < n; i++)
            x->to_act[k][x->act_col[k][i]] = (int32_t)i;
    }
    if (bad) {
        Py_DECREF(x);
        return NULL;
    }
    return (PyObject *)x;
}

/* Takes the batch's lock, waiting without the GIL when another thread has it. */
static void batch_lock(BatchObject *x)
{
    if (!PyThread_acquire_lock(x->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(x->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

/* The observations and masks of every lane into obs (lanes x Game bases)
 * and masks (lanes x roles x the most actions); without the GIL, locked. */
static GdlStatus batch_write(BatchObject *x, uint8_t *obs, uint8_t *masks)
{
    GameObject *g = x->g;
    GdlStatus st = gdl_batch_observe(x->b, x->obs_col, g->nbases, g->nbases, obs);
    size_t A = g->max_inputs, stride = (size_t)x->nroles * A;
    for (unsigned k = 0; st == GDL_OK && k < x->nroles; k++)
        st = gdl_batch_legal_columns(x->b, k, x->act_col[k], A, stride, masks + k * A);
    return st;
}

static PyObject *batch_arrays(BatchObject *x, PyArrayObject **obs, PyArrayObject **masks)
{
    npy_intp od[2] = {x->lanes, (npy_intp)x->g->nbases};
    npy_intp md[3] = {x->lanes, x->nroles, (npy_intp)x->g->max_inputs};
    *obs = (PyArrayObject *)PyArray_SimpleNew(2, od, NPY_UINT8);
    *masks = (PyArrayObject *)PyArray_SimpleNew(3, md, NPY_BOOL);
    if (!*obs || !*masks) {
        Py_XDECREF(*obs);
        Py_XDECREF(*masks);
        return NULL;
    }
    return Py_None;
}

static PyObject *batch_fail_(BatchObject *x, GdlStatus st)
{
    return raise_status(st, gdl_batch_error(x->b));
}

static PyObject *batch_reset(BatchObject *x, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", NULL};
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|K", kwlist, &seed))
        return NULL;
    PyArrayObject *obs, *masks;
    if (!batch_arrays(x, &obs, &masks))
        return NULL;
    GdlStatus st;
    batch_lock(x);
    Py_BEGIN_ALLOW_THREADS gdl_batch_restart(x->b, seed);
    st = batch_write(x, PyArray_DATA(obs), PyArray_DATA(masks));
    Py_END_ALLOW_THREADS PyThread_release_lock(x->lock);
    if (st != GDL_OK) {
        Py_DECREF(obs);
        Py_DECREF(masks);
        return batch_fail_(x, st);
    }
    return Py_BuildValue("(NN)", obs, masks);
}

static GdlStatus batch_step_(BatchObject *x, uint8_t *obs, uint8_t *masks, float *rewards, uint8_t *done)
{
    GdlStatus st = gdl_batch_step(x->b, x->acts);
    if (st == GDL_OK)
        st = gdl_batch_terminal(x->b, x->term, x->goals);
    if (st != GDL_OK)
        return st;
    size_t nr = (size_t)x->lanes * x->nroles;
    bool any = false;
    for (size_t i = 0; i < nr; i++)
        rewards[i] = x->term[i / x->nroles] ? (float)x->goals[i] : 0.0f;
    for (unsigned l = 0; l < x->lanes; l++)
        any |= (done[l] = x->term[l]) != 0;
    if (any && (st = gdl_batch_reset_lanes(x->b, x->term)) != GDL_OK)
        return st;
    return batch_write(x, obs, masks);
}

static PyObject *batch_step(BatchObject *x, PyObject *arg)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(arg, NPY_INT64, 1, 2, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
    if (!a)
        return NULL;
    size_t want = (size_t)x->lanes * x->nroles;
    if ((size_t)PyArray_SIZE(a) != want || (PyArray_NDIM(a) == 2 && PyArray_DIM(a, 1) != x->nroles)) {
        Py_DECREF(a);
        return PyErr_Format(PyExc_ValueError, "step takes %u x %u action ids (lanes x players)", x->lanes,
                            x->nroles);
    }
    const int64_t *in = PyArray_DATA(a);
    GameObject *g = x->g;
    batch_lock(x);
    for (size_t i = 0, k = 0; i < want; i++, k = k + 1 == x->nroles ? 0 : k + 1) {
        int64_t v = in[i];
        if (v < 0 || (uint64_t)v >= g->ninputs[k] || x->to_act[k][v] < 0) {
            PyThread_release_lock(x->lock);
            Py_DECREF(a);
            if (v >= 0 && (uint64_t)v < g->ninputs[k])
                return PyErr_Format(PyExc_ValueError, "lane %zu: action %lld (%s) of player %zu is never legal",
                                i / x->nroles, (long long)v, gdl_move_text(g->m, g->inputs[k][v]), k);
            return PyErr_Format(PyExc_ValueError, "lane %zu: no action %lld of player %zu (it has %zu)",
                                i / x->nroles, (long long)v, k, g->ninputs[k]);
        }
        x->acts[i] = (uint32_t)x->to_act[k][v];
    }
    Py_DECREF(a);
    PyArrayObject *obs, *masks, *rew, *done;
    npy_intp rd[2] = {x->lanes, x->nroles}, dd[1] = {x->lanes};
    if (!batch_arrays(x, &obs, &masks)) {
        PyThread_release_lock(x->lock);
        return NULL;
    }
    rew = (PyArrayObject *)PyArray_SimpleNew(2, rd, NPY_FLOAT32);
    done = (PyArrayObject *)PyArray_SimpleNew(1, dd, NPY_BOOL);
    if (!rew || !done) {
        PyThread_release_lock(x->lock);
        Py_XDECREF(rew);
        Py_XDECREF(done);
        Py_DECREF(obs);
        Py_DECREF(masks);
        return NULL;
    }
    GdlStatus st;
    Py_BEGIN_ALLOW_THREADS st = batch_step_(x, PyArray_DATA(obs), PyArray_DATA(masks), PyArray_DATA(rew),
                                            PyArray_DATA(done));
    Py_END_ALLOW_THREADS PyThread_release_lock(x->lock);
    if (st != GDL_OK) {
        Py_DECREF(obs);
        Py_DECREF(masks);
        Py_DECREF(rew);
        Py_DECREF(done);
        return batch_fail_(x, st);
    }
    return Py_BuildValue("(NNNN)", obs, masks, rew, done);
}

static PyObject *batch_run(BatchObject *x, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"passes", "seconds", NULL};
    unsigned long long passes = 0;
    double seconds = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Kd", kwlist, &passes, &seconds))
        return NULL;
    if (seconds != seconds || seconds < 0 || seconds > 1e9 || (!passes && seconds == 0))
        return PyErr_Format(PyExc_ValueError, "run takes passes, or seconds (finite, above 0)");
    GdlBatchStats s;
    GdlStatus st;
    double t0, t1;
    batch_lock(x);
    Py_BEGIN_ALLOW_THREADS t0 = gdl_now();
    gdl_batch_set_deadline(x->b, seconds > 0 ? t0 + seconds : 0);
    st = gdl_batch_run(x->b, passes, &s);
    gdl_batch_set_deadline(x->b, 0);
    t1 = gdl_now();
    Py_END_ALLOW_THREADS PyThread_release_lock(x->lock);
    if (st != GDL_OK && !(st == GDL_CANCELLED && seconds > 0))
        return batch_fail_(x, st);
    return Py_BuildValue("{sKsKsKsKsd}", "passes", (unsigned long long)s.passes, "state_changes",
                         (unsigned long long)s.state_changes, "playouts", (unsigned long long)s.playouts, "capped",
                         (unsigned long long)s.capped, "seconds", t1 - t0);
}

static PyObject *batch_playouts(BatchObject *x, PyObject *arg)
{
    PyObject *seq = PySequence_Fast(arg, "playouts takes a sequence of States");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const GdlState **states = malloc(((size_t)n + 1) * sizeof *states);
    if (!states) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyObject_TypeCheck(o, &StateType) || ((StateObject *)o)->g != x->g) {
            for (Py_ssize_t j = 0; j < i; j++)
                gdl_state_free((GdlState *)states[j]);
            free(states);
            Py_DECREF(seq);
            return PyErr_Format(PyExc_ValueError, "item %zd is not a State of this batch's game", i);
        }
        /* copies: another thread may change or free the State while the GIL is released */
        if (!(states[i] = gdl_state_copy(((StateObject *)o)->s))) {
            for (Py_ssize_t j = 0; j < i; j++)
                gdl_state_free((GdlState *)states[j]);
            free(states);
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
    }
    npy_intp dims[2] = {n, x->nroles};
    PyArrayObject *goals = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_INT32);
    if (!goals) {
        for (Py_ssize_t j = 0; j < n; j++)
            gdl_state_free((GdlState *)states[j]);
        free(states);
        Py_DECREF(seq);
        return NULL;
    }
    GdlStatus st;
    batch_lock(x);
    Py_BEGIN_ALLOW_THREADS st = gdl_batch_playouts(x->b, (const GdlState *const *)states, (size_t)n,
                                                   (int *)PyArray_DATA(goals));
    Py_END_ALLOW_THREADS PyThread_release_lock(x->lock);
    for (Py_ssize_t j = 0; j < n; j++)
        gdl_state_free((GdlState *)states[j]);
    free(states);
    Py_DECREF(seq);
    if (st != GDL_OK) {
        Py_DECREF(goals);
        return batch_fail_(x, st);
    }
    return (PyObject *)goals;
}

static PyObject *batch_get_lanes(BatchObject *x, void *c) { return PyLong_FromUnsignedLong(x->lanes); }
static PyObject *batch_get_plan(BatchObject *x, void *c) { return PyUnicode_FromString(gdl_batch_plan(x->b)); }

static PyMethodDef batch_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))batch_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=0) -> (obs, masks): every lane at the initial state."},
    {"step", (PyCFunction)batch_step, METH_O,
     "step(actions) -> (obs, masks, rewards, terminated): actions lanes x players action ids; lanes that end "
     "restart at the initial state (obs and masks are then the initial state's)."},
    {"run", (PyCFunction)(void (*)(void))batch_run, METH_VARARGS | METH_KEYWORDS,
     "run(passes=0, seconds=0) -> totals: random playouts in every lane, in C (gdl_batch_run)."},
    {"playouts", (PyCFunction)batch_playouts, METH_O,
     "playouts(states) -> int32 goals (len(states) x players): one random playout from each State "
     "(GDL_NO_GOAL, -1, for every player of a playout cut at the step cap). run and playouts move every lane: "
     "reset before stepping again."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef batch_getset[] = {
    {"lanes", (getter)batch_get_lanes, NULL, "the number of lanes", NULL},
    {"plan", (getter)batch_get_plan, NULL, "the evaluation chosen (gdl_batch_plan)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gdlc._gdlc.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(game, lanes, seed=0, max_steps=1000000): the batched engine (gdl_batch_*) over a machine of its "
              "own of the game, lanes a multiple of 64 up to 512.",
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
    .tp_new = batch_new,
};

/* ---- the module ------------------------------------------------------------- */

static PyObject *mod_engines(PyObject *self, PyObject *unused)
{
    PyObject *l = PyList_New(0);
    for (const GdlEngineInfo *e = gdl_engines(); l && e->name; e++) {
        PyObject *t = Py_BuildValue("(ss)", e->name, e->summary);
        if (!t || PyList_Append(l, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(t);
    }
    return l;
}

static PyMethodDef mod_methods[] = {
    {"engines", mod_engines, METH_NOARGS, "engines() -> [(name, summary)] of every engine this library has."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "gdlc._gdlc", "gdlc's C extension (see the gdlc package).", -1, mod_methods,
};

PyMODINIT_FUNC PyInit__gdlc(void)
{
    import_array();
    if (PyType_Ready(&GameType) < 0 || PyType_Ready(&StateType) < 0 || PyType_Ready(&BatchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    GdlError = PyErr_NewExceptionWithDoc("gdlc.GdlError",
                                         "An error of gdlc: a game that is not valid GDL (the diagnostics in "
                                         "str(e), file:line:col with a caret, and in e.diagnostics), a game "
                                         "past an engine's limits, a game fault. e.status names the status.",
                                         NULL, NULL);
    if (!GdlError || PyModule_AddObjectRef(m, "GdlError", GdlError) < 0 ||
        PyModule_AddObjectRef(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddObjectRef(m, "State", (PyObject *)&StateType) < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0 ||
        PyModule_AddStringConstant(m, "version", gdl_version()) < 0 ||
        PyModule_AddIntConstant(m, "NO_GOAL", GDL_NO_GOAL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
