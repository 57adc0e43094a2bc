#!/bin/bash
# layering.sh - the folders are layers, and each file includes only headers
# of its own layer or of the layers under it (doc/architecture.md):
#
#   tests -> bench (tools) -> shim -> select -> tuning -> algorithms -> engine -> ops
#
# include/ (the public interface) is open to the tools and the shim. A
# file that includes a header against the arrow is named with the include;
# the test fails then. Ends with "layering: N passed, N failed".
cd "${TOP_SRCDIR:-$(dirname "$0")/..}" || exit 1
layers=(ops engine algorithms tuning select shim bench tests)
rank_of() {
    local i
    for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
    echo -1
}
passed=0 failed=0
for dir in "${layers[@]}"; do
    [ -d "$dir" ] || continue
    mine=$(rank_of "$dir")
    while IFS= read -r file; do
        ok=1
        while IFS= read -r inc; do
            top=${inc%%/*}
            [ "$top" = "$inc" ] && continue # config.h, a system header
            if [ "$top" = include ]; then
                [ "$mine" -ge "$(rank_of shim)" ] && continue
                echo "FAIL $file includes $inc: the public interface is for the shim and the tools"
                ok=0
                continue
            fi
            theirs=$(rank_of "$top")
            [ "$theirs" -lt 0 ] && continue
            if [ "$theirs" -gt "$mine" ]; then
                echo "FAIL $file includes $inc: $dir may not reach $top, a layer above it"
                ok=0
            fi
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
        if [ "$ok" = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    done < <(find "$dir" -name '*.[ch]' | sort)
done
echo "layering: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
