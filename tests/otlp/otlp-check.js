'use strict';
// Strict checks of OTLP trace export requests, and a normalized form of
// every span so that JSON and protobuf requests can be compared.
//
// Protobuf: decoded with the generated protobufjs root that ships in
// @opentelemetry/otlp-transformer 0.216.0 (the last version whose root
// still holds the trace messages), then re-encoded: the bytes must come
// back identical, which catches unknown or mis-numbered fields, wrong wire
// types (the generated decoder does not check them) and non-canonical
// encodings.
// JSON: parsed, then every object is checked against the OTLP/JSON
// encoding: lowerCamelCase names from the proto only, hex ids of the right
// length, 64-bit integers as decimal strings, enums as integers.  Then the
// same request goes through the official schema too: the hex ids turned
// into bytes (the OTLP/JSON rule), Type.fromObject of the generated root,
// every key checked against the fields of its message type, recursively
// (fromObject ignores unknown keys), Type.verify, and an encode-decode
// round trip through the protobuf checks above; what the schema reads
// must be what the hand-written checks read.

const path = require('path');

const root = require(path.join(__dirname, 'node_modules', '@opentelemetry',
  'otlp-transformer', 'build', 'src', 'generated', 'root.js'));
const pb = root.opentelemetry.proto;
const Req = pb.collector.trace.v1.ExportTraceServiceRequest;
const Resp = pb.collector.trace.v1.ExportTraceServiceResponse;
if (!Req || typeof Req.decode !== 'function')
  throw new Error('generated root has no ExportTraceServiceRequest');

class Bad extends Error {}
function fail(where, what) { throw new Bad(`${where}: ${what}`); }

const bytes = (b) => (b === null || b === undefined ? Buffer.alloc(0) : Buffer.from(b));
const hex = (b) => bytes(b).toString('hex');
const str64 = (v) => (v === undefined || v === null ? '0' : v.toString());

// --- normalized form -------------------------------------------------------

function normAttrs(where, list, getter) {
  const out = [];
  const seen = new Set();
  for (const kv of list || []) {
    const [k, t, v] = getter(where, kv);
    if (typeof k !== 'string' || k === '') fail(where, 'attribute without key');
    if (seen.has(k)) fail(where, `duplicate attribute key ${k}`);
    seen.add(k);
    out.push([k, t, v]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function checkSpan(where, s) {
  if (!/^[0-9a-f]{32}$/.test(s.traceId) || /^0+$/.test(s.traceId))
    fail(where, `bad traceId ${s.traceId}`);
  if (!/^[0-9a-f]{16}$/.test(s.spanId) || /^0+$/.test(s.spanId))
    fail(where, `bad spanId ${s.spanId}`);
  if (s.parentSpanId !== '' &&
      (!/^[0-9a-f]{16}$/.test(s.parentSpanId) || /^0+$/.test(s.parentSpanId)))
    fail(where, `bad parentSpanId ${s.parentSpanId}`);
  if (typeof s.name !== 'string' || s.name === '') fail(where, 'empty name');
  if (!(s.kind >= 1 && s.kind <= 5)) fail(where, `bad kind ${s.kind}`);
  if (BigInt(s.start) > BigInt(s.end)) fail(where, 'start after end');
  for (const l of s.links) {
    if (!/^[0-9a-f]{32}$/.test(l.traceId) || /^0+$/.test(l.traceId))
      fail(where, `bad link traceId ${l.traceId}`);
    if (!/^[0-9a-f]{16}$/.test(l.spanId) || /^0+$/.test(l.spanId))
      fail(where, `bad link spanId ${l.spanId}`);
  }
  for (const e of s.events)
    if (typeof e.name !== 'string' || e.name === '') fail(where, 'event without name');
  if (s.status && !(s.status.code >= 0 && s.status.code <= 2))
    fail(where, `bad status code ${s.status.code}`);
}

// --- protobuf --------------------------------------------------------------

function pbValue(where, kv) {
  const v = kv.value;
  if (!v) fail(where, `attribute ${kv.key} without value`);
  const set = ['stringValue', 'boolValue', 'intValue', 'doubleValue',
    'arrayValue', 'kvlistValue', 'bytesValue'].filter(
    (f) => Object.prototype.hasOwnProperty.call(v, f));
  if (set.length !== 1) fail(where, `attribute ${kv.key}: ${set.length} values set`);
  const f = set[0];
  if (f === 'stringValue') return [kv.key, 's', v.stringValue];
  if (f === 'boolValue') return [kv.key, 'b', v.boolValue ? 'true' : 'false'];
  if (f === 'intValue') return [kv.key, 'i', str64(v.intValue)];
  fail(where, `attribute ${kv.key}: unexpected ${f}`);
  return null;
}

function decodeProtobuf(buf) {
  let msg;
  try {
    msg = Req.decode(buf);
  } catch (e) {
    fail('protobuf', `decode: ${e.message}`);
  }
  const again = Buffer.from(Req.encode(msg).finish());
  if (!again.equals(Buffer.from(buf))) {
    let i = 0;
    while (i < again.length && i < buf.length && again[i] === buf[i]) i++;
    fail('protobuf', `re-encoding differs at byte ${i} of ${buf.length} ` +
      `(unknown field, wrong wire type or non-canonical encoding)`);
  }
  const spans = [];
  (msg.resourceSpans || []).forEach((rs, ri) => {
    const where = `resourceSpans[${ri}]`;
    if (!rs.resource) fail(where, 'no resource');
    const res = normAttrs(where, rs.resource.attributes, pbValue);
    (rs.scopeSpans || []).forEach((ss, si) => {
      const scope = ss.scope ? `${ss.scope.name}/${ss.scope.version}` : '';
      (ss.spans || []).forEach((s, k) => {
        const w = `${where}.scopeSpans[${si}].spans[${k}]`;
        const tl = bytes(s.traceId).length; const sl = bytes(s.spanId).length;
        const pl = bytes(s.parentSpanId).length;
        if (tl !== 16) fail(w, `traceId of ${tl} bytes`);
        if (sl !== 8) fail(w, `spanId of ${sl} bytes`);
        if (pl !== 0 && pl !== 8) fail(w, `parentSpanId of ${pl} bytes`);
        const n = {
          resource: res, scope,
          traceId: hex(s.traceId), spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId), name: s.name, kind: s.kind,
          start: str64(s.startTimeUnixNano), end: str64(s.endTimeUnixNano),
          attributes: normAttrs(w, s.attributes, pbValue),
          events: (s.events || []).map((e, ei) => ({
            time: str64(e.timeUnixNano), name: e.name,
            attributes: normAttrs(`${w}.events[${ei}]`, e.attributes, pbValue),
          })),
          links: (s.links || []).map((l, li) => {
            if (bytes(l.traceId).length !== 16 || bytes(l.spanId).length !== 8)
              fail(`${w}.links[${li}]`, 'bad id length');
            return { traceId: hex(l.traceId), spanId: hex(l.spanId),
              attributes: normAttrs(`${w}.links[${li}]`, l.attributes, pbValue) };
          }),
          status: s.status ? { code: s.status.code, message: s.status.message } : null,
        };
        checkSpan(w, n);
        spans.push(n);
      });
    });
  });
  return spans;
}

// --- JSON ------------------------------------------------------------------

function keys(where, o, allowed, required = []) {
  if (o === null || typeof o !== 'object' || Array.isArray(o))
    fail(where, 'not an object');
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) fail(where, `unexpected field "${k}"`);
  for (const k of required)
    if (!(k in o)) fail(where, `missing field "${k}"`);
}
function arr(where, v) {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(where, 'not an array');
  return v;
}
function int64s(where, v) {
  if (typeof v !== 'string' || !/^-?[0-9]+$/.test(v))
    fail(where, `64-bit integer not a decimal string: ${JSON.stringify(v)}`);
  return BigInt(v).toString();
}
function u64s(where, v) {
  if (typeof v !== 'string' || !/^[0-9]+$/.test(v))
    fail(where, `fixed64 not a decimal string: ${JSON.stringify(v)}`);
  return BigInt(v).toString();
}
function enumInt(where, v) {
  if (!Number.isInteger(v)) fail(where, `enum not an integer: ${JSON.stringify(v)}`);
  return v;
}
function hexId(where, v, len, optional) {
  if (optional && (v === undefined || v === '')) return '';
  if (typeof v !== 'string' || v.length !== len || !/^[0-9a-f]+$/i.test(v))
    fail(where, `id not ${len} hex digits: ${JSON.stringify(v)}`);
  return v.toLowerCase();
}

function jsonValue(where, kv) {
  keys(where, kv, ['key', 'value'], ['key', 'value']);
  const v = kv.value;
  keys(`${where}.value`, v, ['stringValue', 'boolValue', 'intValue',
    'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue']);
  const set = Object.keys(v);
  if (set.length !== 1) fail(where, `attribute ${kv.key}: ${set.length} values set`);
  const f = set[0];
  if (f === 'stringValue') {
    if (typeof v.stringValue !== 'string') fail(where, 'stringValue not a string');
    return [kv.key, 's', v.stringValue];
  }
  if (f === 'boolValue') {
    if (typeof v.boolValue !== 'boolean') fail(where, 'boolValue not a boolean');
    return [kv.key, 'b', v.boolValue ? 'true' : 'false'];
  }
  if (f === 'intValue') return [kv.key, 'i', int64s(`${where}.intValue`, v.intValue)];
  fail(where, `attribute ${kv.key}: unexpected ${f}`);
  return null;
}

function decodeJsonObject(req) {
  const spans = [];
  keys('request', req, ['resourceSpans']);
  arr('resourceSpans', req.resourceSpans).forEach((rs, ri) => {
    const where = `resourceSpans[${ri}]`;
    keys(where, rs, ['resource', 'scopeSpans', 'schemaUrl']);
    keys(`${where}.resource`, rs.resource,
      ['attributes', 'droppedAttributesCount', 'entityRefs']);
    const res = normAttrs(where, arr(where, rs.resource.attributes), jsonValue);
    arr(where, rs.scopeSpans).forEach((ss, si) => {
      const sw = `${where}.scopeSpans[${si}]`;
      keys(sw, ss, ['scope', 'spans', 'schemaUrl']);
      let scope = '';
      if (ss.scope) {
        keys(`${sw}.scope`, ss.scope, ['name', 'version', 'attributes',
          'droppedAttributesCount']);
        scope = `${ss.scope.name ?? ''}/${ss.scope.version ?? ''}`;
      }
      arr(sw, ss.spans).forEach((s, k) => {
        const w = `${sw}.spans[${k}]`;
        keys(w, s, ['traceId', 'spanId', 'traceState', 'parentSpanId', 'flags',
          'name', 'kind', 'startTimeUnixNano', 'endTimeUnixNano', 'attributes',
          'droppedAttributesCount', 'events', 'droppedEventsCount', 'links',
          'droppedLinksCount', 'status'], ['traceId', 'spanId', 'name']);
        const n = {
          resource: res, scope,
          traceId: hexId(`${w}.traceId`, s.traceId, 32),
          spanId: hexId(`${w}.spanId`, s.spanId, 16),
          parentSpanId: hexId(`${w}.parentSpanId`, s.parentSpanId, 16, true),
          name: s.name,
          kind: s.kind === undefined ? 0 : enumInt(`${w}.kind`, s.kind),
          start: u64s(`${w}.startTimeUnixNano`, s.startTimeUnixNano),
          end: u64s(`${w}.endTimeUnixNano`, s.endTimeUnixNano),
          attributes: normAttrs(w, arr(w, s.attributes), jsonValue),
          events: arr(w, s.events).map((e, ei) => {
            const ew = `${w}.events[${ei}]`;
            keys(ew, e, ['timeUnixNano', 'name', 'attributes',
              'droppedAttributesCount'], ['timeUnixNano', 'name']);
            return { time: u64s(`${ew}.timeUnixNano`, e.timeUnixNano), name: e.name,
              attributes: normAttrs(ew, arr(ew, e.attributes), jsonValue) };
          }),
          links: arr(w, s.links).map((l, li) => {
            const lw = `${w}.links[${li}]`;
            keys(lw, l, ['traceId', 'spanId', 'traceState', 'attributes',
              'droppedAttributesCount', 'flags'], ['traceId', 'spanId']);
            return { traceId: hexId(lw, l.traceId, 32), spanId: hexId(lw, l.spanId, 16),
              attributes: normAttrs(lw, arr(lw, l.attributes), jsonValue) };
          }),
          status: null,
        };
        if (s.status !== undefined) {
          keys(`${w}.status`, s.status, ['message', 'code']);
          n.status = { code: s.status.code === undefined ? 0 :
            enumInt(`${w}.status.code`, s.status.code),
          message: s.status.message === undefined ? '' : s.status.message };
        }
        checkSpan(w, n);
        spans.push(n);
      });
    });
  });
  return spans;
}

// --- JSON through the official schema ------------------------------------------

// The fields of a generated message class: its prototype's default values
// (methods such as toJSON left out; oneof names are not enumerable).
function fieldsOf(msg) {
  const proto = Object.getPrototypeOf(msg);
  return Object.keys(proto).filter((k) => typeof proto[k] !== 'function');
}
const isMessage = (v) => v !== null && typeof v === 'object' &&
  typeof v.constructor.fromObject === 'function';

// Every key of the JSON object o is a field of the message m that
// fromObject made of it, and so on down.
function knownKeys(where, o, m) {
  const fields = fieldsOf(m);
  for (const k of Object.keys(o)) {
    if (!fields.includes(k))
      fail(where, `"${k}" is not a field of ${m.constructor.name}`);
    const v = o[k]; const mv = m[k];
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (isMessage(mv[i])) knownKeys(`${where}.${k}[${i}]`, x, mv[i]);
      });
    } else if (isMessage(mv) && v !== null && typeof v === 'object' &&
        !Buffer.isBuffer(v)) {
      knownKeys(`${where}.${k}`, v, mv);
    }
  }
}

// OTLP/JSON: trace and span ids are hex, not base64 as protobuf JSON has
// it for bytes (OTLP specification, "JSON Protobuf Encoding").
function idsToBytes(req) {
  const b = (v) => (typeof v === 'string' ? Buffer.from(v, 'hex') : v);
  const copy = JSON.parse(JSON.stringify(req));
  for (const rs of copy.resourceSpans || [])
    for (const ss of rs.scopeSpans || [])
      for (const s of ss.spans || []) {
        for (const f of ['traceId', 'spanId', 'parentSpanId'])
          if (f in s) s[f] = b(s[f]);
        for (const l of s.links || [])
          for (const f of ['traceId', 'spanId'])
            if (f in l) l[f] = b(l[f]);
      }
  return copy;
}

// Every value of the JSON object a comes back from the round trip (b, by
// toObject) as it was: fromObject coerces what it does not expect
// ("x" >>> 0 is 0), this catches it.
function sameValues(where, a, b) {
  if (Buffer.isBuffer(a)) {
    if (b === undefined || !Buffer.from(b).equals(a)) fail(where, 'bytes changed');
  } else if (Array.isArray(a)) {
    if (!Array.isArray(b) || b.length !== a.length)
      fail(where, 'array length changed');
    a.forEach((x, i) => sameValues(`${where}[${i}]`, x, b[i]));
  } else if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object') fail(where, 'message lost');
    for (const k of Object.keys(a)) {
      if (Array.isArray(a[k]) && a[k].length === 0 && !(k in b))
        continue;	/* an empty repeated field is no field */
      if (!(k in b)) fail(`${where}.${k}`, `${JSON.stringify(a[k])} lost`);
      sameValues(`${where}.${k}`, a[k], b[k]);
    }
  } else if (a !== b) {
    fail(where, `${JSON.stringify(a)} came back as ${JSON.stringify(b)}`);
  }
}

function throughSchema(req) {
  const obj = idsToBytes(req);
  let msg;
  try {
    msg = Req.fromObject(obj);
  } catch (e) {
    fail('json (schema)', `fromObject: ${e.message}`);
  }
  const err = Req.verify(msg);
  if (err) fail('json (schema)', `verify: ${err}`);
  knownKeys('json (schema): request', obj, msg);
  const buf = Buffer.from(Req.encode(msg).finish());
  sameValues('json (schema): request', obj, Req.toObject(Req.decode(buf),
    { longs: String, enums: Number, bytes: Array }));
  return decodeProtobuf(buf);
}

function decodeJson(text) {
  let req;
  try {
    req = JSON.parse(text);
  } catch (e) {
    fail('json', `parse: ${e.message}`);
  }
  const spans = decodeJsonObject(req);
  const viaSchema = throughSchema(req);
  if (viaSchema.length !== spans.length)
    fail('json (schema)', `${viaSchema.length} spans, not ${spans.length}`);
  spans.forEach((s, i) => {
    const a = JSON.stringify(s); const b = JSON.stringify(viaSchema[i]);
    if (a !== b) fail(`json (schema): span ${i}`, `read differently:\n${a}\n${b}`);
  });
  return spans;
}

// One line per span: what tests/helpers/spandump prints for the input.
function summary(s) {
  const links = s.links.map((l) => ` ${l.traceId}:${l.spanId}`).join('');
  return `${s.traceId} ${s.spanId} ${s.parentSpanId || '-'} ${s.name} ` +
    `${s.events.length}${links}`;
}

module.exports = { decodeProtobuf, decodeJson, summary, Bad, Resp };
