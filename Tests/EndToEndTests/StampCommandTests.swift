import Foundation
import Testing

/// `stamp` and `unstamp` on the built binary: sessions, direct mode, list, undo,
/// show/thumbs; outputs checked with qpdf and pdftoppm.
@Suite struct StampCommandTests {
    /// A session on alpha.pdf with stamp.pdf and logo.png beside it.
    func alphaSession() throws -> URL {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        for file in ["stamp.pdf", "logo.png"] {
            try FileManager.default.copyItem(atPath: Paths.fixture(file), toPath: dir.appendingPathComponent(file).path)
        }
        return dir
    }

    func bytes(_ dir: URL, _ file: String) throws -> Data { try Data(contentsOf: dir.appendingPathComponent(file)) }

    @Test("stamp, list, export, undo, redo, unstamp in a session")
    func sessionRoundTrip() throws {
        let dir = try alphaSession()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("export", "plain.pdf", in: dir)

        let stamped = try pdfedit("stamp", "odd", "stamp.pdf", "--opacity", "80%", in: dir)
        #expect(stamped.status == 0, "\(stamped.stderr)")
        #expect(stamped.stdout == "stamped 4 pages with stamp.pdf page 1 (over, opacity 80%) (7 pages)\n")

        let listing = try decode(StampListJSON.self, try pdfedit("list", "--json", "--no-text", in: dir))
        for item in listing.items {
            if item.position % 2 == 1 {
                #expect(item.stamps?.count == 1)
                let stamp = try #require(item.stamps?.first)
                #expect(stamp.source == "stamp.pdf" && stamp.page == 1 && !stamp.under && !stamp.fit)
                #expect(stamp.opacity == 0.8)
            } else {
                #expect(item.stamps == nil, "position \(item.position) has no stamps: the key is left out")
            }
        }
        let table = try pdfedit("list", "--no-text", in: dir)
        #expect(table.stdout.contains("STAMPS") && table.stdout.contains("stamp.pdf 80%"))

        try pdfeditOK("export", "stamped.pdf", in: dir)
        #expect(try qpdfCheck(dir.appendingPathComponent("stamped.pdf").path).status == 0)
        for page in 1...7 {
            let plain = try PageRaster(dir.appendingPathComponent("plain.pdf").path, page: page)
            let after = try PageRaster(dir.appendingPathComponent("stamped.pdf").path, page: page)
            #expect((after.changedBox(from: plain) != nil) == (page % 2 == 1), "page \(page)")
        }

        // Undo gives back the very same output; redo the stamped one.
        #expect(try pdfedit("undo", in: dir).stdout == "undid: stamp odd stamp.pdf --opacity 80%\n")
        #expect(try decode(StampListJSON.self, try pdfedit("list", "--json", "--no-text", in: dir)).items.allSatisfy { $0.stamps == nil })
        try pdfeditOK("export", "again.pdf", in: dir)
        #expect(try bytes(dir, "again.pdf") == bytes(dir, "plain.pdf"))
        try pdfeditOK("redo", in: dir)
        try pdfeditOK("export", "redone.pdf", in: dir)
        #expect(try bytes(dir, "redone.pdf") == bytes(dir, "stamped.pdf"))

        let unstamp = try pdfedit("unstamp", "1..3", in: dir)
        #expect(unstamp.stdout == "removed 2 stamps from 2 pages (7 pages)\n")
        let after = try decode(StampListJSON.self, try pdfedit("list", "--json", "--no-text", in: dir))
        #expect(after.items.map { $0.stamps != nil } == [false, false, false, false, true, false, true])
        let history = try pdfedit("history", in: dir)
        #expect(history.stdout.contains("stamp odd stamp.pdf --opacity 80%") && history.stdout.contains("unstamp 1..3"))
    }

    @Test("refused stamps change nothing: bad opacity, page, file; unstamp of unstamped pages")
    func refusals() throws {
        let dir = try alphaSession()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try sessionBytes(dir)
        let cases: [([String], Int32, String)] = [
            (["stamp", "all", "stamp.pdf", "--opacity", "0"], 64, "--opacity"),
            (["stamp", "all", "stamp.pdf", "--opacity", "1.5"], 64, "--opacity"),
            (["stamp", "all", "stamp.pdf", "--page", "2"], 64, "stamp.pdf has 1 page: there is no page 2"),
            (["stamp", "all", "logo.png", "--page", "2"], 64, "logo.png is an image"),
            (["stamp", "all", "missing.pdf"], 66, "missing.pdf"),
            (["stamp", "9", "stamp.pdf"], 64, "9"),
            (["unstamp", "all"], 64, "none of the 7 selected pages has a stamp"),
        ]
        for (arguments, status, message) in cases {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("pdfedit: ") && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(try sessionBytes(dir) == before, "\(arguments) changed the session")
        }
    }

    @Test("direct mode: pdfedit stamp all stamp.pdf in.pdf -o out.pdf leaves nothing behind")
    func directMode() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("stamp", "all", Paths.fixture("stamp.pdf"), "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stamped 7 pages with stamp.pdf page 1 (over)"))
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
        #expect(try formXObjects(dir.appendingPathComponent("out.pdf").path) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["alpha.pdf", "out.pdf"])
        #expect(try pageTokens(dir.appendingPathComponent("out.pdf")) == (1...7).map { "ALPHA-P\($0)" })

        // Scripts take stamp lines too, as one step.
        let session = try alphaSession()
        defer { try? FileManager.default.removeItem(at: session) }
        let script = try pdfedit("run", "-", in: session, stdin: "stamp 1 stamp.pdf --fit\nstamp 2 logo.png --under\n")
        #expect(script.status == 0, "\(script.stderr)")
        #expect(try pdfedit("history", in: session).stdout == "1  run stdin\n")
    }

    @Test("a 500-page document stamped on every page grows by about one stamp, not 500")
    func bigDocumentSharesOneForm() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.pdf").path
        let made = try run("python3", [Paths.root.appendingPathComponent("scripts/make-big-pdf.py").path, "500", big])
        try #require(made.status == 0, "\(made.stderr)")
        // Copied, as the stamped output is (unchanged, it would be big.pdf's bytes plus an update).
        try pdfeditOK("export", "plain.pdf", "--from", "big.pdf", in: dir, environment: ["PDFEDIT_NO_APPEND": "1"])
        let stamped = try pdfedit("stamp", "all", Paths.fixture("stamp.pdf"), "big.pdf", "-o", "stamped.pdf", in: dir)
        #expect(stamped.status == 0, "\(stamped.stderr)")
        let plainSize = try fileSize(dir.appendingPathComponent("plain.pdf").path)
        let stampedSize = try fileSize(dir.appendingPathComponent("stamped.pdf").path)
        let stampSize = try fileSize(Paths.fixture("stamp.pdf"))
        // One copy of the stamp, plus a few shared bytes per page (its /Contents array and resources;
        // about 30 bytes, uncompressed: big.pdf has no object streams, so neither has the output).
        #expect(stampedSize - plainSize < stampSize + 500 * 40, "grew by \(stampedSize - plainSize) bytes")
        #expect(try formXObjects(dir.appendingPathComponent("stamped.pdf").path) == 1)
        #expect(try qpdfCheck(dir.appendingPathComponent("stamped.pdf").path).status == 0)
    }

    @Test("on rotated.pdf the DRAFT word stays upright, also after a later rotate of the items")
    func rotatedPagesStayUpright() throws {
        let dir = try sessionDirectory(opening: "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("stamp.pdf"), toPath: dir.appendingPathComponent("stamp.pdf").path)
        try pdfeditOK("stamp", "all", "stamp.pdf", in: dir)
        try pdfeditOK("rotate", "2,3", "--by", "90", in: dir)
        try pdfeditOK("rotate", "4", "--by", "180", in: dir)
        try pdfeditOK("export", "stamped.pdf", in: dir)
        try pdfeditOK("unstamp", "all", in: dir)
        try pdfeditOK("export", "plain.pdf", in: dir)
        for page in 1...4 {
            let plain = try PageRaster(dir.appendingPathComponent("plain.pdf").path, page: page)
            let after = try PageRaster(dir.appendingPathComponent("stamped.pdf").path, page: page)
            let box = try #require(after.changedBox(from: plain), "page \(page): no stamp")
            #expect(box.width > 2 * box.height, "page \(page): the red box is \(box.width) x \(box.height)")
            #expect(abs(2 * box.x + box.width - after.width) <= 4 && abs(2 * box.y + box.height - after.height) <= 4)
        }
    }

    @Test("thumbs and show draw stamps over and under as export does, and forget them after unstamp")
    func showDrawsStamps() throws {
        let dir = try alphaSession()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("stamp", "1", "logo.png", "--fit", in: dir)
        try pdfeditOK("stamp", "2", "logo.png", "--fit", "--under", in: dir)
        try pdfeditOK("stamp", "3", "logo.png", "--fit", "--opacity", "0.5", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let thumbs = try decode(ThumbsJSON.self, try pdfedit("thumbs", "th", "--size", "120", "--json", in: dir))
        #expect(thumbs.rendered == 7)
        let pages = try FixturePage.pages(of: "alpha.pdf")
        // A point inside the fitted logo and the page's coloured rectangle, left of the
        // big page number: there each thumbnail shows what pdftoppm shows of the export.
        let probe = [0.15, 0.5]
        func point(_ width: Int, _ height: Int) -> (x: Int, y: Int) {
            (Int(Double(width) * probe[0]), Int(Double(height) * probe[1]))
        }
        for file in thumbs.files.prefix(4) {
            let path = file.file.hasPrefix("/") ? file.file : dir.appendingPathComponent(file.file).path
            let colour = try #require(try Pixels.png(path, at: [point(file.width, file.height)]).first)
            let reference = try Pixels.reference(dir.appendingPathComponent("out.pdf").path, page: file.position, fraction: probe)
            #expect(Pixels.close(colour, reference, within: 24), "thumbnail \(file.position): \(colour) vs pdftoppm \(reference)")
            let pageColour = pages[file.position - 1].color
            // Over: the logo hides the page; under: the page hides the logo.
            #expect(Pixels.close(colour, pageColour, within: 24) == (file.position == 2 || file.position == 4), "\(file.position): \(colour)")
        }
        // A second run is served from the cache; after unstamp the picture is the plain page again.
        let again = try decode(ThumbsJSON.self, try pdfedit("thumbs", "th", "--size", "120", "--force", "--json", in: dir))
        #expect(again.rendered == 0 && again.cached == 7)
        try pdfeditOK("unstamp", "1", in: dir)
        let plain = try decode(ThumbsJSON.self, try pdfedit("thumbs", "th", "--size", "120", "--force", "--json", in: dir))
        let first = try #require(plain.files.first)
        let colour = try #require(try Pixels.png(dir.appendingPathComponent("th/1-p1.png").path, at: [point(first.width, first.height)]).first)
        #expect(Pixels.close(colour, pages[0].color, within: 24), "\(colour)")

        // show: the cell of item 3 (logo over at half opacity) is neither the page nor the logo.
        let sheet = try decode(SheetJSON.self, try pdfedit("show", "-o", "sheet.png", "--size", "120", "--json", in: dir))
        let cell = try #require(sheet.sheets.first?.items[2])
        let inCell = point(cell.width, cell.height)
        let centre = try #require(try Pixels.png(dir.appendingPathComponent("sheet.png").path, at: [(cell.x + inCell.x, cell.y + inCell.y)]).first)
        let exported = try Pixels.reference(dir.appendingPathComponent("out.pdf").path, page: 3, fraction: probe)
        #expect(Pixels.close(centre, exported, within: 24), "\(centre) vs pdftoppm \(exported)")
        #expect(!Pixels.close(centre, pages[2].color, within: 24))
    }

    func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    /// How many form XObjects `qpdf --json` finds in a file.
    func formXObjects(_ path: String) throws -> Int {
        let result = try run("qpdf", ["--json", "--json-key=qpdf", path])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let objects = try #require((root["qpdf"] as? [Any])?.last as? [String: Any])
        return objects.values.filter { entry in
            (((entry as? [String: Any])?["stream"] as? [String: Any])?["dict"] as? [String: Any])?["/Subtype"]
                as? String == "/Form"
        }.count
    }
}

/// `list --json` with the stamps.
struct StampListJSON: Decodable {
    struct Stamp: Decodable, Equatable {
        var source: String
        var page: Int
        var under: Bool
        var fit: Bool
        var opacity: Double
    }
    struct Item: Decodable {
        var position: Int
        var id: String
        var stamps: [Stamp]?
    }
    var items: [Item]
}

/// A page as `pdftoppm` renders it at 20 dpi (PPM, read here).
struct PageRaster {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    init(_ pdf: String, page: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = directory.appendingPathComponent("page").path
        let result = try run("pdftoppm", ["-r", "20", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
        try #require(result.status == 0, "pdftoppm: \(result.stderr)")
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        var fields: [Int] = []
        var index = 2
        while fields.count < 3, index < data.count {
            while index < data.count, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
            var value = 0
            while index < data.count, (0x30...0x39).contains(data[index]) {
                value = value * 10 + Int(data[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        width = fields[0]
        height = fields[1]
        bytes = Array(data[(index + 1)...])
    }

    /// The bounding box of the pixels that differ from `other` by more than 24 in a channel.
    func changedBox(from other: PageRaster) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard width == other.width, height == other.height else { return (0, 0, width, height) }
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                let differs = (0..<3).contains { abs(Int(bytes[offset + $0]) - Int(other.bytes[offset + $0])) > 24 }
                if differs {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
