import Foundation
import Testing

/// Images inserted as pages, exported, and checked with pdfimages / pdfinfo.
@Suite struct ImageImportTests {
    @Test func jpegPassesThroughByteForByteAndPagesAreSizedByResolution() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "photo.jpg", "logo.png", "photo-exif-rot.jpg")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "photo.jpg", "logo.png", "photo-exif-rot.jpg", "--at", "1", in: dir)
        try pdfeditOK("insert", "photo.jpg", "--fit", "a4", "--at", "last", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfCheck(out).status == 0)
        let info = try run("pdfinfo", ["-f", "1", "-l", "11", out]).stdout
        #expect(info.contains("Page    1 size:  120 x 80 pts"))
        #expect(info.contains("Page    2 size:  32 x 32 pts"))  // 64 px at 144 dpi
        #expect(info.contains("Page    3 size:  80 x 120 pts"))  // EXIF orientation 6: upright portrait
        #expect(info.contains("Page   11 size:  841.89 x 595.276 pts"))  // fit a4, landscape like the image
        #expect(try pageText(out, 4).contains("ALPHA-P1"))
        let images = dir.appendingPathComponent("img")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try run("pdfimages", ["-j", "-f", "1", "-l", "1", out, images.appendingPathComponent("p").path])
        let extracted = try FileManager.default.contentsOfDirectory(atPath: images.path).filter { $0.hasSuffix(".jpg") }
        #expect(extracted.count == 1)
        #expect(try Data(contentsOf: images.appendingPathComponent(extracted[0]))
            == Data(contentsOf: dir.appendingPathComponent("photo.jpg")))
        // Exports stay deterministic with images (converted once, cached by fingerprint).
        try pdfeditOK("export", "again.pdf", in: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: dir.appendingPathComponent("again.pdf")))
    }

    @Test func badImagesAreRefusedCleanly() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "fake.png", "photo.jpg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let truncated = try Data(contentsOf: dir.appendingPathComponent("photo.jpg")).prefix(900)
        try truncated.write(to: dir.appendingPathComponent("cut.jpg"))
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let fake = try pdfedit("insert", "fake.png", in: dir)
        #expect(fake.status == 65)
        #expect(fake.stderr == "pdfedit: fake.png: not a PDF or a supported image (JPEG, PNG)\n")
        let cut = try pdfedit("insert", "cut.jpg", in: dir)
        #expect(cut.status == 65)
        #expect(cut.stderrLines.count == 1 && cut.stderr.contains("cut.jpg"))
        #expect(try sessionBytes(dir) == before)
    }

    @Test("a PNG whose zlib stream has a wrong Adler-32 checksum is refused (65), as a bad zlib stream is (issue 40, item 39)")
    func pngWithAWrongChecksumIsRefused() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 4 x 4 RGB PNG made by Python's zlib, then its stream's last byte (of
        // the Adler-32 checksum) flipped; the chunk's CRC is made to match, so
        // only zlib's own check can tell.
        let script = """
            import sys, zlib, struct
            raw = b''.join(b'\\x00' + b'\\xff\\x00\\x00' * 4 for _ in range(4))
            good = zlib.compress(raw)
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            def png(data): return (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 2, 0, 0, 0))
                + chunk(b'IDAT', data) + chunk(b'IEND', b''))
            open(sys.argv[1] + '/good.png', 'wb').write(png(good))
            open(sys.argv[1] + '/bad.png', 'wb').write(png(good[:-1] + bytes([good[-1] ^ 0xff])))
            """
        let made = try run("python3", ["-c", script, dir.path])
        #expect(made.status == 0, "\(made.stderr)")
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "good.png", in: dir)
        let bad = try pdfedit("insert", "bad.png", in: dir)
        #expect(bad.status == 65, "\(bad.status) \(bad.stderr)")
        #expect(bad.stderr.contains("bad.png") && bad.stderr.contains("incorrect data check"), "\(bad.stderr)")
    }

    @Test func directModeInsertOfAnImageLeavesNothingBehind() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "photo.jpg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("insert", "photo.jpg", "--at", "1", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("out.pdf").path) == 8)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["alpha.pdf", "out.pdf", "photo.jpg"])
    }
}
