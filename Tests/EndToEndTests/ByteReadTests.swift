import Foundation
import Testing

/// What a copied page draws with (its resources and contents) is read from a clean,
/// unencrypted source's bytes where they are plain (the bridge's PlainObjects.cpp)
/// instead of through qpdf's parser. The objects made must be the ones qpdf's
/// parser makes, so every output is byte-identical to the one made with
/// `PDFEDIT_NO_BYTE_READS=1`, which reads everything through qpdf; where the bytes
/// are not plain (an escape, a comment, a stream whose /Length is wrong…) the
/// object is left to qpdf, warnings included.
@Suite struct ByteReadTests {
    static let qpdfOnly = ["PDFEDIT_NO_BYTE_READS": "1"]

    /// Runs `arguments` (with OUT standing for an output folder) twice, reading
    /// from bytes and through qpdf only, copying (not in place, not appended), and
    /// expects the same exit status, stderr and output files, byte for byte.
    static func expectSameOutputs(
        _ arguments: [String], in dir: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> URL {
        var results: [(Run, URL)] = []
        for (label, extra) in [("bytes", [String: String]()), ("qpdf", qpdfOnly)] {
            let out = dir.appendingPathComponent("out-\(label)")
            try? FileManager.default.removeItem(at: out)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            var environment = ["PDFEDIT_NO_IN_PLACE": "1"]
            environment.merge(extra) { a, _ in a }
            let filled = arguments.map { $0.replacingOccurrences(of: "OUT", with: out.path) }
            let run = try pdfedit(args: filled, in: dir, environment: environment)
            results.append((run, out))
        }
        let (bytes, bytesOut) = results[0]
        let (qpdf, qpdfOut) = results[1]
        let what = arguments.joined(separator: " ")
        #expect(bytes.status == qpdf.status, "\(what): exit \(bytes.status) / \(qpdf.status)", sourceLocation: sourceLocation)
        #expect(
            bytes.stderr.replacingOccurrences(of: bytesOut.path, with: "OUT")
                == qpdf.stderr.replacingOccurrences(of: qpdfOut.path, with: "OUT"),
            "\(what): \(bytes.stderr) / \(qpdf.stderr)", sourceLocation: sourceLocation)
        func filesIn(_ folder: URL) throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted().filter {
                var isFolder: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent($0).path, isDirectory: &isFolder)
                return exists && !isFolder.boolValue
            }
        }
        let files = try filesIn(qpdfOut)
        #expect(!files.isEmpty || qpdf.status != 0, "\(what): no output", sourceLocation: sourceLocation)
        #expect(try filesIn(bytesOut) == files, "\(what)", sourceLocation: sourceLocation)
        for file in files {
            let a = try Data(contentsOf: bytesOut.appendingPathComponent(file))
            let b = try Data(contentsOf: qpdfOut.appendingPathComponent(file))
            #expect(a == b, "\(what): \(file) differs (\(a.count) / \(b.count) bytes)", sourceLocation: sourceLocation)
        }
        return bytesOut
    }

    /// The corpus files whose pages' resources are read from their bytes (clean,
    /// unencrypted, the page tree read from its bytes), with a page to stamp with.
    static let corpusFiles = [
        "ocrmypdf-ccitt.pdf", "ocrmypdf-tagged.pdf", "pdfa-PDF_2.0_with_page_level_output_intent.pdf",
        "pdfbox-PDFA3A.pdf", "pdfbox-testPDFPackage.pdf", "pdfjs-TAMReview.pdf", "pdfjs-alphatrans.pdf",
        "pdfjs-freeculture.pdf", "pdfjs-issue8088.pdf", "pdfjs-issue918.pdf", "pdfjs-rotation.pdf", "pdfjs-sizes.pdf",
        "pdfjs-tracemonkey.pdf", "pdflib-with_update_sections.pdf", "plumber-ag-energy-round-up-2017-02-24.pdf",
        "plumber-chelsea_pdta.pdf", "plumber-pdffill-demo.pdf", "qpdf-to-rotate.pdf", "sample-libreoffice-form.pdf",
    ]

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func corpusCopiesAreTheSameReadEitherWay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in Self.corpusFiles {
            let file = Paths.corpus(name)
            _ = try Self.expectSameOutputs(["export", "OUT/all.pdf", "--from", file, "-q"], in: dir)
            _ = try Self.expectSameOutputs(["export", "--split", "OUT/parts", "--from", file, "-q"], in: dir)
        }
        // Sheets, stamps, a merge of two sources and a removal read pages the same way.
        let chelsea = Paths.corpus("plumber-chelsea_pdta.pdf")
        let freeculture = Paths.corpus("pdfjs-freeculture.pdf")
        _ = try Self.expectSameOutputs(["nup", "1..12", chelsea, "--grid", "2x2", "-o", "OUT/nup.pdf", "-q"], in: dir)
        _ = try Self.expectSameOutputs(["stamp", "all", chelsea, freeculture, "-o", "OUT/stamped.pdf", "-q"], in: dir)
        _ = try Self.expectSameOutputs(["insert", freeculture, "--at", "3", chelsea, "-o", "OUT/merged.pdf", "-q"], in: dir)
        let removed = try Self.expectSameOutputs(["remove", "2..40", freeculture, "-o", "OUT/removed.pdf", "-q"], in: dir)
        // And the output is the document asked for, as the independent tools read it.
        let output = removed.appendingPathComponent("removed.pdf").path
        #expect(try qpdfCheck(output).status == 0)
        #expect(try qpdfPageCount(output) == 352 - 39)
        #expect(try pageText(output, 2) == pageText(freeculture, 41))
    }

    /// A page whose resources hold what a byte reader could get wrong, each in an
    /// object of its own: numbers in every form qpdf takes, strings, nested
    /// arrays and dictionaries, null values, a reference to a page and a page tree
    /// node given directly (qpdf's copier stops at both), a node whose /Type is an
    /// object (left to qpdf, which resolves it and stops), a stream whose /Length is
    /// an object, `stream` followed by CR LF; and what must be left to qpdf: an
    /// escape in a string, a name with #, a comment, a key given twice, `stream`
    /// followed by a CR alone and a /Length that is too short (qpdf warns of both);
    /// and stream data that fails to decode when the output is written.
    static func writeTraps(to path: String) throws {
        func form(_ token: String) -> String { "q BT /F1 12 Tf 10 10 Td (\(token)) Tj ET Q" }
        func formStream(_ token: String, length: String? = nil, lineEnd: String = "\n") -> String {
            let text = form(token)
            return "<< /Type /XObject /Subtype /Form /BBox [0 0 200 40] /Resources << /Font << /F1 4 0 R >> >> "
                + "/Length \(length ?? String(text.utf8.count)) >>\nstream\(lineEnd)\(text)\nendstream"
        }
        let page = "BT /F1 14 Tf 20 150 Td (TRAP-PAGE) Tj ET "
            + (1...5).map { "q 1 0 0 1 20 \(10 + 25 * $0) cm /X\($0) Do Q" }.joined(separator: " ")
        let objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R 12 0 R] /Count 2 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 5 0 R /Resources 6 0 R >>",
            4: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            5: "<< /Length \(page.utf8.count) >>\nstream\r\n\(page)\nendstream",
            6: "<< /Font << /F1 4 0 R /F2 20 0 R >> /XObject << /X1 7 0 R /X2 8 0 R /X3 9 0 R /X4 10 0 R /X5 11 0 R /X6 21 0 R >> "
                + "/ExtGState << /G1 13 0 R /G2 14 0 R /G3 15 0 R /G4 16 0 R /G5 17 0 R >> /Properties << /P1 18 0 R /P2 22 0 R >> >>",
            7: formStream("TRAP-FORM1", length: "19 0 R"),
            8: formStream("TRAP-FORM2", lineEnd: "\r\n"),
            9: formStream("TRAP-FORM3", lineEnd: "\r"),
            10: formStream("TRAP-FORM4", length: "5"),
            11: formStream("TRAP-FORM5"),
            12: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>",
            13: "<< /Type /ExtGState /CA 0.5 /Note (plain (nested) text) /Hex <48 65 6C6c 6F> /On true /Off false "
                + "/Nothing null /Deep << /A [[[[1 2.0 /N]]]] /B << /C << /D [] >> >> >> >>",
            14: "<< /Type /ExtGState /Note (an \\(escaped\\) string) >>",
            15: "<< /Type /ExtGState /Name /A#42C >>",
            16: "<< /Type /ExtGState /CA 1 % a comment\n/ca 1 >>",
            17: "<< /Type /ExtGState /CA 1 /CA 0.5 >>",
            18: "<< /Page 12 0 R /Tree << /Type /Pages /Kids [12 0 R] /Count 1 >> /Self 18 0 R /List [12 0 R 4 0 R] >>",
            19: "\(form("TRAP-FORM1").utf8.count)",
            // Numbers in every form qpdf takes (a font no text uses).
            20: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /FirstChar 32 /LastChar 38 "
                + "/Widths [1 -2.5 +3 .5 007 -0 4.] >>",
            // Data that fails to decode when the output is written (LZW's table
            // overflows): qpdf's warning names the source, the object and where
            // its data lies, and the data is copied as it is.
            21: "<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Length 17 /Filter [/ASCIIHexDecode /LZWDecode] >>"
                + "\nstream\nFFFFFFFFFFFF0001>\nendstream",
            // A page tree node whose /Type is an object: qpdf's copier stops at it.
            22: "<< /Type 23 0 R /Kids [12 0 R] /Count 1 >>",
            23: "/Pages",
        ]
        try LimitsTests.writePDF(objects, to: path)
    }

    @Test("plain syntax is read as qpdf reads it, the rest is left to qpdf: the same output and warnings either way")
    func trapsAreCopiedAsQpdfCopiesThem() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traps = dir.appendingPathComponent("traps.pdf")
        try Self.writeTraps(to: traps.path)
        let out = try Self.expectSameOutputs(["export", "OUT/page.pdf", "1", "--from", traps.path], in: dir)
        let page = out.appendingPathComponent("page.pdf").path
        // Clean but for the data that does not decode, copied as it was.
        let check = try qpdfCheck(page)
        let complaints = check.stdout.split(separator: "\n").filter { $0.contains("WARNING") || $0.contains("ERROR") }
            + check.stderr.split(separator: "\n").filter { $0.contains("WARNING") || $0.contains("ERROR") }
        #expect(check.status == 3 && complaints.count == 2 && complaints[0].contains("LZWDecoder")
                    && complaints[1].contains("re-processed without filtering"),
                "\(check.stdout)\(check.stderr)")
        let text = try pageText(page, 1)
        for token in ["TRAP-PAGE", "TRAP-FORM1", "TRAP-FORM2", "TRAP-FORM3", "TRAP-FORM5"] {
            #expect(text.contains(token), "\(token) missing from \(text)")
        }
        #expect(try qpdfPageCount(page) == 1)
        // The values as qpdf reads them: a hex string's bytes, reals as written.
        let json = try run("qpdf", ["--json=2", "--json-key=qpdf", page]).stdout
        #expect(json.contains("\"/Hex\": \"u:Hello\""), "the hex string's bytes")
        #expect(json.contains("\"/Note\": \"u:plain (nested) text\""), "a string with parentheses")
        #expect(json.contains("-2.5") && json.contains("4.\n"), "reals kept as written")
        // qpdf's warnings about the objects left to it, the same either way
        // (expectSameOutputs compares them), and the other ways pages are copied.
        let warned = try pdfedit("export", dir.appendingPathComponent("warned.pdf").path, "--from", traps.path,
                                 in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])
        #expect(warned.status == 0 && warned.stderr.contains("damaged, recovered"), "\(warned.stderr)")
        #expect(!warned.stderr.contains("output") && !warned.stderr.contains("pdfedit-tmp"), "\(warned.stderr)")
        _ = try Self.expectSameOutputs(["export", "--split", "OUT/parts", "--from", traps.path], in: dir)
        _ = try Self.expectSameOutputs(["nup", "all", traps.path, "--grid", "2x1", "-o", "OUT/nup.pdf"], in: dir)
    }
}
