#!/usr/bin/env python3
"""png8.py IN.png OUT.png: an 8-bit RGB(A) PNG as a palette PNG of at most
256 colours (the 256 most frequent; any other the nearest of them), for
the README's screenshots (scripts/span2html-shots.sh): a page has a few
hundred colours, mostly antialiased text, and the palette file is a
third of the size.  Transparency is dropped.  No module beyond the
standard library."""
import struct
import sys
import zlib
from collections import Counter


def read(path):
    b = open(path, 'rb').read()
    if b[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('png8: %s: not a PNG' % path)
    pos, idat, hdr = 8, b'', None
    while pos < len(b):
        n, = struct.unpack('>I', b[pos:pos + 4])
        t, d = b[pos + 4:pos + 8], b[pos + 8:pos + 8 + n]
        pos += 12 + n
        if t == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', d)
        elif t == b'IDAT':
            idat += d
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or interlace != 0 or ctype not in (2, 6):
        sys.exit('png8: %s: not 8-bit RGB or RGBA without interlace' % path)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, p, px = bytearray(stride), 0, []
    for _ in range(h):	# undo the row filters (PNG spec 9.2)
        f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            up, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + up) & 255
            elif f == 3:
                line[i] = (line[i] + (a + up) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
        px.append([bytes(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, px


def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: png8.py IN.png OUT.png')
    w, h, px = read(sys.argv[1])
    count = Counter(x for row in px for x in row)
    pal = [x for x, _ in count.most_common(256)]
    idx = {x: i for i, x in enumerate(pal)}
    for x in count:
        if x not in idx:
            idx[x] = min(range(len(pal)), key=lambda i: sum((u - v) ** 2 for u, v in zip(x, pal[i])))
    out = bytearray()
    for row in px:
        out.append(0)
        out.extend(idx[x] for x in row)
    png = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 3, 0, 0, 0)) +
           chunk(b'PLTE', b''.join(pal)) + chunk(b'IDAT', zlib.compress(bytes(out), 9)) + chunk(b'IEND', b''))
    open(sys.argv[2], 'wb').write(png)


main()
