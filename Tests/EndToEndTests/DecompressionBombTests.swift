import Foundation
import Testing

/// Decompression bombs: a few kilobytes that inflate to megabytes (gigabytes in
/// the wild). What pdfedit itself decodes, and what it hands to poppler, is
/// bounded by `PDFEDIT_MAX_STREAM_BYTES` and `PDFEDIT_MAX_PIXELS`; over the limit
/// is 65 naming the source and page, never a temporary file, and nothing written.
@Suite struct DecompressionBombTests {
    static let limit = ["PDFEDIT_MAX_STREAM_BYTES": "1000000"]

    /// Writes `name` in `dir` with Python's zlib: one 200 x 200 page whose content
    /// stream inflates to 4 MB (`content`), or whose resources hold a 20000 x 20000
    /// image (`image`), or whose catalog's XMP packet inflates to 4 MB (`metadata`),
    /// or whose font's /ToUnicode map inflates to 4 MB (`tounicode`).
    /// `imageSide` sets the image's declared width and height.
    static func make(_ kind: String, _ name: String, in dir: URL, imageSide: Int = 20000) throws {
        let script = #"""
            import sys, zlib
            import pdfbytes
            kind, path, side = sys.argv[1], sys.argv[2], int(sys.argv[3])
            def flate(data): return zlib.compress(data, 9)
            bomb = flate(b"0 0 1 rg 10 10 50 50 re f\n" + b" " * (4 << 20))
            small = flate(b"0 0 1 rg 10 10 50 50 re f\n")
            xobject = ""
            content = bomb if kind == "content" else small
            if kind == "image":
                content = flate(b"q 100 0 0 100 0 0 cm /Im0 Do Q\n")
                xobject = "/XObject << /Im0 5 0 R >>"
            if kind == "tounicode":
                content = flate(b"BT /F1 12 Tf 10 100 Td (officer) Tj ET\n")
                xobject = "/Font << /F1 7 0 R >>"
            objs = [b"<< /Type /Catalog /Pages 2 0 R" + (b" /Metadata 6 0 R" if kind == "metadata" else b"") + b" >>",
                    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << %s >> >>" % xobject).encode(),
                    b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream",
                    b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray" % (side, side) +
                    b" /BitsPerComponent 8 /Length %d /Filter /FlateDecode >>\nstream\n" % len(small) + small + b"\nendstream",
                    b"<< /Type /Metadata /Subtype /XML /Length %d /Filter /FlateDecode >>\nstream\n" % len(bomb) + bomb + b"\nendstream",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"]
            open(path, "wb").write(pdfbytes.pdf(objs, header=b"%PDF-1.7\n"))
            """#
        let made = try python(script, [kind, dir.appendingPathComponent(name).path, String(imageSide)])
        guard made.status == 0 else { throw Reliability.Failure("python3: \(made.stderr)") }
    }

    /// 65, one line naming the file, page 1 (`onPage`) and the limit's variable; no temporary named.
    func expectRefused(_ result: Run, _ name: String, variable: String, onPage: Bool = true, _ what: String) {
        #expect(result.status == 65, "\(what): \(result.status) \(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(what): \(result.stderr)")
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("pdfedit: ") && line.contains(name) && line.contains("page 1") == onPage, "\(what): \(line)")
        #expect(line.contains(variable), "\(what): \(line)")
        #expect(!line.contains("pdfedit-tmp"), "\(what): \(line)")
    }

    @Test("a content stream that inflates past the limit: info with text, show and stamp refuse it with 65")
    func contentBomb() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.make("content", "bomb.pdf", in: dir)
        let info = try pdfedit("info", "bomb.pdf", in: dir, environment: Self.limit)
        expectRefused(info, "bomb.pdf", variable: "PDFEDIT_MAX_STREAM_BYTES", "info")
        #expect(info.stdout.isEmpty)
        // Without text nothing is inflated; under the default limit it is fine.
        try pdfeditOK("info", "bomb.pdf", "--no-text", in: dir, environment: Self.limit)
        try pdfeditOK("info", "bomb.pdf", in: dir)

        let stamp = try pdfedit("stamp", "1", "bomb.pdf", "alpha.pdf", "-o", "stamped.pdf", in: dir, environment: Self.limit)
        expectRefused(stamp, "bomb.pdf", variable: "PDFEDIT_MAX_STREAM_BYTES", "stamp")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("stamped.pdf").path))
        #expect(Reliability.temporaries(in: dir).isEmpty)

        try pdfeditOK("open", "bomb.pdf", in: dir)
        let show = try pdfedit("show", "1", "-o", "sheet.png", in: dir, environment: Self.limit)
        expectRefused(show, "bomb.pdf", variable: "PDFEDIT_MAX_STREAM_BYTES", "show")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("sheet.png").path))
    }

    @Test("a font whose /ToUnicode map inflates past the limit: info, find and show refuse it with 65")
    func toUnicodeBomb() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.make("tounicode", "font.pdf", in: dir)
        expectRefused(try pdfedit("info", "font.pdf", in: dir, environment: Self.limit), "font.pdf",
            variable: "PDFEDIT_MAX_STREAM_BYTES", "info")
        try pdfeditOK("open", "font.pdf", in: dir)
        // show and a text: selection refuse (65); find passes over the page with a warning.
        for arguments in [["show", "-o", "s.png"], ["remove", "text:officer"]] {
            let result = try pdfedit(args: arguments, in: dir, environment: Self.limit)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("font.pdf: page 1: over a limit: the /ToUnicode map"), "\(arguments): \(result.stderr)")
        }
        let found = try pdfedit("find", "officer", in: dir, environment: Self.limit)
        #expect(found.status == 0 && found.stdout.contains("no page contains"), "\(found.stdout)")
        #expect(found.stderr.hasPrefix("pdfedit: warning: ") && found.stderr.contains("PDFEDIT_MAX_STREAM_BYTES"))
        // Under the default limit the same file is read.
        try pdfeditOK("info", "font.pdf", in: dir)
    }

    @Test("an image of 20000 x 20000 pixels is refused before poppler decodes it")
    func hugeImage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.make("image", "huge.pdf", in: dir)
        try pdfeditOK("open", "huge.pdf", in: dir)
        let show = try pdfedit("show", "1", "-o", "sheet.png", in: dir)
        expectRefused(show, "huge.pdf", variable: "PDFEDIT_MAX_PIXELS", "show")
        #expect(show.stderr.contains("20000x20000"))
    }

    @Test("an XMP packet that inflates past the limit is refused when export rewrites its title")
    func metadataBomb() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.make("metadata", "meta.pdf", in: dir)
        let result = try pdfedit(
            "export", "out.pdf", "--from", "meta.pdf", "--title", "New", in: dir, environment: Self.limit)
        expectRefused(result, "meta.pdf", variable: "PDFEDIT_MAX_STREAM_BYTES", onPage: false, "export --title")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        #expect(Reliability.temporaries(in: dir).isEmpty)
    }
}
