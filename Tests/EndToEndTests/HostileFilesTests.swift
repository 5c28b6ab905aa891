import Foundation
import Testing

/// Issue 40's signals and hangs from small hostile files (items 6a, 13, 15, 20,
/// 21, 22, 23): each file is made here, and each run must end within seconds
/// with exit 0 or one line and the documented code — never a signal.
@Suite struct HostileFilesTests {
    /// A one-page PDF whose page dictionary has `page` spliced in, drawing
    /// `contents` (object 4), with `more` objects from number 5 on.
    static func onePage(_ page: String, contents: String = "0 0 1 rg 20 20 100 100 re f", more: [Int: String] = [:])
        -> [Int: String]
    {
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /Contents 4 0 R \(page) >>",
            4: "<< /Length \(contents.utf8.count) >>\nstream\n\(contents)\nendstream",
        ]
        for (number, body) in more { objects[number] = body }
        return objects
    }

    /// `body` compressed as a Flate stream's bytes, through Python's zlib (an
    /// independent encoder), as Latin-1 text to splice into a PDF.
    static func flate(_ bytes: Data) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in"), output = dir.appendingPathComponent("out")
        try bytes.write(to: input)
        let result = try run(
            "python3", ["-c", "import sys,zlib; open(sys.argv[2],'wb').write(zlib.compress(open(sys.argv[1],'rb').read(), 9))",
                input.path, output.path])
        #expect(result.status == 0, "\(result.stderr)")
        return String(data: try Data(contentsOf: output), encoding: .isoLatin1) ?? ""
    }

    /// Writes `objects` as `name` in `dir` (Latin-1, so compressed bytes survive).
    static func write(_ objects: [Int: String], _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestPDF.bytes(numbered: objects).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A run that ended by itself: no signal, and a failure is one `pdfedit:` line.
    static func expectNoSignal(_ result: Run, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status < 128, "\(what): exit \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
        if result.status != 0 {
            #expect(result.stderr.hasPrefix("pdfedit: "), "\(what): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    // MARK: 13. Numbers out of range

    @Test("box coordinates and /UserUnit out of PDF's range: info, list and remove empty answer, never trap")
    func numbersOutOfRange() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = [
            "huge-x": "/MediaBox [0 0 100000000000000000000.0 792]",
            "min-x": "/MediaBox [-9223372036854775808 0 612 792]",
            "unit": "/MediaBox [0 0 612 792] /UserUnit 9223372036854775807",
            "side-2-128": "/MediaBox [0 0 340282366920938463463374607431768211456 792]",
        ]
        for (name, page) in pages.sorted(by: { $0.key < $1.key }) {
            let file = try Self.write(Self.onePage(page), "\(name).pdf", in: dir)
            let info = try pdfedit("info", file, in: dir)
            Self.expectNoSignal(info, "info \(name)")
            // qpdf cannot read a 39-digit integer (it overflows 64 bits): that
            // page is damaged beyond repair (65), as `qpdf --check` says too.
            // (`info` describes what it can of it: the recovered file has the page.)
            let readable = name != "side-2-128"
            #expect(info.status == 0 || (!readable && info.status == 65), "info \(name): \(info.stderr)")
            // An unusable box is read as readers read it: US Letter.
            if readable { #expect(info.stdout.contains("612 x 792"), "info \(name): \(info.stdout)") }
            let session = dir.appendingPathComponent("\(name).json").path
            let opened = try pdfedit("open", file, "--session", session, in: dir)
            Self.expectNoSignal(opened, "open \(name)")
            #expect(opened.status == (readable ? 0 : 65), "open \(name): \(opened.stderr)")
            if readable {
                let list = try pdfedit("list", "--session", session, in: dir)
                Self.expectNoSignal(list, "list \(name)")
                #expect(list.status == 0, "list \(name): \(list.stderr)")
            }
            let removed = try pdfedit("remove", "empty", file, "-o", "\(name)-out.pdf", in: dir)
            Self.expectNoSignal(removed, "remove empty \(name)")
        }
    }

    @Test("a MediaBox without area ([0 0 -0.0 792]) is US Letter, for info and for blank --size like:1 (item 39)")
    func mediaBoxWithoutArea() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(Self.onePage("/MediaBox [0 0 -0.0 792]"), "flat.pdf", in: dir)
        let info = try pdfeditOK("info", file, in: dir)
        #expect(info.stdout.contains("612 x 792"), "\(info.stdout)")
        let blank = try pdfedit("blank", "--size", "like:1", file, "-o", "out.pdf", in: dir)
        #expect(blank.status == 0, "\(blank.status) \(blank.stderr)")
        let pages = try run("pdfinfo", ["-f", "2", "-l", "2", dir.appendingPathComponent("out.pdf").path]).stdout
        #expect(pages.contains("612 x 792 pts"), "\(pages)")
    }

    // MARK: 20, 23. The work of drawing a page

    /// Form XObjects 10, 11, … each drawing the next twice, the last a square:
    /// drawing form 10 draws 2^(levels-1) squares.
    static func formChain(levels: Int) -> [Int: String] {
        var forms: [Int: String] = [:]
        for level in 0..<levels {
            let number = 10 + level
            let last = level == levels - 1
            let body = last ? "0 0 1 rg 0 0 10 10 re f" : "/X Do /X Do"
            let resources = last ? "" : "/Resources << /XObject << /X \(number + 1) 0 R >> >>"
            forms[number] = "<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] \(resources) /Length \(body.utf8.count) >>\nstream\n\(body)\nendstream"
        }
        return forms
    }

    @Test("forms that each draw the next twice: refused (65) in seconds, naming PDFEDIT_MAX_OPERATORS")
    func formDAG() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let more = Self.formChain(levels: 30)
        let file = try Self.write(
            Self.onePage("/MediaBox [0 0 200 200] /Resources << /XObject << /X 10 0 R >> >>", contents: "/X Do", more: more),
            "dag.pdf", in: dir)
        for arguments in [["info", file], ["remove", "empty", file, "-o", "out.pdf"]] {
            let started = Date()
            let result = try pdfedit(args: arguments, in: dir)
            #expect(Date().timeIntervalSince(started) < 20, "\(arguments[0]) took too long")
            #expect(result.status == 65, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("PDFEDIT_MAX_OPERATORS"), "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("page 1"), "\(arguments[0]): \(result.stderr)")
        }
        // The same forms reached through resources the page inherits from its
        // page tree: counted the same.
        var inherited = Self.onePage("/MediaBox [0 0 200 200]", contents: "/X Do", more: more)
        inherited[2] = "<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /XObject << /X 10 0 R >> >> >>"
        let fromTree = try Self.write(inherited, "dag-inherited.pdf", in: dir)
        let viaTree = try pdfedit("info", fromTree, in: dir)
        #expect(viaTree.status == 65 && viaTree.stderr.contains("PDFEDIT_MAX_OPERATORS"), "\(viaTree.stderr)")
        // A shallow tree of the same shape is drawn as usual.
        let shallow = Self.formChain(levels: 4)
        let small = try Self.write(
            Self.onePage("/MediaBox [0 0 200 200] /Resources << /XObject << /X 10 0 R >> >>", contents: "/X Do", more: shallow),
            "shallow.pdf", in: dir)
        try pdfeditOK("info", small, in: dir)
    }

    @Test("a content stream of a million operators over PDFEDIT_MAX_OPERATORS: 65 naming it")
    func manyOperators() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let contents = String(repeating: "q Q\n", count: 500_000)
        let file = try Self.write(Self.onePage("/MediaBox [0 0 200 200]", contents: contents), "many.pdf", in: dir)
        let result = try pdfedit("info", file, in: dir, environment: ["PDFEDIT_MAX_OPERATORS": "100000"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("more than 100000 content operators"), "\(result.stderr)")
        // Under the default limit the same page is fine.
        try pdfeditOK("info", file, in: dir)
    }

    // MARK: 21. Name trees that are DAGs

    @Test("a /Dests tree whose every node names its kid twice: edits finish in seconds and pass qpdf --check")
    func nameTreeDAG() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let levels = 40
        var more: [Int: String] = [:]
        for level in 0..<levels {
            let number = 10 + level
            more[number] = level == levels - 1
                ? "<< /Names [(a) [3 0 R /Fit]] >>" : "<< /Kids [\(number + 1) 0 R \(number + 1) 0 R] >>"
        }
        var objects = Self.onePage(
            "/MediaBox [0 0 612 792] /Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 100 100] /Dest (a) >>]",
            more: more)
        objects[1] = "<< /Type /Catalog /Pages 2 0 R /Names << /Dests 10 0 R >> >>"
        let file = try Self.write(objects, "dests.pdf", in: dir)
        for arguments in [
            ["rotate", "1", "--by", "90"], ["resize", "1", "--to", "a4"], ["nup", "all", "--grid", "2x1"],
            ["booklet", "all"],
        ] {
            let started = Date()
            let result = try pdfedit(args: arguments + [file, "-o", "out.pdf", "--force"], in: dir)
            #expect(Date().timeIntervalSince(started) < 20, "\(arguments[0]) took too long")
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0, "\(arguments[0])")
        }
    }

    // MARK: 22. One bounded decoder for every path

    @Test("a content stream over PDFEDIT_MAX_STREAM_BYTES through resize, nup and booklet: 65")
    func bombThroughForms() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let packed = try Self.flate(Data(String(repeating: "q Q\n", count: 1_000_000).utf8))
        var objects = Self.onePage("/MediaBox [0 0 612 792]")
        objects[4] = "<< /Length \(packed.unicodeScalars.count) /Filter /FlateDecode >>\nstream\n\(packed)\nendstream"
        let file = try Self.write(objects, "bomb.pdf", in: dir)
        for arguments in [
            ["resize", "1", "--to", "a4"], ["nup", "all", "--grid", "2x1"], ["booklet", "all"], ["crop", "1", "--auto"],
        ] {
            let result = try pdfedit(
                args: arguments + [file, "-o", "out.pdf"], in: dir, environment: ["PDFEDIT_MAX_STREAM_BYTES": "100000"])
            #expect(result.status == 65, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("PDFEDIT_MAX_STREAM_BYTES"), "\(arguments[0]): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        }
    }

    // MARK: 6a. Ink the renderer skips

    @Test("a page whose only ink is an image too wide for cairo, inside a form: never empty")
    func skippedImageIsNotEmpty() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 40,000 x 8 one-bit black image (all zero bits = black with /Decode [1 0]?
        // DeviceGray 1-bit: 0 is black), drawn through a form across the page.
        let packed = try Self.flate(Data(repeating: 0, count: 40_000 / 8 * 8))
        let length = packed.unicodeScalars.count
        let more: [Int: String] = [
            10: "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /I 11 0 R >> >> /Length 26 >>\nstream\n200 0 0 100 0 50 cm /I Do\nendstream",
            11: "<< /Type /XObject /Subtype /Image /Width 40000 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Length \(length) >>\nstream\n\(packed)\nendstream",
        ]
        let objects = Self.onePage(
            "/MediaBox [0 0 200 200] /Resources << /XObject << /F 10 0 R >> >>", contents: "/F Do", more: more)
        let file = try Self.write(objects, "wide.pdf", in: dir)
        // Two pages: the inked one and a blank one, which alone is removed.
        let blank = try Self.write(Self.onePage("/MediaBox [0 0 200 200]", contents: " "), "blank.pdf", in: dir)
        try pdfeditOK("open", file, in: dir)
        try pdfeditOK("insert", blank, in: dir)
        let removed = try pdfedit("remove", "empty", in: dir)
        #expect(removed.status == 0, "\(removed.stderr)")
        let list = try pdfeditOK("list", "--json", in: dir)
        let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        let rows = (items?["items"] as? [[String: Any]]) ?? []
        #expect(rows.count == 1, "\(list.stdout)")
        #expect(rows.first?["sourcePage"] as? Int == 1 && (rows.first?["source"] as? String)?.contains("wide") == true,
                "\(list.stdout)")
    }

    @Test("an image over PDFEDIT_MAX_PIXELS hidden inside a form is refused like a direct one")
    func hiddenHugeImage() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let packed = try Self.flate(Data(repeating: 0, count: 1000))
        let length = packed.unicodeScalars.count
        let more: [Int: String] = [
            10: "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /I 11 0 R >> >> /Length 4 >>\nstream\n/I Do\nendstream",
            11: "<< /Type /XObject /Subtype /Image /Width 30000 /Height 30000 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Length \(length) >>\nstream\n\(packed)\nendstream",
        ]
        let file = try Self.write(
            Self.onePage("/MediaBox [0 0 200 200] /Resources << /XObject << /F 10 0 R >> >>", contents: "/F Do", more: more),
            "hidden.pdf", in: dir)
        let result = try pdfedit("remove", "empty", file, "-o", "out.pdf", in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("PDFEDIT_MAX_PIXELS"), "\(result.stderr)")
    }
}
