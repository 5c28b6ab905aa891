#!/usr/bin/env python3
"""Writes a deterministic N-page text PDF (one line "BIG-P<n>" per page) for benchmarks.

usage: make-big-pdf.py PAGES OUT.pdf [LABEL]
Pages are grouped under intermediate /Pages nodes of 100 kids, as real producers do.
LABEL (default BIG) replaces "BIG" in the page text, so that several files can be
told apart after a merge.
"""
import sys
import zlib

import pdfbytes


def main():
    pages = int(sys.argv[1])
    out_path = sys.argv[2]
    label = sys.argv[3] if len(sys.argv) > 3 else "BIG"
    objects = {}  # number -> bytes
    # 1 catalog, 2 root pages, 3 font; then per group a /Pages node; per page a page + content.
    font = 3
    objects[font] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    next_number = 4
    groups = []
    for start in range(0, pages, 100):
        group_number = next_number
        next_number += 1
        kids = []
        for n in range(start + 1, min(pages, start + 100) + 1):
            page_number, content_number = next_number, next_number + 1
            next_number += 2
            text = f"BT /F1 36 Tf 72 700 Td ({label}-P{n}) Tj ET".encode()
            stream = zlib.compress(text, 9)
            objects[content_number] = (
                b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream"
            )
            objects[page_number] = (
                b"<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>" % (group_number, content_number)
            )
            kids.append(page_number)
        objects[group_number] = b"<< /Type /Pages /Parent 2 0 R /Kids [%s] /Count %d >>" % (
            b" ".join(b"%d 0 R" % k for k in kids),
            len(kids),
        )
        groups.append(group_number)
    objects[2] = (
        b"<< /Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> >>"
        % (b" ".join(b"%d 0 R" % g for g in groups), pages, font)
    )
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    with open(out_path, "wb") as f:
        f.write(pdfbytes.pdf(objects))


if __name__ == "__main__":
    main()
