// Open a span2html page in headless Chromium and report what happened, as
// JSON on stdout: the page's data-* test hooks (viewer.js), console
// messages of level error or warning, uncaught exceptions, and every
// network request that is not the page's own file:// or data: URL (the
// page must make none).  Drives Chromium through the DevTools Protocol
// with Node's built-in WebSocket (node --experimental-websocket on Node
// 20), or where Node has none (Debian's Node 18) a minimal client below:
// no npm package needed.  Used by tests/cli/span2html.sh and for the
// README's screenshots.
//
//   node --experimental-websocket cdp.js [options] URL
//     --chromium PATH     (default /usr/bin/chromium, or $CHROMIUM)
//     --size WxH          viewport (default 1400x900)
//     --screenshot FILE   PNG of the viewport once the page is ready
//     --full              ... of the whole page
//     --keys K1,K2,...    press keys (ArrowDown, Enter, ...) in the
//                         trace list once ready, then report again
//     --timeout MS        give up (exit 1) after MS (default 30000)
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const args = process.argv.slice(2);
const opt = { chromium: process.env.CHROMIUM || '/usr/bin/chromium', size: '1400x900', timeout: 30000 };
let url = null;
for (let i = 0; i < args.length; i++) {
	const a = args[i];
	if (a === '--full') opt.full = true;
	else if (a.startsWith('--')) opt[a.slice(2)] = args[++i];
	else url = a;
}
if (!url) {
	console.error('usage: cdp.js [--screenshot FILE] [--size WxH] [--keys K,...] URL');
	process.exit(2);
}
const [W, H] = opt.size.split('x').map(Number);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ssp-chromium.'));
const chrome = spawn(opt.chromium, ['--headless=new', '--no-sandbox', '--disable-gpu',
	'--no-first-run', '--no-default-browser-check', '--hide-scrollbars',
	'--remote-debugging-port=0', '--user-data-dir=' + dir, '--window-size=' + W + ',' + H,
	'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
let chromeErr = '';
chrome.stderr.on('data', (d) => { chromeErr += d; });

function cleanup() {
	try { chrome.kill('SIGKILL'); } catch (e) { /* gone */ }
	try { fs.rmSync(dir, { recursive: true, force: true }); } catch (e) { /* busy */ }
}
function fail(msg) {
	console.error('cdp.js: ' + msg);
	if (chromeErr) console.error(chromeErr.split('\n').slice(-10).join('\n'));
	cleanup();
	process.exit(1);
}
let stage = 'starting chromium';
const timer = setTimeout(() => fail('timed out after ' + opt.timeout + ' ms while ' + stage), Number(opt.timeout));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

async function devtoolsPort() {
	const f = path.join(dir, 'DevToolsActivePort');
	for (let i = 0; i < 400; i++) {
		if (fs.existsSync(f)) {
			const p = fs.readFileSync(f, 'utf8').split('\n')[0];
			if (p) return p;
		}
		if (chrome.exitCode !== null) fail('chromium exited: ' + chrome.exitCode);
		await sleep(25);
	}
	fail('chromium did not open its DevTools port');
}

async function main() {
	const port = await devtoolsPort();
	stage = 'connecting';
	const targets = await (await fetch('http://127.0.0.1:' + port + '/json/list')).json();
	const page = targets.find((t) => t.type === 'page');
	if (!page) fail('no page target');
	const ws = typeof WebSocket === 'function' && !process.env.CDP_MINIWS ?
	    new WebSocket(page.webSocketDebuggerUrl) : new MiniWS(page.webSocketDebuggerUrl);
	await new Promise((res, rej) => { ws.onopen = res; ws.onerror = () => rej(new Error('websocket')); });
	let id = 0;
	const pending = new Map();
	const out = { console: [], exceptions: [], requests: [], failed: [] };
	ws.onmessage = (m) => {
		const msg = JSON.parse(m.data);
		if (msg.id && pending.has(msg.id)) {
			const { res, rej } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) rej(new Error(msg.error.message)); else res(msg.result);
			return;
		}
		const p = msg.params || {};
		switch (msg.method) {
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
				out.requests.push(p.request.url);
			break;
		case 'Network.loadingFailed':
			out.failed.push(p.errorText + (p.blockedReason ? ' (' + p.blockedReason + ')' : ''));
			break;
		}
	};
	const send = (method, params) => new Promise((res, rej) => {
		stage = 'waiting for ' + method;
		pending.set(++id, { res, rej });
		ws.send(JSON.stringify({ id, method, params: params || {} }));
	});
	const evaluate = async (expr) => (await send('Runtime.evaluate', { expression: expr, returnByValue: true })).result.value;
	await send('Runtime.enable');
	await send('Log.enable');
	await send('Network.enable');
	await send('Page.enable');
	await send('Emulation.setDeviceMetricsOverride', { width: W, height: H, deviceScaleFactor: 1, mobile: false });
	const t0 = Date.now();
	await send('Page.navigate', { url });
	let ds;
	for (;;) {
		// an evaluation sent while the page navigates may never be
		// answered: ask again after a while
		ds = await Promise.race([evaluate('document.body ? Object.assign({}, document.body.dataset) : {}'),
		    sleep(1000).then(() => ({}))]).catch(() => ({}));
		if (ds && ds.state && ds.state !== 'loading') break;
		await sleep(20);
	}
	out.wall_ms = Date.now() - t0;
	out.data = ds;
	out.text = await evaluate('document.body.innerText');
	if (opt.keys) {
		for (const k of opt.keys.split(',')) {
			const code = { Enter: 13, ArrowDown: 40, ArrowUp: 38, Home: 36, End: 35 }[k] || 0;
			for (const type of ['rawKeyDown', 'keyUp'])
				await send('Input.dispatchKeyEvent', { type, key: k, code: k, windowsVirtualKeyCode: code });
		}
		await sleep(100);
		out.after_keys = await evaluate('Object.assign({}, document.body.dataset)');
	}
	if (opt.screenshot) {
		await sleep(200);
		const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: !!opt.full });
		fs.writeFileSync(opt.screenshot, Buffer.from(shot.data, 'base64'));
	}
	await send('Browser.close').catch(() => {});
	ws.close();
	clearTimeout(timer);
	process.stdout.write(JSON.stringify(out) + '\n');
	cleanup();
}
main().catch((e) => fail(e.stack || String(e)));
