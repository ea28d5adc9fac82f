-- simspan SQLite schema, version 2.  Normative description: formats/sqlite.md.
-- span2sqlite embeds this file and runs it on a new database; the part after
-- the "indexes" marker below runs once all spans are loaded (bulk inserts
-- are faster without indexes).  Running the whole file with sqlite3 on an
-- empty database gives the same, empty, schema.
--
-- Times are simulated picoseconds (INTEGER).  Ids from the span stream are
-- 64-bit INTEGERs stored as two's complement, as SQLite's own hex literals
-- (0xffffffffffffffff = -1); printf('%016x', span_id) gives the OTLP form.

PRAGMA application_id = 0x53535053;	-- "SSPS"
PRAGMA user_version = 2;		-- schema version, see formats/sqlite.md

-- One row per load (span2sqlite invocation).
CREATE TABLE runs (
	id	INTEGER PRIMARY KEY,
	name	TEXT NOT NULL UNIQUE,	-- --run, default "<input>@<UTC time>"
	source	TEXT NOT NULL,		-- input file as given, "-" for stdin
	loaded	TEXT NOT NULL,		-- UTC time of the load, ISO 8601
	tool	TEXT NOT NULL,		-- "span2sqlite <version>"
	spans	INTEGER NOT NULL,
	links	INTEGER NOT NULL,
	events	INTEGER,		-- NULL: loaded without --events
	traces	INTEGER NOT NULL
);

-- The span stream header's metadata (producer, time-unit, stream, ...).
CREATE TABLE run_meta (
	run	INTEGER NOT NULL REFERENCES runs(id),
	key	TEXT NOT NULL,
	value	TEXT NOT NULL
);

-- The simulator streams (topology) of a run.
CREATE TABLE streams (
	id	INTEGER PRIMARY KEY,
	run	INTEGER NOT NULL REFERENCES runs(id),
	idx	INTEGER NOT NULL,	-- stream number in the span stream
	name	TEXT NOT NULL,		-- as spans.stream
	sim	TEXT NOT NULL,		-- gem5 | nicbm | ns3 | switch
	kind	TEXT NOT NULL,		-- host | nic | net
	spans	INTEGER NOT NULL,
	UNIQUE (run, idx),
	UNIQUE (run, name)
);

-- One row per trace (the tree under one root span).
CREATE TABLE traces (
	id	INTEGER PRIMARY KEY,
	run	INTEGER NOT NULL REFERENCES runs(id),
	trace_id TEXT NOT NULL,		-- 32 lowercase hex digits, as in OTLP
	root	INTEGER REFERENCES spans(id),	-- the span without parent
	root_kind TEXT,
	root_stream TEXT,
	start_ps INTEGER NOT NULL,	-- earliest span start
	end_ps	INTEGER NOT NULL,	-- latest span end
	dur_ps	INTEGER GENERATED ALWAYS AS (end_ps - start_ps) VIRTUAL,
					-- end-to-end latency
	spans	INTEGER NOT NULL,
	-- The latency split (formats/sqlite.md, "Latency split"): time during
	-- which at least one span of the trace was open, and the rest.
	busy_ps	INTEGER,
	idle_ps	INTEGER GENERATED ALWAYS AS (end_ps - start_ps - busy_ps) VIRTUAL,
	streams	TEXT,			-- JSON {"stream": [spans, busy_ps], ...}
	kinds	TEXT,			-- JSON {"kind": [spans, busy_ps], ...}
	UNIQUE (run, trace_id)
);

CREATE TABLE spans (
	id	INTEGER PRIMARY KEY,	-- database-wide span number
	run	INTEGER NOT NULL REFERENCES runs(id),
	trace	INTEGER NOT NULL REFERENCES traces(id),
	parent	INTEGER REFERENCES spans(id),	-- NULL: root (or parent not loaded)
	span_id	INTEGER NOT NULL,	-- 64-bit span id of the stream
	kind	TEXT NOT NULL,		-- host.syscall, nic.dma, net.device, ...
	stream	TEXT NOT NULL,		-- streams.name
	start_ps INTEGER NOT NULL,
	dur_ps	INTEGER NOT NULL,
	end_ps	INTEGER GENERATED ALWAYS AS (start_ps + dur_ps) VIRTUAL,
	flags	INTEGER NOT NULL,	-- 1 orphan, 2 open at end of input, 4 background
	cause	TEXT,			-- orphans: what the missing parent was
	extra	TEXT			-- JSON object: attributes without a column
					-- (kinds or fields newer than the schema)
);

-- The attributes of each span kind, one row per span (span = spans.id),
-- named as the fields of the span stream (formats/spans.md).  Booleans are
-- 0/1; an absent value (string 0, signed -1) is NULL.
CREATE TABLE attr_host_syscall (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	cpu	TEXT,			-- gem5 CPU object
	entry	TEXT,			-- syscall entry function
	call	TEXT,			-- the system call: its handler, e.g. sendto
	funcs	INTEGER,		-- function entries in the span
	kernel_tx INTEGER, driver_tx INTEGER, kernel_rx INTEGER,
	driver_rx INTEGER		-- entered a function of that rules class
);
CREATE TABLE attr_host_mmio (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	comp	TEXT, write INTEGER, addr INTEGER, size INTEGER,
	id	INTEGER,		-- adapter request id
	bar	INTEGER, offs INTEGER, posted INTEGER
);
CREATE TABLE attr_host_dma (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	comp	TEXT, write INTEGER,
	id	INTEGER,		-- = the NIC's DMA op (nic.dma op)
	addr	INTEGER, size INTEGER
);
CREATE TABLE attr_host_msix (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	comp	TEXT, vec INTEGER
);
CREATE TABLE attr_host_pci (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	comp	TEXT, write INTEGER, dev INTEGER, func INTEGER, reg INTEGER,
	bytes	INTEGER, data INTEGER
);
CREATE TABLE attr_host_intr (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	comp	TEXT
);
CREATE TABLE attr_nic_mmio (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	write	INTEGER, off INTEGER, len INTEGER, val INTEGER, posted INTEGER
);
CREATE TABLE attr_nic_dma (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	write	INTEGER, op INTEGER, addr INTEGER, len INTEGER
);
CREATE TABLE attr_nic_tx (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	len	INTEGER
);
CREATE TABLE attr_nic_rx (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	port	INTEGER, len INTEGER
);
CREATE TABLE attr_nic_msix (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	vec	INTEGER, msi INTEGER
);
CREATE TABLE attr_net_device (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	node	INTEGER, dev INTEGER, devtype TEXT,
	uid	INTEGER,		-- ns-3 packet uid
	interesting INTEGER, dropped INTEGER,
	boundary INTEGER,		-- 0 internal, 1 from adapter, 2 to adapter
	payload	INTEGER, eth_type INTEGER,
	ip_src	TEXT, ip_dst TEXT,	-- dotted quad
	ip_proto INTEGER
);
-- Kernel execution contexts (version 2; formats/spans.md §4b).
CREATE TABLE attr_host_irq (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	cpu	TEXT,			-- gem5 CPU object
	entry	TEXT,			-- the function that opened the context
	funcs	INTEGER			-- function entries in the span
);
CREATE TABLE attr_host_softirq (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	cpu	TEXT, entry TEXT, funcs INTEGER
);
CREATE TABLE attr_host_resume (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	cpu	TEXT, entry TEXT, funcs INTEGER
);
CREATE TABLE attr_host_app (
	span	INTEGER PRIMARY KEY REFERENCES spans(id),
	cpu	TEXT, entry TEXT, funcs INTEGER
);

-- Extra causes of a span (OTLP span links).
CREATE TABLE links (
	id	INTEGER PRIMARY KEY,
	run	INTEGER NOT NULL REFERENCES runs(id),
	span	INTEGER REFERENCES spans(id),	-- the span with the extra cause
	target	INTEGER REFERENCES spans(id),	-- the cause; NULL if not loaded
	kind	TEXT,			-- kind of context passed, e.g. nic.rx
	span_id	INTEGER NOT NULL,	-- both ends as in the stream
	target_span_id INTEGER NOT NULL,
	target_trace_id TEXT NOT NULL
);

-- Member events of spans (span2sqlite --events).
CREATE TABLE events (
	id	INTEGER PRIMARY KEY,
	run	INTEGER NOT NULL REFERENCES runs(id),
	span	INTEGER REFERENCES spans(id),
	ts_ps	INTEGER NOT NULL,
	type	TEXT NOT NULL,		-- event type, formats/events.md: func, nic_dma_issue, ...
	stream	TEXT NOT NULL,
	attrs	TEXT			-- JSON object: the event's fields
);

-- End-to-end latency distribution per run and kind of trace root.
-- Percentiles are nearest-rank: pN is the smallest latency such that at
-- least N % of the traces are not slower (rank ceil(N * traces / 100)).
CREATE VIEW latency AS
WITH r AS (
	SELECT run, root_kind, dur_ps,
	    row_number() OVER w AS rn, count(*) OVER w AS n
	FROM traces
	WINDOW w AS (PARTITION BY run, root_kind ORDER BY dur_ps
	    RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
SELECT run, root_kind, n AS traces,
    min(dur_ps) AS min_ps,
    avg(dur_ps) AS avg_ps,
    min(CASE WHEN rn * 100 >= n * 50 THEN dur_ps END) AS p50_ps,
    min(CASE WHEN rn * 100 >= n * 90 THEN dur_ps END) AS p90_ps,
    min(CASE WHEN rn * 100 >= n * 99 THEN dur_ps END) AS p99_ps,
    max(dur_ps) AS max_ps
FROM r GROUP BY run, root_kind;

-- How each trace's latency splits across streams: busy_ps is the length of
-- the union of the intervals [start_ps, end_ps] of the trace's spans on the
-- stream (time when at least one of them was open; overlaps count once),
-- share = busy_ps / latency_ps.  Spans lie within their trace's interval.
CREATE VIEW trace_streams AS
SELECT t.run, t.id AS trace, t.root_kind, j.key AS stream,
    j.value ->> 0 AS spans, j.value ->> 1 AS busy_ps, t.dur_ps AS latency_ps,
    CASE WHEN t.dur_ps > 0 THEN 1.0 * (j.value ->> 1) / t.dur_ps END AS share
FROM traces AS t, json_each(t.streams) AS j;

-- The same split across span kinds.
CREATE VIEW trace_kinds AS
SELECT t.run, t.id AS trace, t.root_kind, j.key AS kind,
    j.value ->> 0 AS spans, j.value ->> 1 AS busy_ps, t.dur_ps AS latency_ps,
    CASE WHEN t.dur_ps > 0 THEN 1.0 * (j.value ->> 1) / t.dur_ps END AS share
FROM traces AS t, json_each(t.kinds) AS j;

-- The splits over all traces of a run with the same root kind: traces is
-- how many have spans on the stream, avg_busy_ps the busy time per trace of
-- the group (0 for traces without spans there), share = summed busy time /
-- summed latency.  Streams overlap in time, so shares add up to more than
-- 1; the row with stream NULL is the idle time, when no span was open
-- (requests in flight between simulators).
CREATE VIEW split_streams AS
WITH s AS (
	SELECT t.run, t.root_kind, j.key AS stream, count(*) AS traces,
	    sum(j.value ->> 1) AS busy
	FROM traces AS t, json_each(t.streams) AS j
	GROUP BY t.run, t.root_kind, j.key
	UNION ALL
	SELECT run, root_kind, NULL, count(*), sum(idle_ps)
	FROM traces GROUP BY run, root_kind),
tot AS (
	SELECT run, root_kind, count(*) AS n, sum(dur_ps) AS lat
	FROM traces GROUP BY run, root_kind)
SELECT s.run, s.root_kind, s.stream, s.traces,
    1.0 * s.busy / tot.n AS avg_busy_ps,
    CASE WHEN tot.lat > 0 THEN 1.0 * s.busy / tot.lat END AS share
FROM s JOIN tot ON tot.run = s.run AND tot.root_kind IS s.root_kind;

CREATE VIEW split_kinds AS
WITH s AS (
	SELECT t.run, t.root_kind, j.key AS kind, count(*) AS traces,
	    sum(j.value ->> 1) AS busy
	FROM traces AS t, json_each(t.kinds) AS j
	GROUP BY t.run, t.root_kind, j.key
	UNION ALL
	SELECT run, root_kind, NULL, count(*), sum(idle_ps)
	FROM traces GROUP BY run, root_kind),
tot AS (
	SELECT run, root_kind, count(*) AS n, sum(dur_ps) AS lat
	FROM traces GROUP BY run, root_kind)
SELECT s.run, s.root_kind, s.kind, s.traces,
    1.0 * s.busy / tot.n AS avg_busy_ps,
    CASE WHEN tot.lat > 0 THEN 1.0 * s.busy / tot.lat END AS share
FROM s JOIN tot ON tot.run = s.run AND tot.root_kind IS s.root_kind;

-- Spans whose expected parent was missing, by kind and missing cause.
CREATE VIEW orphans AS
SELECT run, kind, cause, count(*) AS spans
FROM spans WHERE flags & 1
GROUP BY run, kind, cause;

-- Spans per kind and their durations.  (Percentiles of one kind: see
-- formats/sqlite.md; over all kinds at once they cost a sort of all spans.)
CREATE VIEW span_kinds AS
SELECT run, kind, count(*) AS spans, sum(dur_ps) AS total_ps,
    min(dur_ps) AS min_ps, avg(dur_ps) AS avg_ps, max(dur_ps) AS max_ps
FROM spans GROUP BY kind, run;

-- One view per span kind: its spans with their attributes.  Attributes
-- named "id" become mmio_id and dma_id ("id" stays the span's).
CREATE VIEW host_syscall AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.cpu, a.entry, a.call, a.funcs, a.kernel_tx,
    a.driver_tx, a.kernel_rx, a.driver_rx
FROM attr_host_syscall AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_mmio AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.comp, a.write, a.addr, a.size,
    a.id AS mmio_id, a.bar, a.offs, a.posted
FROM attr_host_mmio AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_dma AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.comp, a.write, a.id AS dma_id, a.addr,
    a.size
FROM attr_host_dma AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_msix AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.comp, a.vec
FROM attr_host_msix AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_pci AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.comp, a.write, a.dev, a.func, a.reg,
    a.bytes, a.data
FROM attr_host_pci AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_intr AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.comp
FROM attr_host_intr AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW nic_mmio AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.write, a.off, a.len, a.val, a.posted
FROM attr_nic_mmio AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW nic_dma AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.write, a.op, a.addr, a.len
FROM attr_nic_dma AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW nic_tx AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.len
FROM attr_nic_tx AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW nic_rx AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.port, a.len
FROM attr_nic_rx AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW nic_msix AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.vec, a.msi
FROM attr_nic_msix AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW net_device AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.node, a.dev, a.devtype, a.uid,
    a.interesting, a.dropped,
    CASE a.boundary WHEN 0 THEN 'internal' WHEN 1 THEN 'from_adapter'
        WHEN 2 THEN 'to_adapter' END AS boundary,
    a.payload, a.eth_type, a.ip_src, a.ip_dst, a.ip_proto
FROM attr_net_device AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_irq AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.cpu, a.entry, a.funcs
FROM attr_host_irq AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_softirq AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.cpu, a.entry, a.funcs
FROM attr_host_softirq AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_resume AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.cpu, a.entry, a.funcs
FROM attr_host_resume AS a JOIN spans AS s ON s.id = a.span;

CREATE VIEW host_app AS
SELECT s.id, s.run, s.trace, s.parent, s.stream, s.start_ps, s.dur_ps,
    s.end_ps, s.flags, s.cause, a.cpu, a.entry, a.funcs
FROM attr_host_app AS a JOIN spans AS s ON s.id = a.span;

-- span2sqlite: indexes (created after the bulk load; keep this line)
-- By start time: spans_stream with a skip-scan over the few streams
-- (ANALYZE statistics make the planner use it), no index of its own.
CREATE INDEX spans_trace ON spans(trace);
CREATE INDEX spans_parent ON spans(parent);
CREATE INDEX spans_kind ON spans(kind, run, dur_ps);
CREATE INDEX spans_stream ON spans(stream, start_ps);
CREATE INDEX spans_orphans ON spans(run, kind, cause) WHERE flags & 1;
CREATE INDEX traces_latency ON traces(run, root_kind, dur_ps);
CREATE INDEX links_span ON links(span);
CREATE INDEX links_target ON links(target);
CREATE INDEX events_span ON events(span, ts_ps);
