# json-compact.sh - sourced by the shell tests: json_compact FILE prints the
# JSON document in FILE on one line with every space, tab and newline
# outside its strings removed, so that a test can grep a member, or a
# whole object, as compact text ('"status":"complete"') whatever the
# indentation and spacing of the writer.  Strings are copied as they are.
json_compact() {
  awk 'BEGIN { s = 0; e = 0 }
  {
    line = $0 "\n"
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (s) {
        printf "%s", c
        if (e) e = 0
        else if (c == "\\") e = 1
        else if (c == "\"") s = 0
      } else if (c == "\"") {
        printf "%s", c
        s = 1
      } else if (c != " " && c != "\t" && c != "\n" && c != "\r") printf "%s", c
    }
  }
  END { print "" }' "$1"
}
