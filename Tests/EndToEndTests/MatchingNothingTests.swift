import Foundation
import Testing

/// DESIGN.md, "Selections that depend on the pages" (issue 46): `text:` and
/// `empty` that match no page select nothing — the command changes nothing,
/// says so on stderr, still writes its output and exits 0, so a batch runs on
/// files that have none; positional tokens that select nothing stay 64.
@Suite struct MatchingNothingTests {
    @Test("remove empty on a file without blank pages: exit 0, a note on stderr, the output written unchanged")
    func directModeWritesItsOutput() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let removed = try pdfedit("remove", "empty", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr == "pdfedit: \"empty\" matches no page of \"alpha\": nothing changed\n", "\(removed.stderr)")
        #expect(removed.stdout == "wrote out.pdf (7 pages)\n", "\(removed.stdout)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 7)
        #expect(try run("qpdf", ["--check", out]).status == 0)
        #expect(try run("pdftotext", ["-f", "7", "-l", "7", out, "-"]).stdout.contains("ALPHA-P7"))

        // --json says which tokens matched nothing; --quiet says nothing.
        let json = try pdfedit("rotate", "text:zebra", "--by", "90", "alpha.pdf", "-o", "json.pdf", "--json", in: dir)
        #expect(json.status == 0 && json.stdout.contains("\"unmatched\"") && json.stdout.contains("text:zebra"))
        let quiet = try pdfedit("remove", "empty", "alpha.pdf", "-o", "quiet.pdf", "-q", in: dir)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stderr)")

        // Positional tokens that select nothing are still a mistake (64).
        try pdfeditOK("export", "one.pdf", "1", "--from", "alpha.pdf", in: dir)
        let even = try pdfedit("remove", "even", "one.pdf", "-o", "x.pdf", in: dir)
        #expect(even.status == 64 && even.stderr.contains("\"even\" selects no page"), "\(even.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.pdf").path))
    }

    @Test("in a session nothing changes and no undo step is recorded; a matching token beside it still works")
    func sessionRecordsNoStep() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try Reliability.history(in: dir)
        let nothing = try pdfedit("remove", "text:zebra,empty", in: dir)
        #expect(nothing.status == 0 && nothing.stdout.isEmpty, "\(nothing.stdout) \(nothing.stderr)")
        #expect(nothing.stderr.contains("\"text:zebra\", \"empty\" matches no page of \"alpha\": nothing changed"))
        #expect(try Reliability.history(in: dir).done == before.done)
        // text:ALPHA-P3 matches; text:zebra beside it matches nothing: page 3 goes.
        try pdfeditOK("remove", "text:zebra,text:ALPHA-P3", in: dir)
        // Two page-dependent tokens may overlap.
        try pdfeditOK("rotate", "text:ALPHA-P1,text:ALPHA", "--by", "90", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 6)
        #expect(!(try run("pdftotext", [out, "-"]).stdout.contains("ALPHA-P3")))
        // Commands that only look still refuse an empty answer.
        #expect(try pdfedit("list", "text:zebra", in: dir).status == 64)
    }

    @Test("apply -e 'remove empty' runs over files that have no blank pages")
    func batchRunsOnFilesWithoutBlanks() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let batch = try pdfedit("apply", "-e", "remove empty", "alpha.pdf", "beta.pdf", "-o", "out/{name}", in: dir)
        #expect(batch.status == 0, "\(batch.stdout) \(batch.stderr)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("out/alpha.pdf").path) == 7)
        #expect(try qpdfPageCount(dir.appendingPathComponent("out/beta.pdf").path) == 5)
    }
}
