// Open span2html pages in headless Chromium and report what happened, one
// JSON line per page on stdout: the page's data-* test hooks (viewer.js),
// console messages of level error or warning (Content-Security-Policy
// violations among them), uncaught exceptions, and every network request
// that is not the page's own file:// or data: URL (the page must make
// none; "blocked" has those the browser refused to make, with the reason,
// such as "csp").  Drives Chromium through the DevTools Protocol with Node's
// built-in WebSocket (node --experimental-websocket on Node 20), or where
// Node has none (Debian's Node 18) a minimal client below: no npm package
// needed.  Used by tests/cli/span2html.sh and scripts/span2html-shots.sh.
//
//   node --experimental-websocket cdp.js [options] URL
//   node --experimental-websocket cdp.js [--chromium PATH] --batch FILE
//     --chromium PATH     (default /usr/bin/chromium, or $CHROMIUM)
//     --size WxH          viewport (default 1400x900)
//     --screenshot FILE   PNG of the viewport once the page is ready
//     --full              ... of the whole page
//     --keys K1,K2,...    press keys (ArrowDown, Enter, ...) in the
//                         trace list once ready, then report again
//     --eval JS           then evaluate JS in the page (its value, or the
//                         exception it threw, goes into "eval")
//     --wait MS           then wait MS before the last report (default 0)
//     --timeout MS        give up on a page after MS (default 90000)
//
// --batch reads one page a line (options as above, then the URL) and
// opens them one after another in one browser: a page that times out is
// tried once more in a new browser.  The exit status is 1 when a page
// failed (its line then has "error").  The browser runs in a process group
// of its own with its profile in a directory under $TMPDIR; both are gone
// when cdp.js exits, also on SIGINT, SIGTERM or a failure.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

function parse(argv) {
	const o = { size: '1400x900', timeout: '90000', wait: '0' };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--full') o.full = true;
		else if (a.startsWith('--')) o[a.slice(2)] = argv[++i];
		else o.url = a;
	}
	return o;
}
// A batch line: words separated by blanks, '...' quoting a word with blanks.
function words(line) {
	const out = [];
	const re = /'([^']*)'|(\S+)/g;
	let m;
	while ((m = re.exec(line)) !== null)
		out.push(m[1] !== undefined ? m[1] : m[2]);
	return out;
}

const top = parse(process.argv.slice(2));
const chromiumPath = top.chromium || process.env.CHROMIUM || '/usr/bin/chromium';
let jobs;
if (top.batch) {
	jobs = fs.readFileSync(top.batch, 'utf8').split('\n').filter((l) => l.trim() && !/^\s*#/.test(l))
	    .map((l) => Object.assign({ size: top.size, timeout: top.timeout, wait: top.wait }, parse(words(l))));
} else {
	jobs = [top];
}
if (!jobs.length || jobs.some((j) => !j.url)) {
	console.error('usage: cdp.js [--screenshot FILE] [--size WxH] [--keys K,...] [--eval JS] URL\n' +
	    '       cdp.js --batch FILE');
	process.exit(2);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the browser ----------------------------------------------------------

let browser = null;	// { proc, dir, ws, send, on, err }

function killBrowser(b) {
	if (!b) return;
	try { b.ws && b.ws.close(); } catch (e) { /* closed */ }
	// the whole group: chromium's zygote and renderers with it
	try { process.kill(-b.proc.pid, 'SIGKILL'); } catch (e) { /* gone */ }
	try { b.proc.kill('SIGKILL'); } catch (e) { /* gone */ }
}
async function closeBrowser(b) {
	if (!b) return;
	if (b.send)	// politely first, without waiting for an answer long
		await Promise.race([b.send('Browser.close').catch(() => {}), sleep(1500)]);
	killBrowser(b);
	const t0 = Date.now();
	while (b.proc.exitCode === null && b.proc.signalCode === null && Date.now() - t0 < 5000)
		await sleep(25);
	rmDir(b.dir);
}
function rmDir(dir) {
	for (let i = 0; i < 20; i++) {
		try { fs.rmSync(dir, { recursive: true, force: true }); } catch (e) { /* busy */ }
		if (!fs.existsSync(dir)) return;
		// a renderer may still be writing: wait for it (synchronously, so
		// that this works from the 'exit' handler too)
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
	}
}
process.on('exit', () => { if (browser) { killBrowser(browser); rmDir(browser.dir); } });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
	process.on(sig, () => { console.error('cdp.js: ' + sig); process.exit(1); });

// Just enough of RFC 6455 for the DevTools socket: one connection to
// 127.0.0.1, masked text frames out, unfragmented text frames in.
class MiniWS {
	constructor(u) {
		const { hostname, port, pathname } = new URL(u);
		const key = require('crypto').randomBytes(16).toString('base64');
		this.sock = require('net').connect(Number(port), hostname);
		this.buf = Buffer.alloc(0);
		this.open = false;
		this.sock.on('connect', () => this.sock.write('GET ' + pathname + ' HTTP/1.1\r\nHost: ' + hostname + ':' + port +
		    '\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ' + key +
		    '\r\nSec-WebSocket-Version: 13\r\n\r\n'));
		this.sock.on('error', (e) => this.onerror && this.onerror(e));
		this.sock.on('close', () => this.onclose && this.onclose());
		this.sock.on('data', (d) => {
			this.buf = Buffer.concat([this.buf, d]);
			if (!this.open) {
				const end = this.buf.indexOf('\r\n\r\n');
				if (end < 0) return;
				this.buf = this.buf.subarray(end + 4);
				this.open = true;
				this.onopen && this.onopen();
			}
			for (;;) {
				if (this.buf.length < 2) return;
				let len = this.buf[1] & 127, at = 2;
				if (len === 126) { if (this.buf.length < 4) return; len = this.buf.readUInt16BE(2); at = 4; }
				else if (len === 127) { if (this.buf.length < 10) return; len = Number(this.buf.readBigUInt64BE(2)); at = 10; }
				if (this.buf.length < at + len) return;
				const op = this.buf[0] & 15, data = this.buf.subarray(at, at + len);
				this.buf = this.buf.subarray(at + len);
				if (op === 1 && this.onmessage) this.onmessage({ data: data.toString('utf8') });
			}
		});
	}
	send(text) {
		const data = Buffer.from(text, 'utf8'), n = data.length;
		const head = n < 126 ? Buffer.from([0x81, 0x80 | n]) : n < 65536 ?
		    Buffer.from([0x81, 0x80 | 126, n >> 8, n & 255]) : Buffer.concat([Buffer.from([0x81, 0x80 | 127]),
		    (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; })()]);
		const mask = require('crypto').randomBytes(4);
		for (let i = 0; i < n; i++) data[i] ^= mask[i & 3];
		this.sock.write(Buffer.concat([head, mask, data]));
	}
	close() { this.sock.destroy(); }
}

async function launch(W, H) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ssp-chromium.'));
	// chromium's own temporary files (org.chromium.Chromium.*) go there too
	fs.mkdirSync(path.join(dir, 'tmp'));
	const proc = spawn(chromiumPath, ['--headless=new', '--no-sandbox', '--disable-gpu',
		'--no-first-run', '--no-default-browser-check', '--hide-scrollbars', '--disable-extensions',
		'--disable-background-networking', '--disable-component-update', '--disable-sync',
		'--remote-debugging-port=0', '--user-data-dir=' + dir, '--window-size=' + W + ',' + H,
		'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true,
		env: Object.assign({}, process.env, { TMPDIR: path.join(dir, 'tmp') }) });
	const b = { proc, dir, err: '' };
	browser = b;
	proc.stderr.on('data', (d) => { b.err = (b.err + d).slice(-4000); });
	proc.on('error', (e) => { b.err += String(e); });
	const f = path.join(dir, 'DevToolsActivePort');
	let lines = null;
	for (let i = 0; i < 1200 && !lines; i++) {	// up to 30 s on a loaded machine
		if (fs.existsSync(f)) {
			const l = fs.readFileSync(f, 'utf8').split('\n');
			if (l[0] && l[1]) lines = l;
		}
		if (proc.exitCode !== null) throw new Error('chromium exited: ' + proc.exitCode + ' ' + lastLines(b.err));
		if (!lines) await sleep(25);
	}
	if (!lines) throw new Error('chromium did not open its DevTools port ' + lastLines(b.err));
	const u = 'ws://127.0.0.1:' + lines[0] + lines[1];
	const ws = typeof WebSocket === 'function' && !process.env.CDP_MINIWS ? new WebSocket(u) : new MiniWS(u);
	b.ws = ws;
	await new Promise((res, rej) => { ws.onopen = res; ws.onerror = () => rej(new Error('websocket to chromium')); });
	let id = 0;
	const pending = new Map(), handlers = new Map();
	ws.onmessage = (m) => {
		let msg;
		try { msg = JSON.parse(m.data); } catch (e) { return; }
		if (msg.id && pending.has(msg.id)) {
			const { res, rej } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) rej(new Error(msg.error.message)); else res(msg.result);
			return;
		}
		const h = handlers.get(msg.sessionId || '');
		if (h) h(msg.method, msg.params || {});
	};
	ws.onclose = () => { for (const { rej } of pending.values()) rej(new Error('chromium closed the socket')); pending.clear(); };
	b.send = (method, params, sessionId) => new Promise((res, rej) => {
		pending.set(++id, { res, rej });
		const msg = { id, method, params: params || {} };
		if (sessionId) msg.sessionId = sessionId;
		try { ws.send(JSON.stringify(msg)); } catch (e) { pending.delete(id); rej(e); }
	});
	b.on = (sessionId, h) => { if (h) handlers.set(sessionId, h); else handlers.delete(sessionId); };
	return b;
}
function lastLines(s) { return s.split('\n').filter((l) => l && !/dbus|Fontconfig/i.test(l)).slice(-5).join(' | '); }

// --- one page ---------------------------------------------------------------

async function runJob(b, job, status) {
	const [W, H] = job.size.split('x').map(Number);
	const out = { url: job.url, console: [], exceptions: [], requests: [], failed: [], blocked: [] };
	const sent = new Map();	// requestId: URL, until blocked or reported
	status.stage = 'opening a tab';
	const { targetId } = await b.send('Target.createTarget', { url: 'about:blank' });
	status.target = targetId;
	const { sessionId } = await b.send('Target.attachToTarget', { targetId, flatten: true });
	const send = (method, params) => { status.stage = 'waiting for ' + method; return b.send(method, params, sessionId); };
	b.on(sessionId, (method, p) => {
		switch (method) {
		case 'Runtime.consoleAPICalled':
			if (p.type === 'error' || p.type === 'warning' || p.type === 'assert')
				out.console.push(p.type + ': ' + p.args.map((a) => a.value !== undefined ? a.value : a.description).join(' '));
			break;
		case 'Runtime.exceptionThrown':
			out.exceptions.push(p.exceptionDetails.exception ? p.exceptionDetails.exception.description : p.exceptionDetails.text);
			break;
		case 'Log.entryAdded':
			if (p.entry.level === 'error' || p.entry.level === 'warning')
				out.console.push('log ' + p.entry.level + ': ' + p.entry.text + (p.entry.url ? ' ' + p.entry.url : ''));
			break;
		case 'Network.requestWillBeSent':
			if (!/^(file|data|about):/.test(p.request.url))
				sent.set(p.requestId, p.request.url);
			break;
		case 'Network.loadingFailed':
			// blocked (by the Content-Security-Policy): it never left
			if (p.blockedReason && sent.has(p.requestId)) {
				out.blocked.push(sent.get(p.requestId) + ' (' + p.blockedReason + ')');
				sent.delete(p.requestId);
			} else {
				out.failed.push(p.errorText + (p.blockedReason ? ' (' + p.blockedReason + ')' : ''));
			}
			break;
		}
	});
	const evaluate = async (expr) => {
		const r = await send('Runtime.evaluate', { expression: expr, returnByValue: true });
		if (r.exceptionDetails)
			return { exception: r.exceptionDetails.exception ? r.exceptionDetails.exception.description : r.exceptionDetails.text };
		return r.result.value;
	};
	await send('Runtime.enable');
	await send('Log.enable');
	await send('Network.enable');
	await send('Page.enable');
	await send('Emulation.setDeviceMetricsOverride', { width: W, height: H, deviceScaleFactor: 1, mobile: false });
	const t0 = Date.now();
	await send('Page.navigate', { url: job.url });
	let ds;
	status.stage = 'waiting for the page to be ready';
	for (;;) {
		// an evaluation sent while the page navigates may never be
		// answered: ask again after a while
		ds = await Promise.race([evaluate('document.body ? Object.assign({}, document.body.dataset) : {}'),
		    sleep(1000).then(() => ({}))]).catch(() => ({}));
		if (ds && ds.state && ds.state !== 'loading') break;
		await sleep(25);
	}
	out.wall_ms = Date.now() - t0;
	out.data = ds;
	out.text = await evaluate('document.body.innerText');
	if (job.keys) {
		for (const k of job.keys.split(',')) {
			const code = { Enter: 13, ArrowDown: 40, ArrowUp: 38, Home: 36, End: 35, PageDown: 34, PageUp: 33 }[k] || 0;
			for (const type of ['rawKeyDown', 'keyUp'])
				await send('Input.dispatchKeyEvent', { type, key: k, code: k, windowsVirtualKeyCode: code });
		}
		await sleep(100);
		out.after_keys = await evaluate('Object.assign({}, document.body.dataset)');
	}
	if (job.screenshot) {
		await sleep(200);
		const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: !!job.full });
		fs.writeFileSync(job.screenshot, Buffer.from(shot.data, 'base64'));
	}
	if (job.eval !== undefined)
		out.eval = await Promise.race([evaluate(job.eval), sleep(10000).then(() => ({ exception: 'no answer' }))])
		    .catch((e) => ({ exception: String(e.message || e) }));
	if (Number(job.wait) > 0) {
		await sleep(Number(job.wait));
		out.after_wait = await Promise.race([evaluate('document.body ? Object.assign({}, document.body.dataset) : {}'),
		    sleep(2000).then(() => null)]).catch(() => null);
	}
	b.on(sessionId, null);
	out.requests = [...sent.values()];
	status.stage = 'closing the tab';
	await Promise.race([b.send('Target.closeTarget', { targetId }).catch(() => {}), sleep(3000)]);
	status.target = null;
	return out;
}

async function withTimeout(p, ms, status) {
	let timer;
	const t = new Promise((res, rej) => { timer = setTimeout(() => rej(new Error('timed out after ' + ms + ' ms while ' + status.stage)), ms); });
	try { return await Promise.race([p, t]); } finally { clearTimeout(timer); }
}

async function main() {
	let failed = 0;
	const [W0, H0] = jobs[0].size.split('x').map(Number);
	for (const job of jobs) {
		let result = null, lastErr = null;
		for (let attempt = 1; attempt <= 2 && !result; attempt++) {
			const status = { stage: 'starting chromium' };
			try {
				if (!browser)
					await withTimeout(launch(W0, H0), 60000, status);
				result = await withTimeout(runJob(browser, job, status), Number(job.timeout), status);
			} catch (e) {
				lastErr = e.message + (browser ? ' ' + lastLines(browser.err) : '');
				console.error('cdp.js: ' + job.url + ' (try ' + attempt + '): ' + lastErr);
				// a browser that hangs is not asked again
				const b = browser;
				browser = null;
				await closeBrowser(b);
			}
		}
		if (!result) {
			failed++;
			result = { url: job.url, error: lastErr };
		}
		process.stdout.write(JSON.stringify(result) + '\n');
	}
	const b = browser;
	browser = null;
	await closeBrowser(b);
	process.exitCode = failed ? 1 : 0;
}
main().catch((e) => { console.error('cdp.js: ' + (e.stack || e)); process.exit(1); });
