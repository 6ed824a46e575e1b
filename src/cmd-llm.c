/* cmd-llm.c - `trivium llm models|record|check`: the LLM stream's model
 * table, the recorder of simulated streams, and the replay-file checker.
 *
 *   models                     the rate table (envs/llm/llm.c), one line each
 *   record [--set K=V]... -o FILE
 *                              the simulated stream of world.model for the
 *                              seeds run.seed_base .. + run.seeds - 1, E =
 *                              run.episodes each, as a replay file (docs/
 *                              llm.md); FILE must not exist
 *   check FILE [SEED]          validates every line of FILE (and that SEED,
 *                              default 1, has episodes)
 * Exit codes: 0 ok, 1 a write failed, 2 bad input. */
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/params.h"
#include "llm/llm.h"
#include "report.h"

static int usage(FILE *f, int code) {
  fprintf(f, "usage: trivium llm models\n"
             "       trivium llm record [--set KEY=VALUE]... -o FILE\n"
             "       trivium llm check FILE [SEED]\n\n"
             "models: the accuracies (clean, under an adversarial hint, strong audit) of each model.\n"
             "record: the simulated stream of world.model (seeds run.seed_base .., run.seeds of them,\n"
             "        run.episodes each, user drawn with world.p_unreliable) as JSON Lines, every line\n"
             "        marked \"source\":\"trivium-simulator\"; `trivium run --set world.replay=FILE` replays it.\n"
             "check:  validate a replay file (docs/llm.md) line by line.\n");
  return code;
}

static int cmd_models(void) {
  printf("%-20s %-20s %8s %8s %8s\n", "name", "model", "clean", "hint", "audit");
  for (const TrvLlmModel *m = trv_llm_models; m->name; m++)
    printf("%-20s %-20s %8.3f %8.3f %8.3f\n", m->name, m->label, m->clean, m->hint, m->audit);
  return 0;
}

static int cmd_record(int argc, char **argv) {
  TrvParams p;
  trv_params_defaults(&p);
  const char *out = NULL;
  GError *err = NULL;
  for (int i = 1; i < argc; i++) {
    if ((!strcmp(argv[i], "--set") || !strcmp(argv[i], "-s")) && i + 1 < argc) {
      if (!trv_params_set_assignment(&p, argv[++i], &err)) break;
    } else if (!strncmp(argv[i], "--set=", 6)) {
      if (!trv_params_set_assignment(&p, argv[i] + 6, &err)) break;
    } else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) && i + 1 < argc) {
      out = argv[++i];
    } else {
      fprintf(stderr, "trivium llm record: unknown argument '%s'; see trivium llm --help\n", argv[i]);
      return 2;
    }
  }
  const TrvLlmParams *lp = trv_params_block(&p, &trv_llm_params);
  const TrvLlmModel *m = err ? NULL : trv_llm_model_lookup(lp->model);
  if (!err && !m) {
    char *names = trv_llm_model_names();
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "world.model = '%s': expected one of: %s (--set world.model=NAME)",
                lp->model, names);
    g_free(names);
  }
  if (!err && !out) g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "no output file; expected -o FILE");
  if (!err && g_file_test(out, G_FILE_TEST_EXISTS))
    g_set_error(&err, TRV_ERROR, TRV_ERROR_INPUT, "%s exists; expected a new file (a recording is never overwritten)",
                out);
  if (err) {
    fprintf(stderr, "trivium llm record: %s\n", err->message);
    g_error_free(err);
    return 2;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  bool ok = f && trv_llm_record(f, m, lp->p_unreliable, (uint64_t)p.seed_base, p.seeds, p.episodes, &err);
  if (f) fclose(f);
  ok = ok && trv_write_file_atomic(out, buf, (gssize)len, &err);
  free(buf);
  if (!ok) {
    fprintf(stderr, "trivium llm record: %s\n", err ? err->message : "out of memory");
    g_clear_error(&err);
    return 1;
  }
  return 0;
}

static int cmd_check(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "trivium llm check: expected FILE [SEED]; see trivium llm --help\n");
    return 2;
  }
  char *end;
  errno = 0;
  unsigned long long seed = argc == 3 ? strtoull(argv[2], &end, 10) : 1;
  if (argc == 3 && (!*argv[2] || *end || errno || argv[2][0] == '-')) {
    fprintf(stderr, "trivium llm check: seed '%s'; expected a non-negative integer\n", argv[2]);
    return 2;
  }
  TrvLlmReplay r;
  GError *err = NULL;
  TrvLlmCoverage need = {seed, 1, 1};
  if (!trv_llm_replay_load(argv[1], seed, &need, &r, &err)) {
    fprintf(stderr, "trivium llm check: %s\n", err->message);
    g_error_free(err);
    return 2;
  }
  printf("%s: model %s (clean %g, hint %g, audit %g); seed %llu: user %s, %d episodes\n", argv[1], r.model,
         r.rates.clean, r.rates.hint, r.rates.audit, seed, r.unreliable ? "U" : "R", r.n_episodes);
  trv_llm_replay_clear(&r);
  return 0;
}

int trv_cmd_llm(int argc, char **argv) {
  if (argc < 2) return usage(stderr, 2);
  if (!strcmp(argv[1], "--help")) return usage(stdout, 0);
  if (!strcmp(argv[1], "models") && argc == 2) return cmd_models();
  if (!strcmp(argv[1], "record")) return cmd_record(argc - 1, argv + 1);
  if (!strcmp(argv[1], "check")) return cmd_check(argc - 1, argv + 1);
  fprintf(stderr, "trivium llm: unknown subcommand or argument '%s'; see trivium llm --help\n", argv[1]);
  return 2;
}
