/* jssp.h - the job shop: instances, dispatch rules, schedules, and the
 * plain-C list scheduler.  No SimGrid type appears here; the SimGrid
 * execution is declared in jssp-sim.h, the real-instance confounded
 * variant's world in jssp-confounded.h, and the machine stream is the
 * world's own (jssp-world.c).
 *
 * An instance has n_jobs jobs; every job is a chain of n_ops operations
 * (OR-Library format: n_ops == n_machines), operation k of job j runs on
 * machine machine[j*n_ops+k] for duration[j*n_ops+k] >= 0 time units
 * (integers, so every start and end time is an exact double).
 *
 * Dispatch semantics, shared by the list scheduler and the SimGrid
 * execution (docs/jssp.md): non-delay list scheduling.  Operation 0 of
 * every job enters its machine's queue at time 0; when operation k of a job
 * completes at time t, operation k+1 enters its machine's queue at t (its
 * arrival time).  At every event time t all completions at t are processed
 * first, then machines are dispatched in index order: an idle machine with a
 * non-empty queue starts at t the operation its rule prefers.  A
 * zero-duration operation completes at the same t, which opens a new round
 * at t.  A job has at most one queued operation, so machines never compete
 * for the same operation.  Rule preference, ties always to the smaller job
 * index (a total order, so the schedule is unique):
 *   FIFO  earliest arrival time;
 *   SPT   shortest duration of the queued operation;
 *   LPT   longest duration of the queued operation;
 *   MWKR  most work remaining in the job, the queued operation included. */
#ifndef TRV_JSSP_H
#define TRV_JSSP_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <trivium/error.h>

/* Errors are in the project's domain TRV_ERROR (trivium/error.h):
 * TRV_ERROR_INPUT for a user's file or value (exit code 2), TRV_ERROR_IO
 * for a failed write or a failed simulation (exit code 1). */

/* Limits on what a user's instance may ask for, checked before anything is
 * allocated (docs/jssp.md).  They are far above the classic benchmarks
 * (at most 100 x 20, durations below 1000) and keep every derived size
 * small: the instance is 8 bytes per operation, a schedule 16, the list
 * scheduler O(operations x (jobs + machines)) time in the worst case; a
 * duration times 3 (the confounded variant's planning durations) fits an
 * int, and a sum of all durations (at most 10^14) is an exact double. */
#define TRV_JSSP_MAX_JOBS 10000
#define TRV_JSSP_MAX_MACHINES 1000
#define TRV_JSSP_MAX_OPERATIONS 1000000 /* jobs x machines */
#define TRV_JSSP_MAX_DURATION 100000000
#define TRV_JSSP_MAX_FILE_BYTES (64 * 1024 * 1024)

typedef struct {
  char *name; /* the instance's file name without directory */
  int n_jobs, n_machines, n_ops;
  int *machine;  /* [j*n_ops + k], 0 <= machine < n_machines */
  int *duration; /* [j*n_ops + k], 0 <= duration <= TRV_JSSP_MAX_DURATION */
} TrvJsspInstance;

/* Parses an OR-Library instance from len bytes of text (len < 0: up to the
 * first NUL); `file` names it in messages.  Lines starting with '#' are
 * comments everywhere; before the header every line that is not exactly
 * two integers is skipped (the free-text header of the classic files); the
 * header `jobs machines` is followed by exactly `jobs` lines of `machines`
 * pairs `machine duration`, in which every job visits every machine
 * exactly once.  Errors (one TRV_ERROR_INPUT message "file:line: what was
 * found; what was expected") for: a NUL byte, no header, counts outside
 * the limits above or more operations than the rest of the file can hold,
 * a non-integer token, a truncated or over-long job line, a machine index
 * out of range, a job visiting a machine twice, a negative or too large
 * duration, too few or too many job lines.  Nothing is allocated for the
 * operations before the header has passed these checks.
 * Returns a new instance (trv_jssp_instance_free) or NULL. */
TrvJsspInstance *trv_jssp_instance_parse(const char *text, gssize len, const char *file, GError **error);
/* Reads (core/input.h: a regular file or a pipe) and parses the file at
 * path: a directory, a device, an unreadable file or one larger than
 * TRV_JSSP_MAX_FILE_BYTES (checked while reading too, so a pipe that never
 * ends is refused) is a TRV_ERROR_INPUT naming the path.  The instance's
 * name is the file's base name. */
TrvJsspInstance *trv_jssp_instance_load(const char *path, GError **error);
void trv_jssp_instance_free(TrvJsspInstance *inst);
/* Total work of the instance (sum of durations). */
long trv_jssp_instance_work(const TrvJsspInstance *inst);
/* A random instance for tests: durations uniform in [0, max_duration]
 * (zeros included on purpose), every job visits every machine once in a
 * random order.  Deterministic in seed (plugin/rng.h).  The caller keeps
 * the sizes within the limits above. */
TrvJsspInstance *trv_jssp_instance_random(int n_jobs, int n_machines, int max_duration, guint64 seed);

/* Files `trivium jssp` writes (jssp-platform.c).  A writer replaces only
 * its own output: a file that starts with the writer's marker (the first
 * bytes every such file has).  A file without it, or a symbolic link, is
 * refused (TRV_ERROR_INPUT, naming the path) unless force is set; with force
 * a link is replaced, never written through.  A directory, a device or a
 * FIFO is never replaced.  Writes are atomic (a temporary file renamed
 * over the path).  Markers: */
#define TRV_JSSP_PLATFORM_MARKER                                                                                       \
  "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<!-- Job-shop machine "      \
  "shop for instance "
#define TRV_JSSP_JOBS_MARKER "# trivium jssp job description of instance "
#define TRV_JSSP_SCHEDULE_MARKER "job,op,machine,start,end\n"

/* TRUE when path may be written with contents starting with marker: it is
 * absent (and its directory exists and is writable) or the writer's own
 * output, or force allows replacing it.  Otherwise FALSE + TRV_ERROR_INPUT. */
gboolean trv_jssp_output_check(const char *path, const char *marker, gboolean force, GError **error);
/* For files names[0..n-1] to be written in dir (markers[i] for each):
 * dir must be non-empty and a directory, created (with its parents) when
 * absent, and each file must pass trv_jssp_output_check.  FALSE +
 * TRV_ERROR_INPUT naming "--out DIR" or the file otherwise. */
gboolean trv_jssp_output_prepare_dir(const char *dir, int n, const char *const *names, const char *const *markers,
                                     gboolean force, GError **error);
/* trv_jssp_output_check, then an atomic write of contents (which must
 * start with marker); a failed write is TRV_ERROR_IO. */
gboolean trv_jssp_output_write(const char *path, const char *marker, const GString *contents, gboolean force,
                               GError **error);

/* The platform of an instance (SimGrid platform 4.1: hosts m0..m{M-1} of
 * speed 1 flop/s, so an operation of duration d is d flops and d simulated
 * seconds, a host `dispatcher`, one link per machine of latency 0 and
 * bandwidth 1 TBps, routes dispatcher<->mK) and its job description (the
 * instance in OR-Library format with a comment header, read back by
 * trv_jssp_instance_parse into the same instance).  The instance's name
 * appears in both only as letters, digits and `._+-` (any other byte
 * becomes `_`), so a file name cannot break the XML or add lines to the job
 * description.  g_string_free the results. */
GString *trv_jssp_platform_xml(const TrvJsspInstance *inst);
GString *trv_jssp_jobs_text(const TrvJsspInstance *inst);

/* Writes DIR/platform.xml and DIR/jobs.txt (above) under the writers' rule,
 * both files checked before either is written.  Creates DIR (with its
 * parents) when absent; refuses (TRV_ERROR_INPUT) a DIR that is a symbolic
 * link or not a directory, so nothing is written outside it. */
gboolean trv_jssp_write_platform(const TrvJsspInstance *inst, const char *dir, gboolean force, GError **error);

typedef enum { TRV_JSSP_FIFO, TRV_JSSP_SPT, TRV_JSSP_LPT, TRV_JSSP_MWKR, TRV_JSSP_N_RULES } TrvJsspRule;
const char *trv_jssp_rule_name(TrvJsspRule rule);
/* Parses "fifo", "spt", "lpt", "mwkr" (case-insensitive); -1 if unknown. */
int trv_jssp_rule_parse(const char *name);

/* One queued operation as the rules see it. */
typedef struct {
  int job;
  double arrival;   /* time it entered the machine's queue */
  double duration;  /* of this operation */
  double remaining; /* work left in the job, this operation included */
} TrvJsspCandidate;

/* TRUE when `rule` prefers a to b (strictly; the order is total because
 * ties go to the smaller job index). */
gboolean trv_jssp_rule_prefers(TrvJsspRule rule, const TrvJsspCandidate *a, const TrvJsspCandidate *b);

/* A schedule: start and end of every operation, indexed like the
 * instance's arrays. */
typedef struct {
  int n;
  double *start, *end;
  double makespan;
} TrvJsspSchedule;

TrvJsspSchedule *trv_jssp_schedule_new(const TrvJsspInstance *inst);
void trv_jssp_schedule_free(TrvJsspSchedule *s);

/* The independent plain-C list scheduler: a Giffler-Thompson style
 * non-delay generator (earliest possible start first, then the machine
 * index, then the rule among the operations startable then), which yields
 * the schedule of the dispatch semantics above.  Returns a new schedule. */
TrvJsspSchedule *trv_jssp_list_schedule(const TrvJsspInstance *inst, TrvJsspRule rule);

/* Feasibility: every end - start equals the duration exactly, every start
 * >= 0, operations of a job in order (start of k+1 >= end of k), no two
 * operations overlap on a machine (zero-duration operations may touch),
 * and the makespan is the largest end.  FALSE + a message naming the first
 * violation. */
gboolean trv_jssp_schedule_check(const TrvJsspInstance *inst, const TrvJsspSchedule *s, GError **error);

/* Writes the schedule as CSV: header job,op,machine,start,end
 * (TRV_JSSP_SCHEDULE_MARKER), one row per operation in (job, op) order,
 * under the writers' rule above. */
gboolean trv_jssp_schedule_write_csv(const TrvJsspInstance *inst, const TrvJsspSchedule *s, const char *path,
                                     gboolean force, GError **error);

/* One operation's place on its machine, and the order of a machine's
 * operations: planned start, then end, then operation index. */
typedef struct {
  double start, end;
  int op;
} TrvJsspSlot;
int trv_jssp_slot_cmp(const void *a, const void *b);

#endif
