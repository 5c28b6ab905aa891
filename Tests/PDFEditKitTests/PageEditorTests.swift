import Foundation
import PDFEditKit
import Testing

/// The in-memory editor as a program uses it: `import PDFEditKit` only, PDFs
/// from files and from bytes, typed selections and positions, undo, output as
/// a file and as bytes; every output checked with qpdf and poppler's tools.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf") && KitFixtures.has("beta.pdf"), "needs Fixtures/alpha.pdf, beta.pdf"))
struct PageEditorTests {
    static let alpha = (1...7).map { "ALPHA-P\($0)" }

    /// The bytes written by `data()` to a scratch file, for the checking tools.
    static func file(_ bytes: Data, in scratch: KitScratch, _ name: String = "out.pdf") throws -> String {
        let path = scratch.path(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func bytesInEditsUndoBytesOut() throws {
        let scratch = try KitScratch()
        let input = try Data(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        var editor = try PageEditor(data: input, name: "alpha")
        #expect(editor.documentNames == ["alpha"])
        #expect(try editor.pageCount() == 7)

        let moved = try editor.move(.pages(3...5), to: .position(1))
        #expect(moved.positions == [1, 2, 3])
        try editor.rotate(.last, by: 90)
        let removed = try editor.remove(.even)
        #expect(removed.pageCount == 4)
        #expect(try editor.undo() == ["remove even"])
        #expect(try editor.pageCount() == 7)

        let output = try Self.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(output))
        #expect(try KitTools.tokens(output) == ["ALPHA-P3", "ALPHA-P4", "ALPHA-P5", "ALPHA-P1", "ALPHA-P2", "ALPHA-P6", "ALPHA-P7"])
        #expect(try KitTools.rotation(output, page: 7) == 90)
        #expect(try KitTools.rotation(output, page: 6) == 0)

        #expect(try editor.redo() == ["remove even"])
        let again = try Self.file(try editor.data(), in: scratch, "again.pdf")
        #expect(try KitTools.tokens(again) == ["ALPHA-P3", "ALPHA-P5", "ALPHA-P2", "ALPHA-P7"])
    }

    @Test func redactionIsAnEditAndTheOutputLosesTheText() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        // A region away from the text: written, proven, every token kept.
        let summary = try editor.redact(.pages(2...3), x: 450, y: 700, width: 150, height: 80, fill: "white", label: "corner")
        #expect(summary.positions == [2, 3])
        let output = try Self.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(output))
        #expect(try KitTools.tokens(output) == Self.alpha)
        // alpha.pdf's Helvetica has no /Widths: measured on its metric-compatible
        // substitute (fonts-urw-base35), the token goes and the others stay.
        try editor.redact(.pages(2...2), text: "alpha-p")
        let redacted = try Self.file(try editor.data(), in: scratch, "redacted.pdf")
        #expect(try KitTools.qpdfCheck(redacted))
        var expected = Self.alpha
        expected[1] = "?"
        #expect(try KitTools.tokens(redacted) == expected)
        #expect(try editor.undo().count == 1)
        #expect(try KitTools.tokens(try Self.file(try editor.data(), in: scratch, "again.pdf")) == Self.alpha)
        #expect(throws: PDFEditError.self) { try editor.redact(x: 0, y: 0, width: 10, height: 10, fill: "no colour") }
    }

    /// What the "Sessions and undo" article says: undo returns the names newest
    /// first, redo oldest first, and undoing past the start changes nothing.
    @Test func undoAndRedoAsTheArticleSays() throws {
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.remove(.even)
        try editor.rotate(.all, by: 180)
        #expect(try editor.undo(2) == ["rotate all 180", "remove even"])
        #expect(try editor.pageCount() == 7)
        #expect(try editor.redo(2) == ["remove even", "rotate all 180"])
        #expect(try editor.pageCount() == 4)
        #expect(throws: PDFEditError.self) { try editor.undo(3) }
        #expect(try editor.pageCount() == 4)
    }

    @Test func typedSelectionsAreTheCommandLinesSelections() throws {
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        #expect(editor.documentNames == ["alpha"])
        #expect(String(describing: PageSelection.pages(1...2) + .last) == String(describing: try PageSelection.parse("1..2,last")))
        #expect(String(describing: PageSelection.empty(maximumShare: 0.005)) == "empty:0.5%")
        #expect(String(describing: PageSelection.empty()) == "empty")
        let removed = try editor.remove(.pages(1...2) + .last(2))
        #expect(removed.pageCount == 3)
        #expect(try editor.items().map(\.id.description) == ["p3", "p4", "p5"])
        try editor.undo()
        try editor.move(.first, to: .after(.last))
        #expect(try editor.items().map(\.id.description) == ["p2", "p3", "p4", "p5", "p6", "p7", "p1"])
        try editor.copy(.page(2), to: .before(1))
        #expect(try editor.pageCount() == 8)
        // An out-of-range selection is refused and changes nothing.
        #expect(throws: PDFEditError.self) { try editor.remove(.page(40)) }
        #expect(try editor.pageCount() == 8)
    }

    @Test func severalDocumentsMovesBetweenThemAndSelectedPagesWritten() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        let beta = try editor.open(URL(fileURLWithPath: KitFixtures.path("beta.pdf")))
        #expect(editor.documentNames == ["alpha", beta])
        #expect(editor.currentDocument == "alpha")
        let betaPages = try editor.pageCount(of: beta)
        try editor.move(.pages(1...2), to: .position(1), in: "alpha", into: beta)
        #expect(try editor.pageCount(of: "alpha") == 5)
        #expect(try editor.pageCount(of: beta) == betaPages + 2)

        let output = scratch.path("beta-out.pdf")
        let result = try editor.write(to: URL(fileURLWithPath: output), document: beta, pages: .pages(1...3))
        #expect(result.pageCount == 3)
        #expect(try KitTools.qpdfCheck(output))
        let tokens = try KitTools.tokens(output)
        #expect(tokens.prefix(2) == ["ALPHA-P1", "ALPHA-P2"])
        #expect(tokens.count == 3)

        // The file is there now: writing again needs force, as on the command line.
        #expect(throws: PDFEditError.self) { try editor.write(to: URL(fileURLWithPath: output), document: beta) }
        try editor.write(to: URL(fileURLWithPath: output), document: beta, settings: ExportSettings(force: true))
        #expect(try KitTools.pageCount(output) == betaPages + 2)

        // Undo takes back the move, then the opening of beta.
        try editor.undo(2)
        #expect(editor.documentNames == ["alpha"])
        #expect(try editor.pageCount() == 7)
    }

    @Test func placeholdersFilledFromBytesAndACopyIsIndependent() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.placeholder(at: .before(1), label: "cover")
        // A placeholder cannot be written until it is filled.
        #expect(throws: PDFEditError.self) { _ = try editor.data() }
        let copy = editor
        try editor.fill(1, with: URL(fileURLWithPath: KitFixtures.path("beta.pdf")))
        #expect(try copy.pageCount() == 8)  // the copy still has its placeholder
        let beta = try Data(contentsOf: URL(fileURLWithPath: KitFixtures.path("beta.pdf")))
        try editor.insert(data: beta, name: "beta", at: .after(.last))
        let output = try Self.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(output))
        let betaCount = try #require(try KitTools.pageCount(KitFixtures.path("beta.pdf")))
        #expect(try KitTools.pageCount(output) == 7 + 2 * betaCount)
    }

    /// The session file is the persistence layer: what a program saves, the
    /// command line's session code reads (documents, order, history), and an
    /// editor made from it goes on, undo included — also for bytes, which are
    /// kept beside the session.
    @Test func savedAsASessionAndContinued() throws {
        let scratch = try KitScratch()
        let session = scratch.path("job/session.json")
        let beta = try Data(contentsOf: URL(fileURLWithPath: KitFixtures.path("beta.pdf")))
        do {
            var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
            try editor.move(.last, to: .position(1))
            try editor.insert(data: beta, name: "beta.pdf", at: .after(.last))
            try editor.save(session: session)
        }  // the editor and its temporary folder are gone now

        let shared = DocumentEditor(sessionPath: session)
        let listing = try shared.list()
        let betaCount = try #require(try KitTools.pageCount(KitFixtures.path("beta.pdf")))
        #expect(listing.pageCount == 7 + betaCount)
        #expect(listing.items.prefix(2).map(\.sourcePage) == [7, 1])
        #expect(try shared.status().undoSteps == 2)

        var continued = try PageEditor(session: session)
        #expect(try continued.pageCount() == 7 + betaCount)
        let output = try Self.file(try continued.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(output))
        #expect(try KitTools.tokens(output).prefix(2) == ["ALPHA-P7", "ALPHA-P1"])
        #expect(try KitTools.pageCount(output) == 7 + betaCount)
        #expect(try continued.undo() == ["insert beta.pdf"])
        #expect(try continued.pageCount() == 7)

        // A file there that is not a session is never replaced.
        let notASession = scratch.path("notes.json")
        try Data("{\"mine\": true}".utf8).write(to: URL(fileURLWithPath: notASession))
        #expect(throws: PDFEditError.self) { try continued.save(session: notASession) }
        #expect(try String(contentsOfFile: notASession, encoding: .utf8) == "{\"mine\": true}")
    }

    /// The async output runs off the task and a cancelled task's write fails
    /// with `.cancelled`, leaving no file.
    @Test func asyncOutputAndCancellation() async throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.reverse()
        let bytes = try await editor.data()
        #expect(try KitTools.tokens(try Self.file(bytes, in: scratch)) == Self.alpha.reversed())

        let target = URL(fileURLWithPath: scratch.path("cancelled.pdf"))
        let frozen = editor
        let task = Task { () async -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(PDFEditError) {
                return "wrote \(try await frozen.write(to: target).output)"
            } catch {
                if case .cancelled = error { return "cancelled" }
                return "failed: \(error)"
            }
        }
        #expect(await task.value == "cancelled")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func bytesThatAreNotAPDFAreRefusedByName() throws {
        #expect {
            _ = try PageEditor(data: Data("not a pdf at all".utf8), name: "upload")
        } throws: { error in
            // Named as the program named the bytes, not after the temporary file they were kept in.
            String(describing: error) == "upload: not a PDF or a supported image (JPEG, PNG)"
        }
    }
}

/// Reading an editor's pages and history: what `find`, `list` and `history`
/// show on the command line, checked against poppler's `pdftotext`.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct PageEditorReadingTests {
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func textOfSelectedPagesIsWhatPdftotextReads() throws {
        let path = KitFixtures.path("alpha.pdf")
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: path))
        try editor.move(.pages(5...5), to: .position(1))
        try editor.blank(at: .position(2))
        let texts = try editor.text(of: .pages(1...3))
        try #require(texts.count == 3)
        let page5 = try KitTools.run("pdftotext", ["-f", "5", "-l", "5", path, "-"]).stdout
        #expect(Self.collapsed(texts[0]) == Self.collapsed(page5))
        #expect(texts[0].contains("ALPHA-P5"))
        #expect(texts[1] == "", "a blank page has no text")
        #expect(texts[2].contains("ALPHA-P1"))
        #expect(try editor.text().count == 8)
    }

    @Test func findGivesPositionsIdsAndExcerpts() throws {
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.move(.pages(6...6), to: .position(1))
        let found = try editor.find("alpha-p6")
        #expect(found.map(\.position) == [1])
        #expect(found.first?.id.description == "p6")
        #expect(found.first?.excerpt.contains("ALPHA-P6") == true)
        #expect(try editor.find("alpha-p6", caseSensitive: true).isEmpty)
        #expect(try editor.find("no such words anywhere").isEmpty)
        #expect(throws: PDFEditError.self) { try editor.find("   ") }
    }

    @Test func historyListsStepsOldestFirstWithTheUndoneOnes() throws {
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        #expect(editor.history.isEmpty)
        try editor.remove(.even)
        try editor.rotate(.all, by: 180)
        try editor.undo()
        #expect(editor.history.map(\.label) == ["remove even", "rotate all 180"])
        #expect(editor.history.map(\.isUndone) == [false, true])
    }
}

/// Bookmarks through the library: read, added, renamed, removed and replaced,
/// following their pages; the written outline read back with qpdf's JSON.
@Suite(.enabled(if: KitFixtures.has("features.pdf"), "needs Fixtures/features.pdf"))
struct PageEditorBookmarkTests {
    /// (title, page, depth) of each entry of a written file's outline, by `qpdf --json`.
    static func outline(_ path: String) throws -> [String] {
        let json = try KitTools.run("qpdf", ["--json", "--json-key=outlines", path]).stdout
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        func walk(_ entries: [[String: Any]], _ depth: Int) -> [String] {
            entries.flatMap { entry -> [String] in
                let page = (entry["destpageposfrom1"] as? Int).map(String.init) ?? "-"
                let line = String(repeating: "  ", count: depth) + "\(entry["title"] as? String ?? "?") \(page)"
                return [line] + walk(entry["kids"] as? [[String: Any]] ?? [], depth + 1)
            }
        }
        return walk(top["outlines"] as? [[String: Any]] ?? [], 0)
    }

    @Test func bookmarksFollowTheirPagesAndAreWrittenAsEdited() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("features.pdf")))
        let before = try editor.bookmarks()
        #expect(before.map(\.title) == ["Chapter 1", "Chapter 2", "Appendix"])
        #expect(before[0].children.map(\.position) == [2, 3])
        try editor.move(.page(6), to: .position(1))
        #expect(try editor.bookmarks().last?.position == 1, "the appendix's page moved first")
        try editor.addBookmark("Index", at: .number(2), parent: "Chapter 2")
        try editor.renameBookmark("Chapter 1/Section 1.2", to: "Methods")
        try editor.removeBookmark("Appendix")
        let path = scratch.path("out.pdf")
        try editor.write(to: URL(fileURLWithPath: path))
        #expect(try KitTools.qpdfCheck(path))
        #expect(
            try Self.outline(path) == [
                "Chapter 1 2", "  Section 1.1 3", "  Methods 4", "Chapter 2 5", "  Section 2.1 6", "  Index 2",
            ])
        try editor.undo(3)
        #expect(try editor.bookmarks().map(\.title) == ["Chapter 1", "Chapter 2", "Appendix"])

        try editor.setBookmarks([
            Bookmark(title: "Start", position: 1),
            Bookmark(title: "Part", position: nil, children: [Bookmark(title: "End", position: 6)]),
        ])
        let replaced = scratch.path("replaced.pdf")
        try editor.write(to: URL(fileURLWithPath: replaced))
        #expect(try Self.outline(replaced) == ["Start 1", "Part -", "  End 6"])
        try editor.setBookmarks([])
        #expect(try editor.bookmarks().isEmpty)
    }
}
