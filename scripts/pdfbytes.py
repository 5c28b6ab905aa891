"""The bytes of a small classic PDF, for the scripts and tests that make PDFs
(benchmark inputs, fuzz seeds, the hostile and odd files tests build): a header,
the objects numbered from 1, a cross-reference table and a trailer.

    import pdfbytes
    pdfbytes.pdf([catalog, pages, page, pdfbytes.stream(b"", content)])
    pdfbytes.pdf({1: catalog, 2: pages, 7: page}, trailer=b"/Info 9 0 R")

`objects` is a list (object n is objects[n - 1]) or a dict (number -> body; a
number without a body is written as `null`). Bodies are bytes or str (str is
written as Latin-1, so any byte survives). The root is object 1.
"""

HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"


def _bytes(body):
    return body.encode("latin-1") if isinstance(body, str) else bytes(body)


def stream(dictionary, data):
    """A stream object: `dictionary`'s entries (without << >>) and `data`, /Length added."""
    dictionary, data = _bytes(dictionary), _bytes(data)
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def pdf(objects, header=HEADER, trailer=b""):
    """The whole file: `header`, `objects`, the xref table, a trailer with /Size,
    /Root 1 0 R and `trailer`'s extra entries."""
    if not isinstance(objects, dict):
        objects = {number: body for number, body in enumerate(objects, 1)}
    count = max(objects, default=0) + 1
    out = bytearray(_bytes(header))
    offsets = [0] * count
    for number in range(1, count):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + _bytes(objects.get(number, b"null")) + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % count
    out += b"".join(b"%010d 00000 n \n" % offsets[number] for number in range(1, count))
    extra = _bytes(trailer)
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        count, b" " + extra if extra else b"", xref)
    return bytes(out)
