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

#include "base/err.h"
#include "stream/span.h"

#define SSP_TRUTH_HEADER "id,stream,kind,start_ps,key,parent_id,links,rule_parent_id"
/* --kernel linux files append the ambiguous column (formats/truth.md) */
#define SSP_TRUTH_HEADER_AMB SSP_TRUTH_HEADER ",ambiguous"

/* Kernel-context span kinds (SPEC §3b), after the kinds of stream/span.h;
 * their names are the ones the span stream uses for them. */
enum { SSP_SYNTRUTH_K_IRQ = SSP_SK_NKINDS, SSP_SYNTRUTH_K_SOFTIRQ,
	SSP_SYNTRUTH_K_RESUME, SSP_SYNTRUTH_NKINDS };
/* "host.syscall", ..., "host.irq", "host.softirq", "host.resume" */
const char *ssp_syntruth_kind_name(unsigned kind);

struct ssp_syntruth;

/* path NULL: ids are handed out but nothing is written (dry run). */
int ssp_syntruth_open(struct ssp_syntruth **tp, const char *path, unsigned nstreams,
    struct ssp_err *e);
/* The same; amb_col: write the ambiguous column; zlevel > 0: compress
 * with zstd at that level (simsynth -z: truth.csv.zst). */
int ssp_syntruth_open_ex(struct ssp_syntruth **tp, const char *path,
    unsigned nstreams, int amb_col, int zlevel, struct ssp_err *e);
/*
 * A new span; returns its id (from 1).  parent 0 = root.  rule_parent is
 * the parent SPEC §3's heuristics give when it differs from the real one
 * (0 = same; SSP_TRUTH_RULE_ROOT = the heuristic makes it a root).  A key
 * already used by a span of the same stream, kind and start gets "#n".
 */
#define SSP_TRUTH_RULE_ROOT UINT64_MAX
uint64_t ssp_syntruth_span(struct ssp_syntruth *t, unsigned stream,
    const char *stream_name, unsigned kind, int64_t start, const char *key,
    uint64_t parent, const uint64_t *links, size_t nlinks,
    uint64_t rule_parent);
/*
 * Spans whose row can only be written later (a syscall's links to the
 * host.resume spans that continue it): reserve the id when the span
 * starts, write the row with ssp_syntruth_row when it is final.  Rows are
 * then not in id order (formats/truth.md).  ambiguous: the logs cannot
 * tell this span's parent or links (written only with the column).
 */
uint64_t ssp_syntruth_reserve(struct ssp_syntruth *t);
void ssp_syntruth_row(struct ssp_syntruth *t, uint64_t id, unsigned stream,
    const char *stream_name, unsigned kind, int64_t start, const char *key,
    uint64_t parent, const uint64_t *links, size_t nlinks,
    uint64_t rule_parent, int ambiguous);
uint64_t ssp_syntruth_count(const struct ssp_syntruth *t);
uint64_t ssp_syntruth_ambiguous(const struct ssp_syntruth *t);
uint64_t ssp_syntruth_count_kind(const struct ssp_syntruth *t, unsigned kind);
uint64_t ssp_syntruth_ties(const struct ssp_syntruth *t);
uint64_t ssp_syntruth_rule_differs(const struct ssp_syntruth *t);
int ssp_syntruth_close(struct ssp_syntruth *t, struct ssp_err *e);

#endif
