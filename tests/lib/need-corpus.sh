# tests/lib/need-corpus.sh: sourced by the tests that read the shared corpus.
# need_corpus FILE SHARED: when FILE (of the corpus at SHARED) is missing,
# a visible skip (exit 77), or a failure when CI=true.
need_corpus() {
    [ -f "$1" ] && return 0
    if [ "${CI:-}" = true ]; then
        echo "FAIL: the shared corpus is missing at $2 (set GDL_SHARED)"
        exit 1
    fi
    echo "SKIP: the shared corpus is missing at $2 (set GDL_SHARED to run this test)"
    exit 77
}
