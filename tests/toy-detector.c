/* toy-detector.c - the smallest drift detector with a parameter of its
 * own: its statistic is detector.toy_level whatever it is shown, and it
 * never alarms.  A controller that runs the detector detector.name selects
 * (the trivium controller, the toy controller) writes that statistic to
 * episodes.csv's detector_stat, which shows the parameter reached the
 * detector (tests/toys.sh; docs/hacking.md). */
#include "core/detector.h"

typedef struct {
  double level; /* detector.toy_level */
} ToyDetectorParams;

static const TrvParamSpec toy_specs[] = {
    TRV_ROW_DOUBLE(ToyDetectorParams, "detector.toy_level", level, 0.5, 0, 1e6,
                   "toy detector: its statistic, whatever the probes say (it never alarms)"),
};
static const TrvParamBlock toy_params = TRV_BLOCK(ToyDetectorParams, toy_specs);

static void *toy_create(const void *params, int n_components) {
  (void)n_components;
  return g_memdup2(params, sizeof(ToyDetectorParams));
}

static bool toy_step(void *state, const TrvDetectorInput *in, double *statistic) {
  (void)in;
  *statistic = ((ToyDetectorParams *)state)->level;
  return false;
}

static const TrvDetectorClass toy_class = {toy_create, toy_step, g_free};

const TrvModule trv_toy_detector = {.name = "toy", .klass = &toy_class, .params = &toy_params};
