import Foundation
import Testing

/// Issue 43, section 1, lossy part: `--images DPI[:QUALITY]` on `optimize`,
/// direct-mode edits, `merge`, `export` and `apply`. Every output is read back by
/// qpdf (check, the images' sizes and filters), pdftotext and pdftoppm.
@Suite struct ImageResamplingTests {
    /// Writes a two-page PDF with text on both pages. Its first page draws a
    /// 1200x900 RGB photograph (Flate, many colours) at 2 x 1.5 in, a 100x100
    /// gray image at 2 in (50 dpi), a 600x600 RGB image with a 600x600 soft mask
    /// at 1 in, and the fixture photo.jpg (120x80, DCT) at 0.2 x 0.1333 in; with
    /// "hostile" it draws instead a 6000x6000 RGB image whose Flate data is 300
    /// bytes and a JPEG whose header claims 8000x8000 over half the fixture's bytes.
    static let script = #"""
        import sys, zlib, struct
        import pdfbytes
        out_path, jpeg_path = sys.argv[1], sys.argv[2]
        jpeg = open(jpeg_path, "rb").read()
        def noise(n, seed):
            x = seed
            out = bytearray(n)
            for i in range(n):
                x = (x * 1103515245 + 12345) & 0x7fffffff
                out[i] = (x >> 16) & 31
            return out
        def photo(w, h):
            rows = bytearray()
            jitter = noise(w * 3, 7)
            for y in range(h):
                for x in range(w):
                    j = jitter[(x * 3 + y) % len(jitter)]
                    rows += bytes(((x * 200 // w + j) & 255, (y * 200 // h + j) & 255, ((x + y) * 100 // (w + h) + 2 * j) & 255))
            return bytes(rows)
        def gray(w, h):
            return bytes((x * 255 // w) for y in range(h) for x in range(w))
        def disc(w, h):
            r2 = (w // 2) ** 2
            return bytes(255 if (x - w // 2) ** 2 + (y - h // 2) ** 2 < r2 else 0 for y in range(h) for x in range(w))
        def stream(dictionary, data):
            return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
        # The fixture's JPEG with its frame header claiming 8000 x 8000.
        sof = jpeg.index(b"\xff\xc0")
        huge_jpeg = jpeg[:sof + 5] + struct.pack(">HH", 8000, 8000) + jpeg[sof + 9:]
        huge_jpeg = huge_jpeg[:len(huge_jpeg) // 2]
        page1 = (b"q 144 0 0 108 72 600 cm /Photo Do Q q 144 0 0 144 300 400 cm /Small Do Q "
                 b"q 72 0 0 72 72 300 cm /Alpha Do Q q 14.4 0 0 9.6 400 300 cm /Jpeg Do Q "
                 b"BT /F1 18 Tf 72 200 Td (Photo page) Tj ET")
        page2 = (b"q 72 0 0 72 72 600 cm /Huge Do Q q 72 0 0 72 200 600 cm /HugeJ Do Q "
                 b"BT /F1 18 Tf 72 200 Td (Hostile page) Tj ET")
        hostile = len(sys.argv) > 3 and sys.argv[3] == "hostile"
        resources = (b"/XObject << /Huge 8 0 R /HugeJ 9 0 R >>" if hostile
                     else b"/XObject << /Photo 8 0 R /Small 9 0 R /Alpha 10 0 R /Jpeg 12 0 R >>")
        annotations = b"" if hostile else b" /Annots [13 0 R]"
        objects = [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> "
            + resources + b" >>" + annotations + b" >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>",
            stream(b"", page2 if hostile else page1),
            stream(b"", b"BT /F1 18 Tf 72 200 Td (Second page) Tj ET"),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        if hostile:
            objects += [
                stream(b"/Type /XObject /Subtype /Image /Width 6000 /Height 6000 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                       b"/Filter /FlateDecode", zlib.compress(b"\x80" * 300)),
                stream(b"/Type /XObject /Subtype /Image /Width 8000 /Height 8000 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                       b"/Filter /DCTDecode", huge_jpeg),
            ]
        else:
            objects += [
                stream(b"/Type /XObject /Subtype /Image /Width 1200 /Height 900 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                       b"/Filter /FlateDecode", zlib.compress(photo(1200, 900), 9)),
                stream(b"/Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceGray /BitsPerComponent 8 "
                       b"/Filter /FlateDecode", zlib.compress(gray(100, 100), 9)),
                stream(b"/Type /XObject /Subtype /Image /Width 600 /Height 600 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                       b"/SMask 11 0 R /Filter /FlateDecode", zlib.compress(photo(600, 600), 9)),
                stream(b"/Type /XObject /Subtype /Image /Width 600 /Height 600 /ColorSpace /DeviceGray /BitsPerComponent 8 "
                       b"/Filter /FlateDecode", zlib.compress(disc(600, 600), 9)),
                stream(b"/Type /XObject /Subtype /Image /Width 120 /Height 80 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                       b"/Filter /DCTDecode", jpeg),
                # A stamp annotation whose appearance (a 100-unit box) draws a 600x600
                # photograph over its whole box, fitted to a 1 in square.
                b"<< /Type /Annot /Subtype /Stamp /Rect [300 100 372 172] /AP << /N 14 0 R >> >>",
                stream(b"/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /XObject << /Icon 15 0 R >> >>",
                       b"q 100 0 0 100 0 0 cm /Icon Do Q"),
                stream(b"/Type /XObject /Subtype /Image /Width 600 /Height 600 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                       b"/Filter /FlateDecode", zlib.compress(photo(600, 600), 9)),
            ]
        open(out_path, "wb").write(pdfbytes.pdf(objects, header=b"%PDF-1.7\n"))
        """#

    /// The mean absolute difference of two pages' pixels (0-255), from pdftoppm's PPM files.
    static let meanError = #"""
        import sys
        def read(path):
            data = open(path, "rb").read()
            fields, index = [], 0
            while len(fields) < 4:
                while data[index:index + 1].isspace(): index += 1
                start = index
                while not data[index:index + 1].isspace(): index += 1
                fields.append(data[start:index])
            return int(fields[1]), int(fields[2]), data[index + 1:]
        (w1, h1, a), (w2, h2, b) = read(sys.argv[1]), read(sys.argv[2])
        assert (w1, h1) == (w2, h2), "sizes differ"
        print(sum(abs(x - y) for x, y in zip(a, b)) / len(a))
        """#

    /// Makes images.pdf (or hostile.pdf) in `dir`.
    static func makeInput(in dir: URL, hostile: Bool = false) throws -> String {
        let input = dir.appendingPathComponent(hostile ? "hostile.pdf" : "images.pdf").path
        let made = try python(script, [input, Paths.fixture("photo.jpg")] + (hostile ? ["hostile"] : []))
        #expect(made.status == 0, "\(made.stderr)")
        return input
    }

    /// Each page's images as qpdf describes them, by resource name: width,
    /// height, filters and object.
    struct Image: Equatable {
        var width: Int
        var height: Int
        var filters: [String]
        var object: String
    }

    static func images(_ file: String) throws -> [[String: Image]] {
        let result = try run("qpdf", ["--json", "--json-key=pages", file])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pages = try #require(parsed["pages"] as? [[String: Any]])
        return pages.map { page in
            var byName: [String: Image] = [:]
            for image in (page["images"] as? [[String: Any]]) ?? [] {
                guard let name = image["name"] as? String else { continue }
                byName[name] = Image(
                    width: image["width"] as? Int ?? -1, height: image["height"] as? Int ?? -1,
                    filters: image["filter"] as? [String] ?? [], object: image["object"] as? String ?? "")
            }
            return byName
        }
    }

    /// The dictionary of object `reference` ("12 0 R"; a stream's or a plain one) as qpdf's JSON gives it.
    static func dictionary(of reference: String, in file: String) throws -> [String: Any] {
        let result = try run("qpdf", ["--json", "--json-key=qpdf", file])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let table = try #require((all["qpdf"] as? [Any])?.last as? [String: Any])
        let entry = try #require(table["obj:" + reference] as? [String: Any])
        if let value = entry["value"] as? [String: Any] { return value }  // not a stream
        return try #require((entry["stream"] as? [String: Any])?["dict"] as? [String: Any])
    }

    /// pdftoppm's pixels of page `page` of both files at 72 dpi, compared.
    static func meanError(_ a: String, _ b: String, page: Int) throws -> Double {
        for file in [a, b] {
            let made = try run("pdftoppm", ["-r", "72", "-f", "\(page)", "-l", "\(page)", "-singlefile", file, file + "-px"])
            #expect(made.status == 0)
        }
        let result = try python(meanError, [a + "-px.ppm", b + "-px.ppm"])
        return try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stderr)")
    }

    /// The two image-heavy corpus files that were 1.12 x Ghostscript's /ebook
    /// size at 150 dpi (a JPEG's Huffman tables, an XMP packet's padding and
    /// indentation): within 10% of it, text and pixels kept.
    @Test(
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
        .enabled(if: (try? run("gs", ["--version"]).status) == 0, "Ghostscript is not installed: comparison skipped"),
        arguments: ["pdfjs-alphatrans.pdf", "pypdf-example.pdf"])
    func withinTenPercentOfGhostscript(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Paths.corpus(name)
        let output = dir.appendingPathComponent("small.pdf").path
        let gs = dir.appendingPathComponent("gs.pdf").path
        try pdfeditOK("optimize", input, "-o", output, "--images", "150", "-q")
        let made = try run(
            "gs", ["-q", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/ebook", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sOutputFile=" + gs, input])
        try #require(made.status == 0, "\(made.stderr)")
        let size = try CompressTests.size(output)
        let gsSize = try CompressTests.size(gs)
        #expect(size * 100 <= gsSize * 110, "\(name): \(size) over 1.1 x Ghostscript's \(gsSize)")
        // qpdf --check: no more than the input's own warnings (pypdf-example's).
        let inputCheck = try run("qpdf", ["--check", input]).status
        #expect(try run("qpdf", ["--check", output]).status == inputCheck, "\(name)")
        #expect(try qpdfPageCount(output) == qpdfPageCount(input))
        #expect(try CompressTests.texts(output) == CompressTests.texts(input), "\(name): text differs")
        #expect(try Self.meanError(input, output, page: 1) < 6, "\(name)")
    }

    @Test func optimizeResamplesWhatIsDrawnSmall() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.makeInput(in: dir)
        let output = dir.appendingPathComponent("small.pdf").path
        let timed = try pdfeditOK("optimize", input, "-o", output, "--images", "150", "--json")
        try CompressTests.expectSameDocument(output, as: input)
        #expect(try CompressTests.size(output) * 4 < CompressTests.size(input))

        let before = try Self.images(input)
        let after = try Self.images(output)
        try #require(after.count == 2)
        // The photograph: 2 x 1.5 in at 150 dpi, as JPEG.
        #expect(after[0]["/Photo"]?.width == 300 && after[0]["/Photo"]?.height == 225, "\(after[0])")
        #expect(after[0]["/Photo"]?.filters == ["/DCTDecode"])
        // The JPEG source: 0.2 x 0.1333 in, still JPEG.
        #expect(after[0]["/Jpeg"]?.width == 30 && after[0]["/Jpeg"]?.height == 20)
        #expect(after[0]["/Jpeg"]?.filters == ["/DCTDecode"])
        // Below the resolution: untouched.
        #expect(after[0]["/Small"]?.width == 100 && after[0]["/Small"]?.filters == before[0]["/Small"]?.filters)
        // The soft mask follows its image: both 150 x 150.
        let alpha = try #require(after[0]["/Alpha"])
        #expect(alpha.width == 150 && alpha.height == 150)
        let mask = try #require(try Self.dictionary(of: alpha.object, in: output)["/SMask"] as? String)
        let maskDictionary = try Self.dictionary(of: mask, in: output)
        #expect(maskDictionary["/Width"] as? Int == 150 && maskDictionary["/Height"] as? Int == 150)
        #expect(maskDictionary["/Filter"] as? String == "/FlateDecode")

        // The annotation's appearance: its image drawn 1 in square, 150 x 150.
        let pages = try #require(
            try JSONSerialization.jsonObject(with: Data(run("qpdf", ["--json", "--json-key=pages", output]).stdout.utf8))
                as? [String: Any])
        let page = try #require((pages["pages"] as? [[String: Any]])?.first?["object"] as? String)
        let annotation = try #require((try Self.dictionary(of: page, in: output)["/Annots"] as? [String])?.first)
        let form = try #require((try Self.dictionary(of: annotation, in: output)["/AP"] as? [String: Any])?["/N"] as? String)
        let icon = try #require(
            ((try Self.dictionary(of: form, in: output)["/Resources"] as? [String: Any])?["/XObject"] as? [String: Any])?[
                "/Icon"] as? String)
        #expect(try Self.dictionary(of: icon, in: output)["/Width"] as? Int == 150)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(timed.stdout.utf8)) as? [String: Any])
        let images = try #require(json["images"] as? [String: Int])
        #expect(images["count"] == 4 && (images["bytes"] ?? 0) > 0, "\(images)")  // photo, alpha, jpeg, icon
        #expect((json["imageResampling"] as? [String: Int])?["dpi"] == 150)

        // What a reader sees at 72 dpi barely changes.
        let error = try Self.meanError(input, output, page: 1)
        #expect(error < 2.0, "mean error \(error)")
    }

    /// Images whose size says more than their data holds are left alone, and
    /// never allocated in full (6000 x 6000 RGB is 108 MB, the JPEG's 8000 x 8000 192 MB).
    @Test func hostileImagesLeftAlone() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.makeInput(in: dir, hostile: true)
        let output = dir.appendingPathComponent("small.pdf").path
        let timed = try run(
            "/usr/bin/time", ["-f", "maxrss %M", Paths.binary, "optimize", input, "-o", output, "--images", "36", "--json"])
        #expect(timed.status == 0, "\(timed.stderr)")
        let rss = timed.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss ") }.flatMap { Int($0.dropFirst(7)) }
        #expect((rss ?? .max) < 100_000, "peak memory \(rss ?? -1) KB")
        let after = try Self.images(output)
        #expect(after[0]["/Huge"]?.width == 6000 && after[0]["/HugeJ"]?.width == 8000, "\(after)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(timed.stdout.utf8)) as? [String: Any])
        #expect((json["images"] as? [String: Int])?["count"] == 0)
        // The input's broken JPEG is a warning of qpdf's, as it was: no error.
        #expect(try run("qpdf", ["--check", output]).status != 2)
        #expect(try CompressTests.texts(output) == CompressTests.texts(input))
    }

    @Test func qualityAndLosslessDefault() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.makeInput(in: dir)
        let low = dir.appendingPathComponent("low.pdf").path
        let high = dir.appendingPathComponent("high.pdf").path
        let lossless = dir.appendingPathComponent("lossless.pdf").path
        try pdfeditOK("optimize", input, "-o", low, "--images", "150:30", "-q")
        try pdfeditOK("optimize", input, "-o", high, "--images", "150:95", "-q")
        try pdfeditOK("optimize", input, "-o", lossless, "-q")
        #expect(try CompressTests.size(low) < CompressTests.size(high))
        // Without --images nothing is resampled.
        #expect(try Self.images(lossless)[0]["/Photo"]?.width == 1200)
        // Every image below 600 dpi here: nothing changes.
        let fine = dir.appendingPathComponent("fine.pdf").path
        try pdfeditOK("optimize", input, "-o", fine, "--images", "1200", "-q")
        #expect(try Self.images(fine) .map { $0.mapValues(\.width) } == Self.images(input).map { $0.mapValues(\.width) })
        // Bad values are usage errors naming the option.
        for bad in ["0", "150:0", "150:101", "abc", "150:", "3000"] {
            let refused = try pdfedit("optimize", input, "-o", dir.appendingPathComponent("x.pdf").path, "--images", bad)
            #expect(refused.status == 64 && refused.stderr.contains("--images"), "\(bad): \(refused.stderr)")
        }
    }

    @Test func everyWritingCommandTakesImages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.makeInput(in: dir)
        let outputs = ["rotated.pdf", "merged.pdf", "exported.pdf", "applied.pdf"].map { dir.appendingPathComponent($0).path }
        try pdfeditOK("rotate", "1", "--by", "90", input, "-o", outputs[0], "--images", "150")
        try pdfeditOK("merge", input, input, "-o", outputs[1], "--images", "150")
        try pdfeditOK("export", outputs[2], "--from", input, "--images", "150")
        let script = dir.appendingPathComponent("steps.txt").path
        try "rotate 1 --by 180\noptimize --images 150\n".write(toFile: script, atomically: true, encoding: .utf8)
        try pdfeditOK("apply", script, input, "-o", dir.appendingPathComponent("{stem}-out.pdf").path)
        try FileManager.default.moveItem(atPath: dir.appendingPathComponent("images-out.pdf").path, toPath: outputs[3])
        for output in outputs {
            try CompressTests.expectClean(output)
            let photo = try Self.images(output)[0]["/Photo"]
            #expect(photo?.width == 300 && photo?.filters == ["/DCTDecode"], "\(output): \(String(describing: photo))")
        }
        // In a session --images is refused outside direct mode, as --compress is.
        let session = try pdfedit("rotate", "1", "--by", "90", "--images", "150", in: dir)
        #expect(session.status == 64 || session.status == 66, "\(session.stderr)")
    }

    /// In a session `optimize` sets how exports are written: one step, shown by
    /// `status`, undone by `undo`, used by `export`, cleared by `--off`.
    @Test func sessionOptimizeSetsTheExports() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.makeInput(in: dir)
        try pdfeditOK("open", "images.pdf", in: dir)
        try pdfeditOK("optimize", "--images", "150:60", "--linearize", in: dir)
        let status = try pdfeditOK("status", in: dir).stdout
        #expect(status.contains("Optimize:  compressed, linearized, images at 150 dpi (JPEG quality 60)"), "\(status)")
        let json = try pdfeditOK("status", "--json", in: dir).stdout
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let optimize = try #require(parsed["optimize"] as? [String: Any], "\(json)")
        #expect(optimize["linearize"] as? Bool == true && (optimize["images"] as? [String: Int])?["dpi"] == 150)
        #expect(try pdfeditOK("history", in: dir).stdout.contains("optimize --images 150:60 --linearize"))
        let session = dir.appendingPathComponent(".pdfedit/session.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any])
        #expect(object["version"] as? Int == 8)

        try pdfeditOK("export", "small.pdf", in: dir)
        let small = dir.appendingPathComponent("small.pdf").path
        try CompressTests.expectClean(small)
        #expect(try Self.images(small)[0]["/Photo"]?.width == 300)
        #expect(try run("qpdf", ["--check-linearization", small]).stdout.contains("no linearization errors"))

        // Undone: exports are as they were.
        try pdfeditOK("undo", in: dir)
        #expect(!(try pdfeditOK("status", in: dir).stdout.contains("Optimize:")))
        try pdfeditOK("export", "plain.pdf", in: dir)
        let plain = dir.appendingPathComponent("plain.pdf").path
        #expect(try Self.images(plain)[0]["/Photo"]?.width == 1200)
        #expect(try run("qpdf", ["--check-linearization", plain]).stdout.contains("is not linearized"))

        // Redone, then cleared with --off (a step of its own); --off again changes nothing: refused.
        try pdfeditOK("redo", in: dir)
        try pdfeditOK("optimize", "--off", in: dir)
        #expect(!(try pdfeditOK("status", in: dir).stdout.contains("Optimize:")))
        let again = try pdfedit("optimize", "--off", in: dir)
        #expect(again.status == 64 && again.stderr.contains("no export settings"), "\(again.stderr)")
        // Direct-mode options are refused without FILE; FILE without -o too.
        #expect(try pdfedit("optimize", "-o", "x.pdf", in: dir).status == 64)
        #expect(try pdfedit("optimize", "images.pdf", in: dir).status == 64)

        // A run script line is one step like any edit.
        try pdfeditOK("run", "-", in: dir, stdin: "optimize --images 100\n")
        #expect(try pdfeditOK("status", in: dir).stdout.contains("images at 100 dpi (JPEG quality 75)"))
        try pdfeditOK("export", "run.pdf", in: dir)
        #expect(try Self.images(dir.appendingPathComponent("run.pdf").path)[0]["/Photo"]?.width == 200)
        // An export's own --images wins over the session's.
        try pdfeditOK("export", "own.pdf", "--images", "72", in: dir)
        #expect(try Self.images(dir.appendingPathComponent("own.pdf").path)[0]["/Photo"]?.width == 144)
    }
}
