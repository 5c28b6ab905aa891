#!/usr/bin/env python3
"""Verify the pdfedit fixtures with qpdf and poppler-utils (no Pillow needed).

Usage: python3 Fixtures/verify-fixtures.py [DIR]    (default: the folder of this script)

Checks, driven by DIR/fixtures.json:
  * every well-formed PDF: `qpdf --check` exits 0 and prints no warning; pdfinfo gives the
    page count, the size (CropBox, unrotated) and the rotation of every page; pdftotext on
    page N alone prints that page's token and no other page's token, with nothing on stderr;
    `pdftoppm -r 20 -cropbox` renders every page, the probe point has the page's colour
    and the orientation marker is black where fixtures.json says;
  * features.pdf: outlines (titles, nesting, target pages), page labels, form fields, links;
  * encrypted PDFs: passwords, permissions, encryption method;
  * broken files are rejected by qpdf; images have the declared sizes, kinds and dpi;
  * size budget: every generated file < 30 KB, all of them together < 300 KB.
Exit status 0 when everything passes; prints `N passed, N failed`.
"""

import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = sys.argv[1] if len(sys.argv) > 1 else HERE
PASSED = FAILED = 0


def ok(cond, what):
    global PASSED, FAILED
    if cond:
        PASSED += 1
    else:
        FAILED += 1
        print("FAIL: " + what)
    return cond


def run(*args):
    p = subprocess.run(list(args), capture_output=True)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def path(name):
    return os.path.join(DIR, name)


def read_ppm(fn):
    data = open(fn, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    assert fields[0] == b"P6"
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:]


def pixel(img, fx, fy):
    w, h, px = img
    x = min(w - 1, int(fx * w))
    y = min(h - 1, int(fy * h))
    i = 3 * (y * w + x)
    return tuple(px[i:i + 3])


def check_pdf(name, facts, pw_args=(), qpdf_pw=()):
    f = path(name)
    rc, out, err = run("qpdf", "--check", *qpdf_pw, f)
    ok(rc == 0 and "WARNING" not in (out + err).upper(), "%s: qpdf --check rc=%d %s" % (name, rc, err.strip()))
    n = facts["page_count"]
    rc, out, err = run("pdfinfo", *pw_args, "-f", "1", "-l", str(n), f)
    ok(rc == 0 and ("Pages:           %d\n" % n) in out, "%s: pdfinfo page count" % name)
    for pg in facts["pages"]:
        i = pg["page"]
        w, h = pg["size"]
        ok(("Page %4d size:  %g x %g pts" % (i, w, h)) in out, "%s p%d: pdfinfo size %gx%g" % (name, i, w, h))
        ok(("Page %4d rot:   %d\n" % (i, pg["rotate"])) in out, "%s p%d: pdfinfo rot %d" % (name, i, pg["rotate"]))
        rc, txt, err = run("pdftotext", *pw_args, "-f", str(i), "-l", str(i), f, "-")
        lines = txt.split("\n")
        ok(rc == 0 and err == "" and pg["token"] in lines, "%s p%d: pdftotext token %s" % (name, i, pg["token"]))
        for other in facts["pages"]:
            if other["page"] != i:
                ok(other["token"] not in lines, "%s p%d: token %s leaks" % (name, i, other["token"]))
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run("pdftoppm", *pw_args, "-r", "20", "-cropbox", f, os.path.join(tmp, "p"))
        ok(rc == 0 and err == "", "%s: pdftoppm -r 20: %s" % (name, err.strip()))
        files = sorted(os.listdir(tmp))
        ok(len(files) == n, "%s: pdftoppm rendered %d pages" % (name, len(files)))
        for pg, fn in zip(facts["pages"], files):
            img = read_ppm(os.path.join(tmp, fn))
            dw, dh = pg.get("display_size", pg["size"])
            ok(abs(img[0] / img[1] - dw / dh) < 0.03, "%s p%d: rendered aspect" % (name, pg["page"]))
            if "probe_fraction" in pg:
                got = pixel(img, *pg["probe_fraction"])
                ok(all(abs(a - b) <= 12 for a, b in zip(got, pg["color_rgb"])),
                   "%s p%d: probe colour %s != %s" % (name, pg["page"], got, pg["color_rgb"]))
                got = pixel(img, *pg["marker_fraction"])
                ok(max(got) < 80, "%s p%d: marker not black: %s" % (name, pg["page"], got))


def check_features(facts):
    f = path("features.pdf")
    rc, out, err = run("qpdf", "--json", "--json-key=outlines", "--json-key=pagelabels",
                       "--json-key=acroform", "--json-key=pages", f)
    d = json.loads(out)

    def simplify(items):
        return [(o["title"], o["destpageposfrom1"], simplify(o["kids"])) for o in items]

    def expect(items):
        return [(o["title"], o["page"], expect(o.get("kids", []))) for o in items]

    ok(simplify(d["outlines"]) == expect(facts["outlines"]), "features: outlines %s" % simplify(d["outlines"]))
    labels = []
    for p in d["pages"]:
        lab = p["label"]
        labels.append({"/r": lambda n: ["i", "ii", "iii", "iv", "v", "vi"][n - 1], "/D": str}[lab["/S"]](lab["/St"]))
    ok(labels == facts["labels"], "features: labels %s" % labels)
    fields = {x["fullname"]: (x["fieldtype"], x["value"], x["pageposfrom1"]) for x in d["acroform"]["fields"]}
    ok(fields == {"name": ("/Tx", "u:Jane Doe", 2), "agree": ("/Btn", "/Yes", 3)}, "features: fields %s" % fields)
    rc, out, err = run("qpdf", "--json", "--json-key=qpdf", f)
    objs = json.loads(out)["qpdf"][1]
    links = [o["value"] for o in objs.values() if isinstance(o.get("value"), dict)
             and o["value"].get("/Subtype") == "/Link"]
    uris = [l["/A"]["/URI"] for l in links if "/A" in l and l["/A"].get("/S") == "/URI"]
    ok(uris == ["u:https://example.org/pdfedit"], "features: URI link")
    ok(len(links) == 3, "features: 3 link annotations")


def check_encryption():
    rc, out, err = run("qpdf", "--requires-password", path("encrypted.pdf"))
    ok(rc == 0, "encrypted.pdf: requires a password")
    rc, out, err = run("qpdf", "--check", path("encrypted.pdf"))
    ok(rc != 0, "encrypted.pdf: opens without password?")
    rc, out, err = run("qpdf", "--show-encryption", "--password=owner", path("encrypted.pdf"))
    ok("Supplied password is owner password" in out and "R = 6" in out and "AESv3" in out,
       "encrypted.pdf: owner password / AES-256")
    rc, out, err = run("qpdf", "--requires-password", path("owner-only.pdf"))
    ok(rc == 3, "owner-only.pdf: encrypted but no user password (rc=%d)" % rc)
    rc, out, err = run("qpdf", "--show-encryption", path("owner-only.pdf"))
    ok("modify document assembly: not allowed" in out and "P = -1028" in out, "owner-only.pdf: assembly forbidden")
    rc, out, err = run("qpdf", "--show-encryption", "--password=owner", path("owner-only.pdf"))
    ok("Supplied password is owner password" in out, "owner-only.pdf: owner password")


def png_info(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, info = 8, {}
    while pos < len(data):
        ln, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if kind == b"IHDR":
            info["w"], info["h"], info["depth"], info["ctype"], _, _, info["interlace"] = struct.unpack(">IIBBBBB", body)
        elif kind == b"pHYs":
            info["ppm"] = struct.unpack(">IIB", body)
        pos += 12 + ln
    return info


def jpeg_info(data):
    assert data[:2] == b"\xff\xd8"
    pos, info = 2, {"markers": []}
    while pos < len(data):
        marker = data[pos + 1]
        if marker == 0xDA:
            break
        ln = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        seg = data[pos + 4:pos + 2 + ln]
        info["markers"].append(marker)
        if marker == 0xE0 and seg[:5] == b"JFIF\0":
            info["density"] = (seg[7],) + struct.unpack(">HH", seg[8:12])
        elif marker == 0xEE and seg[:5] == b"Adobe":
            info["adobe_transform"] = seg[11]
        elif marker == 0xE1 and seg[:6] == b"Exif\0\0":
            tiff = seg[6:]
            e = "<" if tiff[:2] == b"II" else ">"
            ifd = struct.unpack(e + "I", tiff[4:8])[0]
            count = struct.unpack(e + "H", tiff[ifd:ifd + 2])[0]
            for k in range(count):
                tag, typ, cnt = struct.unpack(e + "HHI", tiff[ifd + 2 + 12 * k:ifd + 10 + 12 * k])
                if tag == 0x0112:
                    info["orientation"] = struct.unpack(e + "H", tiff[ifd + 10 + 12 * k:ifd + 12 + 12 * k])[0]
        elif marker in (0xC0, 0xC1, 0xC2):
            info["sof"] = marker
            info["h"], info["w"] = struct.unpack(">HH", seg[1:5])
            info["components"] = seg[5]
        pos += 2 + ln
    return info


def check_images(m):
    for name, ctype, depth, interlace in [("logo.png", 6, 8, 0), ("gray16.png", 0, 16, 0),
                                          ("palette.png", 3, 8, 0), ("interlaced.png", 2, 8, 1)]:
        info = png_info(open(path(name), "rb").read())
        ok((info["w"], info["h"]) == (m[name]["width"], m[name]["height"]), "%s: size" % name)
        ok((info["ctype"], info["depth"], info["interlace"]) == (ctype, depth, interlace), "%s: kind %s" % (name, info))
    ok(png_info(open(path("logo.png"), "rb").read()).get("ppm") == (5669, 5669, 1), "logo.png: pHYs 144 dpi")
    for name, sof, comps in [("photo.jpg", 0xC0, 3), ("photo-cmyk.jpg", 0xC0, 4), ("photo-gray.jpg", 0xC0, 1),
                             ("photo-progressive.jpg", 0xC2, 3), ("photo-exif-rot.jpg", 0xC0, 3)]:
        info = jpeg_info(open(path(name), "rb").read())
        ok((info["w"], info["h"]) == (m[name]["width"], m[name]["height"]), "%s: size" % name)
        ok(info["sof"] == sof and info["components"] == comps, "%s: SOF/components %s" % (name, info))
        ok(info.get("density") == (1, 72, 72), "%s: JFIF 72 dpi" % name)
    ok(jpeg_info(open(path("photo-cmyk.jpg"), "rb").read()).get("adobe_transform") == 0, "photo-cmyk.jpg: Adobe APP14")
    ok(jpeg_info(open(path("photo-exif-rot.jpg"), "rb").read()).get("orientation") == 6, "photo-exif-rot.jpg: orientation")


def main():
    m = json.load(open(path("fixtures.json")))
    for name, facts in sorted(m.items()):
        if name.endswith(".pdf") and not facts.get("broken"):
            if name == "encrypted.pdf":
                check_pdf(name, facts, ("-upw", "secret"), ("--password=secret",))
            elif name == "stamp.pdf":
                rc, out, err = run("qpdf", "--check", path(name))
                ok(rc == 0 and "WARNING" not in out.upper() + err.upper(), "stamp.pdf: qpdf --check")
                rc, out, err = run("pdfinfo", path(name))
                ok("Page size:       200 x 100 pts" in out and "Pages:           1\n" in out, "stamp.pdf: pdfinfo")
                rc, txt, err = run("pdftotext", path(name), "-")
                ok(txt.strip() == "DRAFT", "stamp.pdf: text")
            else:
                check_pdf(name, facts)
    check_features(m["features.pdf"])
    check_encryption()
    for name in ("notapdf.pdf", "empty.pdf", "truncated.pdf"):
        rc, out, err = run("qpdf", "--check", path(name))
        ok(rc != 0, "%s: qpdf accepted a broken file" % name)
    alpha = open(path("alpha.pdf"), "rb").read()
    trunc = open(path("truncated.pdf"), "rb").read()
    ok(alpha.startswith(trunc) and b"xref" not in trunc and len(trunc) == len(alpha) * 60 // 100,
       "truncated.pdf: prefix of alpha.pdf without xref")
    ok(os.path.getsize(path("empty.pdf")) == 0, "empty.pdf: zero bytes")
    ok(not open(path("fake.png"), "rb").read().startswith(b"\x89PNG"), "fake.png: not a PNG")
    check_images(m)
    total = 0
    for name in sorted(m) + ["fixtures.json"]:  # generated files only (not the scripts)
        size = os.path.getsize(path(name))
        total += size
        ok(size < 30 * 1024, "%s: %d bytes >= 30 KB" % (name, size))
    ok(total < 300 * 1024, "folder: %d bytes >= 300 KB" % total)
    print("%d passed, %d failed" % (PASSED, FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
