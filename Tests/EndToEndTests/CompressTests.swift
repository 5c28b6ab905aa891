import Foundation
import Testing

/// Issue 43, section 1: `--compress`, `--linearize` and `pdfedit optimize`. Every
/// output is read back by qpdf and poppler (check, page count, text per page),
/// sizes are compared with qpdf's own best lossless rewrite.
@Suite struct CompressTests {
    /// The text of every page (pdftotext's pages, split at its form feeds).
    static func texts(_ file: String) throws -> [String] {
        let result = try run("pdftotext", ["-enc", "UTF-8", file, "-"])
        return result.stdout.components(separatedBy: "\u{0C}")
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    /// `qpdf --check` finds nothing (exit 0, not 3 for warnings).
    static func expectClean(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try run("qpdf", ["--check", file])
        #expect(check.status == 0, "\(file): \(check.stdout) \(check.stderr)", sourceLocation: sourceLocation)
    }

    /// The same pages and text as `original`, as independent tools read them.
    static func expectSameDocument(_ output: String, as original: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        try expectClean(output, sourceLocation: sourceLocation)
        #expect(try qpdfPageCount(output) == qpdfPageCount(original), sourceLocation: sourceLocation)
        #expect(try texts(output) == texts(original), "\(output)", sourceLocation: sourceLocation)
    }

    /// qpdf's best lossless rewrite of `file`, the size to beat.
    static func qpdfSize(_ file: String, in dir: URL) throws -> Int {
        let out = dir.appendingPathComponent("qpdf-\(UUID().uuidString).pdf").path
        let result = try run(
            "qpdf", ["--object-streams=generate", "--recompress-flate", "--compression-level=9", file, out])
        #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
        return try size(out)
    }

    static let corpusFiles = [
        "pdfjs-tracemonkey.pdf", "pdfjs-TAMReview.pdf", "sample-libreoffice-form.pdf", "pdfjs-basicapi.pdf",
        "tbt-TeXbyTopic.pdf",
        // Small files where pdfedit's own XMP (a new rdf:Description) or Flate
        // with a predictor kept made the output a few hundred bytes larger than qpdf's.
        "ocrmypdf-skew.pdf", "ocrmypdf-tagged.pdf", "pdfa-PDF_2.0_with_page_level_output_intent.pdf",
        "pdfjs-alphatrans.pdf", "pdfjs-issue7229.pdf", "pdfjs-rotation.pdf",
        "plumber-pdffill-demo.pdf",
        // qpdf's object and cross-reference streams at --compression-level=9 made
        // it 56 bytes smaller than pdfedit's at zlib's default (ProcessSettings).
        "pdfjs-issue918.pdf",
    ]

    @Test(
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
        arguments: corpusFiles)
    func optimizeCorpusFile(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Paths.corpus(name)
        let output = dir.appendingPathComponent("small.pdf").path
        try pdfeditOK("optimize", input, "-o", output, "-q")
        try Self.expectSameDocument(output, as: input)
        #expect(try Self.size(output) < Self.size(input), "\(name)")
        #expect(try Self.size(output) <= Self.qpdfSize(input, in: dir), "\(name): larger than qpdf's")
    }

    /// A one-page PDF drawing two Flate images with a PNG predictor (Up): a
    /// flat one of four colours in repeated rows (smaller deflated without the
    /// predictor) and a smooth one (smaller with it); and an XMP packet with
    /// pdf:Producer and xmp:ModifyDate as elements and 2,000 bytes of padding.
    static let predictorScript = #"""
        import sys, zlib, math
        import pdfbytes
        out_path = sys.argv[1]
        def up(rows, row_bytes):
            out, previous = bytearray(), bytes(row_bytes)
            for y in range(len(rows) // row_bytes):
                row = rows[y * row_bytes:(y + 1) * row_bytes]
                out += b"\x02" + bytes((a - b) & 255 for a, b in zip(row, previous))
                previous = row
            return bytes(out)
        w, h = 200, 150
        colours = [b"\xff\xff\xff", b"\x00\x00\x00", b"\xcc\x22\x22", b"\x22\x44\xcc"]
        seed, bases = 11, []
        for i in range(8):
            row = bytearray()
            for x in range(w // 10):
                seed = (seed * 1103515245 + 12345) & 0x7fffffff
                row += colours[(seed >> 16) % 4] * 10
            bases.append(bytes(row))
        flat = bytearray()
        for y in range(h):
            seed = (seed * 1103515245 + 12345) & 0x7fffffff
            flat += bases[(seed >> 16) % 8]
        smooth = bytes(int(128 + 90 * math.sin(x / 13.0 + c) * math.cos(y / 17.0)) & 255
                       for y in range(h) for x in range(w) for c in range(3))
        flat_up, smooth_up = up(bytes(flat), w * 3), up(smooth, w * 3)
        assert len(zlib.compress(bytes(flat), 9)) < len(zlib.compress(flat_up, 9))
        assert len(zlib.compress(smooth_up, 9)) < len(zlib.compress(smooth, 9))
        xmp = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
               '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
               '<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xap="http://ns.adobe.com/xap/1.0/"'
               ' xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
               '   <pdf:Producer>An Old Producer Program 1.0</pdf:Producer>\n'
               '   <xap:ModifyDate>2020-01-01T00:00:00Z</xap:ModifyDate>\n   <xap:Label>  </xap:Label><!-- a comment -->\n'
               '   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Predictor fixture</rdf:li></rdf:Alt></dc:title>\n'
               '</rdf:Description>\n</rdf:RDF></x:xmpmeta>\n' + ' ' * 2000 + '\n<?xpacket end="w"?>').encode()
        def stream(dictionary, data):
            return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
        image = b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 " % (w, h)
        parms = b"/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /Columns %d >>" % w
        objects = [
            b"<< /Type /Catalog /Pages 2 0 R /Metadata 8 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> "
            b"/XObject << /Flat 5 0 R /Smooth 6 0 R >> >> >>",
            stream(b"", b"q 200 0 0 150 72 500 cm /Flat Do Q q 200 0 0 150 300 500 cm /Smooth Do Q "
                        b"BT /F1 18 Tf 72 200 Td (Predictor page) Tj ET"),
            stream(image + parms, zlib.compress(flat_up, 9)),
            stream(image + parms, zlib.compress(smooth_up, 9)),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            stream(b"/Type /Metadata /Subtype /XML", xmp),
        ]
        open(out_path, "wb").write(pdfbytes.pdf(objects, header=b"%PDF-1.7\n"))
        """#

    /// The XMP packet of `file` (pdfinfo -meta), checked to be well-formed XML.
    static func xmp(_ file: String) throws -> String {
        let packet = try run("pdfinfo", ["-meta", file]).stdout
        let parsed = try run(
            "python3", ["-c", "import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())"],
            stdin: packet)
        #expect(parsed.status == 0, "XMP of \(file) is not well-formed: \(parsed.stderr)\n\(packet)")
        return packet
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// pdfedit's Producer and dates are written where the packet has them, not
    /// in a new rdf:Description with its namespace declarations, and what the
    /// packet grows by comes out of its padding; `optimize` drops the padding
    /// and the indentation, not a value that is white space.
    @Test func xmpEditedInPlaceAndPaddingDropped() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.pdf").path
        let made = try python(Self.predictorScript, [input])
        try #require(made.status == 0, "\(made.stderr)")
        let original = try Self.xmp(input)
        try pdfeditOK("export", "plain.pdf", "--from", "in.pdf", "-q", in: dir)
        try pdfeditOK("optimize", "in.pdf", "-o", "small.pdf", "-q", in: dir)
        for name in ["plain.pdf", "small.pdf"] {
            let output = dir.appendingPathComponent(name).path
            try Self.expectSameDocument(output, as: input)
            let packet = try Self.xmp(output)
            #expect(Self.occurrences(of: "<pdf:Producer>pdfedit</pdf:Producer>", in: packet) == 1, "\(name): \(packet)")
            #expect(Self.occurrences(of: "Producer>", in: packet) == 2, "\(name): one pdf:Producer")
            #expect(Self.occurrences(of: "xmlns:pdf=", in: packet) == 1, "\(name): no second pdf namespace declaration")
            #expect(!packet.contains("2020-01-01") && !packet.contains("An Old Producer"), "\(name): old values replaced")
            #expect(packet.contains("<xap:ModifyDate>") && packet.contains("<xmp:MetadataDate>"), "\(name): \(packet)")
            #expect(packet.contains("<rdf:li xml:lang=\"x-default\">Predictor fixture</rdf:li>"))
        }
        let plain = try Self.xmp(dir.appendingPathComponent("plain.pdf").path)
        #expect(plain.utf8.count == original.utf8.count, "the packet keeps its size: its padding took the growth")
        let small = try Self.xmp(dir.appendingPathComponent("small.pdf").path)
        #expect(small.utf8.count < original.utf8.count - 1800, "optimize drops the padding: \(small.utf8.count)")
        #expect(small.contains("</x:xmpmeta>\n<?xpacket end=\"w\"?>"), "\(small)")
        #expect(!small.contains(">\n   <") && plain.contains(">\n   <"), "optimize drops the indentation")
        #expect(small.contains("<xap:Label>  </xap:Label><!-- a comment -->"), "a value of white space stays")
    }

    /// `optimize` drops only the white space between the elements of an XMP
    /// packet, never character data: an rdf:parseType="Literal" value (an XML
    /// literal, whose white space between tags is part of it), an element
    /// under xml:space="preserve", and white space beside a comment stay as
    /// they are; the indentation around them goes.
    @Test func xmpLiteralValueKeepsItsWhiteSpace() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let literal = "\n  <h:b>bold</h:b> <h:i>italic</h:i>\n    two  spaces\n  <h:p>\n    <h:em>x</h:em>\n  </h:p>\n"
        let preserved = "<e:a>1</e:a>   <e:b>2</e:b>\n"
        let script = #"""
            import sys
            from pdfbytes import pdf, stream
            literal, preserved = sys.argv[2], sys.argv[3]
            xmp = ('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
                   '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
                   '  <rdf:Description rdf:about="" xmlns:e="http://example.com/e/" xmlns:h="http://www.w3.org/1999/xhtml">\n'
                   '   <e:Note rdf:parseType="Literal">' + literal + '</e:Note>\n'
                   '   <e:Kept xml:space="preserve">' + preserved + '</e:Kept>\n'
                   '   <e:Spaced> <!-- c --> </e:Spaced>\n'
                   '  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n' + ' ' * 1000 + '\n<?xpacket end="w"?>').encode()
            open(sys.argv[1], "wb").write(pdf([
                b"<< /Type /Catalog /Pages 2 0 R /Metadata 6 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
                stream(b"", b"BT /F1 18 Tf 72 700 Td (Literal page) Tj ET"),
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                stream(b"/Type /Metadata /Subtype /XML", xmp),
            ]))
            """#
        let input = dir.appendingPathComponent("in.pdf").path
        let made = try python(script, [input, literal, preserved])
        try #require(made.status == 0, "\(made.stderr)")
        try pdfeditOK("optimize", "in.pdf", "-o", "small.pdf", "-q", in: dir)
        let output = dir.appendingPathComponent("small.pdf").path
        try Self.expectSameDocument(output, as: input)
        let packet = try Self.xmp(output)
        #expect(packet.contains("<e:Note rdf:parseType=\"Literal\">" + literal + "</e:Note>"), "\(packet)")
        #expect(packet.contains("<e:Kept xml:space=\"preserve\">" + preserved + "</e:Kept>"), "\(packet)")
        #expect(packet.contains("<e:Spaced> <!-- c --> </e:Spaced>"), "\(packet)")
        #expect(packet.contains("</e:Note><e:Kept") && packet.contains("<rdf:RDF xmlns:rdf="), "indentation dropped: \(packet)")
        #expect(!packet.contains("\n <rdf:RDF") && !packet.contains("\n  <rdf:Description"), "\(packet)")
    }

    /// A Flate image with a predictor is written without it when that is
    /// smaller (as qpdf's --recompress-flate writes every one), with it when not;
    /// the pixels are the same.
    @Test func predictorDroppedWhereSmaller() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.pdf").path
        let made = try python(Self.predictorScript, [input])
        try #require(made.status == 0, "\(made.stderr)")
        let output = dir.appendingPathComponent("small.pdf").path
        try pdfeditOK("optimize", input, "-o", output, "-q")
        try Self.expectSameDocument(output, as: input)
        #expect(try Self.size(output) <= Self.qpdfSize(input, in: dir), "larger than qpdf's")
        let images = try #require(try ImageResamplingTests.images(output).first)
        let flat = try ImageResamplingTests.dictionary(of: try #require(images["/Flat"]).object, in: output)
        let smooth = try ImageResamplingTests.dictionary(of: try #require(images["/Smooth"]).object, in: output)
        let before = try ImageResamplingTests.dictionary(of: "5 0 R", in: input)
        #expect(flat["/DecodeParms"] == nil && flat["/Filter"] as? String == "/FlateDecode", "\(flat)")
        #expect((flat["/Length"] as? Int ?? .max) < (before["/Length"] as? Int ?? 0), "\(flat)")
        #expect(smooth["/DecodeParms"] != nil, "the smooth image keeps its predictor: \(smooth)")
        #expect(try ImageResamplingTests.meanError(input, output, page: 1) == 0)
    }

    /// The same image under two PDF 1.0 /Name entries (as a producer that
    /// writes it once per resource name does) is written once; its XMP packet
    /// loses its padding.
    @Test func imagesDifferingInNameShared() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.pdf").path
        let script = #"""
            import sys, zlib
            import pdfbytes
            def stream(dictionary, data):
                return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
            pixels = zlib.compress(bytes((x * 7 + y * 3) & 255 for y in range(64) for x in range(64 * 3)), 9)
            image = b"/Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
            xmp = b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>image/png</dc:format></rdf:Description></rdf:RDF></x:xmpmeta>' + b" " * 500 + b'<?xpacket end="w"?>'
            objects = [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 9 0 R >> /XObject << /ImA 6 0 R >> >> >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 8 0 R /Resources << /Font << /F1 9 0 R >> /XObject << /ImB 7 0 R >> >> >>",
                stream(b"", b"q 64 0 0 64 72 600 cm /ImA Do Q BT /F1 18 Tf 72 200 Td (First page) Tj ET"),
                stream(image + b"/Name /ImA /Metadata 10 0 R", pixels),
                stream(image + b"/Name /ImB /Metadata 10 0 R", pixels),
                stream(b"", b"q 64 0 0 64 72 600 cm /ImB Do Q BT /F1 18 Tf 72 200 Td (Second page) Tj ET"),
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                stream(b"/Type /Metadata /Subtype /XML", xmp),
            ]
            open(sys.argv[1], "wb").write(pdfbytes.pdf(objects, header=b"%PDF-1.7\n"))
            """#
        let made = try python(script, [input])
        try #require(made.status == 0, "\(made.stderr)")
        let output = dir.appendingPathComponent("small.pdf").path
        try pdfeditOK("optimize", input, "-o", output, "-q")
        try Self.expectSameDocument(output, as: input)
        #expect(try Self.size(output) <= Self.qpdfSize(input, in: dir), "larger than qpdf's")
        let pages = try ImageResamplingTests.images(output)
        let first = try #require(pages.first?["/ImA"]?.object)
        let second = try #require(pages.last?["/ImB"]?.object)
        #expect(first == second, "one image object for both names")
        let image = try ImageResamplingTests.dictionary(of: first, in: output)
        let packet = try #require(image["/Metadata"] as? String)
        let metadata = try ImageResamplingTests.dictionary(of: packet, in: output)
        #expect(metadata["/Filter"] == nil && (metadata["/Length"] as? Int ?? .max) < 400, "padding dropped: \(metadata)")
        for page in 1...2 {
            #expect(try ImageResamplingTests.meanError(input, output, page: page) == 0)
        }
    }

    /// Two sources that carry the same fonts and images: written once.
    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func mergeSharesWhatBothSourcesCarry() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for copy in ["a.pdf", "b.pdf"] {
            try FileManager.default.copyItem(
                atPath: Paths.corpus("pdfjs-tracemonkey.pdf"), toPath: dir.appendingPathComponent(copy).path)
        }
        try pdfeditOK("insert", "b.pdf", "a.pdf", "-o", "plain.pdf", "-q", in: dir)
        try pdfeditOK("insert", "b.pdf", "a.pdf", "-o", "small.pdf", "--compress", "-q", in: dir)
        try pdfeditOK("export", "exported.pdf", "--from", "plain.pdf", "--compress", "-q", in: dir)
        try pdfeditOK("merge", "a.pdf", "b.pdf", "-o", "merged.pdf", "--compress", "-q", in: dir)
        let plain = dir.appendingPathComponent("plain.pdf").path
        let qpdf = try Self.qpdfSize(plain, in: dir)
        let plainSize = try Self.size(plain)
        for name in ["small.pdf", "exported.pdf", "merged.pdf"] {
            let small = dir.appendingPathComponent(name).path
            try Self.expectSameDocument(small, as: plain)
            #expect(try qpdfPageCount(small) == 28)
            let size = try Self.size(small)
            #expect(size * 2 <= plainSize, "\(name): \(size) not half of \(plainSize)")
            #expect(size * 100 <= qpdf * 85, "\(name): \(size) over 0.85 × qpdf's \(qpdf)")
        }
    }

    /// A file built here: two pages with the same content stream, image and
    /// annotation, each its own object, and an unfiltered stream. The streams
    /// become one object each; the annotations stay two (an annotation belongs
    /// to its page); the content is deflated.
    @Test func duplicatesSharedAnnotationsKept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = #"""
            import sys, zlib
            import pdfbytes
            content = b"q 100 0 0 100 50 50 cm /Im0 Do Q BT /F1 24 Tf 72 700 Td (Same text) Tj ET\n" * 40
            image = zlib.compress(bytes(range(256)) * 12, 1)
            objects = [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            ]
            def page(content, image, font, annot):
                return (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                        b"/Resources << /XObject << /Im0 %d 0 R >> /Font << /F1 %d 0 R >> >> /Annots [%d 0 R] >>"
                        % (content, image, font, annot))
            objects.append(page(5, 7, 9, 11))
            objects.append(page(6, 8, 10, 12))
            for _ in range(2):
                objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
            for _ in range(2):
                objects.append(b"<< /Type /XObject /Subtype /Image /Width 48 /Height 64 /ColorSpace /DeviceGray "
                               b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(image)
                               + image + b"\nendstream")
            for _ in range(2):
                objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
            for _ in range(2):
                objects.append(b"<< /Subtype /Link /Rect [72 72 200 100] /Border [0 0 0] "
                               b"/A << /S /URI /URI (https://example.org/) >> >>")
            open(sys.argv[1], "wb").write(pdfbytes.pdf(objects, header=b"%PDF-1.7\n"))
            """#
        let input = dir.appendingPathComponent("twins.pdf").path
        let made = try python(script, [input])
        #expect(made.status == 0, "\(made.stderr)")
        let output = dir.appendingPathComponent("small.pdf").path
        let report = try pdfeditOK("optimize", input, "-o", output, "--json")
        try Self.expectSameDocument(output, as: input)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let shared = try #require(json["sharedDuplicates"] as? [String: Int])
        // The content stream, the image and the font: one copy each left out.
        #expect(shared["count"] == 3)
        #expect((json["recompression"] as? [String: Int])?["count"] == 2)  // the content deflated, the image at level 9
        // Read back by qpdf: both pages draw the same content and image objects,
        // and keep an annotation each.
        let pages = try run("qpdf", ["--json", "--json-key=pages", output]).stdout
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(pages.utf8)) as? [String: Any])
        let list = try #require(parsed["pages"] as? [[String: Any]])
        #expect(list.count == 2)
        let contents = list.map { ($0["contents"] as? [String]) ?? [] }
        #expect(contents[0] == contents[1] && contents[0].count == 1)
        let images = list.map { (($0["images"] as? [[String: Any]]) ?? []).compactMap { $0["object"] as? String } }
        #expect(images[0] == images[1] && images[0].count == 1)
        let objects = try run("qpdf", ["--json", "--json-key=qpdf", output]).stdout
        let all = try #require(try JSONSerialization.jsonObject(with: Data(objects.utf8)) as? [String: Any])
        let table = try #require((all["qpdf"] as? [Any])?.last as? [String: Any])
        let annotations = list.map { page -> [String] in
            let object = "obj:" + ((page["object"] as? String) ?? "")
            return ((table[object] as? [String: Any])?["value"] as? [String: Any])?["/Annots"] as? [String] ?? []
        }
        #expect(annotations[0].count == 1 && annotations[1].count == 1 && annotations[0] != annotations[1], "\(annotations)")
        // Pixels too: the same pages as the input.
        for file in [input, output] {
            let ppm = try run("pdftoppm", ["-r", "20", "-gray", file, file + "-page"])
            #expect(ppm.status == 0)
        }
        for page in 1...2 {
            let a = try Data(contentsOf: URL(fileURLWithPath: "\(input)-page-\(page).pgm"))
            let b = try Data(contentsOf: URL(fileURLWithPath: "\(output)-page-\(page).pgm"))
            #expect(a == b, "page \(page) renders differently")
        }
    }

    /// The report's JSON: its keys, and sizes that are the files' own.
    @Test func optimizeReportsItsSteps() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try pdfeditOK("optimize", "features.pdf", "-o", "small.pdf", "--json", in: dir)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "input", "output", "pageCount", "bytesBefore", "bytesAfter", "saved", "sharedDuplicates",
                "recompression", "images", "objectStreams", "linearized", "warnings",
            ])
        let input = dir.appendingPathComponent("features.pdf").path
        let output = dir.appendingPathComponent("small.pdf").path
        #expect(json["bytesBefore"] as? Int == (try Self.size(input)))
        #expect(json["bytesAfter"] as? Int == (try Self.size(output)))
        #expect(json["saved"] as? Int == (try Self.size(input)) - (try Self.size(output)))
        let shared = try #require(json["sharedDuplicates"] as? [String: Int])
        let recompression = try #require(json["recompression"] as? [String: Int])
        #expect(Set(shared.keys) == ["count", "bytes"] && Set(recompression.keys) == ["count", "bytes"])
        #expect(
            json["objectStreams"] as? Int
                == (json["saved"] as? Int ?? 0) - (shared["bytes"] ?? 0) - (recompression["bytes"] ?? 0))
        #expect(json["pageCount"] as? Int == (try qpdfPageCount(input)))
        #expect(json["linearized"] as? Bool == false)
        try Self.expectSameDocument(output, as: input)
        // The text report names each step.
        let text = try pdfeditOK("optimize", "features.pdf", "-o", "again.pdf", in: dir).stdout
        for word in ["bytes before:", "bytes after:", "shared duplicates:", "recompression:", "object streams:"] {
            #expect(text.contains(word), "\(text)")
        }
    }

    @Test func linearizedOutputs() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("optimize", "alpha.pdf", "-o", "a.pdf", "--linearize", "-q", in: dir)
        try pdfeditOK("export", "b.pdf", "2..5", "--from", "alpha.pdf", "--linearize", "-q", in: dir)
        try pdfeditOK("rotate", "1", "--by", "90", "alpha.pdf", "-o", "c.pdf", "--linearize", "--compress", "-q", in: dir)
        try pdfeditOK("split", "alpha.pdf", "-o", "parts/p-{n}.pdf", "--every", "4", "--linearize", "--compress", "-q", in: dir)
        for (name, pages) in [("a.pdf", try qpdfPageCount(dir.appendingPathComponent("alpha.pdf").path)), ("b.pdf", 4)] {
            let path = dir.appendingPathComponent(name).path
            #expect(try qpdfPageCount(path) == pages)
        }
        for name in ["a.pdf", "b.pdf", "c.pdf", "parts/p-1.pdf", "parts/p-2.pdf"] {
            let path = dir.appendingPathComponent(name).path
            let check = try run("qpdf", ["--check-linearization", path])
            #expect(check.status == 0 && check.stdout.contains("no linearization errors"), "\(name): \(check.stdout)")
            try Self.expectClean(path)
        }
        let info = try run("pdfinfo", ["-f", "1", "-l", "1", dir.appendingPathComponent("c.pdf").path]).stdout
        #expect(info.contains(/rot:\s+90/), "\(info)")
        // Without it, not linearized.
        try pdfeditOK("export", "d.pdf", "--from", "alpha.pdf", "-q", in: dir)
        // (qpdf 11.3 has no --is-linearized: --check-linearization says it.)
        let plain = try run("qpdf", ["--check-linearization", dir.appendingPathComponent("d.pdf").path])
        #expect(plain.stdout.contains("is not linearized"), "\(plain.stdout)")
    }

    /// qpdf 11.3 linearizes through a recursive walk of the object graph: a
    /// chain of 30,000 bookmarks (each the /Next of the one before; 24,000
    /// were enough) overflowed the default stack and ended the process with a
    /// signal (qpdf's own `--linearize` still does, and so do its `--check` and
    /// `--check-linearization` of the output: pdfinfo and qpdf's JSON read it).
    /// The linearized write runs on a stack sized for the output's objects: the
    /// output is written, linearized, with every bookmark.
    @Test func aLongChainOfBookmarksIsLinearized() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let count = 30_000
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 4 0 R >>",
            4: TestPDF.stream("", ""),
            5: "<< /Type /Outlines /First 100 0 R /Last \(99 + count) 0 R /Count \(count) >>",
        ]
        for i in 0..<count {
            let previous = i > 0 ? " /Prev \(99 + i) 0 R" : ""
            let next = i + 1 < count ? " /Next \(101 + i) 0 R" : ""
            objects[100 + i] = "<< /Title (b\(i)) /Parent 5 0 R\(previous)\(next) /Dest [3 0 R /Fit] >>"
        }
        let input = dir.appendingPathComponent("chain.pdf")
        try TestPDF.bytes(numbered: objects).write(to: input)
        let output = dir.appendingPathComponent("out.pdf").path
        let result = try pdfedit("rotate", "1", "--by", "90", input.path, "-o", output, "--linearize", "-q", in: dir)
        #expect(result.status == 0, "\(result.status): \(result.stderr)")
        let info = try run("pdfinfo", [output]).stdout
        #expect(info.contains(/Optimized:\s+yes/), "linearized: \(info)")
        #expect(info.contains(/Page rot:\s+90/), "\(info)")
        let outline = try run("qpdf", ["--json", "--json-key=outlines", output]).stdout
        #expect(outline.components(separatedBy: "\"title\": \"b").count - 1 == count, "every bookmark kept")
    }

    /// Direct-mode edits and `apply` take --compress: object streams in the output.
    @Test func directModeAndApplyCompress() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("reverse", "all", "alpha.pdf", "-o", "r.pdf", "--compress", "-q", in: dir)
        try pdfeditOK("apply", "-e", "rotate 1 --by 180", "alpha.pdf", "beta.pdf", "-o", "{stem}-out.pdf", "--compress", in: dir)
        for name in ["r.pdf", "alpha-out.pdf", "beta-out.pdf"] {
            let path = dir.appendingPathComponent(name).path
            try Self.expectClean(path)
            let xref = try run("qpdf", ["--show-xref", path]).stdout
            #expect(xref.contains("compressed"), "\(name): no object streams")
        }
        // A session's export, twice: byte-identical (deterministic), smaller than without.
        try pdfeditOK("open", "alpha.pdf", "-q", in: dir)
        try pdfeditOK("insert", "beta.pdf", "-q", in: dir)
        for name in ["s1.pdf", "s2.pdf"] { try pdfeditOK("export", name, "--compress", "-q", in: dir) }
        try pdfeditOK("export", "plain.pdf", "-q", in: dir)
        let s1 = dir.appendingPathComponent("s1.pdf").path
        try Self.expectSameDocument(s1, as: dir.appendingPathComponent("plain.pdf").path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: s1)) == Data(contentsOf: dir.appendingPathComponent("s2.pdf")))
        #expect(try Self.size(s1) < Self.size(dir.appendingPathComponent("plain.pdf").path))
        let alpha = dir.appendingPathComponent("alpha.pdf").path
        let reversed = try Self.texts(dir.appendingPathComponent("r.pdf").path)
        let original = try Self.texts(alpha)
        #expect(Array(reversed.dropLast().reversed()) == Array(original.dropLast()))
    }

    /// `optimize` as a line of an `apply` script: each result written as with
    /// --compress (and --linearize); it takes no file or output of its own.
    @Test func optimizeLineInApply() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "rotate 1 --by 90\noptimize --linearize\n".write(
            to: dir.appendingPathComponent("script.txt"), atomically: true, encoding: .utf8)
        try pdfeditOK("apply", "script.txt", "alpha.pdf", "beta.pdf", "-o", "{stem}-small.pdf", in: dir)
        for stem in ["alpha", "beta"] {
            let path = dir.appendingPathComponent("\(stem)-small.pdf").path
            try Self.expectClean(path)
            #expect(try run("qpdf", ["--check-linearization", path]).status == 0, "\(stem)")
            #expect(try run("qpdf", ["--show-xref", path]).stdout.contains("compressed"), "\(stem): no object streams")
            let info = try run("pdfinfo", ["-f", "1", "-l", "1", path]).stdout
            #expect(info.contains(/rot:\s+90/), "\(info)")
        }
        // Only by itself, and only in apply.
        #expect(try pdfedit("apply", "-e", "optimize -o x.pdf", "alpha.pdf", "-o", "{stem}-x.pdf", in: dir).status == 64)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("alpha-x.pdf").path))
    }

    @Test func inPlaceAndExitCodes() throws {
        let dir = try scratchDirectory(with: "features.pdf", "notapdf.pdf", "encrypted.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let features = dir.appendingPathComponent("features.pdf").path
        let original = try Data(contentsOf: URL(fileURLWithPath: features))
        let texts = try Self.texts(features)
        // Failures leave the input as it was.
        let notPDF = dir.appendingPathComponent("notapdf.pdf").path
        let notPDFBytes = try Data(contentsOf: URL(fileURLWithPath: notPDF))
        #expect(try pdfedit("optimize", "notapdf.pdf", "--in-place", in: dir).status == 65)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notPDF)) == notPDFBytes)
        let encrypted = dir.appendingPathComponent("encrypted.pdf").path
        let encryptedBytes = try Data(contentsOf: URL(fileURLWithPath: encrypted))
        #expect(try pdfedit("optimize", "encrypted.pdf", "--in-place", in: dir).status == 77)
        #expect(try Data(contentsOf: URL(fileURLWithPath: encrypted)) == encryptedBytes)
        // Usage and outputs.
        #expect(try pdfedit("optimize", "features.pdf", in: dir).status == 64)
        #expect(try pdfedit("optimize", "features.pdf", "-o", "x.pdf", "--in-place", in: dir).status == 64)
        #expect(try pdfedit("optimize", "missing.pdf", "-o", "x.pdf", in: dir).status == 66)
        #expect(try pdfedit("optimize", "features.pdf", "-o", "alpha.pdf", in: dir).status == 73)
        #expect(try pdfedit("rotate", "1", "--by", "90", "--compress", in: dir).status == 64)
        #expect(try Data(contentsOf: URL(fileURLWithPath: features)) == original)
        // Success replaces it, smaller, the same document.
        try pdfeditOK("optimize", "features.pdf", "--in-place", "-q", in: dir)
        try Self.expectClean(features)
        #expect(try Self.texts(features) == texts)
        #expect(try Self.size(features) < original.count)
    }
}
