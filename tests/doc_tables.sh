#!/bin/bash
# doc_tables.sh - the tables of the docs that are facts of the code say
# what the code says: README.md's settings and doc/testing.md's testing
# aids (shim/settings.c), doc/algorithms.md's algorithms (the registry).
# Each table sits between "<!-- table: NAME -->" and "<!-- end table -->"
# and is what `tests/unit/doc_tables NAME` prints. With UPDATE=1 (`make
# doc-tables`) the files are rewritten instead. Ends with
# "doc_tables: N passed, N failed".
src=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${TOP_BUILDDIR:-.}/tests/unit/doc_tables
passed=0 failed=0

# The block of table $2 in file $1, without its markers.
block() { awk -v name="$2" '$0 == "<!-- table: " name " -->" {on = 1; next}
                            on && $0 == "<!-- end table -->" {exit} on' "$1"; }

rewrite() { # file table: replace the block by the program's output
    local tmp
    tmp=$(mktemp)
    awk -v name="$2" -v gen="$bin $2" '
        $0 == "<!-- table: " name " -->" {print; while ((gen | getline line) > 0) print line;
                                           close(gen); skip = 1; next}
        skip && $0 == "<!-- end table -->" {skip = 0}
        !skip' "$1" >"$tmp" && cat "$tmp" >"$1"
    rm -f "$tmp"
}

for pair in README.md:settings doc/testing.md:testing-settings doc/algorithms.md:algorithms; do
    file=$src/${pair%%:*} table=${pair#*:}
    if ! grep -qx "<!-- table: $table -->" "$file"; then
        echo "FAIL ${pair%%:*}: no <!-- table: $table --> block"
        failed=$((failed + 1))
        continue
    fi
    [ "$UPDATE" = 1 ] && rewrite "$file" "$table"
    if diff <("$bin" "$table") <(block "$file" "$table") >/tmp/doc_tables.$$ 2>&1; then
        passed=$((passed + 1))
    else
        echo "FAIL ${pair%%:*}: the $table table differs from the code's (make doc-tables rewrites it):"
        head -20 /tmp/doc_tables.$$
        failed=$((failed + 1))
    fi
    rm -f /tmp/doc_tables.$$
done
echo "doc_tables: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
