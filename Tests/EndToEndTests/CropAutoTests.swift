import Foundation
import Testing

/// `crop --auto` on pages whose ink is known (written here) and on real scans
/// from ../shared/corpus; boxes read with `pdfinfo -box`, pixels with `pdftoppm`.
@Suite struct CropAutoTests {
    /// A PDF whose pages have these MediaBoxes, /Rotate values and content streams.
    static func pdf(_ pages: [(media: String, rotate: Int, content: String)]) -> Data {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", ""]
        var kids: [String] = []
        for page in pages {
            let pageNumber = objects.count + 1
            kids.append("\(pageNumber) 0 R")
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox \(page.media) /Rotate \(page.rotate) /Contents \(pageNumber + 1) 0 R /Resources << >> >>")
            objects.append("<< /Length \(page.content.utf8.count) >>\nstream\n\(page.content)\nendstream")
        }
        objects[1] = "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(pages.count) >>"
        return TestPDF.bytes(objects, header: "%PDF-1.4\n")
    }

    static func close(_ a: [[Double]], _ b: [[Double]], within tolerance: Double) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= tolerance } }
    }

    @Test("--auto finds known ink on turned, odd-origin and scan-grey pages; --pad; a page without ink is kept")
    func knownInk() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 1: black box [200 300 300 350] on MediaBox [50 100 650 900] turned 90°.
        // 2: paper grey 0.9 (a scan's tint, lighter than the threshold), black box
        //    [120 150 220 400], and a 0.3 pt speck of dust far from it; turned 270°.
        // 3: nothing but paper grey.
        let pages = [
            (media: "[50 100 650 900]", rotate: 90, content: "0 g 200 300 100 50 re f"),
            (media: "[0 0 595 842]", rotate: 270, content: "0.9 g 0 0 595 842 re f 0 g 120 150 100 250 re f 0.2 g 560 800 0.3 0.3 re f"),
            (media: "[0 0 400 400]", rotate: 0, content: "0.9 g 0 0 400 400 re f"),
        ]
        try Self.pdf(pages).write(to: dir.appendingPathComponent("ink.pdf"))
        try pdfeditOK("open", "ink.pdf", in: dir)
        let cropped = try pdfedit("crop", "all", "--auto", in: dir)
        #expect(cropped.status == 0, "\(cropped.stderr)")
        #expect(cropped.stdout == "cropped to the ink (crop box, pad 0 pt) 2 pages (3 pages); 1 page without ink kept\n")
        try pdfeditOK("export", "auto.pdf", in: dir)
        let out = dir.appendingPathComponent("auto.pdf").path
        let boxes = try CropCommandTests.boxes(out, "CropBox", pages: 3)
        #expect(Self.close(boxes, [[200, 300, 300, 350], [120, 150, 220, 400], [0, 0, 400, 400]], within: 0.5), "\(boxes)")
        // Independent: poppler's rendering of the cropped page is all ink.
        for page in 1...2 {
            let picture = try CropCommandTests.Grey.render(out, page: page)
            let mean = Double(picture.pixels.reduce(0) { $0 + Int($1) }) / Double(picture.pixels.count)
            #expect(mean < 40, "page \(page) shows white around the ink (mean \(mean))")
        }

        try pdfeditOK("crop", "1", "--auto", "--pad", "10", in: dir)
        try pdfeditOK("export", "pad.pdf", in: dir)
        let padded = try CropCommandTests.boxes(dir.appendingPathComponent("pad.pdf").path, "CropBox", pages: 1)
        #expect(Self.close(padded, [[190, 290, 310, 360]], within: 0.5), "\(padded)")
        #expect(try pdfedit("crop", "3", "--auto", in: dir).stderr.contains("none of the selected pages has ink"))
        #expect(try pdfedit("crop", "1", "--pad", "3", in: dir).status == 64)

        // A blank has no ink (kept, like page 3); an image item is refused by name.
        try pdfeditOK("blank", "--at", "1", in: dir)
        #expect(try pdfedit("crop", "1", "--auto", in: dir).stderr.contains("none of the selected pages has ink"))
        try FileManager.default.copyItem(
            at: Paths.fixtures.appendingPathComponent("logo.png"), to: dir.appendingPathComponent("logo.png"))
        try pdfeditOK("insert", "logo.png", "--at", "1", in: dir)
        let image = try pdfedit("crop", "1", "--auto", in: dir)
        #expect(image.status == 64)
        #expect(image.stderr.contains("position 1 is an image: crop --auto finds the ink of PDF pages only"), "\(image.stderr)")
    }

    @Test(
        "--auto on real scans from the corpus: the white border goes, the ink reaches every edge",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func scans() throws {
        for name in ["ocrmypdf-skew.pdf", "ocrmypdf-ccitt.pdf"] {
            let source = Paths.corpus(name)
            try #require(FileManager.default.fileExists(atPath: source), "\(source) is missing from the corpus")
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let output = dir.appendingPathComponent("out.pdf").path
            let result = try pdfedit("crop", "1", "--auto", source, "-o", output)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let media = try #require(try CropCommandTests.boxes(source, "CropBox", pages: 1).first)
            let crop = try #require(try CropCommandTests.boxes(output, "CropBox", pages: 1).first)
            #expect(crop[0] >= media[0] && crop[1] >= media[1] && crop[2] <= media[2] && crop[3] <= media[3], "\(name)")
            let area = (crop[2] - crop[0]) * (crop[3] - crop[1])
            let whole = (media[2] - media[0]) * (media[3] - media[1])
            #expect(area < whole * 0.97 && area > whole * 0.2, "\(name): \(crop) of \(media)")
            // pdftoppm of the cropped page: some ink within 3 px of each edge.
            let picture = try CropCommandTests.Grey.render(output, page: 1)
            func dark(_ xs: Range<Int>, _ ys: Range<Int>) -> Bool {
                ys.contains { y in xs.contains { x in picture[x, y] < 200 } }
            }
            let w = picture.width
            let h = picture.height
            #expect(dark(0..<3, 0..<h) && dark((w - 3)..<w, 0..<h) && dark(0..<w, 0..<3) && dark(0..<w, (h - 3)..<h), "\(name)")
        }
    }
}
