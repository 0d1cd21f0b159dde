/*
 * parser.y: the grammar of KIF s-expressions.
 *
 * A file is a sequence of forms; a form is a symbol, a variable or a
 * parenthesised sequence of forms. The lexer (lexer.l) has already dealt
 * with every malformation it can see (bad bytes, unmatched or unclosed
 * parentheses, limits), so the grammar meets an error only when the lexer
 * asks it to stop with KIF_FATAL, whose reason is already reported.
 *
 * Bison keeps its own stack, so the nesting depth costs no C stack; the lexer
 * caps it at KIF_MAX_DEPTH anyway, below YYMAXDEPTH.
 */
%define api.pure full
%define api.prefix {kifyy}
%define api.token.prefix {KIF_}
%define api.location.type {KifLoc}
%define parse.error detailed
%locations
%param {void *scanner}
%parse-param {KifReader *rd}

%code requires {
#include "kif.h"
typedef struct Seq { uint32_t first, last, n; } Seq;
}

%code provides {
int kifyylex(KIFYYSTYPE *lval, KifLoc *lloc, void *scanner);
}

%code {
/* Bison's stack, when it outgrows the first one, comes from the project's hook. */
#define YYMALLOC(n) base_try_realloc(NULL, (n))
#define YYFREE free
#define YYLLOC_DEFAULT(Cur, Rhs, N)                          \
    do {                                                     \
        if (N) {                                             \
            (Cur).off = YYRHSLOC(Rhs, 1).off;                \
            (Cur).end = YYRHSLOC(Rhs, N).end;                \
        } else {                                             \
            (Cur).off = (Cur).end = YYRHSLOC(Rhs, 0).end;    \
        }                                                    \
    } while (0)

static void kifyyerror(KifLoc *loc, void *scanner, KifReader *rd, const char *msg)
{
    (void)scanner;
    /* A fatal token's reason was reported by the lexer already. */
    if (!rd->fatal)
        diag_error(rd->diags, loc->off, "%s", msg);
}
}

%union {
    uint32_t node;
    Seq seq;
}

%token EOF 0 "end of file"
%token LPAREN "("
%token RPAREN ")"
%token <node> SYMBOL "symbol"
%token <node> VARIABLE "variable"
%token FATAL "input beyond a limit"

%type <node> form
%type <seq> seq

%%

file
    : %empty
    | file form             { vec_push(rd->doc->tops, $2); }
    ;

form
    : SYMBOL
    | VARIABLE
    | LPAREN seq RPAREN     {
                                $$ = kif_new_list(rd, @1.off, $2.first, $2.n);
                                if ($$ == BASE_NONE) {
                                    rd->fatal = true;
                                    YYABORT;
                                }
                            }
    ;

seq
    : %empty                { $$ = (Seq){BASE_NONE, BASE_NONE, 0}; }
    | seq form              {
                                $$ = $1;
                                if ($$.n == 0)
                                    $$.first = $2;
                                else
                                    rd->doc->nodes.v[$$.last].next = $2;
                                $$.last = $2;
                                $$.n++;
                            }
    ;

%%
