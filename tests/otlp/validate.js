'use strict';
// Validate span2otlp file output with the receiver's checks.
//
// node validate.js json|protobuf FILE [--record F] [--summary F]
//
// json: one OTLP/JSON ExportTraceServiceRequest per line.  protobuf:
// requests each preceded by their length as a varint (length-delimited).
// Prints "N requests, M spans" and exits 0, or names the first bad request
// and exits 1.

const fs = require('fs');
const check = require('./otlp-check.js');

const [kind, file, ...rest] = process.argv.slice(2);
const opt = {};
for (let i = 0; i < rest.length; i += 2) opt[rest[i].replace(/^--/, '')] = rest[i + 1];
if (!['json', 'protobuf'].includes(kind) || !file) {
  process.stderr.write('usage: node validate.js json|protobuf FILE ' +
    '[--record F] [--summary F]\n');
  process.exit(2);
}

const data = fs.readFileSync(file);
const requests = [];
if (kind === 'json') {
  const text = data.toString('utf8');
  if (text.length > 0 && !text.endsWith('\n')) {
    process.stderr.write(`${file}: last line has no newline\n`);
    process.exit(1);
  }
  text.split('\n').slice(0, -1).forEach((l, i) => requests.push([`line ${i + 1}`, l]));
} else {
  let p = 0;
  while (p < data.length) {
    let len = 0; let shift = 0; let b;
    const at = p;
    do {
      if (p >= data.length || shift > 35) {
        process.stderr.write(`${file}: offset ${at}: truncated length\n`);
        process.exit(1);
      }
      b = data[p++];
      len += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (p + len > data.length) {
      process.stderr.write(`${file}: offset ${at}: request of ${len} bytes truncated\n`);
      process.exit(1);
    }
    requests.push([`request at offset ${at}`, data.subarray(p, p + len)]);
    p += len;
  }
}

let nspans = 0;
const rec = [];
const sum = [];
for (const [where, body] of requests) {
  let spans;
  try {
    spans = kind === 'json' ? check.decodeJson(body) : check.decodeProtobuf(body);
  } catch (e) {
    process.stderr.write(`${file}: ${where}: ${e.message}\n`);
    process.exit(1);
  }
  nspans += spans.length;
  for (const s of spans) {
    if (opt.record) rec.push(`${JSON.stringify(s)}\n`);
    if (opt.summary) sum.push(`${check.summary(s)}\n`);
  }
}
if (opt.record) fs.writeFileSync(opt.record, rec.join(''));
if (opt.summary) fs.writeFileSync(opt.summary, sum.join(''));
process.stdout.write(`${requests.length} requests, ${nspans} spans\n`);
