import Foundation
import Testing

/// Page trees with traps in their way (a reader of their bytes once listed
/// pages without qpdf's parser; qpdf's getAllPages lists them now): text that looks like /Kids or endobj inside strings and comments,
/// escaped names, a lying /Count, a page without /Type, a page listed twice, a
/// "page" with /Kids, attributes inherited from nodes. Every copy must hold the
/// pages qpdf lists, in its order, as pdftotext and pdfinfo read them.
@Suite struct UnparsedPageListTests {
    /// A font, then per page a content stream drawing `TREE-Pn`; `pages` are the
    /// page dictionaries' bodies by object number (each with `/Contents C 0 R`
    /// filled in from `content`), `nodes` the rest of the tree (2 is the root).
    static func writeTree(
        root: String, nodes: [Int: String] = [:], pages: [Int: (body: String, token: Int)], to path: String
    ) throws {
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: root,
            3: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        for (number, node) in nodes { objects[number] = node }
        var next = 100
        for (number, page) in pages.sorted(by: { $0.key < $1.key }) {
            let text = "BT /F1 18 Tf 30 100 Td (TREE-P\(page.token)) Tj ET"
            objects[next] = "<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream"
            objects[number] = page.body.replacingOccurrences(of: "CONTENTS", with: "\(next) 0 R")
            next += 1
        }
        try LimitsTests.writePDF(objects, to: path)
    }

    static let resources = "/Resources << /Font << /F1 3 0 R >> >>"

    static func plain(_ parent: Int, _ extra: String = "") -> String {
        "<< /Type /Page /Parent \(parent) 0 R /Contents CONTENTS \(resources) \(extra)>>"
    }

    /// The pages qpdf lists (its getAllPages, as `--json` gives them), not the
    /// root's /Count, which `--show-npages` prints and which these trees may lie in.
    static func listedPageCount(_ file: URL) throws -> Int? {
        let json = try run("qpdf", ["--json", "--json-key=pages", file.path]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["pages"] as? [Any])?.count
    }

    /// Exports all of `file` and a two-page range, copying (not in place), and
    /// checks each output: qpdf --check clean, its pages' tokens `expected`
    /// (and the range's), and the same rotations as `rotations` when given.
    static func expectCopies(
        _ file: URL, _ expected: [String], rotations: [String]? = nil, in dir: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let copying = ["PDFEDIT_NO_IN_PLACE": "1"]
        #expect(try listedPageCount(file) == expected.count, "qpdf lists another count", sourceLocation: sourceLocation)
        let all = dir.appendingPathComponent("all-" + file.lastPathComponent)
        try pdfeditOK("export", all.path, "--from", file.path, "--force", in: dir, environment: copying)
        #expect(try qpdfCheck(all.path).status == 0, sourceLocation: sourceLocation)
        #expect(try pageTokens(all) == expected, "all pages", sourceLocation: sourceLocation)
        let range = dir.appendingPathComponent("range-" + file.lastPathComponent)
        try pdfeditOK("export", range.path, "2..3", "--from", file.path, "--force", in: dir, environment: copying)
        #expect(try pageTokens(range) == Array(expected[1...2]), "pages 2..3", sourceLocation: sourceLocation)
        let info = try pdfeditOK("info", file.path, in: dir).stdout
        #expect(info.contains(try Regex("Pages:\\s+\(expected.count)\\n")), "info: \(info.prefix(300))", sourceLocation: sourceLocation)
        if let rotations {
            let seen = try run("pdfinfo", ["-f", "1", "-l", "\(expected.count)", all.path]).stdout
                .split(separator: "\n").filter { $0.contains(" rot:") }.map { String($0.split(separator: " ").last ?? "") }
            #expect(seen == rotations, "rotations", sourceLocation: sourceLocation)
        }
    }

    @Test("plain pages under nested nodes keep their order and what they inherit (box, rotation)")
    func plainTreeWithInheritance() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("plain.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 4 0 R 13 0 R] /Count 4 /MediaBox [0 0 300 200] /Rotate 90 >>",
            nodes: [4: "<< /Type /Pages /Parent 2 0 R /Kids [11 0 R 12 0 R] /Count 2 /Rotate 180 >>"],
            pages: [
                10: (Self.plain(2), 1), 11: (Self.plain(4), 2), 12: (Self.plain(4, "/Rotate 270 "), 3),
                13: (Self.plain(2), 4),
            ], to: file.path)
        try Self.expectCopies(file, ["TREE-P1", "TREE-P2", "TREE-P3", "TREE-P4"], rotations: ["90", "180", "270", "90"], in: dir)
    }

    @Test("/Kids and endobj inside strings and comments, escaped names and a lying /Count are read as qpdf reads them")
    func textThatLooksLikeStructure() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("traps.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R 13 0 R 14 0 R] /Count 1 /MediaBox [0 0 300 200] >>",
            pages: [
                10: (Self.plain(2, "/PieceInfo << /A << /Private (>> endobj /Kids [10 0 R]) >> >> "), 1),
                11: ("<< /Type /Pag#65 /Parent 2 0 R /Contents CONTENTS \(Self.resources) >>", 2),
                12: ("<< /Type /Page % /Kids [10 0 R] endobj\n /Parent 2 0 R /Contents CONTENTS \(Self.resources) >>", 3),
                13: (Self.plain(2, "/Info <4b696473> "), 4),
                14: (Self.plain(2, "/X [1 -2.5 +3 .5 true false null [/Kid] << /N 7 0 R >>] "), 5),
            ], to: file.path)
        try Self.expectCopies(file, ["TREE-P1", "TREE-P2", "TREE-P3", "TREE-P4", "TREE-P5"], in: dir)
    }

    @Test("a page without /Type, a page listed twice and a \"page\" with /Kids are repaired as qpdf repairs them")
    func treesQpdfRepairs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let untyped = dir.appendingPathComponent("untyped.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R] /Count 3 /MediaBox [0 0 300 200] >>",
            pages: [
                10: (Self.plain(2), 1), 11: ("<< /Parent 2 0 R /Contents CONTENTS \(Self.resources) >>", 2),
                12: (Self.plain(2), 3),
            ], to: untyped.path)
        try Self.expectCopies(untyped, ["TREE-P1", "TREE-P2", "TREE-P3"], in: dir)

        // Listed twice: qpdf gives the second use a copy of its own.
        let twice = dir.appendingPathComponent("twice.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 11 0 R 11 0 R 12 0 R] /Count 4 /MediaBox [0 0 300 200] >>",
            pages: [10: (Self.plain(2), 1), 11: (Self.plain(2), 2), 12: (Self.plain(2), 3)], to: twice.path)
        try Self.expectCopies(twice, ["TREE-P1", "TREE-P2", "TREE-P2", "TREE-P3"], in: dir)

        // A kid with /Kids is a node to qpdf whatever its /Type says: its empty
        // /Kids adds no page.
        let kidsPage = dir.appendingPathComponent("kids-page.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R 13 0 R] /Count 4 /MediaBox [0 0 300 200] >>",
            pages: [
                10: (Self.plain(2), 1), 11: (Self.plain(2, "/Kids [] "), 9), 12: (Self.plain(2), 2),
                13: (Self.plain(2), 3),
            ], to: kidsPage.path)
        try Self.expectCopies(kidsPage, ["TREE-P1", "TREE-P2", "TREE-P3"], in: dir)
    }

    @Test("plain /Pages nodes read from their bytes: nested, with keys of their own, and a flat root longer than a read")
    func plainNodes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let box = "/MediaBox [0 0 300 200] "
        // Nodes 4 and 5 hold no attribute pages inherit: read plainly, kids in
        // their order; node 6 holds a /Rotate, which qpdf parses and its page
        // inherits; /PieceInfo and /Count (a lying one) are read past.
        let nested = dir.appendingPathComponent("nested.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [4 0 R 12 0 R 6 0 R] /Count 2 >>",
            nodes: [
                4: "<< /Type /Pages /Parent 2 0 R /Count 9 /PieceInfo << /A << /B [1 2.5 /C] >> >> /Kids [5 0 R 11 0 R] >>",
                5: "<<\n/Kids\n[\n10 0 R\n]\n/Type/Pages/Parent 4 0 R>>",
                6: "<< /Type /Pages /Parent 2 0 R /Kids [13 0 R] /Rotate 90 >>",
            ],
            pages: [
                10: (Self.plain(5, box), 1), 11: (Self.plain(4, box), 2), 12: (Self.plain(2, box), 3),
                13: (Self.plain(6, box), 4),
            ], to: nested.path)
        try Self.expectCopies(nested, ["TREE-P1", "TREE-P2", "TREE-P3", "TREE-P4"], rotations: ["0", "0", "0", "90"], in: dir)

        // 9,000 pages in the root's /Kids: about 90 KB, more than one read.
        let count = 9000
        let flat = dir.appendingPathComponent("flat.pdf")
        var pages: [Int: (body: String, token: Int)] = [:]
        for page in 1...count { pages[100_000 + page] = (Self.plain(2, box), page) }
        let kids = (1...count).map { "\(100_000 + $0) 0 R" }.joined(separator: " ")
        try Self.writeTree(root: "<< /Type /Pages /Count \(count) /Kids [\(kids)] >>", pages: pages, to: flat.path)
        #expect(try Self.listedPageCount(flat) == count)
        let info = try pdfeditOK("info", flat.path, in: dir).stdout
        #expect(info.contains(try Regex("Pages:\\s+\(count)\\n")), "info: \(info.prefix(300))")
        let range = dir.appendingPathComponent("flat-range.pdf")
        try pdfeditOK("export", range.path, "1,4500,\(count)", "--from", flat.path, "--force", in: dir)
        #expect(try qpdfCheck(range.path).status == 0)
        #expect(try pageTokens(range) == ["TREE-P1", "TREE-P4500", "TREE-P\(count)"])
    }

    @Test("nodes qpdf repairs or refuses are left to qpdf: no /Type, a page given directly, a loop")
    func nodesQpdfRepairsOrRefuses() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let box = "/MediaBox [0 0 300 200] "
        // Node 4 has /Kids but no /Type: qpdf takes it as a node all the same.
        let untyped = dir.appendingPathComponent("untyped-node.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [4 0 R 12 0 R] /Count 3 >>",
            nodes: [4: "<< /Parent 2 0 R /Kids [10 0 R 11 0 R] /Count 2 >>"],
            pages: [10: (Self.plain(4, box), 1), 11: (Self.plain(4, box), 2), 12: (Self.plain(2, box), 3)],
            to: untyped.path)
        try Self.expectCopies(untyped, ["TREE-P1", "TREE-P2", "TREE-P3"], in: dir)

        // A blank page written into node 4's /Kids: qpdf makes it an object of its own.
        let direct = dir.appendingPathComponent("direct-kid.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [4 0 R 12 0 R] /Count 3 >>",
            nodes: [4: "<< /Type /Pages /Parent 2 0 R /Kids [10 0 R << /Type /Page /Parent 4 0 R \(box)>>] /Count 2 >>"],
            pages: [10: (Self.plain(4, box), 1), 12: (Self.plain(2, box), 3)], to: direct.path)
        try Self.expectCopies(direct, ["TREE-P1", "?", "TREE-P3"], in: dir)

        // Node 5 lists node 4, its parent: refused as qpdf refuses it, naming the file.
        let loop = dir.appendingPathComponent("loop.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [4 0 R] /Count 2 >>",
            nodes: [
                4: "<< /Type /Pages /Parent 2 0 R /Kids [10 0 R 5 0 R] /Count 2 >>",
                5: "<< /Type /Pages /Parent 4 0 R /Kids [11 0 R 4 0 R] /Count 1 >>",
            ],
            pages: [10: (Self.plain(4, box), 1), 11: (Self.plain(5, box), 2)], to: loop.path)
        let refused = try pdfedit("export", dir.appendingPathComponent("loop-out.pdf").path, "--from", loop.path, in: dir)
        #expect(refused.status == 65, "\(refused.status): \(refused.stderr)")
        #expect(refused.stderr.contains("loop.pdf") && refused.stderr.lowercased().contains("loop"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("loop-out.pdf").path))
    }

    /// Each output asks the source's catalog for the keys it copies, listed once
    /// per source (Source::catalog) without resolving their values: an entry no
    /// export uses is never parsed, so damage in it gives no warning, as before
    /// the keys were listed (listing them with qpdf's getKeys parsed every value).
    @Test("a damaged catalog entry no export uses is never read: no warning")
    func unusedCatalogEntryIsNotRead() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("threads.pdf")
        try Self.writeTree(
            root: "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R] /Count 3 /MediaBox [0 0 300 200] >>",
            nodes: [1: "<< /Type /Catalog /Pages 2 0 R /Threads 7 0 R >>", 7: "[ 8 0 R ]\n/NotEndobj"],
            pages: [10: (Self.plain(2), 1), 11: (Self.plain(2), 2), 12: (Self.plain(2), 3)], to: file.path)
        // qpdf itself warns about object 7 when it reads it.
        let checked = try run("qpdf", ["--check", file.path])
        #expect(checked.status == 3 && checked.stderr.contains("7 0"), "\(checked.stdout) \(checked.stderr)")
        for (arguments, copying) in [(["export", "out-range.pdf", "2..3"], true), (["export", "--split", "parts"], true),
                                     (["export", "out-all.pdf"], false)] {
            let result = try pdfedit(
                args: arguments + ["--from", file.path], in: dir,
                environment: copying ? ["PDFEDIT_NO_IN_PLACE": "1"] : [:])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
        #expect(try pageTokens(dir.appendingPathComponent("out-range.pdf")) == ["TREE-P2", "TREE-P3"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).count == 3)
    }
}
