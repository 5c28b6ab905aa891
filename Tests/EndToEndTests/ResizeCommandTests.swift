import Foundation
import Testing

/// `resize` on the built binary: boxes with `pdfinfo -box`, text with
/// `pdftotext`, pixels with `pdftoppm` (a resized page renders as what the item
/// showed, scaled and centred), links and form fields with `qpdf --json`, on
/// pages turned every quarter turn, with MediaBoxes off the origin and crops.
@Suite struct ResizeCommandTests {
    typealias Grey = CropCommandTests.Grey

    /// The share of 4×4 blocks of `resized` whose mean grey differs by more than 40
    /// from `shown` drawn as the rule says: scaled uniformly to fit (or fill)
    /// `resized`, centred, white around it.
    static func mismatch(_ resized: Grey, _ shown: Grey, fill: Bool) -> Double {
        let (W, H) = (Double(resized.width), Double(resized.height))
        let (w, h) = (Double(shown.width), Double(shown.height))
        let s = fill ? max(W / w, H / h) : min(W / w, H / h)
        let (ox, oy) = ((W - s * w) / 2, (H - s * h) / 2)
        var bad = 0
        var blocks = 0
        for by in stride(from: 0, to: resized.height - 3, by: 4) {
            for bx in stride(from: 0, to: resized.width - 3, by: 4) {
                var got = 0
                var want = 0
                for y in by..<by + 4 {
                    for x in bx..<bx + 4 {
                        got += Int(resized[x, y])
                        let sx = (Double(x) + 0.5 - ox) / s
                        let sy = (Double(y) + 0.5 - oy) / s
                        want += sx >= 0 && sy >= 0 && sx < w && sy < h ? Int(shown[Int(sx), Int(sy)]) : 255
                    }
                }
                blocks += 1
                if abs(got - want) > 40 * 16 { bad += 1 }
            }
        }
        return Double(bad) / Double(max(1, blocks))
    }

    /// rotated.pdf (turns 0, 90 inherited, 90, 270) then sizes.pdf (A4; CropBox
    /// [36 36 756 576]; A5; MediaBox [100 200 695 1042]); item 1 turned 180°, item 2
    /// 90° more, item 8 cropped.
    func session() throws -> URL {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        try FileManager.default.copyItem(atPath: Paths.fixture("sizes.pdf"), toPath: dir.appendingPathComponent("sizes.pdf").path)
        try pdfeditOK("insert", "sizes.pdf", in: dir)
        try pdfeditOK("rotate", "1", "--by", "180", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", in: dir)
        try pdfeditOK("crop", "8", "--margins", "40,10,100,30", in: dir)
        return dir
    }

    @Test("resize --to a4 (fit) and --fill: pdfinfo boxes, text and pixels of what each item showed, every turn and odd origin")
    func fitAndFillOnEveryTurn() throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("export", "before.pdf", in: dir)
        let before = dir.appendingPathComponent("before.pdf").path
        for fill in [false, true] {
            let resized = try pdfedit(args: ["resize", "all", "--to", "a4"] + (fill ? ["--fill"] : []), in: dir)
            #expect(resized.status == 0, "\(resized.stderr)")
            #expect(resized.stdout == "resized 8 pages to A4, 595.28×841.89 pt (\(fill ? "fill" : "fit")) (8 pages)\n")
            let name = fill ? "fill.pdf" : "fit.pdf"
            try pdfeditOK("export", name, in: dir)
            let out = dir.appendingPathComponent(name).path
            #expect(try run("qpdf", ["--check", out]).status == 0)
            let a4 = [0, 0, 595.28, 841.89]
            #expect(try CropCommandTests.boxes(out, "MediaBox", pages: 8) == Array(repeating: a4, count: 8))
            #expect(try CropCommandTests.boxes(out, "CropBox", pages: 8) == Array(repeating: a4, count: 8))
            let info = try run("pdfinfo", ["-f", "1", "-l", "8", out]).stdout
            #expect(info.split(separator: "\n").filter { $0.contains(" rot:") }.allSatisfy { $0.hasSuffix(" 0") })
            if !fill {
                #expect(try pageTokens(out) == pageTokens(before))
            }
            for page in 1...8 {
                let share = Self.mismatch(try Grey.render(out, page: page), try Grey.render(before, page: page), fill: fill)
                #expect(share < 0.03, "page \(page) (fill \(fill)) is not its source scaled: \(share)")
            }
            try pdfeditOK("undo", in: dir)
        }
        // Undo gave the model back: the same export as before.
        try pdfeditOK("export", "undone.pdf", in: dir)
        let undone = dir.appendingPathComponent("undone.pdf").path
        #expect(try CropCommandTests.boxes(undone, "CropBox", pages: 8) == CropCommandTests.boxes(before, "CropBox", pages: 8))
        #expect(try run("pdfinfo", ["-f", "1", "-l", "8", undone]).stdout == run("pdfinfo", ["-f", "1", "-l", "8", before]).stdout)
    }

    @Test("after a resize, rotate turns the new paper and crop crops it; list shows the new size; thumbs draw it")
    func laterEditsAndSeeing() throws {
        let dir = try session()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("resize", "1..2,8", "--to", "a5", in: dir)
        try pdfeditOK("rotate", "1", "--by", "90", in: dir)
        try pdfeditOK("crop", "2", "--margins", "20", in: dir)
        struct Listing: Decodable {
            struct Item: Decodable { var width: Double; var height: Double; var rotation: Int }
            var items: [Item]
        }
        let listed = try decode(Listing.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(listed.items.map { [$0.width, $0.height] }[0..<2] == [[595.28, 419.53], [379.53, 555.28]])
        #expect(listed.items[7].width == 419.53 && listed.items[7].height == 595.28)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let media = try CropCommandTests.boxes(out, "MediaBox", pages: 8)
        let crops = try CropCommandTests.boxes(out, "CropBox", pages: 8)
        #expect(media[0] == [0, 0, 419.53, 595.28] && media[1] == [0, 0, 419.53, 595.28])
        #expect(crops[1] == [20, 20, 399.53, 575.28])
        let info = try run("pdfinfo", ["-f", "1", "-l", "2", out]).stdout
        let turns = info.split(separator: "\n").filter { $0.contains(" rot:") }.map { $0.split(separator: " ").last.map(String.init) }
        #expect(turns == ["90", "0"], "\(info)")
        // thumbs draw the resized pages as export does (pdftoppm of the export, sampled).
        try pdfeditOK("thumbs", "th", in: dir)
        for (page, file) in [(1, "1-p1.png"), (2, "2-p2.png"), (8, "8-p8.png")] {
            let path = dir.appendingPathComponent("th/\(file)").path
            let size = try Pixels.pngSize(path)
            let grid = (1..<8).flatMap { i in (1..<8).map { j in (x: size.width * i / 8, y: size.height * j / 8) } }
            let thumb = try Pixels.png(path, at: grid)
            let exported = try Grey.render(out, page: page)
            var agree = 0
            for (point, colour) in zip(grid, thumb) {
                let grey = (colour.red * 299 + colour.green * 587 + colour.blue * 114) / 1000
                let x = min(exported.width - 1, point.x * exported.width / size.width)
                let y = min(exported.height - 1, point.y * exported.height / size.height)
                if abs(grey - Int(exported[x, y])) <= 60 { agree += 1 }
            }
            #expect(agree >= 45, "thumbnail of page \(page) agrees with the export at \(agree) of 49 points")
        }
    }

    @Test("a form field keeps its value and its widget moves with the content; links too, and links into a resized page")
    func fieldsAndLinks() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run1 = try pdfedit("rotate", "2", "--by", "90", "features.pdf", "-o", "turned.pdf", in: dir)
        #expect(run1.status == 0, "\(run1.stderr)")
        let resized = try pdfedit("resize", "all", "--to", "a5", "turned.pdf", "-o", "out.pdf", in: dir)
        #expect(resized.status == 0, "\(resized.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try run("qpdf", ["--check", out]).status == 0)
        let json = try JSONSerialization.jsonObject(
            with: Data(try run("qpdf", ["--json", "--json-key=acroform", "--json-key=pages", "--json-key=qpdf", out]).stdout.utf8))
            as? [String: Any]
        let objects = ((json?["qpdf"] as? [Any])?[1] as? [String: Any]) ?? [:]
        func value(_ ref: String) -> [String: Any]? { (objects["obj:\(ref)"] as? [String: Any])?["value"] as? [String: Any] }
        func rect(_ ref: String) -> [Double] { (value(ref)?["/Rect"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }
        let fields = ((json?["acroform"] as? [String: Any])?["fields"] as? [[String: Any]]) ?? []
        let name = try #require(fields.first { $0["fullname"] as? String == "name" })
        #expect(name["value"] as? String == "u:Jane Doe")
        #expect(name["pageposfrom1"] as? Int == 2)
        // Page 2, turned 90° clockwise: user (x, y) shows at (y, 612 - x) on a 792 × 612
        // page, scaled by s into A5 (419.53 × 595.28) and centred.
        let (W, H) = (419.53, 595.28)
        func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 0.01 } }
        let s2 = min(W / 792, H / 612)
        let (ox2, oy2) = ((W - 792 * s2) / 2, (H - 612 * s2) / 2)
        // Widget [150 607 400 631]: corners (607, 462) and (631, 212) after the turn.
        let widget = rect(try #require((name["annotation"] as? [String: Any])?["object"] as? String))
        #expect(near(widget, [ox2 + 607 * s2, oy2 + 212 * s2, ox2 + 631 * s2, oy2 + 462 * s2]), "\(widget)")
        // Its appearance is turned with the page (a viewer maps the turned /BBox onto
        // /Rect): /Matrix a quarter turn (clockwise on the page: 270° counter-clockwise).
        let widgetReference = try #require((name["annotation"] as? [String: Any])?["object"] as? String)
        let widgetObject = try #require(value(widgetReference))
        #expect(((widgetObject["/MK"] as? [String: Any])?["/R"] as? Int) == 270)
        let appearance = try #require((widgetObject["/AP"] as? [String: Any])?["/N"] as? String)
        let appearanceDict = ((objects["obj:\(appearance)"] as? [String: Any])?["stream"] as? [String: Any])?["dict"] as? [String: Any]
        #expect((appearanceDict?["/Matrix"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } == [0, -1, 1, 0, 0, 0])
        // Page 1, upright: s = min(W / 612, H / 792); link [68 637 260 657].
        let s1 = min(W / 612, H / 792)
        let (ox1, oy1) = ((W - 612 * s1) / 2, (H - 792 * s1) / 2)
        let pages = (json?["pages"] as? [[String: Any]] ?? []).compactMap { $0["object"] as? String }
        let links1 = (value(pages[0])?["/Annots"] as? [String]) ?? []
        let link = try #require(links1.first)
        #expect(near(rect(link), [ox1 + 68 * s1, oy1 + 637 * s1, ox1 + 260 * s1, oy1 + 657 * s1]), "\(rect(link))")
        let dest = value(link)?["/Dest"] as? [Any]
        #expect(dest?.first as? String == pages[4], "the link still goes to page 5")
        // Page 6's link goes to page 4 /XYZ 0 792 (chapter.2): the point moves with page 4's content.
        let back = try #require((value(pages[5])?["/Annots"] as? [String])?.first)
        let action = value(back)?["/A"] as? [String: Any]
        let target = (action?["/D"] as? [Any]) ?? []
        #expect(target.first as? String == pages[3])
        let numbers = target.dropFirst(2).prefix(2).compactMap { ($0 as? NSNumber)?.doubleValue }
        #expect(near(numbers, [ox1 + 0 * s1, oy1 + 792 * s1]), "\(target)")
        // Bookmarks aiming into resized pages move too: Section 2.1 was page 5 /XYZ 72 720 0.
        let outlines = try JSONSerialization.jsonObject(
            with: Data(try run("qpdf", ["--json", "--json-key=outlines", out]).stdout.utf8)) as? [String: Any]
        func flatten(_ entries: [[String: Any]]) -> [[String: Any]] {
            entries.flatMap { [$0] + flatten($0["kids"] as? [[String: Any]] ?? []) }
        }
        let section = try #require(flatten(outlines?["outlines"] as? [[String: Any]] ?? []).first { $0["title"] as? String == "Section 2.1" })
        let view = (section["dest"] as? [Any] ?? []).dropFirst(2).compactMap { ($0 as? NSNumber)?.doubleValue }
        #expect(near(view, [ox1 + 72 * s1, oy1 + 720 * s1, 0]), "\(section)")
        #expect(section["destpageposfrom1"] as? Int == 5)
    }

    @Test("run and apply take resize lines; a bad size is refused with nothing changed")
    func scriptsAndRefusals() throws {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try sessionBytes(dir)
        #expect(try pdfedit("resize", "all", "--to", "huge", in: dir).status == 64)
        #expect(try sessionBytes(dir) == before)
        try pdfeditOK("run", "-", in: dir, stdin: "resize 1..2 --to letter --fill\nrotate 1 --by 90\n")
        try pdfeditOK("export", "run.pdf", in: dir)
        let out = dir.appendingPathComponent("run.pdf").path
        #expect(try CropCommandTests.boxes(out, "MediaBox", pages: 4)[0..<2] == [[0, 0, 612, 792], [0, 0, 612, 792]])
        try pdfeditOK("undo", in: dir)
        #expect(try sessionBytes(dir) != before)
        let applied = try pdfedit(
            "apply", "-e", "resize all --to a6", "rotated.pdf", "-o", "a6-{name}", in: dir)
        #expect(applied.status == 0, "\(applied.stderr)")
        let a6 = dir.appendingPathComponent("a6-rotated.pdf").path
        #expect(try CropCommandTests.boxes(a6, "MediaBox", pages: 4) == Array(repeating: [0, 0, 297.64, 419.53], count: 4))
        #expect(try pageTokens(a6) == ["ROT-P1", "ROT-P2", "ROT-P3", "ROT-P4"])
    }
}
