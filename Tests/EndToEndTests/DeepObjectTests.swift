import Foundation
import Testing

/// A page whose objects nest tens of thousands of levels deep (each form XObject
/// drawing the next through its resources): qpdf's copy of a page or stamp
/// recursed once per nested array, dictionary and stream, and such a chain
/// overflowed the stack (exit 139). pdfedit's own copier walks without recursion
/// and refuses past the tree-depth limit (65, one line naming the file and page).
@Suite struct DeepObjectTests {
    /// A one-page PDF whose page has a chain of `forms` form XObjects, each in the
    /// previous one's /Resources /XObject.
    static func writeFormChain(_ forms: Int, to path: String) throws {
        let first = 10
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R"
                + " /Resources << /XObject << /X \(first) 0 R >> >> >>",
            4: LimitsTests.content,
        ]
        for level in 0..<forms {
            let resources = level < forms - 1 ? "/Resources << /XObject << /X \(first + level + 1) 0 R >> >> " : ""
            objects[first + level] =
                "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] \(resources)/Length 0 >>\nstream\n\nendstream"
        }
        try LimitsTests.writePDF(objects, to: path)
    }

    /// 65 with a single `pdfedit:` line saying that `file`'s page 1 is over the
    /// depth limit `levels`.
    static func expectRefused(_ result: Run, _ what: String, file: String = "deep.pdf", levels: Int = 1024) {
        #expect(result.status == 65, "\(what): \(result.status) \(result.stderr.prefix(400))")
        #expect(Reliability.stderrProblem(result) == nil, "\(what): \(result.stderr.prefix(400))")
        #expect(
            result.stderr.contains("\(file): page 1: over a limit:")
                && result.stderr.contains("nested more than \(levels) levels deep"),
            "\(what): \(result.stderr.prefix(400))")
    }

    @Test("a page or stamp whose form XObjects nest 30,000 deep is refused (65) by every copy, not a crash")
    func deepChainIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deep = dir.appendingPathComponent("deep.pdf").path
        try Self.writeFormChain(30_000, to: deep)
        let alpha = Paths.fixture("alpha.pdf")

        // Direct mode: a stamp, a page copy, a reversal that copies.
        Self.expectRefused(
            try pdfedit("stamp", "1", deep, alpha, "-o", "stamped.pdf", "--force", in: dir), "direct stamp")
        Self.expectRefused(
            try pdfedit("insert", deep, "--at", "1", alpha, "-o", "inserted.pdf", "--force", in: dir), "direct insert")
        Self.expectRefused(
            try pdfedit(
                "reverse", "all", deep, "-o", "reversed.pdf", "--force", in: dir,
                environment: ["PDFEDIT_NO_IN_PLACE": "1"]),
            "reverse (copied)")
        // Written where it is, nothing is copied and nothing recurses: it works.
        let inPlace = try pdfedit("reverse", "all", deep, "-o", "in-place.pdf", "--force", in: dir)
        #expect(inPlace.status == 0, "reverse in place: \(inPlace.stderr.prefix(400))")
        for name in ["stamped.pdf", "inserted.pdf", "reversed.pdf"] {
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), "\(name)")
        }

        // A session: the stamp is recorded, the export refuses it, undo recovers.
        let session = dir.appendingPathComponent("session")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        try pdfeditOK("open", alpha, in: session)
        try pdfeditOK("stamp", "1", deep, in: session)
        Self.expectRefused(try pdfedit("export", "a.pdf", in: session), "session stamp export")
        try pdfeditOK("undo", in: session)
        try pdfeditOK("export", "a.pdf", "--force", in: session)
        // Pages of two sources, whole and split.
        try pdfeditOK("insert", deep, in: session)
        Self.expectRefused(try pdfedit("export", "b.pdf", in: session), "two-source export")
        Self.expectRefused(try pdfedit("export", "c.pdf", "--split", in: session), "split export")
    }

    @Test("a chain within the limit is copied and stamped; PDFEDIT_MAX_DEPTH lowers the limit")
    func chainWithinTheLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let chain = dir.appendingPathComponent("chain.pdf").path
        // 200 forms: about 800 nested dictionaries and streams below the page.
        try Self.writeFormChain(200, to: chain)
        let alpha = Paths.fixture("alpha.pdf")
        let stamped = try pdfedit("stamp", "1", chain, alpha, "-o", "stamped.pdf", "--force", in: dir)
        #expect(stamped.status == 0, "\(stamped.stderr.prefix(400))")
        let inserted = try pdfedit("insert", chain, "--at", "1", alpha, "-o", "inserted.pdf", "--force", in: dir)
        #expect(inserted.status == 0, "\(inserted.stderr.prefix(400))")
        #expect(try qpdfPageCount(dir.appendingPathComponent("inserted.pdf").path) == 8)

        let lowered = ["PDFEDIT_MAX_DEPTH": "100"]
        Self.expectRefused(
            try pdfedit("stamp", "1", chain, alpha, "-o", "s2.pdf", "--force", in: dir, environment: lowered),
            "stamp under 100", file: "chain.pdf", levels: 100)
        Self.expectRefused(
            try pdfedit("insert", chain, "--at", "1", alpha, "-o", "i2.pdf", "--force", in: dir, environment: lowered),
            "insert under 100", file: "chain.pdf", levels: 100)
    }
}
