import Foundation
import Testing

/// `nup` and `booklet` on the built binary: text per sheet and per half with
/// `pdftotext`, pixels with `pdftoppm` (each cell renders as its page scaled),
/// links and fields with `qpdf --json`, `qpdf --check` on every output.
@Suite struct SheetCommandTests {
    typealias Grey = CropCommandTests.Grey

    /// The mean grey of each of `columns` × `rows` blocks of a region (fractional edges).
    static func blocks(_ g: Grey, x: Double, y: Double, width: Double, height: Double, columns: Int, rows: Int)
        -> [Double]
    {
        var means: [Double] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let x0 = Int((x + width * Double(column) / Double(columns)).rounded())
                let x1 = Int((x + width * Double(column + 1) / Double(columns)).rounded())
                let y0 = Int((y + height * Double(row) / Double(rows)).rounded())
                let y1 = Int((y + height * Double(row + 1) / Double(rows)).rounded())
                var total = 0
                var count = 0
                for py in max(0, y0)..<min(g.height, max(y0 + 1, y1)) {
                    for px in max(0, x0)..<min(g.width, max(x0 + 1, x1)) {
                        total += Int(g[px, py])
                        count += 1
                    }
                }
                means.append(count == 0 ? 255 : Double(total) / Double(count))
            }
        }
        return means
    }

    static func check(_ file: String) throws {
        let check = try qpdfCheck(file)
        #expect(check.status == 0, "qpdf --check \(file): \(check.stdout) \(check.stderr)")
    }

    struct Listing: Decodable {
        struct Item: Decodable {
            var id: String
            var kind: String
            var cells: [String?]?
            var width: Double?
            var height: Double?
        }
        var items: [Item]
    }

    @Test("nup: each sheet holds its cells' text in order; list shows the cells; undo and redo give the items back")
    func nupTextListAndUndo() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try pdfedit("nup", "2..7", "--grid", "2x2", "--gutter", "5mm", in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "put 6 pages on 2 sheets of 2x2 (Letter, 612×792 pt) (now 3 pages)\n")
        let listed = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(listed.items.map(\.id) == ["p1", "p8", "p9"])
        #expect(listed.items.map(\.kind) == ["page", "sheet", "sheet"])
        #expect(listed.items[1].cells == ["p2", "p3", "p4", "p5"])
        #expect(listed.items[2].cells == ["p6", "p7", nil, nil])
        let text = try pdfeditOK("list", "--no-text", in: dir).stdout
        #expect(text.contains("cells p6,p7,-,-"), "\(text)")
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try Self.check(out)
        #expect(try qpdfPageCount(out) == 3)
        let tokens = { (page: Int) throws -> [String] in
            try pageText(out, page).split(whereSeparator: \.isWhitespace).map(String.init).filter { $0.hasPrefix("ALPHA-P") }
        }
        #expect(try tokens(2) == ["ALPHA-P2", "ALPHA-P3", "ALPHA-P4", "ALPHA-P5"])
        #expect(try tokens(3) == ["ALPHA-P6", "ALPHA-P7"])
        // Each cell's page is one form XObject (six pages, six forms).
        let json = try run("qpdf", ["--json", out]).stdout
        #expect(json.components(separatedBy: "\"/Subtype\": \"/Form\"").count - 1 == 6)

        try pdfeditOK("undo", in: dir)
        let undone = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(undone.items.map(\.id) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])
        try pdfeditOK("redo", in: dir)
        let redone = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(redone.items.map(\.id) == ["p1", "p8", "p9"])

        // A sheet is one item: it turns, and it cannot go onto another sheet.
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        let turned = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(turned.items[1].width == 792 && turned.items[1].height == 612)
        let nested = try pdfedit("booklet", "all", in: dir)
        #expect(nested.status != 0)
        #expect(nested.stderr.contains("the item at position 2 is already a sheet: a sheet cannot go into another sheet"))
    }

    @Test("booklet of 8 numbered pages: sides 8|1, 2|7, 6|3, 4|5 as pdftotext reads each half")
    func bookletSides() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("beta.pdf"), toPath: dir.appendingPathComponent("beta.pdf").path)
        try pdfeditOK("insert", "beta.pdf", in: dir)
        try pdfeditOK("remove", "9..12", in: dir)
        let made = try pdfedit("booklet", "all", in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("made a booklet of 8 pages on 4 sheet sides (Tabloid landscape, 1224×792 pt)"))
        try pdfeditOK("export", "b.pdf", in: dir)
        let out = dir.appendingPathComponent("b.pdf").path
        try Self.check(out)
        #expect(try CropCommandTests.boxes(out, "MediaBox", pages: 4) == Array(repeating: [0, 0, 1224, 792], count: 4))
        func half(_ page: Int, right: Bool) throws -> String {
            let text = try run(
                "pdftotext", ["-f", "\(page)", "-l", "\(page)", "-x", right ? "612" : "0", "-y", "0", "-W", "612", "-H", "792", out, "-"]
            ).stdout
            return text.split(whereSeparator: \.isWhitespace).first { $0.contains("-P") && $0.uppercased() == $0 }
                .map(String.init) ?? "?"
        }
        let sides = try (1...4).map { [try half($0, right: false), try half($0, right: true)] }
        #expect(
            sides == [
                ["BETA-P1", "ALPHA-P1"], ["ALPHA-P2", "ALPHA-P7"], ["ALPHA-P6", "ALPHA-P3"], ["ALPHA-P4", "ALPHA-P5"],
            ])
        // Five pages: padded with empty cells to 8.
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("remove", "6..8", in: dir)
        let padded = try pdfedit("booklet", "all", "--size", "a3-landscape", in: dir)
        #expect(padded.stdout.contains("3 blanks added"), "\(padded.stdout)")
        try pdfeditOK("export", "p.pdf", in: dir)
        let five = dir.appendingPathComponent("p.pdf").path
        try Self.check(five)
        #expect(try pageText(five, 1).contains("ALPHA-P1") && !pageText(five, 1).contains("ALPHA-P5"))
        #expect(try pageText(five, 4).contains("ALPHA-P4") && pageText(five, 4).contains("ALPHA-P5"))
    }

    @Test("each cell renders as its page scaled: every quarter turn, an item turn, a crop, odd /Rotate and MediaBox origins")
    func cellPixels() throws {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in ["sizes.pdf", "odd-rotate.pdf"] {
            try FileManager.default.copyItem(atPath: Paths.fixture(file), toPath: dir.appendingPathComponent(file).path)
            try pdfeditOK("insert", file, in: dir)
        }
        try pdfeditOK("rotate", "1", "--by", "180", in: dir)
        try pdfeditOK("rotate", "3", "--by", "90", in: dir)
        try pdfeditOK("crop", "6", "--margins", "40,10,20,80", in: dir)
        try pdfeditOK("export", "full.pdf", in: dir)
        try pdfeditOK("nup", "all", "--grid", "4x3", "--gutter", "12", "--size", "1600x1200", in: dir)
        try pdfeditOK("export", "sheet.pdf", in: dir)
        let full = dir.appendingPathComponent("full.pdf").path
        let out = dir.appendingPathComponent("sheet.pdf").path
        try Self.check(out)
        let sheet = try Grey.render(out, page: 1)
        #expect(sheet.width == 1600 && sheet.height == 1200)
        let cellWidth = (1600.0 - 3 * 12) / 4
        let cellHeight = (1200.0 - 2 * 12) / 3
        // Page 12 (odd-rotate.pdf's 1800 x 3600 page with /UserUnit 10) is left out: pdftoppm
        // does not draw its huge digit at full size, only scaled down into the cell.
        #expect(try pageText(out, 1).contains("ODD-P4"))
        for index in 0..<11 {
            let page = try Grey.render(full, page: index + 1)
            let scale = min(cellWidth / Double(page.width), cellHeight / Double(page.height))
            let width = Double(page.width) * scale
            let height = Double(page.height) * scale
            let x = Double(index % 4) * (cellWidth + 12) + (cellWidth - width) / 2
            let y = Double(index / 4) * (cellHeight + 12) + (cellHeight - height) / 2
            let expected = Self.blocks(
                page, x: 0, y: 0, width: Double(page.width), height: Double(page.height), columns: 6, rows: 6)
            let seen = Self.blocks(sheet, x: x, y: y, width: width, height: height, columns: 6, rows: 6)
            let difference = zip(expected, seen).map { abs($0 - $1) }.reduce(0, +) / Double(expected.count)
            #expect(difference < 8, "cell \(index + 1) differs from its page by \(difference)")
            #expect(Set(expected.map { Int($0) }).count > 2, "page \(index + 1) shows something")
        }
        // show draws the sheet as export does (poppler, the same placement).
        try pdfeditOK("thumbs", "thumbs", "1", "--size", "400", in: dir)
        let thumbs = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("thumbs").path)
        #expect(thumbs.count == 1)
    }

    @Test("a cell's stamps are drawn as on its page: centred, upright, fitted (every quarter turn)")
    func cellStamps() throws {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("stamp.pdf"), toPath: dir.appendingPathComponent("stamp.pdf").path)
        try pdfeditOK("stamp", "all", "stamp.pdf", "--fit", in: dir)
        try pdfeditOK("export", "plain.pdf", in: dir)
        try pdfeditOK("nup", "all", "--grid", "2x2", "--gutter", "10", "--size", "1000x1000", in: dir)
        try pdfeditOK("export", "sheet.pdf", in: dir)
        let plain = dir.appendingPathComponent("plain.pdf").path
        let out = dir.appendingPathComponent("sheet.pdf").path
        try Self.check(out)
        #expect(try pageText(out, 1).components(separatedBy: "DRAFT").count - 1 == 4)
        let sheet = try Grey.render(out, page: 1)
        let cell = (1000.0 - 10) / 2
        for index in 0..<4 {
            let page = try Grey.render(plain, page: index + 1)
            let scale = min(cell / Double(page.width), cell / Double(page.height))
            let width = Double(page.width) * scale
            let height = Double(page.height) * scale
            let x = Double(index % 2) * (cell + 10) + (cell - width) / 2
            let y = Double(index / 2) * (cell + 10) + (cell - height) / 2
            let expected = Self.blocks(
                page, x: 0, y: 0, width: Double(page.width), height: Double(page.height), columns: 8, rows: 8)
            let seen = Self.blocks(sheet, x: x, y: y, width: width, height: height, columns: 8, rows: 8)
            let difference = zip(expected, seen).map { abs($0 - $1) }.reduce(0, +) / Double(expected.count)
            #expect(difference < 8, "cell \(index + 1) differs from its stamped page by \(difference)")
        }
    }

    @Test("a link on a cell still works; form fields are left out with one warning naming them; direct mode")
    func linksAndFields() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try pdfedit(
            "nup", "all", "features.pdf", "--grid", "2x1", "--size", "a4-landscape", "-o", "f.pdf", in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            made.stderr.contains("form fields cannot go onto a sheet (nup, booklet) and were left out: name, agree"),
            "\(made.stderr)")
        #expect(made.stderr.components(separatedBy: "form fields").count == 2, "one warning")
        let out = dir.appendingPathComponent("f.pdf").path
        try Self.check(out)
        // The document's own data follows its pages onto the sheets.
        #expect(try run("pdfinfo", [out]).stdout.contains("Title:           pdfedit features fixture"))
        let json = try run("qpdf", ["--json", out])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let objects = try #require((root["qpdf"] as? [Any])?[1] as? [String: Any])
        let pages = try #require(root["pages"] as? [[String: Any]]).compactMap { $0["object"] as? String }
        #expect(pages.count == 3)
        var links: [[String: Any]] = []
        var widgets = 0
        for (_, object) in objects {
            guard let value = (object as? [String: Any])?["value"] as? [String: Any] else { continue }
            if value["/Subtype"] as? String == "/Link" { links.append(value) }
            if value["/Subtype"] as? String == "/Widget" { widgets += 1 }
        }
        #expect(widgets == 0)
        // Page 1's link "Go to page 5": on sheet 1's left cell, aiming at sheet 3 (page 5 is its left cell).
        let goTo = try #require(links.first { ($0["/Dest"] as? [Any])?.count == 5 && $0["/P"] as? String == pages[0] })
        let rect = try #require(goTo["/Rect"] as? [Double])
        let cellWidth = 841.8898 / 2
        #expect(rect[0] >= 0 && rect[2] <= cellWidth && rect[1] >= 0 && rect[3] <= 595.2756, "\(rect)")
        // features.pdf's link sits at x 68…260, y 637…657 of a 612 x 792 page, fitted into the cell.
        let scale = min(cellWidth / 612, 595.2756 / 792)
        let left = (cellWidth - 612 * scale) / 2
        let bottom = (595.2756 - 792 * scale) / 2
        #expect(abs(rect[0] - (left + 68 * scale)) < 0.01 && abs(rect[3] - (bottom + 657 * scale)) < 0.01, "\(rect)")
        #expect((goTo["/Dest"] as? [Any])?.first as? String == pages[2])
        // Page 6's "Back to Chapter 2" (GoTo chapter.2 = page 4 /XYZ 0 792): aims at sheet 2, moved to its right cell.
        let back = try #require(links.first { ($0["/A"] as? [String: Any])?["/S"] as? String == "/GoTo" })
        let dest = try #require((back["/A"] as? [String: Any])?["/D"] as? [Any])
        #expect(dest.first as? String == pages[1])
        let x = try #require(dest[2] as? Double)
        let y = try #require(dest[3] as? Double)
        #expect(abs(x - (cellWidth + left)) < 0.01 && abs(y - (bottom + 792 * scale)) < 0.01, "\(dest)")
        // Bookmarks of pages on sheets go to their sheets (Chapter 2 is page 4, Appendix page 6).
        var bookmarks: [String: String] = [:]
        for (_, object) in objects {
            guard let value = (object as? [String: Any])?["value"] as? [String: Any],
                let title = value["/Title"] as? String, let target = (value["/Dest"] as? [Any])?.first as? String
            else { continue }
            bookmarks[title] = target
        }
        #expect(bookmarks["u:Chapter 2"] == pages[1] && bookmarks["u:Appendix"] == pages[2], "\(bookmarks)")
        // Section 2.1 (page 5 /XYZ 72 720 0) at the same spot of page 5, now sheet 3's left cell.
        let section = try #require(
            objects.values.compactMap { ($0 as? [String: Any])?["value"] as? [String: Any] }
                .first { $0["/Title"] as? String == "u:Section 2.1" }?["/Dest"] as? [Any])
        #expect(section.first as? String == pages[2])
        #expect(
            abs((section[2] as? Double ?? 0) - (left + 72 * scale)) < 0.01
                && abs((section[3] as? Double ?? 0) - (bottom + 720 * scale)) < 0.01, "\(section)")
    }

    @Test("pages and sheet cells of one source in one output each keep their own annotations")
    func annotationsOfPagesAndCellsStayApart() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Three pages, each with a text note (not a link: qpdf's copier copies it)
        // naming its page.
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R] /Count 3 /MediaBox [0 0 200 200] >>",
            3: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        for page in 1...3 {
            let text = "BT /F1 18 Tf 30 100 Td (NOTES-P\(page)) Tj ET"
            objects[9 + page] = "<< /Type /Page /Parent 2 0 R /Contents \(19 + page) 0 R "
                + "/Resources << /Font << /F1 3 0 R >> >> /Annots [\(29 + page) 0 R] >>"
            objects[19 + page] = "<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream"
            objects[29 + page] = "<< /Type /Annot /Subtype /Text /Rect [20 20 40 40] /Contents (NOTE-P\(page)) /Open false >>"
        }
        let file = dir.appendingPathComponent("notes.pdf")
        try LimitsTests.writePDF(objects, to: file.path)
        let out = dir.appendingPathComponent("out.pdf").path
        try pdfeditOK("nup", "2..3", file.path, "--grid", "2x1", "-o", out, in: dir)
        #expect(try qpdfCheck(out).status == 0)
        let json = try run("qpdf", ["--json=2", "--json-key=pages", "--json-key=qpdf", out]).stdout
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objectsOut = try #require((root["qpdf"] as? [Any])?[1] as? [String: Any])
        let pages = try #require(root["pages"] as? [[String: Any]]).compactMap { $0["object"] as? String }
        #expect(pages.count == 2)
        func value(_ reference: String) -> [String: Any]? {
            (objectsOut["obj:" + reference] as? [String: Any])?["value"] as? [String: Any]
        }
        func notes(_ page: String) -> [String] {
            let annots = value(page)?["/Annots"] as? [String] ?? []
            return annots.compactMap { value($0)?["/Contents"] as? String }.sorted()
        }
        #expect(notes(pages[0]) == ["u:NOTE-P1"])
        #expect(notes(pages[1]) == ["u:NOTE-P2", "u:NOTE-P3"])
    }

    @Test("run scripts and apply impose; one undo step")
    func scriptsAndApply() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try "nup 1..4 --grid 2x1 --order columns\nbooklet 3..last\n".write(
            to: dir.appendingPathComponent("s.txt"), atomically: true, encoding: .utf8)
        try pdfeditOK("run", "s.txt", in: dir)
        let listed = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(listed.items.map(\.kind) == ["sheet", "sheet", "sheet", "sheet"])
        #expect(listed.items.map { $0.cells ?? [] } == [["p1", "p2"], ["p3", "p4"], [nil, "p5"], ["p6", "p7"]])
        try pdfeditOK("undo", in: dir)
        let undone = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(undone.items.map(\.id) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"])

        try "booklet all\n".write(to: dir.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        let applied = try pdfedit("apply", "a.txt", "alpha.pdf", "-o", "out/{name}", in: dir)
        #expect(applied.stdout == "ok          alpha.pdf -> out/alpha.pdf (4 pages)\n", "\(applied.stderr)")
        let out = dir.appendingPathComponent("out/alpha.pdf").path
        try Self.check(out)
        #expect(try pageText(out, 1).contains("ALPHA-P1") && pageText(out, 4).contains("ALPHA-P4"))
    }

    /// A crop of a sheet is a crop box on the sheet: its cells stay where they
    /// were, at their size (the bridge used to fit them into the crop).
    @Test("a cropped sheet keeps its cells where they were, at their size")
    func aCroppedSheetKeepsItsCells() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("nup", "1..4", "--grid", "2x2", in: dir)
        try pdfeditOK("export", "whole.pdf", in: dir)
        try pdfeditOK("crop", "1", "--margins", "100", in: dir)
        try pdfeditOK("export", "cropped.pdf", in: dir)
        let whole = dir.appendingPathComponent("whole.pdf").path
        let cropped = dir.appendingPathComponent("cropped.pdf").path
        try Self.check(cropped)
        let boxes = try run("pdfinfo", ["-box", "-f", "1", "-l", "1", cropped]).stdout
        #expect(boxes.contains("CropBox:     100.00   100.00   512.00   692.00"), "\(boxes)")
        let before = try BoxedWord.words(whole, page: 1)
        let after = try BoxedWord.words(cropped, page: 1)
        #expect(before.count >= 4 && after.count == before.count, "\(before) vs \(after)")
        for (a, b) in zip(before, after) {
            #expect(
                a.text == b.text && abs(a.xMin - b.xMin) < 0.01 && abs(a.yMin - b.yMin) < 0.01
                    && abs(a.xMax - b.xMax) < 0.01 && abs(a.yMax - b.yMax) < 0.01, "\(a) vs \(b)")
        }
    }
}
