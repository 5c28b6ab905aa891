import Foundation
import Testing

/// `crop` on the built binary: boxes checked with `pdfinfo -box`, pixels with
/// `pdftoppm -cropbox` (a cropped page renders as the same region of its
/// source page as displayed), on pages turned every quarter turn, with an
/// inherited /Rotate, an existing CropBox and a MediaBox not at the origin.
@Suite struct CropCommandTests {
    /// A greyscale picture from `pdftoppm -gray` (binary PGM).
    struct Grey: Equatable {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

        /// Page `page` of `pdf` at 72 dpi, its crop box as a reader shows it.
        static func render(_ pdf: String, page: Int) throws -> Grey {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let prefix = dir.appendingPathComponent("p").path
            let result = try run(
                "pdftoppm", ["-gray", "-r", "72", "-cropbox", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
            try #require(result.status == 0, "pdftoppm: \(result.stderr)")
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
            // "P5\n<w> <h>\n255\n" then the bytes.
            var fields: [String] = []
            var index = 0
            while fields.count < 4 {
                while index < data.count, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
                var word = ""
                while index < data.count, data[index] != 0x20, data[index] != 0x0A {
                    word.append(Character(UnicodeScalar(data[index])))
                    index += 1
                }
                fields.append(word)
            }
            index += 1
            let width = try #require(Int(fields[1]))
            let height = try #require(Int(fields[2]))
            try #require(fields[0] == "P5" && data.count - index == width * height)
            return Grey(width: width, height: height, pixels: Array(data[index...]))
        }

        /// The part from (x, y), `width` × `height`.
        func region(x: Int, y: Int, width: Int, height: Int) -> Grey {
            var pixels: [UInt8] = []
            for row in y..<(y + height) { pixels += self.pixels[(row * self.width + x)..<(row * self.width + x + width)] }
            return Grey(width: width, height: height, pixels: pixels)
        }

        /// The mean absolute difference of two pictures of one size.
        func difference(_ other: Grey) -> Double {
            let total = zip(pixels, other.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            return Double(total) / Double(max(1, pixels.count))
        }
    }

    /// `pdfinfo -box`'s `Page N <name>Box:` values, page by page.
    static func boxes(_ pdf: String, _ name: String, pages: Int) throws -> [[Double]] {
        let result = try run("pdfinfo", ["-f", "1", "-l", "\(pages)", "-box", pdf])
        return result.stdout.split(separator: "\n").filter { $0.contains(" \(name):") }.map { line in
            line.split(separator: ":").last.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        }
    }

    /// rotated.pdf (turns 0, 90 inherited, 90, 270) then sizes.pdf (A4; a page with
    /// CropBox [36 36 756 576]; A5; MediaBox [100 200 695 1042]); item 1 turned 180°.
    func session() throws -> URL {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        try FileManager.default.copyItem(atPath: Paths.fixture("sizes.pdf"), toPath: dir.appendingPathComponent("sizes.pdf").path)
        try pdfeditOK("insert", "sizes.pdf", in: dir)
        try pdfeditOK("rotate", "1", "--by", "180", in: dir)
        return dir
    }

    @Test("crop --margins: boxes as pdfinfo reads them and pixels as the source's region, every quarter turn")
    func marginsOnEveryTurn() throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("export", "full.pdf", in: dir)
        let cropped = try pdfedit("crop", "all", "--margins", "10,20,30,40", in: dir)
        #expect(cropped.status == 0, "\(cropped.stderr)")
        #expect(cropped.stdout == "cropped (crop box, margins 10,20,30,40 pt) 8 pages (8 pages)\n")
        try pdfeditOK("export", "crop.pdf", in: dir)
        let full = dir.appendingPathComponent("full.pdf").path
        let crop = dir.appendingPathComponent("crop.pdf").path
        // Worked by hand: the reader's top is y1 at 0°, x0 at 90°, y0 at 180°, x1 at 270°.
        #expect(
            try Self.boxes(crop, "CropBox", pages: 8) == [
                [20, 10, 572, 762], [10, 40, 390, 575], [10, 40, 390, 575], [30, 20, 602, 752],
                [40, 30, 575, 832], [76, 66, 736, 566], [40, 30, 400, 585], [140, 230, 675, 1032],
            ])
        #expect(try Self.boxes(crop, "MediaBox", pages: 8) == Self.boxes(full, "MediaBox", pages: 8), "content untouched")
        #expect(try pageTokens(crop) == pageTokens(full))
        for page in 1...8 {
            let whole = try Grey.render(full, page: page)
            let part = try Grey.render(crop, page: page)
            #expect(part.width == whole.width - 60 && part.height == whole.height - 40, "page \(page)")
            guard part.width == whole.width - 60, part.height == whole.height - 40 else { continue }
            let expected = whole.region(x: 40, y: 10, width: part.width, height: part.height)
            #expect(part.difference(expected) < 1.5, "page \(page) is not the region of its source")
            #expect(Set(part.pixels).count > 1, "page \(page) shows something")
        }

        // list follows the box, undo gives the source's box back.
        struct Listing: Decodable {
            struct Item: Decodable { var width: Double; var height: Double }
            var items: [Item]
        }
        let listed = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(listed.items.map { [$0.width, $0.height] }.prefix(5) == [[552, 752], [535, 380], [535, 380], [732, 572], [535, 802]])
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "undone.pdf", in: dir)
        #expect(try Self.boxes(dir.appendingPathComponent("undone.pdf").path, "CropBox", pages: 8) == Self.boxes(full, "CropBox", pages: 8))
    }

    @Test("negative margins grow the MediaBox; --rect, --box trim and --reset; a second copy of a page keeps its own box")
    func rectBoxesAndCopies() throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("crop", "5", "--margins", "-20", in: dir)
        try pdfeditOK("copy", "5", "--to", "9", in: dir)
        try pdfeditOK("crop", "9", "--reset", in: dir)
        try pdfeditOK("crop", "8", "--rect", "100,200,300,400", "--box", "trim", in: dir)
        let bad = try pdfedit("crop", "1", "--rect", "5,5,5,9", in: dir)
        #expect(bad.status != 0 && bad.stderr.contains("has no area"), "\(bad.stderr)")
        #expect(try pdfedit("crop", "1", "--reset", "--rect", "0,0,1,1", in: dir).status == 64)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let media = try Self.boxes(out, "MediaBox", pages: 9)
        let cropBoxes = try Self.boxes(out, "CropBox", pages: 9)
        #expect(media[4] == [-20, -20, 615, 862] && cropBoxes[4] == [-20, -20, 615, 862])
        #expect(media[8] == [0, 0, 595, 842] && cropBoxes[8] == [0, 0, 595, 842], "the copy without a box is the source page")
        #expect(try Self.boxes(out, "TrimBox", pages: 9)[7] == [100, 200, 300, 400])
        #expect(cropBoxes[7] == [100, 200, 695, 1042])
        let grown = try Grey.render(out, page: 5)
        #expect(grown.width == 635 && grown.height == 882)
        #expect(grown[5, 5] == 255 && grown[629, 876] == 255, "the added margin is white")
    }

    @Test("negative bleed, trim or art margins grow the MediaBox but never the visible page (issue 40, item 11)")
    func negativeBleedKeepsTheVisiblePage() throws {
        let dir = try scratchDirectory(with: "sizes.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for box in ["bleed", "trim", "art"] {
            let out = "\(box).pdf"
            try pdfeditOK("crop", "all", "--margins", "-9", "--box", box, "sizes.pdf", "-o", out, in: dir)
            let path = dir.appendingPathComponent(out).path
            let media = try Self.boxes(path, "MediaBox", pages: 4)
            let crop = try Self.boxes(path, "CropBox", pages: 4)
            let name = box.prefix(1).uppercased() + box.dropFirst() + "Box"
            // Page 1 is A4 without a CropBox; page 2 has CropBox [36 36 756 576].
            #expect(media[0] == [-9, -9, 604, 851], "\(box): \(media[0])")
            #expect(try Self.boxes(path, name, pages: 4)[0] == [-9, -9, 604, 851], "\(box)")
            #expect(crop[0] == [0, 0, 595, 842], "\(box): the visible page grew to \(crop[0])")
            #expect(crop[1] == [36, 36, 756, 576], "\(box): \(crop[1])")
            let size = try run("pdfinfo", ["-f", "1", "-l", "1", path]).stdout
            #expect(size.contains("595 x 842 pts"), "\(box): \(size)")
            #expect(try qpdfCheck(path).status == 0)
        }
    }

    @Test("direct mode and run scripts crop; one undo step each")
    func directAndScripts() throws {
        let dir = try scratchDirectory(with: "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let direct = try pdfedit("crop", "2", "--margins", "0,0,0,100", "rotated.pdf", "-o", "d.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        let out = dir.appendingPathComponent("d.pdf").path
        // Page 2 is turned 90°: the reader's left is the bottom edge (y0).
        #expect(try Self.boxes(out, "CropBox", pages: 4) == [[0, 0, 612, 792], [0, 100, 420, 595], [0, 0, 420, 595], [0, 0, 612, 792]])

        try pdfeditOK("open", "rotated.pdf", in: dir)
        try "crop 1 --margins 36\ncrop 4 --rect 0,0,300,300 --box art\n".write(
            to: dir.appendingPathComponent("s.txt"), atomically: true, encoding: .utf8)
        try pdfeditOK("run", "s.txt", in: dir)
        try pdfeditOK("export", "r.pdf", in: dir)
        let script = dir.appendingPathComponent("r.pdf").path
        #expect(try Self.boxes(script, "CropBox", pages: 4)[0] == [36, 36, 576, 756])
        #expect(try Self.boxes(script, "ArtBox", pages: 4)[3] == [0, 0, 300, 300])
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "u.pdf", in: dir)
        #expect(try Self.boxes(dir.appendingPathComponent("u.pdf").path, "CropBox", pages: 4)[0] == [0, 0, 612, 792])

        // apply: the same script lines on a file each; split-page then crop of the new page 2.
        try "split-page 1 --grid 2x1\ncrop 2 --margins 10\n".write(
            to: dir.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        let applied = try pdfedit("apply", "a.txt", "rotated.pdf", "-o", "out/{name}", in: dir)
        #expect(applied.stdout == "ok          rotated.pdf -> out/rotated.pdf (5 pages)\n", "\(applied.stderr)")
        #expect(
            try Self.boxes(dir.appendingPathComponent("out/rotated.pdf").path, "CropBox", pages: 2)
                == [[0, 0, 306, 792], [316, 10, 602, 782]])
    }

    @Test("split-page: a spread's halves render as its halves, on a turned page and a page with a CropBox")
    func splitSpreads() throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("export", "full.pdf", in: dir)
        // Items 2 (turned 90°, displayed 595 x 420) and 6 (CropBox 720 x 540) into halves, 1 (turned 180°) into thirds.
        let split = try pdfedit("split-page", "2,6", "--grid", "2x1", in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stdout == "split 2 pages into 2x1 cells (10 pages)\n")
        try pdfeditOK("split-page", "1", "--grid", "1x3", in: dir)
        try pdfeditOK("export", "split.pdf", in: dir)
        let full = dir.appendingPathComponent("full.pdf").path
        let out = dir.appendingPathComponent("split.pdf").path
        #expect(try pageTokens(out).count == 12)
        // (output page, source page of full.pdf, region as displayed: x, y, width, height)
        let cells: [(Int, Int, Int, Int, Int, Int)] = [
            (1, 1, 0, 0, 612, 264), (2, 1, 0, 264, 612, 264), (3, 1, 0, 528, 612, 264),
            (4, 2, 0, 0, 298, 420), (5, 2, 298, 0, 297, 420),
            (9, 6, 0, 0, 360, 540), (10, 6, 360, 0, 360, 540),
        ]
        for (page, source, x, y, width, height) in cells {
            let whole = try Grey.render(full, page: source)
            let part = try Grey.render(out, page: page)
            #expect(abs(part.width - width) <= 1 && abs(part.height - height) <= 1, "page \(page): \(part.width)x\(part.height)")
            let w = min(part.width, width)
            let h = min(part.height, height)
            let mine = part.region(x: 0, y: 0, width: w, height: h)
            let expected = whole.region(x: x, y: y, width: w, height: h)
            #expect(mine.difference(expected) < 3, "page \(page) is not cell \(x),\(y) of page \(source)")
        }
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "back.pdf", in: dir)
        let back = dir.appendingPathComponent("back.pdf").path
        #expect(try Self.boxes(back, "CropBox", pages: 8) == Self.boxes(full, "CropBox", pages: 8))
    }
}
