/* The platform reader (plugin/scenario/platform-names.c): what may be handed
 * to SimGrid (trv_platform_file_check) and the names a platform declares.
 * A platform is data: a file SimGrid would load as a library, a device, a
 * FIFO, an oversized file, entities, actors and <config> settings that
 * choose files are refused with one exact message; every count the reader
 * expands is bounded before it is expanded; roles from host properties or
 * the scenario's patterns, and cluster hosts expanded from the radical. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-scenario-util.h"
#include "api/modules.h"

/* ---- helpers ---- */

static char *tmp_dir;

static char *tmp_file(const char *name, const char *text) {
  char *path = g_build_filename(tmp_dir, name, NULL);
  g_assert_true(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* trv_platform_file_check(path) fails with exactly `want`, in which @P@
 * stands for the path; and trv_platform_names_read agrees. */
static void assert_check_fails(const char *path, const char *want) {
  GString *w = g_string_new(want);
  g_string_replace(w, "@P@", path, 0);
  GError *err = NULL;
  g_assert_false(trv_platform_file_check(path, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_cmpstr(err->message, ==, w->str);
  g_clear_error(&err);
  g_assert_null(trv_platform_names_read(path, &err));
  g_assert_cmpstr(err->message, ==, w->str);
  g_clear_error(&err);
  g_string_free(w, TRUE);
}

/* A platform file NAME holding `xml` fails the check with `want` (@P@ is
 * its path). */
static void assert_platform_fails(const char *name, const char *xml, const char *want) {
  char *path = tmp_file(name, xml);
  assert_check_fails(path, want);
  g_unlink(path);
  g_free(path);
}

static TrvPlatformNames *read_ok(const char *xml) {
  GError *err = NULL;
  TrvPlatformNames *pn = trv_platform_names_read_from_memory(xml, strlen(xml), "mem-platform.xml", tmp_dir, &err);
  g_assert_no_error(err);
  g_assert_nonnull(pn);
  return pn;
}

#define PLATFORM_HEAD "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
#define PLATFORM_TAIL "</zone></platform>\n"

/* ---- what may reach SimGrid ---- */

static void library_named_platform_is_refused_without_opening(void) {
  /* the file does not even exist: the name alone decides, nothing is opened */
  assert_check_fails("/no/such/dir/payload.so", "@P@: the platform's name does not end in .xml; expected a SimGrid "
                                                "platform in XML (SimGrid would load any other file as a shared "
                                                "library)");
  char *so = tmp_file("payload.so", "<platform version=\"4.1\"/>");
  assert_check_fails(so, "@P@: the platform's name does not end in .xml; expected a SimGrid platform in XML (SimGrid "
                         "would load any other file as a shared library)");
  g_unlink(so);
  g_free(so);
  assert_check_fails("/tmp/p.XML", "@P@: the platform's name does not end in .xml; expected a SimGrid platform in XML "
                                   "(SimGrid would load any other file as a shared library)");
}

static void shipped_platforms_pass_the_check(void) {
  static const char *const files[] = {"platforms/causalbench.xml",
                                      "platforms/causalbench-multi.xml",
                                      "platforms/urs-sf.xml",
                                      "platforms/urs-nyc.xml",
                                      "platforms/urs-sg.xml",
                                      "platforms/jssp/ft06/platform.xml",
                                      "platforms/jssp/ft10/platform.xml",
                                      "platforms/jssp/ft20/platform.xml",
                                      "platforms/jssp/la01/platform.xml"};
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    char *path = src_path(files[i]);
    GError *err = NULL;
    g_assert_true(trv_platform_file_check(path, &err));
    g_assert_no_error(err);
    g_free(path);
  }
}

static void non_regular_platform_is_refused_unread(void) {
  alarm(10); /* a FIFO opened for reading without O_NONBLOCK would wait here for a writer */
  char *fifo = g_build_filename(tmp_dir, "fifo.xml", NULL), *dev = g_build_filename(tmp_dir, "zero.xml", NULL),
       *dir = g_build_filename(tmp_dir, "dir.xml", NULL);
  g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
  g_assert_cmpint(symlink("/dev/zero", dev), ==, 0);
  g_assert_cmpint(g_mkdir(dir, 0700), ==, 0);
  assert_check_fails(fifo, "@P@: the platform is a FIFO; expected a regular file");
  assert_check_fails(dev, "@P@: the platform is a character device; expected a regular file");
  assert_check_fails(dir, "@P@: the platform is a directory; expected a regular file");
  assert_check_fails("/no/such/p.xml", "@P@: cannot read the platform (No such file or directory); expected a "
                                       "readable file");
  alarm(0);
  g_unlink(fifo);
  g_unlink(dev);
  g_rmdir(dir);
  g_free(fifo);
  g_free(dev);
  g_free(dir);
}

static void oversized_platform_is_refused_before_reading(void) {
  char *big = g_build_filename(tmp_dir, "big.xml", NULL);
  int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)3 << 30), ==, 0); /* 3 GiB, sparse */
  close(fd);
  gint64 t0 = g_get_monotonic_time();
  assert_check_fails(big, "@P@: the platform is 3221225472 bytes; expected at most 67108864 bytes");
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC / 2); /* not read */
  g_unlink(big);
  g_free(big);
}

static void platform_must_be_simgrid_xml(void) {
  assert_platform_fails("root.xml", "<?xml version='1.0'?>\n<trivium-scenario version=\"1\"/>\n",
                        "@P@:2:1: root element <trivium-scenario>; expected SimGrid's <platform version=\"4.1\">");
  assert_platform_fails("bin.xml",
                        "\x7f"
                        "ELF\x02\x01\x01",
                        "@P@:1:1: malformed XML (not well-formed (invalid "
                        "token)); expected a SimGrid platform in XML");
  assert_platform_fails("empty.xml", "",
                        "@P@:1:1: malformed XML (no element found); expected a SimGrid platform in "
                        "XML");
}

static void platform_entities_are_refused(void) {
  assert_platform_fails("xxe.xml",
                        "<?xml version='1.0'?>\n<!DOCTYPE platform [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n"
                        "<platform version=\"4.1\">&e;</platform>\n",
                        "@P@:2:21: declaration of external general entity 'e'; expected no entity declarations (a "
                        "platform never defines or loads entities)");
  assert_platform_fails("ref.xml",
                        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"a&x;\" "
                        "speed=\"1f\"/></zone></platform>\n",
                        "@P@:2:64: reference to undeclared entity 'x'; expected only the predefined entities and "
                        "character references");
}

static void actors_and_configs_that_choose_files_are_refused(void) {
  assert_platform_fails("trace.xml",
                        "<platform version=\"4.1\">\n<config>\n<prop id=\"tracing/filename\" "
                        "value=\"/home/u/.bashrc\"/>\n</config>\n</platform>\n",
                        "@P@:3:7: <config> setting 'tracing/filename'; expected only model settings (network/, cpu/, "
                        "host/, disk/, maxmin/, precision/, bmf/, surf/): a platform never sets output files, "
                        "plugins, search paths or Trivium's settings (give them on the command line)");
  assert_platform_fails("ctl.xml",
                        "<platform version=\"4.1\"><config><prop id=\"trivium/ctl.file\" value=\"/x\"/>"
                        "</config></platform>\n",
                        "@P@:1:39: <config> setting 'trivium/ctl.file'; expected only model settings (network/, "
                        "cpu/, host/, disk/, maxmin/, precision/, bmf/, surf/): a platform never sets output files, "
                        "plugins, search paths or Trivium's settings (give them on the command line)");
  assert_platform_fails("actor.xml",
                        PLATFORM_HEAD "<host id=\"a\" speed=\"1f\"/>\n"
                                      "<actor host=\"a\" function=\"f\"/>\n" PLATFORM_TAIL,
                        "@P@:3:1: <actor> in a platform; expected resources only (Trivium starts the actors of a run "
                        "itself)");
  /* nesting does not hide a setting (this reader does not validate) */
  assert_platform_fails("nested.xml",
                        "<platform version=\"4.1\"><config><config/><prop id=\"plugin\" value=\"x\"/>"
                        "</config></platform>\n",
                        "@P@:1:48: <config> setting 'plugin'; expected only model settings (network/, cpu/, host/, "
                        "disk/, maxmin/, precision/, bmf/, surf/): a platform never sets output files, plugins, "
                        "search paths or Trivium's settings (give them on the command line)");
  /* model settings are fine */
  TrvPlatformNames *pn = read_ok("<platform version=\"4.1\"><config><prop id=\"network/model\" value=\"CM02\"/>"
                                 "<prop id=\"maxmin/precision\" value=\"1e-9\"/></config><zone id=\"z\" "
                                 "routing=\"Full\"><host id=\"a\" speed=\"1f\"/>" PLATFORM_TAIL);
  g_assert_cmpuint(pn->hosts->len, ==, 1);
  trv_platform_names_free(pn);
}

static void profile_files_must_be_regular_files(void) {
  char *profile = tmp_file("up.profile", "0 1\n5 0\n");
  TrvPlatformNames *pn = read_ok(PLATFORM_HEAD "<host id=\"a\" speed=\"1f\" state_file=\"up.profile\"/>" PLATFORM_TAIL);
  trv_platform_names_free(pn);
  char *want = g_strdup_printf("@P@:2:25: state_file=\"/dev/zero\" on <host> (resolved to /dev/zero) is a character "
                               "device; expected a regular file of at most 67108864 bytes, relative to the platform "
                               "file");
  assert_platform_fails("dev-profile.xml",
                        PLATFORM_HEAD "<host id=\"a\" speed=\"1f\" state_file=\"/dev/zero\"/>" PLATFORM_TAIL, want);
  g_free(want);
  char *missing = g_build_filename(tmp_dir, "gone.profile", NULL);
  want = g_strdup_printf("@P@:2:14: bandwidth_file=\"gone.profile\" on <link> (resolved to %s) cannot be read (No "
                         "such file or directory); expected a regular file of at most 67108864 bytes, relative to "
                         "the platform file",
                         missing);
  assert_platform_fails("gone-profile.xml",
                        PLATFORM_HEAD "<link id=\"l\" bandwidth_file=\"gone.profile\" "
                                      "bandwidth=\"1GBps\"/>" PLATFORM_TAIL,
                        want);
  g_free(want);
  g_free(missing);
  g_unlink(profile);
  g_free(profile);
}

/* The profile files a platform names are listed as SimGrid resolves them
 * (absolute, relative to the platform's directory), each once however
 * often it is named, in document order: the files a run copies. */
static void profile_files_are_listed_once_each(void) {
  char *up = tmp_file("up.profile", "0 1\n5 0\n"), *bw = tmp_file("bw.profile", "0 1e9\n");
  TrvPlatformNames *pn = read_ok(
      PLATFORM_HEAD
      "<host id=\"a\" speed=\"1f\" state_file=\"up.profile\"/>\n"
      "<host id=\"b\" speed=\"1f\" state_file=\"./up.profile\"/>\n"
      "<link id=\"l\" bandwidth=\"1GBps\" bandwidth_file=\"bw.profile\" state_file=\"up.profile\"/>" PLATFORM_TAIL);
  g_assert_cmpuint(pn->profiles->len, ==, 2);
  g_assert_cmpstr(pn->profiles->pdata[0], ==, up);
  g_assert_cmpstr(pn->profiles->pdata[1], ==, bw);
  trv_platform_names_free(pn);
  pn = read_ok(PLATFORM_HEAD "<host id=\"a\" speed=\"1f\"/>" PLATFORM_TAIL);
  g_assert_cmpuint(pn->profiles->len, ==, 0);
  trv_platform_names_free(pn);
  g_unlink(up);
  g_unlink(bw);
  g_free(up);
  g_free(bw);
}

/* A trivium.role property is its <host>'s, whatever else the host holds
 * (this reader does not validate SimGrid's DTD). */
static void role_property_belongs_to_its_host(void) {
  TrvPlatformNames *pn = read_ok(PLATFORM_HEAD "<host id=\"a\" speed=\"1f\"><peer id=\"p\"/><host id=\"b\"/>"
                                               "<prop id=\"trivium.role\" value=\"ctl\"/></host>" PLATFORM_TAIL);
  g_assert_cmpuint(pn->hosts->len, ==, 3);
  g_assert_cmpstr(pn->hosts->pdata[0], ==, "a");
  g_assert_cmpstr(pn->roles->pdata[0], ==, "ctl");
  g_assert_null(pn->roles->pdata[1]);
  g_assert_null(pn->roles->pdata[2]);
  trv_platform_names_free(pn);
}

/* ---- counts are bounded before they are expanded ---- */

static void huge_radical_is_refused_before_expansion(void) {
  gint64 t0 = g_get_monotonic_time();
  assert_platform_fails("radical.xml",
                        PLATFORM_HEAD "<cluster id=\"c\" prefix=\"n-\" suffix=\"\" "
                                      "radical=\"0-4294967295\" speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:2:39: <cluster> brings the platform to 4294967296 hosts; expected at most 100000 hosts");
  assert_platform_fails("overflow.xml",
                        PLATFORM_HEAD
                        "<cabinet id=\"c\" prefix=\"n-\" suffix=\"\" "
                        "radical=\"0-99999999999999999999999\" speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:2:39: radical=\"0-99999999999999999999999\" on <cabinet>; expected ranges of numbers like "
                        "\"0-99,120\"");
  assert_platform_fails("int.xml",
                        PLATFORM_HEAD "<cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"3000000000\" "
                                      "speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:2:39: radical=\"3000000000\" on <cluster> holds 3000000000; expected numbers up to "
                        "2147483647");
  /* the hosts of several clusters add up */
  assert_platform_fails("sum.xml",
                        PLATFORM_HEAD
                        "<cluster id=\"c\" prefix=\"a-\" suffix=\"\" radical=\"0-59999\" "
                        "speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>\n<cluster id=\"d\" prefix=\"b-\" suffix=\"\" "
                        "radical=\"0-39999,40000\" speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:3:39: <cluster> brings the platform to 100001 hosts; expected at most 100000 hosts");
  g_assert_cmpint(g_get_monotonic_time() - t0, <, 5 * G_USEC_PER_SEC);
  assert_platform_fails("malformed.xml",
                        PLATFORM_HEAD "<cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"1-0\" "
                                      "speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:2:39: radical=\"1-0\" on <cluster>; expected ranges of numbers like \"0-99,120\"");
  assert_platform_fails("comma.xml",
                        PLATFORM_HEAD "<cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-3,\" "
                                      "speed=\"1f\" bw=\"1GBps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:2:39: radical=\"0-3,\" on <cluster>; expected ranges of numbers like \"0-99,120\"");
}

static void cluster_and_link_counts_are_bounded(void) {
  GString *xml = g_string_new(PLATFORM_HEAD);
  for (int i = 0; i <= TRV_PLATFORM_MAX_GENERATORS; i++)
    g_string_append_printf(xml,
                           "<cluster id=\"c%d\" prefix=\"c%d-\" suffix=\"\" radical=\"0\" speed=\"1f\" bw=\"1Bps\" "
                           "lat=\"0\"/>\n",
                           i, i);
  g_string_append(xml, PLATFORM_TAIL);
  assert_platform_fails("clusters.xml", xml->str,
                        "@P@:10002:1: <cluster> number 10001; expected at most 10000 cluster "
                        "and cabinet elements");
  g_string_assign(xml, PLATFORM_HEAD);
  for (int i = 0; i <= TRV_PLATFORM_MAX_LINKS; i++)
    g_string_append_printf(xml, "<link id=\"l%d\" bandwidth=\"1Bps\"/>\n", i);
  g_string_append(xml, PLATFORM_TAIL);
  assert_platform_fails("links.xml", xml->str, "@P@:100002:1: <link> number 100001; expected at most 100000 links");
  g_string_free(xml, TRUE);
}

static void names_are_bounded_and_unique(void) {
  char *id = g_strnfill(TRV_PLATFORM_MAX_NAME + 1, 'h');
  char *xml = g_strdup_printf(PLATFORM_HEAD "<host id=\"%s\" speed=\"1f\"/>" PLATFORM_TAIL, id);
  assert_platform_fails("long.xml", xml, "@P@:2:7: id of 256 bytes on <host>; expected a name of at most 255 bytes");
  g_free(xml);
  xml = g_strdup_printf(PLATFORM_HEAD "<cluster id=\"c\" prefix=\"%s\" suffix=\"\" radical=\"0-9\" speed=\"1f\" "
                                      "bw=\"1Bps\" lat=\"0\"/>" PLATFORM_TAIL,
                        id);
  assert_platform_fails("long-prefix.xml", xml,
                        "@P@:2:1: <cluster> generates host names of 257 bytes; expected names "
                        "of at most 255 bytes");
  g_free(xml);
  g_free(id);
  assert_platform_fails("twice.xml",
                        PLATFORM_HEAD "<host id=\"n-3\" speed=\"1f\"/>\n<cluster id=\"c\" prefix=\"n-\" "
                                      "suffix=\"\" radical=\"0-9\" speed=\"1f\" bw=\"1Bps\" lat=\"0\"/>" PLATFORM_TAIL,
                        "@P@:3:1: <cluster> declares host 'n-3' again (first at line 2); expected every host name "
                        "once");
}

/* ---- the scenario loader applies the same check ---- */

/* For each bad platform, the scenario's message is its own position, the
 * path as written, and the check's message. */
static void scenario_platform_errors_are_the_check_s(void) {
  static const struct {
    const char *name, *xml;
  } bad[] = {
      {"lib.so", "<platform version=\"4.1\"/>"},
      {"root.xml", "<html/>"},
      {"radical.xml", PLATFORM_HEAD "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-4294967295\" speed=\"1f\" "
                                    "bw=\"1Bps\" lat=\"0\"/>" PLATFORM_TAIL},
      {"config.xml", "<platform version=\"4.1\"><config><prop id=\"path\" value=\"/tmp\"/></config></platform>"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    char *path = tmp_file(bad[i].name, bad[i].xml);
    GError *check = NULL, *err = NULL;
    g_assert_false(trv_platform_file_check(path, &check));
    char *xml = g_strdup_printf("<trivium-scenario version=\"1\">\n  <platform file=\"%s\"/>\n  <world "
                                "name=\"causalbench\"/>\n</trivium-scenario>\n",
                                bad[i].name);
    g_assert_null(trv_scenario_load_from_memory(xml, strlen(xml), "mem.xml", tmp_dir, &err));
    char *want = g_strdup_printf("mem.xml:2:13: platform file '%s' refused: %s", bad[i].name, check->message);
    g_assert_cmpstr(err->message, ==, want);
    g_free(want);
    g_free(xml);
    g_clear_error(&err);
    g_clear_error(&check);
    g_unlink(path);
    g_free(path);
  }
}

static void control_characters_never_reach_a_message(void) {
  char *path = g_build_filename(tmp_dir, "bad\033[31mname\n.so", NULL);
  GError *err = NULL;
  g_assert_false(trv_platform_file_check(path, &err));
  g_assert_null(strchr(err->message, '\033'));
  g_assert_null(strchr(err->message, '\n'));
  g_assert_nonnull(strstr(err->message, "bad\\x1b[31mname\\x0a.so"));
  g_clear_error(&err);
  g_free(path);
  /* and when the file cannot be opened */
  g_assert_false(trv_platform_file_check("/no/such/\033]0;x\a.xml", &err));
  g_assert_cmpstr(err->message, ==,
                  "/no/such/\\x1b]0;x\\x07.xml: cannot read the platform (No such file or directory); "
                  "expected a readable file");
  g_clear_error(&err);
}

/* ---- roles and cluster hosts, through the scenario loader ---- */

static char *write_temp(const char *dir, const char *name, const char *text) {
  char *path = g_build_filename(dir, name, NULL);
  g_assert_true(g_file_set_contents(path, text, -1, NULL));
  return path;
}

static void roles_come_from_host_properties_when_not_mapped(void) {
  char *dir = g_dir_make_tmp("trivium-scenario-XXXXXX", NULL);
  char *plat = write_temp(dir, "p.xml",
                          "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
                          "<host id=\"a\" speed=\"1Gf\"><prop id=\"trivium.role\" value=\"controller\"/></host>\n"
                          "<host id=\"b\" speed=\"1Gf\"><prop id=\"trivium.role\" value=\"agent\"/></host>\n"
                          "<host id=\"c\" speed=\"1Gf\"/>\n"
                          "</zone></platform>\n");
  const char *xml = "<trivium-scenario version=\"1\">\n  <platform file=\"p.xml\"/>\n  <world name=\"causalbench\"/>\n"
                    "</trivium-scenario>\n";
  GError *err = NULL;
  g_assert_null(trv_scenario_load_from_memory(xml, strlen(xml), "mem.xml", dir, &err));
  char *want = g_strdup_printf("mem.xml:2:13: no host of %s has the property trivium.role=\"ctl\" and the scenario "
                               "maps no hosts to role 'ctl'; expected <role name=\"ctl\" hosts=\"GLOB\"> inside "
                               "<platform>",
                               plat);
  g_assert_cmpstr(err->message, ==, want);
  g_clear_error(&err);
  const char *mapped = "<trivium-scenario version=\"1\">\n  <platform file=\"p.xml\"><role name=\"ctl\" hosts=\"c\"/>"
                       "</platform>\n  <world name=\"causalbench\"/>\n</trivium-scenario>\n";
  TrvScenario *s = trv_scenario_load_from_memory(mapped, strlen(mapped), "mem.xml", dir, &err);
  g_assert_no_error(err);
  g_assert_cmpstr(s->platform, ==, plat);
  g_assert_cmpstr(s->role_hosts[TRV_ROLE_CTL], ==, "c");
  g_assert_null(s->role_hosts[TRV_ROLE_AGENT]);
  trv_scenario_free(s);
  g_unlink(plat);
  g_rmdir(dir);
  g_free(want);
  g_free(plat);
  g_free(dir);
}

static void cluster_hosts_are_expanded_from_the_radical(void) {
  char *dir = g_dir_make_tmp("trivium-scenario-XXXXXX", NULL);
  char *plat =
      write_temp(dir, "c.xml",
                 "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"node-\" radical=\"0-2,7\" suffix=\".x\" "
                 "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>\n");
  GError *err = NULL;
  TrvPlatformNames *pn = trv_platform_names_read(plat, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(pn->hosts->len, ==, 4);
  g_assert_cmpstr(pn->hosts->pdata[0], ==, "node-0.x");
  g_assert_cmpstr(pn->hosts->pdata[3], ==, "node-7.x");
  g_assert_null(pn->roles->pdata[3]);
  g_assert_false(pn->links_complete);
  trv_platform_names_free(pn);
  /* links of a cluster are not enumerated, so a link pattern is not refused */
  const char *xml = "<trivium-scenario version=\"1\">\n  <platform file=\"c.xml\">\n"
                    "    <role name=\"controller\" hosts=\"node-0.x\"/><role name=\"ctl\" hosts=\"node-1.x\"/>\n"
                    "    <role name=\"agent\" hosts=\"node-[27].x\"/>\n  </platform>\n  <world name=\"causalbench\"/>\n"
                    "  <faults><link-flap links=\"c_link_*\" mtbf=\"5\" mttr=\"1\"/></faults>\n</trivium-scenario>\n";
  TrvScenario *s = trv_scenario_load_from_memory(xml, strlen(xml), "mem.xml", dir, &err);
  g_assert_no_error(err);
  trv_scenario_free(s);
  const char *bad = "<trivium-scenario version=\"1\">\n  <platform file=\"c.xml\">\n"
                    "    <role name=\"agent\" hosts=\"node-9.x\"/>\n"
                    "    <role name=\"controller\" hosts=\"node-0.x\"/><role name=\"ctl\" hosts=\"node-1.x\"/>\n"
                    "  </platform>\n  <world name=\"causalbench\"/>\n"
                    "</trivium-scenario>\n";
  g_assert_null(trv_scenario_load_from_memory(bad, strlen(bad), "mem.xml", dir, &err));
  char *want = g_strdup_printf("mem.xml:3:24: role 'agent' pattern 'node-9.x' matches no host of %s; expected one of "
                               "its hosts: node-0.x, node-1.x, node-2.x, node-7.x; did you mean 'node-0.x'?",
                               plat);
  g_assert_cmpstr(err->message, ==, want);
  g_clear_error(&err);
  g_unlink(plat);
  g_rmdir(dir);
  g_free(want);
  g_free(plat);
  g_free(dir);
}

/* Roles mapped by the scenario onto the SimGrid
 * example platforms in ../shared (skipped when they are absent). */
static void simgrid_example_platforms_take_mapped_roles(void) {
  char *dir = g_build_filename(srcdir(), "..", "shared", "data", "simgrid-platforms", NULL);
  char *small = g_build_filename(dir, "small_platform.xml", NULL);
  if (!g_file_test(small, G_FILE_TEST_EXISTS)) {
    g_test_skip("../shared/data/simgrid-platforms not present");
    g_free(small);
    g_free(dir);
    return;
  }
  const char *xml[] = {
      "<trivium-scenario version=\"1\">\n  <platform file=\"small_platform.xml\">\n"
      "    <role name=\"controller\" hosts=\"Tremblay\"/><role name=\"ctl\" hosts=\"Jupiter\"/>\n"
      "    <role name=\"agent\" hosts=\"Fafard,Ginette,Bourassa\"/>\n  </platform>\n  <world name=\"causalbench\"/>\n"
      "  <faults><link-flap links=\"[1-9]\" mtbf=\"5\" mttr=\"1\"/><host-crash host=\"Ginette\" at=\"3\" "
      "duration=\"2\"/></faults>\n</trivium-scenario>\n",
      "<trivium-scenario version=\"1\">\n  <platform file=\"cluster_backbone.xml\">\n"
      "    <role name=\"controller\" hosts=\"node-0.simgrid.org\"/><role name=\"ctl\" hosts=\"node-1.simgrid.org\"/>\n"
      "    <role name=\"agent\" hosts=\"node-[2-9].simgrid.org,node-??.simgrid.org\"/>\n  </platform>\n"
      "  <world name=\"causalbench\"/>\n</trivium-scenario>\n",
  };
  for (size_t i = 0; i < G_N_ELEMENTS(xml); i++) {
    GError *err = NULL;
    TrvScenario *s = trv_scenario_load_from_memory(xml[i], strlen(xml[i]), "mem.xml", dir, &err);
    g_assert_no_error(err);
    g_assert_nonnull(s->role_hosts[TRV_ROLE_AGENT]);
    trv_scenario_free(s);
  }
  g_free(small);
  g_free(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  trv_modules_register_builtin(); /* the loader checks names and keys against the registries */
  tmp_dir = g_dir_make_tmp("trivium-platform-XXXXXX", NULL);
  g_assert_nonnull(tmp_dir);
  g_test_add_func("/scenario/platform/library_named_platform_is_refused_without_opening",
                  library_named_platform_is_refused_without_opening);
  g_test_add_func("/scenario/platform/shipped_platforms_pass_the_check", shipped_platforms_pass_the_check);
  g_test_add_func("/scenario/platform/non_regular_platform_is_refused_unread", non_regular_platform_is_refused_unread);
  g_test_add_func("/scenario/platform/oversized_platform_is_refused_before_reading",
                  oversized_platform_is_refused_before_reading);
  g_test_add_func("/scenario/platform/platform_must_be_simgrid_xml", platform_must_be_simgrid_xml);
  g_test_add_func("/scenario/platform/platform_entities_are_refused", platform_entities_are_refused);
  g_test_add_func("/scenario/platform/actors_and_configs_that_choose_files_are_refused",
                  actors_and_configs_that_choose_files_are_refused);
  g_test_add_func("/scenario/platform/profile_files_must_be_regular_files", profile_files_must_be_regular_files);
  g_test_add_func("/scenario/platform/profile_files_are_listed_once_each", profile_files_are_listed_once_each);
  g_test_add_func("/scenario/platform/role_property_belongs_to_its_host", role_property_belongs_to_its_host);
  g_test_add_func("/scenario/platform/huge_radical_is_refused_before_expansion",
                  huge_radical_is_refused_before_expansion);
  g_test_add_func("/scenario/platform/cluster_and_link_counts_are_bounded", cluster_and_link_counts_are_bounded);
  g_test_add_func("/scenario/platform/names_are_bounded_and_unique", names_are_bounded_and_unique);
  g_test_add_func("/scenario/platform/scenario_platform_errors_are_the_check_s",
                  scenario_platform_errors_are_the_check_s);
  g_test_add_func("/scenario/platform/control_characters_never_reach_a_message",
                  control_characters_never_reach_a_message);
  g_test_add_func("/scenario/platform/roles_come_from_host_properties_when_not_mapped",
                  roles_come_from_host_properties_when_not_mapped);
  g_test_add_func("/scenario/platform/cluster_hosts_are_expanded_from_the_radical",
                  cluster_hosts_are_expanded_from_the_radical);
  g_test_add_func("/scenario/platform/simgrid_example_platforms_take_mapped_roles",
                  simgrid_example_platforms_take_mapped_roles);
  int rc = g_test_run();
  g_rmdir(tmp_dir);
  g_free(tmp_dir);
  return rc;
}
