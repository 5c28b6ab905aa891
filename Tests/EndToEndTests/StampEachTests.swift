import Foundation
import Testing

/// Issue 44, part 3: one stamp file, page by page (`stamp SEL FILE --each`,
/// pdftk's multistamp): page K of FILE on the first selected page, K+1 on the
/// second…, and past FILE's end what --repeat-last or --cycle say.
@Suite struct StampEachTests {
    /// The BETA-Pn token `pdftotext` finds on each page of `file`, nil where none.
    func betaTokens(_ file: String, pages: Int) throws -> [String?] {
        try (1...pages).map { page in
            let text = try run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"]).stdout
            return text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("BETA-P") }.map(String.init)
        }
    }

    @Test("--each: beta's five pages on alpha's first five, the rest left alone, repeated or cycled")
    func eachRepeatCycle() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let each = try pdfedit("stamp", "all", "beta.pdf", "--each", "alpha.pdf", "-o", "each.pdf", in: dir)
        #expect(each.status == 0, "\(each.stderr)")
        #expect(each.stdout.hasPrefix(
            "stamped 5 pages with beta.pdf pages 1–5, one a page (over), 2 pages past its last page left alone (7 pages)"),
            "\(each.stdout)")
        let eachFile = dir.appendingPathComponent("each.pdf").path
        #expect(try qpdfPageCount(eachFile) == 7)
        #expect(try run("qpdf", ["--check", eachFile]).status == 0)
        #expect(try betaTokens(eachFile, pages: 7) == ["BETA-P1", "BETA-P2", "BETA-P3", "BETA-P4", "BETA-P5", nil, nil])
        // Each page keeps its own content under the stamp.
        #expect(try run("pdftotext", ["-f", "4", "-l", "4", eachFile, "-"]).stdout.contains("ALPHA-P4"))

        try pdfeditOK("stamp", "all", "beta.pdf", "--each", "--repeat-last", "alpha.pdf", "-o", "repeat.pdf", in: dir)
        #expect(try betaTokens(dir.appendingPathComponent("repeat.pdf").path, pages: 7).suffix(3) == ["BETA-P5", "BETA-P5", "BETA-P5"])

        try pdfeditOK("stamp", "all", "beta.pdf", "--each", "--cycle", "--page", "4", "alpha.pdf", "-o", "cycle.pdf", in: dir)
        #expect(try betaTokens(dir.appendingPathComponent("cycle.pdf").path, pages: 7)
            == ["BETA-P4", "BETA-P5", "BETA-P4", "BETA-P5", "BETA-P4", "BETA-P5", "BETA-P4"])

        let wrong = try pdfedit("stamp", "all", "beta.pdf", "--cycle", "alpha.pdf", "-o", "x.pdf", in: dir)
        #expect(wrong.status == 64 && wrong.stderr.contains("--repeat-last and --cycle go with --each"), "\(wrong.stderr)")
    }

    @Test("in a session --each is one undo step, listed page by page")
    func sessionStep() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("beta.pdf"), toPath: dir.appendingPathComponent("beta.pdf").path)
        try pdfeditOK("stamp", "2..4", "beta.pdf", "--each", in: dir)
        let listed = try pdfedit("list", "--no-text", in: dir).stdout
        #expect(listed.contains("beta.pdf p1") || listed.contains("beta.pdf"), "\(listed)")
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try betaTokens(out, pages: 7) == [nil, "BETA-P1", "BETA-P2", "BETA-P3", nil, nil, nil])
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "undone.pdf", in: dir)
        #expect(try betaTokens(dir.appendingPathComponent("undone.pdf").path, pages: 7).allSatisfy { $0 == nil })
    }
}
