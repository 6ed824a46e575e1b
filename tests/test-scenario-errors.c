/* The scenario loader (SPEC 6, issue 4 acceptance 6): every class of
 * mistake gives its exact FILE:LINE:COLUMN message, and entities are never
 * expanded or loaded. */
#include "test-scenario-util.h"
#include "worlds.h"

/* ---- the error classes of the acceptance, from files ---- */

static void misspelt_element_is_named_with_a_suggestion(void) {
  assert_file_fails("misspelt-element.xml",
                    ":5:3: unknown element <contollers> inside <trivium-scenario>; expected one of <platform>, "
                    "<world>, <controllers>, <run>, <posterior>, <budget>, <commit>, <lrcp>, <detector>, <gate>, "
                    "<reactive>, <epistemic_reset>, <ctl>, <agents>, <sim>, <set>, <faults>, <sweep>; did you mean "
                    "'controllers'?");
}

static void misspelt_attribute_is_located_with_a_suggestion(void) {
  assert_file_fails("misspelt-attribute.xml", ":6:8: unknown attribute 'episdoes' on <run>; expected one of: out, "
                                              "episodes, seeds, seed_base, steps; did you mean 'episodes'?");
}

static void missing_platform_file_names_the_resolved_path(void) {
  char *resolved = src_path("tests/scenarios/no-such-platform.xml");
  char *want = g_strdup_printf(":3:15: platform file 'no-such-platform.xml' (resolved to %s) cannot be read: no such "
                               "file; expected a SimGrid platform file, its path relative to the scenario file",
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
  char *all = g_strjoinv(", ", (char **)trv_controller_names);
  char *want = g_strdup_printf("mem.xml:4:16: unknown controller 'rlvrr'; expected one of: %s; did you mean 'rlvr'?",
                               all);
  assert_string_fails(HEAD "  <controllers names=\"trivium, rlvrr\"/>\n" TAIL, want);
  g_free(want);
  g_free(all);
  assert_string_fails(HEAD "  <controllers names=\"trivium,rlvr,trivium\"/>\n" TAIL,
                      "mem.xml:4:16: controller 'trivium' listed twice; expected each controller once");
}

static void unknown_world_is_named(void) {
  assert_string_fails("<trivium-scenario version=\"1\">\n"
                      "  <platform file=\"../../platforms/causalbench.xml\"/>\n"
                      "  <world name=\"causalbnch\"/>\n" TAIL,
                      "mem.xml:3:10: unknown world 'causalbnch'; expected one of: causalbench, urs; did you mean "
                      "'causalbench'?");
}

static void set_checks_key_and_value(void) {
  assert_string_fails(HEAD "  <set param=\"posterior.hazrd\" value=\"0.1\"/>\n" TAIL,
                      "mem.xml:4:8: unknown parameter 'posterior.hazrd'; expected a key of the parameter table "
                      "(`trivium params`); did you mean 'posterior.hazard'?");
  assert_string_fails(HEAD "  <set param=\"posterior.slab\" value=\"flat\"/>\n" TAIL,
                      "mem.xml:4:31: parameter posterior.slab: 'flat' is not one of: gaussian, separated");
  assert_string_fails(HEAD "  <set param=\"run.seeds\"/>\n" TAIL,
                      "mem.xml:4:3: <set> without value; expected <set param=\"KEY\" value=\"V\">");
  assert_string_fails(HEAD "  <run seeds=\"2.5\"/>\n" TAIL, "mem.xml:4:8: parameter run.seeds: '2.5' is not an integer");
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
                      "<host-crash>, <partition>; did you mean 'link-flap'?");
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
  assert_string_fails(HEAD "  <faults>\n    <link-flap links=\"agent-*-uplink\" mtbf=\"10\" mttr=\"0\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:49: mttr=\"0\" on <link-flap>; expected a number of simulated seconds > 0");
  assert_string_fails(HEAD "  <faults>\n    <host-crash host=\"agent-0\" at=\"3\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:5: <host-crash> without duration; expected <host-crash host=\"GLOB\" at=\"S\" "
                      "duration=\"S\">");
  assert_string_fails(HEAD "  <faults>\n    <partition hosts=\"agent-0\" at=\"-1\" duration=\"2\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:32: at=\"-1\" on <partition>; expected a number of simulated seconds >= 0");
  assert_string_fails(HEAD "  <faults>\n    <link-flap links=\"uplink-*\" mtbf=\"1\" mttr=\"1\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:16: link-flap pattern 'uplink-*' matches no link of @PLATFORM@; expected one of its "
                      "links: centre-lan, agent-0-uplink");
  assert_string_fails(HEAD "  <faults>\n    <host-crash host=\"agent-1\" at=\"1\" duration=\"1\"/>\n  </faults>\n" TAIL,
                      "mem.xml:5:17: host-crash pattern 'agent-1' matches no host of @PLATFORM@; expected one of its "
                      "hosts: controller, ctl, agent-0; did you mean 'agent-0'?");
  assert_string_fails(HEAD "  <faults>\n    <link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\" start=\"9\" stop=\"9\"/>\n"
                           "  </faults>\n" TAIL,
                      "mem.xml:5:63: stop=\"9\" on <link-flap> is not after start=\"9\"; expected stop > start");
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
  assert_string_fails(HEAD "  <sweep param=\"gate.rho\" values=\"1\"/>\n  <sweep param=\"gate.rho\" values=\"2\"/>\n" TAIL,
                      "mem.xml:5:10: second <sweep param=\"gate.rho\">; expected one sweep per parameter (the first is "
                      "at line 4)");
  assert_string_fails(HEAD "  <faults><link-flap links=\"centre-lan\" mtbf=\"1\" mttr=\"1\" stop=\"10\"/></faults>\n"
                           "  <sweep param=\"link-flap.start\" values=\"0,10\"/>\n" TAIL,
                      "mem.xml:5:10: sweep value link-flap.start=10 against the <link-flap> at line 4; expected stop > "
                      "start");
}

static void undeclared_entity_is_refused(void) {
  assert_string_fails("<!DOCTYPE trivium-scenario SYSTEM \"trivium-scenario.dtd\">\n" HEAD "  <run out=\"&x;\"/>\n" TAIL,
                      "mem.xml:5:13: reference to undeclared entity 'x'; expected only the predefined entities and "
                      "character references");
  assert_string_fails(HEAD "  <run out=\"&x;\"/>\n" TAIL,
                      "mem.xml:4:3: malformed XML (undefined entity); expected a well-formed XML document");
}

static void columns_count_characters_not_bytes(void) {
  /* "é" is two bytes; Expat and the attribute locator both count it once. */
  assert_string_fails(HEAD "  <!--é--><run out=\"dé\" episdoes=\"5\"/>\n" TAIL,
                      "mem.xml:4:25: unknown attribute 'episdoes' on <run>; expected one of: out, episodes, seeds, "
                      "seed_base, steps; did you mean 'episodes'?");
  assert_string_fails(HEAD "  <!--é--><rn/>\n" TAIL,
                      "mem.xml:4:11: unknown element <rn> inside <trivium-scenario>; expected one of <platform>, "
                      "<world>, <controllers>, <run>, <posterior>, <budget>, <commit>, <lrcp>, <detector>, <gate>, "
                      "<reactive>, <epistemic_reset>, <ctl>, <agents>, <sim>, <set>, <faults>, <sweep>; did you mean "
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

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_worlds_register_builtin(); /* the loader checks world names against the registry */
  g_test_add_func("/scenario/errors/misspelt_element_is_named_with_a_suggestion",
                  misspelt_element_is_named_with_a_suggestion);
  g_test_add_func("/scenario/errors/misspelt_attribute_is_located_with_a_suggestion",
                  misspelt_attribute_is_located_with_a_suggestion);
  g_test_add_func("/scenario/errors/missing_platform_file_names_the_resolved_path",
                  missing_platform_file_names_the_resolved_path);
  g_test_add_func("/scenario/errors/empty_role_hosts_is_refused", empty_role_hosts_is_refused);
  g_test_add_func("/scenario/errors/role_matching_no_host_lists_the_hosts", role_matching_no_host_lists_the_hosts);
  g_test_add_func("/scenario/errors/out_of_range_value_gives_the_table_range", out_of_range_value_gives_the_table_range);
  g_test_add_func("/scenario/errors/malformed_xml_gives_expat_error_and_place", malformed_xml_gives_expat_error_and_place);
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
  g_test_add_func("/scenario/errors/sweeps_are_checked", sweeps_are_checked);
  g_test_add_func("/scenario/errors/undeclared_entity_is_refused", undeclared_entity_is_refused);
  g_test_add_func("/scenario/errors/columns_count_characters_not_bytes", columns_count_characters_not_bytes);
  g_test_add_func("/scenario/errors/unreadable_scenario_names_the_file", unreadable_scenario_names_the_file);
  return g_test_run();
}
