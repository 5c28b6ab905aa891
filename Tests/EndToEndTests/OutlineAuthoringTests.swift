import Foundation
import Testing

/// Bookmarks authored in a session (issue 17): built, edited, carried by edits,
/// undone, exported; every output read back with `qpdf --json` (titles, levels,
/// the page objects destinations point at) and `pdftotext` (what is on that page).
@Suite struct OutlineAuthoringTests {
    /// One bookmark of a file as qpdf reports it.
    struct Mark: Equatable, CustomStringConvertible {
        var level: Int
        var title: String
        /// 1-based position of the page object its destination names; nil: none.
        var page: Int?
        /// The destination's view after the page (`/XYZ` left top zoom …), as qpdf prints it.
        var view: String

        var description: String { "\(String(repeating: "  ", count: level))\(title)→\(page.map(String.init) ?? "-") \(view)" }
    }

    /// Every bookmark of `file`, depth first, destinations resolved against its page objects.
    static func marks(_ file: String) throws -> [Mark] {
        let result = try run("qpdf", ["--json=2", "--json-key=outlines", "--json-key=pages", file])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pages = (json["pages"] as? [[String: Any]] ?? []).compactMap { $0["object"] as? String }
        var found: [Mark] = []
        func walk(_ entries: [[String: Any]], level: Int) {
            for entry in entries {
                var dest = entry["dest"] as? [Any]
                if dest == nil { dest = (entry["dest"] as? [String: Any])?["/D"] as? [Any] }
                let page = (dest?.first as? String).flatMap { pages.firstIndex(of: $0) }.map { $0 + 1 }
                let view = (dest?.dropFirst() ?? []).map { $0 is NSNull ? "null" : "\($0)" }.joined(separator: " ")
                found.append(Mark(level: level, title: entry["title"] as? String ?? "", page: page, view: view))
                walk(entry["kids"] as? [[String: Any]] ?? [], level: level + 1)
            }
        }
        walk(json["outlines"] as? [[String: Any]] ?? [], level: 0)
        return found
    }

    /// "title→page" lines indented by level.
    static func shape(_ marks: [Mark]) -> [String] {
        marks.map { "\(String(repeating: "  ", count: $0.level))\($0.title)→\($0.page.map(String.init) ?? "-")" }
    }

    @Test("a table of contents for a merged report: built, carried by a chapter move, undone and redone")
    func mergedReportTableOfContents() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "beta.pdf", in: dir)  // 7 + 5 pages
        try pdfeditOK("outline", "add", "Alpha", "1", in: dir)
        try pdfeditOK("outline", "add", "Alpha, part 2", "4", "--parent", "Alpha", in: dir)
        try pdfeditOK("outline", "add", "Beta", "8", in: dir)
        try pdfeditOK("outline", "add", "Beta/end", "last", "--parent", "Beta", in: dir)
        let json = try pdfeditOK("outline", "--json", in: dir).stdout
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(listed.map { Set($0.keys) } == [["title", "position", "id", "children"], ["title", "position", "id", "children"]])
        #expect(listed.map { $0["position"] as? Int } == [1, 8])
        #expect(listed.map { $0["id"] as? String } == ["p1", "p8"])

        // The Beta chapter goes first: its bookmarks go with its pages.
        try pdfeditOK("move", "8..12", "--to", "1", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout == "Alpha\t6\n  Alpha, part 2\t9\nBeta\t1\n  Beta/end\t5\n")
        try pdfeditOK("export", "report.pdf", in: dir)
        let report = dir.appendingPathComponent("report.pdf").path
        let marks = try Self.marks(report)
        #expect(Self.shape(marks) == ["Alpha→6", "  Alpha, part 2→9", "Beta→1", "  Beta/end→5"])
        let tokens = try pageTokens(report)
        #expect(marks.map { tokens[$0.page! - 1] } == ["ALPHA-P1", "ALPHA-P4", "BETA-P1", "BETA-P5"])
        #expect(try qpdfCheck(report).status == 0)

        // Removing a chapter's first page leaves a heading over its surviving entry.
        try pdfeditOK("remove", "1", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout == "Alpha\t5\n  Alpha, part 2\t8\nBeta\n  Beta/end\t4\n")
        try pdfeditOK("undo", "2", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout == "Alpha\t1\n  Alpha, part 2\t4\nBeta\t8\n  Beta/end\t12\n")
        try pdfeditOK("redo", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout == "Alpha\t6\n  Alpha, part 2\t9\nBeta\t1\n  Beta/end\t5\n")
        // Every outline command was one step.
        let history = try pdfeditOK("history", in: dir).stdout
        #expect(history.components(separatedBy: "outline add").count - 1 == 4)
    }

    @Test("--outline per-source gives every source file one entry, even without bookmarks; none gives none")
    func perSourceAndNone() throws {
        let dir = try scratchDirectory(with: "features.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("insert", "alpha.pdf", in: dir)
        try pdfeditOK("export", "keep.pdf", in: dir)
        let own = [
            "Chapter 1→1", "  Section 1.1→2", "  Section 1.2→3", "Chapter 2→4", "  Section 2.1→5", "Appendix→6",
        ]
        let kept = try Self.marks(dir.appendingPathComponent("keep.pdf").path)
        #expect(Self.shape(kept) == own)
        // Views survive: explicit, named, and through a GoTo action.
        #expect(kept.map(\.view) == ["/XYZ null null null", "/XYZ 72 792 null", "/Fit", "/XYZ 0 792 null", "/XYZ 72 720 0", "/Fit"])
        try pdfeditOK("export", "per-source.pdf", "--outline", "per-source", in: dir)
        let perSource = try Self.marks(dir.appendingPathComponent("per-source.pdf").path)
        #expect(Self.shape(perSource) == ["features→1"] + own.map { "  " + $0 } + ["alpha→7"])
        try pdfeditOK("export", "none.pdf", "--outline", "none", in: dir)
        #expect(try Self.marks(dir.appendingPathComponent("none.pdf").path) == [])
    }

    @Test("export --split --at-outlines splits at the authored top-level entries; each part keeps its own")
    func splitAtAuthoredOutline() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("outline", "add", "Intro", "1", in: dir)
        try pdfeditOK("outline", "add", "Body", "3", in: dir)
        try pdfeditOK("outline", "add", "Detail", "5", "--parent", "Body", in: dir)
        try pdfeditOK("export", "--split", "parts", "--at-outlines", in: dir)
        let parts = dir.appendingPathComponent("parts")
        let names = try FileManager.default.contentsOfDirectory(atPath: parts.path).sorted()
        #expect(names == ["1-Intro.pdf", "2-Body.pdf"])
        #expect(try pageTokens(parts.appendingPathComponent("2-Body.pdf")) == ["ALPHA-P3", "ALPHA-P4", "ALPHA-P5", "ALPHA-P6", "ALPHA-P7"])
        #expect(Self.shape(try Self.marks(parts.appendingPathComponent("1-Intro.pdf").path)) == ["Intro→1"])
        #expect(Self.shape(try Self.marks(parts.appendingPathComponent("2-Body.pdf").path)) == ["Body→1", "  Detail→3"])
        // The parts start at the document's bookmarks also when they write none.
        try pdfeditOK("export", "--split", "bare", "--at-outlines", "--outline", "none", in: dir)
        let bare = dir.appendingPathComponent("bare")
        #expect(try FileManager.default.contentsOfDirectory(atPath: bare.path).sorted() == ["1-Intro.pdf", "2-Body.pdf"])
        #expect(try Self.marks(bare.appendingPathComponent("2-Body.pdf").path).isEmpty)
        #expect(try pageTokens(bare.appendingPathComponent("1-Intro.pdf")) == ["ALPHA-P1", "ALPHA-P2"])
    }

    @Test("a bookmark that opens a web address keeps its URI action through the model")
    func uriBookmarkIsKept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try LosslessCorpusSweepTests.writePDF(
            dir, "web.pdf", catalog: "/Outlines 7 0 R",
            extra: [
                "<< /Title (to page 2) /Parent 7 0 R /Next 6 0 R /Dest [4 0 R /Fit] >>",
                "<< /Title (web) /Parent 7 0 R /Prev 5 0 R /A << /S /URI /URI (https://example.org/a) >> >>",
                "<< /Type /Outlines /First 5 0 R /Last 6 0 R /Count 2 >>",
            ])
        try pdfeditOK("reverse", "all", "web.pdf", "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(Self.shape(try Self.marks(out)) == ["to page 2→1", "web→-"])
        let qdf = try run("qpdf", ["--qdf", "--object-streams=disable", out, "-"]).stdout
        #expect(qdf.contains("/URI (https://example.org/a)"))
    }

    @Test("bookmarks that open another file, run a named or launch action or a script keep their action (scripts only with --keep-scripts, else named in the warning)")
    func otherActionBookmarksAreKept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5: GoTo page 2; 6: GoToR with its file spec an indirect object (12);
        // 7: Named NextPage; 8: Launch; 9: JavaScript as a stream (13);
        // 10: a GoToR whose /Next loops back to itself (cannot travel: a heading).
        try LosslessCorpusSweepTests.writePDF(
            dir, "acts.pdf", catalog: "/Outlines 11 0 R",
            extra: [
                "<< /Title (to page 2) /Parent 11 0 R /Next 6 0 R /Dest [4 0 R /Fit] >>",
                "<< /Title (other file) /Parent 11 0 R /Prev 5 0 R /Next 7 0 R /A << /S /GoToR /F 12 0 R /D [0 /Fit] /NewWindow true >> >>",
                "<< /Title (next page) /Parent 11 0 R /Prev 6 0 R /Next 8 0 R /A << /S /Named /N /NextPage >> >>",
                "<< /Title (launch) /Parent 11 0 R /Prev 7 0 R /Next 9 0 R /A << /S /Launch /F (readme.txt) >> >>",
                "<< /Title (script) /Parent 11 0 R /Prev 8 0 R /Next 10 0 R /A << /S /JavaScript /JS 13 0 R >> >>",
                "<< /Title (loop) /Parent 11 0 R /Prev 9 0 R /A 14 0 R >>",
                "<< /Type /Outlines /First 5 0 R /Last 10 0 R /Count 6 >>",
                "<< /Type /Filespec /F (other.pdf) /UF (other.pdf) >>",
                "<< /Length 16 >>\nstream\napp.alert('hi');\nendstream",
                "<< /S /GoToR /F (x.pdf) /D [0 /Fit] /Next 14 0 R >>",
            ])
        // Direct mode and a session both carry the bookmarks through the model.
        let direct = try pdfedit("reverse", "all", "acts.pdf", "-o", "out.pdf", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stderr.contains("JavaScript (bookmark \u{201C}script\u{201D})"), "\(direct.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(Self.shape(try Self.marks(out)) == ["to page 2→1", "other file→-", "next page→-", "launch→-", "script→-", "loop→-"])
        #expect(try qpdfCheck(out).status == 0)
        let qdf = try run("qpdf", ["--qdf", "--object-streams=disable", out, "-"]).stdout
        #expect(qdf.contains("/S /GoToR"))
        #expect(qdf.contains("/UF (other.pdf)"))
        #expect(qdf.contains("/NewWindow true"))
        #expect(qdf.contains("/N /NextPage"))
        #expect(qdf.contains("/S /Launch"))
        #expect(qdf.contains("/F (readme.txt)"))
        #expect(!qdf.contains("JavaScript") && !qdf.contains("alert"))
        #expect(!qdf.contains("(x.pdf)"), "a looping action is not carried")

        try pdfeditOK("reverse", "all", "acts.pdf", "-o", "kept.pdf", "--keep-scripts", in: dir)
        let kept = try run("qpdf", ["--qdf", "--object-streams=disable", dir.appendingPathComponent("kept.pdf").path, "-"]).stdout
        #expect(kept.contains("/S /JavaScript"))
        #expect(kept.contains(#"/JS (app.alert\('hi'\);)"#), "the script stream travels as a string")

        try pdfeditOK("open", "acts.pdf", in: dir)
        try pdfeditOK("move", "2", "--to", "1", in: dir)
        try pdfeditOK("export", "session.pdf", "--keep-scripts", in: dir)
        let session = try run("qpdf", ["--qdf", "--object-streams=disable", dir.appendingPathComponent("session.pdf").path, "-"]).stdout
        #expect(session.contains("/N /NextPage") && session.contains("/S /GoToR") && session.contains("/S /JavaScript"))
        #expect(Self.shape(try Self.marks(dir.appendingPathComponent("session.pdf").path)).first == "to page 2→1")
    }

    @Test("direct mode: outline import toc.txt in.pdf -o out.pdf, with Unicode titles")
    func directModeImportWithUnicodeTitles() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let toc = "Überblick\t1\nKapitel ✓\n  Straße\t3\n  日本語\tlast\n"
        try Data(toc.utf8).write(to: dir.appendingPathComponent("toc.txt"))
        try pdfeditOK("outline", "import", "toc.txt", "alpha.pdf", "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(Self.shape(try Self.marks(out)) == ["Überblick→1", "Kapitel ✓→-", "  Straße→3", "  日本語→7"])
        #expect(try pageTokens(out)[2] == "ALPHA-P3")
        #expect(try qpdfCheck(out).status == 0)
        // Nothing is left behind, and the input's own bookmarks (none) did not matter.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".pdfedit").path))
    }

    @Test("outline export → clear → import gives the same JSON file byte for byte")
    func exportClearImportRoundTrip() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("outline", "add", "A/B ✓", "2", "--parent", "Chapter 2", in: dir)
        try pdfeditOK("outline", "export", "first.json", in: dir)
        try pdfeditOK("outline", "clear", in: dir)
        #expect(try pdfeditOK("outline", "--json", in: dir).stdout == "[\n\n]\n")
        try pdfeditOK("outline", "import", "first.json", in: dir)
        try pdfeditOK("outline", "export", "second.json", in: dir)
        let first = try Data(contentsOf: dir.appendingPathComponent("first.json"))
        #expect(first == (try Data(contentsOf: dir.appendingPathComponent("second.json"))))
        #expect(first == Data(try pdfeditOK("outline", "--json", in: dir).stdout.utf8))
        // A path with an escaped "/" names the new entry; two siblings of one name are refused.
        try pdfeditOK("outline", "rename", "Chapter 2/A\\/B ✓", "Twice", in: dir)
        try pdfeditOK("outline", "add", "Twice", "3", "--parent", "Chapter 2", in: dir)
        let before = try sessionBytes(dir)
        let ambiguous = try pdfedit("outline", "remove", "Chapter 2/Twice", in: dir)
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr == "pdfedit: 2 outline entries are named \"Chapter 2/Twice\"\n")
        #expect(try sessionBytes(dir) == before)
        // export refuses to replace a file without --force, and a source or the
        // session's own file even with it (the one check every output passes).
        #expect(try pdfedit("outline", "export", "first.json", in: dir).status == 73)
        let sourceBytes = try Data(contentsOf: dir.appendingPathComponent("features.pdf"))
        let overSource = try pdfedit("outline", "export", "features.pdf", "--force", in: dir)
        #expect(overSource.status == 73)
        #expect(overSource.stderr == "pdfedit: features.pdf: is a source of this session; refusing to write over it\n")
        #expect(try Data(contentsOf: dir.appendingPathComponent("features.pdf")) == sourceBytes)
        let overSession = try pdfedit("outline", "export", ".pdfedit/session.json", "--force", in: dir)
        #expect(overSession.status == 73)
        #expect(try sessionBytes(dir) == before)
    }

    @Test("outline lines in a run script are one step; showing or exporting the outline there is refused")
    func scripts() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("run", "-", in: dir, stdin: "outline add One 1\noutline add Two 2 --parent One\nmove 2 --to 1\n")
        #expect(try pdfeditOK("outline", in: dir).stdout == "One\t2\n  Two\t1\n")
        #expect(try pdfeditOK("history", in: dir).stdout.split(separator: "\n").count == 1)
        let before = try sessionBytes(dir)
        for line in ["outline", "outline --json", "outline export x.json"] {
            let refused = try pdfedit("run", "-", in: dir, stdin: "outline clear\n\(line)\n")
            #expect(refused.status == 64, "\(line)")
            #expect(try sessionBytes(dir) == before)
        }
        try pdfeditOK("undo", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout == "")
    }

    @Test("a session of format 2 (no outlines) loads; its bookmarks come from the sources until an outline edit")
    func olderSessionAdoptsItsSourcesBookmarks() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        let file = dir.appendingPathComponent(".pdfedit/session.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(object["version"] as? Int == 8)
        object["version"] = 2
        object["documents"] = (object["documents"] as? [[String: Any]] ?? []).map { document in
            var document = document
            document["outline"] = nil
            return document
        }
        try JSONSerialization.data(withJSONObject: object).write(to: file)
        let fromSources = "Chapter 1\t1\n  Section 1.1\t2\n  Section 1.2\t3\nChapter 2\t4\n  Section 2.1\t5\nAppendix\t6\n"
        #expect(try pdfeditOK("outline", in: dir).stdout == fromSources)
        try pdfeditOK("move", "6", "--to", "1", in: dir)
        try pdfeditOK("export", "old.pdf", in: dir)
        #expect(Self.shape(try Self.marks(dir.appendingPathComponent("old.pdf").path)).last == "Appendix→1")
        try pdfeditOK("outline", "add", "End", "last", in: dir)
        #expect(try pdfeditOK("outline", in: dir).stdout.hasSuffix("Appendix\t1\nEnd\t6\n"))
        try pdfeditOK("undo", in: dir)
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(saved["version"] as? Int == 8)
        #expect(((saved["documents"] as? [[String: Any]])?[0]["outline"]) == nil)
    }

    @Test(
        "a TeX book's 500-odd bookmarks survive a chapter move, each pointing at its page",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus outline test skipped"))
    func corpusBookChapterMove() throws {
        let book = Paths.corpus("tbt-TeXbyTopic.pdf")
        let source = try Self.marks(book)
        #expect(source.count > 400)
        let chapters = source.filter { $0.level == 0 && $0.page != nil }
        let chapter = try #require(chapters.first { $0.title == "Boxes" })
        let next = try #require(chapters.first { $0.page! > chapter.page! })
        let (first, last) = (chapter.page!, next.page! - 1)
        let count = try #require(try qpdfPageCount(book))
        // Where each source page ends after `move first..last --to 1`.
        var position: [Int: Int] = [:]
        for (index, page) in (Array(first...last) + Array(1..<first) + Array((last + 1)...count)).enumerated() {
            position[page] = index + 1
        }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", book, in: dir)
        try pdfeditOK("move", "\(first)..\(last)", "--to", "1", in: dir)
        try pdfeditOK("export", "moved.pdf", in: dir)
        let moved = try Self.marks(dir.appendingPathComponent("moved.pdf").path)
        let expected = source.map { mark in
            Mark(level: mark.level, title: mark.title, page: mark.page.flatMap { position[$0] }, view: mark.view)
        }
        #expect(moved.count == expected.count)
        for (got, want) in zip(moved, expected) where got != want {
            Issue.record("\(got) != \(want)")
        }
        #expect(moved.first { $0.title == "Boxes" }?.page == 1)
    }
}
