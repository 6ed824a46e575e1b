/* skeleton-schedule.c - the skeleton's probes: the schedule written from a
 * run's CTL files (--schedule-from-ctl), read back per cell, or the shared
 * skeleton's probes per episode, or the budget rule (skeleton.c says how
 * each is used). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skeleton.h"
#include "log/ctl.h"

_Static_assert(sizeof(TrvRecord) == RECORD_BYTES, "a record's simulated size is Trivium's");

int *own;
int **probe_at, **probe_steps;

void die(const char *what) {
  fprintf(stderr, "skeleton: %s\n", what);
  exit(2);
}

/* (agent, step) pairs, by agent then step */
static int cmp_pair(const void *a, const void *b) {
  const int *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* One block per CTL file: "cell K EPISODES", then per episode
 * "OWN a:s,s a:s ..." (agents with probes only). */
int schedule_from_ctl(int n, char **files) {
  for (int f = 0; f < n; f++) {
    GError *err = NULL;
    TrvCtlView *v = trv_ctl_view_open(files[f], false, &err);
    if (!v) {
      fprintf(stderr, "skeleton: %s: %s\n", files[f], err->message);
      return 2;
    }
    uint32_t first, ne = trv_ctl_view_episodes(v, &first);
    printf("cell %u %u\n", trv_ctl_view_header(v)->n_components, ne);
    for (uint32_t e = first; e < first + ne; e++) {
      size_t nr;
      const TrvRecord *r = trv_ctl_view_episode_records(v, e, &nr);
      int controller = 0, *pairs = malloc(2 * (nr + 1) * sizeof *pairs), np = 0;
      for (size_t i = 0; i < nr; i++) {
        if (r[i].agent == TRV_AGENT_CONTROLLER)
          controller++;
        else if (r[i].kind == TRV_RECORD_STEP && r[i].a_int >= 0)
          pairs[2 * np] = (int)r[i].agent, pairs[2 * np + 1] = (int)r[i].step, np++;
      }
      qsort(pairs, np, 2 * sizeof *pairs, cmp_pair);
      printf("%d", controller);
      for (int i = 0; i < np; i++)
        if (i && pairs[2 * i] == pairs[2 * i - 2])
          printf(",%d", pairs[2 * i + 1]);
        else
          printf(" %d:%d", pairs[2 * i], pairs[2 * i + 1]);
      printf("\n");
      free(pairs);
    }
    trv_ctl_view_free(v);
  }
  return 0;
}

void schedule_alloc(void) {
  own = calloc(P.episodes, sizeof *own);
  probe_at = calloc(P.episodes, sizeof *probe_at);
  probe_steps = calloc(P.episodes, sizeof *probe_steps);
  for (int e = 0; e < P.episodes; e++) {
    probe_at[e] = calloc(P.agents + 1, sizeof **probe_at);
    own[e] = 1;
  }
}

/* Episode e's p probes evenly over the first min(M, K) agents, at their
 * first steps: what a plan disjoint by component gives when nothing says
 * which components carry the probes. */
static void schedule_split(int e, int p) {
  int users = P.agents < P.ncomp ? P.agents : P.ncomp, k = 0;
  if (p > P.steps * users) p = P.steps * users;
  probe_steps[e] = malloc((p + 1) * sizeof **probe_steps);
  for (int a = 0; a < P.agents; a++) {
    probe_at[e][a] = k;
    int mine = a < users ? p / users + (a < p % users) : 0;
    for (int s = 0; s < mine; s++) probe_steps[e][k++] = s;
  }
  probe_at[e][P.agents] = k;
}

/* Without a schedule: the budget rule ceil(3 ln(max(e, 1) + 1)). */
void schedule_default(void) {
  for (int e = 0; e < P.episodes; e++) schedule_split(e, (int)ceil(3.0 * log((e > 1 ? e : 1) + 1.0)));
}

/* The shared skeleton's --probes FILE: one line per cell (cycled),
 * "p_0 .. p_{E-1} | own_0 .. own_{E-1}" (probes and the controller's reset
 * records per episode, from episodes.csv); the end marker is added. */
void probes_load(int cell) {
  FILE *f = fopen(P.probes, "r");
  if (!f) die("cannot read the probes file");
  char *line = NULL;
  size_t cap = 0;
  int lines = 0;
  while (getline(&line, &cap, f) > 0) lines++;
  if (!lines) die("the probes file is empty");
  rewind(f);
  for (int i = 0; i <= cell % lines; i++)
    if (getline(&line, &cap, f) <= 0) die("cannot read the probes file");
  char *p = line, *end;
  for (int e = 0; e < P.episodes; e++, p = end) schedule_split(e, (int)strtol(p, &end, 10));
  while (*p && *p != '|') p++;
  if (*p == '|') p++;
  for (int e = 0; e < P.episodes; e++, p = end) own[e] = 1 + (int)strtol(p, &end, 10);
  free(line);
  fclose(f);
}

void schedule_load(int cell) {
  FILE *f = fopen(P.schedule, "r");
  if (!f) die("cannot read the schedule");
  char *line = NULL;
  size_t cap = 0;
  int blocks = 0, found = 0;
  while (!found && getline(&line, &cap, f) > 0)
    if (!strncmp(line, "cell ", 5)) found = blocks++ == cell;
  if (!found) { /* fewer blocks than cells: cycle */
    if (!blocks) die("the schedule holds no cell");
    fclose(f);
    free(line);
    schedule_load(cell % blocks);
    return;
  }
  int k, ne;
  if (sscanf(line + 5, "%d %d", &k, &ne) != 2) die("bad cell line in the schedule");
  P.ncomp = k;
  if (ne < P.episodes) P.episodes = ne;
  for (int e = 0; e < P.episodes; e++) {
    if (getline(&line, &cap, f) <= 0) die("the schedule ends within a cell");
    char *p = line, *end;
    own[e] = (int)strtol(p, &end, 10);
    int n = 0;
    for (char *c = end; *c; c++) n += *c == ':' || *c == ',';
    probe_steps[e] = malloc((n + 1) * sizeof **probe_steps);
    int *count = calloc(P.agents, sizeof *count), m = 0;
    p = end;
    while (*p) {
      long a = strtol(p, &end, 10);
      if (end == p) break;
      p = end;
      if (*p != ':') die("bad agent entry in the schedule");
      do {
        long s = strtol(p + 1, &end, 10);
        if (a < P.agents) probe_steps[e][m++] = (int)s, count[a]++;
        p = end;
      } while (*p == ',');
    }
    /* the entries come by agent: offsets from the counts */
    for (int a = 0, at = 0; a <= P.agents; a++) {
      probe_at[e][a] = at;
      if (a < P.agents) at += count[a];
    }
    free(count);
  }
  free(line);
  fclose(f);
}
