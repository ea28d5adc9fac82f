/*
 * simspan trace viewer (span2html).  The data (formats/html.md) is the
 * gzip-compressed, base64-encoded JSON in <script id="ssp-data">, decoded
 * with DecompressionStream.  Plain DOM, SVG and canvas; no libraries.
 *
 * The page lists the traces span2html chose (all, or the slowest and a
 * sample); the latency view covers every trace of the run, from the
 * page's histograms when not all are listed (formats/html.md §2.5).
 *
 * Test hook: the results of rendering are written to <body data-*>:
 * data-state (loading, ready, error), data-traces (traces listed),
 * data-spans (spans of the traces listed), data-tti (ms from navigation
 * start to interactive), data-errors (errors seen), data-notice (the URL
 * hash parts ignored, and why), and for the selected trace
 * data-sel-trace, data-sel-spans (waterfall rows), data-sel-split
 * (stream:busy_ps,...;idle:ps), data-sel-share-sum (the streams' shares
 * summed, %); once the latency view was shown data-latency (group:
 * traces,min,p50,p90,p99,max in ps;...) and data-latency-exact (1: from
 * every trace, 0: from the histograms).  URL hash: #select=slowest|ID
 * selects a trace, #span=K its K-th span, #view=timeline or
 * #view=latency opens that view, #by=kind|host and #net=1 choose the
 * latency groups, #tl=A,B shows µs A to B of the run in the timeline,
 * #scroll=ID scrolls to an element (screenshots), #maxrows=N caps the
 * waterfall (tests).  A part that does not parse or names nothing is
 * ignored, with one line in the page that says so.
 *
 * Written for the page's Content-Security-Policy: no inline style
 * attributes (styles go through the CSSOM), no HTML strings (Trusted
 * Types allow none).
 */
'use strict';
(function () {
	const errors = [];
	const body = document.body;
	const noteError = (m) => {
		errors.push(String(m));
		body.dataset.errors = errors.join(' | ');
	};
	window.addEventListener('error', (e) => noteError(e.message));
	window.addEventListener('unhandledrejection', (e) => noteError('unhandled: ' + e.reason));
	document.addEventListener('securitypolicyviolation', (e) => noteError('blocked: ' + e.blockedURI));
	const consoleError = console.error;
	console.error = function (...a) {
		noteError(a.join(' '));
		consoleError.apply(console, a);
	};
	body.dataset.state = 'loading';
	body.dataset.errors = '';

	// Okabe-Ito, without black (text) and yellow last (weak on white).
	const PAL = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];
	// Root kinds in the latency view: the rest of the palette first, so
	// they do not look like the streams.
	const KPAL = ['#000000', '#D55E00', '#CC79A7', '#009E73', '#0072B2', '#E69F00'];
	const FLAG = { ORPHAN: 1, OPEN: 2, BACKGROUND: 4, INCOMPLETE: 8 };
	const $ = (id) => document.getElementById(id);
	const SVGNS = 'http://www.w3.org/2000/svg';

	function el(tag, attrs, text) {
		const e = document.createElement(tag);
		for (const k in attrs || {})
			if (k === 'bg')	// CSSOM: the policy forbids style attributes
				e.style.background = attrs[k];
			else
				e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}
	function sv(tag, attrs, text) {
		const e = document.createElementNS(SVGNS, tag);
		for (const k in attrs || {})
			e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}
	// Simulated time: ps in, the unit that suits it out.
	function fmt(ps) {
		const a = Math.abs(ps);
		if (a < 1e3) return ps + ' ps';
		if (a < 1e6) return (ps / 1e3).toFixed(a < 1e4 ? 2 : 1) + ' ns';
		if (a < 1e9) return (ps / 1e6).toFixed(a < 1e7 ? 3 : 2) + ' µs';
		if (a < 1e12) return (ps / 1e9).toFixed(3) + ' ms';
		return (ps / 1e12).toFixed(3) + ' s';
	}
	// A "nice" tick step for a range of ps over n ticks.
	function step(range, n) {
		const raw = range / Math.max(1, n);
		const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
		for (const m of [1, 2, 5, 10])
			if (m * p >= raw)
				return m * p;
		return 10 * p;
	}
	function pct(x) { return (100 * x).toFixed(1) + ' %'; }
	function flagTags(f, cause) {
		const t = [];
		if (f & FLAG.OPEN) t.push(['open', 'open']);
		if (f & FLAG.ORPHAN) t.push(['orphan' + (cause ? ' (' + cause + ')' : ''), '']);
		if (f & FLAG.INCOMPLETE) t.push(['incomplete', '']);
		if (f & FLAG.BACKGROUND) t.push(['background', 'open']);
		return t;
	}

	async function decode() {
		const text = $('ssp-data').textContent.trim();
		let u;
		if (typeof Uint8Array.fromBase64 === 'function') {
			u = Uint8Array.fromBase64(text);
		} else {
			const bin = atob(text), n = bin.length;
			u = new Uint8Array(n);
			for (let i = 0; i < n; i++)
				u[i] = bin.charCodeAt(i);
		}
		const ds = new Blob([u]).stream().pipeThrough(new DecompressionStream('gzip'));
		return JSON.parse(await new Response(ds).text());
	}

	let D, T, nT, streamColor, order = [], sel = -1, cursor = 0, sortKey = 'start', sortDir = 1;
	let selSpan = -1;

	function setupData() {
		T = D.traces;
		nT = T.id.length;
		T.nstreams = T.streams.map((s) => s.length / 3);
		streamColor = D.streams.map((s, i) => PAL[i % PAL.length]);
		T.kindName = T.root_kind.map((k) => k >= 0 ? D.kinds[k] : '(no root)');
		T.hostName = T.root_stream.map((s) => s >= 0 ? D.streams[s].name : '');
		// crosses the network: a span on a network simulator's stream
		T.net = T.streams.map((s) => s.some((x, j) => j % 3 === 0 && D.streams[x].kind === 'net'));
		T.search = null;	// built on the first filter
		$('list').style.setProperty('--idx-digits', String(Math.max(2, String(nT).length)));
	}
	function searchText() {
		if (T.search) return T.search;
		T.search = new Array(nT);
		for (let i = 0; i < nT; i++)
			T.search[i] = (T.kindName[i] + ' ' + T.hostName[i] + ' ' + T.id[i] + ' ' +
			    T.streams[i].filter((x, j) => j % 3 === 0).map((s) => D.streams[s].name).join(' ')).toLowerCase();
		return T.search;
	}

	function header() {
		const c = D.counts;
		$('summary').textContent = c.spans + ' spans in ' + c.traces + ' traces over ' +
		    D.streams.length + ' simulator instances, ' + fmt(D.end - D.start) + ' of simulated time; ' +
		    c.links + ' links, ' + c.events + ' member events' +
		    (c.orphans ? ', ' + c.orphans + ' orphan spans' : '') +
		    (c.open ? ', ' + c.open + ' open spans' : '') +
		    (c.background ? ', ' + c.background + ' background' : '') + '.';
		const notes = [];
		if (c.listed_traces < c.traces)
			notes.push('The page lists ' + c.listed_traces + ' of the ' + c.traces + ' traces (' +
			    D.selection.replace(/^slowest:(\d+),sample:(\d+)$/, 'the $1 slowest and $2 others spread over the run') +
			    '), with span detail for ' + c.detail_traces + ' of them (' + c.detail_spans + ' of ' + c.spans +
			    ' spans' + (D.max_spans ? ', at most ' + D.max_spans : '') + '). The latency view covers all ' +
			    c.traces + ' traces; the timeline shows all spans as density.');
		else if (c.detail_traces < c.traces)
			notes.push('Span detail for ' + c.detail_traces + ' of ' + c.traces + ' traces (' +
			    c.detail_spans + ' of ' + c.spans + ' spans: ' + D.selection +
			    (D.max_spans ? ', at most ' + D.max_spans + ' spans' : '') +
			    '); the other traces show their latency and split only, and the timeline shows them as density.');
		if (c.omitted_events)
			notes.push(c.omitted_events + ' member events left out.');
		if (c.unknown)
			notes.push(c.unknown + ' records of unknown types skipped.');
		if (c.unattached)
			notes.push(c.unattached + ' links or events not right after their span, left out.');
		$('note').textContent = notes.join(' ');
		const lg = $('legend');
		D.streams.forEach((s, i) => {
			const d = el('span');
			d.appendChild(el('span', { class: 'sw', bg: streamColor[i] }));
			d.appendChild(document.createTextNode(s.name + ' (' + s.sim + ')'));
			lg.appendChild(d);
		});
		const d = el('span');
		d.appendChild(el('span', { class: 'sw idle' }));
		d.appendChild(document.createTextNode('idle: in flight, no span open'));
		lg.appendChild(d);
	}

	// --- trace list -------------------------------------------------------
	const COLS = [
		['#', 'idx', 'num'], ['root kind', 'kind', ''], ['host', 'host', ''],
		['start', 'start', 'num'], ['latency', 'dur', 'num'], ['spans', 'spans', 'num'],
		['sims', 'sims', 'num'], ['trace id', 'id', 'mono'],
	];
	const ROW = 20;
	function keyOf(k, i) {
		switch (k) {
		case 'idx': case 'start': return T.start[i];
		case 'kind': return T.kindName[i];
		case 'host': return T.hostName[i];
		case 'dur': return T.dur[i];
		case 'spans': return T.spans[i];
		case 'sims': return T.nstreams[i];
		default: return T.id[i];
		}
	}
	function buildOrder() {
		const q = $('filter').value.trim().toLowerCase().split(/\s+/).filter((w) => w);
		order = [];
		if (q.length) {
			const st = searchText();
			for (let i = 0; i < nT; i++)
				if (q.every((w) => st[i].includes(w)))
					order.push(i);
		} else {
			for (let i = 0; i < nT; i++)
				order.push(i);
		}
		const k = sortKey, d = sortDir;
		order.sort((a, b) => {
			const x = keyOf(k, a), y = keyOf(k, b);
			return (x < y ? -d : x > y ? d : a - b);
		});
		$('count').textContent = order.length + ' of ' + nT + ' traces' +
		    (nT < D.counts.traces ? ' listed (' + D.counts.traces + ' in the run)' : '');
		$('list-rows').style.height = order.length * ROW + 'px';
		cursor = Math.max(0, Math.min(cursor, order.length - 1));
		renderRows();
	}
	function listHead() {
		const h = $('list-head');
		h.textContent = '';
		for (const [name, k, cls] of COLS) {
			const d = el('div', { class: cls === 'num' ? 'num' : '' },
			    name + (sortKey === k ? (sortDir > 0 ? ' ▲' : ' ▼') : ''));
			d.onclick = () => {
				if (sortKey === k) sortDir = -sortDir;
				else { sortKey = k; sortDir = k === 'dur' || k === 'spans' || k === 'sims' ? -1 : 1; }
				listHead();
				buildOrder();
			};
			h.appendChild(d);
		}
	}
	function renderRows() {
		const bodyEl = $('list-body'), rows = $('list-rows');
		const top = bodyEl.scrollTop, h = bodyEl.clientHeight || 220;
		const a = Math.max(0, Math.floor(top / ROW) - 5);
		const b = Math.min(order.length, Math.ceil((top + h) / ROW) + 5);
		rows.textContent = '';
		for (let r = a; r < b; r++) {
			const i = order[r];
			const row = el('div', { class: 'row' + (i === sel ? ' sel' : '') + (r === cursor ? ' cur' : ''), role: 'row' });
			row.style.top = r * ROW + 'px';
			if (r === cursor && i !== sel)
				row.style.background = '#eef3f8';
			const tags = flagTags(T.flags[i]);
			const cells = [String(r + 1), T.kindName[i], T.hostName[i], fmt(T.start[i] - D.start),
			    fmt(T.dur[i]), String(T.spans[i]), String(T.nstreams[i]), T.id[i]];
			cells.forEach((c, j) => {
				const d = el('div', { class: COLS[j][2] }, c);
				if (j === 1)
					for (const [t, cls] of tags)
						d.appendChild(el('span', { class: 'tag ' + cls }, t));
				row.appendChild(d);
			});
			row.onclick = () => { cursor = r; select(i); };
			rows.appendChild(row);
		}
	}
	function scrollToCursor() {
		const b = $('list-body');
		if (cursor * ROW < b.scrollTop)
			b.scrollTop = cursor * ROW;
		else if ((cursor + 1) * ROW > b.scrollTop + b.clientHeight)
			b.scrollTop = (cursor + 1) * ROW - b.clientHeight;
		renderRows();
	}
	function listKeys(e) {
		const n = order.length;
		if (!n) return;
		const page = Math.max(1, Math.floor($('list-body').clientHeight / ROW) - 1);
		const mv = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -n, End: n }[e.key];
		if (mv !== undefined) {
			cursor = Math.max(0, Math.min(n - 1, cursor + mv));
			scrollToCursor();
			e.preventDefault();
		} else if (e.key === 'Enter') {
			select(order[cursor]);
			e.preventDefault();
		}
	}

	// --- selected trace: split, waterfall, detail ------------------------
	function select(i) {
		sel = i;
		selSpan = -1;
		renderRows();
		renderTrace();
	}
	function splitOf(i) {
		const s = T.streams[i], out = [];
		for (let k = 0; k < s.length; k += 3)
			out.push({ stream: s[k], spans: s[k + 1], busy: s[k + 2] });
		out.sort((a, b) => b.busy - a.busy || a.stream - b.stream);
		return out;
	}
	function renderSplit(i) {
		const sp = $('split'), dur = T.dur[i], idle = dur - T.busy[i];
		sp.textContent = '';
		for (const h of ['simulator instance', 'spans', 'busy (some span of it open) / idle (none open anywhere)', 'time', 'share'])
			sp.appendChild(el('div', { class: 'h' + (h === 'time' || h === 'share' || h === 'spans' ? ' num' : '') }, h));
		const rows = splitOf(i).map((r) => [D.streams[r.stream].name + ' (' + D.streams[r.stream].sim + ')',
		    r.spans, r.busy, streamColor[r.stream]]);
		rows.push(['idle (in flight)', '', idle, null]);
		for (const [name, n, ps, col] of rows) {
			sp.appendChild(el('div', {}, name));
			sp.appendChild(el('div', { class: 'num' }, String(n)));
			const bar = el('div', { class: 'bar' }), fill = el('i');
			fill.style.width = (dur > 0 ? 100 * ps / dur : 0) + '%';
			fill.style.background = col || 'repeating-linear-gradient(45deg, #bbb 0 3px, #fff 3px 6px)';
			bar.appendChild(fill);
			sp.appendChild(bar);
			sp.appendChild(el('div', { class: 'num' }, fmt(ps)));
			sp.appendChild(el('div', { class: 'num' }, dur > 0 ? pct(ps / dur) : ''));
		}
		// the simulators run at once, so their shares overlap: say so
		// where the numbers are
		const sum = dur > 0 ? splitOf(i).reduce((a, r) => a + r.busy, 0) / dur : 0;
		body.dataset.selShareSum = (100 * sum).toFixed(1);
		if (sum > 1.0005) {
			const note = el('div', { class: 'sum' });
			note.appendChild(el('b', {}, 'The shares add up to ' + pct(sum) + ', not 100 %: '));
			note.appendChild(document.createTextNode('the simulators run at the same time, so a moment ' +
			    'when spans of several are open (a host syscall waiting while the NIC DMAs and the network ' +
			    'queues) counts on each of them. Idle is the time when none of them had a span of this ' +
			    'trace open; busy time of the whole trace is ' + pct(T.busy[i] / dur) + ' and idle ' +
			    pct(idle / dur) + ', together 100 %.'));
			sp.appendChild(note);
		}
		body.dataset.selSplit = splitOf(i).map((r) => D.streams[r.stream].name + ':' + r.busy).sort().join(',') +
		    ';idle:' + idle;
	}
	function renderTrace() {
		const i = sel;
		const head = $('trace-head');
		head.textContent = 'Trace ' + T.id[i];
		head.appendChild(el('span', { class: 'sub' }, T.kindName[i] + ' on ' + T.hostName[i] + ', ' +
		    fmt(T.dur[i]) + ' end to end, ' + T.spans[i] + ' spans on ' + T.nstreams[i] +
		    ' simulator instances, starts ' + fmt(T.start[i] - D.start) + ' into the run'));
		body.dataset.selTrace = T.id[i];
		renderSplit(i);
		$('detail').textContent = '';
		const wf = $('waterfall');
		wf.textContent = '';
		if (T.detail[i] < 0) {
			wf.appendChild(el('p', { class: 'hint' }, 'Span detail of this trace was left out of the page (' +
			    D.selection + '); run span2html --traces all, or filter the stream, to see it.'));
			body.dataset.selSpans = '0';
			return;
		}
		waterfall(i, D.details[T.detail[i]]);
	}

	function waterfall(ti, det) {
		const S = det.spans, n = S.length;
		const t0 = T.start[ti], dur = Math.max(1, T.dur[ti]);
		const wf = $('waterfall');
		const W = Math.max(700, wf.clientWidth || 1200), LW = 260, RW = W - LW - 20;
		const RH = 16, GH = 20, AX = 26;
		// rows: grouped by stream (in stream order of first appearance by start)
		const idx = [...Array(n).keys()].sort((a, b) => S[a][5] - S[b][5] || a - b);
		const depth = new Array(n).fill(0);
		for (let k = 0; k < n; k++)	// parents come first in the stream
			if (S[k][1] >= 0 && S[k][1] < k) depth[k] = depth[S[k][1]] + 1;
		// a huge trace: the first MAXROWS spans by start get rows
		const MAXROWS = Number(ARGS.maxrows) || 3000;	// #maxrows=N: tests
		const drawn = new Uint8Array(n);
		idx.slice(0, MAXROWS).forEach((k) => { drawn[k] = 1; });
		const groups = new Map();
		for (const k of idx.slice(0, MAXROWS)) {
			const s = S[k][3];
			if (!groups.has(s)) groups.set(s, []);
			groups.get(s).push(k);
		}
		const rowY = new Array(n);
		let y = AX;
		const layout = [];
		for (const [s, ks] of groups) {
			layout.push({ grp: s, y });
			y += GH;
			for (const k of ks) {
				rowY[k] = y;
				layout.push({ span: k, y });
				y += RH;
			}
		}
		const H = y + 6;
		const X = (ps) => LW + (ps - t0) / dur * RW;
		const svg = sv('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img',
		    'aria-label': 'waterfall of trace ' + T.id[ti] });
		const defs = sv('defs');
		const pat = sv('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse',
		    patternTransform: 'rotate(45)' });
		pat.appendChild(sv('rect', { width: 3, height: 6, fill: '#d0d0d0' }));
		const mk = sv('marker', { id: 'arr', viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 7,
		    markerHeight: 7, orient: 'auto' });
		mk.appendChild(sv('path', { d: 'M0,0 L8,4 L0,8 z', fill: '#333' }));
		defs.appendChild(pat);
		defs.appendChild(mk);
		svg.appendChild(defs);
		// idle gaps: no span of the trace open
		const iv = idx.map((k) => [S[k][5], S[k][5] + S[k][6]]);
		let reach = t0;
		const gaps = [];
		for (const [b, e] of iv) {
			if (b > reach) gaps.push([reach, b]);
			if (e > reach) reach = e;
		}
		for (const [b, e] of gaps)
			svg.appendChild(sv('rect', { x: X(b), y: AX, width: Math.max(1, X(e) - X(b)), height: H - AX,
			    fill: 'url(#hatch)', opacity: 0.8 }, undefined)).appendChild(sv('title', {}, 'idle ' + fmt(e - b) +
			    ': no span open, the request is in flight between simulators'));
		// axis
		const st = step(dur, 8);
		for (let v = 0; v <= dur; v += st) {
			const x = X(t0 + v);
			svg.appendChild(sv('line', { x1: x, x2: x, y1: AX - 4, y2: H, stroke: '#eee' }));
			svg.appendChild(sv('text', { x: x, y: AX - 8, 'text-anchor': 'middle', fill: '#666' }, fmt(v)));
		}
		// rows
		for (const r of layout) {
			if (r.grp !== undefined) {
				const s = D.streams[r.grp];
				svg.appendChild(sv('rect', { x: 0, y: r.y, width: W, height: GH - 2, fill: '#f4f4f4' }));
				svg.appendChild(sv('rect', { x: 2, y: r.y + 4, width: 10, height: 10, fill: streamColor[r.grp] }));
				svg.appendChild(sv('text', { x: 18, y: r.y + 13, class: 'grp' }, s.name + ' (' + s.sim + ', ' + s.kind + ')'));
				continue;
			}
			const k = r.span, sp = S[k];
			const kind = D.kinds[sp[2]] || '?';
			const a = sp[9] || {};
			const extra = a.call || a.entry || (a.devtype ? 'node ' + a.node + ' dev ' + a.dev : '') ||
			    (a.len !== undefined ? a.len + ' B' : a.size !== undefined ? a.size + ' B' : '');
			const tags = flagTags(sp[7], sp[8]).map((t) => t[0]).join(' ');
			const lbl = sv('text', { x: 8 + Math.min(depth[k], 12) * 8, y: r.y + 12, class: 'lbl' },
			    kind + (extra ? ' ' + extra : '') + (tags ? ' [' + tags + ']' : ''));
			lbl.onclick = () => showSpan(ti, det, k);
			svg.appendChild(lbl);
			const x0 = X(sp[5]), w = Math.max(1.5, X(sp[5] + sp[6]) - x0);
			const rect = sv('rect', { x: x0, y: r.y + 2, width: w, height: RH - 4, fill: streamColor[sp[3]],
			    class: 'span' + (k === selSpan ? ' sel' : ''), 'data-k': k });
			if (sp[7] & FLAG.OPEN) {
				rect.setAttribute('stroke', '#000');
				rect.setAttribute('stroke-dasharray', '3 2');
			}
			rect.appendChild(sv('title', {}, kind + ' on ' + D.streams[sp[3]].name + ': ' + fmt(sp[6]) +
			    ' from ' + fmt(sp[5] - t0) + (tags ? ' (' + tags + ')' : '')));
			rect.onclick = () => showSpan(ti, det, k);
			svg.appendChild(rect);
			if (x0 + w + 4 < W - 60)
				svg.appendChild(sv('text', { x: x0 + w + 3, y: r.y + 12, fill: '#555' }, fmt(sp[6])));
		}
		// parent edges that cross simulators; links (dashed)
		const byId = new Map(S.map((o, k) => [o[0], k]));
		for (let k = 0; k < n; k++) {
			if (!drawn[k]) continue;
			const p = S[k][1];
			if (p >= 0 && drawn[p] && S[p][3] !== S[k][3]) {
				const x = X(S[k][5]);
				svg.appendChild(sv('path', { d: 'M' + Math.max(X(S[p][5]), Math.min(X(S[p][5] + S[p][6]), x)) + ',' +
				    (rowY[p] + RH / 2) + ' L' + x + ',' + (rowY[k] + 2), stroke: '#333', 'stroke-width': 1,
				    fill: 'none', 'marker-end': 'url(#arr)' }));
			}
			for (const l of S[k][10]) {
				const q = l[0] === T.id[ti] && byId.has(l[1]) ? byId.get(l[1]) : -1;
				if (q < 0) {	// a cause in another trace: a dashed stub
					const x = X(S[k][5]), yy = rowY[k] + RH / 2;
					const stub = sv('path', { d: 'M' + (x - 24) + ',' + (yy - 6) + ' L' + x + ',' + yy,
					    stroke: '#D55E00', 'stroke-dasharray': '3 2', fill: 'none', 'marker-end': 'url(#arr)', class: 'link' });
					stub.appendChild(sv('title', {}, 'link: caused also by span ' + l[1] + ' of trace ' + l[0] +
					    (l[2] ? ' (' + l[2] + ')' : '')));
					svg.appendChild(stub);
				} else if (drawn[q])
					svg.appendChild(sv('path', { d: 'M' + X(S[q][5] + S[q][6]) + ',' + (rowY[q] + RH / 2) +
					    ' L' + X(S[k][5]) + ',' + (rowY[k] + RH / 2), stroke: '#D55E00', 'stroke-dasharray': '4 3',
					    fill: 'none', 'marker-end': 'url(#arr)' }));
			}
		}
		wf.appendChild(svg);
		if (n > MAXROWS)
			wf.appendChild(el('p', { class: 'hint' }, (n - MAXROWS) + ' later spans of this trace not drawn (' + n + ' in all).'));
		body.dataset.selSpans = String(n);
	}

	function showSpan(ti, det, k) {
		selSpan = k;
		for (const r of document.querySelectorAll('#waterfall rect.span'))
			r.classList.toggle('sel', Number(r.dataset.k) === k);
		const S = det.spans, sp = S[k], t0 = T.start[ti];
		const d = $('detail');
		d.textContent = '';
		d.appendChild(el('h3', {}, (D.kinds[sp[2]] || '?') + ' span ' + sp[0] + ' on ' + D.streams[sp[3]].name));
		const tab = el('table');
		const add = (k2, v) => {
			const tr = el('tr');
			tr.appendChild(el('th', {}, k2));
			tr.appendChild(el('td', { class: 'mono' }, v));
			tab.appendChild(tr);
		};
		add('start', fmt(sp[5] - t0) + ' into the trace (' + sp[5] + ' ps)');
		add('duration', fmt(sp[6]) + ' (' + sp[6] + ' ps)');
		add('parent', sp[1] >= 0 ? (D.kinds[S[sp[1]][2]] + ' span ' + S[sp[1]][0] + ' on ' + D.streams[S[sp[1]][3]].name) : 'none (trace root)');
		const tags = flagTags(sp[7], sp[8]).map((t) => t[0]).join(', ');
		add('flags', tags || 'none');
		if (sp[8]) add('cause', sp[8] + ' (the missing parent context)');
		for (const a in sp[9])
			add(a, String(sp[9][a]));
		d.appendChild(tab);
		if (sp[10].length) {
			d.appendChild(el('h3', {}, 'links'));
			const lt = el('table');
			for (const l of sp[10]) {
				const tr = el('tr');
				tr.appendChild(el('td', { class: 'mono' }, 'span ' + l[1] + ' of trace ' + l[0] + (l[2] ? ' (' + l[2] + ')' : '')));
				lt.appendChild(tr);
			}
			d.appendChild(lt);
		}
		if (Array.isArray(sp[11]) && sp[11].length) {
			d.appendChild(el('h3', {}, sp[11].length + ' member events'));
			const et = el('table');
			for (const ev of sp[11].slice(0, 500)) {
				const tr = el('tr');
				tr.appendChild(el('td', { class: 'mono' }, '+' + fmt(ev[0] - sp[5])));
				tr.appendChild(el('td', {}, ev[1]));
				tr.appendChild(el('td', { class: 'mono' }, Object.entries(ev[2]).map(([a, b]) => a + '=' + b).join(' ')));
				et.appendChild(tr);
			}
			d.appendChild(et);
		} else if (typeof sp[11] === 'number' && sp[11] < 0) {
			d.appendChild(el('p', { class: 'hint' }, -sp[11] + ' member events left out of the page'));
		}
	}

	// --- whole-run timeline ------------------------------------------------
	const TL = { v0: 0, v1: 1, lanes: [], spans: null };
	function setupTimeline() {
		const order = D.lanes.map((l, i) => i).sort((a, b) => D.lanes[a][0] - D.lanes[b][0] ||
		    (D.lanes[a][1] < D.lanes[b][1] ? -1 : D.lanes[a][1] > D.lanes[b][1] ? 1 : 0));
		TL.lanes = order;
		TL.row = new Array(D.lanes.length);
		order.forEach((l, r) => { TL.row[l] = r; });
		// detailed spans per lane, by start: [start, end, trace]
		const per = D.lanes.map(() => []);
		for (const det of D.details) {
			const ti = det.trace;
			for (const s of det.spans)
				per[s[4]].push(s[5], s[5] + s[6], ti);
		}
		TL.spans = per.map((a) => {
			const n = a.length / 3, ix = [...Array(n).keys()].sort((x, y) => a[3 * x] - a[3 * y]);
			const st = new Float64Array(n), en = new Float64Array(n), tr = new Int32Array(n);
			let mx = 0;
			ix.forEach((j, k) => { st[k] = a[3 * j]; en[k] = a[3 * j + 1]; tr[k] = a[3 * j + 2]; mx = Math.max(mx, en[k] - st[k]); });
			return { st, en, tr, maxdur: mx };
		});
		TL.v0 = D.start;
		TL.v1 = Math.max(D.end, D.start + 1);
	}
	function lowerBound(a, v) {
		let lo = 0, hi = a.length;
		while (lo < hi) {
			const m = (lo + hi) >> 1;
			if (a[m] < v) lo = m + 1; else hi = m;
		}
		return lo;
	}
	function drawTimeline() {
		const cv = $('tl');
		const W = cv.clientWidth || 1200, LH = 28, LW = 170, AX = 22;
		const H = AX + TL.lanes.length * LH + 4;
		cv.style.height = H + 'px';
		const dpr = window.devicePixelRatio || 1;
		cv.width = W * dpr;
		cv.height = H * dpr;
		const g = cv.getContext('2d');
		g.scale(dpr, dpr);
		g.clearRect(0, 0, W, H);
		g.font = '11px system-ui, sans-serif';
		const v0 = TL.v0, v1 = TL.v1, PW = W - LW - 8;
		const X = (ps) => LW + (ps - v0) / (v1 - v0) * PW;
		// axis
		const st = step(v1 - v0, 10);
		g.fillStyle = '#666';
		g.strokeStyle = '#eee';
		for (let v = Math.ceil((v0 - D.start) / st) * st + D.start; v <= v1; v += st) {
			const x = X(v);
			g.beginPath(); g.moveTo(x, AX - 4); g.lineTo(x, H); g.stroke();
			if (x < W - 60)
				g.fillText(fmt(v - D.start), x + 2, AX - 8);
		}
		const full = D.counts.detail_spans === D.counts.spans;
		let visible = 0;
		for (const l of TL.lanes) {
			const s = TL.spans[l];
			visible += lowerBound(s.st, v1) - lowerBound(s.st, v0 - s.maxdur);
		}
		const useSpans = full && visible < 200000;
		// not all spans in the page: density, and the detailed spans on
		// top once few enough are in view
		const detailed = !useSpans && visible < 20000;
		const ppx = (v1 - v0) / PW;	// ps per pixel
		TL.lanes.forEach((l, r) => {
			const y = AX + r * LH, stream = D.lanes[l][0];
			g.fillStyle = r % 2 ? '#fafafa' : '#fff';
			g.fillRect(0, y, W, LH);
			g.fillStyle = '#222';
			const name = D.streams[stream].name + (D.lanes[l][1] ? ' · ' + D.lanes[l][1].replace(/^system\./, '') : '');
			g.fillText(name.length > 28 ? name.slice(0, 27) + '…' : name, 4, y + 17);
			g.fillStyle = streamColor[stream];
			if (useSpans) {
				// spans, merged where they share a pixel
				const s = TL.spans[l];
				let a = lowerBound(s.st, v0 - s.maxdur), lastx = -1, lastw = 0;
				const b = lowerBound(s.st, v1);
				for (; a < b; a++) {
					if (s.en[a] < v0) continue;
					const x = Math.max(LW, X(s.st[a])), x2 = Math.min(W, X(s.en[a]));
					if (x <= lastx + lastw + 0.5) {
						lastw = Math.max(lastw, x2 - lastx);
						continue;
					}
					if (lastx >= 0) g.fillRect(lastx, y + 4, Math.max(1, lastw), LH - 8);
					lastx = x; lastw = x2 - x;
				}
				if (lastx >= 0) g.fillRect(lastx, y + 4, Math.max(1, lastw), LH - 8);
				// the selected trace's spans, outlined
				if (sel >= 0) {
					g.strokeStyle = '#000';
					g.lineWidth = 1.5;
					for (let k = lowerBound(s.st, v0 - s.maxdur); k < b; k++)
						if (s.tr[k] === sel && s.en[k] >= v0)
							g.strokeRect(X(s.st[k]), y + 3, Math.max(1, X(s.en[k]) - X(s.st[k])), LH - 6);
				}
			} else {
				// density of all spans: bar height from the spans per
				// pixel column (log scale, lane maximum = full height)
				const cnt = D.density.count[l], bw = D.density.bin_ps, org = D.density.origin;
				let mx = 1;
				for (const v of cnt) mx = Math.max(mx, v);
				const lmx = Math.log1p(mx);
				g.globalAlpha = detailed ? 0.45 : 1;
				for (let px = 0; px < PW; px++) {
					const a = v0 + px * ppx, z = a + ppx;
					const ba = Math.max(0, Math.floor((a - org) / bw)), bz = Math.min(cnt.length - 1, Math.floor((z - org) / bw));
					let m = 0;
					for (let k = ba; k <= bz; k++) m = Math.max(m, cnt[k]);
					if (!m) continue;
					// bins wider than a few pixels: faint, they are coarse
					if (!detailed) g.globalAlpha = bw / ppx > 4 ? 0.3 : 1;
					const h = Math.max(2, Math.log1p(m) / lmx * (LH - 6));
					g.fillRect(LW + px, y + LH - 3 - h, 1, h);
				}
				g.globalAlpha = 1;
				if (detailed) {	// the spans that are in the page, on top
					const s = TL.spans[l];
					const b = lowerBound(s.st, v1);
					for (let k = lowerBound(s.st, v0 - s.maxdur); k < b; k++)
						if (s.en[k] >= v0)
							g.fillRect(Math.max(LW, X(s.st[k])), y + 8, Math.max(1, X(s.en[k]) - X(s.st[k])), LH - 16);
				}
			}
		});
		$('tl-info').textContent = fmt(v0 - D.start) + ' … ' + fmt(v1 - D.start) + ' of the run (' + fmt(v1 - v0) + ' shown): ' +
		    (useSpans ? visible + ' spans' : 'density of all ' + D.counts.spans + ' spans (bar height: spans per pixel, log scale; ' +
		    (full ? 'zoom in for single spans)' : 'single spans of the ' + D.counts.detail_traces + ' traces in the page' +
		    (detailed ? ' drawn on top)' : ' once zoomed in)')));
		body.dataset.tlMode = useSpans ? 'spans' : 'density';
	}
	function timelineEvents() {
		const cv = $('tl');
		let drag = null, moved = false;
		const LW = 170;
		const toPs = (px) => TL.v0 + (px - LW) / (cv.clientWidth - LW - 8) * (TL.v1 - TL.v0);
		cv.addEventListener('wheel', (e) => {
			e.preventDefault();
			const r = cv.getBoundingClientRect(), at = toPs(e.clientX - r.left);
			const f = Math.pow(1.0015, e.deltaY);
			let a = at - (at - TL.v0) * f, b = at + (TL.v1 - at) * f;
			if (b - a < 1000) return;
			a = Math.max(D.start, a); b = Math.min(Math.max(D.end, D.start + 1), b);
			TL.v0 = a; TL.v1 = b;
			drawTimeline();
		}, { passive: false });
		cv.addEventListener('mousedown', (e) => { drag = { x: e.clientX, v0: TL.v0, v1: TL.v1 }; moved = false; cv.style.cursor = 'grabbing'; });
		window.addEventListener('mouseup', () => { drag = null; cv.style.cursor = 'grab'; });
		window.addEventListener('mousemove', (e) => {
			if (!drag) return;
			const dx = e.clientX - drag.x;
			if (Math.abs(dx) > 2) moved = true;
			const dps = dx / (cv.clientWidth - LW - 8) * (drag.v1 - drag.v0);
			const w = drag.v1 - drag.v0;
			let a = drag.v0 - dps;
			a = Math.max(D.start, Math.min(a, Math.max(D.end, D.start + 1) - w));
			TL.v0 = a; TL.v1 = a + w;
			drawTimeline();
		});
		cv.addEventListener('dblclick', () => { TL.v0 = D.start; TL.v1 = Math.max(D.end, D.start + 1); drawTimeline(); });
		cv.addEventListener('click', (e) => {
			if (moved) return;
			const r = cv.getBoundingClientRect(), row = Math.floor((e.clientY - r.top - 22) / 28);
			if (row < 0 || row >= TL.lanes.length) return;
			const s = TL.spans[TL.lanes[row]], at = toPs(e.clientX - r.left), tol = 3 * (TL.v1 - TL.v0) / cv.clientWidth;
			let k = lowerBound(s.st, at + tol) - 1;
			for (; k >= 0 && s.st[k] >= at - tol - s.maxdur; k--)
				if (s.en[k] >= at - tol && s.tr[k] >= 0) {
					show('traces');
					$('filter').value = '';
					buildOrder();
					cursor = order.indexOf(s.tr[k]);
					scrollToCursor();
					select(s.tr[k]);
					return;
				}
		});
	}

	// --- latency distribution -------------------------------------------
	// Per group of traces (root kind, or root kind and host; all traces or
	// those that cross the network) a distribution: exact, the sorted
	// latencies of the traces, when the page lists every trace; else the
	// page's histograms of all traces (formats/html.md §2.5), whose
	// buckets are exact below 2^bits ps and 2^bits per octave above.
	function bucketLo(i) {
		const s = 1 << D.latency.bits, q = Math.floor(i / s);
		return q === 0 ? i : ((i % s) + s) * Math.pow(2, q - 1);
	}
	function bucketW(i) {
		const q = Math.floor(i / (1 << D.latency.bits));
		return q === 0 ? 1 : Math.pow(2, q - 1);
	}
	function latGroups(by, netOnly) {
		const exact = D.counts.listed_traces === D.counts.traces, m = new Map();
		const key = (kind, stream) => (kind >= 0 ? D.kinds[kind] : '(no root)') +
		    (by === 'host' && stream >= 0 ? ' on ' + D.streams[stream].name : '');
		if (exact) {
			for (let i = 0; i < nT; i++) {
				if (netOnly && !T.net[i]) continue;
				const k = key(T.root_kind[i], T.root_stream[i]);
				if (!m.has(k)) m.set(k, { vals: [] });
				m.get(k).vals.push(T.dur[i]);
			}
			for (const g of m.values()) {
				g.vals.sort((a, b) => a - b);
				g.n = g.vals.length;
				g.min = g.vals[0];
				g.max = g.vals[g.n - 1];
			}
		} else {
			for (const h of D.latency.groups) {
				if (netOnly && !h.net) continue;
				const k = key(h.root_kind, h.root_stream);
				if (!m.has(k)) m.set(k, { n: 0, min: Infinity, max: -Infinity, b: new Map() });
				const g = m.get(k);
				g.n += h.traces;
				g.min = Math.min(g.min, h.min);
				g.max = Math.max(g.max, h.max);
				for (let j = 0; j + 1 < h.buckets.length; j += 2)
					g.b.set(h.buckets[j], (g.b.get(h.buckets[j]) || 0) + h.buckets[j + 1]);
			}
			for (const g of m.values())
				g.idx = [...g.b.keys()].sort((a, b) => a - b);
		}
		const groups = [...m].filter(([, g]) => g.n > 0)
		    .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
		return { exact, groups };
	}
	// The nearest-rank p-th percentile: exact, or the middle of its
	// bucket (within 2^-(bits+1) of the true value), min and max exact.
	function quantile(g, p) {
		const r = Math.max(1, Math.ceil(p * g.n / 100));
		if (g.vals) return g.vals[r - 1];
		if (r <= 1) return g.min;
		if (r >= g.n) return g.max;
		let c = 0;
		for (const i of g.idx) {
			c += g.b.get(i);
			if (c >= r)
				return Math.min(g.max, Math.max(g.min, Math.round(bucketLo(i) + (bucketW(i) - 1) / 2)));
		}
		return g.max;
	}
	// The cumulative distribution as [latency, fraction] corners.
	function cdfPoints(g) {
		const pts = [[g.min, 0]];
		if (g.vals) {
			g.vals.forEach((v, j) => { pts.push([v, j / g.n], [v, (j + 1) / g.n]); });
			return pts;
		}
		let c = 0;
		for (const i of g.idx) {
			const lo = Math.max(g.min, bucketLo(i)), hi = Math.min(g.max, bucketLo(i) + bucketW(i) - 1);
			pts.push([lo, c / g.n]);
			c += g.b.get(i);
			pts.push([hi, c / g.n]);
		}
		return pts;
	}
	const LAT = { by: 'host', net: false };
	function drawLatency() {
		const box = $('lat');
		box.textContent = '';
		const { exact, groups } = latGroups(LAT.by, LAT.net);
		const all = groups.reduce((a, [, g]) => a + g.n, 0);
		$('lat-hint').textContent = 'End-to-end latency of ' + (LAT.net ? 'the ' + all + ' traces that cross the network' :
		    'all ' + all + ' traces') + ', per root ' + (LAT.by === 'host' ? 'kind and host' : 'kind') +
		    ': cumulative distribution and percentiles (nearest rank, as the SQLite latency view).';
		const W = Math.max(700, box.clientWidth || 1000), H = 340, L = 60, B = 36, R = 20, TOP = 12;
		let mx = 1;
		for (const [, g] of groups) mx = Math.max(mx, g.max);
		const svg = sv('svg', { width: W, height: H, role: 'img', 'aria-label': 'latency CDF per root' });
		const X = (ps) => L + ps / mx * (W - L - R), Y = (f) => TOP + (1 - f) * (H - TOP - B);
		const st = step(mx, 10);
		for (let v = 0; v <= mx; v += st) {
			svg.appendChild(sv('line', { x1: X(v), x2: X(v), y1: TOP, y2: H - B, stroke: '#eee' }));
			svg.appendChild(sv('text', { x: X(v), y: H - B + 14, 'text-anchor': 'middle', fill: '#666' }, fmt(v)));
		}
		for (const f of [0, 0.25, 0.5, 0.75, 0.9, 1]) {
			svg.appendChild(sv('line', { x1: L, x2: W - R, y1: Y(f), y2: Y(f), stroke: f === 0.5 || f === 0.9 ? '#ddd' : '#f3f3f3' }));
			svg.appendChild(sv('text', { x: L - 6, y: Y(f) + 4, 'text-anchor': 'end', fill: '#666' }, (100 * f) + ' %'));
		}
		svg.appendChild(sv('text', { x: (W + L) / 2, y: H - 4, 'text-anchor': 'middle', fill: '#333' }, 'end-to-end latency'));
		const tab = el('table'), hr = el('tr');
		for (const h of ['root', 'traces', 'min', 'p50', 'p90', 'p99', 'max'])
			hr.appendChild(el('th', {}, h));
		tab.appendChild(hr);
		let c = 0;
		const hook = [];
		for (const [k, g] of groups) {
			const col = KPAL[c++ % KPAL.length];
			let d = '';
			for (const [x, f] of cdfPoints(g))
				d += (d ? ' L' : 'M') + X(x) + ',' + Y(f);
			svg.appendChild(sv('path', { d, stroke: col, 'stroke-width': 2, fill: 'none' }));
			const q = [g.min, quantile(g, 50), quantile(g, 90), quantile(g, 99), g.max];
			const tr = el('tr');
			const td = el('td');
			td.appendChild(el('span', { class: 'sw', bg: col }));
			td.appendChild(document.createTextNode(k));
			tr.appendChild(td);
			tr.appendChild(el('td', {}, String(g.n)));
			q.forEach((x, j) => tr.appendChild(el('td', {}, (exact || j === 0 || j === 4 ? '' : '≈ ') + fmt(x))));
			tab.appendChild(tr);
			hook.push(k + ':' + g.n + ',' + q.join(','));
		}
		box.appendChild(svg);
		box.appendChild(tab);
		if (!groups.length)
			box.appendChild(el('p', { class: 'hint' }, 'No trace ' + (LAT.net ? 'crosses the network.' : 'in the run.')));
		box.appendChild(el('p', { class: 'acc' }, exact ? 'Exact: the page lists every trace.' :
		    'From histograms of all ' + D.counts.traces + ' traces (the page lists ' + D.counts.listed_traces +
		    '): p50, p90 and p99 (≈) are within ' + (100 / (2 << D.latency.bits)).toFixed(2) +
		    ' % of the exact value, min and max are exact.'));
		body.dataset.latency = hook.sort().join(';');
		body.dataset.latencyExact = exact ? '1' : '0';
	}

	// --- views ------------------------------------------------------------
	const drawn = {};
	function show(v) {
		for (const b of document.querySelectorAll('#tabs button'))
			b.classList.toggle('on', b.dataset.view === v);
		for (const s of document.querySelectorAll('.view'))
			s.classList.toggle('on', s.id === 'v-' + v);
		if (v === 'timeline') drawTimeline();
		if (v === 'latency' && !drawn.latency) { drawLatency(); drawn.latency = 1; }
		if (v === 'traces') renderRows();
	}

	// The URL hash: key=value parts joined by '&'.  A part that is not
	// valid URL encoding, has an unknown key, or names nothing in this
	// page is ignored, and the page says so in one line.
	const KNOWN = new Set(['select', 'span', 'view', 'tl', 'scroll', 'maxrows', 'by', 'net']);
	let ARGS = {};
	const ignored = [];
	function shown(s) { return s.length > 40 ? s.slice(0, 39) + '…' : s; }
	function hashArgs() {
		const a = {}, raw = location.hash.replace(/^#/, '');
		if (raw.length > 8192) {
			ignored.push('the whole hash (' + raw.length + ' characters)');
			return a;
		}
		for (const kv of raw.split('&')) {
			if (!kv) continue;
			const eq = kv.indexOf('=');
			let k, v;
			try {
				k = decodeURIComponent(eq < 0 ? kv : kv.slice(0, eq));
				v = decodeURIComponent(eq < 0 ? '' : kv.slice(eq + 1));
			} catch (e) {
				ignored.push(shown(kv) + ' (not valid URL encoding)');
				continue;
			}
			if (!KNOWN.has(k))
				ignored.push(shown(kv) + ' (not a setting of this page)');
			else
				a[k] = v;
		}
		return a;
	}
	function ignore(k, why) {
		ignored.push(shown(k + '=' + ARGS[k]) + ' (' + why + ')');
		delete ARGS[k];
	}
	function sayIgnored() {
		if (!ignored.length) return;
		const line = 'Ignored in the URL: ' + ignored.join('; ') + '.';
		$('notice').textContent = line;
		body.dataset.notice = line;
	}

	async function main() {
		if ($('ssp-data').textContent.trim() === '') throw new Error('no data in the page');
		D = await decode();
		body.dataset.tDecoded = performance.now().toFixed(0);
		if (D.format !== 'simspan-html' || D.version !== 2)
			throw new Error('data format ' + D.format + ' version ' + D.version + ' is not one this viewer reads');
		setupData();
		body.dataset.tSetup = performance.now().toFixed(0);
		ARGS = hashArgs();
		if (D.counts.spans === 0) {
			$('summary').textContent = 'no spans: the span stream ' + D.source + ' is empty.';
			document.querySelector('main').replaceChildren(el('p', { class: 'empty' }, 'no spans'));
			$('tabs').style.display = 'none';
			body.dataset.traces = '0';
			body.dataset.spans = '0';
			sayIgnored();
			return;
		}
		header();
		listHead();
		buildOrder();
		body.dataset.tList = performance.now().toFixed(0);
		setupTimeline();
		timelineEvents();
		$('filter').addEventListener('input', () => { $('list-body').scrollTop = 0; cursor = 0; buildOrder(); });
		$('list').addEventListener('keydown', listKeys);
		$('list-body').addEventListener('scroll', renderRows);
		for (const b of document.querySelectorAll('#tabs button'))
			b.onclick = () => show(b.dataset.view);
		window.addEventListener('resize', () => { if (sel >= 0) renderTrace(); if ($('v-timeline').classList.contains('on')) drawTimeline(); });
		let spans = 0;
		for (let i = 0; i < nT; i++) spans += T.spans[i];
		body.dataset.traces = String(order.length);
		body.dataset.spans = String(spans);
		body.dataset.detailSpans = String(D.details.reduce((a, d) => a + d.spans.length, 0));
		// the hash: what names nothing in this page is ignored
		const args = ARGS;
		if (args.view !== undefined && !['traces', 'timeline', 'latency'].includes(args.view))
			ignore('view', 'the views are traces, timeline and latency');
		if (args.by !== undefined && args.by !== 'kind' && args.by !== 'host')
			ignore('by', 'kind or host');
		if (args.net !== undefined && args.net !== '0' && args.net !== '1')
			ignore('net', '0 or 1');
		if (args.maxrows !== undefined && !/^[1-9][0-9]{0,8}$/.test(args.maxrows))
			ignore('maxrows', 'not a count of rows');
		if (args.by) LAT.by = args.by;
		if (args.net) LAT.net = args.net === '1';
		$('lat-by').value = LAT.by;
		$('lat-net').checked = LAT.net;
		$('lat-by').addEventListener('change', () => { LAT.by = $('lat-by').value; drawLatency(); });
		$('lat-net').addEventListener('change', () => { LAT.net = $('lat-net').checked; drawLatency(); });
		let pick = -1;
		if (args.select === 'slowest') {
			for (let i = 0; i < nT; i++)
				if (pick < 0 || T.dur[i] > T.dur[pick]) pick = i;
		} else if (args.select !== undefined) {
			pick = T.id.indexOf(args.select.toLowerCase());
			if (pick < 0)
				ignore('select', 'no trace with that id in the page' + (nT < D.counts.traces ?
				    ', which lists ' + nT + ' of the ' + D.counts.traces + ' traces' : ''));
		}
		if (pick < 0) {
			// open on the slowest trace that crosses the most simulators
			for (let i = 0; i < nT; i++)
				if (pick < 0 || T.nstreams[i] > T.nstreams[pick] ||
				    (T.nstreams[i] === T.nstreams[pick] && T.dur[i] > T.dur[pick])) pick = i;
		}
		if (args.span !== undefined) {
			const det = pick >= 0 && T.detail[pick] >= 0 ? D.details[T.detail[pick]] : null;
			if (!det)
				ignore('span', 'the trace has no span detail in the page');
			else if (!/^[0-9]{1,9}$/.test(args.span) || Number(args.span) >= det.spans.length)
				ignore('span', 'the trace has spans 0 to ' + (det.spans.length - 1));
		}
		if (pick >= 0) {
			cursor = order.indexOf(pick);
			$('list-body').scrollTop = Math.max(0, (cursor + 0.5) * ROW - $('list-body').clientHeight / 2);
			scrollToCursor();
			select(pick);
			if (args.span !== undefined)
				showSpan(pick, D.details[T.detail[pick]], Number(args.span));
		}
		if (args.tl !== undefined) {	// timeline range in µs from the run's start
			const ab = args.tl.split(',');
			const [a, b] = ab.map((x) => x.trim() === '' ? NaN : Number(x));
			if (ab.length !== 2 || !Number.isFinite(a) || !Number.isFinite(b) || !(b > a))
				ignore('tl', 'not A,B with A < B, in µs');
			else { TL.v0 = D.start + a * 1e6; TL.v1 = D.start + b * 1e6; }
		}
		if (args.scroll !== undefined && !$(args.scroll))
			ignore('scroll', 'no such element');
		sayIgnored();
		if (args.view) show(args.view);
		$('list').focus({ preventScroll: true });
		if (args.scroll) $(args.scroll).scrollIntoView();
	}
	main().then(() => {
		body.dataset.tti = performance.now().toFixed(0);
		body.dataset.state = 'ready';
	}, (e) => {
		noteError(e && e.message ? e.message : e);
		$('summary').textContent = 'cannot show this page: ' + (e && e.message ? e.message : e);
		body.dataset.state = 'error';
	});
})();
