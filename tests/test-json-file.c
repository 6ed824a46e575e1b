/* The JSON scanner that guards json-glib (src/json-file.h) and the
 * allow-list of SimGrid options a file may give (src/simgrid-options.h):
 * what each accepts, what each refuses, where a refusal points, and each
 * limit probed at its edge (the limit accepted, one more refused). */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <trivium/error.h>

#include "json-file.h"
#include "simgrid-options.h"

/* at most 4 levels, 3 elements in one array or object, 10 values in all */
static const TrvJsonFormat small = {.what = "test.json",
                                    .expected = "a test document",
                                    .max_bytes = 1 << 20,
                                    .max_depth = 4,
                                    .max_elements = 3,
                                    .max_values = 10};

static void accepted(const char *text) {
  GError *err = NULL;
  if (!trv_json_check("test.json", text, strlen(text), &small, &err)) g_error("refused %s: %s", text, err->message);
  JsonParser *p = json_parser_new_immutable(); /* and so json-glib reads it */
  g_assert_true(json_parser_load_from_data(p, text, (gssize)strlen(text), NULL));
  g_object_unref(p);
}

/* len bytes of text (-1: up to its NUL) refused with a message that starts
 * with `place` and holds `what`. */
static void refused_len(const char *text, gssize len, const char *place, const char *what) {
  GError *err = NULL;
  size_t n = len < 0 ? strlen(text) : (size_t)len;
  if (trv_json_check("test.json", text, n, &small, &err)) g_error("accepted %s", text);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  if (!g_str_has_prefix(err->message, place) || !strstr(err->message, what) || strchr(err->message, '\n'))
    g_error("%s: got '%s', expected '%s ... %s'", text, err->message, place, what);
  g_error_free(err);
}

static void refused(const char *text, const char *place, const char *what) { refused_len(text, -1, place, what); }

static void test_json_scanner_accepts_rfc8259_documents(void) {
  const char *docs[] = {"{}",
                        "[]",
                        " \t\r\n{\"a\" : [1, -0, 2.5e-3]} ",
                        "[1E+2, true, false]",
                        "[null]",
                        "\"text\"",
                        "0",
                        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"]",
                        "[\"\\ud83d\\ude00\", \"\xc3\xa9\xe2\x82\xac\"]",
                        "[\"]]]]]]\", \"[[[[[[\", \"\\\"[[[[[\"]",
                        "{\"a\":{\"b\":{\"c\":[]}}}"};
  for (size_t i = 0; i < G_N_ELEMENTS(docs); i++) accepted(docs[i]);
}

static void test_json_scanner_refuses_what_json_glib_might_read_otherwise(void) {
  refused("[1,]", "test.json:1:4:", "']' where a value should be");
  refused("{\"a\":1,}", "test.json:1:8:", "a member name");
  refused("[1 /* c */]", "test.json:1:4:", "',' or ']'");
  refused("['a']", "test.json:1:2:", "'''");
  refused("\xef\xbb\xbf{}", "test.json:1:1:", "byte 0xEF");
  refused("{a:1}", "test.json:1:2:", "a member name");
  refused("[NaN]", "test.json:1:2:", "a value");
  refused("[01]", "test.json:1:3:", "',' or ']'");
  refused("[+1]", "test.json:1:2:", "a value");
  refused("[.5]", "test.json:1:2:", "a value");
  refused("[1.]", "test.json:1:2:", "malformed number");
  refused("[1e]", "test.json:1:2:", "malformed number");
  refused("[-]", "test.json:1:2:", "malformed number");
  refused("[tru]", "test.json:1:2:", "a value");
  refused("[\"\\ud800\"]", "test.json:1:9:", "lone \\uD800");
  refused("[\"\\ud800\\u0041\"]", "test.json:1:9:", "lone \\uD800");
  refused("[\"\\udc00\"]", "test.json:1:9:", "lone \\uDC00");
  refused("[\"\\u12g4\"]", "test.json:1:3:", "four hexadecimal digits");
  refused("[\"\\x\"]", "test.json:1:3:", "unknown escape");
  refused("[\"a\tb\"]", "test.json:1:4:", "control byte 0x09");
  refused("[\"\xc0\xaf\"]", "test.json:1:3:", "not UTF-8");
  refused("[\"\xe2\x82\"]", "test.json:1:3:", "not UTF-8");
  refused_len("[\"a\0b\"]", 7, "test.json:1:4:", "control byte 0x00");
  refused_len("[1]\0", 4, "test.json:1:4:", "more text after the document");
  refused("", "test.json:1:1:", "ends before a value");
  refused("[] []", "test.json:1:4:", "more text after the document");
  refused("[\"abc", "test.json:1:2:", "a string that does not end");
  refused("{\"a\":[1", "test.json:1:8:", "ends inside an array or object");
}

static void test_json_scanner_depth_at_the_limit(void) {
  accepted("[[[[]]]]");
  accepted("{\"a\":{\"b\":{\"c\":{\"d\":1}}}}");
  accepted("[[[[\"[[[[[[\"]]]]"); /* brackets inside strings are text */
  refused("[[[[[]]]]]", "test.json:1:5:", "nested more than 4 deep");
  refused("[{\"a\":[{\"b\":[]}]}]", "test.json:1:13:", "nested more than 4 deep");
  char deep[200001]; /* what overflowed json-glib's recursion: refused at the fifth level */
  memset(deep, '[', 100000);
  memset(deep + 100000, ']', 100000);
  refused_len(deep, 200000, "test.json:1:5:", "nested more than 4 deep");
}

static void test_json_scanner_counts_at_the_limits(void) {
  accepted("[1,2,3]");
  accepted("{\"a\":1,\"b\":2,\"c\":3}");
  refused("[1,2,3,4]", "test.json:1:8:", "more than 3 elements in one array");
  refused("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}", "test.json:1:24:", "more than 3 elements in one object");
  accepted("[[1,2,3],[1,2,3]]"); /* each array counts its own elements; 9 values in all */
  accepted("[[1,2,3],[1,2,3],1]");
  refused("[[1,2,3],[1,2,3],[1]]", "test.json:1:19:", "more than 10 values");
}

static void test_json_scanner_points_at_line_and_column(void) {
  refused("{\n  \"a\": [1,\n     2,]\n}", "test.json:3:8:", "']' where a value should be");
  refused("{\r\n\"a\":\n\n  x}", "test.json:4:3:", "'x' where a value should be");
}

static void allowed(const char *option) {
  GError *err = NULL;
  if (!trv_simgrid_file_option_check("run.json", option, &err)) g_error("refused %s: %s", option, err->message);
}

static void not_allowed(const char *option, const char *why) {
  GError *err = NULL;
  g_assert_false(trv_simgrid_file_option_check("run.json", option, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  if (!g_str_has_prefix(err->message, "run.json: SimGrid option '") || !strstr(err->message, why) ||
      strchr(err->message, '\n'))
    g_error("%s: got '%s', expected '%s'", option, err->message, why);
  g_error_free(err);
}

static void test_simgrid_allow_list_accepts_models_and_log_settings(void) {
  const char *ok[] = {"--cfg=network/model:CM02",
                      "--cfg=network/model:LV08",
                      "--cfg=host/model:ptask_L07",
                      "--cfg=cpu/optim:TI",
                      "--cfg=network/solver:bmf",
                      "--cfg=network/TCP-gamma:4194304",
                      "--cfg=maxmin/precision:1e-9",
                      "--cfg=surf/precision:0.00001",
                      "--cfg=network/crosstraffic:no",
                      "--cfg=maxmin/concurrency-limit:-1",
                      "--cfg=contexts/factory:raw",
                      "--cfg=contexts/stack-size:8192",
                      "--cfg=contexts/guard-size:0",
                      "--cfg=contexts/nthreads:1",
                      "--cfg=tracing:yes",
                      "--cfg=tracing/platform:on",
                      "--cfg=tracing/precision:6",
                      "--log=trivium.thres:info",
                      "--log=root.threshold:CRITICAL",
                      "--log=xbt_cfg.app:stderr",
                      "--log=root.appender:stdout",
                      "--log=trivium.add:no",
                      "--log=root.fmt:[%h:%P(%i)]%e[%c/%p]%e%m%n",
                      "--log=s4u_actor.fmt:%%%r"};
  for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) allowed(ok[i]);
}

static void test_simgrid_allow_list_refuses_files_code_and_splitting(void) {
  not_allowed("--log=root.app:file:/tmp/victim", "writes a file");
  not_allowed("--log=root.appender:rollfile:10:/tmp/victim", "writes a file");
  not_allowed("--log=root.app:splitfile:10:/tmp/victim%", "writes a file");
  not_allowed("--log=root.thres:info root.app:file:/tmp/victim", "where SimGrid would split it");
  not_allowed("--log=root.thres:info\\ root.app:file:/tmp/victim", "where SimGrid would split it");
  not_allowed("--log=root.fmt:'%m'", "where SimGrid would split it");
  not_allowed("--log=root.fmt:%999999999c", "without width or precision");
  not_allowed("--log=root.fmt:%.9m", "without width or precision");
  not_allowed("--log=root.fmt:%m%", "without width or precision");
  not_allowed("--log=root.fmt:%z", "without width or precision");
  not_allowed("--log=root.t:info", "not thres, fmt, app or add");
  not_allowed("--log=no_loc", "not CATEGORY.SETTING:VALUE");
  not_allowed("--log=a.b.thres:info", "not thres, fmt, app or add");
  not_allowed("--log=root.thres=info", "not CATEGORY.SETTING:VALUE");
  not_allowed("--log=root.thres:loud", "a threshold is one of");
  not_allowed("--cfg=tracing/filename:/tmp/victim", "tracing/filename is not on the list");
  not_allowed("--cfg=tracing/comment-file:/etc/passwd", "is not on the list");
  not_allowed("--cfg=path:/tmp", "path is not on the list");
  not_allowed("--cfg=plugin:host_energy", "plugin is not on the list");
  not_allowed("--cfg=smpi/replay:/tmp/x", "smpi/replay is not on the list");
  not_allowed("--cfg=model-check/replay:1", "is not on the list");
  not_allowed("--cfg=trivium/ctl.file:/tmp/victim", "trivium/ctl.file is not on the list");
  not_allowed("--cfg=network/model", "not KEY:VALUE");
  not_allowed("--cfg=network/model:ns-3", "network/model takes one of LV08");
  not_allowed("--cfg=network/model:CM02\ttracing/filename:/tmp/x", "where SimGrid would split it");
  not_allowed("--cfg=network/TCP-gamma:1e999", "takes a number");
  not_allowed("--cfg=network/TCP-gamma: 1", "where SimGrid would split it");
  not_allowed("--cfg=contexts/stack-size:8k", "takes an integer");
  not_allowed("--cfg=contexts/stack-size:1.5", "takes an integer");
  not_allowed("--cfg=tracing:maybe", "tracing takes one of yes");
  not_allowed("--cfg=Network/model:CM02", "is not on the list");
  not_allowed("--cfg", "neither --cfg= nor --log=");
  not_allowed("--platform=/tmp/x.so", "neither --cfg= nor --log=");
  not_allowed("--log=root.thres:info\nsecond line", "where SimGrid would split it");
  char *lng = g_strnfill(300, 'a'), *opt = g_strdup_printf("--log=root.fmt:%s", lng);
  not_allowed(opt, "more than 256");
  g_free(opt), g_free(lng);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/json/scanner_accepts_rfc8259_documents", test_json_scanner_accepts_rfc8259_documents);
  g_test_add_func("/json/scanner_refuses_what_json_glib_might_read_otherwise",
                  test_json_scanner_refuses_what_json_glib_might_read_otherwise);
  g_test_add_func("/json/scanner_depth_at_the_limit", test_json_scanner_depth_at_the_limit);
  g_test_add_func("/json/scanner_counts_at_the_limits", test_json_scanner_counts_at_the_limits);
  g_test_add_func("/json/scanner_points_at_line_and_column", test_json_scanner_points_at_line_and_column);
  g_test_add_func("/simgrid/allow_list_accepts_models_and_log_settings",
                  test_simgrid_allow_list_accepts_models_and_log_settings);
  g_test_add_func("/simgrid/allow_list_refuses_files_code_and_splitting",
                  test_simgrid_allow_list_refuses_files_code_and_splitting);
  return g_test_run();
}
