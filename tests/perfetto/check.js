'use strict';
// Checks of span2perfetto's output (tests/cli/span2perfetto.sh).
//
//   node check.js proto FILE.pftrace SPANS LINKS
//   node check.js json FILE.json SPANS LINKS
//
// SPANS and LINKS are the counts spancat -n gives for the input.  proto:
// the trace is decoded with protobufjs against perfetto_subset.proto (the
// public field numbers) and re-encoded: the same length means no field
// was unknown to the schema.  json: the Trace Event Format's rules for
// the phases written (X, M, s, f).
//
// Both are then read the way trace_processor (the Perfetto UI's reader)
// imports them, since the file is not in time order everywhere: events
// sorted by time, equal times in file order (JSON: complete events first,
// longest first); slices on a stack per track; flows as its FlowTracker
// makes them (TrackEvent flow_ids begin a flow or, when it is active,
// step it; terminating_flow_ids end an active one; v1 flow events bind to
// the innermost slice open on their track; a flow goes from the slice
// that starts first).  Then: one slice per span, named processes and
// tracks, slices that nest properly on each track, every flow id with
// exactly two ends joining a parent and its child (or a link's two
// spans), and every child either nested in its parent on the parent's
// track or joined to it by a flow; flow events (JSON's, protobuf's v1)
// that bind elsewhere, as they may (formats/perfetto.md §4), are counted
// in the summary instead.  Prints a one-line summary; exits 1
// with the first failures otherwise.

const fs = require('fs');
const path = require('path');

const LINK_FLOW = 2 ** 52;
const KINDS = new Set(['host.syscall', 'host.mmio', 'host.dma', 'host.msix', 'host.pci',
  'host.intr', 'nic.mmio', 'nic.dma', 'nic.tx', 'nic.rx', 'nic.msix', 'net.device',
  'host.irq', 'host.softirq', 'host.resume', 'host.app']);
const TRACK_NAME = new RegExp('^(syscall( \\S+)?|mmio/pci|dma|irq|mmio|tx|rx|' +
  'node \\d+ dev \\d+|hardirq( \\S+)?|softirq( \\S+)?|app( \\S+)?)( #\\d+)?$');
const errors = [];
function fail(msg) {
  errors.push(msg);
  if (errors.length > 20) finish();
}
function finish(summary) {
  if (errors.length > 0) {
    for (const e of errors) console.error('check.js: ' + e);
    process.exit(1);
  }
  console.log(summary);
  process.exit(0);
}

// trace_processor's FlowTracker, on slices { start, ... }.
class Flows {
  constructor() { this.active = new Map(); this.rows = []; this.ends = new Map(); this.v1ids = new Set(); }
  seen(id) { this.ends.set(id, (this.ends.get(id) || 0) + 1); }
  insert(id, a, b) {
    const out = a.start > b.start ? b : a, inn = a.start > b.start ? a : b;
    this.rows.push({ id, out, in: inn });
  }
  // TrackEvent flow_ids: begin, or step an active flow
  step(id, s) {
    this.seen(id);
    const a = this.active.get(id);
    if (a !== undefined) this.insert(id, a, s);
    this.active.set(id, s);
  }
  // TrackEvent terminating_flow_ids
  terminate(id, s) {
    this.seen(id);
    const a = this.active.get(id);
    if (a === undefined) { fail(`flow ${id} ends before it begins`); return; }
    this.insert(id, a, s);
    this.active.delete(id);
  }
  // v1 flow events ('s', 'f' with binding point "enclosing slice")
  // (v1 events bind to whatever is open: a zero-length source has closed,
  // a slice nested at the same ns takes it; common() counts those)
  v1(ph, id, s) {
    this.seen(id);
    this.v1ids.add(id);
    const key = 'v1:' + id;
    if (s === undefined) return;
    if (ph === 's') {
      if (this.active.has(key)) fail(`flow ${id} starts twice`);
      this.active.set(key, s);
    } else {
      const a = this.active.get(key);
      if (a === undefined) return;
      this.insert(id, a, s);
    }
  }
}

// slices: { track, span, parent, start, end, nested } in file order of
// their begin; checks shared by both formats.
function common(slices, trackNames, flows, nspans, nlinks) {
  if (slices.length !== nspans)
    fail(`${slices.length} slices for ${nspans} spans`);
  const bySpan = new Map();
  for (const s of slices) {
    if (bySpan.has(s.span)) fail(`span ${s.span} twice`);
    bySpan.set(s.span, s);
    if (!trackNames.has(s.track)) fail(`slice of span ${s.span} on a track without a name`);
  }
  for (const [t, name] of trackNames)
    if (!TRACK_NAME.test(name)) fail(`track ${t}: unexpected name '${name}'`);
  for (const [id, n] of flows.ends)
    if (n !== 2) fail(`flow ${id} has ${n} ends, not 2`);
  const row = new Map();
  let links = 0, lost = 0;
  for (const r of flows.rows) {
    if (row.has(r.id)) fail(`flow ${r.id} twice`);
    if (r.id >= LINK_FLOW) { row.set(r.id, r); links++; continue; }
    const c = bySpan.get(r.id);
    if (c === undefined || !((r.in === c && r.out.span === c.parent) ||
        (r.out === c && r.in.span === c.parent))) {
      if (flows.v1ids.has(r.id)) continue;	// counted below
      fail(`flow ${r.id} is not parent -> child ${r.id}: ${r.out.span} -> ${r.in.span}`);
    }
    row.set(r.id, r);
  }
  for (const id of flows.v1ids) if (!row.has(id)) lost++;
  if (links + [...flows.v1ids].filter((id) => id >= LINK_FLOW && !row.has(id)).length !== nlinks)
    fail(`${links} link flows for ${nlinks} links`);
  let parents = 0, nest = 0;
  for (const s of slices) {
    if (s.parent === undefined || !bySpan.has(s.parent)) continue;
    if (s.nested) {
      const p = bySpan.get(s.parent);
      if (p.track !== s.track || s.start < p.start || s.end > p.end)
        fail(`span ${s.span} nested wrongly in ${s.parent}`);
      if (row.has(s.span)) fail(`span ${s.span}: nested in its parent and a flow too`);
      nest++;
    } else if (!row.has(s.span)) {
      if (!flows.v1ids.has(s.span))
        fail(`span ${s.span}: neither nested in parent ${s.parent} nor joined by a flow`);
    } else {
      parents++;
    }
  }
  return `${slices.length} slices on ${trackNames.size} tracks, ${parents} parent flows, ` +
    `${nest} nested, ${links} link flows` +
    (lost > 0 ? `, ${lost} flows of flow events not bound to their slices` : '');
}

function checkProto(file, nspans, nlinks) {
  const protobuf = require(path.join(__dirname, '..', 'otlp', 'node_modules', 'protobufjs'));
  const root = protobuf.loadSync(path.join(__dirname, 'perfetto_subset.proto'));
  const Trace = root.lookupType('perfetto.protos.Trace');
  const bytes = fs.readFileSync(file);
  const trace = Trace.decode(bytes);
  if (Trace.encode(trace).finish().length !== bytes.length)
    fail('re-encoded trace has another length: fields unknown to the schema');
  const pk = trace.packet;
  if (pk.length === 0) finish(fail('no packets'));
  const names = new Map(), annNames = new Map(), cats = new Map();
  if (pk[0].sequenceFlags !== 1 || !pk[0].internedData)
    fail('first packet does not clear the incremental state with interned data');
  else {
    for (const n of pk[0].internedData.eventNames) names.set(Number(n.iid), n.name);
    for (const n of pk[0].internedData.eventCategories) cats.set(Number(n.iid), n.name);
    for (const n of pk[0].internedData.debugAnnotationNames)
      annNames.set(Number(n.iid), n.name);
  }
  const procs = new Map(), trackNames = new Map(), evs = [];
  let behind = 0, lastTs = 0;
  pk.forEach((p, i) => {
    if (p.trustedPacketSequenceId !== 1) fail('packet on another sequence');
    if (p.trackDescriptor) {
      const d = p.trackDescriptor, uuid = Number(d.uuid);
      if (uuid === 0) {
        if (d.threadOrdering !== 1) fail('root track without explicit thread ordering');
      } else if (d.process) {
        if (!d.process.processName) fail(`process track ${uuid} without a name`);
        procs.set(uuid, d.process.pid);
      } else if (d.thread) {
        if (!procs.has(Number(d.parentUuid))) fail(`track ${uuid}: parent is no process (yet)`);
        if (procs.get(Number(d.parentUuid)) !== d.thread.pid) fail(`track ${uuid}: pid`);
        if (d.name !== d.thread.threadName) fail(`track ${uuid}: two names`);
        if (trackNames.has(uuid)) fail(`track ${uuid} twice`);
        trackNames.set(uuid, d.name);
      } else fail(`track ${uuid}: neither process nor thread`);
      return;
    }
    if (!p.trackEvent) return;
    const te = p.trackEvent, ts = Number(p.timestamp);
    if (p.sequenceFlags !== 2) fail('event packet without SEQ_NEEDS_INCREMENTAL_STATE');
    if (!trackNames.has(Number(te.trackUuid))) fail(`event before the descriptor of its track`);
    if (ts < lastTs) behind++;
    else lastTs = ts;
    evs.push({ i, ts, te });
  });
  // trace_processor's order: by time, then file order
  evs.sort((a, b) => a.ts - b.ts || a.i - b.i);
  const stack = new Map(), slices = [], flows = new Flows();
  const top = (t) => { const st = stack.get(t); return st && st.length ? st[st.length - 1] : undefined; };
  for (const { ts, te } of evs) {
    const track = Number(te.trackUuid);
    if (!stack.has(track)) stack.set(track, []);
    const st = stack.get(track);
    if (te.legacyEvent) {
      const le = te.legacyEvent, ph = String.fromCharCode(le.phase);
      if (te.type) fail('flow event with a type');
      if (ph !== 's' && ph !== 'f') { fail(`legacy phase ${ph}`); continue; }
      if (ph === 'f' && !le.bindToEnclosing) fail('f event not bound to the enclosing slice');
      if (names.get(Number(te.nameIid)) !== (Number(le.unscopedId) >= LINK_FLOW ? 'link' : 'cause'))
        fail(`flow event ${le.unscopedId}: name`);
      flows.v1(ph, Number(le.unscopedId), top(track));
      continue;
    }
    let s;
    if (te.type === 1) {
      if (!names.has(Number(te.nameIid))) fail(`event name iid ${te.nameIid} not interned`);
      if (te.categoryIids.length !== 1 || !KINDS.has(cats.get(Number(te.categoryIids[0]))))
        fail('slice without one span kind as its category');
      else if (cats.get(Number(te.categoryIids[0])) !== names.get(Number(te.nameIid)))
        fail('slice name is not its kind');
      const a = {};
      for (const d of te.debugAnnotations) {
        const n = annNames.get(Number(d.nameIid));
        if (n === undefined) { fail(`annotation name iid ${d.nameIid} not interned`); continue; }
        a[n] = d[d.value];
      }
      if (a.span_id === undefined || a.start_ps === undefined) fail('slice without span_id or start_ps');
      if (Math.floor(Number(a.start_ps) / 1000) !== ts) fail(`span ${a.span_id}: ts is not start_ps / 1000`);
      s = { track, span: Number(a.span_id), start: ts, end: -1,
        parent: a.parent_id === undefined ? undefined : Number(a.parent_id),
        durPs: Number(a.dur_ps), startPs: Number(a.start_ps) };
      s.nested = st.length > 0 && s.parent !== undefined && st[st.length - 1].span === s.parent;
      if (st.length > 0 && st[st.length - 1].endNs < Math.floor((s.startPs + s.durPs) / 1000))
        fail(`track ${track}: span ${s.span} overlaps span ${st[st.length - 1].span}`);
      s.endNs = Math.floor((s.startPs + s.durPs) / 1000);
      slices.push(s);
      st.push(s);
    } else if (te.type === 2) {
      if (st.length === 0) { fail(`track ${track}: end without begin at ${ts}`); continue; }
      s = st.pop();
      s.end = ts;
      if (s.endNs !== ts) fail(`span ${s.span}: end is not (start_ps + dur_ps) / 1000`);
      if (te.terminatingFlowIds.length > 0) fail(`span ${s.span}: terminating flow on an END`);
    } else { fail(`event type ${te.type}`); continue; }
    for (const id of te.flowIds) flows.step(Number(id), s);
    for (const id of te.terminatingFlowIds) flows.terminate(Number(id), s);
  }
  for (const [t, st] of stack)
    if (st.length > 0) fail(`track ${t}: ${st.length} slices never end`);
  const sum = 'proto: ' + common(slices, trackNames, flows, nspans, nlinks);
  finish(behind > 0 ? `${sum}, ${behind} events out of time order` : sum);
}

function checkJson(file, nspans, nlinks) {
  const text = fs.readFileSync(file, 'utf8');
  // times: microseconds with exactly three decimals (whole ns)
  for (const m of text.matchAll(/"(ts|dur)":([^,}]*)/g))
    if (!/^\d+\.\d{3}$/.test(m[2])) { fail(`${m[1]} ${m[2]}: not us with 3 decimals`); break; }
  const doc = JSON.parse(text);
  if (typeof doc !== 'object' || !Array.isArray(doc.traceEvents)) finish(fail('no traceEvents array'));
  // some trace_processor versions read ts and dur in displayTimeUnit
  if (doc.displayTimeUnit !== undefined) fail('displayTimeUnit is set');
  if (!doc.otherData || doc.otherData.spans !== nspans) fail('otherData.spans is not the span count');
  const isInt = (v) => Number.isInteger(v) && v >= 0;
  const ns = (us) => Math.round(us * 1000);
  const procNames = new Map(), trackNames = new Map(), slices = [], fev = [];
  doc.traceEvents.forEach((e, i) => {
    if (typeof e.ph !== 'string') { fail('event without ph'); return; }
    if (!isInt(e.pid) || !isInt(e.tid)) fail(`${e.ph} event without integer pid/tid`);
    const track = `${e.pid}/${e.tid}`;
    switch (e.ph) {
    case 'M':
      if (typeof e.args !== 'object') fail('M without args');
      else if (e.name === 'process_name') procNames.set(e.pid, e.args.name);
      else if (e.name === 'thread_name') trackNames.set(track, e.args.name);
      else if (!['process_sort_index', 'thread_sort_index'].includes(e.name) ||
               !Number.isInteger(e.args.sort_index)) fail(`M event ${e.name}`);
      break;
    case 'X': {
      if (typeof e.name !== 'string' || !KINDS.has(e.cat)) fail('X without name or a span kind as cat');
      if (e.name !== e.cat) fail(`X named ${e.name}, not its kind`);
      if (typeof e.ts !== 'number' || typeof e.dur !== 'number' || e.ts < 0 || e.dur < 0)
        fail('X without ts or dur numbers');
      const a = e.args || {};
      if (!Number.isInteger(a.span_id) || !Number.isInteger(a.start_ps)) fail('X without span_id, start_ps');
      if (Math.floor(a.start_ps / 1000) !== ns(e.ts)) fail(`span ${a.span_id}: ts is not start_ps`);
      if (Math.floor((a.start_ps + a.dur_ps) / 1000) !== ns(e.ts) + ns(e.dur))
        fail(`span ${a.span_id}: ts + dur is not the end`);
      slices.push({ i, track, span: a.span_id, parent: a.parent_id, start: ns(e.ts),
        end: ns(e.ts) + ns(e.dur) });
      break;
    }
    case 's':
    case 'f':
      if (!isInt(e.id) || typeof e.name !== 'string' || typeof e.cat !== 'string' ||
          typeof e.ts !== 'number') fail(`${e.ph} without id, name, cat or ts`);
      if (e.ph === 'f' && e.bp !== 'e') fail('f without bp "e"');
      if ((e.id >= LINK_FLOW) !== (e.name === 'link')) fail(`flow ${e.id}: name ${e.name}`);
      fev.push({ i, track, ts: ns(e.ts), ph: e.ph, id: e.id });
      break;
    default:
      fail(`unexpected phase ${e.ph}`);
    }
  });
  for (const s of slices)
    if (!procNames.has(Number(s.track.split('/')[0]))) fail(`no process name for ${s.track}`);
  // trace_processor's order: by time; complete events first, longest
  // first; then file order.  A slice is popped when one that begins after
  // its end comes; a flow event binds to the innermost slice on the stack.
  const evs = slices.map((s) => ({ x: s, ts: s.start, key: -(s.end - s.start), i: s.i }))
    .concat(fev.map((f) => ({ f, ts: f.ts, key: 1, i: f.i })));
  evs.sort((a, b) => a.ts - b.ts || a.key - b.key || a.i - b.i);
  const stack = new Map(), flows = new Flows();
  for (const ev of evs) {
    const t = ev.x ? ev.x.track : ev.f.track;
    if (!stack.has(t)) stack.set(t, []);
    const st = stack.get(t);
    if (ev.f) { flows.v1(ev.f.ph, ev.f.id, st[st.length - 1]); continue; }
    const s = ev.x;
    while (st.length > 0 && st[st.length - 1].end <= s.start &&
           !(st[st.length - 1].end === s.start && st[st.length - 1].start === s.start)) st.pop();
    if (st.length > 0 && s.end > st[st.length - 1].end)
      fail(`track ${t}: span ${s.span} overlaps span ${st[st.length - 1].span}`);
    s.nested = st.length > 0 && s.parent !== undefined && st[st.length - 1].span === s.parent;
    st.push(s);
  }
  finish('json: ' + common(slices, trackNames, flows, nspans, nlinks));
}

const [mode, file, nspans, nlinks] = process.argv.slice(2);
if (!file || !['proto', 'json'].includes(mode)) {
  console.error('usage: node check.js proto|json FILE SPANS LINKS');
  process.exit(2);
}
(mode === 'proto' ? checkProto : checkJson)(file, Number(nspans), Number(nlinks));
