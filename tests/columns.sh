# columns.sh - sourced by the shell tests that read a run's outputs by name:
#   col DIR NAME      the column NAME of DIR/episodes.csv, one value a line
#   metric DIR NAME   the mean of the summary metric NAME in DIR/summary.csv
#   metric_of DIR CONTROLLER NAME   the same, of one controller of several
col() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1/episodes.csv"; }
metric() { awk -F, -v m="$2" '$2 == m { print $3 }' "$1/summary.csv"; }
metric_of() { awk -F, -v c="$2" -v m="$3" '$1 == c && $2 == m { print $3 }' "$1/summary.csv"; }
