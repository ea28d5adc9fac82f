/*
 * The truth file of a simsynth scenario (formats/truth.md): one CSV row per
 * span SPEC §3 makes of the generated logs, with the span's real parent
 * and links, written as the generator creates the spans (causes always
 * exist before their effects, so every row is final when written).
 */
#ifndef SSP_SYNTRUTH_H
#define SSP_SYNTRUTH_H

#include <stddef.h>
#include <stdint.h>

#include "ssp_err.h"

#define SSP_TRUTH_HEADER "id,stream,kind,start_ps,key,parent_id,links,rule_parent_id"

struct ssp_truth;

/* path NULL: ids are handed out but nothing is written (dry run). */
int ssp_truth_open(struct ssp_truth **tp, const char *path, unsigned nstreams,
    struct ssp_err *e);
/*
 * A new span; returns its id (from 1).  parent 0 = root.  rule_parent is
 * the parent SPEC §3's heuristics give when it differs from the real one
 * (0 = same; SSP_TRUTH_RULE_ROOT = the heuristic makes it a root).  A key
 * already used by a span of the same stream, kind and start gets "#n".
 */
#define SSP_TRUTH_RULE_ROOT UINT64_MAX
uint64_t ssp_truth_span(struct ssp_truth *t, unsigned stream,
    const char *stream_name, unsigned kind, int64_t start, const char *key,
    uint64_t parent, const uint64_t *links, size_t nlinks,
    uint64_t rule_parent);
uint64_t ssp_truth_count(const struct ssp_truth *t);
uint64_t ssp_truth_count_kind(const struct ssp_truth *t, unsigned kind);
uint64_t ssp_truth_ties(const struct ssp_truth *t);
uint64_t ssp_truth_rule_differs(const struct ssp_truth *t);
int ssp_truth_close(struct ssp_truth *t, struct ssp_err *e);

#endif
