"""The peers `make bench` compares pdfedit with: which are installed, and the small
programs (pikepdf, pypdf, mutool's JavaScript) written into the work folder for
the operations those tools have no command for."""
import os
import shutil
import sys

from benchlib.measure import has_module

PIKEPDF = r'''
import sys, pikepdf
op = sys.argv[1]
if op == "reorder":  # move pages 3-5 to the front, in place
    pdf = pikepdf.open(sys.argv[2]); p = pdf.pages
    for k in (4, 4, 4):
        page = p[k]; del p[k]; p.insert(0, page)
    pdf.save(sys.argv[3])
elif op == "extract":
    src = pikepdf.open(sys.argv[2]); dst = pikepdf.new()
    first, last = int(sys.argv[4]), int(sys.argv[5])
    dst.pages.extend(src.pages[first - 1:last]); dst.save(sys.argv[3])
elif op == "rotate":  # even pages by 90, in place
    pdf = pikepdf.open(sys.argv[2])
    for i in range(1, len(pdf.pages), 2):
        pdf.pages[i].rotate(90, relative=True)
    pdf.save(sys.argv[3])
elif op == "merge":
    dst = pikepdf.new(); opened = []
    for path in sys.argv[3:]:
        src = pikepdf.open(path); opened.append(src); dst.pages.extend(src.pages)
    dst.save(sys.argv[2])
elif op == "burst":
    src = pikepdf.open(sys.argv[2])
    for i, page in enumerate(src.pages):
        dst = pikepdf.new(); dst.pages.append(page); dst.save("%s/page-%d.pdf" % (sys.argv[3], i + 1))
'''

PYPDF = r'''
import sys, pypdf
op = sys.argv[1]
def write(writer, path):
    with open(path, "wb") as f: writer.write(f)
if op == "reorder":
    r = pypdf.PdfReader(sys.argv[2]); w = pypdf.PdfWriter(); n = len(r.pages)
    for i in [2, 3, 4, 0, 1] + list(range(5, n)): w.add_page(r.pages[i])
    write(w, sys.argv[3])
elif op == "extract":
    r = pypdf.PdfReader(sys.argv[2]); w = pypdf.PdfWriter()
    for i in range(int(sys.argv[4]) - 1, int(sys.argv[5])): w.add_page(r.pages[i])
    write(w, sys.argv[3])
elif op == "rotate":
    r = pypdf.PdfReader(sys.argv[2]); w = pypdf.PdfWriter()
    for i, page in enumerate(r.pages):
        added = w.add_page(page)
        if i % 2 == 1: added.rotate(90)
    write(w, sys.argv[3])
elif op == "merge":
    w = pypdf.PdfWriter()
    for path in sys.argv[3:]: w.append(path)
    write(w, sys.argv[2])
elif op == "burst":
    r = pypdf.PdfReader(sys.argv[2])
    for i, page in enumerate(r.pages):
        w = pypdf.PdfWriter(); w.add_page(page); write(w, "%s/page-%d.pdf" % (sys.argv[3], i + 1))
'''

MUTOOL_ROTATE = r'''
var doc = new PDFDocument(scriptArgs[0]);
var n = doc.countPages();
for (var i = 1; i < n; i += 2) {
    var page = doc.findPage(i);
    var v = 0;  // /Rotate is inheritable: the nearest ancestor's counts
    for (var node = page; node && node.isDictionary(); node = node.get("Parent")) {
        var r = node.get("Rotate");
        if (r && r.isNumber()) { v = r.valueOf(); break; }
    }
    page.put("Rotate", (v + 90) % 360);
}
doc.save(scriptArgs[1], "");
'''

MUTOOL_BURST = r'''
var src = new PDFDocument(scriptArgs[0]);
var n = src.countPages();
for (var i = 0; i < n; i++) {
    var dst = new PDFDocument();
    dst.graftPage(-1, src, i);
    dst.save(scriptArgs[1] + "/page-" + (i + 1) + ".pdf", "");
}
'''


def detect():
    """{tool: installed?} for every peer and for matplotlib (the charts)."""
    return {
        "qpdf": shutil.which("qpdf") is not None,
        "mutool": shutil.which("mutool") is not None,
        "pdftk": shutil.which("pdftk") is not None,
        "pdfunite": shutil.which("pdfunite") is not None,
        "pdfseparate": shutil.which("pdfseparate") is not None,
        "pikepdf": has_module("pikepdf"),
        "pypdf": has_module("pypdf"),
        "matplotlib": has_module("matplotlib"),
    }


class Peers:
    """The peer programs written into `work`: argv prefixes and script paths."""

    def __init__(self, work):
        for name, text in (("peer_pikepdf.py", PIKEPDF), ("peer_pypdf.py", PYPDF),
                           ("rotate.js", MUTOOL_ROTATE), ("burst.js", MUTOOL_BURST)):
            with open(os.path.join(work, name), "w") as f:
                f.write(text)
        self.python = sys.executable
        self.pikepdf = [self.python, os.path.join(work, "peer_pikepdf.py")]
        self.pypdf = [self.python, os.path.join(work, "peer_pypdf.py")]
        self.mutool_rotate = ["mutool", "run", os.path.join(work, "rotate.js")]
        self.mutool_burst = ["mutool", "run", os.path.join(work, "burst.js")]
