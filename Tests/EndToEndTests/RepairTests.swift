import Foundation
import Testing

/// Issue 40 item 45: a file qpdf refuses as damaged beyond repair while poppler
/// reads it is refused (65) with a message naming `--repair`; with `--repair`,
/// direct mode redraws its pages through poppler and works on that, with a
/// warning of what is lost. Checked with qpdf --check and pdftotext.
///
/// Destroying a file's cross-reference data and trailer does not make such a
/// file: qpdf 11.3 reconstructs whatever poppler 22.12 does, and both give up
/// without a trailer dictionary. A trailer whose /Encrypt is not a dictionary
/// does: qpdf refuses the file at once, poppler reads it as unencrypted.
@Suite struct RepairTests {
    /// Two pages of text, its trailer's /Encrypt a string.
    static func refusedByQPDF(_ path: String) throws {
        let script = #"""
            import sys
            import pdfbytes
            texts = ["Repaired sentence on page one", "Second page after repair"]
            objs = ["<< /Type /Catalog /Pages 2 0 R >>", "",
                    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
            kids = []
            for text in texts:
                number = len(objs) + 1
                kids.append("%d 0 R" % number)
                content = "BT /F1 18 Tf 40 400 Td (%s) Tj ET" % text
                objs.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 500] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>" % (number + 1))
                objs.append("<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
            objs[1] = "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join(kids), len(texts))
            open(sys.argv[1], "wb").write(pdfbytes.pdf(objs, header=b"%PDF-1.4\n", trailer=b"/Encrypt (not a dictionary)"))
            """#
        let made = try python(script, [path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// pdftotext -raw of one page: cairo re-embeds the standard font it was drawn
    /// with a substitute at the original widths, which the layout mode reads as a
    /// gap after the first letter ("S econd").
    static func rawText(_ file: String, _ page: Int) throws -> String {
        try run("pdftotext", ["-raw", "-f", "\(page)", "-l", "\(page)", file, "-"]).stdout
    }

    @Test("a file qpdf refuses and poppler reads: 65 naming --repair; with --repair its pages and text come through")
    func repairRedrawsThroughPoppler() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let damaged = dir.appendingPathComponent("damaged.pdf").path
        try Self.refusedByQPDF(damaged)
        // The independent tools agree on what the file is: qpdf refuses it, poppler reads it.
        let check = try qpdfCheck(damaged)
        #expect(check.status == 2, "qpdf --check: \(check.status) \(check.stdout) \(check.stderr)")
        #expect(try run("pdftotext", [damaged, "-"]).stdout.contains("Repaired sentence on page one"))
        let before = try Data(contentsOf: URL(fileURLWithPath: damaged))

        let refused = try pdfedit("rotate", "1", "--by", "90", "damaged.pdf", "-o", "out.pdf", in: dir)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("pdfedit: damaged.pdf: damaged beyond repair:"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--repair"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))

        let repaired = try pdfedit("reverse", "all", "damaged.pdf", "-o", "out.pdf", "--repair", in: dir)
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stderr.contains("pdfedit: warning: damaged.pdf: qpdf cannot repair it: redrawn page by page with poppler"),
                "\(repaired.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfCheck(out).status == 0)
        #expect(try qpdfPageCount(out) == 2)
        #expect(try Self.rawText(out, 1).contains("Second page after repair"))
        #expect(try Self.rawText(out, 2).contains("Repaired sentence on page one"))
        // The pages keep their size; the source is untouched; no scratch file stays.
        #expect(try run("pdfinfo", [out]).stdout.contains("400 x 500 pts"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["damaged.pdf", "out.pdf"])

        // export --from and a split name their parts after the input, as without repair.
        let split = try pdfedit("export", "--split", "parts", "--from", "damaged.pdf", "--repair", in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).sorted()
        #expect(parts == ["damaged-1.pdf", "damaged-2.pdf"], "\(parts)")
        #expect(try Self.rawText(dir.appendingPathComponent("parts/damaged-2.pdf").path, 1).contains("Second page after repair"))

        // A session cannot use the redrawing (its sources are files it checks again): refused.
        let session = try pdfedit("remove", "1", "--repair", in: dir)
        #expect(session.status == 64, "\(session.stderr)")
    }

    @Test("--repair on a file neither qpdf nor poppler can read: still 65, nothing written")
    func repairCannotMakeSomethingFromNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Objects without any cross-reference data or trailer.
        let body = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n%%EOF\n"
        try body.write(to: dir.appendingPathComponent("gone.pdf"), atomically: true, encoding: .utf8)
        let result = try pdfedit("rotate", "1", "--by", "90", "gone.pdf", "-o", "out.pdf", "--repair", in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("pdfedit: gone.pdf: "), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["gone.pdf"])
    }

    /// Review: `--in-place --repair` of an encrypted file wrote it back
    /// unencrypted with only the repair warning. The redrawing has no
    /// encryption to keep: refused (64) naming --decrypt, the file untouched;
    /// with --decrypt it is written, unencrypted, because the user asked.
    @Test("--repair of an encrypted file in place: refused without --decrypt, never quietly decrypted")
    func repairNeverQuietlyDecrypts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("x.pdf").path, file = dir.appendingPathComponent("e.pdf").path
        // A page tree whose second kid is a number: qpdf refuses it, poppler reads its one page.
        let content = "BT /F1 18 Tf 40 400 Td (Encrypted and damaged) Tj ET"
        try TestPDF.bytes([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 7] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 500] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            TestPDF.stream("", content), "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]).write(to: URL(fileURLWithPath: plain))
        try #require(try run("qpdf", ["--encrypt", "u", "o", "256", "--", plain, file]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let refused = try pdfedit(args: ["rotate", "1", "--by", "90", file, "--in-place", "--password", "u", "--repair"])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--decrypt"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the input was changed")
        let asked = try pdfedit(
            args: ["rotate", "1", "--by", "90", file, "--in-place", "--password", "u", "--repair", "--decrypt"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(try run("qpdf", ["--show-encryption", file]).stdout.contains("not encrypted"))
        #expect(try pageText(file, 1).contains("Encrypted and damaged"))
    }
}
