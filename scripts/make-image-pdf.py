#!/usr/bin/env python3
"""Writes a deterministic image-heavy PDF for benchmarks: PAGES pages, each showing
one RGB image of noise (incompressible, so every image stream is as large on disk
as in memory) with a text line "IMG-P<n>" on top.

usage: make-image-pdf.py PAGES OUT.pdf [--megabytes-per-page 1.0]
The same arguments always give the same bytes (the noise comes from a seeded
SHA-256 counter stream, not from the random module).
"""
import argparse
import hashlib
import zlib

import pdfbytes


def noise(seed, size):
    """`size` deterministic pseudo-random bytes."""
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(b"%d:%d" % (seed, counter)).digest()
        counter += 1
    return bytes(out[:size])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pages", type=int)
    parser.add_argument("out")
    parser.add_argument("--megabytes-per-page", type=float, default=1.0)
    args = parser.parse_args()
    side = max(16, int((args.megabytes_per_page * 1_000_000 / 3) ** 0.5))
    objects = {}
    font = 3
    objects[font] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    kids = []
    number = 4
    for page in range(1, args.pages + 1):
        page_number, content_number, image_number = number, number + 1, number + 2
        number += 3
        pixels = noise(page, side * side * 3)
        objects[image_number] = (
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
            b"/BitsPerComponent 8 /Length %d >>\nstream\n" % (side, side, len(pixels)) + pixels + b"\nendstream"
        )
        text = b"q 500 0 0 500 56 200 cm /Im1 Do Q BT /F1 36 Tf 72 740 Td (IMG-P%d) Tj ET" % page
        stream = zlib.compress(text, 9)
        objects[content_number] = (
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream"
        )
        objects[page_number] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>"
            % (content_number, font, image_number)
        )
        kids.append(page_number)
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    with open(args.out, "wb") as f:
        f.write(pdfbytes.pdf(objects))


if __name__ == "__main__":
    main()
