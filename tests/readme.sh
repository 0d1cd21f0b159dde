#!/bin/sh
# readme.sh SRC: README.md is a guide that stays true to the tree.
#  - Its Layout table lists every source file (*.c *.h *.l *.y under the
#    stage folders), and every file it lists exists. A row is
#    "| `FOLDER/` | ... |"; a file name in backquotes in it is FOLDER/NAME,
#    or a path from the top when it has a slash (`solve/check.c`).
#  - It is under 700 lines (the details live in docs/).
#  - Every relative link in README.md and docs/*.md resolves to a file or
#    folder, and a link's #anchor to a heading of the Markdown file it names.
# Code spans and fenced blocks are not read for links.
src=${1:?source dir}
cd "$src" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo x >>"$tmp/failed"; }

# The Layout section's rows: folder, then the files named in the row.
awk '
    /^## / { inl = ($0 == "## Layout") ; next }
    inl && /^\| `[^`]*\/` \|/ {
        row = $0
        match(row, /`[^`]*\/`/)
        dir = substr(row, RSTART + 1, RLENGTH - 2)
        row = substr(row, RSTART + RLENGTH)
        while (match(row, /`[^`]*`/)) {
            t = substr(row, RSTART + 1, RLENGTH - 2)
            row = substr(row, RSTART + RLENGTH)
            if (t !~ /^[A-Za-z0-9_.\/+-]+\.(c|h|l|y|sh|py|md)$/) continue
            if (index(t, "/")) print t; else print dir t
        }
    }' README.md | sort -u >"$tmp/listed"
[ -s "$tmp/listed" ] || fail "README.md has no Layout table (## Layout, rows | \`folder/\` | ... |)"

while read -r f; do
    [ -f "$f" ] || fail "README.md's Layout table lists $f, which does not exist"
done <"$tmp/listed"

for d in base frontend middle analysis compile runtime backend driver solve player include; do
    [ -d "$d" ] || continue
    find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.l' -o -name '*.y' \)
done | sort >"$tmp/sources"
while read -r f; do
    grep -qxF "$f" "$tmp/listed" || fail "$f is missing from README.md's Layout table"
done <"$tmp/sources"

lines=$(wc -l <README.md)
[ "$lines" -lt 700 ] || fail "README.md has $lines lines (under 700: move the details to docs/)"

# anchors FILE: the GitHub anchors of a Markdown file's headings.
anchors() {
    awk '
        /^```/ { fence = !fence; next }
        fence || !/^#+ / { next }
        {
            h = $0
            sub(/^#+ +/, "", h)
            h = tolower(h)
            gsub(/[^a-z0-9 _-]/, "", h)
            gsub(/ /, "-", h)
            if (h in seen) { n = seen[h]++; print h "-" n } else { seen[h] = 1; print h }
        }' "$1"
}

# links FILE: the targets of its inline links and images, outside code.
links() {
    awk '
        /^```/ { fence = !fence; next }
        fence { next }
        {
            l = $0
            gsub(/`[^`]*`/, "", l)
            while (match(l, /\]\([^) ]+\)/)) {
                print substr(l, RSTART + 2, RLENGTH - 3)
                l = substr(l, RSTART + RLENGTH)
            }
        }' "$1"
}

checked=0
for md in README.md docs/*.md; do
    [ -f "$md" ] || continue
    base=$(dirname "$md")
    links "$md" >"$tmp/links"
    while read -r t; do
        case $t in
        http://* | https://* | mailto:*) continue ;;
        esac
        checked=$((checked + 1))
        path=${t%%#*}
        anchor=
        case $t in *'#'*) anchor=${t#*#} ;; esac
        if [ -z "$path" ]; then
            file=$md
        else
            file=$base/$path
            if [ ! -e "$file" ]; then
                fail "$md links to $t: $file does not exist"
                continue
            fi
        fi
        if [ -n "$anchor" ]; then
            case $file in
            *.md)
                anchors "$file" | grep -qxF "$anchor" ||
                    fail "$md links to $t: no heading of $file has the anchor #$anchor" ;;
            esac
        fi
    done <"$tmp/links"
done

if [ -s "$tmp/failed" ]; then exit 1; fi
echo "ok: README.md's Layout table lists the $(wc -l <"$tmp/sources") source files, README.md has $lines lines, $checked relative links resolve"
