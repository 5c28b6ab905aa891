import Foundation
import Testing

/// Page geometry as a viewer sees it: odd /Rotate values (not a multiple of 90,
/// negative), checked on every path (info, list, export, rotate, stamp) against
/// poppler's own reading (`pdfinfo`, `pdftotext -bbox`).
@Suite struct PageGeometryTests {
    /// odd-rotate.pdf: page 1 Letter /Rotate 135, page 2 A5 /Rotate 45, page 3
    /// Letter /Rotate -90, page 4 1800 x 3600 with /UserUnit 10.
    static let fixture = "odd-rotate.pdf"

    struct Sized: Decodable {
        var width: Double
        var height: Double
        var rotation: Int
    }

    /// `pdfinfo`'s "Page N rot:" lines of an output, which are /Rotate as written
    /// (poppler prints 135 as 135, so on an output this is what pdfedit wrote).
    func writtenRotations(_ file: String, pages: Int) throws -> [Int] {
        let result = try run("pdfinfo", ["-f", "1", "-l", "\(pages)", file])
        return result.stdout.split(separator: "\n").filter { $0.contains(" rot:") }.compactMap {
            Int($0.split(separator: " ").last ?? "")
        }
    }

    @Test("info shows /Rotate 135 and 45 as 0 and -90 as 270, as viewers do")
    func info() throws {
        let result = try pdfedit("info", "--json", "--no-text", Paths.fixture(Self.fixture))
        #expect(result.status == 0, "\(result.stderr)")
        struct Info: Decodable { var pages: [Sized] }
        let pages = try JSONDecoder().decode(Info.self, from: Data(result.stdout.utf8)).pages
        #expect(pages.map(\.rotation) == [0, 0, 270, 0])
        #expect(pages.prefix(2).map { [$0.width, $0.height] } == [[612, 792], [420, 595]])
    }

    @Test("list does not swap the size of a /Rotate 135 or 45 page; export writes the rotation viewers show")
    func listAndExport() throws {
        let dir = try scratchDirectory(with: Self.fixture)
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", Self.fixture, in: dir)
        let listed = try pdfedit("list", "--json", in: dir)
        struct Listing: Decodable { var items: [Sized] }
        let items = try JSONDecoder().decode(Listing.self, from: Data(listed.stdout.utf8)).items
        #expect(items.map { [$0.width, $0.height] } == [[612, 792], [420, 595], [792, 612], [18000, 36000]])

        let exported = try pdfedit("export", "out.pdf", in: dir)
        #expect(exported.status == 0, "\(exported.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try writtenRotations(out, pages: 4) == [0, 0, 270, 0])
        #expect(try pageTokens(out) == ["ODD-P1", "ODD-P2", "ODD-P3", "ODD-P4"])

        // A quarter turn composes with what the viewer showed (0), not with 135 or 45.
        try pdfeditOK("rotate", "1-3", "--by", "90", in: dir)
        let turned = try JSONDecoder().decode(
            Listing.self, from: Data(try pdfedit("list", "--json", in: dir).stdout.utf8)
        ).items
        #expect(turned.map { [$0.width, $0.height] } == [[792, 612], [595, 420], [612, 792], [18000, 36000]])
        let again = try pdfedit("export", "turned.pdf", in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try writtenRotations(dir.appendingPathComponent("turned.pdf").path, pages: 4) == [90, 90, 0, 0])
    }

    /// The box of `word` on `page` as poppler places it on the page as shown.
    func wordBox(_ word: String, page: Int, of file: String) throws -> (width: Double, height: Double)? {
        let boxes = try run("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-bbox", file, "-"]).stdout
        guard let line = boxes.split(separator: "\n").first(where: { $0.contains(">\(word)<") }) else { return nil }
        func value(_ name: String) -> Double? {
            guard let range = line.range(of: "\(name)=\"") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != "\"" })
        }
        guard let x0 = value("xMin"), let y0 = value("yMin"), let x1 = value("xMax"), let y1 = value("yMax") else {
            return nil
        }
        return (x1 - x0, y1 - y0)
    }

    @Test("a stamp on a /Rotate 135 or 45 page is drawn upright on a page that keeps the source's look")
    func stampOnOddPage() throws {
        let dir = try scratchDirectory(with: Self.fixture, "stamp.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", Self.fixture, in: dir)
        try pdfeditOK("stamp", "1-2", "stamp.pdf", in: dir)
        let exported = try pdfedit("export", "out.pdf", in: dir)
        #expect(exported.status == 0, "\(exported.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try writtenRotations(out, pages: 2) == [0, 0])
        for page in 1...2 {
            let box = try wordBox("DRAFT", page: page, of: out)
            #expect(box.map { $0.width > 2 * $0.height } == true, "page \(page): the stamp is turned: \(String(describing: box))")
        }
    }

    @Test("a /Rotate 135 page used as a stamp is drawn as viewers show it (unturned)")
    func oddPageAsStamp() throws {
        let dir = try scratchDirectory(with: Self.fixture, "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("stamp", "1", Self.fixture, "--page", "1", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let box = try wordBox("ODD-P1", page: 1, of: dir.appendingPathComponent("out.pdf").path)
        #expect(box.map { $0.width > 2 * $0.height } == true, "the stamp is turned: \(String(describing: box))")
    }

    /// Each page's /MediaBox and /UserUnit (nil when absent) as `qpdf --json` reads them.
    func pageBoxes(_ file: String) throws -> [(box: [Double], unit: Double?)] {
        let result = try run("qpdf", ["--json", "--json-key=pages", "--json-key=qpdf", file])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let objects = (json?["qpdf"] as? [Any])?.last as? [String: Any] ?? [:]
        let pages = json?["pages"] as? [[String: Any]] ?? []
        return pages.map { page in
            let reference = page["object"] as? String ?? ""
            let dictionary = (objects["obj:\(reference)"] as? [String: Any])?["value"] as? [String: Any] ?? [:]
            let box = (dictionary["/MediaBox"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            return (box, (dictionary["/UserUnit"] as? NSNumber)?.doubleValue)
        }
    }

    @Test("blank, placeholder and image pages over 14,400 pt are written with the smallest integer /UserUnit")
    func bigPagesGetAUserUnit() throws {
        let dir = try scratchDirectory(with: Self.fixture, "photo.jpg")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", Self.fixture, in: dir)
        // Page 4 is 18000 x 36000 pt (1800 x 3600 at /UserUnit 10).
        let like = try pdfedit("blank", "--size", "like:4", in: dir)
        #expect(like.status == 0, "\(like.stderr)")
        try pdfeditOK("placeholder", "--size", "20000x30000", in: dir)
        try pdfeditOK("insert", "photo.jpg", "--fit", "20000x30000", in: dir)
        // The session holding these sizes stays usable.
        let listed = try pdfedit("list", in: dir)
        #expect(listed.status == 0, "\(listed.stderr)")
        let result = try pdfedit("export", "out.pdf", "--placeholders", "blank", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let boxes = try pageBoxes(dir.appendingPathComponent("out.pdf").path)
        #expect(boxes.count == 7)
        guard boxes.count == 7 else { return }
        #expect(boxes[3].box == [0, 0, 1800, 3600] && boxes[3].unit == 10, "the source page as it was")
        #expect(boxes[4].box == [0, 0, 6000, 12000] && boxes[4].unit == 3, "blank like:4: \(boxes[4])")
        #expect(boxes[5].box.map { ($0 * 1000).rounded() / 1000 } == [0, 0, 6666.667, 10000] && boxes[5].unit == 3,
                "placeholder: \(boxes[5])")
        #expect(boxes[6].box.map { ($0 * 1000).rounded() / 1000 } == [0, 0, 10000, 6666.667] && boxes[6].unit == 3,
                "image page: \(boxes[6])")
        #expect(boxes[0...2].allSatisfy { $0.unit == nil })
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
    }
}
