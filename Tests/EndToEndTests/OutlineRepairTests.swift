import Foundation
import Testing

/// Bookmarks that went missing or wrong (issue 40, items 10, 28, 31), read back with `qpdf --json`.
@Suite struct OutlineRepairTests {
    /// A two-page PDF whose bookmarks are "Start" (page 1) with "Later" (page 2) below it.
    static func marked(_ dir: URL, _ name: String) throws {
        try LosslessCorpusSweepTests.writePDF(
            dir, name, catalog: "/Outlines 7 0 R",
            extra: [
                "<< /Title (Start) /Parent 7 0 R /First 6 0 R /Last 6 0 R /Count 1 /Dest [3 0 R /Fit] >>",
                "<< /Title (Later) /Parent 5 0 R /Dest [4 0 R /Fit] >>",
                "<< /Type /Outlines /First 5 0 R /Last 5 0 R /Count 2 >>",
            ])
    }

    func shape(_ file: URL) throws -> [String] {
        OutlineAuthoringTests.shape(try OutlineAuthoringTests.marks(file.path))
    }

    @Test("fill brings the bookmarks of the file it fills in, as insert does (item 10)")
    func fillKeepsBookmarks() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("placeholder", "--at", "2", in: dir)
        try pdfeditOK("fill", "2", "features.pdf", in: dir)
        try pdfeditOK("export", "filled.pdf", in: dir)
        try pdfeditOK("open", "alpha.pdf", "--force", in: dir)
        try pdfeditOK("insert", "features.pdf", "--at", "2", in: dir)
        try pdfeditOK("export", "inserted.pdf", in: dir)
        let inserted = try shape(dir.appendingPathComponent("inserted.pdf"))
        #expect(inserted.count >= 3, "\(inserted)")
        #expect(try shape(dir.appendingPathComponent("filled.pdf")) == inserted)
        #expect(try qpdfCheck(dir.appendingPathComponent("filled.pdf").path).status == 0)
        // One undo takes the fill back with its bookmarks.
        try pdfeditOK("open", "alpha.pdf", "--force", in: dir)
        try pdfeditOK("placeholder", "--at", "2", in: dir)
        try pdfeditOK("fill", "2", "features.pdf", in: dir)
        try pdfeditOK("undo", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout.isEmpty)
    }

    @Test("export --outline per-source after an outline edit nests each source once (item 28)")
    func perSourceAfterAnEdit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.marked(dir, "A.pdf")
        try Self.marked(dir, "B.pdf")
        try pdfeditOK("open", "A.pdf", in: dir)
        try pdfeditOK("insert", "B.pdf", in: dir)
        try pdfeditOK("export", "before.pdf", "--outline", "per-source", in: dir)
        #expect(
            try shape(dir.appendingPathComponent("before.pdf")) == [
                "A→1", "  Start→1", "    Later→2", "B→3", "  Start→3", "    Later→4",
            ])
        try pdfeditOK("outline", "add", "X", "1", in: dir)
        try pdfeditOK("export", "after.pdf", "--outline", "per-source", in: dir)
        #expect(
            try shape(dir.appendingPathComponent("after.pdf")) == [
                "A→1", "  Start→1", "    Later→2", "  X→1", "B→3", "  Start→3", "    Later→4",
            ])
    }

    @Test("outline import refuses malformed JSON and changes nothing (item 31)")
    func malformedJSON() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("outline", "add", "Kept", "2", in: dir)
        let before = try sessionBytes(dir)
        for (name, text) in [
            ("bad.txt", "{bad json"), ("object.txt", #"{"title": "x", "position": 1}"#), ("list.json", "Title\t1\n"),
            ("broken.json", #"[{"title": "x", "position": }]"#),
        ] {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
            let result = try pdfedit("outline", "import", name, in: dir)
            #expect(result.status == 64, "\(name): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(name): not an outline in JSON"), "\(result.stderr)")
            #expect(try sessionBytes(dir) == before)
        }
        #expect(try pdfeditOK("outline", in: dir).stdout == "Kept\t2\n")
    }

    @Test("an outline of headings only is written (item 31)")
    func headingsOnly() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try Data("Part A\n  Part A.1\nPart B\n".utf8).write(to: dir.appendingPathComponent("heads.txt"))
        try pdfeditOK("outline", "import", "heads.txt", in: dir)
        try pdfeditOK("export", "heads.pdf", in: dir)
        let out = dir.appendingPathComponent("heads.pdf")
        #expect(try shape(out) == ["Part A→-", "  Part A.1→-", "Part B→-"])
        #expect(try qpdfCheck(out.path).status == 0)
    }
}
