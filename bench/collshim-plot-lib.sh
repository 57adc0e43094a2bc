# shellcheck shell=bash
# collshim-plot-lib.sh - what the plot scripts of collshim share: their
# options, gnuplot's terminals and axes, colours, running gnuplot. Sourced
# by them from their own directory (bench/ in the source tree, $(bindir)
# once installed), never run.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "collshim-plot-lib.sh: sourced by the plot scripts, not a command" >&2
    exit 2
fi

# plot_fail STATUS MESSAGE: say what is wrong, as the script, and stop.
plot_fail() {
    local status=$1; shift
    echo "$plot_name: $*" >&2
    exit "$status"
}

# plot_usage: the script's opening comment (from its second line to the
# first line that is no comment), as its help.
plot_usage() {
    sed -n '2,/^[^#]/p' "$0" | sed -e '/^[^#]/d' -e 's/^# \{0,1\}//'
}

# plot_start NAME "$@": reads [-f png,svg] and -h; checks the formats and
# that gnuplot is here. Sets plot_name, plot_formats (space-separated),
# plot_args (the operands, INPUT [OUTDIR]) and plot_tmp, a directory
# removed at exit. Exit 2 for a wrong call, 1 when gnuplot is missing.
plot_start() {
    plot_name=$1; shift
    local formats=png,svg format
    if [ "${1:-}" = -f ]; then
        [ $# -ge 2 ] || plot_fail 2 "-f needs a list of formats (png,svg)"
        formats=$2; shift 2
    fi
    case ${1:-} in
        -h | --help) plot_usage; exit 0 ;;
        '') plot_usage >&2; exit 2 ;;
    esac
    [ $# -le 2 ] || plot_fail 2 "too many operands: $* (INPUT [OUTDIR])"
    plot_formats=${formats//,/ }
    for format in $plot_formats; do
        case $format in
            png | svg) ;;
            *) plot_fail 2 "unknown format '$format' (png, svg)" ;;
        esac
    done
    command -v gnuplot >/dev/null || plot_fail 1 "gnuplot not found (apt-get install gnuplot-nox)"
    { [ -r "$1" ] && [ -f "$1" ]; } || plot_fail 1 "cannot read $1"
    # shellcheck disable=SC2034 # read by the script that sources this
    plot_args=("$@")
    plot_tmp=$(mktemp -d)
    trap 'rm -rf "$plot_tmp"' EXIT
}

# plot_terminal FORMAT: the gnuplot lines that open a picture of that format.
plot_terminal() {
    case $1 in
        png) echo "set terminal pngcairo size 1100,700 noenhanced font ',10'" ;;
        svg) echo "set terminal svg size 1100,700 dynamic noenhanced font 'sans,10'" ;;
    esac
}

# plot_colour I: the colour of the I-th line of a picture (from 0), told
# apart from the black of the references.
plot_colours=('#e41a1c' '#377eb8' '#4daf4a' '#984ea3' '#ff7f00' '#a65628' '#f781bf' '#17becf'
    '#bcbd22')
plot_colour() {
    echo "${plot_colours[$1 % ${#plot_colours[@]}]}"
}

# plot_size_axis LABEL: a logarithmic x axis of bytes (1k, 64k, 1M), the key
# outside on the right, a grid.
plot_size_axis() {
    cat <<EOF
set logscale x 2
set format x '%.0b%B'
set xlabel '$1'
set key outside right top
set grid
EOF
}

# plot_bar_axes: one bar a row of the data, labelled below, from 0 up.
plot_bar_axes() {
    cat <<EOF
set style fill solid 0.5
set boxwidth 0.6
set xtics rotate by -30
set grid y
set key off
set yrange [0:*]
EOF
}

# plot_sort_by_x FILE...: each data file's lines in the order of their first
# column, x (a file that is not there is passed over).
plot_sort_by_x() {
    local file
    for file in "$@"; do
        [ ! -e "$file" ] || sort -g -o "$file" "$file"
    done
}

# plot_draw SCRIPT OUTPUT...: run gnuplot on SCRIPT, check that it wrote each
# OUTPUT and say their names on stdout, one line for the lot.
plot_draw() {
    local script=$1 output; shift
    gnuplot "$script" || plot_fail 1 "gnuplot failed on $script"
    for output in "$@"; do
        [ -s "$output" ] || plot_fail 1 "gnuplot wrote no $output"
    done
    echo "$*"
}
