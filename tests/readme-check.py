#!/usr/bin/env python3
"""Run every command block of a README and compare the output it shows.

usage: readme-check.py [-l] README SCRATCH

Blocks are fenced (```) or indented by 4 spaces.  An HTML comment on the
lines before a block says what to do with it:

  <!-- check: skip REASON -->   not run; listed as skipped with REASON
  <!-- check: run -->           run as one sh -e script (the default for
                                ```sh blocks); it must exit 0
  <!-- check: transcript -->    "$ command" lines, each followed by the
                                output the README shows: run each command
                                and compare (timings "1.23 s" and trailing
                                blanks aside)
  <!-- check: deps TARGET -->   the Debian packages TARGET adds (build,
                                demo, check, ci), in the order of
                                scripts/deps.txt, the one list

A block that is neither ```sh nor marked is an error naming its line, so a
new block is marked or fixed, never silently passed over.  All blocks run
in README order in SCRATCH (so later blocks see earlier outputs), with
stdin from /dev/null, the built tools first on PATH (the caller's PATH),
and "make demo" meaning the demo script (what the make target runs after
building).  -l lists the blocks and what would be done, running nothing.

Output: one line per block, "ok", "skip" or "FAIL", then
"N passed, N failed, N skipped"; exit 1 if any failed.
"""
import os
import re
import subprocess
import sys

DIRECTIVE = re.compile(r'^<!--\s*check:\s*(\w+)\s*(.*?)\s*-->\s*$')
TIMING = re.compile(r'\b\d+(?:\.\d+)? s\b')
TIMEOUT = 300


def blocks(path):
    """Yield (line, info, directive, arg, lines) per code block."""
    text = open(path, encoding='utf-8').read().split('\n')
    i, pending, prev_blank = 0, None, True
    while i < len(text):
        line = text[i]
        m = DIRECTIVE.match(line)
        if m:
            pending = (m.group(1), m.group(2), i + 1)
            i += 1
            prev_blank = True	# a comment line may stand for the blank
            continue
        if line.startswith('```'):
            info, start, body = line[3:].strip(), i + 1, []
            i += 1
            while i < len(text) and not text[i].startswith('```'):
                body.append(text[i])
                i += 1
            i += 1
            yield start, info or '(none)', pending, body
            pending, prev_blank = None, False
            continue
        if line.startswith('    ') and prev_blank and line.strip():
            start, body = i + 1, []
            while i < len(text) and (text[i].startswith('    ') or
                                     not text[i].strip()):
                body.append(text[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            yield start, 'indented', pending, body
            pending, prev_blank = None, True
            continue
        if line.strip() and pending is not None and not line.startswith('<!--'):
            # a directive must be followed by its block
            yield pending[2], 'directive', ('orphan', '', pending[2]), []
            pending = None
        prev_blank = not line.strip()
        i += 1


def norm(lines):
    out = [TIMING.sub('T s', l).rstrip() for l in lines]
    while out and not out[-1]:
        out.pop()
    return out


def run(cmd, cwd, env):
    p = subprocess.run(['sh', '-ec', cmd], cwd=cwd, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), \
        p.stderr.decode('utf-8', 'replace')


def transcript(body):
    """[(command, expected output lines)] of a $-transcript."""
    steps = []
    for l in body:
        if l.startswith('$ '):
            steps.append((l[2:], []))
        elif steps:
            steps[-1][1].append(l)
        elif l.strip():
            return None
    return steps


def main():
    args = sys.argv[1:]
    listing = args and args[0] == '-l'
    if listing:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    readme, scratch = args
    name = os.path.relpath(readme)
    env = dict(os.environ)
    passed = failed = skipped = 0
    for line, info, d, body in blocks(readme):
        where = '%s:%d' % (name, line)
        kind, arg = (d[0], d[1]) if d else (
            'run' if info in ('sh', 'shell', 'bash') else None, '')
        if kind is None:
            print('FAIL %s: a %s code block the checker does not know: mark '
                  'it with <!-- check: run -->, <!-- check: transcript --> or '
                  '<!-- check: skip REASON --> on the line before' %
                  (where, 'fenced ' + info if info != 'indented' else
                   'indented'))
            failed += 1
            continue
        if kind == 'orphan':
            print('FAIL %s: a check directive not followed by a code block' %
                  where)
            failed += 1
            continue
        if kind == 'skip':
            if not arg:
                print('FAIL %s: skip needs a reason' % where)
                failed += 1
            else:
                print('skip %s: %s' % (where, arg))
                skipped += 1
            continue
        if kind not in ('run', 'transcript', 'deps'):
            print('FAIL %s: unknown check directive %r' % (where, kind))
            failed += 1
            continue
        if listing:
            print('%s %s (%d lines)' % (kind, where, len(body)))
            continue
        if kind == 'deps':
            top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            p = subprocess.run(['sh', os.path.join(top, 'scripts', 'deps.sh'),
                                '--list', arg], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            want = p.stdout.decode().split()
            got = ' '.join(body).split()
            if p.returncode != 0 or not want:
                print('FAIL %s: deps.sh --list %s: %s' % (
                    where, arg, p.stderr.decode().strip()))
                failed += 1
            elif got != want:
                print('FAIL %s: the packages %s needs differ from '
                      'scripts/deps.txt:\n#    README %s\n#    deps.txt %s' %
                      (where, arg, ' '.join(got), ' '.join(want)))
                failed += 1
            else:
                print('ok   %s: the %d packages %s adds, as in scripts/'
                      'deps.txt' % (where, len(want), arg))
                passed += 1
            continue
        if kind == 'run':
            try:
                rc, out, err = run('\n'.join(body) + '\n', scratch, env)
            except subprocess.TimeoutExpired:
                rc, out, err = -1, '', 'timed out after %d s' % TIMEOUT
            if rc == 0:
                print('ok   %s: ran %d lines' % (where, len(body)))
                passed += 1
            else:
                print('FAIL %s: exit %d' % (where, rc))
                for l in (err.strip().split('\n'))[-15:]:
                    print('#    ' + l)
                failed += 1
            continue
        steps = transcript(body)
        if not steps:
            print('FAIL %s: a transcript block needs "$ command" lines '
                  'first' % where)
            failed += 1
            continue
        bad = []
        for k, (cmd, want) in enumerate(steps):
            try:
                rc, out, err = run(cmd, scratch, env)
            except subprocess.TimeoutExpired:
                rc, out, err = -1, '', 'timed out'
            if rc != 0:
                bad.append('$ %s: exit %d: %s' % (cmd[:60], rc,
                                                   err.strip()[-300:]))
                continue
            got, exp = norm(out.split('\n')), norm(want)
            if got != exp:
                diff = [(n, g, e) for n, (g, e) in enumerate(
                    zip(got + [''] * len(exp), exp + [''] * len(got)))
                    if g != e][:5]
                bad.append('$ %s: output differs from the README:\n%s' % (
                    cmd[:60], '\n'.join('#    line %d: README %r\n#    '
                                        '        got    %r' % (n + 1, e, g)
                                        for n, g, e in diff)))
        if bad:
            print('FAIL %s: %s' % (where, '\n'.join(bad)))
            failed += 1
        else:
            print('ok   %s: %d commands, output as shown' % (where, len(steps)))
            passed += 1
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
