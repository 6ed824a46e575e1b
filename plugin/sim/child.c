/* child.c - a simulation in a child process.  See child.h. */
#include "child.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <trivium/error.h>
#include <unistd.h>
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#endif

struct TrvChild {
  pid_t pid;
  int report; /* read end of the report pipe, or -1 */
  FILE *log;  /* the child's stderr, or NULL */
};

bool trv_write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    len -= (size_t)w;
  }
  return true;
}

TrvChild *trv_child_start(int (*fn)(void *data, int report_fd), void *data, bool capture_log, GError **error) {
  TrvChild *c = g_new0(TrvChild, 1);
  int fd[2];
  c->log = capture_log ? tmpfile() : NULL;
  if ((capture_log && !c->log) || pipe(fd) != 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "cannot set up a simulation process: %s", g_strerror(errno));
    if (c->log) fclose(c->log);
    g_free(c);
    return NULL;
  }
  fflush(NULL); /* nothing buffered is written twice */
  pid_t parent = getpid();
  c->pid = fork();
  if (c->pid < 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "fork: %s", g_strerror(errno));
    close(fd[0]);
    close(fd[1]);
    if (c->log) fclose(c->log);
    g_free(c);
    return NULL;
  }
  if (c->pid == 0) {
#ifdef __linux__
    /* a simulation is worth nothing without the process that waits for it:
     * when that one dies (killed, even with SIGKILL), so does the child */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
#else
    (void)parent;
#endif
    close(fd[0]);
    if (c->log) dup2(fileno(c->log), STDERR_FILENO);
    int code = fn(data, fd[1]);
    fflush(NULL);
    _exit(code);
  }
  close(fd[1]);
  c->report = fd[0];
  return c;
}

pid_t trv_child_pid(const TrvChild *c) { return c->pid; }

int trv_child_wait(TrvChild *c, GByteArray *report) {
  guint8 chunk[65536];
  ssize_t got;
  while (c->report >= 0 && (got = read(c->report, chunk, sizeof chunk)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    if (report) g_byte_array_append(report, chunk, (guint)got);
  }
  trv_child_reaped(c);
  int status = 0;
  while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {}
  return status;
}

void trv_child_reaped(TrvChild *c) {
  if (c->report >= 0) close(c->report);
  c->report = -1;
}

char *trv_child_log_head(TrvChild *c, size_t max) {
  GString *s = g_string_new(NULL);
  char chunk[4096];
  ssize_t got;
  if (c->log && lseek(fileno(c->log), 0, SEEK_SET) == 0)
    while (s->len < max && (got = read(fileno(c->log), chunk, MIN(sizeof chunk, max - s->len))) != 0) {
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) break;
      g_string_append_len(s, chunk, got);
    }
  return g_string_free(s, FALSE);
}

void trv_child_pass_log(TrvChild *c) {
  char chunk[65536];
  ssize_t got;
  fflush(stderr);
  if (!c->log || lseek(fileno(c->log), 0, SEEK_SET) != 0) return;
  while ((got = read(fileno(c->log), chunk, sizeof chunk)) != 0) { /* a debug log may be gigabytes */
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 || !trv_write_all(STDERR_FILENO, chunk, (size_t)got)) break;
  }
}

void trv_child_free(TrvChild *c) {
  if (!c) return;
  trv_child_reaped(c);
  if (c->log) fclose(c->log);
  g_free(c);
}

char *trv_child_status_text(int status) {
  if (WIFEXITED(status)) return g_strdup_printf("exited with %d", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return g_strdup_printf("killed by signal %d", WTERMSIG(status));
  return g_strdup_printf("ended with status %d", status);
}

char *trv_simgrid_reason(const char *log) {
  const char *tags[] = {"/CRITICAL] ", "/ERROR] "}, *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < G_N_ELEMENTS(tags); i++) {
    const char *hit = strstr(log, tags[i]);
    if (hit && (!best || hit < best)) best = hit, best_len = strlen(tags[i]);
  }
  if (!best) return NULL;
  GString *r = g_string_new(NULL);
  for (const char *p = best + best_len; *p && *p != '\n' && r->len < 300; p++)
    g_string_append_c(r, g_ascii_isprint(*p) ? *p : '?');
  return g_string_free(r, FALSE);
}
