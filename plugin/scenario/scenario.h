/* scenario.h - scenario XML files (docs/scenarios.md): what a run simulates.
 *
 * A scenario names a SimGrid platform and the roles its hosts play, a world
 * and its parameters, the controllers, every parameter of the run (by the
 * keys of the parameter table, params.h), fault processes and sweeps.  The
 * loader reads it with Expat and checks it against the rules of
 * scenarios/trivium-scenario.dtd itself (Expat does not validate), so that
 * every mistake a user can make is reported as one GError (TRV_ERROR,
 * TRV_ERROR_INPUT) of the form
 *     FILE:LINE:COLUMN: what was found; what was expected[; did you mean 'X'?]
 * or, for a file refused before any of it is read (not a regular file, too
 * large, unreadable), FILE: what was found; what was expected.
 *
 * A scenario and the platform it names are data, never code and never a
 * destination chosen for the run: external entities are never loaded and
 * entity declarations are refused (no XXE, no billion laughs); files are
 * opened without blocking and refused unless they are regular files within
 * the size limits below; the platform must be SimGrid XML (SimGrid loads a
 * file of any other name as a shared library); the paths a scenario gives
 * for outputs are confined to the run's directories (see TrvScenario).
 * Every count the readers expand is bounded before it is expanded.  The
 * element and attribute reference is docs/scenarios.md.
 *
 * No SimGrid header here: the platform is read as plain XML (host and link
 * names, trivium.role properties) only to check the scenario's patterns
 * against it. */
#ifndef TRV_SCENARIO_H
#define TRV_SCENARIO_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/params.h"

/* Limits of the readers.  Each is checked before anything it bounds is
 * allocated or expanded, and each is named in the message that refuses it. */
#define TRV_SCENARIO_MAX_BYTES (1024 * 1024) /* a scenario file */
#define TRV_SCENARIO_MAX_VALUE 4096          /* bytes of one attribute value */
#define TRV_SCENARIO_MAX_NAME 64             /* bytes of an element or attribute name */
#define TRV_SCENARIO_MAX_PATTERNS 1024       /* glob items in one scenario, all attributes together */
#define TRV_SCENARIO_MAX_PATTERN 255         /* bytes of one glob item */
#define TRV_SCENARIO_MAX_FAULTS 1000         /* fault elements */
#define TRV_SCENARIO_MAX_SWEEP_VALUES 1000   /* values of one sweep */
#define TRV_SCENARIO_MAX_POINTS 100000       /* points of the sweep grid */
#define TRV_SCENARIO_MAX_PATH 1024           /* bytes of an output path */
#define TRV_FAULT_MAX_SECONDS 1e9            /* any fault time (about 31 years) */
#define TRV_FAULT_MIN_PERIOD 1e-3            /* mtbf and mttr, seconds */
#define TRV_FAULT_WEIBULL_MIN_SHAPE 0.1      /* Weibull k of a link-flap's up or down times */
#define TRV_FAULT_WEIBULL_MAX_SHAPE 10.0
#define TRV_FAULT_LOGNORMAL_MIN_SHAPE 0.01 /* lognormal sigma (of the log) of the same */
#define TRV_FAULT_LOGNORMAL_MAX_SHAPE 5.0
#define TRV_PLATFORM_MAX_BYTES (64 * 1024 * 1024)   /* a platform file or one of its profile files */
#define TRV_PLATFORM_MAX_HOSTS 100000               /* hosts, declared and generated */
#define TRV_PLATFORM_MAX_LINKS 100000               /* link and backbone elements */
#define TRV_PLATFORM_MAX_GENERATORS 10000           /* cluster and cabinet elements */
#define TRV_PLATFORM_MAX_NAME 255                   /* bytes of a host or link name (a DNS name is at most 253) */
#define TRV_PLATFORM_MAX_PROFILES 10000             /* distinct profile files a platform names */
#define TRV_FAULT_TRACE_MAX_BYTES (4 * 1024 * 1024) /* a fault trace file */
#define TRV_FAULT_TRACE_MAX_LINE 1024               /* bytes of one line of a fault trace, its end excluded */
#define TRV_FAULT_TRACE_MAX_EVENTS 100000           /* event lines, of one trace and of all a scenario's traces */
#define TRV_FAULT_TRACE_MAX_RESOURCES 10000         /* distinct resources (name or glob, link or host) of a trace */
#define TRV_FAULT_TRACE_MAX_GLOBS 64                /* of which globs (*, ?, [ or \\): each may match every name */

typedef enum { TRV_FAULT_LINK_FLAP, TRV_FAULT_HOST_CRASH, TRV_FAULT_PARTITION, TRV_FAULT_TRACE } TrvFaultKind;
/* Fault element names by TrvFaultKind ("link-flap", "host-crash",
 * "partition", "fault-trace"), and the KIND.ATTR keys a sweep may name
 * (link-flap.mtbf, ...; a fault trace has none); both NULL-terminated. */
extern const char *const trv_scn_fault_elements[];
extern const char *const trv_scn_fault_sweep_keys[];

/* The law of a link-flap's up or down times, each with mean mtbf (up) or
 * mttr (down); the shape is the Weibull k or the lognormal sigma of the
 * log (TRV_FAULT_*_SHAPE bounds) and is 0 for the exponential. */
/* A link-flap side's law: its times are drawn with the given mean
 * (exponential, weibull, lognormal) or are the mean itself (fixed: a
 * schedule such as "down 10 minutes every hour"). */
typedef enum { TRV_FAULT_EXPONENTIAL, TRV_FAULT_WEIBULL, TRV_FAULT_LOGNORMAL, TRV_FAULT_FIXED } TrvFaultLaw;
/* Whether a law takes a shape (weibull, lognormal). */
static inline bool trv_fault_law_shaped(TrvFaultLaw law) {
  return law == TRV_FAULT_WEIBULL || law == TRV_FAULT_LOGNORMAL;
}
extern const char *const trv_fault_law_names[]; /* "exponential", "weibull", "lognormal", "fixed", NULL */
/* The shape range [*lo, *hi] of a Weibull or lognormal law (the loader's,
 * also applied to a run.json and to --sweep). */
void trv_fault_shape_range(TrvFaultLaw law, double *lo, double *hi);

/* The values of fault attributes written as text, by the one rule of a
 * scenario's faults and sweeps, --fault and --sweep: a plain decimal
 * number ([+-]digits[.digits][e[+-]digits]: no blanks, hexadecimal, inf or
 * nan) within the attribute's range.  For `attr` mtbf or mttr the range is
 * [TRV_FAULT_MIN_PERIOD, TRV_FAULT_MAX_SECONDS], for start, stop, at and
 * duration [0, TRV_FAULT_MAX_SECONDS]; a shape of `law` (weibull or
 * lognormal) is within trv_fault_shape_range.  False, *out untouched,
 * for anything else.  The _expected functions say what was expected, for
 * a message ("a number of simulated seconds in [0.001, 1e+09], or ..."; g_free).
 * A time is a number of seconds, or a number with a unit: ms, s, min (or
 * m), h, d ("10min", "6h"). */
bool trv_fault_seconds(const char *attr, const char *text, double *out);
/* The value of fault attribute `attr` written as text that was checked
 * already (a time with its unit, or a shape). */
double trv_fault_value(const char *attr, const char *text);
char *trv_fault_seconds_expected(const char *attr);
bool trv_fault_shape_value(TrvFaultLaw law, const char *text, double *out);
char *trv_fault_shape_expected(TrvFaultLaw law);

/* ---- fault traces (fault-trace.c) ----
 *
 * A fault trace replays recorded outages, as SimGrid's state profiles do:
 * a text file of lines
 *     TIME RESOURCE STATE      # a comment
 * with blanks (spaces, tabs) between the three fields; '#' at the start of
 * a field begins a comment to the end of the line; blank lines and comment
 * lines are skipped; lines end in LF (or CRLF).  TIME is a fault time
 * (trv_fault_seconds: seconds or a number with a unit, in [0,
 * TRV_FAULT_MAX_SECONDS]); RESOURCE one link or host name of the platform
 * or one glob (fnmatch; no comma); STATE down or up for a link, off or on
 * for a host: the state word says which kind of resource the name is.
 * Every resource (a name or glob as written, of one kind) starts up (on),
 * and its lines must alternate down, up, down, ... in non-decreasing time
 * order (the file as a whole need not be sorted; the driver plays every
 * resource's events in time order): a down of a resource already down, an
 * up of one that is up, an event before the resource's previous one, and
 * an up at the very time of its down (an outage of 0 s) are errors.  An
 * up and a down at the same time join two outages into one; a resource
 * left down by its last line stays down to the end of the run.  Lines
 * naming different patterns may overlap (agent-* and agent-0): a resource
 * is off while any interval of any fault covers it.
 * The reader checks every count before it grows (file size, line length,
 * events, resources, globs: the TRV_FAULT_TRACE_* limits) and reports the
 * first mistake as one TRV_ERROR_INPUT line, "FILE:LINE: what was found;
 * expected what" (or "FILE: ..." for the file as a whole). */
typedef struct {
  double down, up;        /* seconds; up = +inf: down to the end of the run */
  int down_line, up_line; /* up_line 0 with up = +inf */
} TrvTraceInterval;
typedef struct {
  char *name;        /* as written: a name, or a glob when `glob` */
  bool host;         /* off/on lines: a host; down/up lines: a link */
  bool glob;         /* holds *, ?, [ or \ (fnmatch's special characters) */
  int line;          /* its first line */
  GArray *intervals; /* TrvTraceInterval, in time order, disjoint and not touching; at least one */
} TrvTraceResource;
typedef struct {
  char *file;           /* the path read (or the name given to _parse), for messages and run.json */
  char sha256[65];      /* of the bytes read, lowercase hex */
  GPtrArray *resources; /* TrvTraceResource *, in the order of their first lines */
  size_t n_events;      /* event lines */
} TrvFaultTrace;
/* Parses `len` bytes (any bytes) named `name` in messages; NULL with
 * *error (TRV_ERROR_INPUT) on the first mistake.  Free with
 * trv_fault_trace_free. */
TrvFaultTrace *trv_fault_trace_parse(const char *text, size_t len, const char *name, GError **error);
/* Reads the regular file `path` (at most TRV_FAULT_TRACE_MAX_BYTES, checked
 * on the opened descriptor before reading: core/input.h) and parses it. */
TrvFaultTrace *trv_fault_trace_load(const char *path, GError **error);
void trv_fault_trace_free(TrvFaultTrace *t);

/* One scenario fault process; times are simulated seconds.
 *   link-flap:  every link matching `pattern` alternates up (law `up`, mean
 *               mtbf, shape up_shape) and down (law `down`, mean mttr, shape
 *               down_shape) from `start` to `stop` (stop = +inf: to the end
 *               of the run); at, duration = 0.
 *   host-crash: hosts matching `pattern` go off at `at` for `duration`.
 *   partition:  hosts matching `pattern` (comma-separated globs) are cut off
 *               from the others at `at` for `duration`.
 *   fault-trace: `trace` holds the recorded outages (see above); `pattern`
 *               is the file as the scenario wrote it, for messages.
 * Unused fields are 0.  `line` is the element's line in the scenario file.
 * The pattern and the trace belong to whoever holds the spec (the
 * scenario: its points share them); trv_fault_spec_clear frees both. */
typedef struct {
  TrvFaultKind kind;
  char *pattern;
  double mtbf, mttr, start, stop, at, duration;
  TrvFaultLaw up, down; /* link-flap; TRV_FAULT_EXPONENTIAL (0) elsewhere */
  double up_shape, down_shape;
  TrvFaultTrace *trace; /* fault-trace; NULL elsewhere */
  int line;
} TrvFaultSpec;

/* One fault process written as `trivium run --fault` takes it:
 * link-flap:GLOB:MTBF:MTTR[:START[:STOP]], host-crash:GLOB:AT:DURATION or
 * partition:GLOBS:AT:DURATION, times by trv_fault_seconds; *f gets it (its
 * pattern allocated).  False with *error ("OPTION 'TEXT': ...") otherwise. */
bool trv_fault_parse_spec(const char *option, const char *text, TrvFaultSpec *f, GError **error);
/* Frees what a spec owns (its pattern and trace) and sets them to NULL. */
void trv_fault_spec_clear(TrvFaultSpec *f);

/* A sweep: `param` is a key of the parameter table, or KIND.ATTR for a
 * numeric fault attribute (link-flap.mtbf, host-crash.at, ...), which then
 * applies to every fault of that kind.  `values` is NULL-terminated text,
 * each already checked. */
typedef struct {
  char *param;
  char **values;
} TrvSweepSpec;

/* Index of role_hosts[]. */
typedef enum { TRV_ROLE_CONTROLLER = 0, TRV_ROLE_CTL = 1, TRV_ROLE_AGENT = 2 } TrvRole;
extern const char *const trv_role_names[]; /* "controller", "ctl", "agent", NULL */

/* Paths.  The platform is an input: relative to the scenario's directory
 * or absolute, stored absolute, and it passed trv_platform_file_check().
 * A fault trace (<fault-trace file>) is an input the scenario brings
 * along: relative to the scenario's directory and confined to it (no
 * absolute path, no '..' component, and resolved through its symbolic
 * links still inside it), stored resolved in its TrvFaultTrace.
 * ctl_file and out_dir are outputs, so the scenario may only name places
 * inside the run's own directories: each is a relative path without '..'
 * components, control characters or names longer than 255 bytes, at most
 * TRV_SCENARIO_MAX_PATH bytes, stored normalised ("a/./b//c" -> "a/b/c").
 *   out_dir:  the run's output directory, relative to the directory the
 *             run is started in (never to the scenario's, which may be an
 *             installed, read-only or foreign directory); "." is that
 *             directory itself.
 *   ctl_file: the CTL file, relative to the run's output directory (which
 *             --out may replace); it ends in ".ctl"; the run never
 *             overwrites an existing file.
 * A symbolic link on the way could still lead outside: the run refuses a
 * ctl_file whose path goes through one when it creates its directories
 * (the loader cannot: the directories may not exist yet). */
typedef struct {
  char *file;               /* the scenario path as given (or the name given to _from_memory) */
  char *platform;           /* absolute path */
  char *role_hosts[3];      /* TrvRole -> comma-separated globs, or NULL: use the trivium.role host property */
  char *world;              /* "causalbench" */
  TrvParams params;         /* the table's defaults + everything the file set */
  char **controllers;       /* NULL-terminated; NULL = trv_controller_defaults() */
  char *ctl_file;           /* relative to the run's output directory, or NULL (see Paths above) */
  char *out_dir;            /* relative to the directory the run starts in, or NULL (see Paths above) */
  GArray *faults;           /* TrvFaultSpec, in document order */
  GArray *sweeps;           /* TrvSweepSpec, in document order */
  char **role_host_list[3]; /* TrvRole -> the platform's hosts of that role, in platform order (NULL-terminated) */
} TrvScenario;

/* Reads and checks the scenario at `path`: a regular file of at most
 * TRV_SCENARIO_MAX_BYTES, checked with fstat on the opened file before it is
 * read (a FIFO, device or directory is refused without reading).  The
 * platform path inside it is resolved against the scenario file's
 * directory.  NULL with *error (TRV_ERROR_INPUT) on any problem; free the
 * result with trv_scenario_free. */
TrvScenario *trv_scenario_load(const char *path, GError **error);
/* The same from a buffer (any bytes; at most TRV_SCENARIO_MAX_BYTES): `name`
 * is used in messages and as s->file, `base_dir` (NULL: the current
 * directory) resolves the platform path. */
TrvScenario *trv_scenario_load_from_memory(const char *xml, size_t len, const char *name, const char *base_dir,
                                           GError **error);
void trv_scenario_free(TrvScenario *s);

/* Sweeps combine as a grid, the last sweep varying fastest; a scenario
 * without sweeps has one point, and a loaded one has at most
 * TRV_SCENARIO_MAX_POINTS.  trv_scenario_point() fills *params with the
 * parameters of point k (0 <= k < n_points) and returns that point's faults:
 * a new GArray of TrvFaultSpec whose patterns belong to s (free the array
 * with g_array_free(a, TRUE), not the patterns). */
size_t trv_scenario_n_points(const TrvScenario *s);
GArray *trv_scenario_point(const TrvScenario *s, size_t k, TrvParams *params);
/* "agents.count=4 link-flap.mtbf=10" for point k; "" without sweeps.  Caller frees. */
char *trv_scenario_point_label(const TrvScenario *s, size_t k);
/* The value of each sweep at point k, in sweep order (NULL-terminated; g_strfreev). */
char **trv_scenario_point_values(const TrvScenario *s, size_t k);

/* Placements that defeat themselves, as sentences (a new NULL-terminated
 * vector, g_strfreev; empty when there is nothing to say), for the
 * scenario's own platform and roles with the parameters `p` and the faults
 * `faults` (TrvFaultSpec) of a point.  The placement is the simulator's:
 * the controller on the first controller host, replica r on log host
 * r mod (log hosts), agent a on agent host a mod (agent hosts).
 *  - a log host holding a majority of the ctl.replicas replicas: its crash
 *    takes the log down;
 *  - agents on the controller's host;
 *  - a host-crash or partition whose hosts run no Trivium actor. */
char **trv_scenario_warnings(const TrvScenario *s, const TrvParams *p, const GArray *faults);

/* Whether every link the scenario's faults name matches one of `links`:
 * the names of the links of its platform as the simulator builds them
 * (with the links a <cluster> or <cabinet> generates, which the platform
 * reader does not list; the loader checks the rest).  Each glob of a
 * link-flap pattern and each link resource (down/up lines) of a fault
 * trace must match one.  False with *error (TRV_ERROR_INPUT) for the
 * first that matches none:
 *   "FILE:LINE: link-flap pattern 'P' matches no link of PLATFORM as
 *    SimGrid builds it; expected one of its links: a, b, ...[; did you
 *    mean 'X'?]"
 * (a fault trace: "FILE:LINE: fault trace 'T' refused: TRACE:LINE: link
 * 'R' matches no link ..."). */
bool trv_scenario_check_links(const TrvScenario *s, GPtrArray *links, GError **error);

/* The attributes an element of the scenario language accepts (a new
 * NULL-terminated vector, g_strfreev), or NULL for an unknown element.  For
 * the parameter elements (run, posterior, ..., ctl, agents, sim) these are
 * the table's keys of that section plus the element's special attributes;
 * the tests compare them with the DTD. */
char **trv_scenario_element_attributes(const char *element);
/* The elements the loader accepts inside `parent` (a NULL-terminated
 * vector, g_strfreev; empty for an element without children): for the
 * root, platform, world, controllers, the other parameter elements in the
 * table's order, set, faults, sweep.  `trivium params --dtd` writes the
 * DTD from these. */
char **trv_scenario_element_children(const char *parent);

/* Names declared by a SimGrid platform file, read as plain XML: hosts (host,
 * peer, and the hosts a cluster or cabinet generates), the trivium.role
 * property of each host (NULL when it has none), links (link, backbone).
 * links_complete is false when the platform also generates links (cluster,
 * cabinet) whose names this reader does not reproduce.  Host names are
 * unique.  profiles: the files its "file" and "*_file" attributes name
 * (availability, state and trace profiles SimGrid reads), as SimGrid
 * resolves them (relative to the platform's directory, or absolute),
 * canonical, each once, in document order. */
typedef struct {
  GPtrArray *hosts;    /* char * */
  GPtrArray *roles;    /* char * or NULL, parallel to hosts */
  GPtrArray *links;    /* char * */
  GPtrArray *profiles; /* char *, absolute */
  bool links_complete;
} TrvPlatformNames;

/* Whether `path` may be handed to SimGrid's simgrid_load_platform(), which
 * loads any file whose name does not end in .xml as a shared library (its
 * constructors run).  True when the path
 *   - ends in ".xml" (checked first, without opening anything);
 *   - names a regular file (not a directory, device, FIFO or socket: it is
 *     opened without blocking and checked with fstat before any read) of at
 *     most TRV_PLATFORM_MAX_BYTES;
 *   - holds a well-formed UTF-8 XML document whose root element is
 *     SimGrid's <platform>, read with Expat under the scenario loader's
 *     rules: no entity declarations, no external entity, no reference but
 *     the predefined ones and character references;
 *   - declares no actor (<actor>, <process>: actors come from the run) and
 *     no <config> setting outside the model settings (network/, cpu/,
 *     host/, disk/, maxmin/, precision/, bmf/, surf/): a platform may not
 *     set output files, plugins, search paths or Trivium's own settings;
 *   - names, in every "file" or "*_file" attribute, a regular file of at
 *     most TRV_PLATFORM_MAX_BYTES (relative to the platform's directory, as
 *     SimGrid resolves it, or absolute), at most TRV_PLATFORM_MAX_PROFILES
 *     distinct ones;
 *   - stays within the counts above (hosts, links, clusters, name lengths),
 *     counted before any cluster is expanded, and declares no host twice.
 * Otherwise false with *error (TRV_ERROR_INPUT):
 *   "PATH: what was found; what was expected" (name, type, size, open), or
 *   "PATH:LINE:COLUMN: what was found; what was expected" (contents).
 * It checks the file as it is now: whoever loads it later should load the
 * same path at once (or the file the check read). */
bool trv_platform_file_check(const char *path, GError **error);

/* The names of the platform at `path`, after every check of
 * trv_platform_file_check() (it is the same reader): NULL with *error when
 * that check fails.  Free with trv_platform_names_free(). */
TrvPlatformNames *trv_platform_names_read(const char *path, GError **error);
/* The same from a buffer of at most TRV_PLATFORM_MAX_BYTES: `name` is used
 * in messages, `base_dir` (NULL: the current directory) resolves profile
 * file attributes.  The name is not checked for ".xml" (no file is loaded). */
TrvPlatformNames *trv_platform_names_read_from_memory(const char *xml, size_t len, const char *name,
                                                      const char *base_dir, GError **error);
void trv_platform_names_free(TrvPlatformNames *names);

/* Text of a message that quotes what a file or a user gave (the scenario
 * and platform readers' messages, a failed cell's message, command-line
 * values): `msg` with every control character (C0, DEL and C1, newlines
 * included) and every byte that is not UTF-8 written as an escape (\xNN,
 * \u00NN), so that it stays one line and never reaches a terminal raw
 * (caller frees). */
char *trv_scn_printable(const char *msg);
/* `s` cut to at most `max` bytes on a character boundary, "..." added when
 * cut: for text a message quotes that nothing else bounds (caller frees). */
char *trv_scn_shorten(const char *s, size_t max);

#endif
