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
// the phases written (X, M, s, f).  Both then check the same things:
// one slice per span, every flow id with exactly one start and one end,
// named processes and tracks, times that do not go back on a track,
// slices that nest properly on each track, and every child either nested
// in its parent on the parent's track or joined to it by a flow.
// Prints a one-line summary; exits 1 with the first failures otherwise.

const fs = require('fs');
const path = require('path');

const LINK_FLOW = 2 ** 52;
const KINDS = new Set(['host.syscall', 'host.mmio', 'host.dma', 'host.msix', 'host.pci',
  'host.intr', 'nic.mmio', 'nic.dma', 'nic.tx', 'nic.rx', 'nic.msix', 'net.device']);
const TRACK_NAME = /^(syscall( \S+)?|mmio\/pci|dma|irq|mmio|tx|rx|node \d+ dev \d+)( #\d+)?$/;
const errors = [];
// A slice's name (formats/perfetto.md §4): its kind, and a host.syscall with
// a call adds it after a space (the call at most 200 bytes).
function spanName(kind, args) {
  const c = args.call;
  if (kind !== 'host.syscall' || typeof c !== 'string' || c === '') return kind;
  return kind + ' ' + Buffer.from(c).subarray(0, 200).toString();
}

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

// A slice: { track, span, parent, start, end (ns), out: [ids], in: [ids] }
// Checks shared by both formats; slices in file order of their begin.
function common(slices, trackNames, nspans, nlinks, nested) {
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
  const from = new Map(), to = new Map();
  for (const s of slices) {
    for (const id of s.out) {
      if (from.has(id)) fail(`flow ${id} starts twice`);
      from.set(id, s);
    }
    for (const id of s.in) {
      if (to.has(id)) fail(`flow ${id} ends twice`);
      to.set(id, s);
    }
  }
  let links = 0;
  for (const [id, s] of from) {
    const d = to.get(id);
    if (d === undefined) { fail(`flow ${id} has no end`); continue; }
    if (d.start < s.start) fail(`flow ${id} goes back in time`);
    if (id >= LINK_FLOW) links++;
    else if (id !== d.span || d.parent !== s.span)
      fail(`flow ${id} is not parent ${d.parent} -> child ${d.span}`);
  }
  for (const id of to.keys())
    if (!from.has(id)) fail(`flow ${id} has no start`);
  if (links !== nlinks) fail(`${links} link flows for ${nlinks} links`);
  let flows = 0, nest = 0;
  for (const s of slices) {
    if (s.parent === undefined || !bySpan.has(s.parent)) continue;
    if (nested.has(s.span)) {
      const p = bySpan.get(s.parent);
      if (p.track !== s.track || s.start < p.start || s.end > p.end)
        fail(`span ${s.span} nested wrongly in ${s.parent}`);
      nest++;
    } else if (from.get(s.span) !== bySpan.get(s.parent)) {
      fail(`span ${s.span}: neither nested in parent ${s.parent} nor joined by a flow`);
    } else {
      flows++;
    }
  }
  return `${slices.length} slices on ${trackNames.size} tracks, ${flows} parent flows, ` +
    `${nest} nested, ${links} link flows`;
}

// Per track: times never go back, and slices nest (a stack per track).
// evs: [{track, ts, begin, span}] in file order.
function stacks(evs) {
  const last = new Map(), stack = new Map(), nested = new Set();
  for (const e of evs) {
    if (last.has(e.track) && e.ts < last.get(e.track))
      fail(`track ${e.track}: time goes back at ${e.ts}`);
    last.set(e.track, e.ts);
    if (!stack.has(e.track)) stack.set(e.track, []);
    const st = stack.get(e.track);
    if (e.begin) {
      if (st.length > 0 && e.parent !== undefined && st[st.length - 1].span === e.parent)
        nested.add(e.span);
      st.push(e);
    } else if (st.length === 0) {
      fail(`track ${e.track}: end without begin at ${e.ts}`);
    } else {
      st.pop();
    }
  }
  for (const [t, st] of stack)
    if (st.length > 0) fail(`track ${t}: ${st.length} slices never end`);
  return nested;
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
  const procs = new Map(), trackNames = new Map(), evs = [], slices = [];
  const open = new Map();
  let lastTs = 0;
  for (const p of pk) {
    if (p.trustedPacketSequenceId !== 1) fail('packet on another sequence');
    if (p.trackDescriptor) {
      const d = p.trackDescriptor, uuid = Number(d.uuid);
      if (d.process) {
        if (!d.process.processName) fail(`process track ${uuid} without a name`);
        procs.set(uuid, d.process.pid);
      } else if (d.thread) {
        if (!procs.has(Number(d.parentUuid))) fail(`track ${uuid}: parent is no process`);
        if (procs.get(Number(d.parentUuid)) !== d.thread.pid) fail(`track ${uuid}: pid`);
        if (d.name !== d.thread.threadName) fail(`track ${uuid}: two names`);
        if (trackNames.has(uuid)) fail(`track ${uuid} twice`);
        trackNames.set(uuid, d.name);
      } else fail(`track ${uuid}: neither process nor thread`);
      continue;
    }
    if (!p.trackEvent) continue;
    const te = p.trackEvent, track = Number(te.trackUuid), ts = Number(p.timestamp);
    if (p.sequenceFlags !== 2) fail('event packet without SEQ_NEEDS_INCREMENTAL_STATE');
    if (ts < lastTs) fail(`packets not in time order at ${ts}`);
    lastTs = ts;
    if (te.type === 1) {
      const a = {};
      for (const d of te.debugAnnotations) {
        const n = annNames.get(Number(d.nameIid));
        if (n === undefined) { fail(`annotation name iid ${d.nameIid} not interned`); continue; }
        a[n] = d[d.value];
      }
      // the name: interned (the kind), or a syscall's own (kind and call)
      if (te.name === undefined || te.name === null || te.name === '') {
        if (!names.has(Number(te.nameIid))) fail(`event name iid ${te.nameIid} not interned`);
      } else if (te.nameIid !== undefined && te.nameIid !== null && Number(te.nameIid) !== 0) {
        fail('slice with both name and name_iid');
      }
      const name = te.name ? te.name : names.get(Number(te.nameIid));
      if (te.categoryIids.length !== 1 || !KINDS.has(cats.get(Number(te.categoryIids[0]))))
        fail('slice without one span kind as its category');
      else if (spanName(cats.get(Number(te.categoryIids[0])), a) !== name)
        fail(`slice name ${name} is not its kind (and call)`);
      if (a.span_id === undefined || a.start_ps === undefined) fail('slice without span_id or start_ps');
      if (Math.floor(Number(a.start_ps) / 1000) !== ts) fail(`span ${a.span_id}: ts is not start_ps / 1000`);
      const s = { track, span: Number(a.span_id), start: ts, end: -1,
        parent: a.parent_id === undefined ? undefined : Number(a.parent_id),
        out: te.flowIds.map(Number), in: te.terminatingFlowIds.map(Number),
        durPs: Number(a.dur_ps), startPs: Number(a.start_ps) };
      slices.push(s);
      if (!open.has(track)) open.set(track, []);
      open.get(track).push(s);
      evs.push({ track, ts, begin: true, span: s.span, parent: s.parent });
    } else if (te.type === 2) {
      const st = open.get(track);
      if (st && st.length > 0) {
        const s = st.pop();
        s.end = ts;
        if (Math.floor((s.startPs + s.durPs) / 1000) !== ts)
          fail(`span ${s.span}: end is not (start_ps + dur_ps) / 1000`);
      }
      evs.push({ track, ts, begin: false });
    } else fail(`event type ${te.type}`);
  }
  const nested = stacks(evs);
  finish('proto: ' + common(slices, trackNames, nspans, nlinks, nested));
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
  const isInt = (v) => Number.isInteger(v) && v >= 0;
  const ns = (us) => Math.round(us * 1000);
  const procNames = new Map(), trackNames = new Map(), slices = [], evs = [];
  let prev = null;
  for (const e of doc.traceEvents) {
    if (typeof e.ph !== 'string') { fail('event without ph'); continue; }
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
      if (e.name !== spanName(e.cat, e.args || {})) fail(`X named ${e.name}, not its kind (and call)`);
      if (typeof e.ts !== 'number' || typeof e.dur !== 'number' || e.ts < 0 || e.dur < 0)
        fail('X without ts or dur numbers');
      const a = e.args || {};
      if (!Number.isInteger(a.span_id) || !Number.isInteger(a.start_ps)) fail('X without span_id, start_ps');
      if (Math.floor(a.start_ps / 1000) !== ns(e.ts)) fail(`span ${a.span_id}: ts is not start_ps`);
      if (Math.floor((a.start_ps + a.dur_ps) / 1000) !== ns(e.ts) + ns(e.dur))
        fail(`span ${a.span_id}: ts + dur is not the end`);
      prev = { track, span: a.span_id, parent: a.parent_id, start: ns(e.ts),
        end: ns(e.ts) + ns(e.dur), out: [], in: [] };
      slices.push(prev);
      break;
    }
    case 's':
    case 'f':
      if (!isInt(e.id) || typeof e.name !== 'string' || typeof e.cat !== 'string' ||
          typeof e.ts !== 'number') fail(`${e.ph} without id, name, cat or ts`);
      if (e.ph === 'f' && e.bp !== 'e') fail('f without bp "e"');
      if ((e.id >= LINK_FLOW) !== (e.name === 'link')) fail(`flow ${e.id}: name ${e.name}`);
      // written right after the X of the slice it binds to
      if (prev === null || prev.track !== track || prev.start !== ns(e.ts))
        fail(`flow ${e.id} not at the start of the slice before it`);
      else (e.ph === 's' ? prev.out : prev.in).push(e.id);
      break;
    default:
      fail(`unexpected phase ${e.ph}`);
    }
  }
  for (const s of slices)
    if (!procNames.has(Number(s.track.split('/')[0]))) fail(`no process name for ${s.track}`);
  // nesting per track: in (start, longest first) order, a slice either
  // starts when the innermost open one has ended or ends inside it
  const byTrack = new Map();
  for (const s of slices) {
    if (!byTrack.has(s.track)) byTrack.set(s.track, []);
    byTrack.get(s.track).push(s);
  }
  for (const [t, list] of byTrack) {
    list.sort((x, y) => x.start - y.start || (y.end - y.start) - (x.end - x.start));
    const st = [];
    for (const s of list) {
      while (st.length > 0 && st[st.length - 1].end <= s.start) st.pop();
      if (st.length > 0 && s.end > st[st.length - 1].end) {
        fail(`track ${t}: span ${s.span} overlaps span ${st[st.length - 1].span}`);
        break;
      }
      st.push(s);
    }
  }
  const nested = new Set();
  const bySpan = new Map(slices.map((s) => [s.span, s]));
  for (const s of slices) {
    const p = bySpan.get(s.parent);
    if (p && p.track === s.track && p.start <= s.start && s.end <= p.end && !p.out.includes(s.span))
      nested.add(s.span);
  }
  finish('json: ' + common(slices, trackNames, nspans, nlinks, nested));
}

const [mode, file, nspans, nlinks] = process.argv.slice(2);
if (!file || !['proto', 'json'].includes(mode)) {
  console.error('usage: node check.js proto|json FILE SPANS LINKS');
  process.exit(2);
}
(mode === 'proto' ? checkProto : checkJson)(file, Number(nspans), Number(nlinks));
