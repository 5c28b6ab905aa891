import Foundation
import Testing

/// `show`, `thumbs`, `find`, `list` and the progress bar, on the built binary; pixels
/// are read back with an independent PNG decoder and compared with `pdftoppm`.
@Suite struct SeeingTests {
    @Test("a contact sheet of alpha: the grid the JSON describes, each page's colour where its cell is")
    func contactSheetColours() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try decode(
            SheetJSON.self, try pdfedit("show", "-o", "sheet.png", "--columns", "4", "--size", "80", "--json", in: dir))
        try #require(report.sheets.count == 1)
        let sheet = report.sheets[0]
        #expect(sheet.file == "sheet.png" && sheet.columns == 4 && sheet.rows == 2)
        #expect(report.itemCount == 7 && report.rendered == 7 && report.cached == 0)
        let size = try Pixels.pngSize(dir.appendingPathComponent("sheet.png").path)
        #expect(size.width == sheet.width && size.height == sheet.height)
        // 4 columns, 2 rows of 80-pixel boxes: wider than 4 thumbnails, taller than 2.
        #expect(size.width > 4 * 80 && size.width < 4 * 80 + 5 * 40)
        #expect(size.height > 2 * 80)
        #expect(sheet.items.map(\.position) == Array(1...7))
        #expect(sheet.items.map(\.id) == (1...7).map { "p\($0)" })
        // A regular grid: cells of one row share a baseline, columns a constant pitch.
        let pitch = sheet.items[1].x - sheet.items[0].x
        #expect(pitch > 80)
        for cell in sheet.items {
            let column = (cell.position - 1) % 4
            let row = (cell.position - 1) / 4
            #expect(cell.x - sheet.items[column].x == 0)
            #expect(cell.y + cell.height == sheet.items[row * 4].y + sheet.items[row * 4].height)
            #expect(cell.width <= 80 && cell.height == 80)
        }
        let pages = try FixturePage.pages(of: "alpha.pdf")
        let points = sheet.items.map { cell in
            let page = pages[cell.position - 1]
            return (
                x: cell.x + Int(Double(cell.width) * page.probeFraction[0]),
                y: cell.y + Int(Double(cell.height) * page.probeFraction[1])
            )
        }
        let colours = try Pixels.png(dir.appendingPathComponent("sheet.png").path, at: points)
        for (cell, colour) in zip(sheet.items, colours) {
            let page = pages[cell.position - 1]
            let reference = try Pixels.reference(
                Paths.fixture("alpha.pdf"), page: page.page, fraction: page.probeFraction)
            #expect(Pixels.close(colour, page.color), "cell \(cell.position): \(colour) vs \(page.colorRGB)")
            #expect(Pixels.close(colour, reference), "cell \(cell.position): \(colour) vs pdftoppm \(reference)")
        }
    }

    @Test("thumbnails are turned as export turns pages: /Rotate and the item's rotation")
    func rotatedThumbnails() throws {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try decode(ThumbsJSON.self, try pdfedit("thumbs", "th", "--size", "100", "--json", in: dir))
        #expect(
            first.files.map { ($0.file as NSString).lastPathComponent } == [
                "1-p1.png", "2-p2.png", "3-p3.png", "4-p4.png",
            ])
        let p1 = try Pixels.pngSize(dir.appendingPathComponent("th/1-p1.png").path)
        let p2 = try Pixels.pngSize(dir.appendingPathComponent("th/2-p2.png").path)
        #expect(p1.height == 100 && p1.width < p1.height, "page 1 is portrait: \(p1)")
        #expect(p2.width == 100 && p2.width > p2.height, "page 2 (/Rotate 90) is landscape: \(p2)")
        #expect(first.files[1].width == p2.width && first.files[1].height == p2.height)

        try pdfeditOK("rotate", "1", "--by", "90", in: dir)
        let turned = try decode(
            ThumbsJSON.self, try pdfedit("thumbs", "th", "--size", "100", "--force", "--json", in: dir))
        #expect(turned.rendered == 0, "a rotation needs no new rendering")
        let path = dir.appendingPathComponent("th/1-p1.png").path
        let size = try Pixels.pngSize(path)
        #expect(size.width == 100 && size.width > size.height, "turned page 1 is landscape: \(size)")
        // The marker, top-left on the page, is top-right after a quarter turn clockwise.
        let marker = try #require(try FixturePage.pages(of: "rotated.pdf").first?.markerFraction)
        let topRight = (x: Int(Double(size.width) * (1 - marker[1])), y: Int(Double(size.height) * marker[0]))
        let topLeft = (x: Int(Double(size.width) * marker[0]), y: Int(Double(size.height) * marker[1]))
        let colours = try Pixels.png(path, at: [topRight, topLeft])
        #expect(Pixels.isDark(colours[0]), "marker top-right: \(colours[0])")
        #expect(!Pixels.isDark(colours[1]), "nothing dark top-left: \(colours[1])")
    }

    @Test("thumbnails and show draw what a crop leaves visible, as export writes it")
    func croppedThumbnails() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Page 1 becomes two items, its left and right halves.
        try pdfeditOK("split-page", "1", "--grid", "2x1", in: dir)
        let thumbs = try decode(ThumbsJSON.self, try pdfedit("thumbs", "th", "--size", "100", "--json", "1..3", in: dir))
        let paths = thumbs.files.map { dir.appendingPathComponent("th/" + ($0.file as NSString).lastPathComponent).path }
        try #require(paths.count == 3)
        let halves = try paths.prefix(2).map { try Pixels.pngSize($0) }
        let whole = try Pixels.pngSize(paths[2])
        for half in halves {
            // Half as wide as the whole page, as tall: about 50 × 130 for a 100 × 130 page.
            #expect(half.height == 100 && abs(Double(half.width) / Double(whole.width) - 0.5) < 0.05, "\(half) vs \(whole)")
        }
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let fractions: [[Double]] = [[0.5, 0.5], [0.3, 0.7], [0.7, 0.3], [0.5, 0.1]]
        for (page, path) in paths.prefix(2).enumerated() {
            let size = try Pixels.pngSize(path)
            let points = fractions.map { (x: Int(Double(size.width) * $0[0]), y: Int(Double(size.height) * $0[1])) }
            let drawn = try Pixels.png(path, at: points)
            var same = 0
            for (colour, fraction) in zip(drawn, fractions) {
                if Pixels.close(colour, try Pixels.reference(out, page: page + 1, fraction: fraction), within: 40) { same += 1 }
            }
            #expect(same >= 3, "page \(page + 1): \(same) of 4 points as pdftoppm draws the exported page")
        }
        // The two halves are different pictures (the left and the right of page 1).
        #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) != Data(contentsOf: URL(fileURLWithPath: paths[1])))
        // A contact sheet's cell is shaped like the crop too.
        let sheet = try decode(SheetJSON.self, try pdfedit("show", "1..3", "-o", "s.png", "--json", in: dir))
        let cells = try #require(sheet.sheets.first?.items)
        try #require(cells.count == 3)
        for cell in cells.prefix(2) {
            #expect(abs(Double(cell.width) / Double(cells[2].width) - 0.5) < 0.05, "\(cell) vs \(cells[2])")
        }
    }

    @Test("placeholders are dashed frames, blank pages outlined white pages, images drawn as exported")
    func framesAndImages() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("placeholder", "--at", "2", "--label", "cover", in: dir)
        try pdfeditOK("blank", "--at", "4", in: dir)
        try pdfeditOK("insert", Paths.fixture("photo.jpg"), in: dir)
        let report = try decode(SheetJSON.self, try pdfedit("show", "-o", "s.png", "--size", "90", "--json", in: dir))
        let cells = try #require(report.sheets.first?.items)
        #expect(
            cells.map(\.kind) == [
                "page", "placeholder", "page", "blank", "page", "page", "page", "page", "page", "image",
            ])
        try #require(cells.count == 10)
        #expect(report.rendered == 8)
        let path = dir.appendingPathComponent("s.png").path
        for cell in [cells[1], cells[3]] {
            let centre = (x: cell.x + cell.width / 2, y: cell.y + cell.height / 2)
            // Along the frame's top edge: a dashed or solid line.
            let edge = stride(from: cell.x + 2, to: cell.x + cell.width - 2, by: 2).map { (x: $0, y: cell.y) }
            let colours = try Pixels.png(path, at: [centre] + edge)
            #expect(Pixels.isLight(colours[0]), "\(cell.kind) centre: \(colours[0])")
            let dark = colours.dropFirst().filter { $0.red < 160 && $0.green < 160 && $0.blue < 160 }.count
            #expect(Double(dark) > Double(edge.count) * 0.4, "\(cell.kind) frame: \(dark) of \(edge.count) dark")
        }
        // photo.jpg (120 x 80) has a black block top-left and a white one top-right.
        let image = cells[9]
        #expect(image.width == 90 && image.height == 60)
        let corners = try Pixels.png(
            path,
            at: [
                (x: image.x + image.width / 20, y: image.y + image.height / 10),
                (x: image.x + image.width * 19 / 20, y: image.y + image.height / 10),
            ])
        #expect(Pixels.isDark(corners[0]) && Pixels.isLight(corners[1]), "\(corners)")
        let thumbs = try decode(ThumbsJSON.self, try pdfedit("thumbs", "t", "10", "--size", "90", "--json", in: dir))
        #expect(thumbs.files.map(\.file) == ["t/10-p10.png"] && thumbs.rendered == 0)
        #expect(try Pixels.pngSize(dir.appendingPathComponent("t/10-p10.png").path) == (90, 60))
    }

    @Test("the thumbnail cache: a second show after a move renders nothing, an unchanged sheet is reused")
    func cacheIsUsed() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try decode(SheetJSON.self, try pdfedit("show", "-o", "s.png", "--json", in: dir))
        #expect(first.rendered == 7 && first.cached == 0 && first.reusedSheets == 0)
        try pdfeditOK("move", "3", "--to", "1", in: dir)
        let second = try decode(SheetJSON.self, try pdfedit("show", "-o", "s.png", "--force", "--json", in: dir))
        #expect(second.rendered == 0 && second.cached == 7 && second.reusedSheets == 0)
        #expect(second.sheets.first?.items.map(\.id) == ["p3", "p1", "p2", "p4", "p5", "p6", "p7"])
        let third = try decode(SheetJSON.self, try pdfedit("show", "-o", "again.png", "--json", in: dir))
        #expect(third.rendered == 0 && third.reusedSheets == 1)
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("again.png"))
                == Data(contentsOf: dir.appendingPathComponent("s.png")))
        let thumbs = try decode(ThumbsJSON.self, try pdfedit("thumbs", "t", "--json", in: dir))
        #expect(thumbs.rendered == 0 && thumbs.cached == 7)
        #expect(thumbs.files.map { ($0.file as NSString).lastPathComponent }.first == "1-p3.png")
        // Thumbnails live under the session's cache folder, keyed by the source's SHA-256.
        let cache = dir.appendingPathComponent(".pdfedit/cache/thumbs/v1")
        let sha = try run("sha256sum", [Paths.fixture("alpha.pdf")]).stdout.prefix(64)
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("\(sha)/3-200.png").path))
    }

    @Test("several sheets are numbered; existing files need --force; a source is never overwritten")
    func sheetNamesAndOutputs() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Like export, show writes into an existing folder.
        #expect(try pdfedit("show", "-o", "out/sheet.png", in: dir).status == 73)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        let report = try decode(
            SheetJSON.self,
            try pdfedit("show", "-o", "out/sheet.png", "--per-sheet", "3", "--size", "40", "--json", in: dir))
        #expect(report.sheets.map(\.file) == ["out/sheet-1.png", "out/sheet-2.png", "out/sheet-3.png"])
        #expect(report.sheets.map { $0.items.count } == [3, 3, 1])
        for sheet in report.sheets {
            let size = try Pixels.pngSize(dir.appendingPathComponent(sheet.file).path)
            #expect(size.width == sheet.width && size.height == sheet.height)
        }
        let again = try pdfedit("show", "-o", "out/sheet.png", "--per-sheet", "3", in: dir)
        #expect(again.status == 73 && again.stderr.contains("out/sheet-1.png"), "\(again.stderr)")
        #expect(try pdfedit("show", "-o", "alpha.pdf", "--force", in: dir).status == 64, "writes PNG only")
        try FileManager.default.copyItem(
            atPath: Paths.fixture("logo.png"), toPath: dir.appendingPathComponent("logo.png").path)
        try pdfeditOK("insert", "logo.png", in: dir)
        let onSource = try pdfedit("show", "-o", "logo.png", "--force", in: dir)
        #expect(onSource.status == 73 && onSource.stderr.contains("logo.png"), "\(onSource.stderr)")
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("logo.png"))
                == Data(contentsOf: Paths.fixtures.appendingPathComponent("logo.png")))
        let selected = try decode(SheetJSON.self, try pdfedit("show", "-o", "two.png", "2,6", "--json", in: dir))
        #expect(selected.sheets.first?.items.map(\.position) == [2, 6])
        #expect(try pdfedit("show", "-o", "bad.png", "--columns", "0", in: dir).status == 64)
        #expect(try pdfedit("show", "-o", "bad.png", "9", in: dir).status == 64)
    }

    @Test("find: positions and ids, following edits; case rules")
    func findOnFixtures() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf", "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try decode(FindJSON.self, try pdfedit("find", "ALPHA-P3", "--json", in: dir))
        #expect(before.matches.map(\.position) == [3] && before.matches.map(\.id) == ["p3"])
        #expect(before.matches.first?.sourcePage == 3 && before.matches.first?.excerpt.contains("ALPHA-P3") == true)
        try pdfeditOK("move", "3", "--to", "1", in: dir)
        let after = try decode(FindJSON.self, try pdfedit("find", "ALPHA-P3", "--json", in: dir))
        #expect(after.matches.map(\.position) == [1] && after.matches.map(\.id) == ["p3"])
        // Case-insensitive by default, as text: is; --match-case compares case.
        #expect(try decode(FindJSON.self, try pdfedit("find", "alpha-p3", "--json", in: dir)).matches.count == 1)
        #expect(try decode(FindJSON.self, try pdfedit("find", "alpha-p3", "-i", "--json", in: dir)).matches.count == 1)
        let exact = try decode(FindJSON.self, try pdfedit("find", "alpha-p3", "--match-case", "--json", in: dir))
        #expect(exact.matches.isEmpty && exact.caseSensitive)
        // Whitespace runs count as one space (the title and token are on separate lines).
        #expect(
            try decode(FindJSON.self, try pdfedit("find", "page 5   ALPHA-P5", "--json", in: dir)).matches.map(
                \.position) == [5])
        let labelled = try decode(FindJSON.self, try pdfedit("find", "FEAT-P3", "--doc", "features", "--json", in: dir))
        #expect(labelled.matches.map(\.label) == ["1"])
        let none = try pdfedit("find", "no such words", in: dir)
        #expect(none.status == 0 && none.stdout.contains("no page contains"))
        let human = try pdfedit("find", "ALPHA-P3", in: dir)
        let row = human.stdout.split(separator: "\n").first { $0.hasPrefix("1 ") }
        #expect(row?.split(separator: " ").dropFirst().first == "p3", "\(human.stdout)")
    }

    @Test(
        "find on a real paper agrees with pdftotext",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func findInCorpus() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let paper = Paths.corpus("pdfjs-tracemonkey.pdf")
        try pdfeditOK("open", paper, in: dir)
        // Words that are never split at a line end: pdftotext joins hyphenated words
        // ("TraceMon-" + "key"), poppler's page text, like the text: token, does not.
        for query in ["trace tree", "loop", "bytecode", "Figure 9"] {
            let found = try decode(FindJSON.self, try pdfedit("find", query, "--json", in: dir))
            let expected = try (1...14).filter { page in
                let text = try pageText(paper, page).lowercased().split(whereSeparator: \.isWhitespace).joined(
                    separator: " ")
                return text.contains(query.lowercased())
            }
            #expect(!expected.isEmpty)
            #expect(found.matches.map(\.position) == expected, "\(query)")
        }
        // The second time comes from the text cache.
        let cache = dir.appendingPathComponent(".pdfedit/cache/pages")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).count == 1)
    }

    @Test("text: selections in move, remove and export; extracted once into the text cache")
    func textSelections() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("move", "text:ALPHA-P5", "--to", "1", in: dir)
        let text = dir.appendingPathComponent(".pdfedit/cache/pages")
        #expect(try FileManager.default.contentsOfDirectory(atPath: text.path).count == 1)
        try pdfeditOK("remove", "text:alpha-p2", in: dir)
        let list = try decode(ListJSON.self, try pdfedit("list", "--json", in: dir))
        #expect(list.items.map(\.id) == ["p5", "p1", "p3", "p4", "p6", "p7"])
        #expect(list.items.first?.text?.contains("ALPHA-P5") == true)
        try pdfeditOK("export", "out.pdf", "text:ALPHA-P7", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 1)
        #expect(try pageText(out, 1).contains("ALPHA-P7"))
        // A text that no page holds selects nothing: nothing changes, and it says so (DESIGN.md).
        let unknown = try pdfedit("remove", "text:nowhere", in: dir)
        #expect(unknown.status == 0 && unknown.stderr.contains("\"text:nowhere\" matches no page"), "\(unknown.stderr)")
        #expect(try decode(ListJSON.self, try pdfedit("list", "--json", in: dir)).items.count == 6)
    }

    @Test("list shows page labels and the first words of each page")
    func listLabelsAndText() throws {
        let dir = try sessionDirectory(opening: "features.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let features = try decode(ListJSON.self, try pdfedit("list", "--json", in: dir))
        #expect(features.items.map(\.label) == ["i", "ii", "1", "2", "3", "4"])
        try #require(features.items.count == 6)
        #expect(features.items.allSatisfy { $0.text?.contains("FEAT-P\($0.sourcePage ?? 0)") == true })
        let alpha = try decode(ListJSON.self, try pdfedit("list", "--doc", "alpha", "--json", in: dir))
        #expect(alpha.items.count == 7 && alpha.items.allSatisfy { $0.label == nil })
        let noText = try decode(ListJSON.self, try pdfedit("list", "--no-text", "--json", in: dir))
        #expect(noText.items.count == 6 && noText.items.allSatisfy { $0.text == nil })
        let human = try pdfedit("list", in: dir)
        #expect(human.stdout.contains("LABEL") && human.stdout.contains("TEXT"))
        #expect(human.stdout.contains("ii") && human.stdout.contains("FEAT-P2"))
    }

    @Test("show and find refuse a source that changed or vanished (75), naming it")
    func changedSources() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let alpha = dir.appendingPathComponent("alpha.pdf")
        let handle = try FileHandle(forWritingTo: alpha)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n% changed\n".utf8))
        try handle.close()
        for arguments in [["show", "-o", "s.png"], ["find", "ALPHA"], ["thumbs", "t"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 75, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("alpha.pdf"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.png").path))
        try FileManager.default.removeItem(atPath: dir.appendingPathComponent("beta.pdf").path)
        let missing = try pdfedit("find", "BETA", "--doc", "beta", in: dir)
        #expect(missing.status == 75 && missing.stderr.contains("beta.pdf"))
    }

    @Test("a progress bar on a terminal's stderr, nothing when piped or quiet")
    func progressOnlyOnTerminals() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        func underTerminal(_ command: String) throws -> String {
            // `script` gives the command a pseudo-terminal and copies what it printed.
            try run("script", ["-qec", "\(Paths.binary) \(command)", "/dev/null"], in: dir).stdout
        }
        let shown = try underTerminal("show -o a.png")
        #expect(shown.contains("rendering [") && shown.contains("/7 pages"), "\(shown)")
        #expect(shown.contains("wrote a.png"))
        let thumbs = try underTerminal("thumbs t")
        #expect(thumbs.contains("rendering ["), "\(thumbs)")
        let quiet = try underTerminal("show -o b.png --quiet")
        #expect(!quiet.contains("rendering"), "\(quiet)")
        let piped = try pdfedit("show", "-o", "c.png", in: dir)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(!piped.stdout.contains("rendering"))
    }
}
