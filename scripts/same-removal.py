#!/usr/bin/env python3
"""same-removal.py SOURCE FAST COPY REMOVED

Whether FAST (an output written by rearranging SOURCE in place) means what
COPY (the same edit with PDFEDIT_NO_IN_PLACE=1) means, read by pikepdf,
pdftotext and qpdf: the same pages (text per page), links (per page: their
rectangles and targets), bookmarks, named destinations, open action and
decoded stream data, qpdf --check clean or warning as copying, one page object
per page, and no content stream that only a removed page of SOURCE had
(REMOVED: 1-based pages, "first..last" parts joined by commas; "0..0" none).
Prints OK or DIFF with the differences; exits 1 on a difference. Used by
InPlaceLinksTests' corpus sweep (PDFEDIT_LONG_TESTS=1)."""
import sys, subprocess, hashlib, pikepdf

src, a, b, removed = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
gone = set()
for part in removed.split(','):
    lo, _, hi = part.partition('..')
    gone.update(range(int(lo), int(hi or lo) + 1))
problems = []

def text(path, n):
    return subprocess.run(['pdftotext', '-f', str(n), '-l', str(n), '-layout', path, '-'], capture_output=True).stdout

def page_index(pdf):
    return {p.obj.objgen: i for i, p in enumerate(pdf.pages)}

def named(pdf):
    out = {}
    r = pdf.Root
    if '/Dests' in r:
        for k, v in r.Dests.items(): out[k] = v
    if '/Names' in r and '/Dests' in r.Names:
        nt = pikepdf.NameTree(r.Names.Dests)
        for k, v in nt.items(): out[k] = v
    return out

def dest_page(pdf, d, idx, names):
    if isinstance(d, (pikepdf.Name, pikepdf.String, str, bytes)):
        key = str(d)
        d = names.get(key) or names.get(pikepdf.Name(key) if key.startswith('/') else key)
        if d is None: return 'unresolved'
    if isinstance(d, pikepdf.Dictionary): d = d.get('/D')
    if isinstance(d, pikepdf.Array) and len(d) > 0:
        t = d[0]
        if isinstance(t, pikepdf.Dictionary): return idx.get(t.objgen, 'not-a-page')
        return ('int', int(t)) if isinstance(t, int) else 'odd'
    return 'none'

def links(pdf):
    idx, names, out = page_index(pdf), named(pdf), []
    for i, p in enumerate(pdf.pages):
        for an in p.obj.get('/Annots', []):
            if an.get('/Subtype') != '/Link': out.append((i, 'other', str(an.get('/Subtype')))); continue
            rect = tuple(round(float(x), 2) for x in an.Rect)
            if '/Dest' in an: t = dest_page(pdf, an.Dest, idx, names)
            elif '/A' in an and an.A.get('/S') == '/GoTo': t = dest_page(pdf, an.A.D, idx, names)
            elif '/A' in an: t = (str(an.A.get('/S')), str(an.A.get('/URI', '')))
            else: t = None
            if '/P' in an and an.P.objgen != p.obj.objgen: problems.append(f'link /P not its page {i}')
            out.append((i, rect, t))
    return out

def outline(pdf):
    idx, names, out = page_index(pdf), named(pdf), []
    with pdf.open_outline() as o:
        def walk(items, level):
            for it in items:
                t = None
                if it.destination is not None: t = dest_page(pdf, it.destination, idx, names)
                elif it.action is not None:
                    t = dest_page(pdf, it.action.D, idx, names) if it.action.get('/S') == '/GoTo' else str(it.action.get('/S'))
                out.append((level, it.title, t, it.is_closed))
                walk(it.children, level + 1)
        walk(o.root, 0)
    return out

def streams(pdf):
    hs = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get('/Type') not in ('/ObjStm', '/XRef'):
            try: hs.append(hashlib.sha1(obj.read_bytes()).hexdigest())
            except Exception: hs.append('undecodable')
    return sorted(hs)

S, A, B = pikepdf.open(src), pikepdf.open(a), pikepdf.open(b)
if len(A.pages) != len(B.pages): problems.append(f'pages {len(A.pages)} != {len(B.pages)}')
for n in range(1, len(A.pages) + 1):
    if text(a, n) != text(b, n): problems.append(f'text of page {n} differs')
la, lb = links(A), links(B)
if la != lb: problems.append(f'links differ: {len(la)} vs {len(lb)}; first {next((x, y) for x, y in zip(la + [None]*9, lb + [None]*9) if x != y)}')
oa, ob = outline(A), outline(B)
if oa != ob: problems.append(f'outline differs: {len(oa)} vs {len(ob)}')
na, nb = sorted(map(str, named(A))), sorted(map(str, named(B)))
if na != nb: problems.append(f'named destinations differ: {len(na)} vs {len(nb)}')
def opening(pdf):
    o = pdf.Root.get('/OpenAction')
    return None if o is None else dest_page(pdf, o, page_index(pdf), named(pdf))
if opening(A) != opening(B): problems.append(f'open action {opening(A)} vs {opening(B)}')
for p in (a, b):
    rc = subprocess.run(['qpdf', '--check', p], capture_output=True).returncode
    if rc not in (0, 3) : problems.append(f'qpdf --check {p}: {rc}')
sa, sb = streams(A), streams(B)
if sa != sb: problems.append(f'stream data differ: {len(sa)} vs {len(sb)} streams')
# Nothing only a removed page had: its content streams, its annotations.
kept_hashes, removed_hashes = set(), set()
def page_streams(page):
    c = page.obj.get('/Contents')
    cs = [] if c is None else (list(c) if isinstance(c, pikepdf.Array) else [c])
    return {hashlib.sha1(x.read_bytes()).hexdigest() for x in cs}
for i, p in enumerate(S.pages):
    (removed_hashes if i + 1 in gone else kept_hashes).update(page_streams(p))
leaked = (removed_hashes - kept_hashes) & set(sa)
if leaked: problems.append(f'{len(leaked)} content streams of removed pages in the in-place output')
annots = lambda pdf: sum(1 for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get('/Type') == '/Annot')
if annots(A) != annots(B): problems.append(f'annotation objects {annots(A)} vs {annots(B)}')
pages_objs = lambda pdf: sum(1 for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get('/Type') == '/Page')
if pages_objs(A) != len(A.pages): problems.append(f'{pages_objs(A)} page objects in the in-place output for {len(A.pages)} pages')
print(('OK ' if not problems else 'DIFF ') + f'{src}: pages {len(A.pages)} links {len(la)} outline {len(oa)} named {len(na)} streams {len(sa)}')
for p in problems: print('  ', p)
sys.exit(1 if problems else 0)
