import Foundation
import Testing

/// Signed PDFs made for the tests: a three-page file ("Page N of the signed
/// file"), signed in an appended update by a self-signed certificate
/// (CN "Alice Example") made with openssl on the fly, the CMS blob made by
/// `openssl cms -sign` (detached, SHA-256, with its signing time). The
/// signature dictionary's /Name is "Name In Dictionary" and its /M
/// 2024-05-01T07:30:00Z, so a test can tell what came from the certificate.
/// Environment: DOCMDP=P certifies it (a /Reference and the catalog's /Perms);
/// UPDATE_AFTER=1 appends a further update after signing.
enum SignedPDF {
    static let script = #"""
import os, subprocess, sys

def base_pdf(pages=3):
    objs = {}
    objs[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join(f"{3 + i} 0 R" for i in range(pages))
    objs[2] = f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode()
    font = 3 + 2 * pages
    for i in range(pages):
        content = f"BT /F1 24 Tf 72 700 Td (Page {i + 1} of the signed file) Tj ET".encode()
        objs[3 + i] = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {3 + pages + i} 0 R "
                       f"/Resources << /Font << /F1 {font} 0 R >> >> >>").encode()
        objs[3 + pages + i] = b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"
    objs[font] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for n in sorted(objs):
        offsets[n] = len(out)
        out += b"%d 0 obj\n" % n + objs[n] + b"\nendobj\n"
    xref = len(out)
    size = max(objs) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for n in range(1, size):
        out += b"%010d 00000 n \n" % offsets[n]
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out), size, xref, pages

def update(data, objs, size, prev, extra=b""):
    out = bytearray(data)
    offsets = {}
    for n in sorted(objs):
        offsets[n] = len(out)
        out += b"%d 0 obj\n" % n + objs[n] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n"
    for n in sorted(objs):
        out += b"%d 1\n%010d 00000 n \n" % (n, offsets[n])
    out += b"trailer\n<< /Size %d /Root 1 0 R /Prev %d %s>>\nstartxref\n%d\n%%%%EOF\n" % (size, prev, extra, xref)
    return bytes(out), xref

def main():
    out_path, work = sys.argv[1], sys.argv[2]
    docmdp = int(os.environ.get("DOCMDP", "0"))
    later = os.environ.get("UPDATE_AFTER") == "1"
    cn = os.environ.get("SIGNER_CN", "Alice Example")
    key, cert = os.path.join(work, "key.pem"), os.path.join(work, "cert.pem")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-subj", f"/CN={cn}/O=Example Org", "-days", "3650"], check=True, capture_output=True)
    data, size, xref, pages = base_pdf()
    sig, field, font = size, size + 1, 3 + 2 * pages
    placeholder = b"0" * 16384
    reference = b""
    if docmdp:
        reference = (b"/Reference [<< /Type /SigRef /TransformMethod /DocMDP "
                     b"/TransformParams << /Type /TransformParams /P %d /V /1.2 >> >>] " % docmdp)
    objs = {
        sig: b"<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Name (Name In Dictionary) "
             b"/M (D:20240501093000+02'00') " + reference +
             b"/ByteRange [0 0000000000 0000000000 0000000000] /Contents <" + placeholder + b"> >>",
        field: b"<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /V %d 0 R /Rect [0 0 0 0] /F 132 /P 3 0 R >>" % sig,
        3: (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> /Annots [%d 0 R] >>" % (3 + pages, font, field)),
        1: b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%d 0 R] /SigFlags 3 >>%s >>"
           % (field, b" /Perms << /DocMDP %d 0 R >>" % sig if docmdp else b""),
    }
    signed, last_xref = update(data, objs, size + 2, xref)
    start = signed.index(b"/Contents <" + placeholder) + len(b"/Contents ")
    end = start + len(placeholder) + 2
    ranges = b"[0 %010d %010d %010d]" % (start, end, len(signed) - end)
    signed = signed.replace(b"[0 0000000000 0000000000 0000000000]", ranges, 1)
    covered = signed[:start] + signed[end:]
    blob = subprocess.run(["openssl", "cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-nosmimecap",
                           "-signer", cert, "-inkey", key], input=covered, check=True, capture_output=True).stdout
    hexed = blob.hex().encode()
    assert len(hexed) <= len(placeholder)
    signed = signed[:start + 1] + hexed + placeholder[len(hexed):] + signed[end - 1:]
    if later:
        info = size + 2
        signed, _ = update(signed, {info: b"<< /Title (Changed after signing) >>"}, size + 3, last_xref,
                           b"/Info %d 0 R " % info)
    with open(out_path, "wb") as f:
        f.write(signed)

main()
"""#

    /// pyHanko's verdict on each signature of a file, one line each:
    /// `FIELD intact|broken valid|invalid COVERAGE MODIFICATION`.
    static let validator = #"""
import sys
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.keys import load_cert_from_pemder
from pyhanko_certvalidator import ValidationContext
cert = load_cert_from_pemder(sys.argv[2])
with open(sys.argv[1], "rb") as f:
    reader = PdfFileReader(f, strict=False)
    for sig in reader.embedded_signatures:
        status = validate_pdf_signature(sig, ValidationContext(trust_roots=[cert]))
        print(sig.field_name, "intact" if status.intact else "broken", "valid" if status.valid else "invalid",
              str(status.coverage), str(status.modification_level))
"""#

    /// Writes a signed PDF to `directory/name` (the key and certificate beside
    /// it, made once per folder) and returns its path.
    static func make(
        in directory: URL, name: String = "signed.pdf", docMDP: Int? = nil, updatedAfter: Bool = false
    ) throws -> String {
        let output = directory.appendingPathComponent(name).path
        var environment: [String: String] = [:]
        if let docMDP { environment["DOCMDP"] = "\(docMDP)" }
        if updatedAfter { environment["UPDATE_AFTER"] = "1" }
        let made = try run("python3", ["-c", script, output, directory.path], environment: environment)
        guard made.status == 0 else { throw SetupStepFailed(command: "python3 signer \(made.stderr)", status: made.status) }
        return output
    }

    /// The certificate `make` signed with.
    static func certificate(in directory: URL) -> String { directory.appendingPathComponent("cert.pem").path }

    /// Whether pyHanko can be imported (`make setup-test` installs it with pip).
    static let pyHankoAvailable: Bool = {
        (try? run("python3", ["-c", "import pyhanko, pyhanko_certvalidator"]).status) == 0
    }()

    /// pyHanko's lines for `file` (see `validator`).
    static func pyHanko(_ file: String, certificate: String) throws -> [String] {
        let result = try run("python3", ["-c", validator, file, certificate])
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
