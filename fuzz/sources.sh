# fuzz/sources.sh - sourced by fuzz/run.sh and tests/fuzz-corpus.sh: reads
# a harness's source list (fuzz/NAME.sources: one path per line from the
# top of the tree, `pkg:MODULE` for a pkg-config module, `#` comments).
# fuzz_sources TOP LIST sets srcs (the paths below TOP), mods (the modules,
# glib-2.0 first) and dirs (-I of each source's directory).
fuzz_sources() {
  srcs="" mods="glib-2.0" dirs=""
  while read -r line; do
    case "$line" in
      ''|'#'*) ;;
      pkg:*) mods="$mods ${line#pkg:}" ;;
      *) srcs="$srcs $1/$line" dirs="$dirs -I$1/$(dirname "$line")" ;;
    esac
  done < "$2"
}
