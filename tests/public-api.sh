# public-api.sh - sourced by the shell tests: what the public headers
# declare, read from the headers' text, not from the export macro.
#   public_declarations HEADER...  "NAME DECLARATION" per function, sorted,
#                                  the declaration without TRIVIUM_API and
#                                  without any blank (`booltrivium_plugin_set(
#                                  constchar*key,...)`)
#   public_functions HEADER...     the functions' names alone (the calls a
#                                  program of its own may make: each must be
#                                  exported by libtrivium and named by a man
#                                  page)
# Comments and preprocessor lines are dropped, the text inside braces
# (struct members, enum values) is skipped, and of each top-level
# declaration outside a typedef that holds a parenthesis, the identifier
# just before its first parenthesis is the function's name.  The public
# headers declare no data.
public_functions() {
  public_declarations "$@" | cut -d' ' -f1 | sort -u
}

public_declarations() {
  cat "$@" | awk '
    { text = text $0 "\n" }
    END {
      # block comments out
      out = ""
      while ((i = index(text, "/*")) > 0) {
        out = out substr(text, 1, i - 1)
        text = substr(text, i + 2)
        j = index(text, "*/")
        text = (j > 0) ? substr(text, j + 2) : ""
      }
      text = out text
      # preprocessor lines out, continuation lines included
      n = split(text, lines, "\n")
      code = ""
      cont = 0
      for (k = 1; k <= n; k++) {
        line = lines[k]
        if (cont || line ~ /^[ \t]*#/) { cont = (line ~ /\\$/); continue }
        sub(/\/\/.*$/, "", line)
        code = code line " "
      }
      # top-level declarations: text at brace depth 0 up to each ";"
      depth = 0
      decl = ""
      for (k = 1; k <= length(code); k++) {
        c = substr(code, k, 1)
        if (c == "{") { depth++; continue }
        if (c == "}") { depth--; continue }
        if (depth > 0) continue
        if (c != ";") { decl = decl c; continue }
        if (decl !~ /(^|[^A-Za-z0-9_])typedef[^A-Za-z0-9_]/ && (p = index(decl, "(")) > 0) {
          head = substr(decl, 1, p - 1)
          if (match(head, /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) {
            name = substr(head, RSTART, RLENGTH)
            sub(/[ \t]+$/, "", name)
            gsub(/(G_BEGIN_DECLS|G_END_DECLS|TRIVIUM_API)/, "", decl)
            gsub(/[ \t]/, "", decl)
            print name, decl
          }
        }
        decl = ""
      }
    }' | sort -u
}
