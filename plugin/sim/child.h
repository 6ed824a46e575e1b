/* child.h - a SimGrid simulation in a child process of its own.
 *
 * SimGrid initialises once per process and aborts the process on a bad
 * option or platform, so every simulation Trivium runs on behalf of a
 * command (a cell of `trivium run`, a JSSP rule, a check of SimGrid's
 * options) runs in a forked child.  The child's report comes back on a
 * pipe; its stderr, when captured, goes to a temporary file the parent
 * reads afterwards (whole, or its head for SimGrid's reason), so a
 * chatty --log cannot fill a pipe and block the child.  SimGrid-free
 * header: the command line and the worlds include it. */
#ifndef TRV_CHILD_H
#define TRV_CHILD_H

#include <glib.h>
#include <stdbool.h>
#include <sys/types.h>

typedef struct TrvChild TrvChild;

/* Forks; the child runs fn(data, report_fd) (report_fd: the write end of
 * the report pipe) and exits with its return value.  With capture_log the
 * child's stderr goes to a temporary file.  NULL with *error (TRV_ERROR_IO)
 * when no process could be made. */
TrvChild *trv_child_start(int (*fn)(void *data, int report_fd), void *data, bool capture_log, GError **error);
pid_t trv_child_pid(const TrvChild *c);
/* Reads the child's report until the child closes it (report may be NULL:
 * it is then drained), and waits for the child.  Returns the wait status. */
int trv_child_wait(TrvChild *c, GByteArray *report);
/* For a caller that reaped the child itself (waitpid(-1, ...)): closes the
 * report pipe. */
void trv_child_reaped(TrvChild *c);
/* The first `max` bytes of the captured stderr, NUL-terminated ("" without
 * capture); copies all of it to our stderr, a chunk at a time. */
char *trv_child_log_head(TrvChild *c, size_t max);
void trv_child_pass_log(TrvChild *c);
void trv_child_free(TrvChild *c);

/* "exited with 3", "killed by signal 6": a wait status in words. */
char *trv_child_status_text(int status);
/* SimGrid's own reason for aborting, from its log: the text after the
 * first `[category/CRITICAL] ` or `[category/ERROR] ` tag, on one line,
 * printable bytes only, at most 300 of them; NULL when there is none. */
char *trv_simgrid_reason(const char *log);
/* write(2) until every byte is written (EINTR retried); false on error. */
bool trv_write_all(int fd, const void *buf, size_t len);

#endif
