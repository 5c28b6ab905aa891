import Foundation
import Testing

/// What the copy of a page keeps (Assembly.cpp's page copies, Copier.cpp): a
/// page placed several times with its boxes changed on some copies, and a
/// page's references to the page tree and its content stream's filter and
/// parameters.
@Suite struct CopiedPageTests {
    /// in.pdf and other.pdf: two pages under a /Pages node that gives the
    /// MediaBox [0 0 400 600]. The first page (A-P1, C-P1) has a CropBox
    /// [10 10 390 590], an array and a dictionary naming the /Pages node, and a
    /// Flate content stream with /DecodeParms; the second (B-P2, D-P2) an
    /// unfiltered content stream.
    static func sources() throws -> URL {
        let dir = try temporaryDirectory()
        for (name, first, second) in [("in.pdf", "A-P1", "B-P2"), ("other.pdf", "C-P1", "D-P2")] {
            let made = try python(
                """
                import sys, zlib, pdfbytes
                text = lambda token: b"BT /F1 24 Tf 50 300 Td (%s) Tj ET" % token.encode()
                font = b"/Resources << /Font << /F1 5 0 R >> >>"
                open(sys.argv[1], "wb").write(pdfbytes.pdf({
                    1: b"<< /Type /Catalog /Pages 2 0 R >>",
                    2: b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 /MediaBox [0 0 400 600] >>",
                    3: b"<< /Type /Page /Parent 2 0 R /CropBox [10 10 390 590] /Contents 4 0 R " + font
                       + b" /Tree [2 0 R 7] /Up << /P 2 0 R /Q 1 >> >>",
                    4: pdfbytes.stream(b"/Filter /FlateDecode /DecodeParms << /Predictor 1 >>", zlib.compress(text(sys.argv[2]))),
                    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                    6: b"<< /Type /Page /Parent 2 0 R /Contents 7 0 R " + font + b" >>",
                    7: pdfbytes.stream(b"", text(sys.argv[3])),
                }))
                """, [dir.appendingPathComponent(name).path, first, second])
            try #require(made.status == 0, "\(made.stderr)")
        }
        return dir
    }

    /// `pdfinfo -box`'s MediaBox and CropBox of each page, in order.
    static func boxes(_ pdf: String, pages: Int) throws -> [String] {
        let info = try run("pdfinfo", ["-f", "1", "-l", "\(pages)", "-box", pdf])
        return info.stdout.split(separator: "\n").filter { $0.contains("MediaBox:") || $0.contains("CropBox:") }.map {
            $0.split(separator: ":").last.map { $0.split(separator: " ").joined(separator: " ") } ?? ""
        }
    }

    @Test("a page placed three times keeps what each item gives it: the first copy cropped, a later one resized, one as the source")
    func repeatedPageBoxes() throws {
        let dir = try Self.sources()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A B A A B B: the first A cropped, the second A as the source, the third
        // resized; the first B as the source, the second cropped, the third as
        // the source.
        try """
        copy 1 --to last
        copy 1 --to last
        copy 2 --to last
        copy 2 --to last
        crop 1 --margins 20
        resize 4 --to a5
        crop 5 --margins 30

        """.write(to: dir.appendingPathComponent("s.txt"), atomically: true, encoding: .utf8)
        let applied = try pdfedit("apply", "s.txt", "in.pdf", "-o", "out/{name}", in: dir)
        #expect(applied.status == 0, "\(applied.stderr)")
        let out = dir.appendingPathComponent("out/in.pdf").path
        #expect(try run("qpdf", ["--check", out]).status == 0)
        let source = ["0.00 0.00 400.00 600.00", "10.00 10.00 390.00 590.00"]
        let page = ["0.00 0.00 400.00 600.00", "0.00 0.00 400.00 600.00"]
        #expect(
            try Self.boxes(out, pages: 6) == [
                "0.00 0.00 400.00 600.00", "30.00 30.00 370.00 570.00",  // A, cropped
                page[0], page[1],  // B
                source[0], source[1],  // A as the source, after a cropped first copy
                "0.00 0.00 419.53 595.28", "0.00 0.00 419.53 595.28",  // A resized to A5
                "0.00 0.00 400.00 600.00", "30.00 30.00 370.00 570.00",  // B, cropped
                page[0], page[1],  // B as the source, after a cropped later copy
            ])
        #expect(try pageTokens(out) == ["A-P1", "B-P2", "A-P1", "A-P1", "B-P2", "B-P2"])
    }

    @Test("a copied page names no page tree node (null in an array, no key in a dictionary) and its stream keeps its filter and parameters")
    func copiedReferences() throws {
        let dir = try Self.sources()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two files: copied (one file merged with itself is an appended update).
        let merged = try pdfedit("insert", "other.pdf", "--at", "last", "in.pdf", "-o", "out.pdf", in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try run("qpdf", ["--check", out]).status == 0)
        #expect(try pageTokens(out) == ["A-P1", "B-P2", "C-P1", "D-P2"])
        let json = try run("qpdf", ["--json", "--json-key=qpdf", "--json-key=pages", out])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
        let objects = (object["qpdf"] as? [Any])?.last as? [String: Any] ?? [:]
        func value(_ reference: Any?) -> [String: Any] {
            let entry = (reference as? String).flatMap { objects["obj:" + $0] as? [String: Any] } ?? [:]
            return entry["value"] as? [String: Any] ?? (entry["stream"] as? [String: Any])?["dict"] as? [String: Any] ?? [:]
        }
        let pages = (object["pages"] as? [[String: Any]] ?? []).map { value($0["object"]) }
        try #require(pages.count == 4)
        for a in [pages[0], pages[2]] {
            #expect((a["/Tree"] as? [Any])?.map { $0 is NSNull ? "null" : "\($0)" } == ["null", "7"], "\(a)")
            #expect((a["/Up"] as? [String: Int]) == ["/Q": 1], "\(a)")
            let contents = value(a["/Contents"])
            #expect(contents["/Filter"] as? String == "/FlateDecode", "\(contents)")
            #expect((contents["/DecodeParms"] as? [String: Int]) == ["/Predictor": 1], "\(contents)")
        }
        for b in [pages[1], pages[3]] {
            let contents = value(b["/Contents"])
            #expect(contents["/Filter"] as? String == "/FlateDecode" && contents["/DecodeParms"] == nil, "\(contents)")
        }
    }
}
