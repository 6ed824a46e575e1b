/* The scenario loader (docs/scenarios.md): every shipped scenario loads with
 * its values, every element sets its field, the DTD, and `trivium
 * validate`.  The error classes are in test-scenario-errors.c, the
 * platforms (roles, cluster hosts) in test-scenario-platform.c. */
#include "test-scenario-util.h"
#include "api/modules.h"
#include "causalbench/causalbench.h"
#include "core/controller.h"
#include "core/detector.h"
#include "log/ctl-params.h"
#include "sim/sim-params.h"
#include "worlds.h"

/* The values of the modules' blocks in p. */
static const TrvCausalbenchParams *cb(const TrvParams *p) { return trv_params_block(p, &trv_causalbench_params); }
static const TrvTriviumParams *trivium(const TrvParams *p) { return trv_params_block(p, &trv_trivium_params); }
static const TrvSimParams *sim(const TrvParams *p) { return trv_sim_params_of(p); }
static const TrvCtlParams *ctl(const TrvParams *p) { return trv_ctl_params_of(p); }

/* ---- shipped scenarios ---- */

static void every_shipped_scenario_loads(void) {
  char *dir = g_build_filename(srcdir(), "scenarios", NULL);
  GDir *d = g_dir_open(dir, 0, NULL);
  g_assert_nonnull(d);
  int n = 0;
  for (const char *name; (name = g_dir_read_name(d));) {
    if (!g_str_has_suffix(name, ".xml")) continue;
    trv_scenario_free(load_shipped(name));
    n++;
  }
  g_dir_close(d);
  g_free(dir);
  g_assert_cmpint(n, ==, 53); /* 35 CausalBench-Seq, 9 URS, 7 JSSP, 1 LLM-stream and 1 Warehouse scenarios */
}

static void default_scenario_is_the_run_defaults(void) {
  const char *names[] = {"default.xml", "headline.xml"};
  TrvParams defaults;
  trv_params_defaults(&defaults);
  char *platform = src_path("platforms/causalbench.xml");
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    TrvScenario *s = load_shipped(names[i]);
    g_assert_true(memcmp(&s->params, &defaults, sizeof defaults) == 0);
    g_assert_cmpint(s->params.episodes, ==, 500);
    g_assert_cmpint(s->params.seeds, ==, 20);
    g_assert_null(s->controllers);
    g_assert_cmpstr(s->platform, ==, platform);
    g_assert_cmpstr(s->world, ==, "causalbench");
    for (int r = 0; r < 3; r++) g_assert_null(s->role_hosts[r]);
    g_assert_null(s->ctl_file);
    g_assert_null(s->out_dir);
    g_assert_cmpuint(s->faults->len, ==, 0);
    g_assert_cmpuint(s->sweeps->len, ==, 0);
    g_assert_cmpuint(trv_scenario_n_points(s), ==, 1);
    trv_scenario_free(s);
  }
  g_free(platform);
}

static void variant_scenarios_set_their_world(void) {
  static const struct {
    const char *file;
    int variant, flips;
    double nu;
  } cases[] = {
      {"flips-k1.xml", TRV_VARIANT_FLIPS, 1, 1.0},
      {"flips-k3.xml", TRV_VARIANT_FLIPS, 3, 1.0},
      {"flips-k5.xml", TRV_VARIANT_FLIPS, 5, 1.0},
      {"variance.xml", TRV_VARIANT_VARIANCE, 3, 1.0},
      {"nonlinear-nu0.5.xml", TRV_VARIANT_NONLINEAR, 3, 0.5},
      {"nonlinear-nu1.xml", TRV_VARIANT_NONLINEAR, 3, 1.0},
      {"nonlinear-nu2.xml", TRV_VARIANT_NONLINEAR, 3, 2.0},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    TrvScenario *s = load_shipped(cases[i].file);
    g_assert_cmpint(cb(&s->params)->variant, ==, cases[i].variant);
    g_assert_cmpint(cb(&s->params)->flips, ==, cases[i].flips);
    g_assert_cmpfloat(cb(&s->params)->nu, ==, cases[i].nu);
    g_assert_cmpint(s->params.episodes, ==, 500);
    g_assert_null(s->controllers);
    trv_scenario_free(s);
  }
}

static void separation_scenario_is_one_long_unmatched_episode(void) {
  TrvScenario *s = load_shipped("separation.xml");
  g_assert_cmpint(cb(&s->params)->variant, ==, TRV_VARIANT_SEPARATION);
  g_assert_cmpint(s->params.episodes, ==, 1);
  g_assert_cmpint(s->params.steps, ==, 500);
  g_assert_cmpint(((const TrvEpistemicResetParams *)trv_params_block(&s->params, &trv_epistemic_reset_params))->matched,
                  ==, 0);
  g_assert_cmpuint(g_strv_length(s->controllers), ==, 2);
  g_assert_cmpstr(s->controllers[0], ==, "rlvr");
  g_assert_cmpstr(s->controllers[1], ==, "epistemic-reset");
  trv_scenario_free(s);
}

static void fault_sweep_scenario_sweeps_the_flap_rate(void) {
  TrvScenario *s = load_shipped("fault-sweep.xml");
  g_assert_cmpint(s->params.seeds, ==, 10);
  g_assert_cmpstr(s->controllers[0], ==, "trivium");
  g_assert_null(s->controllers[1]);
  g_assert_cmpuint(s->faults->len, ==, 1);
  const TrvFaultSpec *f = &g_array_index(s->faults, TrvFaultSpec, 0);
  g_assert_cmpint(f->kind, ==, TRV_FAULT_LINK_FLAP);
  g_assert_cmpstr(f->pattern, ==, "agent-*-uplink");
  g_assert_cmpfloat(f->mtbf, ==, 10);
  g_assert_cmpfloat(f->mttr, ==, 0.5);
  g_assert_cmpfloat(f->start, ==, 0);
  g_assert_true(isinf(f->stop));
  g_assert_cmpuint(trv_scenario_n_points(s), ==, 7);
  static const double mtbf[] = {1, 2, 5, 10, 20, 50, 1e9};
  for (size_t k = 0; k < 7; k++) {
    TrvParams p;
    GArray *faults = trv_scenario_point(s, k, &p);
    g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).mtbf, ==, mtbf[k]);
    g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).mttr, ==, 0.5);
    g_assert_true(memcmp(&p, &s->params, sizeof p) == 0);
    g_array_free(faults, TRUE);
  }
  g_assert_cmpfloat(f->mtbf, ==, 10); /* points do not touch the scenario */
  char *label = trv_scenario_point_label(s, 2);
  g_assert_cmpstr(label, ==, "link-flap.mtbf=5");
  g_free(label);
  trv_scenario_free(s);
}

static void multi_agent_scenario_sweeps_the_agent_count(void) {
  TrvScenario *s = load_shipped("multi-agent.xml");
  g_assert_cmpstr(s->role_hosts[TRV_ROLE_AGENT], ==, "agent-*");
  g_assert_null(s->role_hosts[TRV_ROLE_CONTROLLER]);
  g_assert_cmpuint(trv_scenario_n_points(s), ==, 8);
  static const int m[] = {1, 2, 3, 4, 6, 8, 12, 16};
  for (size_t k = 0; k < 8; k++) {
    TrvParams p;
    g_array_free(trv_scenario_point(s, k, &p), TRUE);
    g_assert_cmpint(sim(&p)->agents, ==, m[k]);
    g_assert_cmpint(p.seeds, ==, 10);
    /* every setting its docs quote is in the file */
    g_assert_cmpint(p.episodes, ==, 100);
    g_assert_cmpfloat(sim(&p)->probe_flops, ==, 1e9);
    g_assert_cmpfloat(sim(&p)->step_seconds, ==, 0.01);
  }
  g_assert_cmpuint(g_strv_length(s->controllers), ==, 2);
  trv_scenario_free(s);
}

/* ---- a scenario using every element ---- */

static void every_element_sets_its_field(void) {
  const char *xml =
      "<?xml version=\"1.0\"?>\n"
      "<!DOCTYPE trivium-scenario SYSTEM \"trivium-scenario.dtd\">\n"
      "<trivium-scenario version=\"1\">\n"
      "  <platform file=\"../../platforms/causalbench.xml\">\n"
      "    <role name=\"controller\" hosts=\" controller \"/>\n"
      "    <role name=\"ctl\" hosts=\"ctl,controller\"/>\n"
      "  </platform>\n"
      "  <world name=\"causalbench\" variant=\"flips\" flips=\"7\" kappa=\"2.5\"/>\n"
      "  <controllers names=\"trivium, rlvr\"/>\n"
      "  <run episodes=\"40\" seeds=\"3\" seed_base=\"11\" steps=\"20\" out=\"out/run1\"/>\n"
      "  <posterior slab=\"gaussian\" hazard=\"0.01\"/>\n"
      "  <budget alpha=\"2\" scheduler=\"roundrobin\"/>\n"
      "  <commit h_ent=\"0.5\"/>\n"
      "  <lrcp window=\"10\" radius=\"2\"/>\n"
      "  <detector name=\"residual-ratio\" rr_window=\"40\"/>\n"
      "  <gate rho=\"0.25\"/>\n"
      "  <ctl file=\"logs/a.ctl\" mode=\"best-effort\" replicas=\"3\" timeout=\"0.5\" retries=\"7\" fsync=\"group\"/>\n"
      "  <agents count=\"4\" hosts=\"agent-*\"/>\n"
      "  <sim step_flops=\"2e6\" probe_flops=\"0\"/>\n"
      "  <set param=\"reactive.sd\" value=\"2\"/>\n"
      "  <faults>\n"
      "    <link-flap links=\"agent-0-uplink\" mtbf=\"30\" mttr=\"2\" start=\"5\" stop=\"60\"/>\n"
      "    <host-crash host=\"ctl\" at=\"12.5\" duration=\"3\"/>\n"
      "    <partition hosts=\"agent-*,controller\" at=\"20\" duration=\"1\"/>\n"
      "  </faults>\n"
      "  <sweep param=\"gate.rho\" values=\"0.5, 1\"/>\n"
      "  <sweep param=\"host-crash.duration\" values=\"1,2,4\"/>\n"
      "</trivium-scenario>\n";
  GError *err = NULL;
  TrvScenario *s = load_string(xml, &err);
  g_assert_no_error(err);
  g_assert_cmpstr(s->file, ==, "mem.xml");
  g_assert_cmpstr(s->role_hosts[TRV_ROLE_CONTROLLER], ==, "controller");
  g_assert_cmpstr(s->role_hosts[TRV_ROLE_CTL], ==, "ctl,controller");
  g_assert_cmpstr(s->role_hosts[TRV_ROLE_AGENT], ==, "agent-*");
  g_assert_cmpint(cb(&s->params)->variant, ==, TRV_VARIANT_FLIPS);
  g_assert_cmpint(cb(&s->params)->flips, ==, 7);
  g_assert_cmpfloat(cb(&s->params)->kappa, ==, 2.5);
  g_assert_cmpstr(s->controllers[0], ==, "trivium");
  g_assert_cmpstr(s->controllers[1], ==, "rlvr");
  g_assert_null(s->controllers[2]);
  g_assert_cmpint(s->params.episodes, ==, 40);
  g_assert_cmpint(s->params.seeds, ==, 3);
  g_assert_cmpint(s->params.seed_base, ==, 11);
  g_assert_cmpint(s->params.steps, ==, 20);
  g_assert_cmpstr(s->out_dir, ==, "out/run1"); /* outputs stay relative: see the path rules */
  g_assert_cmpint(s->params.slab, ==, TRV_SLAB_GAUSSIAN);
  g_assert_cmpfloat(s->params.hazard, ==, 0.01);
  g_assert_cmpfloat(s->params.alpha, ==, 2);
  g_assert_cmpint(s->params.scheduler, ==, TRV_SCHED_ROUNDROBIN);
  g_assert_cmpfloat(s->params.h_ent, ==, 0.5);
  g_assert_cmpint(s->params.lrcp_window, ==, 10);
  g_assert_cmpint(s->params.lrcp_radius, ==, 2);
  const TrvModule *detector = trv_detector_selected(&s->params);
  g_assert_cmpstr(detector->name, ==, "residual-ratio");
  g_assert_cmpint(((const TrvResidualRatioParams *)trv_params_block(&s->params, detector->params))->window, ==, 40);
  g_assert_cmpfloat(trivium(&s->params)->rho, ==, 0.25);
  g_assert_cmpstr(s->ctl_file, ==, "logs/a.ctl");
  g_assert_cmpint(ctl(&s->params)->mode, ==, TRV_CTL_MODE_BEST_EFFORT);
  g_assert_cmpint(ctl(&s->params)->replicas, ==, 3);
  g_assert_cmpfloat(ctl(&s->params)->timeout, ==, 0.5);
  g_assert_cmpint(ctl(&s->params)->retries, ==, 7);
  g_assert_cmpint(ctl(&s->params)->fsync, ==, 1);
  g_assert_cmpint(sim(&s->params)->agents, ==, 4);
  g_assert_cmpfloat(sim(&s->params)->step_flops, ==, 2e6);
  g_assert_cmpfloat(sim(&s->params)->probe_flops, ==, 0);
  g_assert_cmpfloat(((const TrvReactiveParams *)trv_params_block(&s->params, &trv_reactive_params))->sd, ==, 2);
  g_assert_cmpuint(s->faults->len, ==, 3);
  const TrvFaultSpec *f = (const TrvFaultSpec *)s->faults->data;
  g_assert_cmpint(f[0].kind, ==, TRV_FAULT_LINK_FLAP);
  g_assert_cmpfloat(f[0].start, ==, 5);
  g_assert_cmpfloat(f[0].stop, ==, 60);
  g_assert_cmpint(f[0].line, ==, 22);
  g_assert_cmpint(f[1].kind, ==, TRV_FAULT_HOST_CRASH);
  g_assert_cmpstr(f[1].pattern, ==, "ctl");
  g_assert_cmpfloat(f[1].at, ==, 12.5);
  g_assert_cmpfloat(f[1].duration, ==, 3);
  g_assert_cmpfloat(f[1].mtbf, ==, 0);
  g_assert_cmpint(f[2].kind, ==, TRV_FAULT_PARTITION);
  g_assert_cmpstr(f[2].pattern, ==, "agent-*,controller");
  g_assert_cmpint(f[2].line, ==, 24);
  /* the grid: 2 x 3 points, the last sweep fastest */
  g_assert_cmpuint(trv_scenario_n_points(s), ==, 6);
  TrvParams p;
  GArray *faults = trv_scenario_point(s, 4, &p);
  g_assert_cmpfloat(trivium(&p)->rho, ==, 1);
  g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 1).duration, ==, 2);
  g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 2).duration, ==, 1); /* a partition, not swept */
  g_array_free(faults, TRUE);
  char *label = trv_scenario_point_label(s, 4);
  g_assert_cmpstr(label, ==, "gate.rho=1 host-crash.duration=2");
  g_free(label);
  trv_scenario_free(s);
}

/* A link-flap's laws and shapes reach the fault spec, exponential (shape 0)
 * when not given, and a shape sweep sets the shape of every link-flap. */
static void flap_laws_and_shape_sweeps_reach_the_faults(void) {
  GError *err = NULL;
  TrvScenario *s = load_string(HEAD "  <faults>\n"
                                    "    <link-flap links=\"centre-lan\" mtbf=\"30\" mttr=\"2\" up=\"weibull\" "
                                    "up_shape=\"0.7\" down=\"lognormal\" down_shape=\"1.5\"/>\n"
                                    "    <link-flap links=\"agent-0-uplink\" mtbf=\"30\" mttr=\"2\" up=\"lognormal\" "
                                    "up_shape=\"1\"/>\n"
                                    "  </faults>\n"
                                    "  <sweep param=\"link-flap.up_shape\" values=\"0.5,2\"/>\n" TAIL,
                               &err);
  g_assert_no_error(err);
  const TrvFaultSpec *f = (const TrvFaultSpec *)s->faults->data;
  g_assert_cmpint(f[0].up, ==, TRV_FAULT_WEIBULL);
  g_assert_cmpfloat(f[0].up_shape, ==, 0.7);
  g_assert_cmpint(f[0].down, ==, TRV_FAULT_LOGNORMAL);
  g_assert_cmpfloat(f[0].down_shape, ==, 1.5);
  g_assert_cmpint(f[1].up, ==, TRV_FAULT_LOGNORMAL);
  g_assert_cmpint(f[1].down, ==, TRV_FAULT_EXPONENTIAL);
  g_assert_cmpfloat(f[1].down_shape, ==, 0);
  TrvParams p;
  GArray *faults = trv_scenario_point(s, 1, &p);
  g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).up_shape, ==, 2);
  g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 1).up_shape, ==, 2);
  g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).down_shape, ==, 1.5); /* not swept */
  g_array_free(faults, TRUE);
  trv_scenario_free(s);
}

/* Fault times take units; a fixed law takes no shape and stays a law of its own. */
static void fault_times_take_units_and_fixed_laws(void) {
  const struct {
    const char *text;
    double seconds; /* < 0: refused */
  } cases[] = {{"90", 90},    {"1.5h", 5400}, {"10min", 600}, {"10m", 600}, {"2d", 172800}, {"500ms", 0.5},
               {"30s", 30},   {"1e3s", 1000}, {"6 h", -1},    {"h", -1},    {"6hh", -1},    {"6H", -1},
               {"0x10s", -1}, {"infh", -1},   {"1e300d", -1}, {"-1h", -1},  {"5sec", -1},   {".5h", 1800}};
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    double v = -7;
    bool ok = trv_fault_seconds("start", cases[i].text, &v);
    g_assert_cmpint(ok, ==, cases[i].seconds >= 0);
    g_assert_cmpfloat(v, ==, ok ? cases[i].seconds : -7);
  }
  double v = 0;
  g_assert_false(trv_fault_seconds("mttr", "0.5ms", &v)); /* below TRV_FAULT_MIN_PERIOD */
  g_assert_true(trv_fault_seconds("mttr", "1ms", &v));
  g_assert_cmpfloat(v, ==, 1e-3);
  GError *err = NULL;
  TrvScenario *s =
      load_string(HEAD "  <faults>\n"
                       "    <link-flap links=\"agent-0-uplink\" mtbf=\"50min\" mttr=\"10min\" up=\"fixed\" "
                       "down=\"fixed\" start=\"1h\"/>\n"
                       "  </faults>\n" TAIL,
                  &err);
  g_assert_no_error(err);
  const TrvFaultSpec *f = (const TrvFaultSpec *)s->faults->data;
  g_assert_cmpint(f[0].up, ==, TRV_FAULT_FIXED);
  g_assert_cmpint(f[0].down, ==, TRV_FAULT_FIXED);
  g_assert_cmpfloat(f[0].mtbf, ==, 3000);
  g_assert_cmpfloat(f[0].mttr, ==, 600);
  g_assert_cmpfloat(f[0].start, ==, 3600);
  trv_scenario_free(s);
  /* a sweep's values take units too, at every point */
  s = load_string(HEAD
                  "  <faults>\n    <link-flap links=\"agent-0-uplink\" mtbf=\"1e9\" mttr=\"10min\"/>\n  </faults>\n"
                  "  <sweep param=\"link-flap.mtbf\" values=\"1d,8h,90\"/>\n"
                  "  <sweep param=\"link-flap.start\" values=\"0,1h\"/>\n" TAIL,
                  &err);
  g_assert_no_error(err);
  const double want_mtbf[] = {86400, 86400, 28800, 28800, 90, 90}, want_start[] = {0, 3600, 0, 3600, 0, 3600};
  for (int point = 0; point < 6; point++) {
    TrvParams p;
    GArray *faults = trv_scenario_point(s, point, &p);
    g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).mtbf, ==, want_mtbf[point]);
    g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).start, ==, want_start[point]);
    g_assert_cmpfloat(g_array_index(faults, TrvFaultSpec, 0).mttr, ==, 600);
    g_array_free(faults, TRUE);
  }
  trv_scenario_free(s);
  s = load_string(HEAD "  <faults>\n    <link-flap links=\"agent-0-uplink\" mtbf=\"1h\" mttr=\"1m\" up=\"fixed\" "
                       "up_shape=\"2\"/>\n  </faults>\n" TAIL,
                  &err);
  g_assert_null(s);
  g_assert_nonnull(strstr(err->message, "whose up times are fixed"));
  g_clear_error(&err);
}

/* ---- the DTD says what the loader accepts ---- */

static void dtd_attributes_match_the_loader(void) {
  char *path = g_build_filename(srcdir(), "scenarios", "trivium-scenario.dtd", NULL), *dtd;
  g_assert_true(g_file_get_contents(path, &dtd, NULL, NULL));
  GHashTable *declared = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  GRegex *el = g_regex_new("<!ELEMENT\\s+([a-z_-]+)", 0, 0, NULL);
  GRegex *attlist = g_regex_new("<!ATTLIST\\s+([a-z_-]+)([^>]*)>", 0, 0, NULL);
  GRegex *attr = g_regex_new("^\\s+([a-z_0-9]+)\\s+(CDATA|\\()", G_REGEX_MULTILINE, 0, NULL);
  GMatchInfo *m;
  int n_elements = 0;
  for (g_regex_match(el, dtd, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
    g_hash_table_add(declared, g_match_info_fetch(m, 1));
    n_elements++;
  }
  g_match_info_free(m);
  GHashTable *attrs_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (g_regex_match(attlist, dtd, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
    char *name = g_match_info_fetch(m, 1), *body = g_match_info_fetch(m, 2);
    GMatchInfo *am;
    GString *list = g_string_new(NULL);
    for (g_regex_match(attr, body, 0, &am); g_match_info_matches(am); g_match_info_next(am, NULL)) {
      char *a = g_match_info_fetch(am, 1);
      g_string_append_printf(list, "%s%s", list->len ? "," : "", a);
      g_free(a);
    }
    g_match_info_free(am);
    g_hash_table_insert(attrs_of, name, g_string_free(list, FALSE));
    g_free(body);
  }
  g_match_info_free(m);
  /* every element the DTD declares takes, in the loader, exactly the DTD's attributes */
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init(&it, declared);
  while (g_hash_table_iter_next(&it, &key, NULL)) {
    char **loader = trv_scenario_element_attributes(key);
    if (!loader) g_error("the DTD declares <%s>, which the loader does not know", (char *)key);
    char *got = g_strjoinv(",", loader);
    const char *want = g_hash_table_lookup(attrs_of, key);
    if (g_strcmp0(got, want ? want : ""))
      g_error("<%s>: the loader takes '%s', scenarios/trivium-scenario.dtd declares '%s'", (char *)key, got,
              want ? want : "");
    g_free(got);
    g_strfreev(loader);
  }
  /* and every section of the parameter table is an element of the DTD; an
   * attribute the DTD enumerates lists exactly the parameter's choices */
  size_t n;
  const TrvParamSpec *specs = trv_param_specs(&n);
  for (size_t i = 0; i < n; i++) {
    char *sec = g_strndup(specs[i].key, strcspn(specs[i].key, "."));
    if (!g_hash_table_contains(declared, sec))
      g_error("parameter %s: scenarios/trivium-scenario.dtd has no <%s>", specs[i].key, sec);
    if (specs[i].choices && strchr(specs[i].key, '.')) {
      char *pattern =
          g_strdup_printf("<!ATTLIST\\s+%s\\s[^>]*\\n\\s+%s\\s+\\(([^)]*)\\)", sec, strchr(specs[i].key, '.') + 1);
      GRegex *en = g_regex_new(pattern, 0, 0, NULL);
      if (g_regex_match(en, dtd, 0, &m)) {
        char *listed = g_match_info_fetch(m, 1), *want = g_strjoinv("|", (char **)specs[i].choices);
        if (strcmp(listed, want))
          g_error("parameter %s: scenarios/trivium-scenario.dtd lists (%s), the parameter table (%s)", specs[i].key,
                  listed, want);
        g_free(listed);
        g_free(want);
      }
      g_match_info_free(m);
      g_regex_unref(en);
      g_free(pattern);
    }
    g_free(sec);
  }
  g_assert_cmpint(n_elements, ==, 25);
  g_assert_null(trv_scenario_element_attributes("nosuch"));
  g_hash_table_destroy(attrs_of);
  g_hash_table_destroy(declared);
  g_regex_unref(el);
  g_regex_unref(attlist);
  g_regex_unref(attr);
  g_free(dtd);
  g_free(path);
}

/* ---- trivium validate ---- */

static void validate_command_prints_one_line_per_file(void) {
  const char *trivium = g_getenv("TRIVIUM");
  if (!trivium || !g_file_test(trivium, G_FILE_TEST_IS_EXECUTABLE)) {
    g_test_skip("TRIVIUM (the built program) not set");
    return;
  }
  char *good = g_build_filename(srcdir(), "scenarios", "fault-sweep.xml", NULL);
  char *sep = g_build_filename(srcdir(), "scenarios", "separation.xml", NULL);
  char *bad = g_build_filename(srcdir(), "tests", "scenarios", "out-of-range.xml", NULL);
  char *argv[] = {(char *)trivium, "validate", good, sep, bad, NULL};
  char *out = NULL, *err = NULL;
  int status;
  g_assert_true(g_spawn_sync(NULL, argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
  g_assert_true(WIFEXITED(status));
  g_assert_cmpint(WEXITSTATUS(status), ==, 2);
  char *want_out = g_strdup_printf("%s: ok (world causalbench, 1 controller, 500 episodes x 10 seeds, 1 fault, sweeps "
                                   "link-flap.mtbf over 7 values)\n"
                                   "%s: ok (world causalbench, 2 controllers, 1 episode x 20 seeds, 0 faults, no "
                                   "sweeps)\n",
                                   good, sep);
  char *want_err = g_strdup_printf("%s:5:8: parameter run.episodes: -5 is out of range [1, 1e+07]\n", bad);
  g_assert_cmpstr(out, ==, want_out);
  g_assert_cmpstr(err, ==, want_err);
  g_free(out);
  g_free(err);
  char *argv_ok[] = {(char *)trivium, "validate", good, NULL};
  g_assert_true(g_spawn_sync(NULL, argv_ok, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_cmpint(WEXITSTATUS(status), ==, 0);
  char *argv_none[] = {(char *)trivium, "validate", NULL};
  g_assert_true(g_spawn_sync(NULL, argv_none, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_cmpint(WEXITSTATUS(status), ==, 2);
  g_free(want_out);
  g_free(want_err);
  g_free(good);
  g_free(sep);
  g_free(bad);
}

/* `trivium validate /dev/urandom` used to read forever: the device is
 * refused before any read, with exit code 2. */
static void validate_refuses_a_device_at_once(void) {
  const char *trivium = g_getenv("TRIVIUM");
  if (!trivium || !g_file_test(trivium, G_FILE_TEST_IS_EXECUTABLE)) {
    g_test_skip("TRIVIUM (the built program) not set");
    return;
  }
  char *argv[] = {(char *)trivium, "validate", "/dev/urandom", NULL};
  char *out = NULL, *err = NULL;
  int status;
  gint64 t0 = g_get_monotonic_time();
  g_assert_true(g_spawn_sync(NULL, argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
  g_assert_cmpint(g_get_monotonic_time() - t0, <, 5 * G_USEC_PER_SEC);
  g_assert_true(WIFEXITED(status));
  g_assert_cmpint(WEXITSTATUS(status), ==, 2);
  g_assert_cmpstr(out, ==, "");
  g_assert_cmpstr(err, ==, "/dev/urandom: the scenario is a character device; expected a regular file\n");
  g_free(out);
  g_free(err);
}

/* Placements that defeat themselves are said: three replicas on one log
 * host, an agent on the controller's host, a host-crash no Trivium host
 * matches, a link-flap that stops before it starts, a crash of no
 * duration; the shipped scenarios have none of them at any point. */
static void self_defeating_placements_are_said(void) {
  const char *xml = "<trivium-scenario version=\"1\">\n"
                    "  <platform file=\"../../platforms/causalbench-multi.xml\">\n"
                    "    <role name=\"ctl\" hosts=\"ctl-0\"/>\n"
                    "    <role name=\"agent\" hosts=\"controller,agent-*\"/>\n"
                    "  </platform>\n"
                    "  <world name=\"causalbench\"/>\n"
                    "  <ctl replicas=\"3\"/>\n"
                    "  <agents count=\"4\"/>\n"
                    "  <faults><host-crash host=\"ctl-2\" at=\"10\" duration=\"5\"/>\n"
                    "    <host-crash host=\"ctl-0\" at=\"10\" duration=\"0\"/></faults>\n" TAIL;
  GError *err = NULL;
  TrvScenario *s = load_string(xml, &err);
  g_assert_no_error(err);
  /* the loader refuses stop <= start; a --fault or a swept start can still give it */
  TrvFaultSpec flap = {
      .kind = TRV_FAULT_LINK_FLAP, .pattern = "agent-0-uplink", .mtbf = 1, .mttr = 1, .start = 50, .stop = 20};
  GArray *faults = g_array_copy(s->faults);
  g_array_append_val(faults, flap);
  char **w = trv_scenario_warnings(s, &s->params, faults);
  g_array_free(faults, TRUE);
  g_assert_cmpuint(g_strv_length(w), ==, 5);
  g_assert_nonnull(strstr(w[3], "host-crash on 'ctl-0' (line 10): its duration is 0 s, so it changes nothing"));
  g_assert_nonnull(strstr(w[4], "link-flap on 'agent-0-uplink' (line 0): it starts at 50 s and stops at 20 s, so it "
                                "never fires"));
  g_assert_nonnull(strstr(w[0], "ctl.replicas = 3 on 1 log host: host ctl-0 holds 3 of them, a majority"));
  g_assert_nonnull(strstr(w[1], "1 of the 4 agents on the controller's host controller"));
  g_assert_nonnull(strstr(w[2], "host-crash on 'ctl-2' (line 9): no controller, log or agent host matches"));
  g_strfreev(w);
  /* one replica and one agent: only the agent on the controller's host is left to say */
  TrvParams p = s->params;
  trv_ctl_params_mut(&p)->replicas = 1;
  trv_sim_params_mut(&p)->agents = 1; /* agent 0 is on the first agent host: the controller's */
  w = trv_scenario_warnings(s, &p, NULL);
  g_assert_cmpuint(g_strv_length(w), ==, 1);
  g_strfreev(w);
  trv_scenario_free(s);

  char *dir = g_build_filename(srcdir(), "scenarios", NULL);
  GDir *d = g_dir_open(dir, 0, NULL);
  g_assert_nonnull(d);
  for (const char *name; (name = g_dir_read_name(d));) {
    if (!g_str_has_suffix(name, ".xml")) continue;
    TrvScenario *sh = load_shipped(name);
    for (size_t k = 0; k < trv_scenario_n_points(sh); k++) {
      TrvParams pp;
      GArray *faults = trv_scenario_point(sh, k, &pp);
      char **ww = trv_scenario_warnings(sh, &pp, faults);
      if (ww[0]) g_error("%s, point %zu: %s", name, k, ww[0]);
      g_strfreev(ww);
      g_array_free(faults, TRUE);
    }
    trv_scenario_free(sh);
  }
  g_dir_close(d);
  g_free(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin(); /* the loader checks names and keys against the registries */
  g_test_add_func("/scenario/shipped/every_shipped_scenario_loads", every_shipped_scenario_loads);
  g_test_add_func("/scenario/shipped/default_scenario_is_the_run_defaults", default_scenario_is_the_run_defaults);
  g_test_add_func("/scenario/shipped/variant_scenarios_set_their_world", variant_scenarios_set_their_world);
  g_test_add_func("/scenario/shipped/separation_scenario_is_one_long_unmatched_episode",
                  separation_scenario_is_one_long_unmatched_episode);
  g_test_add_func("/scenario/shipped/fault_sweep_scenario_sweeps_the_flap_rate",
                  fault_sweep_scenario_sweeps_the_flap_rate);
  g_test_add_func("/scenario/shipped/multi_agent_scenario_sweeps_the_agent_count",
                  multi_agent_scenario_sweeps_the_agent_count);
  g_test_add_func("/scenario/every_element_sets_its_field", every_element_sets_its_field);
  g_test_add_func("/scenario/flap_laws_and_shape_sweeps_reach_the_faults", flap_laws_and_shape_sweeps_reach_the_faults);
  g_test_add_func("/scenario/fault_times_take_units_and_fixed_laws", fault_times_take_units_and_fixed_laws);
  g_test_add_func("/scenario/dtd_attributes_match_the_loader", dtd_attributes_match_the_loader);
  g_test_add_func("/scenario/validate_command_prints_one_line_per_file", validate_command_prints_one_line_per_file);
  g_test_add_func("/scenario/validate_refuses_a_device_at_once", validate_refuses_a_device_at_once);
  g_test_add_func("/scenario/self_defeating_placements_are_said", self_defeating_placements_are_said);
  return g_test_run();
}
