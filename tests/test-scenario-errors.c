/* The scenario loader (docs/scenarios.md): every class of mistake gives its
 * exact FILE:LINE:COLUMN message, entities are never expanded or loaded, a
 * scenario never names a platform SimGrid would run as code nor an output
 * outside the run's directories, files are checked before they are read, and
 * every count is bounded. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario/scenario-internal.h"
#include "test-scenario-util.h"
#include "api/modules.h"
#include "worlds.h"

/* ---- the error classes of the acceptance, from files ---- */

static void misspelt_element_is_named_with_a_suggestion(void) {
  assert_file_fails(
      "misspelt-element.xml",
      ":5:3: unknown element <contollers> inside <trivium-scenario>; expected one of <platform>, "
      "<world>, <controllers>, <run>, <posterior>, <budget>, <commit>, <lrcp>, <detector>, <gate>, "
      "<reactive>, <epistemic_reset>, <grow>, <ctl>, <agents>, <sim>, <set>, <faults>, <sweep>; did you mean "
      "'controllers'?");
}

static void misspelt_attribute_is_located_with_a_suggestion(void) {
  assert_file_fails("misspelt-attribute.xml", ":6:8: unknown attribute 'episdoes' on <run>; expected one of: out, "
                                              "episodes, seeds, seed_base, steps; did you mean 'episodes'?");
}

static void missing_platform_file_names_the_resolved_path(void) {
  char *resolved = src_path("tests/scenarios/no-such-platform.xml");
  char *want = g_strdup_printf(":3:15: platform file 'no-such-platform.xml' refused: %s: cannot read the platform (No "
                               "such file or directory); expected a readable file",
                               resolved);
  assert_file_fails("missing-platform.xml", want);
  g_free(want);
  g_free(resolved);
}

static void empty_role_hosts_is_refused(void) {
  assert_file_fails("empty-role.xml", ":4:24: hosts=\"\" on <role> is empty; expected a comma-separated list of name "
                                      "patterns (globs), e.g. hosts=\"agent-*\"");
}

static void role_matching_no_host_lists_the_hosts(void) {
  assert_file_fails("role-matches-no-host.xml", ":5:24: role 'agent' pattern 'agnt-*' matches no host of @PLATFORM@; "
                                                "expected one of its hosts: controller, ctl, agent-0; did you mean "
                                                "'agent-0'?");
}

static void out_of_range_value_gives_the_table_range(void) {
  assert_file_fails("out-of-range.xml", ":5:8: parameter run.episodes: -5 is out of range [1, 1e+07]");
}

static void malformed_xml_gives_expat_error_and_place(void) {
  assert_file_fails("malformed.xml", ":5:3: malformed XML (mismatched tag); expected a well-formed XML document");
}

static void wrong_root_is_refused_with_a_suggestion(void) {
  assert_file_fails("wrong-root.xml", ":2:1: root element <trivium-scenaro>; expected <trivium-scenario "
                                      "version=\"1\">; did you mean 'trivium-scenario'?");
}

static void wrong_version_is_refused(void) {
  assert_file_fails("wrong-version.xml",
                    ":2:19: version=\"2\"; expected version=\"1\" (the only version this trivium reads)");
}

static void external_entity_is_never_loaded(void) {
  assert_file_fails("xxe.xml", ":2:14: declaration of external general entity 'e'; expected no entity declarations "
                               "(a scenario never defines or loads entities)");
  /* and nothing of the file it names leaks into any message */
  char *path = g_build_filename(srcdir(), "tests", "scenarios", "xxe.xml", NULL);
  GError *err = NULL;
  g_assert_null(trv_scenario_load(path, &err));
  g_assert_null(strstr(err->message, "root:"));
  g_error_free(err);
  g_free(path);
}

static void billion_laughs_is_refused_at_once(void) {
  gint64 t0 = g_get_monotonic_time();
  assert_file_fails("billion-laughs.xml", ":3:3: declaration of general entity 'lol'; expected no entity "
                                          "declarations (a scenario never defines or loads entities)");
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC / 10);
}

/* ---- more mistakes, from strings ---- */

static void unknown_controller_is_named_with_the_known_ones(void) {
  char *all = g_strjoinv(", ", (char **)trv_controller_names());
  char *want =
      g_strdup_printf("mem.xml:4:16: unknown controller 'rlvrr'; expected one of: %s; did you mean 'rlvr'?", all);
  assert_string_fails(HEAD "  <controllers names=\"trivium, rlvrr\"/>\n" TAIL, want);
  g_free(want);
  g_free(all);
  assert_string_fails(HEAD "  <controllers names=\"trivium,rlvr,trivium\"/>\n" TAIL,
                      "mem.xml:4:16: controller 'trivium' listed twice; expected each controller once");
}

static void unknown_world_is_named(void) {
  assert_string_fails(
      "<trivium-scenario version=\"1\">\n"
      "  <platform file=\"../../platforms/causalbench.xml\"/>\n"
      "  <world name=\"causalbnch\"/>\n" TAIL,
      "mem.xml:3:10: unknown world 'causalbnch'; expected one of: causalbench, urs, jssp, llm, warehouse; did you mean "
      "'causalbench'?");
}

static void set_checks_key_and_value(void) {
  assert_string_fails(HEAD "  <set param=\"posterior.hazrd\" value=\"0.1\"/>\n" TAIL,
                      "mem.xml:4:8: unknown parameter 'posterior.hazrd'; expected a key of the parameter table "
                      "(`trivium params`); did you mean 'posterior.hazard'?");
  assert_string_fails(HEAD "  <set param=\"posterior.slab\" value=\"flat\"/>\n" TAIL,
                      "mem.xml:4:31: parameter posterior.slab: 'flat' is not one of: gaussian, separated, soft");
  assert_string_fails(HEAD "  <set param=\"run.seeds\"/>\n" TAIL,
                      "mem.xml:4:3: <set> without value; expected <set param=\"KEY\" value=\"V\">");
  assert_string_fails(HEAD "  <run seeds=\"2.5\"/>\n" TAIL,
                      "mem.xml:4:8: parameter run.seeds: '2.5' is not an integer");
  assert_string_fails(HEAD "  <ctl mode=\"fast\"/>\n" TAIL,
                      "mem.xml:4:8: parameter ctl.mode: 'fast' is not one of: atomic, best-effort");
  assert_string_fails(HEAD "  <ctl replicas=\"16\"/>\n" TAIL,
                      "mem.xml:4:8: parameter ctl.replicas: 16 is out of range [1, 15]");
}

static void structure_mistakes_are_located(void) {
  assert_string_fails(HEAD "  <run seeds=\"2\"/>\n  <run steps=\"3\"/>\n" TAIL,
                      "mem.xml:5:3: second <run>; expected at most one <run> (the first is at line 4)");
  assert_string_fails(HEAD "  <role name=\"agent\" hosts=\"agent-*\"/>\n" TAIL,
                      "mem.xml:4:3: element <role> inside <trivium-scenario>; expected it inside <platform>");
  assert_string_fails(HEAD "  <run><seeds/></run>\n" TAIL,
                      "mem.xml:4:8: element <seeds> inside <run>; expected <run/> to be empty");
  assert_string_fails(HEAD "  <run seeds=\"2\">20</run>\n" TAIL,
                      "mem.xml:4:18: text '20' inside <run>; expected only elements and attributes");
  assert_string_fails(HEAD "  <faults x=\"1\"/>\n" TAIL, "mem.xml:4:11: unknown attribute 'x' on <faults>; expected "
                                                         "no attributes");
  assert_string_fails(HEAD "  <faults><link-flop/></faults>\n" TAIL,
                      "mem.xml:4:11: unknown element <link-flop> inside <faults>; expected one of <link-flap>, "
                      "<host-crash>, <partition>, <fault-trace>; did you mean 'link-flap'?");
  assert_string_fails("<trivium-scenario version=\"1\">\n  <world name=\"causalbench\"/>\n" TAIL,
                      "mem.xml:1:1: <trivium-scenario> without <platform>; expected <platform file=\"PLATFORM.xml\"> "
                      "naming the SimGrid platform");
  assert_string_fails("<trivium-scenario version=\"1\">\n"
                      "  <platform file=\"../../platforms/causalbench.xml\"/>\n" TAIL,
                      "mem.xml:1:1: <trivium-scenario> without <world>; expected <world name=\"causalbench\" ...>");
  assert_string_fails("<trivium-scenario>\n" TAIL,
                      "mem.xml:1:1: <trivium-scenario> without version; expected <trivium-scenario version=\"1\">");
  assert_string_fails("", "mem.xml:1:1: malformed XML (no element found); expected a well-formed XML document");
}

static void roles_and_agent_hosts_are_checked(void) {
  assert_string_fails("<trivium-scenario version=\"1\">\n"
                      "  <platform file=\"../../platforms/causalbench.xml\">\n"
                      "    <role name=\"agents\" hosts=\"agent-*\"/>\n"
                      "  </platform>\n"
                      "  <world name=\"causalbench\"/>\n" TAIL,
                      "mem.xml:3:11: unknown role 'agents'; expected one of: controller, ctl, agent; did you mean "
                      "'agent'?");
  assert_string_fails("<trivium-scenario version=\"1\">\n"
                      "  <platform file=\"../../platforms/causalbench.xml\">\n"
                      "    <role name=\"agent\" hosts=\"agent-*\"/>\n"
                      "  </platform>\n"
                      "  <world name=\"causalbench\"/>\n"
                      "  <agents hosts=\"agent-0\"/>\n" TAIL,
                      "mem.xml:6:11: agent hosts given by both <role name=\"agent\"> and <agents hosts>; expected one "
                      "of them");
  assert_string_fails(HEAD "  <agents hosts=\"a,,b\"/>\n" TAIL,
                      "mem.xml:4:11: hosts=\"a,,b\" on <agents> has an empty item; expected a comma-separated list of "
                      "name patterns (globs), e.g. hosts=\"agent-*\"");
}

static void faults_are_checked(void) {
  assert_string_fails(
      HEAD "  <faults>\n    <link-flap links=\"agent-*-uplink\" mtbf=\"10\" mttr=\"0\"/>\n  </faults>\n" TAIL,
      "mem.xml:5:49: mttr=\"0\" on <link-flap>; expected a number of simulated seconds in [0.001, "
      "1e+09], or of a unit (ms, s, min or m, h, d: 10min, 6h)");
  assert_string_fails(HEAD "  <faults>\n    <host-crash host=\"agent-0\" at=\"3\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:5: <host-crash> without duration; expected <host-crash host=\"GLOB\" at=\"S\" "
                      "duration=\"S\">");
  assert_string_fails(HEAD
                      "  <faults>\n    <partition hosts=\"agent-0\" at=\"-1\" duration=\"2\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:32: at=\"-1\" on <partition>; expected a number of simulated seconds in [0, 1e+09], "
                      "or of a unit (ms, s, min or m, h, d: 10min, 6h)");
  assert_string_fails(HEAD "  <faults>\n    <link-flap links=\"uplink-*\" mtbf=\"1\" mttr=\"1\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:16: link-flap pattern 'uplink-*' matches no link of @PLATFORM@; expected one of its "
                      "links: centre-lan, agent-0-uplink");
  assert_string_fails(HEAD "  <faults>\n    <host-crash host=\"agent-1\" at=\"1\" duration=\"1\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:17: host-crash pattern 'agent-1' matches no host of @PLATFORM@; expected one of its "
                      "hosts: controller, ctl, agent-0; did you mean 'agent-0'?");
  assert_string_fails(HEAD
                      "  <faults>\n    <link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\" start=\"9\" stop=\"9\"/>\n"
                      "  </faults>\n" TAIL,
                      "mem.xml:5:63: stop=\"9\" on <link-flap> is not after start=\"9\"; expected stop > start");
}

/* A link-flap's laws: a known name, a shape exactly when the law has one,
 * within that law's range; a swept shape against every link-flap's law. */
static void flap_laws_are_checked(void) {
#define FLAP "  <faults><link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\" "
  assert_string_fails(
      HEAD FLAP "up=\"weibul\" up_shape=\"1\"/></faults>\n" TAIL,
      "mem.xml:4:59: up=\"weibul\" on <link-flap>; expected exponential, weibull, lognormal or fixed; did "
      "you mean 'weibull'?");
  assert_string_fails(
      HEAD FLAP "down=\"pareto\" down_shape=\"1\"/></faults>\n" TAIL,
      "mem.xml:4:59: down=\"pareto\" on <link-flap>; expected exponential, weibull, lognormal or fixed");
  assert_string_fails(HEAD FLAP "up_shape=\"0.5\"/></faults>\n" TAIL,
                      "mem.xml:4:59: up_shape=\"0.5\" on <link-flap> whose up times are exponential; expected "
                      "up=\"weibull\" or up=\"lognormal\" with it, or no up_shape");
  assert_string_fails(HEAD FLAP "down=\"exponential\" down_shape=\"2\"/></faults>\n" TAIL,
                      "mem.xml:4:78: down_shape=\"2\" on <link-flap> whose down times are exponential; expected "
                      "down=\"weibull\" or down=\"lognormal\" with it, or no down_shape");
  assert_string_fails(HEAD FLAP "down=\"lognormal\"/></faults>\n" TAIL,
                      "mem.xml:4:11: <link-flap down=\"lognormal\"> without down_shape; expected down_shape=\"...\", "
                      "the lognormal sigma of the log, a number in [0.01, 5]");
  assert_string_fails(HEAD FLAP "up=\"weibull\" up_shape=\"0.05\"/></faults>\n" TAIL,
                      "mem.xml:4:72: up_shape=\"0.05\" on <link-flap up=\"weibull\">; expected the Weibull shape k, "
                      "a number in [0.1, 10]");
  assert_string_fails(HEAD FLAP "up=\"weibull\" up_shape=\"11\"/></faults>\n" TAIL,
                      "mem.xml:4:72: up_shape=\"11\" on <link-flap up=\"weibull\">; expected the Weibull shape k, a "
                      "number in [0.1, 10]");
  assert_string_fails(HEAD FLAP "down=\"lognormal\" down_shape=\"nan\"/></faults>\n" TAIL,
                      "mem.xml:4:76: down_shape=\"nan\" on <link-flap down=\"lognormal\">; expected the lognormal "
                      "sigma of the log, a number in [0.01, 5]");
  assert_string_fails(HEAD FLAP "down=\"lognormal\" down_shape=\"6\"/></faults>\n" TAIL,
                      "mem.xml:4:76: down_shape=\"6\" on <link-flap down=\"lognormal\">; expected the lognormal "
                      "sigma of the log, a number in [0.01, 5]");
  assert_string_fails(HEAD FLAP "down=\"lognormal\" down_shape=\"0.001\"/></faults>\n" TAIL,
                      "mem.xml:4:76: down_shape=\"0.001\" on <link-flap down=\"lognormal\">; expected the lognormal "
                      "sigma of the log, a number in [0.01, 5]");
  assert_string_fails(HEAD FLAP "/></faults>\n  <sweep param=\"link-flap.up_shape\" values=\"1,2\"/>\n" TAIL,
                      "mem.xml:5:10: sweep over link-flap.up_shape but the <link-flap> at line 4 has exponential up "
                      "times; expected up=\"weibull\" or up=\"lognormal\" on every <link-flap>");
  assert_string_fails(HEAD FLAP "up=\"weibull\" up_shape=\"1\"/></faults>\n"
                                "  <sweep param=\"link-flap.up_shape\" values=\"1,inf\"/>\n" TAIL,
                      "mem.xml:5:37: sweep value 'inf' of link-flap.up_shape; expected the Weibull shape k, a number "
                      "in [0.1, 10], or the lognormal sigma of the log, a number in [0.01, 5]");
  assert_string_fails(HEAD FLAP "down=\"lognormal\" down_shape=\"1\"/></faults>\n"
                                "  <sweep param=\"link-flap.down_shape\" values=\"1,8\"/>\n" TAIL,
                      "mem.xml:5:10: sweep value link-flap.down_shape=8 against the <link-flap down=\"lognormal\"> "
                      "at line 4; expected the lognormal sigma of the log, a number in [0.01, 5]");
  assert_string_fails(HEAD FLAP "up=\"weibull\" up_shape=\"1\"/>\n"
                                "    <link-flap links=\"agent-0-uplink\" mtbf=\"1\" mttr=\"1\"/></faults>\n"
                                "  <sweep param=\"link-flap.up_shape\" values=\"0.5\"/>\n" TAIL,
                      "mem.xml:6:10: sweep over link-flap.up_shape but the <link-flap> at line 5 has exponential up "
                      "times; expected up=\"weibull\" or up=\"lognormal\" on every <link-flap>");
#undef FLAP
}

static void sweeps_are_checked(void) {
  assert_string_fails(HEAD "  <sweep param=\"run.seeds\" values=\"1,0\"/>\n" TAIL,
                      "mem.xml:4:28: parameter run.seeds: 0 is out of range [1, 100000]");
  assert_string_fails(HEAD "  <sweep param=\"run.seeds\" values=\"1,,2\"/>\n" TAIL,
                      "mem.xml:4:28: values=\"1,,2\" on <sweep> has an empty item; expected a comma-separated list of "
                      "values");
  assert_string_fails(HEAD "  <sweep param=\"link-flap.mtfb\" values=\"1\"/>\n" TAIL,
                      "mem.xml:4:10: unknown sweep parameter 'link-flap.mtfb'; expected a key of the parameter table "
                      "(`trivium params`) or a fault attribute (link-flap.mtbf, ...); did you mean 'link-flap.mtbf'?");
  assert_string_fails(HEAD "  <sweep param=\"link-flap.mtbf\" values=\"1,2\"/>\n" TAIL,
                      "mem.xml:4:10: sweep over link-flap.mtbf but the scenario has no <link-flap>; expected a "
                      "<link-flap> inside <faults>");
  assert_string_fails(HEAD
                      "  <sweep param=\"gate.rho\" values=\"1\"/>\n  <sweep param=\"gate.rho\" values=\"2\"/>\n" TAIL,
                      "mem.xml:5:10: second <sweep param=\"gate.rho\">; expected one sweep per parameter (the first is "
                      "at line 4)");
  assert_string_fails(HEAD "  <faults><link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\" stop=\"10\"/></faults>\n"
                           "  <sweep param=\"link-flap.start\" values=\"0,10\"/>\n" TAIL,
                      "mem.xml:5:10: sweep value link-flap.start=10 against the <link-flap> at line 4; expected stop > "
                      "start");
}

static void undeclared_entity_is_refused(void) {
  assert_string_fails("<!DOCTYPE trivium-scenario SYSTEM \"trivium-scenario.dtd\">\n" HEAD
                      "  <run out=\"&x;\"/>\n" TAIL,
                      "mem.xml:5:13: reference to undeclared entity 'x'; expected only the predefined entities and "
                      "character references");
  assert_string_fails(HEAD "  <run out=\"&x;\"/>\n" TAIL,
                      "mem.xml:4:3: malformed XML (undefined entity); expected a well-formed XML document");
}

/* Every message passes through trv_scn_printable: control characters and
 * bytes that are not UTF-8 (a name quoted from the raw text before Expat
 * has checked the encoding) are escaped, valid UTF-8 is kept, so a message
 * is one line of valid UTF-8 (fuzz/corpus/scenario/regress-entity-not-utf8). */
static void messages_escape_control_characters_and_bytes_that_are_not_utf8(void) {
  char *p = trv_scn_printable("a\xda\xd9\xe3&\nb \xc3\xa9 \xc3 \xf4\x90\x80\x80");
  g_assert_cmpstr(p, ==, "a\\xda\\xd9\\xe3&\\x0ab \xc3\xa9 \\xc3 \\xf4\\x90\\x80\\x80");
  g_assert_true(g_utf8_validate(p, -1, NULL));
  g_free(p);
}

static void columns_count_characters_not_bytes(void) {
  /* "é" is two bytes; Expat and the attribute locator both count it once. */
  assert_string_fails(HEAD "  <!--é--><run out=\"dé\" episdoes=\"5\"/>\n" TAIL,
                      "mem.xml:4:25: unknown attribute 'episdoes' on <run>; expected one of: out, episodes, seeds, "
                      "seed_base, steps; did you mean 'episodes'?");
  assert_string_fails(
      HEAD "  <!--é--><rn/>\n" TAIL,
      "mem.xml:4:11: unknown element <rn> inside <trivium-scenario>; expected one of <platform>, "
      "<world>, <controllers>, <run>, <posterior>, <budget>, <commit>, <lrcp>, <detector>, <gate>, "
      "<reactive>, <epistemic_reset>, <grow>, <ctl>, <agents>, <sim>, <set>, <faults>, <sweep>; did you mean "
      "'run'?");
}

static void unreadable_scenario_names_the_file(void) {
  GError *err = NULL;
  g_assert_null(trv_scenario_load("no/such/scenario.xml", &err));
  g_assert_cmpint(err->code, ==, TRV_ERROR_INPUT);
  g_assert_true(g_str_has_prefix(err->message, "no/such/scenario.xml: cannot read the scenario ("));
  g_assert_true(g_str_has_suffix(err->message, "); expected a readable file"));
  g_error_free(err);
}

/* ---- inputs are data: what is read, and how much ---- */

static void scenario_that_is_not_a_regular_file_is_refused_unread(void) {
  alarm(10); /* reading /dev/urandom or opening a FIFO without O_NONBLOCK would hang here */
  GError *err = NULL;
  g_assert_null(trv_scenario_load("/dev/urandom", &err));
  assert_error_message(err, "/dev/urandom: the scenario is a character device; expected a regular file");
  g_clear_error(&err);
  char *dir = g_dir_make_tmp("trivium-scenario-XXXXXX", NULL), *fifo = g_build_filename(dir, "s.xml", NULL);
  g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
  g_assert_null(trv_scenario_load(fifo, &err));
  char *want = g_strdup_printf("%s: the scenario is a FIFO; expected a regular file", fifo);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  g_assert_null(trv_scenario_load(dir, &err));
  want = g_strdup_printf("%s: the scenario is a directory; expected a regular file", dir);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  alarm(0);
  g_unlink(fifo);
  g_rmdir(dir);
  g_free(fifo);
  g_free(dir);
}

static void oversized_scenario_is_refused_before_reading(void) {
  char *dir = g_dir_make_tmp("trivium-scenario-XXXXXX", NULL), *big = g_build_filename(dir, "big.xml", NULL);
  int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)3 << 30), ==, 0); /* 3 GiB, sparse */
  close(fd);
  gint64 t0 = g_get_monotonic_time();
  GError *err = NULL;
  g_assert_null(trv_scenario_load(big, &err));
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC / 2); /* not read */
  char *want = g_strdup_printf("%s: the scenario is 3221225472 bytes; expected at most 1048576 bytes", big);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  /* one byte over the limit, from a file and from memory */
  char *text = g_strnfill(TRV_SCENARIO_MAX_BYTES + 1, ' ');
  g_assert_true(g_file_set_contents(big, text, -1, NULL));
  g_assert_null(trv_scenario_load(big, &err));
  want = g_strdup_printf("%s: the scenario is 1048577 bytes; expected at most 1048576 bytes", big);
  assert_error_message(err, want);
  g_clear_error(&err);
  g_free(want);
  g_assert_null(trv_scenario_load_from_memory(text, strlen(text), "mem.xml", NULL, &err));
  assert_error_message(err, "mem.xml: the scenario is 1048577 bytes; expected at most 1048576 bytes");
  g_clear_error(&err);
  g_free(text);
  g_unlink(big);
  g_rmdir(dir);
  g_free(big);
  g_free(dir);
}

static void platform_simgrid_would_load_as_a_library_is_refused(void) {
  char *so = src_path("tests/scenarios/payload.so");
  char *want = g_strdup_printf(":5:13: platform file 'payload.so' refused: %s: the platform's name does not end in "
                               ".xml; expected a SimGrid platform in XML (SimGrid would load any other file as a "
                               "shared library)",
                               so);
  assert_file_fails("platform-library.xml", want);
  g_free(want);
  g_free(so);
}

static void huge_cluster_is_refused_before_expansion(void) {
  char *platform = src_path("tests/scenarios/huge-radical-platform.xml");
  char *want = g_strdup_printf(":4:13: platform file 'huge-radical-platform.xml' refused: %s:5:46: <cluster> brings "
                               "the platform to 4294967296 hosts; expected at most 100000 hosts",
                               platform);
  gint64 t0 = g_get_monotonic_time();
  assert_file_fails("huge-radical.xml", want);
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC / 2);
  g_free(want);
  g_free(platform);
}

/* ---- outputs stay inside the run's directories ---- */

#define CTL_EXPECTED                                                                                                   \
  "expected a path ending in .ctl inside the run's output directory, relative and without '..', e.g. "                 \
  "file=\"log.ctl\" (a scenario never chooses where outside it the run writes)"
#define OUT_EXPECTED                                                                                                   \
  "expected a directory inside the one the run starts in, relative and without '..', e.g. out=\"results/flips\" "      \
  "(a scenario never chooses where outside it the run writes)"

static void output_paths_are_confined_to_the_run(void) {
  assert_file_fails("ctl-outside.xml",
                    ":7:8: file=\"/home/user/.bashrc.ctl\" on <ctl> is an absolute path; " CTL_EXPECTED);
  assert_file_fails("out-outside.xml",
                    ":6:8: out=\"results/../../elsewhere\" on <run> has a '..' component; " OUT_EXPECTED);
  assert_string_fails(HEAD "  <ctl file=\"../x.ctl\"/>\n" TAIL,
                      "mem.xml:4:8: file=\"../x.ctl\" on <ctl> has a '..' component; " CTL_EXPECTED);
  assert_string_fails(HEAD "  <ctl file=\"run.json\"/>\n" TAIL,
                      "mem.xml:4:8: file=\"run.json\" on <ctl> does not end in .ctl; " CTL_EXPECTED);
  assert_string_fails(HEAD "  <ctl file=\"logs/\"/>\n" TAIL,
                      "mem.xml:4:8: file=\"logs/\" on <ctl> does not end in .ctl; " CTL_EXPECTED);
  assert_string_fails(HEAD "  <ctl file=\"\"/>\n" TAIL, "mem.xml:4:8: file=\"\" on <ctl> is empty; " CTL_EXPECTED);
  assert_string_fails(HEAD "  <run out=\"/tmp/r\"/>\n" TAIL,
                      "mem.xml:4:8: out=\"/tmp/r\" on <run> is an absolute path; " OUT_EXPECTED);
  assert_string_fails(HEAD "  <run out=\"a&#10;b\"/>\n" TAIL,
                      "mem.xml:4:8: out=\"a\\x0ab\" on <run> holds a control character; " OUT_EXPECTED);
  char *name = g_strnfill(256, 'n');
  char *xml = g_strdup_printf(HEAD "  <run out=\"r/%s\"/>\n" TAIL, name);
  char *want =
      g_strdup_printf("mem.xml:4:8: out=\"r/%s\" on <run> has a name of 256 bytes (at most 255); " OUT_EXPECTED, name);
  assert_string_fails(xml, want);
  g_free(want);
  g_free(xml);
  g_free(name);
  /* what is allowed is stored normalised */
  GError *err = NULL;
  TrvScenario *s = load_string(HEAD "  <run out=\"./results//flips/\"/>\n  <ctl file=\"logs/./a.ctl\"/>\n" TAIL, &err);
  g_assert_no_error(err);
  g_assert_cmpstr(s->out_dir, ==, "results/flips");
  g_assert_cmpstr(s->ctl_file, ==, "logs/a.ctl");
  trv_scenario_free(s);
  s = load_string(HEAD "  <run out=\".\"/>\n" TAIL, &err);
  g_assert_no_error(err);
  g_assert_cmpstr(s->out_dir, ==, ".");
  trv_scenario_free(s);
}

/* ---- numbers and counts ---- */

static void fault_times_are_plain_bounded_numbers(void) {
  assert_string_fails(HEAD "  <faults><host-crash host=\"ctl\" at=\"0x10\" duration=\"1\"/></faults>\n" TAIL,
                      "mem.xml:4:34: at=\"0x10\" on <host-crash>; expected a number of simulated seconds in [0, "
                      "1e+09], or of a unit (ms, s, min or m, h, d: 10min, 6h)");
  assert_string_fails(HEAD "  <faults><host-crash host=\"ctl\" at=\" 5\" duration=\"1\"/></faults>\n" TAIL,
                      "mem.xml:4:34: at=\" 5\" on <host-crash>; expected a number of simulated seconds in [0, 1e+09], "
                      "or of a unit (ms, s, min or m, h, d: 10min, 6h)");
  assert_string_fails(HEAD "  <faults><host-crash host=\"ctl\" at=\"1\" duration=\"1e308\"/></faults>\n" TAIL,
                      "mem.xml:4:41: duration=\"1e308\" on <host-crash>; expected a number of simulated seconds in [0, "
                      "1e+09], or of a unit (ms, s, min or m, h, d: 10min, 6h)");
  assert_string_fails(HEAD "  <faults><link-flap links=\"centre-lan\" mtbf=\"1e-300\" mttr=\"1\"/></faults>\n" TAIL,
                      "mem.xml:4:41: mtbf=\"1e-300\" on <link-flap>; expected a number of simulated seconds in [0.001, "
                      "1e+09], or of a unit (ms, s, min or m, h, d: 10min, 6h)");
  assert_string_fails(HEAD "  <faults><link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\"/></faults>\n"
                           "  <sweep param=\"link-flap.mttr\" values=\"1,inf\"/>\n" TAIL,
                      "mem.xml:5:33: sweep value 'inf' of link-flap.mttr; expected a number of simulated seconds in "
                      "[0.001, 1e+09], or of a unit (ms, s, min or m, h, d: 10min, 6h)");
}

static void swept_flap_windows_keep_stop_after_start(void) {
  assert_string_fails(HEAD "  <faults><link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\"/></faults>\n"
                           "  <sweep param=\"link-flap.start\" values=\"0,50\"/>\n"
                           "  <sweep param=\"link-flap.stop\" values=\"10,100\"/>\n" TAIL,
                      "mem.xml:6:10: sweeps give the <link-flap> at line 4 a point with start=50 and stop=10; expected "
                      "every stop value above every start value");
}

/* A scenario with `n` copies of `item` (printf with the index) inside `wrap`. */
static char *repeated(const char *before, const char *item, int n, const char *after) {
  GString *s = g_string_new(HEAD);
  g_string_append(s, before);
  for (int i = 0; i < n; i++) g_string_append_printf(s, item, i);
  g_string_append(s, after);
  g_string_append(s, TAIL);
  return g_string_free(s, FALSE);
}

static void counts_are_bounded(void) {
  char *xml =
      repeated("  <faults>\n", "    <host-crash host=\"ctl\" at=\"%d\" duration=\"1\"/>\n", 1001, "  </faults>\n");
  assert_string_fails(xml, "mem.xml:1005:5: fault number 1001; expected at most 1000 faults");
  g_free(xml);
  xml = repeated("  <sweep param=\"run.seeds\" values=\"1", ",%d", 1000, "\"/>\n");
  assert_string_fails(xml,
                      "mem.xml:4:28: sweep over run.seeds has 1001 values; expected at most 1000 values per sweep");
  g_free(xml);
  xml = repeated(
      "  <sweep param=\"run.seeds\" values=\"1", ",1%d", 399,
      "\"/>\n"
      "  <sweep param=\"run.steps\" values=\"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,"
      "26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,"
      "59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,"
      "92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,"
      "119,120,121,122,123,124,125,126,127,128,129,130,131,132,133,134,135,136,137,138,139,140,141,142,143,"
      "144,145,146,147,148,149,150,151,152,153,154,155,156,157,158,159,160,161,162,163,164,165,166,167,168,"
      "169,170,171,172,173,174,175,176,177,178,179,180,181,182,183,184,185,186,187,188,189,190,191,192,193,"
      "194,195,196,197,198,199,200,201,202,203,204,205,206,207,208,209,210,211,212,213,214,215,216,217,218,"
      "219,220,221,222,223,224,225,226,227,228,229,230,231,232,233,234,235,236,237,238,239,240,241,242,243,"
      "244,245,246,247,248,249,250,251\"/>\n");
  assert_string_fails(xml, "mem.xml:5:28: sweep over run.steps makes a grid of 100400 points (400 x 251); expected at "
                           "most 100000 points");
  g_free(xml);
  /* patterns count over the whole scenario: 600 + 425 */
  GString *g = g_string_new(HEAD "  <agents hosts=\"a");
  for (int i = 1; i < 600; i++) g_string_append(g, ",a");
  g_string_append(g, "\"/>\n  <faults><partition hosts=\"b");
  for (int i = 1; i < 425; i++) g_string_append(g, ",b");
  g_string_append(g, "\" at=\"1\" duration=\"1\"/></faults>\n" TAIL);
  assert_string_fails(g->str, "mem.xml:5:22: hosts on <partition> brings the scenario to 1025 patterns; expected at "
                              "most 1024 patterns in all");
  g_string_free(g, TRUE);
  char *long_glob = g_strnfill(256, '*');
  xml = g_strdup_printf(HEAD "  <agents hosts=\"%s\"/>\n" TAIL, long_glob);
  assert_string_fails(xml, "mem.xml:4:11: pattern of 256 bytes in hosts on <agents>; expected at most 255 bytes (no "
                           "host or link name is longer)");
  g_free(xml);
  g_free(long_glob);
  char *value = g_strnfill(4097, '1');
  xml = g_strdup_printf(HEAD "  <run seeds=\"%s\"/>\n" TAIL, value);
  assert_string_fails(xml, "mem.xml:4:8: value of seeds on <run> is 4097 bytes long; expected at most 4096 bytes");
  g_free(xml);
  g_free(value);
  char *name = g_strnfill(65, 'e');
  xml = g_strdup_printf(HEAD "  <%s/>\n" TAIL, name);
  assert_string_fails(xml, "mem.xml:4:3: element name of 65 bytes; expected an element of the scenario language (names "
                           "of at most 64 bytes)");
  g_free(xml);
  g_free(name);
}

static void control_characters_are_escaped_in_messages(void) {
  /* XML allows only these three control characters, as references */
  assert_string_fails(HEAD "  <controllers names=\"tri&#13;&#10;&#9;vium\"/>\n" TAIL,
                      "mem.xml:4:16: unknown controller 'tri\\x0d\\x0a\\x09vium'; expected one of: trivium, rlvr, "
                      "rlvr-memory, reactive, epistemic-reset, trivium-nocusum, trivium-nolrcp, trivium-ideal-commit, "
                      "trivium-roundrobin, trivium-parallel, trivium-oracle, trivium-grow; did you mean 'trivium'?");
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin(); /* the loader checks names and keys against the registries */
  g_test_add_func("/scenario/errors/misspelt_element_is_named_with_a_suggestion",
                  misspelt_element_is_named_with_a_suggestion);
  g_test_add_func("/scenario/errors/misspelt_attribute_is_located_with_a_suggestion",
                  misspelt_attribute_is_located_with_a_suggestion);
  g_test_add_func("/scenario/errors/missing_platform_file_names_the_resolved_path",
                  missing_platform_file_names_the_resolved_path);
  g_test_add_func("/scenario/errors/empty_role_hosts_is_refused", empty_role_hosts_is_refused);
  g_test_add_func("/scenario/errors/role_matching_no_host_lists_the_hosts", role_matching_no_host_lists_the_hosts);
  g_test_add_func("/scenario/errors/out_of_range_value_gives_the_table_range",
                  out_of_range_value_gives_the_table_range);
  g_test_add_func("/scenario/errors/malformed_xml_gives_expat_error_and_place",
                  malformed_xml_gives_expat_error_and_place);
  g_test_add_func("/scenario/errors/wrong_root_is_refused_with_a_suggestion", wrong_root_is_refused_with_a_suggestion);
  g_test_add_func("/scenario/errors/wrong_version_is_refused", wrong_version_is_refused);
  g_test_add_func("/scenario/errors/external_entity_is_never_loaded", external_entity_is_never_loaded);
  g_test_add_func("/scenario/errors/billion_laughs_is_refused_at_once", billion_laughs_is_refused_at_once);
  g_test_add_func("/scenario/errors/unknown_controller_is_named_with_the_known_ones",
                  unknown_controller_is_named_with_the_known_ones);
  g_test_add_func("/scenario/errors/unknown_world_is_named", unknown_world_is_named);
  g_test_add_func("/scenario/errors/set_checks_key_and_value", set_checks_key_and_value);
  g_test_add_func("/scenario/errors/structure_mistakes_are_located", structure_mistakes_are_located);
  g_test_add_func("/scenario/errors/roles_and_agent_hosts_are_checked", roles_and_agent_hosts_are_checked);
  g_test_add_func("/scenario/errors/faults_are_checked", faults_are_checked);
  g_test_add_func("/scenario/errors/flap_laws_are_checked", flap_laws_are_checked);
  g_test_add_func("/scenario/errors/sweeps_are_checked", sweeps_are_checked);
  g_test_add_func("/scenario/errors/undeclared_entity_is_refused", undeclared_entity_is_refused);
  g_test_add_func("/scenario/errors/messages_escape_control_characters_and_bytes_that_are_not_utf8",
                  messages_escape_control_characters_and_bytes_that_are_not_utf8);
  g_test_add_func("/scenario/errors/columns_count_characters_not_bytes", columns_count_characters_not_bytes);
  g_test_add_func("/scenario/errors/unreadable_scenario_names_the_file", unreadable_scenario_names_the_file);
  g_test_add_func("/scenario/errors/scenario_that_is_not_a_regular_file_is_refused_unread",
                  scenario_that_is_not_a_regular_file_is_refused_unread);
  g_test_add_func("/scenario/errors/oversized_scenario_is_refused_before_reading",
                  oversized_scenario_is_refused_before_reading);
  g_test_add_func("/scenario/errors/platform_simgrid_would_load_as_a_library_is_refused",
                  platform_simgrid_would_load_as_a_library_is_refused);
  g_test_add_func("/scenario/errors/huge_cluster_is_refused_before_expansion",
                  huge_cluster_is_refused_before_expansion);
  g_test_add_func("/scenario/errors/output_paths_are_confined_to_the_run", output_paths_are_confined_to_the_run);
  g_test_add_func("/scenario/errors/fault_times_are_plain_bounded_numbers", fault_times_are_plain_bounded_numbers);
  g_test_add_func("/scenario/errors/swept_flap_windows_keep_stop_after_start",
                  swept_flap_windows_keep_stop_after_start);
  g_test_add_func("/scenario/errors/counts_are_bounded", counts_are_bounded);
  g_test_add_func("/scenario/errors/control_characters_are_escaped_in_messages",
                  control_characters_are_escaped_in_messages);
  return g_test_run();
}
