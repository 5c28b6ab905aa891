#!/usr/bin/env python3
"""Generate the pdfedit test fixtures, deterministically.

Usage:
    python3 Fixtures/make-fixtures.py [OUTDIR]   # default OUTDIR: the folder of this script
    python3 Fixtures/make-fixtures.py --check    # regenerate into a temp dir, compare bytes
                                                 # with the committed files; exit 1 on a difference

Every PDF is written by hand here (raw PDF syntax, zlib for streams, the standard
Type1 fonts Helvetica / Helvetica-Bold with /WinAnsiEncoding, a classic xref table
computed by this script, a trailer /ID derived from an MD5 of the file body).  The two
encrypted PDFs are encrypted by this script too (AES-256, security handler revision 6,
pure-Python AES) with salts, keys and IVs derived from fixed seeds, so they are
byte-for-byte reproducible as well; qpdf is NOT needed to generate anything, it is only
used to verify the output (see README.md).

PNGs are written by hand (zlib + struct).  JPEGs need Pillow (`pip install pillow`):
its bundled libjpeg-turbo produces the bytes, so the JPEGs are reproducible for a given
Pillow build (checked with Pillow 13.0.0); tests never need Pillow since the generated
files are committed.

No timestamps, no random IDs: running this twice gives byte-identical files.
"""

import hashlib
import json
import os
import shutil
import struct
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# PDF object model and serializer
# ---------------------------------------------------------------------------


class Name(str):
    """A PDF name, written as /Name."""


class Ref(int):
    """An indirect reference `n 0 R`."""


class Raw(bytes):
    """Bytes written verbatim."""


class Stream:
    def __init__(self, data, entries=None, compress=True):
        self.data = data
        self.entries = dict(entries or {})
        self.compress = compress


def fmt_num(v):
    if isinstance(v, int):
        return str(v)
    if float(v).is_integer():
        return str(int(v))
    s = "%.4f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pdf_literal(s):
    """A PDF literal string from a str (WinAnsi/latin-1 characters only)."""
    b = s.encode("latin-1")
    out = bytearray(b"(")
    for c in b:
        if c in (0x28, 0x29, 0x5C):
            out += b"\\" + bytes([c])
        elif c < 0x20 or c > 0x7E:
            out += b"\\%03o" % c
        else:
            out.append(c)
    out += b")"
    return bytes(out)


def ser(o, enc=None):
    """Serialize a Python value as PDF syntax. `enc` encrypts string bytes."""
    if isinstance(o, Raw):
        return bytes(o)
    if isinstance(o, Name):
        return b"/" + o.encode("ascii")
    if isinstance(o, Ref):
        return b"%d 0 R" % o
    if o is None:
        return b"null"
    if isinstance(o, bool):
        return b"true" if o else b"false"
    if isinstance(o, (int, float)):
        return fmt_num(o).encode("ascii")
    if isinstance(o, str):
        if enc is not None:
            return b"<" + enc(o.encode("latin-1")).hex().encode("ascii") + b">"
        return pdf_literal(o)
    if isinstance(o, bytes):  # binary string, written as hex
        if enc is not None:
            o = enc(o)
        return b"<" + o.hex().encode("ascii") + b">"
    if isinstance(o, (list, tuple)):
        return b"[" + b" ".join(ser(x, enc) for x in o) + b"]"
    if isinstance(o, dict):
        parts = []
        for k, v in o.items():
            parts.append(b"/" + k.encode("ascii") + b" " + ser(v, enc))
        return b"<< " + b" ".join(parts) + b" >>"
    raise TypeError("cannot serialize %r" % (o,))


def N(s):
    return Name(s)


class PDF:
    def __init__(self):
        self.objects = [None]

    def alloc(self):
        self.objects.append(None)
        return Ref(len(self.objects) - 1)

    def add(self, obj):
        r = self.alloc()
        self.objects[r] = obj
        return r

    def set(self, ref, obj):
        self.objects[ref] = obj

    def tobytes(self, root, info=None, encryption=None):
        """encryption: an R6Encryption; its dictionary is added as an object."""
        enc_ref = None
        if encryption is not None:
            enc_ref = self.add(encryption.dictionary())
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = [0] * len(self.objects)
        for num in range(1, len(self.objects)):
            obj = self.objects[num]
            assert obj is not None, "object %d never set" % num
            enc = None
            if encryption is not None and num != enc_ref:
                enc = encryption.string_encryptor(num)
            offsets[num] = len(out)
            out += b"%d 0 obj\n" % num
            if isinstance(obj, Stream):
                data = obj.data
                entries = dict(obj.entries)
                if obj.compress:
                    data = zlib.compress(data, 9)
                    entries["Filter"] = N("FlateDecode")
                if enc is not None:
                    data = encryption.encrypt_stream(num, data)
                entries["Length"] = len(data)
                out += ser(entries, enc) + b"\nstream\n" + data + b"\nendstream"
            else:
                out += ser(obj, enc)
            out += b"\nendobj\n"
        file_id = hashlib.md5(bytes(out)).digest()
        xref = len(out)
        out += b"xref\n0 %d\n" % len(self.objects)
        out += b"0000000000 65535 f \n"
        for num in range(1, len(self.objects)):
            out += b"%010d 00000 n \n" % offsets[num]
        trailer = {"Size": len(self.objects), "Root": root}
        if info is not None:
            trailer["Info"] = info
        if enc_ref is not None:
            trailer["Encrypt"] = enc_ref
        trailer["ID"] = [file_id, file_id]
        out += b"trailer\n" + ser(trailer) + b"\nstartxref\n%d\n%%%%EOF\n" % xref
        return bytes(out)


# ---------------------------------------------------------------------------
# AES (pure Python, encryption direction only) and the R6 security handler
# ---------------------------------------------------------------------------


def _xtime(a):
    a <<= 1
    return (a ^ 0x11B) if a & 0x100 else a


def _make_sbox():
    sbox = [0] * 256
    p = q = 1
    while True:
        p = p ^ _xtime(p)  # p * 3
        q ^= q << 1  # q / 3
        q ^= q << 2
        q ^= q << 4
        q &= 0xFF
        if q & 0x80:
            q ^= 0x09
        x = q
        for s in (1, 2, 3, 4):
            x ^= ((q << s) | (q >> (8 - s))) & 0xFF
        sbox[p] = x ^ 0x63
        if p == 1:
            break
    sbox[0] = 0x63
    return sbox


_SBOX = _make_sbox()
_T0, _T1, _T2, _T3 = [], [], [], []
for _s in _SBOX:
    _m2 = _xtime(_s)
    _m3 = _m2 ^ _s
    _T0.append((_m2 << 24) | (_s << 16) | (_s << 8) | _m3)
    _T1.append((_m3 << 24) | (_m2 << 16) | (_s << 8) | _s)
    _T2.append((_s << 24) | (_m3 << 16) | (_m2 << 8) | _s)
    _T3.append((_s << 24) | (_s << 16) | (_m3 << 8) | _m2)


class AES:
    def __init__(self, key):
        nk = len(key) // 4
        assert nk in (4, 6, 8)
        self.nr = nk + 6
        w = [int.from_bytes(key[4 * i:4 * i + 4], "big") for i in range(nk)]
        rcon = 1
        S = _SBOX
        for i in range(nk, 4 * (self.nr + 1)):
            t = w[i - 1]
            if i % nk == 0:
                t = ((t << 8) & 0xFFFFFFFF) | (t >> 24)
                t = (S[t >> 24] << 24 | S[(t >> 16) & 255] << 16 | S[(t >> 8) & 255] << 8 | S[t & 255])
                t ^= rcon << 24
                rcon = _xtime(rcon)
            elif nk > 6 and i % nk == 4:
                t = (S[t >> 24] << 24 | S[(t >> 16) & 255] << 16 | S[(t >> 8) & 255] << 8 | S[t & 255])
            w.append(w[i - nk] ^ t)
        self.w = w

    def encrypt_words(self, s0, s1, s2, s3):
        w = self.w
        T0, T1, T2, T3, S = _T0, _T1, _T2, _T3, _SBOX
        s0 ^= w[0]
        s1 ^= w[1]
        s2 ^= w[2]
        s3 ^= w[3]
        k = 4
        for _ in range(self.nr - 1):
            t0 = T0[s0 >> 24] ^ T1[(s1 >> 16) & 255] ^ T2[(s2 >> 8) & 255] ^ T3[s3 & 255] ^ w[k]
            t1 = T0[s1 >> 24] ^ T1[(s2 >> 16) & 255] ^ T2[(s3 >> 8) & 255] ^ T3[s0 & 255] ^ w[k + 1]
            t2 = T0[s2 >> 24] ^ T1[(s3 >> 16) & 255] ^ T2[(s0 >> 8) & 255] ^ T3[s1 & 255] ^ w[k + 2]
            t3 = T0[s3 >> 24] ^ T1[(s0 >> 16) & 255] ^ T2[(s1 >> 8) & 255] ^ T3[s2 & 255] ^ w[k + 3]
            s0, s1, s2, s3 = t0, t1, t2, t3
            k += 4
        o0 = (S[s0 >> 24] << 24 | S[(s1 >> 16) & 255] << 16 | S[(s2 >> 8) & 255] << 8 | S[s3 & 255]) ^ w[k]
        o1 = (S[s1 >> 24] << 24 | S[(s2 >> 16) & 255] << 16 | S[(s3 >> 8) & 255] << 8 | S[s0 & 255]) ^ w[k + 1]
        o2 = (S[s2 >> 24] << 24 | S[(s3 >> 16) & 255] << 16 | S[(s0 >> 8) & 255] << 8 | S[s1 & 255]) ^ w[k + 2]
        o3 = (S[s3 >> 24] << 24 | S[(s0 >> 16) & 255] << 16 | S[(s1 >> 8) & 255] << 8 | S[s2 & 255]) ^ w[k + 3]
        return o0, o1, o2, o3

    def encrypt_block(self, block):
        words = struct.unpack(">4I", block)
        return struct.pack(">4I", *self.encrypt_words(*words))

    def encrypt_cbc(self, iv, data):
        """CBC without padding (len(data) must be a multiple of 16)."""
        assert len(data) % 16 == 0
        c0, c1, c2, c3 = struct.unpack(">4I", iv)
        words = struct.unpack(">%dI" % (len(data) // 4), data)
        out = []
        for i in range(0, len(words), 4):
            c0, c1, c2, c3 = self.encrypt_words(
                words[i] ^ c0, words[i + 1] ^ c1, words[i + 2] ^ c2, words[i + 3] ^ c3)
            out += (c0, c1, c2, c3)
        return struct.pack(">%dI" % len(out), *out)


def _aes_selftest():
    # FIPS-197 appendix C vectors
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    assert AES(bytes(range(16))).encrypt_block(pt).hex() == "69c4e0d86a7b0430d8cdb78070b4c55a"
    assert AES(bytes(range(32))).encrypt_block(pt).hex() == "8ea2b7ca516745bfeafc49904b496089"


def _r6_hash(password, salt, udata):
    """ISO 32000-2 algorithm 2.B."""
    k = hashlib.sha256(password + salt + udata).digest()
    i = 0
    while True:
        k1 = (password + k + udata) * 64
        e = AES(k[:16]).encrypt_cbc(k[16:32], k1)
        mod = sum(e[:16]) % 3
        k = (hashlib.sha256, hashlib.sha384, hashlib.sha512)[mod](e).digest()
        i += 1
        if i >= 64 and e[-1] <= i - 32:
            break
    return k[:32]


class DetRandom:
    """Deterministic stand-in for random bytes (fixture generation only!)."""

    def __init__(self, seed):
        self.seed = seed.encode("ascii")
        self.counter = 0

    def bytes(self, n):
        out = b""
        while len(out) < n:
            out += hashlib.sha256(self.seed + b"/%d" % self.counter).digest()
            self.counter += 1
        return out[:n]


class R6Encryption:
    """Standard security handler, V 5 / R 6, AESV3 (AES-256) for strings and streams."""

    def __init__(self, user_pw, owner_pw, permissions, seed):
        _aes_selftest()
        rnd = DetRandom(seed)
        self.rnd = rnd
        self.P = permissions
        self.key = rnd.bytes(32)
        upw = user_pw.encode("utf-8")[:127]
        opw = owner_pw.encode("utf-8")[:127]
        uvs, uks = rnd.bytes(8), rnd.bytes(8)
        self.U = _r6_hash(upw, uvs, b"") + uvs + uks
        self.UE = AES(_r6_hash(upw, uks, b"")).encrypt_cbc(bytes(16), self.key)
        ovs, oks = rnd.bytes(8), rnd.bytes(8)
        self.O = _r6_hash(opw, ovs, self.U) + ovs + oks
        self.OE = AES(_r6_hash(opw, oks, self.U)).encrypt_cbc(bytes(16), self.key)
        perms = struct.pack("<i", permissions) + b"\xff\xff\xff\xff" + b"Tadb" + rnd.bytes(4)
        self.Perms = AES(self.key).encrypt_block(perms)
        self.aes = AES(self.key)

    def dictionary(self):
        return {
            "Filter": N("Standard"), "V": 5, "R": 6, "Length": 256,
            "CF": {"StdCF": {"AuthEvent": N("DocOpen"), "CFM": N("AESV3"), "Length": 32}},
            "StmF": N("StdCF"), "StrF": N("StdCF"),
            "O": self.O, "U": self.U, "OE": self.OE, "UE": self.UE,
            "P": self.P, "Perms": self.Perms, "EncryptMetadata": True,
        }

    def _encrypt(self, data):
        iv = self.rnd.bytes(16)
        pad = 16 - len(data) % 16
        return iv + self.aes.encrypt_cbc(iv, data + bytes([pad]) * pad)

    def string_encryptor(self, num):
        return self._encrypt

    def encrypt_stream(self, num, data):
        return self._encrypt(data)


# ---------------------------------------------------------------------------
# Page content helpers
# ---------------------------------------------------------------------------

HELV_W = 0.556  # width of every digit in Helvetica and Helvetica-Bold (per 1 pt)
HELV_CAP = 0.718


def font_objects(pdf):
    f1 = pdf.add({"Type": N("Font"), "Subtype": N("Type1"), "BaseFont": N("Helvetica"),
                  "Encoding": N("WinAnsiEncoding")})
    f2 = pdf.add({"Type": N("Font"), "Subtype": N("Type1"), "BaseFont": N("Helvetica-Bold"),
                  "Encoding": N("WinAnsiEncoding")})
    return f1, f2


def std_resources(f1, f2):
    return {"Font": {"F1": f1, "F2": f2}, "ProcSet": [N("PDF"), N("Text")]}


def text(font, size, x, y, s, color=b"0 g"):
    return b"BT /%s %s Tf %s 1 0 0 1 %s %s Tm %s Tj ET\n" % (
        font.encode(), fmt_num(size).encode(), color, fmt_num(x).encode(),
        fmt_num(y).encode(), pdf_literal(s))


def rgb_op(rgb, stroke=False):
    return (" ".join(fmt_num(round(c / 255.0, 4)) for c in rgb) + (" RG" if stroke else " rg")).encode()


def page_parts(box, title, token, color, number, sub=None, header=120):
    """Standard fixture page, returned as named content fragments.

    box: [x0 y0 x1 y1] of the visible box (content is placed relative to it).
    Layout: black 36 pt orientation marker square at the top-left corner, title
    (Helvetica-Bold 28) and token (Helvetica 14) at the top, then a big rectangle
    filled with `color` whose lower 25 % band is empty and whose upper part holds
    `number` drawn huge (Helvetica-Bold).
    """
    x0, y0, x1, y1 = box
    rx0, ry0, rx1, ry1 = x0 + 36, y0 + 36, x1 - 36, y1 - header
    rw, rh = rx1 - rx0, ry1 - ry0
    digits = str(number)
    size = min(0.8 * rw / (HELV_W * len(digits)), 0.6 * rh / HELV_CAP)
    size = float(int(size))
    lum = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]
    dcol = b"0 g" if lum > 150 else b"1 g"
    parts = {
        "marker": b"0 g %s %s 36 36 re f" % (fmt_num(x0 + 18).encode(), fmt_num(y1 - 54).encode()),
        "title": text("F2", 28, x0 + 72, y1 - 48, title),
        "token": text("F1", 14, x0 + 72, y1 - 72, token),
        "sub": text("F1", 11, x0 + 72, y1 - 92, sub) if sub else b"",
        "rect": rgb_op(color) + b" %s %s %s %s re f" % tuple(fmt_num(v).encode() for v in (rx0, ry0, rw, rh)),
        "digit": text("F2", size, rx0 + (rw - HELV_W * size * len(digits)) / 2, ry0 + 0.25 * rh, digits, dcol),
    }
    facts = {
        "rect": [rx0, ry0, rx1, ry1],
        "probe": [rx0 + rw / 2, ry0 + 0.1 * rh],
        "marker_center": [x0 + 36, y1 - 36],
    }
    return parts, facts


def join_parts(parts, order=("marker", "title", "token", "sub", "rect", "digit"), extra=b""):
    ops = [parts[k] for k in order if parts.get(k)]
    if extra:
        ops.append(extra)
    return b"\n".join(op.rstrip(b"\n") for op in ops) + b"\n"


def display_fraction(pt, box, rotate):
    """Where user-space point `pt` lands on the rendered page, as fractions (x from
    the left, y from the top) of the displayed (cropped, rotated) page."""
    x0, y0, x1, y1 = box
    fx = (pt[0] - x0) / (x1 - x0)
    fy = (y1 - pt[1]) / (y1 - y0)
    r = rotate % 360
    if r == 0:
        res = (fx, fy)
    elif r == 90:
        res = (1 - fy, fx)
    elif r == 180:
        res = (1 - fx, 1 - fy)
    else:
        res = (fy, 1 - fx)
    return [round(res[0], 4), round(res[1], 4)]


def page_facts(number, mediabox, cropbox, rotate, color, token, label=None, facts=None):
    box = cropbox or mediabox
    w, h = box[2] - box[0], box[3] - box[1]
    d = {
        "page": number,
        "token": token,
        "mediabox": mediabox,
        "rotate": rotate,
        "size": [w, h],
        "display_size": [h, w] if rotate % 180 else [w, h],
        "color_rgb": list(color),
    }
    if cropbox:
        d["cropbox"] = cropbox
    if label is not None:
        d["label"] = label
    if facts:
        d["probe_fraction"] = display_fraction(facts["probe"], box, rotate)
        d["marker_fraction"] = display_fraction(facts["marker_center"], box, rotate)
    return d


LETTER = [0, 0, 612, 792]
A4 = [0, 0, 595, 842]
A5 = [0, 0, 420, 595]


def info_dict(pdf, title):
    return pdf.add({"Title": title, "Author": "pdfedit fixtures",
                    "Creator": "Fixtures/make-fixtures.py", "Producer": "Fixtures/make-fixtures.py"})


def simple_doc(name, label_word, token_prefix, box, colors, title=None, encryption=None,
               subs=None):
    """A flat page tree of standard pages. Returns (bytes, facts)."""
    pdf = PDF()
    cat = pdf.alloc()
    pages = pdf.alloc()
    f1, f2 = font_objects(pdf)
    res = std_resources(f1, f2)
    kids, pfacts = [], []
    for i, color in enumerate(colors, 1):
        token = "%s-P%d" % (token_prefix, i)
        parts, facts = page_parts(box, "%s page %d" % (label_word, i), token, color, i,
                                  sub=subs[i - 1] if subs else None)
        content = pdf.add(Stream(join_parts(parts)))
        kids.append(pdf.add({"Type": N("Page"), "Parent": pages, "MediaBox": box,
                             "Resources": res, "Contents": content}))
        pfacts.append(page_facts(i, box, None, 0, color, token, facts=facts))
    pdf.set(pages, {"Type": N("Pages"), "Kids": kids, "Count": len(kids)})
    catalog = {"Type": N("Catalog"), "Pages": pages}
    if encryption is not None:
        catalog["Extensions"] = {"ADBE": {"BaseVersion": N("1.7"), "ExtensionLevel": 8}}
    pdf.set(cat, catalog)
    info = info_dict(pdf, title or ("pdfedit fixture: %s" % name))
    return pdf.tobytes(cat, info, encryption), {"pages": pfacts}


# ---------------------------------------------------------------------------
# The individual PDFs
# ---------------------------------------------------------------------------

ALPHA_COLORS = [(220, 30, 30), (245, 140, 20), (235, 215, 30), (40, 160, 60),
                (30, 180, 200), (40, 70, 210), (150, 50, 190)]
BETA_COLORS = [(250, 150, 190), (140, 90, 40), (120, 130, 20), (0, 110, 110), (20, 20, 100)]
GAMMA_COLORS = [(128, 128, 128), (230, 30, 150), (160, 230, 60)]
SIZES_COLORS = [(255, 200, 150), (150, 200, 255), (200, 255, 200), (200, 170, 255)]
ROT_COLORS = [(255, 100, 100), (100, 200, 100), (100, 100, 255), (230, 180, 40)]
FEAT_COLORS = [(255, 235, 180), (210, 235, 255), (225, 255, 225), (255, 220, 240),
               (235, 225, 255), (240, 240, 210)]
TAG_COLORS = [(200, 200, 230), (230, 200, 200)]
ENC_COLORS = [(60, 60, 60), (180, 180, 180)]
OWNER_COLORS = [(100, 150, 100)]


def make_alpha():
    return simple_doc("alpha", "alpha", "ALPHA", LETTER, ALPHA_COLORS)


def make_beta():
    return simple_doc("beta", "beta", "BETA", A4, BETA_COLORS)


def make_gamma():
    return simple_doc("gamma", "gamma", "GAMMA", A5, GAMMA_COLORS)


def make_sizes():
    specs = [
        (A4, None, "A4 portrait 595 x 842"),
        ([0, 0, 792, 612], [36, 36, 756, 576], "Letter landscape 792 x 612, CropBox 720 x 540"),
        (A5, None, "A5 portrait 420 x 595"),
        ([100, 200, 695, 1042], None, "A4-sized MediaBox with origin 100 200"),
    ]
    pdf = PDF()
    cat = pdf.alloc()
    pages = pdf.alloc()
    f1, f2 = font_objects(pdf)
    res = std_resources(f1, f2)
    kids, pfacts = [], []
    for i, ((media, crop, sub), color) in enumerate(zip(specs, SIZES_COLORS), 1):
        box = crop or media
        token = "SIZES-P%d" % i
        parts, facts = page_parts(box, "sizes page %d" % i, token, color, i, sub=sub)
        extra = b""
        if crop:
            # Paint the area outside the CropBox (visible only when the MediaBox is shown).
            extra = b"0.6 g %s re %s re f*" % (
                " ".join(fmt_num(v) for v in (media[0], media[1], media[2] - media[0], media[3] - media[1])).encode(),
                " ".join(fmt_num(v) for v in (crop[0], crop[1], crop[2] - crop[0], crop[3] - crop[1])).encode())
        content = pdf.add(Stream(join_parts(parts, extra=extra)))
        page = {"Type": N("Page"), "Parent": pages, "MediaBox": media}
        if crop:
            page["CropBox"] = crop
        page.update({"Resources": res, "Contents": content})
        kids.append(pdf.add(page))
        pfacts.append(page_facts(i, media, crop, 0, color, token, facts=facts))
    pdf.set(pages, {"Type": N("Pages"), "Kids": kids, "Count": len(kids)})
    pdf.set(cat, {"Type": N("Catalog"), "Pages": pages})
    return pdf.tobytes(cat, info_dict(pdf, "pdfedit fixture: sizes")), {"pages": pfacts}


def make_rotated():
    pdf = PDF()
    cat = pdf.alloc()
    root = pdf.alloc()
    mid = pdf.alloc()
    f1, f2 = font_objects(pdf)
    res = std_resources(f1, f2)
    pfacts = []

    def content(i, box):
        token = "ROT-P%d" % i
        parts, facts = page_parts(box, "rot page %d" % i, token, ROT_COLORS[i - 1], i)
        return pdf.add(Stream(join_parts(parts))), token, facts

    # page 1: directly under the root, own /Rotate 0
    c, token, facts = content(1, LETTER)
    p1 = pdf.add({"Type": N("Page"), "Parent": root, "MediaBox": LETTER, "Rotate": 0,
                  "Resources": res, "Contents": c})
    pfacts.append(page_facts(1, LETTER, None, 0, ROT_COLORS[0], token, facts=facts))
    # pages 2-3: under an intermediate node carrying /Rotate 90, /MediaBox, /Resources
    mid_kids = []
    for i in (2, 3):
        c, token, facts = content(i, A5)
        mid_kids.append(pdf.add({"Type": N("Page"), "Parent": mid, "Contents": c}))
        pfacts.append(page_facts(i, A5, None, 90, ROT_COLORS[i - 1], token, facts=facts))
    pdf.set(mid, {"Type": N("Pages"), "Parent": root, "Kids": mid_kids, "Count": 2,
                  "Rotate": 90, "MediaBox": A5, "Resources": res})
    # page 4: directly under the root, own /Rotate 270
    c, token, facts = content(4, LETTER)
    p4 = pdf.add({"Type": N("Page"), "Parent": root, "MediaBox": LETTER, "Rotate": 270,
                  "Resources": res, "Contents": c})
    pfacts.append(page_facts(4, LETTER, None, 270, ROT_COLORS[3], token, facts=facts))
    pdf.set(root, {"Type": N("Pages"), "Kids": [p1, mid, p4], "Count": 4})
    pdf.set(cat, {"Type": N("Catalog"), "Pages": root})
    return pdf.tobytes(cat, info_dict(pdf, "pdfedit fixture: rotated")), {"pages": pfacts}


ODD_COLORS = [(240, 120, 60), (60, 160, 220), (170, 90, 200), (120, 200, 140)]


def make_odd_rotate():
    """Pages whose /Rotate is not a multiple of 90 (viewers show them unturned), one
    with a negative /Rotate, and one of 18000 x 36000 pt (MediaBox 1800 x 3600 with
    /UserUnit 10, beyond the 14,400-unit limit without it)."""
    pdf = PDF()
    cat = pdf.alloc()
    pages = pdf.alloc()
    f1, f2 = font_objects(pdf)
    res = std_resources(f1, f2)
    big = [0, 0, 1800, 3600]
    # (box, /Rotate as written, the turn viewers give it, /UserUnit)
    specs = [(LETTER, 135, 0, None), (A5, 45, 0, None), (LETTER, -90, 270, None), (big, 0, 0, 10)]
    kids, pfacts = [], []
    for i, ((box, written, shown, unit), color) in enumerate(zip(specs, ODD_COLORS), 1):
        token = "ODD-P%d" % i
        parts, facts = page_parts(box, "odd page %d" % i, token, color, i)
        content = pdf.add(Stream(join_parts(parts)))
        page = {"Type": N("Page"), "Parent": pages, "MediaBox": box}
        if written:
            page["Rotate"] = written
        if unit:
            page["UserUnit"] = unit
        page.update({"Resources": res, "Contents": content})
        kids.append(pdf.add(page))
        fact = page_facts(i, box, None, shown, color, token, facts=facts)
        # pdfinfo prints /Rotate as written (normalised into 0..359), not as shown.
        fact["rotate"] = written % 360
        fact["shown_rotate"] = shown
        if unit:
            fact["user_unit"] = unit
        pfacts.append(fact)
    pdf.set(pages, {"Type": N("Pages"), "Kids": kids, "Count": len(kids)})
    pdf.set(cat, {"Type": N("Catalog"), "Pages": pages})
    return pdf.tobytes(cat, info_dict(pdf, "pdfedit fixture: odd-rotate")), {"pages": pfacts}


def make_features():
    pdf = PDF()
    cat = pdf.alloc()
    pages = pdf.alloc()
    f1, f2 = font_objects(pdf)
    zadb = pdf.add({"Type": N("Font"), "Subtype": N("Type1"), "BaseFont": N("ZapfDingbats")})
    res = std_resources(f1, f2)
    p = [pdf.alloc() for _ in range(6)]
    titles = ["Chapter 1", "Section 1.1", "Section 1.2", "Chapter 2", "Section 2.1", "Appendix"]
    labels = ["i", "ii", "1", "2", "3", "4"]
    W, H = 612, 792
    annots = {i: [] for i in range(6)}
    extra = {i: b"" for i in range(6)}

    # --- link annotations (visible blue text in the header band, y = 792-150) ---
    link_y = H - 150
    extra[0] += text("F1", 14, 72, link_y, "Go to page 5 (Section 2.1)", b"0 0 0.8 rg")
    annots[0].append(pdf.add({"Type": N("Annot"), "Subtype": N("Link"),
                              "Rect": [68, link_y - 5, 260, link_y + 15], "Border": [0, 0, 0],
                              "Dest": [p[4], N("XYZ"), None, None, None]}))
    extra[1] += text("F1", 14, 72, link_y, "https://example.org/pdfedit", b"0 0 0.8 rg")
    annots[1].append(pdf.add({"Type": N("Annot"), "Subtype": N("Link"),
                              "Rect": [68, link_y - 5, 260, link_y + 15], "Border": [0, 0, 0],
                              "A": {"S": N("URI"), "URI": "https://example.org/pdfedit"}}))
    extra[5] += text("F1", 14, 72, link_y, "Back to Chapter 2", b"0 0 0.8 rg")
    annots[5].append(pdf.add({"Type": N("Annot"), "Subtype": N("Link"),
                              "Rect": [68, link_y - 5, 200, link_y + 15], "Border": [0, 0, 0],
                              "A": {"S": N("GoTo"), "D": "chapter.2"}}))

    # --- AcroForm: text field "name" on page 2, checkbox "agree" on page 3 ---
    fy = H - 185
    extra[1] += text("F1", 12, 72, fy + 7, "Name:")
    name_ap = pdf.add(Stream(
        b"1 g 0 0 250 24 re f\n0 G 1 w 0.5 0.5 249 23 re S\n"
        b"/Tx BMC\nq 1 1 248 22 re W n\nBT /Helv 12 Tf 0 g 4 7 Td (Jane Doe) Tj ET\nQ\nEMC\n",
        {"Type": N("XObject"), "Subtype": N("Form"), "BBox": [0, 0, 250, 24],
         "Resources": {"Font": {"Helv": f1}}}))
    name_field = pdf.add({"Type": N("Annot"), "Subtype": N("Widget"), "FT": N("Tx"), "T": "name",
                          "TU": "Your name", "V": "Jane Doe", "DA": "/Helv 12 Tf 0 g",
                          "Rect": [150, fy, 400, fy + 24], "P": p[1], "F": 4,
                          "MK": {"BC": [0, 0, 0], "BG": [1, 1, 1]},
                          "AP": {"N": name_ap}})
    annots[1].append(name_field)
    extra[2] += text("F1", 12, 100, fy + 6, "I agree (checkbox \"agree\", checked)")
    box_ops = b"1 g 0 0 20 20 re f\n0 G 1 w 0.5 0.5 19 19 re S\n"
    ap_yes = pdf.add(Stream(box_ops + b"0 g 2 w 1 J 1 j 4 10 m 8 5 l 16 16 l S\n",
                            {"Type": N("XObject"), "Subtype": N("Form"), "BBox": [0, 0, 20, 20],
                             "Resources": {}}))
    ap_off = pdf.add(Stream(box_ops, {"Type": N("XObject"), "Subtype": N("Form"),
                                      "BBox": [0, 0, 20, 20], "Resources": {}}))
    agree_field = pdf.add({"Type": N("Annot"), "Subtype": N("Widget"), "FT": N("Btn"), "T": "agree",
                           "TU": "I agree", "V": N("Yes"), "AS": N("Yes"), "DA": "/ZaDb 0 Tf 0 g",
                           "Rect": [72, fy + 2, 92, fy + 22], "P": p[2], "F": 4,
                           "MK": {"BC": [0, 0, 0], "BG": [1, 1, 1], "CA": "4"},
                           "AP": {"N": {"Yes": ap_yes, "Off": ap_off}}})
    annots[2].append(agree_field)

    pfacts = []
    for i in range(6):
        token = "FEAT-P%d" % (i + 1)
        parts, facts = page_parts(LETTER, "features page %d" % (i + 1), token, FEAT_COLORS[i], i + 1,
                                  sub=titles[i], header=220)
        content = pdf.add(Stream(join_parts(parts, extra=extra[i])))
        page = {"Type": N("Page"), "Parent": pages, "MediaBox": LETTER, "Resources": res,
                "Contents": content}
        if annots[i]:
            page["Annots"] = annots[i]
        pdf.set(p[i], page)
        pfacts.append(page_facts(i + 1, LETTER, None, 0, FEAT_COLORS[i], token, labels[i], facts))
    pdf.set(pages, {"Type": N("Pages"), "Kids": p, "Count": 6})

    # --- named destinations (name tree, keys sorted) ---
    dests = pdf.add({"Names": [
        "appendix", [p[5], N("Fit")],
        "chapter.2", [p[3], N("XYZ"), 0, 792, None],
        "section.1.1", [p[1], N("XYZ"), 72, 792, None],
    ]})

    # --- outlines ---
    outlines = pdf.alloc()
    ch1, s11, s12, ch2, s21, app = (pdf.alloc() for _ in range(6))
    pdf.set(ch1, {"Title": "Chapter 1", "Parent": outlines, "Next": ch2, "First": s11, "Last": s12,
                  "Count": 2, "Dest": [p[0], N("XYZ"), None, None, None]})
    pdf.set(s11, {"Title": "Section 1.1", "Parent": ch1, "Next": s12, "Dest": "section.1.1"})
    pdf.set(s12, {"Title": "Section 1.2", "Parent": ch1, "Prev": s11, "Dest": [p[2], N("Fit")]})
    pdf.set(ch2, {"Title": "Chapter 2", "Parent": outlines, "Prev": ch1, "Next": app, "First": s21,
                  "Last": s21, "Count": -1, "Dest": "chapter.2"})
    pdf.set(s21, {"Title": "Section 2.1", "Parent": ch2,
                  "A": {"S": N("GoTo"), "D": [p[4], N("XYZ"), 72, 720, 0]}})
    pdf.set(app, {"Title": "Appendix", "Parent": outlines, "Prev": ch2,
                  "A": {"S": N("GoTo"), "D": "appendix"}})
    pdf.set(outlines, {"Type": N("Outlines"), "First": ch1, "Last": app, "Count": 5})

    pdf.set(cat, {
        "Type": N("Catalog"), "Pages": pages, "Outlines": outlines, "PageMode": N("UseOutlines"),
        "Names": {"Dests": dests},
        "PageLabels": {"Nums": [0, {"S": N("r")}, 2, {"S": N("D"), "St": 1}]},
        "AcroForm": {"Fields": [name_field, agree_field],
                     "DR": {"Font": {"Helv": f1, "ZaDb": zadb}},
                     "DA": "/Helv 0 Tf 0 g"},
    })
    info = info_dict(pdf, "pdfedit features fixture")
    facts = {
        "pages": pfacts,
        "title": "pdfedit features fixture",
        "outlines": [
            {"title": "Chapter 1", "page": 1, "dest": "explicit [p1 /XYZ null null null]", "open": True,
             "kids": [
                 {"title": "Section 1.1", "page": 2, "dest": "named (section.1.1) via /Dest"},
                 {"title": "Section 1.2", "page": 3, "dest": "explicit [p3 /Fit]"}]},
            {"title": "Chapter 2", "page": 4, "dest": "named (chapter.2) via /Dest", "open": False,
             "kids": [{"title": "Section 2.1", "page": 5,
                       "dest": "explicit via /A GoTo [p5 /XYZ 72 720 0]"}]},
            {"title": "Appendix", "page": 6, "dest": "named (appendix) via /A GoTo"},
        ],
        "named_dests": {"appendix": 6, "chapter.2": 4, "section.1.1": 2},
        "links": [
            {"page": 1, "kind": "Dest explicit", "target_page": 5},
            {"page": 2, "kind": "URI", "uri": "https://example.org/pdfedit"},
            {"page": 6, "kind": "GoTo named (chapter.2)", "target_page": 4},
        ],
        "fields": [
            {"name": "name", "type": "Tx", "value": "Jane Doe", "page": 2},
            {"name": "agree", "type": "Btn (checkbox)", "value": "/Yes", "on_state": "Yes", "page": 3},
        ],
        "labels": labels,
    }
    return pdf.tobytes(cat, info), facts


def make_tagged():
    pdf = PDF()
    cat = pdf.alloc()
    pages = pdf.alloc()
    f1, f2 = font_objects(pdf)
    res = std_resources(f1, f2)
    tree_root = pdf.alloc()
    doc_elem = pdf.alloc()
    kids, elems, parent_nums, pfacts = [], [], [], []
    for i, color in enumerate(TAG_COLORS, 1):
        token = "TAG-P%d" % i
        parts, facts = page_parts(LETTER, "tagged page %d" % i, token, color, i)
        content = (b"/Artifact BMC\n" + parts["marker"] + b"\nEMC\n"
                   b"/H1 << /MCID 0 >> BDC\n" + parts["title"] + b"\nEMC\n"
                   b"/P << /MCID 1 >> BDC\n" + parts["token"] + b"\nEMC\n"
                   b"/Artifact BMC\n" + parts["rect"] + b"\n" + parts["digit"] + b"\nEMC\n")
        page = pdf.alloc()
        h1 = pdf.add({"Type": N("StructElem"), "S": N("H1"), "P": doc_elem, "Pg": page, "K": 0})
        para = pdf.add({"Type": N("StructElem"), "S": N("P"), "P": doc_elem, "Pg": page, "K": 1})
        elems += [h1, para]
        parent_nums += [i - 1, [h1, para]]
        pdf.set(page, {"Type": N("Page"), "Parent": pages, "MediaBox": LETTER, "Resources": res,
                       "Contents": pdf.add(Stream(content)), "StructParents": i - 1,
                       "Tabs": N("S")})
        kids.append(page)
        pfacts.append(page_facts(i, LETTER, None, 0, color, token, facts=facts))
    pdf.set(doc_elem, {"Type": N("StructElem"), "S": N("Document"), "P": tree_root, "K": elems})
    pdf.set(tree_root, {"Type": N("StructTreeRoot"), "K": doc_elem,
                        "ParentTree": {"Nums": parent_nums}, "ParentTreeNextKey": len(kids)})
    pdf.set(pages, {"Type": N("Pages"), "Kids": kids, "Count": len(kids)})
    pdf.set(cat, {"Type": N("Catalog"), "Pages": pages, "MarkInfo": {"Marked": True},
                  "StructTreeRoot": tree_root, "Lang": "en-US",
                  "ViewerPreferences": {"DisplayDocTitle": True}})
    return pdf.tobytes(cat, info_dict(pdf, "pdfedit fixture: tagged")), {"pages": pfacts}


def make_encrypted():
    enc = R6Encryption("secret", "owner", -4, "pdfedit-fixtures/encrypted.pdf")
    data, facts = simple_doc("encrypted", "encrypted", "ENC", LETTER, ENC_COLORS, encryption=enc)
    facts.update({"user_password": "secret", "owner_password": "owner", "encryption": "AES-256 (V5 R6)",
                  "P": -4})
    return data, facts


def make_owner_only():
    # P = -4 with bit 11 (assemble, 0x400) cleared
    enc = R6Encryption("", "owner", -1028, "pdfedit-fixtures/owner-only.pdf")
    data, facts = simple_doc("owner-only", "owner-only", "OWNER", LETTER, OWNER_COLORS, encryption=enc)
    facts.update({"user_password": "", "owner_password": "owner", "encryption": "AES-256 (V5 R6)",
                  "P": -1028, "assemble_allowed": False})
    return data, facts


def make_stamp():
    pdf = PDF()
    cat = pdf.alloc()
    pages = pdf.alloc()
    f1, f2 = font_objects(pdf)
    size = 48
    width = 3.388 * size  # "DRAFT" in Helvetica-Bold: 722+722+722+611+611 = 3388/1000 em
    x = (200 - width) / 2
    y = (100 - HELV_CAP * size) / 2
    content = (b"/GS1 gs\n1 0 0 RG 3 w 6 6 188 88 re S\n"
               + text("F2", size, x, y, "DRAFT", b"1 0 0 rg") + b"\n")
    res = {"Font": {"F2": f2}, "ExtGState": {"GS1": {"Type": N("ExtGState"), "ca": 0.5, "CA": 0.5}},
           "ProcSet": [N("PDF"), N("Text")]}
    page = pdf.add({"Type": N("Page"), "Parent": pages, "MediaBox": [0, 0, 200, 100],
                    "Resources": res, "Contents": pdf.add(Stream(content))})
    pdf.set(pages, {"Type": N("Pages"), "Kids": [page], "Count": 1})
    pdf.set(cat, {"Type": N("Catalog"), "Pages": pages})
    facts = {"pages": [{"page": 1, "mediabox": [0, 0, 200, 100], "size": [200, 100], "rotate": 0,
                        "token": "DRAFT"}],
             "notes": "red (1 0 0) text and 3 pt border, drawn with /ca 0.5 /CA 0.5; no background fill"}
    return pdf.tobytes(cat, info_dict(pdf, "pdfedit fixture: stamp")), facts


# ---------------------------------------------------------------------------
# PNG writer (hand-made, filters cycle 0..4 per scanline)
# ---------------------------------------------------------------------------


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _filter_rows(rows, bpp):
    out = bytearray()
    prior = bytes(len(rows[0])) if rows else b""
    for idx, raw in enumerate(rows):
        ft = idx % 5
        out.append(ft)
        for i in range(len(raw)):
            a = raw[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            pred = (0, a, b, (a + b) // 2, _paeth(a, b, c))[ft]
            out.append((raw[i] - pred) & 0xFF)
        prior = raw
    return bytes(out)


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def make_png(width, height, color_type, bit_depth, pixel, plte=None, ppm=None, interlace=False):
    """pixel(x, y) -> bytes of one pixel (bit depth 8 or 16 only)."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    bpp = channels * bit_depth // 8
    if interlace:
        data = bytearray()
        for xs, ys, dx, dy in ADAM7:
            xr = range(xs, width, dx)
            rows = [b"".join(pixel(x, y) for x in xr) for y in range(ys, height, dy)]
            if rows and len(xr):
                data += _filter_rows(rows, bpp)
        data = bytes(data)
    else:
        rows = [b"".join(pixel(x, y) for x in range(width)) for y in range(height)]
        data = _filter_rows(rows, bpp)
    out = b"\x89PNG\r\n\x1a\n"
    out += _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0,
                                       1 if interlace else 0))
    if ppm:
        out += _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    if plte:
        out += _chunk(b"PLTE", b"".join(bytes(c) for c in plte))
    out += _chunk(b"IDAT", zlib.compress(data, 9))
    out += _chunk(b"IEND", b"")
    return out


def make_logo():
    W = H = 64

    def pixel(x, y):
        dx, dy = x + 0.5 - 32, y + 0.5 - 32
        d = (dx * dx + dy * dy) ** 0.5
        a = max(0.0, min(1.0, 28.5 - d))
        if a == 0:
            return b"\0\0\0\0"
        ex, ey = x + 0.5 - 20, y + 0.5 - 20
        if ex * ex + ey * ey <= 36:
            rgb = (255, 150, 0)  # orange dot in the upper-left part of the disc
        else:
            rgb = (30, 120, 220)
        return bytes(rgb + (int(round(a * 255)),))

    return make_png(W, H, 6, 8, pixel, ppm=5669)


def make_gray16():
    W = H = 32

    def pixel(x, y):
        return struct.pack(">H", round(65535 * (y * W + x) / (W * H - 1)))

    return make_png(W, H, 0, 16, pixel)


PALETTE = [(0, 0, 0), (255, 255, 255), (220, 30, 30), (40, 160, 60), (40, 70, 210), (235, 215, 30)]


def make_palette():
    def pixel(x, y):
        return bytes([((x // 8) + (y // 16)) % 6])

    return make_png(48, 48, 3, 8, pixel, plte=PALETTE)


def make_interlaced():
    W, H = 43, 31

    def pixel(x, y):
        if x < 5 and y < 5:
            return b"\0\0\0"
        return bytes([x * 255 // (W - 1), y * 255 // (H - 1), 200 if (x + y) % 2 else 50])

    return make_png(W, H, 2, 8, pixel, interlace=True)


# ---------------------------------------------------------------------------
# JPEGs (Pillow)
# ---------------------------------------------------------------------------


def _photo_scene(w, h):
    """RGB pattern: red grows left->right, green top->bottom, blue stripes 15 px wide;
    a black 24x24 block at the top-left corner, a white 16x16 block at the top-right."""
    from PIL import Image
    px = bytearray()
    for y in range(h):
        for x in range(w):
            if x < 24 and y < 24:
                px += bytes((0, 0, 0))
            elif x >= w - 16 and y < 16:
                px += bytes((255, 255, 255))
            else:
                px += bytes((x * 255 // (w - 1), y * 255 // (h - 1), 170 if (x // 15) % 2 == 0 else 60))
    return Image.frombytes("RGB", (w, h), bytes(px))


def _to_cmyk(img):
    """RGB -> CMYK with full black generation (K = min(C, M, Y)), so that black is
    (0, 0, 0, 255) and white (0, 0, 0, 0); Pillow's own convert() never uses K."""
    from PIL import Image
    rgb = img.tobytes()
    px = bytearray()
    for i in range(0, len(rgb), 3):
        c, m, y = 255 - rgb[i], 255 - rgb[i + 1], 255 - rgb[i + 2]
        k = min(c, m, y)
        px += bytes((c - k, m - k, y - k, k))
    return Image.frombytes("CMYK", img.size, bytes(px))


def make_jpegs():
    try:
        from PIL import Image
    except ImportError:
        sys.exit("make-fixtures.py: the JPEG fixtures need Pillow: pip install pillow")
    import io

    def save(img, **kw):
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=90, optimize=False, **kw)
        return buf.getvalue()

    scene = _photo_scene(120, 80)
    out = {
        "photo.jpg": save(scene, dpi=(72, 72)),
        "photo-cmyk.jpg": save(_to_cmyk(scene), dpi=(72, 72)),
        "photo-gray.jpg": save(scene.convert("L"), dpi=(72, 72)),
        "photo-progressive.jpg": save(scene, dpi=(72, 72), progressive=True),
    }
    portrait = _photo_scene(80, 120)
    stored = portrait.transpose(Image.Transpose.ROTATE_90)  # 90 deg counter-clockwise -> 120x80
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90 CW to display
    out["photo-exif-rot.jpg"] = save(stored, dpi=(72, 72), exif=exif.tobytes())
    return out


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

NOTAPDF = b"This is not a PDF file.\nIt is plain text with a .pdf extension (pdfedit fixture).\n"
FAKEPNG = b"This is not a PNG image.\nIt is plain text with a .png extension (pdfedit fixture).\n"


def generate():
    """Return {filename: bytes} for every generated fixture (including fixtures.json)."""
    files, manifest = {}, {}
    for name, fn in [("alpha.pdf", make_alpha), ("beta.pdf", make_beta), ("gamma.pdf", make_gamma),
                     ("sizes.pdf", make_sizes), ("rotated.pdf", make_rotated),
                     ("features.pdf", make_features), ("encrypted.pdf", make_encrypted),
                     ("owner-only.pdf", make_owner_only), ("tagged.pdf", make_tagged),
                     ("stamp.pdf", make_stamp), ("odd-rotate.pdf", make_odd_rotate)]:
        data, facts = fn()
        files[name] = data
        facts["page_count"] = len(facts["pages"])
        manifest[name] = facts

    alpha = files["alpha.pdf"]
    cut = len(alpha) * 60 // 100
    assert cut < alpha.rindex(b"xref\n"), "truncation must happen before the xref table"
    files["truncated.pdf"] = alpha[:cut]
    manifest["truncated.pdf"] = {"broken": True, "notes": "first %d of %d bytes of alpha.pdf; no xref, "
                                 "no trailer" % (cut, len(alpha))}
    files["notapdf.pdf"] = NOTAPDF
    manifest["notapdf.pdf"] = {"broken": True, "notes": "plain text"}
    files["empty.pdf"] = b""
    manifest["empty.pdf"] = {"broken": True, "notes": "zero bytes"}
    files["fake.png"] = FAKEPNG
    manifest["fake.png"] = {"broken": True, "notes": "plain text"}

    files["logo.png"] = make_logo()
    manifest["logo.png"] = {"width": 64, "height": 64, "color": "RGBA 8-bit", "dpi": 144,
                            "pHYs_pixels_per_metre": 5669}
    files["gray16.png"] = make_gray16()
    manifest["gray16.png"] = {"width": 32, "height": 32, "color": "gray 16-bit", "dpi": None}
    files["palette.png"] = make_palette()
    manifest["palette.png"] = {"width": 48, "height": 48, "color": "palette 8-bit, 6 entries",
                               "palette": [list(c) for c in PALETTE], "dpi": None}
    files["interlaced.png"] = make_interlaced()
    manifest["interlaced.png"] = {"width": 43, "height": 31, "color": "RGB 8-bit, Adam7", "dpi": None}

    for name, data in make_jpegs().items():
        files[name] = data
    jpeg_facts = {
        "photo.jpg": {"width": 120, "height": 80, "color": "RGB (YCbCr) baseline", "dpi": 72},
        "photo-cmyk.jpg": {"width": 120, "height": 80, "color": "CMYK, Adobe APP14 transform 0, inverted",
                           "dpi": 72},
        "photo-gray.jpg": {"width": 120, "height": 80, "color": "grayscale baseline", "dpi": 72},
        "photo-progressive.jpg": {"width": 120, "height": 80, "color": "RGB (YCbCr) progressive", "dpi": 72},
        "photo-exif-rot.jpg": {"width": 120, "height": 80, "color": "RGB (YCbCr) baseline", "dpi": 72,
                               "exif_orientation": 6, "display_width": 80, "display_height": 120},
    }
    manifest.update(jpeg_facts)
    files["fixtures.json"] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    return files


def write_all(outdir):
    os.makedirs(outdir, exist_ok=True)
    files = generate()
    for name, data in sorted(files.items()):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
    return files


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) > 1 and argv[1] == "--check":
        tmp = tempfile.mkdtemp(prefix="pdfedit-fixtures-")
        try:
            files = write_all(tmp)
            bad = 0
            for name in sorted(files):
                committed = os.path.join(HERE, name)
                fresh = os.path.join(tmp, name)
                if not os.path.exists(committed):
                    print("MISSING  %s" % name)
                    bad += 1
                    continue
                with open(committed, "rb") as a, open(fresh, "rb") as b:
                    if a.read() != b.read():
                        print("DIFFERS  %s" % name)
                        bad += 1
                        continue
                print("ok       %s" % name)
            print("%d of %d fixtures identical" % (len(files) - bad, len(files)))
            return 1 if bad else 0
        finally:
            shutil.rmtree(tmp)
    outdir = argv[1] if len(argv) > 1 else HERE
    files = write_all(outdir)
    print("wrote %d files to %s" % (len(files), outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
