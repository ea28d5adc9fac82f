/*
 * The span stream schema (formats/spans.md).  One record type per span
 * kind, all starting with the same common fields; a "link" type; and, when
 * member events are included, one "ev.<event type>" type per event type.
 */
#ifndef SSP_SPAN_H
#define SSP_SPAN_H

#include "stream/event.h"
#include "stream/rec.h"

enum ssp_span_kind {
	SSP_SK_HOST_SYSCALL,
	SSP_SK_HOST_MMIO,
	SSP_SK_HOST_DMA,
	SSP_SK_HOST_MSIX,
	SSP_SK_HOST_PCI,
	SSP_SK_HOST_INTR,
	SSP_SK_NIC_MMIO,
	SSP_SK_NIC_DMA,
	SSP_SK_NIC_TX,
	SSP_SK_NIC_RX,
	SSP_SK_NIC_MSIX,
	SSP_SK_NET_DEVICE,
	/* kernel execution contexts (SPEC §3b), format 1.2 */
	SSP_SK_HOST_IRQ,
	SSP_SK_HOST_SOFTIRQ,
	SSP_SK_HOST_RESUME,
	SSP_SK_HOST_APP,
	SSP_SK_NKINDS
};

/*
 * Span streams are format 1.2 (formats/spans.md §7): 1.1 adds that a span
 * with links is written after its link targets and its link records follow
 * it at once; 1.2 adds the kinds host.irq, host.softirq, host.resume and
 * host.app (record types are matched by name: a 1.1 stream just has none).
 * Readers accept 1.0 streams, which only promise a link after both its
 * ends; ssp_rec_rd_version_minor() tells them apart.
 */
#define SSP_SPAN_MINOR 2

/* Record types besides the span kinds (indices into the span schema). */
#define SSP_SPAN_T_LINK   SSP_SK_NKINDS
#define SSP_SPAN_T_EV0    (SSP_SK_NKINDS + 1)	/* + event type */

/* Common fields of every span record; the record ts is the start. */
enum { SSP_SF_TRACE_HI, SSP_SF_TRACE_LO, SSP_SF_SPAN, SSP_SF_PARENT,
	SSP_SF_STREAM, SSP_SF_DUR, SSP_SF_FLAGS, SSP_SF_CAUSE, SSP_SF_NCOMMON };

/* Attribute fields, following the common ones. */
enum { SSP_SA_SYSCALL_CPU = SSP_SF_NCOMMON, SSP_SA_SYSCALL_ENTRY,
	SSP_SA_SYSCALL_CALL, SSP_SA_SYSCALL_FUNCS, SSP_SA_SYSCALL_KTX,
	SSP_SA_SYSCALL_DTX, SSP_SA_SYSCALL_KRX, SSP_SA_SYSCALL_DRX };
enum { SSP_SA_HMMIO_COMP = SSP_SF_NCOMMON, SSP_SA_HMMIO_WRITE,
	SSP_SA_HMMIO_ADDR, SSP_SA_HMMIO_SIZE, SSP_SA_HMMIO_ID, SSP_SA_HMMIO_BAR,
	SSP_SA_HMMIO_OFFS, SSP_SA_HMMIO_POSTED };
enum { SSP_SA_HDMA_COMP = SSP_SF_NCOMMON, SSP_SA_HDMA_WRITE, SSP_SA_HDMA_ID,
	SSP_SA_HDMA_ADDR, SSP_SA_HDMA_SIZE };
enum { SSP_SA_HMSIX_COMP = SSP_SF_NCOMMON, SSP_SA_HMSIX_VEC };
enum { SSP_SA_HPCI_COMP = SSP_SF_NCOMMON, SSP_SA_HPCI_WRITE, SSP_SA_HPCI_DEV,
	SSP_SA_HPCI_FUNC, SSP_SA_HPCI_REG, SSP_SA_HPCI_BYTES, SSP_SA_HPCI_DATA };
enum { SSP_SA_HINTR_COMP = SSP_SF_NCOMMON };
/* host.irq, host.softirq, host.resume, host.app: the CPU, the function
 * that opened the context, how many function entries it has. */
enum { SSP_SA_CTX_CPU = SSP_SF_NCOMMON, SSP_SA_CTX_ENTRY, SSP_SA_CTX_FUNCS };
enum { SSP_SA_NMMIO_WRITE = SSP_SF_NCOMMON, SSP_SA_NMMIO_OFF,
	SSP_SA_NMMIO_LEN, SSP_SA_NMMIO_VAL, SSP_SA_NMMIO_POSTED };
enum { SSP_SA_NDMA_WRITE = SSP_SF_NCOMMON, SSP_SA_NDMA_OP, SSP_SA_NDMA_ADDR,
	SSP_SA_NDMA_LEN };
enum { SSP_SA_NTX_LEN = SSP_SF_NCOMMON };
enum { SSP_SA_NRX_PORT = SSP_SF_NCOMMON, SSP_SA_NRX_LEN };
enum { SSP_SA_NMSIX_VEC = SSP_SF_NCOMMON, SSP_SA_NMSIX_MSI };
enum { SSP_SA_NET_NODE = SSP_SF_NCOMMON, SSP_SA_NET_DEV, SSP_SA_NET_DEVTYPE,
	SSP_SA_NET_UID, SSP_SA_NET_INTERESTING, SSP_SA_NET_DROPPED,
	SSP_SA_NET_BOUNDARY, SSP_SA_NET_PAYLOAD, SSP_SA_NET_ETH_TYPE,
	SSP_SA_NET_IP_SRC, SSP_SA_NET_IP_DST, SSP_SA_NET_IP_PROTO };

/* Link record fields: span gets an extra cause, target in another trace. */
enum { SSP_LF_SPAN, SSP_LF_TRACE_HI, SSP_LF_TRACE_LO, SSP_LF_TARGET,
	SSP_LF_KIND };
/* Member event records: the span, the event's stream, then its fields. */
enum { SSP_EF_SPAN, SSP_EF_STREAM, SSP_EF_NCOMMON };

/* Span flags */
#define SSP_SPAN_ORPHAN     0x1	/* an expected parent was missing; see cause */
#define SSP_SPAN_OPEN       0x2	/* still open at the end of input */
#define SSP_SPAN_BACKGROUND 0x4	/* network traffic not from a simulated host */
#define SSP_SPAN_INCOMPLETE 0x8	/* closed before its last expected event */

/* The schema, with or without member event types. */
const struct ssp_schema *ssp_span_schema(int with_events);
/* "host.syscall" ... ; NULL for an out-of-range kind. */
const char *ssp_span_kind_name(unsigned kind);
/* The kind named so ("host.syscall" ...); SSP_SK_NKINDS if unknown. */
unsigned ssp_span_kind_parse(const char *name);
/* The stream kind a span kind belongs to. */
enum ssp_sim ssp_span_kind_sim(unsigned kind);

/* A source stream as listed in a span stream header. */
struct ssp_span_source {
	const char *name;
	size_t namelen;		/* readers: name is not NUL-terminated */
	enum ssp_sim sim;
};

/* Writes format 1.SSP_SPAN_MINOR: the caller keeps the order it promises. */
SSP_MUST_USE enum ssp_status ssp_span_writer_open(struct ssp_rec_wr **wp,
    struct ssp_out *o, const char *producer, const struct ssp_span_source *src,
    size_t nsrc, int with_events, struct ssp_err *e);
SSP_MUST_USE enum ssp_status ssp_span_reader_open(struct ssp_rec_rd **rp,
    struct ssp_in *in, struct ssp_err *e);
/* Source streams from a reader's header: returns the count, fills up to
 * max entries (names point into the reader, namelen bytes long).
 * -SSP_ERR_FORMAT if the header is bad. */
int ssp_span_reader_sources(const struct ssp_rec_rd *rr,
    struct ssp_span_source *src, size_t max);

#endif
