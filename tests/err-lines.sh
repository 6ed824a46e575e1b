# err-lines.sh - sourced by the shell tests: err_lines FILE counts the lines
# of a command's stderr without AddressSanitizer's notice about SimGrid's
# stack switches (printed in sanitizer builds only).
err_lines() {
  grep -v -e '^==[0-9]*==WARNING: ASan is ignoring requested __asan_handle_no_return' \
    -e '^False positive error reports may follow' -e '^For details see https://github.com/google/sanitizers/issues/189' \
    "$1" | grep -c .
}
