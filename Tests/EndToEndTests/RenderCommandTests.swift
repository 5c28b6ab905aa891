import Foundation
import Testing

/// `render`: pages as image files, checked against poppler's own tools
/// (`pdftocairo`, which draws through cairo as poppler-glib does) and read
/// back by independent readers (Python's Pillow, `tiffinfo`).
@Suite(.serialized) struct RenderCommandTests {
    /// The mean absolute difference of two images' RGB samples (0 to 255), over
    /// the area they share, as Pillow computes it; and both sizes.
    static func meanDifference(_ first: String, _ second: String, mode: String = "RGB") throws
        -> (difference: Double, sizes: String)
    {
        let script = """
            import sys
            from PIL import Image, ImageChops, ImageStat
            a = Image.open(sys.argv[1]).convert(sys.argv[3]); b = Image.open(sys.argv[2]).convert(sys.argv[3])
            w, h = min(a.width, b.width), min(a.height, b.height)
            d = ImageChops.difference(a.crop((0, 0, w, h)), b.crop((0, 0, w, h)))
            print(sum(ImageStat.Stat(d).mean) / len(ImageStat.Stat(d).mean), a.size, b.size)
            """
        let result = try python(script, [first, second, mode])
        try #require(result.status == 0, "python: \(result.stderr)")
        let words = result.stdout.split(separator: " ", maxSplits: 1)
        return (Double(words[0]) ?? 999, String(words.count > 1 ? words[1] : ""))
    }

    /// What Pillow reads of an image: format, mode, size, frames, a pixel.
    static func pillow(_ path: String, pixel: (Int, Int) = (0, 0)) throws -> String {
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            print(im.format, im.mode, im.size[0], im.size[1], getattr(im, 'n_frames', 1), im.getpixel((int(sys.argv[2]), int(sys.argv[3]))))
            """
        let result = try python(script, [path, "\(pixel.0)", "\(pixel.1)"])
        try #require(result.status == 0, "python: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pdftocairo -png -cropbox -r DPI` of one page into `directory`.
    static func reference(_ pdf: String, page: Int, dpi: Int, in directory: URL, name: String) throws -> String {
        let prefix = directory.appendingPathComponent(name).path
        let result = try run(
            "pdftocairo", ["-png", "-cropbox", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
        try #require(result.status == 0, "pdftocairo: \(result.stderr)")
        return prefix + ".png"
    }

    /// The bound on the mean difference from pdftocairo: both draw with
    /// poppler's cairo backend, so only rounding could differ.
    static let bound = 1.0

    @Test func pagesOfAFileMatchPdftocairo() throws {
        let directory = try scratchDirectory(with: "alpha.pdf", "rotated.pdf", "odd-rotate.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try pdfeditOK("render", "1..3", "alpha.pdf", "-o", "out/page-{n}.png", "--dpi", "100", in: directory)
        for page in 1...3 {
            let reference = try Self.reference(
                directory.appendingPathComponent("alpha.pdf").path, page: page, dpi: 100, in: directory, name: "ref")
            let drawn = directory.appendingPathComponent("out/page-\(page).png").path
            let (difference, sizes) = try Self.meanDifference(drawn, reference)
            #expect(difference < Self.bound, "page \(page): \(difference) \(sizes)")
            #expect(try Pixels.pngSize(drawn) == (850, 1100) ? true : false, "612 x 792 pt at 100 dpi")
        }
        // Pages turned by their own /Rotate, at every quarter turn.
        for file in ["rotated.pdf", "odd-rotate.pdf"] {
            let stem = String(file.dropLast(4))
            try pdfeditOK("render", file, "-o", "\(stem)-{n}.png", "--dpi", "36", in: directory)
            for page in 1...4 {
                let reference = try Self.reference(
                    directory.appendingPathComponent(file).path, page: page, dpi: 36, in: directory, name: "ref")
                if file == "odd-rotate.pdf" && page == 4 {
                    // /UserUnit 10: drawn at its real size, ten times what pdftocairo
                    // (which ignores /UserUnit) makes of it.
                    let (width, height) = try Pixels.pngSize(reference)
                    let drawn = try Pixels.pngSize(directory.appendingPathComponent("\(stem)-4.png").path)
                    #expect(drawn == (width * 10, height * 10) ? true : false, "\(drawn) against \(width) x \(height)")
                    continue
                }
                let (difference, sizes) = try Self.meanDifference(
                    directory.appendingPathComponent("\(stem)-\(page).png").path, reference)
                #expect(difference < Self.bound, "\(file) page \(page): \(difference) \(sizes)")
let drawn = try Pixels.pngSize(directory.appendingPathComponent("\(stem)-\(page).png").path)
                #expect(try Pixels.pngSize(reference) == drawn ? true : false, "same size as pdftocairo: \(sizes)")
            }
        }
    }

    @Test func aCorpusPageMatchesPdftocairo() throws {
        try #require(Paths.corpusAvailable)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = Paths.corpus("pdfjs-freeculture.pdf")
        try pdfeditOK("render", "10,11", book, "-o", "p-{first}.png", "--dpi", "60", in: directory)
        for page in [10, 11] {
            let reference = try Self.reference(book, page: page, dpi: 60, in: directory, name: "ref")
            let (difference, sizes) = try Self.meanDifference(
                directory.appendingPathComponent("p-\(page).png").path, reference)
            #expect(difference < Self.bound, "freeculture page \(page): \(difference) \(sizes)")
        }
    }

    @Test func sizesAtDpiWidthAndHeight() throws {
        let directory = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Letter (612 x 792 pt) and A4 (595 x 842): rounded up as poppler's tools round.
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "a.png", "--dpi", "150", in: directory)
        #expect(try Pixels.pngSize(directory.appendingPathComponent("a.png").path) == (1275, 1650) ? true : false)
        try pdfeditOK("render", "1", "beta.pdf", "-o", "b.png", "--dpi", "150", in: directory)
        let a4 = try Pixels.pngSize(directory.appendingPathComponent("b.png").path)
        let reference = try Self.reference(
            directory.appendingPathComponent("beta.pdf").path, page: 1, dpi: 150, in: directory, name: "ref")
        #expect(try Pixels.pngSize(reference) == a4 ? true : false, "A4 at 150 dpi as pdftocairo sizes it: \(a4)")
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "w.png", "--width", "400", in: directory)
        #expect(try Pixels.pngSize(directory.appendingPathComponent("w.png").path) == (400, 518) ? true : false)
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "h.png", "--height", "300", in: directory)
        #expect(try Pixels.pngSize(directory.appendingPathComponent("h.png").path) == (232, 300) ? true : false)
        let both = try pdfedit("render", "1", "alpha.pdf", "-o", "x.png", "--width", "4", "--dpi", "3", in: directory)
        #expect(both.status == 64)
    }

    @Test func jpegAndTiffReadBackByIndependentTools() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try pdfeditOK("render", "1..2", "alpha.pdf", "-o", "j/{n}.jpg", "--dpi", "50", "--quality", "80", in: directory)
        let jpeg = try Self.pillow(directory.appendingPathComponent("j/1.jpg").path)
        #expect(jpeg.hasPrefix("JPEG RGB 425 550 1"), "\(jpeg)")
        let reference = try Self.reference(
            directory.appendingPathComponent("alpha.pdf").path, page: 1, dpi: 50, in: directory, name: "ref")
        let (difference, _) = try Self.meanDifference(directory.appendingPathComponent("j/1.jpg").path, reference)
        #expect(difference < 4, "JPEG at quality 80 close to pdftocairo: \(difference)")
        // --format wins over the name; gray JPEG.
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "g.img", "--format", "jpeg", "--gray", "--dpi", "20", in: directory)
        #expect(try Self.pillow(directory.appendingPathComponent("g.img").path).hasPrefix("JPEG L 170 220"))
        // One multi-page TIFF when the name has no field.
        try pdfeditOK("render", "alpha.pdf", "-o", "all.tiff", "--dpi", "30", in: directory)
        let tiff = try Self.pillow(directory.appendingPathComponent("all.tiff").path)
        #expect(tiff.hasPrefix("TIFF RGB 255 330 7"), "\(tiff)")
        let info = try run("tiffinfo", [directory.appendingPathComponent("all.tiff").path])
        #expect(info.status == 0)
        #expect(info.stdout.components(separatedBy: "TIFF Directory").count - 1 == 7, "seven pages: \(info.stdout)")
        #expect(info.stdout.contains("Resolution: 30, 30 pixels/inch"))
        // Mono TIFF: 1 bit, CCITT Group 4.
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "m.tif", "--mono", "--dpi", "40", in: directory)
        let mono = try run("tiffinfo", [directory.appendingPathComponent("m.tif").path]).stdout
        #expect(mono.contains("Bits/Sample: 1") && mono.contains("CCITT Group 4"), "\(mono)")
        #expect(try Self.pillow(directory.appendingPathComponent("m.tif").path).hasPrefix("TIFF 1 340 440"))
    }

    @Test func grayMonoAndTransparentPNG() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "g.png", "--gray", "--dpi", "40", in: directory)
        #expect(try Self.pillow(directory.appendingPathComponent("g.png").path).hasPrefix("PNG L 340 440 1 255"))
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "m.png", "--mono", "--dpi", "40", in: directory)
        #expect(try Self.pillow(directory.appendingPathComponent("m.png").path).hasPrefix("PNG 1 340 440 1 255"))
        // Gray against pdftocairo's colours turned gray by Pillow.
        let reference = try Self.reference(
            directory.appendingPathComponent("alpha.pdf").path, page: 1, dpi: 40, in: directory, name: "ref")
        let (difference, _) = try Self.meanDifference(
            directory.appendingPathComponent("g.png").path, reference, mode: "L")
        #expect(difference < Self.bound, "gray as Pillow makes pdftocairo's colours gray: \(difference)")
        // Transparent: the page's unpainted corner has alpha 0; on white it is opaque white.
        try pdfeditOK(
            "render", "1", "alpha.pdf", "-o", "t.png", "--background", "transparent", "--dpi", "40", in: directory)
        #expect(try Self.pillow(directory.appendingPathComponent("t.png").path) == "PNG RGBA 340 440 1 (0, 0, 0, 0)")
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "w.png", "--dpi", "40", in: directory)
        #expect(try Self.pillow(directory.appendingPathComponent("w.png").path) == "PNG RGB 340 440 1 (255, 255, 255)")
        for refused in [["--background", "transparent", "--mono"], ["--background", "transparent", "--format", "jpeg"],
                        ["--gray", "--mono"], ["--background", "black"], ["--quality", "0"]] {
            let result = try pdfedit(args: ["render", "1", "alpha.pdf", "-o", "r.png"] + refused, in: directory)
            #expect(result.status == 64, "\(refused): \(result.stderr)")
        }
    }

    /// A page with a filled square annotation (no appearance stream: poppler draws one).
    static func annotatedPDF(_ path: String) throws {
        let script = #"""
            import sys
            import pdfbytes
            content = b"0 0 1 rg 50 50 100 100 re f"
            objects = [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Contents 4 0 R /Annots [5 0 R] >>",
                b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
                b"<< /Type /Annot /Subtype /Square /Rect [200 200 350 350] /F 4 /C [1 0 0] /IC [1 0 0] /BS << /W 4 >> >>",
            ]
            open(sys.argv[1], "wb").write(pdfbytes.pdf(objects, header=b"%PDF-1.7\n"))
            """#
        try #require(try python(script, [path]).status == 0)
    }

    @Test func noAnnotationsLeavesThemOut() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pdf = directory.appendingPathComponent("annotated.pdf").path
        try Self.annotatedPDF(pdf)
        try pdfeditOK("render", "annotated.pdf", "-o", "with.png", "--dpi", "72", in: directory)
        try pdfeditOK("render", "annotated.pdf", "-o", "without.png", "--dpi", "72", "--no-annotations", in: directory)
        // Inside the square (275, 125 from the top-left), and the page's own blue square.
        #expect(try Self.pillow(directory.appendingPathComponent("with.png").path, pixel: (275, 125)).hasSuffix("(255, 0, 0)"))
        #expect(try Self.pillow(directory.appendingPathComponent("without.png").path, pixel: (275, 125)).hasSuffix("(255, 255, 255)"))
        #expect(try Self.pillow(directory.appendingPathComponent("without.png").path, pixel: (100, 300)).hasSuffix("(0, 0, 255)"))
        // pdftoppm leaves them out the same way.
        let prefix = directory.appendingPathComponent("ref").path
        #expect(try run("pdftoppm", ["-png", "-r", "72", "-hide-annotations", "-singlefile", pdf, prefix]).status == 0)
        let (difference, _) = try Self.meanDifference(directory.appendingPathComponent("without.png").path, prefix + ".png")
        #expect(difference < Self.bound, "\(difference)")
    }

    @Test func aSessionWithAPlaceholderStampRotationAndCrop() throws {
        let directory = try scratchDirectory(with: "alpha.pdf", "stamp.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try pdfeditOK("open", "alpha.pdf", in: directory)
        try pdfeditOK("placeholder", "--at", "2", "--size", "300x200", "--label", "Chapter", in: directory)
        try pdfeditOK("stamp", "1", "stamp.pdf", in: directory)
        try pdfeditOK("rotate", "3", "--by", "90", in: directory)
        try pdfeditOK("crop", "4", "--margins", "72", in: directory)
        try pdfeditOK("rotate", "4", "--by", "270", in: directory)
        let result = try pdfeditOK("render", "1..4", "-o", "img/{n}-{id}.png", "--dpi", "72", "--json", in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.map { $0["file"] as? String } == ["img/1-p1.png", "img/2-p8.png", "img/3-p2.png", "img/4-p3.png"])
        #expect(images.map { $0["kind"] as? String } == ["page", "placeholder", "page", "page"])
        // The placeholder: a frame of its size.
        #expect(try Pixels.pngSize(directory.appendingPathComponent("img/2-p8.png").path) == (300, 200) ? true : false)
        // The pages as export writes them, drawn by pdftocairo.
        try pdfeditOK("export", "e.pdf", "1,3,4", in: directory)
        let exported = directory.appendingPathComponent("e.pdf").path
        for (page, file) in [(1, "img/1-p1.png"), (2, "img/3-p2.png"), (3, "img/4-p3.png")] {
            let reference = try Self.reference(exported, page: page, dpi: 72, in: directory, name: "ref")
            let (difference, sizes) = try Self.meanDifference(directory.appendingPathComponent(file).path, reference)
            #expect(difference < Self.bound, "\(file): \(difference) \(sizes)")
            #expect(try Pixels.pngSize(directory.appendingPathComponent(file).path) == (try Pixels.pngSize(reference)) ? true : false, "\(file): \(sizes)")
        }
    }

    @Test func directModeForms() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try pdfeditOK("render", "alpha.pdf", "-o", "a/{n}.png", "--dpi", "10", in: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("a").path).sorted()
            == (1...7).map { "\($0).png" })
        try pdfeditOK("render", "odd", "--from", "alpha.pdf", "-o", "b/{srcpage}.png", "--dpi", "10", in: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("b").path).sorted()
            == ["1.png", "3.png", "5.png", "7.png"])
        // Each file is its page as pdftocairo draws it (each alpha page has its own colour).
        let input = directory.appendingPathComponent("alpha.pdf").path
        for page in [3, 5] {
            let reference = try Self.reference(input, page: page, dpi: 10, in: directory, name: "ref\(page)")
            let drawn = directory.appendingPathComponent("b/\(page).png").path
            let (difference, sizes) = try Self.meanDifference(drawn, reference)
            #expect(difference < Self.bound, "b/\(page).png: \(difference) \(sizes)")
            let other = try Self.reference(input, page: page + 1, dpi: 10, in: directory, name: "other\(page)")
            #expect(try Self.meanDifference(drawn, other).difference > Self.bound, "page \(page) differs from page \(page + 1)")
        }
        // A missing file is named (66), not taken for a selection.
        let missing = try pdfedit("render", "nothing.pdf", "-o", "n.png", in: directory)
        #expect(missing.status == 66 && missing.stderr.contains("nothing.pdf"), "\(missing.stderr)")
        // Nothing of a session is made or read.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".pdfedit").path))
        // From standard input.
        let piped = try run("/bin/sh", ["-c", "\(Paths.binary) render 2 - -o c.png --dpi 10 < alpha.pdf"], in: directory)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try Pixels.pngSize(directory.appendingPathComponent("c.png").path) == (85, 110) ? true : false)
        let second = try Self.reference(
            directory.appendingPathComponent("alpha.pdf").path, page: 2, dpi: 10, in: directory, name: "second")
        #expect(try Self.meanDifference(directory.appendingPathComponent("c.png").path, second).difference < Self.bound)
    }

    @Test func applyScriptsRenderEachResult() throws {
        let directory = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try pdfeditOK(
            "apply", "-e", "remove 3..", "-e", "rotate 1 --by 90", "-e", "render --dpi 10", "alpha.pdf", "beta.pdf",
            "-o", "out/{stem}.png", in: directory)
        #expect(result.stdout.contains("ok          alpha.pdf -> out/alpha-1.png (2 pages)"), "\(result.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).sorted()
        #expect(names == ["alpha-1.png", "alpha-2.png", "beta-1.png", "beta-2.png"])
        #expect(try Pixels.pngSize(directory.appendingPathComponent("out/alpha-1.png").path) == (110, 85) ? true : false)
        #expect(try Pixels.pngSize(directory.appendingPathComponent("out/alpha-2.png").path) == (85, 110) ? true : false)
        // A TIFF is one file per input.
        try pdfeditOK("apply", "-e", "render --dpi 10 --gray", "alpha.pdf", "-o", "{stem}.tiff", in: directory)
        #expect(try Self.pillow(directory.appendingPathComponent("alpha.tiff").path).hasPrefix("TIFF L 85 110 7"))
        // Its own -o or a file is apply's to give.
        let refused = try pdfedit("apply", "-e", "render -o x.png", "alpha.pdf", "-o", "{stem}.png", in: directory)
        #expect(refused.status == 64, "\(refused.stderr)")
        // Not a line of `run`.
        try pdfeditOK("open", "alpha.pdf", in: directory)
        let script = directory.appendingPathComponent("s.txt")
        try "render --dpi 10\n".write(to: script, atomically: true, encoding: .utf8)
        #expect(try pdfedit("run", "s.txt", in: directory).status == 64)
    }

    @Test func refusals() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        for dpi in ["0", "-3", "2401", "nan", "abc"] {
            let result = try pdfedit("render", "1", "alpha.pdf", "-o", "x.png", "--dpi", dpi, in: directory)
            #expect(result.status == 64, "--dpi \(dpi): \(result.stderr)")
        }
        #expect(try pdfedit("render", "1", "alpha.pdf", "-o", "x.png", "--width", "0", in: directory).status == 64)
        #expect(try pdfedit("render", "1", "alpha.pdf", "-o", "x.bmp", in: directory).status == 64)
        #expect(try pdfedit("render", "1", "alpha.pdf", "-o", "x-{title}.png", in: directory).status == 64)
        #expect(try pdfedit("render", "1", "alpha.pdf", in: directory).status == 64)
        // Several images, one name.
        let clash = try pdfedit("render", "1,2", "alpha.pdf", "-o", "same.png", in: directory)
        #expect(clash.status == 64 && clash.stderr.contains("{n}"), "\(clash.stderr)")
        // An existing file only with --force, and then replaced.
        try Data("old".utf8).write(to: directory.appendingPathComponent("x.png"))
        let exists = try pdfedit("render", "1", "alpha.pdf", "-o", "x.png", "--dpi", "10", in: directory)
        #expect(exists.status == 73 && exists.stderr.contains("--force"), "\(exists.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("x.png")) == Data("old".utf8))
        try pdfeditOK("render", "1", "alpha.pdf", "-o", "x.png", "--dpi", "10", "--force", in: directory)
        #expect(try Pixels.pngSize(directory.appendingPathComponent("x.png").path) == (85, 110) ? true : false)
        // Never the input, even with --force.
        let original = try Data(contentsOf: directory.appendingPathComponent("alpha.pdf"))
        let source = try pdfedit("render", "1", "alpha.pdf", "-o", "alpha.pdf", "--format", "png", "--force", in: directory)
        #expect(source.status == 73, "\(source.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("alpha.pdf")) == original)
        // A page out of range names the file.
        let range = try pdfedit("render", "9", "alpha.pdf", "-o", "y.png", in: directory)
        #expect(range.status == 64 && range.stderr.contains("alpha.pdf"), "\(range.stderr)")
        // Nothing left behind: no temporaries.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("pdfedit-tmp") }, "\(names)")
    }

    @Test func rasterizeWritesAnImageOnlyPDF() throws {
        let directory = try scratchDirectory(with: "alpha.pdf", "rotated.pdf", "stamp.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try pdfeditOK("export", "flat.pdf", "2..4", "--rasterize", "100", "--from", "alpha.pdf", in: directory)
        #expect(result.stderr.contains("warning") && result.stderr.contains("text"), "\(result.stderr)")
        let flat = directory.appendingPathComponent("flat.pdf").path
        #expect(try qpdfCheck(flat).status == 0)
        #expect(try qpdfPageCount(flat) == 3)
        let text = try run("pdftotext", [flat, "-"]).stdout
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{0C}"))).isEmpty,
            "no text left: \(text)")
        #expect(try pageText(directory.appendingPathComponent("alpha.pdf").path, 2).contains("ALPHA-P2"))
        let info = try run("pdfinfo", ["-f", "1", "-l", "3", flat]).stdout
        #expect(info.components(separatedBy: "612 x 792 pts").count - 1 == 3, "\(info)")
        // The picture is the page: drawn again by pdftocairo, as the original.
        let original = try Self.reference(
            directory.appendingPathComponent("alpha.pdf").path, page: 3, dpi: 100, in: directory, name: "orig")
        let redrawn = try Self.reference(flat, page: 2, dpi: 100, in: directory, name: "flat")
        let (difference, sizes) = try Self.meanDifference(redrawn, original)
        #expect(difference < 2, "\(difference) \(sizes)")
        // One image per page, at the resolution asked, gray with --gray.
        try pdfeditOK("export", "g.pdf", "1", "--rasterize", "50", "--gray", "--from", "rotated.pdf", in: directory)
        let images = try run("pdfimages", ["-list", directory.appendingPathComponent("g.pdf").path]).stdout
        let row = images.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(row.count == 1 && row[0][5] == "gray" && row[0][12] == "50", "\(images)")
        // A session: a rotated, stamped page keeps its size as displayed.
        try pdfeditOK("open", "alpha.pdf", in: directory)
        try pdfeditOK("rotate", "1", "--by", "90", in: directory)
        try pdfeditOK("stamp", "1", "stamp.pdf", in: directory)
        try pdfeditOK("export", "s.pdf", "1..2", "--rasterize", "72", in: directory)
        let pages = try run("pdfinfo", ["-f", "1", "-l", "2", directory.appendingPathComponent("s.pdf").path]).stdout
        let pageSizes = pages.split(separator: "\n").filter { $0.hasPrefix("Page ") && $0.contains("size:") }
        #expect(pageSizes.count == 2 && pageSizes[0].contains("792 x 612 pts") && pageSizes[1].contains("612 x 792 pts"), "\(pages)")
        // Not with --split, and not a resolution out of range.
        #expect(try pdfedit("export", "--split", "parts", "--rasterize", "72", in: directory).status == 64)
        #expect(try pdfedit("export", "x.pdf", "--rasterize", "0", in: directory).status == 64)
        #expect(try pdfedit("export", "x.pdf", "--gray", in: directory).status == 64)
    }

    @Test func aPageDrawnWithoutSkippedContentIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 40,000 x 8 image (over cairo's 32,767 a side) drawn through a form, as EmptyTextTests makes it.
        let packed = try HostileFilesTests.flate(Data(repeating: 0, count: 40_000 / 8 * 8))
        let more: [Int: String] = [
            10: "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /I 11 0 R >> >> /Length 26 >>\nstream\n200 0 0 100 0 50 cm /I Do\nendstream",
            11: "<< /Type /XObject /Subtype /Image /Width 40000 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Length \(packed.unicodeScalars.count) >>\nstream\n\(packed)\nendstream",
        ]
        let wide = try HostileFilesTests.write(
            HostileFilesTests.onePage("/MediaBox [0 0 200 200] /Resources << /XObject << /F 10 0 R >> >>", contents: "/F Do", more: more),
            "wide.pdf", in: directory)
        let result = try pdfedit("render", wide, "-o", "w.png", "--dpi", "72", in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("page 1: drawn without content the renderer skipped"), "\(result.stderr)")
        #expect(try Pixels.pngSize(directory.appendingPathComponent("w.png").path) == (200, 200) ? true : false)
    }

    @Test func progressOnATerminalOnly() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let terminal = try run(
            "script", ["-qec", "\(Paths.binary) render alpha.pdf -o 't-{n}.png' --dpi 20", "/dev/null"], in: directory)
        #expect(terminal.stdout.contains("rendering [") && terminal.stdout.contains("/7 pages"), "\(terminal.stdout)")
        let piped = try pdfedit("render", "alpha.pdf", "-o", "p-{n}.png", "--dpi", "20", in: directory)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }
}
