/*
 * compiled.c: the goal-directed code of engines "jit" and "aot" (hybrid.c
 * plans when it is used), and engine "so:PATH".
 *
 * All three run the C the back half emits for the game (pipeline.h); they
 * differ in who compiles it and when:
 *   jit      libtcc, in memory, when the machine is made (milliseconds);
 *   aot      the system C compiler at -O2, into a cache folder keyed by the
 *            game text, gdlc's version, the compiler and its flags; a later
 *            machine of the same game loads the cached object;
 *   so:PATH  a shared object made earlier by `gdlc compile`.
 * A loaded module is checked before use: its ABI number, the gdlc version
 * that emitted it and the hash of the game text must all match.
 *
 * A shared object is checked before dlopen sees it, because dlopen runs the
 * object's constructors and maps it by its own headers (a truncated file is
 * a SIGBUS inside dlopen). With plain reads, every offset checked against
 * the file's size: an ELF header of this machine's class, byte order and
 * machine, of type ET_DYN; program headers, every segment and the section
 * header table inside the file; a section ".note.gdlc" (abi.h's GdlcNote)
 * with this ABI and version, the game's hash, and a checksum of the whole
 * file that gdlc wrote into the note after linking ("sealing" it). So a
 * damaged object is refused with what is wrong, and a foreign one without
 * running any of its code. A damaged aot cache entry is compiled again.
 * These checks find accidents, not attacks: an object that passes is still
 * code that runs in this process.
 *
 * The module keeps its own copy of the current state and move (as fact
 * sets); this layer sends them only when they change, so the legal, goal and
 * terminal queries of one state share their tables.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../backend/abi.h"
#include "../backend/cg.h"
#include "compiled.h"
#include "engine_host.h"
#include "jit.h"
#include "pipeline.h"
#include "runtime.h"

enum { COMPILED_MEMORY_MIB = 2048 /* most memory the tables of one machine may take */ };

typedef struct Compiled {
    const GdlcModule *mod;
    void *ev;
    RtJit *jit;
    void *dl;
    GtStore *store;
    RtControl *ctl;
    GdlcTermView tv;
    const Ir *ir;
    U32Vec roles;         /* role terms */
    U32Vec state;         /* the state the module holds */
    bool have_state;
    U32Vec joint;         /* the move the module holds */
    bool have_joint;
    RtStack segs;         /* the stack segments its recursion hops to */
    /* the count of its work (rt_compiled_polls): POLL's steps, */
    uint64_t polls_run;   /* those run down to the module's polls so far, */
    uint32_t poll_top;    /* from the count it was reset to last (Ev.poll) */
    uint64_t poll_limit;  /* the module's queries stop (cancelled) past this many (0: none) */
    uint64_t facts_set;   /* facts of the states sent to the module */
} Compiled;

/* Set when the host refused the generated code an allocation: the module
 * then reports ST_MEMORY, which is memory running out (base.h's jump), not
 * its own limit on tables. Per thread, as machines are. */
static _Thread_local bool host_alloc_failed;

static void *h_alloc(usize n)
{
    void *p = base_try_realloc(NULL, n);
    if (!p)
        host_alloc_failed = true;
    return p;
}

/* Jumps to the caller's out-of-memory handler when the host refused an
 * allocation since the last call. */
static void oom_if_refused(void)
{
    if (host_alloc_failed) {
        host_alloc_failed = false;
        base_fatal("out of memory");
    }
}
static void h_release(void *p) { free(p); }
static u32 h_intern(void *store, u32 fn, u32 arity, const u32 *args) { return gt_intern(store, fn, arity, args); }
static u32 h_sym(void *store, const char *name)
{
    GtStore *s = store;
    return symtab_intern(s->syms, name, strlen(name));
}
/* Should evaluation stop? The generated code polls every 4096 steps of its
 * own and the host at the start of every query: the cancel flag and the
 * coarse clock each time (rt_should_stop's 1-in-256 on top made the clock
 * one read in a million steps, and a runaway query overran a 1 s budget by
 * 0.8 s; the fine clock at every poll cost 3% of a fast game). */
static int stop_polled(RtControl *ctl) { return rt_stop_coarse(ctl); }

static uint64_t polls_of(const Compiled *c) { return c->polls_run + c->poll_top - rt_ev_poll_left(c->ev); }

/* The module's ctl is the Compiled itself: the control and the segments.
 * Asked when its count of polls ran down (engine.h's ev_poll, which has
 * set it anew): the count is kept here, and a limit on it stops the
 * query as a cancel does, at the same step every time. */
static int h_stop(void *p)
{
    Compiled *c = p;
    if (c->ev) {
        c->polls_run += c->poll_top;
        c->poll_top = rt_ev_poll_left(c->ev);
        if (c->poll_limit && polls_of(c) >= c->poll_limit)
            return 1;
    }
    return stop_polled(c->ctl);
}
_Static_assert(sizeof(usize) == sizeof(uintptr_t), "usize holds an address");
static int h_hop(void *c, usize *floor, void (*fn)(void *), void *arg)
{
    /* the module reads *floor while fn runs: pass it itself */
    return rt_stack_hop(&((Compiled *)c)->segs, (uintptr_t *)floor, fn, arg);
}

static const GdlcHost host = {GDLC_ABI, h_alloc, h_release, h_intern, h_sym, h_stop, h_hop};

/* ---- modules ------------------------------------------------------------- */

/* Checks a module against this gdlc and this game. */
static bool module_check(const GdlcModule *m, const char *what, const Source *src, char **err)
{
    char hash[17];
    cg_game_hash(src, hash);
    if (!m) {
        *err = base_sprintf("%s: not a gdlc engine (no symbol gdlc_module)", what);
        return false;
    }
    if (m->abi != GDLC_ABI || strcmp(m->version, GDL_VERSION) != 0) {
        *err = base_sprintf("%s: made by another gdlc (ABI %u, version %.32s); this is gdlc %s (ABI %u): compile the game again",
                            what, m->abi, m->abi == GDLC_ABI ? m->version : "?", GDL_VERSION, GDLC_ABI);
        return false;
    }
    if (strcmp(m->game_hash, hash) != 0) {
        *err = base_sprintf("%s: compiled from another game text (hash %.16s; %s has hash %s)", what, m->game_hash,
                            src->name, hash);
        return false;
    }
    return true;
}

/* ---- checking a shared object before loading it -------------------------- */

#if defined(__x86_64__)
#define SO_MACHINE EM_X86_64
#elif defined(__i386__)
#define SO_MACHINE EM_386
#elif defined(__aarch64__)
#define SO_MACHINE EM_AARCH64
#elif defined(__arm__)
#define SO_MACHINE EM_ARM
#elif defined(__riscv)
#define SO_MACHINE EM_RISCV
#elif defined(__powerpc64__)
#define SO_MACHINE EM_PPC64
#elif defined(__s390x__)
#define SO_MACHINE EM_S390
#endif

enum {
    SO_CLASS = __ELF_NATIVE_CLASS == 64 ? ELFCLASS64 : ELFCLASS32, /* this process's ELF class */
    SO_DATA = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB, /* its byte order */
    SO_MAX_NAMES = 1 << 20,       /* most bytes of section names read */
    SO_BLOCK = 1 << 16,           /* bytes hashed at a time for the checksum */
};

/* An object file being checked. */
typedef struct SoFile {
    int fd;           /* open for reading (and writing, when sealing) */
    uint64_t size;    /* its size in bytes */
    uint64_t note_at; /* the file offset of its GdlcNote */
    GdlcNote note;    /* the note as read */
} SoFile;

/* Is [off, off + n) inside a file of size bytes? Free of overflow. */
static bool so_inside(uint64_t off, uint64_t n, uint64_t size) { return off <= size && n <= size - off; }

/* Reads n bytes at off (already checked to lie inside the file). */
static bool so_read(int fd, void *buf, size_t n, uint64_t off)
{
    for (size_t done = 0; done < n;) {
        ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        done += (size_t)r;
    }
    return true;
}

/* The checksum of a file: its bytes hashed block by block, the note's sum
 * field read as zeros; 16 hex digits. False when a read fails. */
static bool so_sum(const SoFile *f, char out[17])
{
    unsigned char *buf = base_xmalloc(SO_BLOCK);
    uint64_t h = 0x67646c63, lo_sum = f->note_at + offsetof(GdlcNote, sum), hi_sum = lo_sum + sizeof f->note.sum;
    bool ok = true;
    for (uint64_t off = 0; off < f->size && ok; off += SO_BLOCK) {
        size_t n = f->size - off < SO_BLOCK ? (size_t)(f->size - off) : SO_BLOCK;
        if (!(ok = so_read(f->fd, buf, n, off)))
            break;
        uint64_t lo = lo_sum > off ? lo_sum : off, hi = hi_sum < off + n ? hi_sum : off + n;
        if (lo < hi)
            memset(buf + (lo - off), 0, (size_t)(hi - lo));
        h = base_hash_bytes(buf, n, h);
    }
    free(buf);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    return ok;
}

/* Opens path and checks its structure: an ELF shared object of this
 * machine whose headers and segments lie inside the file, with a
 * well-formed .note.gdlc (read into f->note). False with *err naming path
 * and what is wrong. */
static bool so_open(const char *path, bool writable, SoFile *f, char **err)
{
    memset(f, 0, sizeof *f);
    f->fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    struct stat st;
    if (f->fd < 0 || fstat(f->fd, &st) != 0) {
        *err = base_sprintf("cannot load %s: %s", path, strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *err = base_sprintf("cannot load %s: not a regular file", path);
        return false;
    }
    f->size = (uint64_t)st.st_size;
    ElfW(Ehdr) eh;
    if (f->size < sizeof eh || !so_read(f->fd, &eh, sizeof eh, 0)) {
        *err = base_sprintf("%s: damaged: %llu bytes, too short for an ELF header (%zu bytes)", path,
                            (unsigned long long)f->size, sizeof eh);
        return false;
    }
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
        *err = base_sprintf("%s: not a gdlc engine: not an ELF file", path);
        return false;
    }
    if (eh.e_ident[EI_CLASS] != SO_CLASS || eh.e_ident[EI_DATA] != SO_DATA) {
        *err = base_sprintf("%s: not a gdlc engine: an ELF file of another class or byte order than this machine's", path);
        return false;
    }
    if (eh.e_type != ET_DYN) {
        *err = base_sprintf("%s: not a gdlc engine: an ELF file of type %u, not a shared object (ET_DYN)", path,
                            (unsigned)eh.e_type);
        return false;
    }
#ifdef SO_MACHINE
    if (eh.e_machine != SO_MACHINE) {
        *err = base_sprintf("%s: not a gdlc engine: made for another machine (ELF machine %u; this one is %u)", path,
                            (unsigned)eh.e_machine, (unsigned)SO_MACHINE);
        return false;
    }
#endif
    if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shnum == 0 ||
        eh.e_shstrndx >= eh.e_shnum) {
        *err = base_sprintf("%s: damaged: its ELF header is inconsistent (header sizes %u and %u, %u sections)", path,
                            (unsigned)eh.e_phentsize, (unsigned)eh.e_shentsize, (unsigned)eh.e_shnum);
        return false;
    }
    uint64_t phbytes = (uint64_t)eh.e_phnum * sizeof(ElfW(Phdr)), shbytes = (uint64_t)eh.e_shnum * sizeof(ElfW(Shdr));
    if (!so_inside(eh.e_phoff, phbytes, f->size) || !so_inside(eh.e_shoff, shbytes, f->size)) {
        bool ph = !so_inside(eh.e_phoff, phbytes, f->size);
        *err = base_sprintf("%s: damaged: its %s header table (file bytes %llu to %llu) lies past the end of the file "
                            "(%llu bytes): truncated?",
                            path, ph ? "program" : "section", (unsigned long long)(ph ? eh.e_phoff : eh.e_shoff),
                            (unsigned long long)(ph ? eh.e_phoff + phbytes : eh.e_shoff + shbytes),
                            (unsigned long long)f->size);
        return false;
    }
    /* dlopen maps every segment from the file: a segment past the end is
     * the SIGBUS this check prevents */
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        ElfW(Phdr) ph;
        if (!so_read(f->fd, &ph, sizeof ph, eh.e_phoff + (uint64_t)i * sizeof ph))
            return *err = base_sprintf("%s: cannot read: %s", path, strerror(errno)), false;
        if (!so_inside(ph.p_offset, ph.p_filesz, f->size)) {
            *err = base_sprintf("%s: damaged: segment %u (file bytes %llu to %llu) lies past the end of the file "
                                "(%llu bytes): truncated?",
                                path, i, (unsigned long long)ph.p_offset,
                                (unsigned long long)ph.p_offset + (unsigned long long)ph.p_filesz,
                                (unsigned long long)f->size);
            return false;
        }
    }
    ElfW(Shdr) names;
    if (!so_read(f->fd, &names, sizeof names, eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof names))
        return *err = base_sprintf("%s: cannot read: %s", path, strerror(errno)), false;
    if (names.sh_type != SHT_STRTAB || names.sh_size > SO_MAX_NAMES ||
        !so_inside(names.sh_offset, names.sh_size, f->size)) {
        *err = base_sprintf("%s: damaged: its table of section names is missing or lies past the end of the file", path);
        return false;
    }
    char *strs = base_xmalloc(names.sh_size + 1);
    bool found = false, ok = so_read(f->fd, strs, names.sh_size, names.sh_offset);
    strs[names.sh_size] = 0;
    for (unsigned i = 0; ok && !found && i < eh.e_shnum; i++) {
        ElfW(Shdr) sh;
        ok = so_read(f->fd, &sh, sizeof sh, eh.e_shoff + (uint64_t)i * sizeof sh);
        if (!ok || sh.sh_name >= names.sh_size || strcmp(strs + sh.sh_name, ".note.gdlc") != 0)
            continue;
        found = true;
        if (sh.sh_type != SHT_NOTE || sh.sh_size != sizeof(GdlcNote) || !so_inside(sh.sh_offset, sh.sh_size, f->size) ||
            !so_read(f->fd, &f->note, sizeof f->note, sh.sh_offset)) {
            *err = base_sprintf("%s: damaged: its .note.gdlc section is malformed or lies past the end of the file", path);
            free(strs);
            return false;
        }
        f->note_at = sh.sh_offset;
    }
    free(strs);
    if (!ok)
        return *err = base_sprintf("%s: cannot read: %s", path, strerror(errno)), false;
    if (!found) {
        *err = base_sprintf("%s: not a gdlc engine: it has no .note.gdlc section (gdlc compile and aot write one; "
                            "objects of a gdlc before ABI %u have none), so it was not loaded",
                            path, GDLC_ABI);
        return false;
    }
    const GdlcNote *n = &f->note;
    if (n->namesz != 5 || memcmp(n->name, "gdlc", 5) != 0 || n->type != GDLC_NOTE_TYPE ||
        n->descsz != sizeof(GdlcNote) - offsetof(GdlcNote, abi) || !memchr(n->version, 0, sizeof n->version) ||
        !memchr(n->game_hash, 0, sizeof n->game_hash) || !memchr(n->sum, 0, sizeof n->sum)) {
        *err = base_sprintf("%s: damaged: its .note.gdlc section is malformed", path);
        return false;
    }
    return true;
}

static void so_close(SoFile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
}

/* Checks the object at path for this gdlc and this game before dlopen:
 * structure, note, checksum. False with *err. */
static bool so_check(const char *path, const Source *src, char **err)
{
    SoFile f;
    bool ok = so_open(path, false, &f, err);
    const GdlcNote *n = &f.note;
    char sum[17], hash[17];
    if (ok && (n->abi != GDLC_ABI || strcmp(n->version, GDL_VERSION) != 0)) {
        *err = base_sprintf("%s: made by another gdlc (ABI %u, version %.15s); this is gdlc %s (ABI %u): "
                            "compile the game again",
                            path, n->abi, n->version, GDL_VERSION, GDLC_ABI);
        ok = false;
    }
    if (ok && !n->sum[0]) {
        *err = base_sprintf("%s: not sealed: its .note.gdlc has no checksum (objects made by `gdlc compile` or the "
                            "aot engine have one)",
                            path);
        ok = false;
    }
    if (ok && !so_sum(&f, sum))
        *err = base_sprintf("%s: cannot read: %s", path, strerror(errno)), ok = false;
    if (ok && strcmp(sum, n->sum) != 0) {
        *err = base_sprintf("%s: damaged: its contents do not match the checksum gdlc wrote into it (the file "
                            "changed after gdlc made it: a truncated or damaged copy, or a tool such as strip)",
                            path);
        ok = false;
    }
    if (ok) {
        cg_game_hash(src, hash);
        if (strcmp(n->game_hash, hash) != 0) {
            *err = base_sprintf("%s: compiled from another game text (hash %.16s; %s has hash %s)", path,
                                n->game_hash, src->name, hash);
            ok = false;
        }
    }
    so_close(&f);
    return ok;
}

/* Seals a freshly linked object: writes its checksum into its note. */
static bool so_seal(const char *path, char **err)
{
    SoFile f;
    char sum[17];
    bool ok = so_open(path, true, &f, err);
    if (ok && !(so_sum(&f, sum) && pwrite(f.fd, sum, 16, (off_t)(f.note_at + offsetof(GdlcNote, sum))) == 16)) {
        *err = base_sprintf("cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    so_close(&f);
    return ok;
}

/* Writes text to a new file path; false with *err. */
static bool write_file(const char *path, const char *text, size_t len, char **err)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        *err = base_sprintf("cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    return true;
}

const char *rt_cc(void)
{
    const char *cc = getenv("GDLC_CC");
    if (!cc || !*cc)
        cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

const char *const rt_cc_flags = "-O2 -shared -fPIC -w";

/* How a run of the compiler ended. */
typedef enum RunEnd {
    RUN_OK,        /* exit status 0 */
    RUN_FAILED,    /* another exit status */
    RUN_SIGNAL,    /* killed by a signal */
    RUN_NOT_FOUND, /* could not be started */
    RUN_NO_TEMP,   /* no temporary file for its output could be made */
} RunEnd;

/* Runs argv, its output into a file we read back. *out (malloc-ed) gets
 * what it printed; *sig the signal when RUN_SIGNAL. cancel (NULL: none):
 * once it is set, the child is killed (RUN_SIGNAL, SIGKILL); it is looked
 * at every few milliseconds while the child runs. */
static RunEnd run_ex(char *const argv[], const atomic_bool *cancel, char **out, int *sig)
{
    char *path = base_sprintf("%s/gdlc-cc-XXXXXX", base_tmpdir());
    int fd = mkstemp(path);
    *out = NULL;
    if (fd < 0) {
        *out = base_sprintf("cannot make a temporary file %s: %s", path, strerror(errno));
        free(path);
        return RUN_NO_TEMP;
    }
    pid_t pid = fork();
    /* the child says it could not exec by this byte first, then why */
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        execvp(argv[0], argv);
        dprintf(fd, "\001cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    bool waited = false;
    if (pid > 0 && cancel) {
        pid_t w;
        while ((w = waitpid(pid, &status, WNOHANG)) == 0) {
            if (atomic_load(cancel)) {
                kill(pid, SIGKILL);
                w = waitpid(pid, &status, 0);
                break;
            }
            nanosleep(&(struct timespec){0, 2000000}, NULL);
        }
        waited = w == pid;
    } else
        waited = pid > 0 && waitpid(pid, &status, 0) == pid;
    RunEnd end = !waited                                      ? RUN_NOT_FOUND
                 : WIFSIGNALED(status)                        ? RUN_SIGNAL
                 : WIFEXITED(status) && !WEXITSTATUS(status) ? RUN_OK
                                                              : RUN_FAILED;
    *sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    close(fd);
    size_t len = 0;
    char *e = NULL;
    bool too_large = false;
    *out = base_read_file(path, &len, &e, &too_large);
    free(e);
    unlink(path);
    free(path);
    if (!*out)
        *out = base_xstrdup("");
    if (!waited)
        free(*out), *out = base_sprintf("cannot start %s: %s", argv[0], strerror(errno));
    else if (end == RUN_FAILED && (*out)[0] == '\001') {
        memmove(*out, *out + 1, strlen(*out));
        end = RUN_NOT_FOUND;
    }
    return end;
}

static bool run(char *const argv[], char **out)
{
    int sig;
    return run_ex(argv, NULL, out, &sig) == RUN_OK;
}

/* Did the compiler's output say it ran out of memory? (gcc: "out of
 * memory allocating", "virtual memory exhausted", "Killed signal terminated
 * program cc1" when the kernel killed cc1; clang: "cannot allocate".) */
static bool says_out_of_memory(const char *out)
{
    static const char *const words[] = {"out of memory", "memory exhausted", "Cannot allocate memory",
                                        "cannot allocate", "Killed signal terminated program"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(out, words[i]))
            return true;
    return false;
}

static bool compile_code(const char *code, size_t len, const char *so_path, const atomic_bool *cancel, char **err);

bool rt_compile_so(const GdlGame *game, const char *so_path, RtCompileProgress progress, void *ud, char **err)
{
    size_t len = 0;
    char *code = rt_emit(game, NULL, false, &len, err);
    if (!code)
        return false;
    if (progress) {
        size_t lines = 0;
        for (const char *c = code; (c = memchr(c, '\n', len - (size_t)(c - code))) != NULL; c++)
            lines++;
        progress(ud, lines, len);
    }
    bool ok = compile_code(code, len, so_path, NULL, err);
    free(code);
    return ok;
}

/* Writes the C next to so_path, compiles it there, renames the object into
 * place (so a reader never sees half an object). */
static bool compile_code(const char *code, size_t len, const char *so_path, const atomic_bool *cancel, char **err)
{
    /* names of this process and call: threads may compile the same object */
    static atomic_uint calls;
    unsigned call = atomic_fetch_add(&calls, 1);
    char *c_path = base_sprintf("%s.%ld.%u.c", so_path, (long)getpid(), call);
    char *tmp_so = base_sprintf("%s.%ld.%u.tmp", so_path, (long)getpid(), call);
    bool ok = write_file(c_path, code, len, err);
    if (ok) {
        char *flags = base_xstrdup(rt_cc_flags);
        char *argv[16];
        int n = 0;
        argv[n++] = (char *)rt_cc();
        for (char *t = strtok(flags, " "); t && n < 12; t = strtok(NULL, " "))
            argv[n++] = t;
        argv[n++] = "-o";
        argv[n++] = tmp_so;
        argv[n++] = c_path;
        argv[n] = NULL;
        char *out = NULL;
        int sig = 0;
        RunEnd end = run_ex(argv, cancel, &out, &sig);
        ok = end == RUN_OK;
        if (end == RUN_NO_TEMP)
            *err = base_sprintf("cannot run the C compiler: %s", out);
        else if (end == RUN_NOT_FOUND)
            *err = base_sprintf("cannot run the C compiler '%s' (set GDLC_CC or CC): %s", rt_cc(), out);
        else if (end == RUN_SIGNAL)
            *err = base_sprintf("the C compiler '%s' was killed by signal %d (%s) while compiling the generated code "
                                "(%zu bytes): out of memory, or stopped from outside?%s%s",
                                rt_cc(), sig, strsignal(sig), len, *out ? "\n" : "", out);
        else if (end == RUN_FAILED && says_out_of_memory(out))
            *err = base_sprintf("the C compiler '%s' ran out of memory compiling the generated code (%zu bytes):\n%s",
                                rt_cc(), len, out);
        else if (end == RUN_FAILED) {
            /* a compile error is a gdlc bug: the code is kept for the
             * report, outside the cache */
            char *kept = base_sprintf("%s/gdlc-bug-XXXXXX.c", base_tmpdir());
            int kfd = mkstemps(kept, 2);
            bool have = kfd >= 0 && write(kfd, code, len) == (ssize_t)len;
            if (kfd >= 0)
                close(kfd);
            if (!have && kfd >= 0)
                unlink(kept);
            *err = base_sprintf("%s failed on the generated code (a gdlc bug; %s%s):\n%s", rt_cc(),
                                have ? "the code is kept in " : "the code could not be kept", have ? kept : "", out);
            free(kept);
        } else if (!so_seal(tmp_so, err))
            ok = false;
        else if (rename(tmp_so, so_path) != 0) {
            *err = base_sprintf("cannot write %s: %s", so_path, strerror(errno));
            ok = false;
        }
        free(out);
        free(flags);
        unlink(tmp_so);
    }
    unlink(c_path);
    free(c_path);
    free(tmp_so);
    return ok;
}

/* ---- the engine ------------------------------------------------------------ */

static void compiled_destroy(void *e)
{
    Compiled *c = e;
    if (!c)
        return;
    if (c->ev)
        c->mod->destroy(c->ev);
    if (c->jit)
        rt_jit_free(c->jit);
    if (c->dl)
        dlclose(c->dl);
    vec_free(c->roles);
    vec_free(c->state);
    vec_free(c->joint);
    rt_stack_free(&c->segs);
    free(c);
}

static void module_create(void *p)
{
    Compiled *c = p;
    c->ev = c->mod->create(&host, c->store, c, &c->tv, (usize)COMPILED_MEMORY_MIB << 20);
    if (c->ev)
        c->poll_top = rt_ev_poll_left(c->ev);
}

static Compiled *compiled_start(const GdlGame *game, GtStore *store, RtControl *ctl)
{
    Compiled *c = base_xcalloc(1, sizeof *c);
    c->store = store;
    c->ctl = ctl;
    c->ir = &game->front.ir;
    rt_stack_init(&c->segs);
    c->tv = (GdlcTermView){&store->fn.v, &store->arity.v, &store->args_at.v, &store->args.v};
    for (uint32_t k = 0; k < c->ir->roles.n; k++)
        vec_push(c->roles, gt_intern(store, c->ir->roles.v[k], 0, NULL));
    return c;
}

static void *compiled_finish(Compiled *c, const char *what, const GdlGame *game, char **err)
{
    if (!module_check(c->mod, what, game->front.src, err)) {
        compiled_destroy(c);
        return NULL;
    }
    host_alloc_failed = false;
    /* The module interns its constants through the host, which may run out
     * of memory and jump: then the object or the JIT's code (not the
     * project's memory) is let go before the jump goes on. */
    const char *oom = base_oom_catch(module_create, c);
    if (oom) {
        compiled_destroy(c);
        base_fatal(oom);
    }
    if (!c->ev) {
        compiled_destroy(c);
        oom_if_refused();
        *err = base_sprintf("the compiled engine could not be loaded: its tables would exceed %d MiB",
                            COMPILED_MEMORY_MIB);
        return NULL;
    }
    return c;
}

/* rt_jit_compile's arguments and result, across a stack segment. */
typedef struct JitCall {
    const char *name;
    const char *code;
    const RtJitSymbol *imports;
    size_t nimp;
    const RtControl *ctl;
    char **err;
    RtJit *jit;
} JitCall;

static void jit_call(void *p)
{
    JitCall *j = p;
    j->jit = rt_jit_compile(j->name, j->code, j->imports, j->nimp, j->ctl, j->err);
}

static void *jit_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    (void)arg;
    size_t len = 0;
    char *code = rt_emit(game, NULL, false, &len, err);
    if (!code)
        return NULL;
    /* The runtime's functions are the host's (engine_host.c), compiled at
     * -O2; libtcc compiles the game's rules. */
    size_t nimp = rt_engine_nsymbols + 3;
    RtJitSymbol *imports = base_xmalloc(nimp * sizeof *imports);
    imports[0] = (RtJitSymbol){"memset", (const void *)memset};
    imports[1] = (RtJitSymbol){"memcpy", (const void *)memcpy};
    imports[2] = (RtJitSymbol){"memmove", (const void *)memmove};
    for (size_t i = 0; i < rt_engine_nsymbols; i++)
        imports[3 + i] = rt_engine_symbols[i];
    char *jcode = base_sprintf("#define GDLC_RUNTIME_EXTERN 1\n%s", code);
    free(code);
    Compiled *c = compiled_start(game, store, ctl);
    /* libtcc recurses once per nested block: a rule's loops nest once per
     * literal. On a stack segment, as the code generator. */
    JitCall jc = {game->front.src->name, jcode, imports, nimp, ctl, err, NULL};
    rt_stack_run(jit_call, &jc);
    c->jit = jc.jit;
    free(jcode);
    free(imports);
    if (!c->jit) {
        compiled_destroy(c);
        return NULL;
    }
    c->mod = rt_jit_symbol(c->jit, "gdlc_module");
    return compiled_finish(c, "the JIT-compiled engine", game, err);
}

/* Loads the object at path; checked says so_check passed already. */
static void *so_load(const GdlGame *game, const char *path, bool checked, GtStore *store, RtControl *ctl, char **err)
{
    if (!checked && !so_check(path, game->front.src, err))
        return NULL;
    char *p = strchr(path, '/') ? base_xstrdup(path) : base_sprintf("./%s", path);
    Compiled *c = compiled_start(game, store, ctl);
    c->dl = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    free(p);
    if (!c->dl) {
        *err = base_sprintf("cannot load %s: %s", path, dlerror());
        compiled_destroy(c);
        return NULL;
    }
    c->mod = dlsym(c->dl, "gdlc_module");
    return compiled_finish(c, path, game, err);
}

static void *so_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    if (!arg || !*arg) {
        ctl->create_status = GDL_BAD_ARGUMENT;
        *err = base_xstrdup("engine so: needs a path: so:GAME.so");
        return NULL;
    }
    if (access(arg, R_OK) != 0) {
        ctl->create_status = GDL_IO_ERROR;
        *err = base_sprintf("cannot load the engine's object %s: %s", arg, strerror(errno));
        return NULL;
    }
    void *e = so_load(game, arg, false, store, ctl, err);
    if (!e && !ctl->create_status)
        ctl->create_status = GDL_BAD_ARGUMENT; /* not a gdlc object, or another game's */
    return e;
}

/* The folder of the aot cache, made if missing; NULL with *err. */
static char *cache_dir(char **err)
{
    const char *x = getenv("XDG_CACHE_HOME");
    char *base;
    if (x && *x == '/')
        base = base_xstrdup(x);
    else {
        const char *home = getenv("HOME");
        if (!home || !*home) {
            *err = base_xstrdup("engine aot: neither XDG_CACHE_HOME nor HOME is set, so there is no cache folder");
            return NULL;
        }
        base = base_sprintf("%s/.cache", home);
    }
    mkdir(base, 0777);
    char *dir = base_sprintf("%s/gdlc", base);
    free(base);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        *err = base_sprintf("engine aot: cannot make the cache folder %s: %s", dir, strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}

/* The object of a generated C text: its name hashes the C itself (so any
 * change in gdlc's code generation or runtime makes a new object), the
 * compiler's --version line and the flags. */
static char *aot_path_of(const GdlGame *game, const char *code, size_t len, char **err)
{
    char *dir = cache_dir(err);
    if (!dir)
        return NULL;
    char *argv[] = {(char *)rt_cc(), "--version", NULL};
    char *out = NULL;
    bool ok = run(argv, &out);
    if (!ok) {
        *err = base_sprintf("engine aot: cannot run the C compiler '%s' (set GDLC_CC or CC): %s", rt_cc(), out);
        free(out);
        free(dir);
        return NULL;
    }
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = 0;
    char hash[17];
    cg_game_hash(game->front.src, hash);
    char *key = base_sprintf("%s|%s|%s|%u", rt_cc(), out, rt_cc_flags, GDLC_ABI);
    uint64_t kh = base_hash_bytes(code, len, base_hash_bytes(key, strlen(key), 0));
    char *path = base_sprintf("%s/%s-%016llx.so", dir, hash, (unsigned long long)kh);
    free(key);
    free(out);
    free(dir);
    return path;
}

/* The cached object of code (compiled now when the cache has none, or a
 * damaged one): its path, NULL with *err; *checked says whether it passed
 * so_check already. */
static char *aot_object(const GdlGame *game, const char *code, size_t len, const atomic_bool *cancel, bool *checked,
                        char **err)
{
    char *path = aot_path_of(game, code, len, err);
    struct stat st;
    bool ok = path && (stat(path, &st) == 0 || compile_code(code, len, path, cancel, err));
    /* a cached object that fails the checks (damaged, or sealed by another
     * gdlc) is compiled again, once */
    *checked = ok && so_check(path, game->front.src, err);
    if (ok && !*checked) {
        free(*err);
        *err = NULL;
        ok = compile_code(code, len, path, cancel, err);
    }
    if (!ok) {
        free(path);
        return NULL;
    }
    return path;
}

static void *aot_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    (void)arg;
    size_t len = 0;
    char *code = rt_emit(game, NULL, false, &len, err);
    if (!code)
        return NULL;
    bool checked;
    char *path = aot_object(game, code, len, NULL, &checked, err);
    free(code);
    if (!path)
        return NULL;
    void *c = so_load(game, path, checked, store, ctl, err);
    free(path);
    return c;
}

char *rt_cc_object(const GdlGame *game, const char *code, size_t len, const atomic_bool *cancel, char **err)
{
    char hash[17];
    cg_game_hash(game->front.src, hash);
    StrBuf t = {0};
    strbuf_add(&t, cg_text_abi);
    cg_note(&t, hash);
    (void)len;
    strbuf_add(&t, code); /* NUL-terminated */
    bool checked;
    char *path = aot_object(game, t.s, t.len, cancel, &checked, err);
    free(t.s);
    if (path && !checked && !so_check(path, game->front.src, err)) {
        free(path);
        return NULL;
    }
    return path;
}

void *rt_cc_load(const char *path, char **err)
{
    char *p = strchr(path, '/') ? base_xstrdup(path) : base_sprintf("./%s", path);
    void *dl = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    free(p);
    if (!dl)
        *err = base_sprintf("cannot load %s: %s", path, dlerror());
    return dl;
}

void *rt_cc_network(const GdlGame *game, const char *code, size_t len, const atomic_bool *cancel, char **err)
{
    char *path = rt_cc_object(game, code, len, cancel, err);
    if (!path)
        return NULL;
    void *dl = rt_cc_load(path, err);
    free(path);
    return dl;
}

/* ---- queries ------------------------------------------------------------------ */

static GdlStatus status_of(Compiled *c, u32 st)
{
    switch (st) {
    case ST_OK:
        return GDL_OK;
    case ST_CANCELLED:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_CANCELLED, "cancelled");
    case ST_DEPTH:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_LIMIT, "a term would be nested deeper than %d levels", GT_MAX_DEPTH);
    case ST_MEMORY:
        c->have_state = c->have_joint = false;
        oom_if_refused();
        return rt_fail(c->ctl, GDL_LIMIT, "the compiled engine's tables would exceed %d MiB", COMPILED_MEMORY_MIB);
    case ST_STACK:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_LIMIT, "the derivation nests deeper than the %u MiB of stack a query may use "
                       "(GDLC_STACK_MIB)", rt_stack_mib(&c->segs));
    default:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_GAME_FAULT, "a negated relation depends on itself through the query being evaluated");
    }
}

/* Is v[0..n) what the module holds already? If not, records it. */
static bool held(U32Vec *cache, bool *have, const Gt *v, uint32_t n)
{
    if (*have && cache->n == n && gt_tuple_eq(cache->v, v, n))
        return true;
    cache->n = 0;
    vec_reserve(*cache, n + 1);
    gt_tuple_copy(cache->v, v, n);
    cache->n = n;
    *have = true;
    return false;
}

static GdlStatus use_state(Compiled *c, const Gt *state, uint32_t n)
{
    if (held(&c->state, &c->have_state, state, n))
        return GDL_OK;
    c->have_joint = false;
    c->facts_set += n;
    return status_of(c, c->mod->set_state(c->ev, state, n));
}

static GdlStatus query(Compiled *c, u32 which, u32 role, const u32 **ans, u32 *n)
{
    /* the flag and the coarse clock at every query (stop_polled); the
     * generated code polls too, every few thousand steps */
    if (stop_polled(c->ctl)) {
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_CANCELLED, "cancelled");
    }
    return status_of(c, c->mod->query(c->ev, which, role, ans, n));
}

static EngineStatus compiled_initial(void *e, U32Vec *facts)
{
    Compiled *c = e;
    const u32 *a;
    u32 n;
    GdlStatus st = query(c, GQ_INIT, 0, &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        vec_push(*facts, a[i]);
    return st;
}

static EngineStatus compiled_legal(void *e, const Gt *state, uint32_t ns, uint32_t role, U32Vec *moves)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    const u32 *a;
    u32 n = 0;
    if (st == GDL_OK)
        st = query(c, GQ_LEGAL, c->roles.v[role], &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        vec_push(*moves, a[2 * i + 1]);
    return st;
}

static EngineStatus compiled_next(void *e, const Gt *state, uint32_t ns, const Gt *joint, U32Vec *facts)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    if (st != GDL_OK)
        return st;
    if (!held(&c->joint, &c->have_joint, joint, c->roles.n)) {
        st = status_of(c, c->mod->set_move(c->ev, joint));
        if (st != GDL_OK)
            return st;
    }
    const u32 *a;
    u32 n = 0;
    st = query(c, GQ_NEXT, 0, &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        vec_push(*facts, a[i]);
    return st;
}

static EngineStatus compiled_terminal(void *e, const Gt *state, uint32_t ns, bool *terminal)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    const u32 *a;
    u32 n = 0;
    if (st == GDL_OK)
        st = query(c, GQ_TERMINAL, 0, &a, &n);
    *terminal = n > 0;
    return st;
}

static EngineStatus compiled_goals(void *e, const Gt *state, uint32_t ns, U32Vec *values)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    const u32 *a;
    u32 n = 0;
    if (st == GDL_OK)
        st = query(c, GQ_GOAL, 0, &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        for (uint32_t r = 0; r < c->roles.n; r++)
            if (c->roles.v[r] == a[2 * i]) {
                vec_push(*values, r);
                vec_push(*values, a[2 * i + 1]);
            }
    return st;
}

void rt_compiled_work(const void *e, uint64_t *polls, uint64_t *facts_set)
{
    const Compiled *c = e;
    *polls = polls_of(c);
    *facts_set = c->facts_set;
}

void rt_compiled_limit(void *e, uint64_t polls)
{
    Compiled *c = e;
    c->poll_limit = polls;
}

/* What a machine of jit:goal or aot:goal plays by (gdl_machine_plan). */
static const char *goal_plan(const void *e) { return "goal-directed code"; }

const EngineOps rt_engine_jit_goal = {"jit", jit_create, compiled_destroy, compiled_initial, compiled_legal,
                                 compiled_next, compiled_terminal, compiled_goals, ENGINE_ARG_NONE, NULL, false, NULL, NULL, NULL,
                                 goal_plan, NULL};
const EngineOps rt_engine_aot_goal = {"aot", aot_create, compiled_destroy, compiled_initial, compiled_legal,
                                 compiled_next, compiled_terminal, compiled_goals, ENGINE_ARG_NONE, NULL, false, NULL, NULL, NULL,
                                 goal_plan, NULL};
const EngineOps rt_engine_so = {"so", so_create, compiled_destroy, compiled_initial, compiled_legal,
                                compiled_next, compiled_terminal, compiled_goals, ENGINE_ARG_REQUIRED, NULL,
                                false, NULL, NULL, NULL, NULL, NULL};
