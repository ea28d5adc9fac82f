'use strict';
// A strict OTLP/HTTP trace receiver for tests (POST /v1/traces).
//
// node receiver.js --port-file F [--port N] [--record F] [--summary F]
//     [--log F] [--fail K] [--status CODE] [--retry-after V] [--close K]
//     [--hang] [--discard] [--partial N] [--response json|protobuf]
//
// Every request is decoded strictly (otlp-check.js); a bad one gets 400 and
// an "error" line in the log.  --record appends one normalized JSON line
// per span, --summary one id line per span (tests/helpers/spandump's
// format), --log one JSON line per request (arrival time in ms, status,
// content type and encoding, user agent, authorization, client port,
// body bytes as sent and uncompressed, spans).  The first K requests can
// be answered with --status (default 503, with --retry-after as the
// Retry-After header; "+N" sends an HTTP date N seconds ahead, computed
// when answering) or have their connection closed (--close K);
// --hang never answers; --discard accepts every request unread (benchmarks).  --partial N answers every accepted request with
// partial_success rejected_spans = N.  Exits on SIGTERM; exits by itself
// after --lifetime seconds (default 120) so a failed test cannot leave it.

const fs = require('fs');
const http = require('http');
const zlib = require('zlib');
const check = require('./otlp-check.js');

const opt = { port: 0, fail: 0, status: 503, close: 0, hang: false, partial: 0,
  lifetime: 120 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const val = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
    return argv[++i];
  };
  switch (a) {
    case '--port': opt.port = Number(val()); break;
    case '--port-file': opt.portFile = val(); break;
    case '--record': opt.record = val(); break;
    case '--summary': opt.summary = val(); break;
    case '--log': opt.log = val(); break;
    case '--fail': opt.fail = Number(val()); break;
    case '--status': opt.status = Number(val()); break;
    case '--retry-after': opt.retryAfter = val(); break;
    case '--close': opt.close = Number(val()); break;
    case '--hang': opt.hang = true; break;
    case '--discard': opt.discard = true; break;
    case '--partial': opt.partial = Number(val()); break;
    case '--response': opt.response = val(); break;
    case '--lifetime': opt.lifetime = Number(val()); break;
    default:
      process.stderr.write(`receiver: unknown option ${a}\n`);
      process.exit(2);
  }
}

let nreq = 0;
const t0 = Date.now();
function log(obj) {
  if (opt.log) fs.appendFileSync(opt.log, `${JSON.stringify(obj)}\n`);
}

function respond(res, code, isJson, body) {
  res.writeHead(code, { 'Content-Type': isJson ? 'application/json' :
    'application/x-protobuf', 'Content-Length': body.length });
  res.end(body);
}

function okBody(isJson) {
  if (!opt.partial) return isJson ? Buffer.from('{}') : Buffer.alloc(0);
  const ps = { rejectedSpans: String(opt.partial), errorMessage: 'test: spans rejected' };
  if (isJson) return Buffer.from(JSON.stringify({ partialSuccess: ps }));
  return Buffer.from(check.Resp.encode({ partialSuccess: {
    rejectedSpans: opt.partial, errorMessage: ps.errorMessage } }).finish());
}

const server = http.createServer((req, res) => {
  const n = ++nreq;
  const entry = { n, t: Date.now() - t0, method: req.method, url: req.url,
    ct: req.headers['content-type'] || '', ce: req.headers['content-encoding'] || '',
    ua: req.headers['user-agent'] || '', auth: req.headers.authorization || '',
    rport: req.socket.remotePort };
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body = Buffer.concat(chunks);
    entry.bytes = body.length;
    if (opt.hang) { log({ ...entry, status: 'hang' }); return; }
    if (opt.discard) {	// benchmarks: accept unread
      respond(res, 200, entry.ct === 'application/json', okBody(entry.ct === 'application/json'));
      return;
    }
    if (n <= opt.close) {
      log({ ...entry, status: 'closed' });
      req.socket.destroy();
      return;
    }
    const isJson = entry.ct === 'application/json';
    if (n <= opt.fail) {
      const h = { 'Content-Type': 'application/json' };
      if (opt.retryAfter !== undefined) {
        // "+N": an HTTP date N seconds after this response, so the test
        // does not depend on how long the receiver took to start.
        const m = /^\+(\d+)$/.exec(opt.retryAfter);
        h['Retry-After'] = m ? new Date(Date.now() + 1000 * Number(m[1])).toUTCString()
                             : opt.retryAfter;
      }
      const b = Buffer.from(JSON.stringify({ code: 14, message: 'test: unavailable' }));
      h['Content-Length'] = b.length;
      log({ ...entry, status: opt.status });
      res.writeHead(opt.status, h);
      res.end(b);
      return;
    }
    let spans;
    try {
      if (req.method !== 'POST' || req.url !== '/v1/traces')
        throw new check.Bad(`${req.method} ${req.url}: expected POST /v1/traces`);
      if (entry.ce === 'gzip') body = zlib.gunzipSync(body);
      else if (entry.ce !== '') throw new check.Bad(`content-encoding ${entry.ce}`);
      if (isJson) spans = check.decodeJson(body.toString('utf8'));
      else if (entry.ct === 'application/x-protobuf') spans = check.decodeProtobuf(body);
      else throw new check.Bad(`content-type "${entry.ct}"`);
    } catch (e) {	// any failure to decode is the client's fault here
      log({ ...entry, status: 400, error: e.message });
      respond(res, 400, isJson, isJson ? Buffer.from(JSON.stringify({ code: 3,
        message: e.message })) : Buffer.alloc(0));
      return;
    }
    if (opt.record)
      fs.appendFileSync(opt.record, spans.map((s) => `${JSON.stringify(s)}\n`).join(''));
    if (opt.summary)
      fs.appendFileSync(opt.summary, spans.map((s) => `${check.summary(s)}\n`).join(''));
    log({ ...entry, status: 200, spans: spans.length, plain: body.length });
    const rj = opt.response ? opt.response === 'json' : isJson;
    respond(res, 200, rj, okBody(rj));
  });
});

server.keepAliveTimeout = 30000;
server.listen(opt.port, '127.0.0.1', () => {
  const port = server.address().port;
  if (opt.portFile) {
    fs.writeFileSync(`${opt.portFile}.tmp`, `${port}\n`);
    fs.renameSync(`${opt.portFile}.tmp`, opt.portFile);
  } else {
    process.stdout.write(`${port}\n`);
  }
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
setTimeout(() => process.exit(3), opt.lifetime * 1000).unref();
