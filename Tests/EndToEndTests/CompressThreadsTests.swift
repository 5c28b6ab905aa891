import Foundation
import Testing

/// Issue 43: `--compress`'s recompression runs on a pool of threads
/// (`PDFEDIT_THREADS`, Compress.cpp's `recompress_all`). The output must be the
/// same bytes whatever the thread count, the same document as the input as qpdf
/// and poppler read it, and a stream the pool cannot recompress (damaged, or
/// inflating past `PDFEDIT_MAX_STREAM_BYTES`) left as it came while the others
/// around it are recompressed.
@Suite struct CompressThreadsTests {
    static let threadCounts = ["1", "2", "4"]

    /// 40 pages whose content streams are Flate at zlib's level 1 (each distinct,
    /// ~20 KB of drawing, so level 9 makes them smaller), every fifth one stored
    /// unfiltered; two Flate images with a PNG predictor (a flat one, smaller
    /// without it, and a smooth one); and, reachable from the last page (/PEData)
    /// between the pages' streams in object order, a damaged Flate stream and
    /// one that inflates to 300,000 bytes. Writes the stored bytes of those two,
    /// and of every level-1 content stream, next to the file.
    static let script = #"""
        import sys, os, zlib, math
        import pdfbytes
        out_path, folder = sys.argv[1], sys.argv[2]
        pages = 40
        objects = {1: None, 2: None}
        number = 3
        kids, data_refs = [], []
        seed = 7
        def rand():
            global seed
            seed = (seed * 1103515245 + 12345) & 0x7fffffff
            return seed >> 8
        def up(rows, row_bytes):
            out, previous = bytearray(), bytes(row_bytes)
            for y in range(len(rows) // row_bytes):
                row = rows[y * row_bytes:(y + 1) * row_bytes]
                out += b"\x02" + bytes((a - b) & 255 for a, b in zip(row, previous))
                previous = row
            return bytes(out)
        w, h = 120, 90
        colours = [b"\xff\xff\xff", b"\x00\x00\x00", b"\xcc\x22\x22", b"\x22\x44\xcc"]
        flat = b"".join(b"".join(colours[(x // 12 + y // 9) % 4] for x in range(w)) for y in range(h))
        smooth = bytes(int(128 + 90 * math.sin(x / 13.0 + c) * math.cos(y / 17.0)) & 255
                       for y in range(h) for x in range(w) for c in range(3))
        image = b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 " % (w, h)
        parms = b"/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /Columns %d >>" % w
        flat_ref, smooth_ref = number, number + 1
        objects[number] = pdfbytes.stream(image + parms, zlib.compress(up(flat, w * 3), 9))
        objects[number + 1] = pdfbytes.stream(image + parms, zlib.compress(up(smooth, w * 3), 9))
        number += 2
        font_ref = number
        objects[number] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
        number += 1
        for p in range(pages):
            ops = [b"BT /F1 14 Tf 72 740 Td (Page %d of the thread fixture) Tj ET" % (p + 1),
                   b"q 100 0 0 75 72 600 cm /%s Do Q" % (b"Flat" if p % 2 == 0 else b"Smooth")]
            for i in range(700):
                ops.append(b"%d %d m %d %d l S" % (rand() % 612, rand() % 500, rand() % 612, rand() % 500))
            content = b"\n".join(ops)
            plain = p % 5 == 4
            stored = content if plain else zlib.compress(content, 1)
            objects[number] = pdfbytes.stream(b"" if plain else b"/Filter /FlateDecode", stored)
            if not plain:
                open(os.path.join(folder, "content-%d.bin" % p), "wb").write(stored)
            objects[number + 1] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                                   b"/Resources << /Font << /F1 %d 0 R >> /XObject << /Flat %d 0 R /Smooth %d 0 R >> >> >>"
                                   % (number, font_ref, flat_ref, smooth_ref))
            kids.append(number + 1)
            number += 2
            if p == 13:
                good = zlib.compress(b"damaged stream " * 2000, 1)
                damaged = good[:len(good) // 2] + bytes(b ^ 0x5a for b in good[len(good) // 2:])
                objects[number] = pdfbytes.stream(b"/Filter /FlateDecode", damaged)
                open(os.path.join(folder, "damaged.bin"), "wb").write(damaged)
                data_refs.append(number)
                number += 1
            if p == 26:
                big = bytes(rand() % 4 + 65 for _ in range(300000))
                stored = zlib.compress(big, 1)
                objects[number] = pdfbytes.stream(b"/Filter /FlateDecode", stored)
                open(os.path.join(folder, "oversized.bin"), "wb").write(stored)
                data_refs.append(number)
                number += 1
        # On the last page (copied with its page: the catalog's own keys are not).
        objects[kids[-1]] = objects[kids[-1]][:-2] + b"/PEData [%s] >>" % b" ".join(b"%d 0 R" % r for r in data_refs)
        objects[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
        objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), pages)
        open(out_path, "wb").write(pdfbytes.pdf(objects))
        """#

    static let environment = ["PDFEDIT_MAX_STREAM_BYTES": "262144"]

    /// `optimize` of `input` with each thread count; the outputs' paths.
    static func optimized(_ input: String, in dir: URL, environment: [String: String] = [:]) throws -> [String] {
        try threadCounts.map { threads in
            let output = dir.appendingPathComponent("threads-\(threads).pdf").path
            var env = environment
            env["PDFEDIT_THREADS"] = threads
            try pdfeditOK("optimize", input, "-o", output, "-q", environment: env)
            return output
        }
    }

    static func expectSameBytes(_ outputs: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let first = try Data(contentsOf: URL(fileURLWithPath: outputs[0]))
        for output in outputs.dropFirst() {
            // Compared as a Bool: swift-testing would diff two unequal Data byte by byte.
            let same = try Data(contentsOf: URL(fileURLWithPath: output)) == first
            #expect(same, "\(output) differs from \(outputs[0])", sourceLocation: sourceLocation)
            #expect(try run("cmp", [outputs[0], output]).status == 0, sourceLocation: sourceLocation)
        }
    }

    @Test func generatedFileSameBytesAndWhatCannotBeRecompressedKept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.pdf").path
        let made = try python(Self.script, [input, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        let outputs = try Self.optimized(input, in: dir, environment: Self.environment)
        try Self.expectSameBytes(outputs)
        let contents = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("content-")
        }
        #expect(contents.count == 32)
        for output in outputs {
            // The same document as poppler and qpdf read it; qpdf's only
            // complaint is the damaged stream the input has too.
            #expect(try qpdfPageCount(output) == 40)
            #expect(try CompressTests.texts(output) == CompressTests.texts(input), "\(output)")
            let check = try run("qpdf", ["--check", output])
            let original = try run("qpdf", ["--check", input])
            #expect(check.status == original.status && check.status != 2, "\(check.stdout) \(check.stderr)")
            #expect(try ImageResamplingTests.meanError(input, output, page: 1) == 0)
            #expect(try ImageResamplingTests.meanError(input, output, page: 2) == 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
            // Left as they came: the stored bytes are in the output whole.
            for kept in ["damaged.bin", "oversized.bin"] {
                let stored = try Data(contentsOf: dir.appendingPathComponent(kept))
                #expect(bytes.range(of: stored) != nil, "\(output): \(kept) not kept as it was")
            }
            // Recompressed, around them: no level-1 content stream is left.
            for name in contents {
                let stored = try Data(contentsOf: dir.appendingPathComponent(name))
                #expect(bytes.range(of: stored) == nil, "\(output): \(name) not recompressed")
            }
        }
        // What the report counts: the 40 content streams and the flat image (the smooth one is as small as level 9 makes it).
        var env = Self.environment
        env["PDFEDIT_THREADS"] = "4"
        let again = dir.appendingPathComponent("report.pdf").path
        let report = try pdfeditOK("optimize", input, "-o", again, "--json", environment: env)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let recompression = try #require(json["recompression"] as? [String: Int])
        #expect(recompression["count"] == 41, "\(recompression)")
        let sameAgain = try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: outputs[0]))
        #expect(sameAgain, "the --json run differs")
        // Without the limit the large stream is recompressed too (the damaged one never).
        let unbounded = dir.appendingPathComponent("unbounded.pdf").path
        let all = try pdfeditOK(
            "optimize", input, "-o", unbounded, "--json", environment: ["PDFEDIT_THREADS": "4"])
        let allJSON = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        #expect((allJSON["recompression"] as? [String: Int])?["count"] == 42)
        let allBytes = try Data(contentsOf: URL(fileURLWithPath: unbounded))
        #expect(allBytes.range(of: try Data(contentsOf: dir.appendingPathComponent("oversized.bin"))) == nil)
        #expect(allBytes.range(of: try Data(contentsOf: dir.appendingPathComponent("damaged.bin"))) != nil)
    }

    @Test(
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
        arguments: ["pdfjs-tracemonkey.pdf", "pdfjs-TAMReview.pdf", "pdfjs-issue7229.pdf", "ocrmypdf-skew.pdf"])
    func corpusFileSameBytes(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Paths.corpus(name)
        let outputs = try Self.optimized(input, in: dir)
        try Self.expectSameBytes(outputs)
        try CompressTests.expectSameDocument(outputs[1], as: input)
    }

    /// A split's parts run on threads of their own; each part's recompression
    /// then runs on its part's thread: the parts are the same bytes either way.
    @Test func splitCompressedSameBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.pdf").path
        let made = try python(Self.script, [input, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        var parts: [[Data]] = []
        for threads in ["1", "4"] {
            let folder = dir.appendingPathComponent("parts-\(threads)")
            var env = Self.environment
            env["PDFEDIT_THREADS"] = threads
            try pdfeditOK(
                "split", input, "--every", "10", "--compress", "-o", folder.path + "/part-{n}.pdf", "-q",
                environment: env)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(names.count == 4, "\(names)")
            parts.append(try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) })
            for name in names {
                #expect(try qpdfPageCount(folder.appendingPathComponent(name).path) == 10)
            }
        }
        let sameParts = parts[0] == parts[1]
        #expect(sameParts, "the parts differ between 1 and 4 threads")
    }
}
