#!/usr/bin/env python3
"""Writes small PDFs whose images `--images` resamples (fuzz seeds for Fuzz/PDF:
the image pass of Images.cpp and the JPEG decoder of ImageCodecs): JPEG (baseline,
gray, progressive, from Fixtures/), Flate RGB with a soft mask, 1-bit gray, a
stencil mask, each drawn small, some inside a form.

usage: make-image-seeds.py FOLDER        (run by scripts/fuzz.sh; same bytes every run)
"""
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import pdfbytes  # noqa: E402


def pdf(page, xobjects):
    """One page drawing `page` with image or form `xobjects` (name -> (dict, data))."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"]
    names = b" ".join(b"/%s %d 0 R" % (name, 5 + i) for i, name in enumerate(xobjects))
    objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
                   b"/Resources << /XObject << " + names + b" >> >> >>")
    objects.append(b"<< /Length %d >>\nstream\n" % len(page) + page + b"\nendstream")
    extra = []
    for name, (dictionary, data) in xobjects.items():
        if b"SMASK" in dictionary:
            mask_number = 5 + len(xobjects) + len(extra)
            dictionary = dictionary.replace(b"SMASK", b"/SMask %d 0 R" % mask_number)
            mask = zlib.compress(bytes((x * y) & 255 for y in range(40) for x in range(40)))
            extra.append(b"<< /Type /XObject /Subtype /Image /Width 40 /Height 40 /ColorSpace /DeviceGray "
                         b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(mask) + mask
                         + b"\nendstream")
        objects.append(b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    return pdfbytes.pdf(objects + extra, header=b"%PDF-1.7\n")


def image(width, height, space, bits, data, extra=b""):
    return (b"/Type /XObject /Subtype /Image /Width %d /Height %d %s /BitsPerComponent %d %s"
            % (width, height, space, bits, extra), data)


def main():
    folder = sys.argv[1]
    fixtures = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures")
    draw = b"q 20 0 0 14 10 10 cm /A Do Q q 0 20 -20 0 100 100 cm /A Do Q"
    seeds = {}
    for name, components in (("photo.jpg", 3), ("photo-gray.jpg", 1), ("photo-progressive.jpg", 3)):
        jpeg = open(os.path.join(fixtures, name), "rb").read()
        space = b"/ColorSpace /DeviceRGB" if components == 3 else b"/ColorSpace /DeviceGray"
        seeds["image-" + name.replace(".jpg", ".pdf")] = pdf(
            draw, {b"A": image(120, 80, space, 8, jpeg, b"/Filter /DCTDecode")})
    rgb = zlib.compress(bytes((x * 7 + y * 3 + c * 50) & 255 for y in range(40) for x in range(40) for c in range(3)))
    seeds["image-flate-smask.pdf"] = pdf(
        draw, {b"A": image(40, 40, b"/ColorSpace /DeviceRGB", 8, rgb, b"/Filter /FlateDecode SMASK")})
    bits = zlib.compress(bytes((0xAA if y % 2 else 0x55) for y in range(64) for x in range(8)))
    seeds["image-1bit.pdf"] = pdf(draw, {b"A": image(64, 64, b"/ColorSpace /DeviceGray", 1, bits, b"/Filter /FlateDecode")})
    seeds["image-stencil.pdf"] = pdf(
        b"0 0 1 rg " + draw, {b"A": image(64, 64, b"/ImageMask true", 1, bits, b"/Decode [1 0] /Filter /FlateDecode")})
    form = b"q 30 0 0 30 0 0 cm /B Do Q"
    seeds["image-in-form.pdf"] = pdf(
        b"q 0.5 0 0 0.5 10 10 cm /A Do Q",
        {b"A": (b"/Type /XObject /Subtype /Form /BBox [0 0 40 40] /Resources << /XObject << /B 6 0 R >> >>", form),
         b"B": image(40, 40, b"/ColorSpace /DeviceRGB", 8, rgb, b"/Filter /FlateDecode")})
    for name, data in seeds.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)


if __name__ == "__main__":
    main()
