import Foundation
import PDFEditKit
import Testing

/// What the command line's `info`, `status`, `show`, `thumbs`, `relink
/// --rebase` and `history --script` report, asked of the library: each answer
/// checked against qpdf and poppler's tools, or the PNG decoded by Pillow.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct PageEditorInspectionTests {
    // MARK: info

    /// Page sizes (the visible box), rotations and the page count are pdfinfo's.
    @Test func infoDescribesAFileAsPdfinfoDoes() throws {
        for name in ["sizes.pdf", "rotated.pdf", "alpha.pdf"] {
            let path = KitFixtures.path(name)
            let info = try PageEditor.info(of: URL(fileURLWithPath: path))
            #expect(info.pageCount == (try KitTools.pageCount(path)))
            #expect(info.pages.map(\.number) == Array(1...info.pageCount))
            #expect(info.encrypted == false)
            let boxes = try Self.pdfinfoPages(path)
            #expect(info.pages.map { [$0.width, $0.height] } == boxes.map { [$0.width, $0.height] }, "\(name)")
            #expect(info.pages.map(\.rotation) == boxes.map(\.rotation), "\(name)")
        }
        let alpha = try PageEditor.info(of: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        #expect(alpha.pages.compactMap(\.text).map { $0.contains("ALPHA-P") } == Array(repeating: true, count: 7))
        let quick = try PageEditor.info(of: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")), includeText: false)
        #expect(quick.pages.allSatisfy { $0.text == nil })
    }

    /// An encrypted file needs its password; with it, it is described as encrypted.
    @Test func infoOfAnEncryptedFile() throws {
        let url = URL(fileURLWithPath: KitFixtures.path("encrypted.pdf"))
        #expect(throws: PDFEditError.self) { try PageEditor.info(of: url) }
        let info = try PageEditor.info(of: url, passwords: PasswordBook(general: ["secret"]))
        #expect(info.encrypted)
        #expect(info.pageCount == 2)
        let shown = try KitTools.run("qpdf", ["--password=secret", "--show-encryption", url.path]).stdout
        #expect(shown.contains("R = 6"))
        #expect(info.pages.compactMap(\.text).map { $0.contains("ENC-P") } == [true, true])
    }

    // MARK: status

    /// Undo and redo depths, and a source that changed or vanished on disk.
    @Test func statusFollowsTheHistoryAndTheFiles() throws {
        let scratch = try KitScratch()
        let alpha = scratch.path("alpha.pdf")
        let beta = scratch.path("beta.pdf")
        try FileManager.default.copyItem(atPath: KitFixtures.path("alpha.pdf"), toPath: alpha)
        try FileManager.default.copyItem(atPath: KitFixtures.path("beta.pdf"), toPath: beta)
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: alpha))
        try editor.insert(URL(fileURLWithPath: beta))
        try editor.rotate(.last, by: 90)
        try editor.undo()
        var status = editor.status()
        #expect(status.session == nil)
        #expect(status.current == "alpha")
        #expect(status.documents == 1)
        #expect((status.undoSteps, status.redoSteps) == (1, 1))
        #expect(status.sources.map(\.state) == [.ok, .ok])
        #expect(status.stripped == nil)

        // The first file changes, the second goes.
        try Data("%PDF-1.4 not the same\n".utf8).write(to: URL(fileURLWithPath: alpha))
        try FileManager.default.removeItem(atPath: beta)
        status = editor.status()
        #expect(status.sources.map(\.state) == [.changed, .missing])
        #expect(status.sources.map(\.id) == ["s1", "s2"])
    }

    // MARK: show and thumbs

    /// One sheet of a 7-page document: a PNG Pillow reads, of the size the report
    /// gives, each page's cell inside it; `writeContactSheets` writes the same picture.
    @Test func contactSheetsAsBytesAndAsFiles() throws {
        let scratch = try KitScratch()
        let editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        var options = SheetOptions()
        options.columns = 4
        options.thumbnailSize = 100
        let sheets = try editor.contactSheets(options: options)
        #expect(sheets.count == 1)
        let bytes = try #require(sheets.first)
        let decoded = try Self.pillow(bytes, in: scratch)
        let url = URL(fileURLWithPath: scratch.path("sheet.png"))
        let report = try editor.writeContactSheets(to: url, options: options)
        #expect(report.itemCount == 7)
        #expect(report.sheets.count == 1)
        let sheet = try #require(report.sheets.first)
        #expect((sheet.columns, sheet.rows) == (4, 2))
        #expect(decoded.size == [sheet.width, sheet.height])
        #expect(sheet.items.map(\.position) == Array(1...7))
        #expect(sheet.items.map(\.id) == (1...7).map { "p\($0)" })
        for cell in sheet.items {
            #expect(cell.x >= 0 && cell.y >= 0 && cell.x + cell.width <= sheet.width && cell.y + cell.height <= sheet.height)
            #expect(max(cell.width, cell.height) <= 100)
        }
        #expect(try Data(contentsOf: url) == bytes)

        // More pages than a sheet holds: several sheets, named -1, -2.
        options.perSheet = 3
        #expect(try editor.contactSheets(options: options).count == 3)
        options.force = true
        let split = try editor.writeContactSheets(to: url, pages: .pages(1...4), options: options)
        #expect(split.sheets.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["sheet-1.png", "sheet-2.png"])
        // Not a PNG name: refused before anything is drawn.
        #expect(throws: PDFEditError.self) {
            try editor.writeContactSheets(to: URL(fileURLWithPath: scratch.path("sheet.jpg")))
        }
    }

    /// One PNG per page, turned as the page is: a page turned a quarter is
    /// landscape where the others (Letter) are portrait; the bytes are the files'.
    @Test func thumbnailsAsBytesAndAsFiles() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.rotate(.pages(2...2), by: 90)
        let pictures = try editor.thumbnails(pages: .pages(1...3), size: 120)
        #expect(pictures.count == 3)
        let sizes = try pictures.map { try Self.pillow($0, in: scratch).size }
        #expect(sizes.allSatisfy { max($0[0], $0[1]) == 120 })
        #expect(sizes.map { $0[0] < $0[1] } == [true, false, true])

        let folder = URL(fileURLWithPath: scratch.path("thumbs"))
        let report = try editor.writeThumbnails(into: folder, size: 120)
        #expect(report.files.map { URL(fileURLWithPath: $0.file).lastPathComponent }
            == (1...7).map { "\($0)-p\($0).png" })
        #expect(report.files.prefix(3).map { [$0.width, $0.height] } == sizes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: report.files[1].file)) == pictures[1])
        // Existing files are kept unless forced.
        #expect(throws: PDFEditError.self) { try editor.writeThumbnails(into: folder, size: 120) }
        #expect(try editor.writeThumbnails(into: folder, size: 120, force: true).files.count == 7)
    }

    // MARK: relink --rebase

    /// A new version of the source lost its page 2 and gained a page at the
    /// end: the items follow their pages, page 2's item becomes a placeholder,
    /// and the output (pdftotext) shows the new version's pages.
    @Test func rebaseMapsTheEditorOntoANewVersion() throws {
        let scratch = try KitScratch()
        let old = scratch.path("report.pdf")
        let new = scratch.path("report-v2.pdf")
        try FileManager.default.copyItem(atPath: KitFixtures.path("alpha.pdf"), toPath: old)
        let made = try KitTools.run(
            "qpdf", ["--empty", "--pages", old, "1,3-7", KitFixtures.path("beta.pdf"), "1", "--", new])
        #expect(made.status == 0)
        #expect(try KitTools.tokens(new) == ["ALPHA-P1"] + (3...7).map { "ALPHA-P\($0)" } + ["BETA-P1"])

        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: old))
        try editor.move(.pages(7...7), to: .position(1))
        let report = try editor.rebase("s1", onto: URL(fileURLWithPath: new))
        #expect(report.oldPagesFrom == "file")
        #expect(report.pages["1"] == 1)
        #expect(report.pages["3"] == 2)
        #expect(report.pages["7"] == 6)
        #expect(report.pages["2"] == nil)
        #expect(report.unmapped.map(\.id) == ["p2"])
        #expect(report.unmapped.map(\.position) == [3])
        #expect(report.warnings.count == 1)
        #expect(editor.history.last?.label == "rebase s1 \(new)")

        // Without the placeholder, the export is the new version's pages in the edited order.
        try editor.remove(.pages(3...3))
        let output = try PageEditorTests.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(output))
        #expect(try KitTools.tokens(output) == ["ALPHA-P7", "ALPHA-P1"] + (3...6).map { "ALPHA-P\($0)" })
        #expect(try editor.undo(2).last == "rebase s1 \(new)")
        #expect(editor.status().sources.first.map { URL(fileURLWithPath: $0.path).lastPathComponent } == "report.pdf")

        #expect(throws: PDFEditError.self) { try editor.rebase("s9", onto: URL(fileURLWithPath: new)) }
    }

    // MARK: history --script

    /// Steps labelled as command lines become the script's lines; an id that a
    /// line of the page's text picks alone is written as that text; a step the
    /// given grammar refuses is a comment; steps out of range are refused.
    @Test func historyScriptReplaysTheSteps() throws {
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.apply(.rotate(.pages(2...2), quarterTurns: 1), label: "rotate 2 --by 90")
        try editor.apply(.remove(try PageSelection.parse("@p3")), label: "remove @p3")
        try editor.reverse()
        let commandLine: (String) -> Bool = { $0.hasPrefix("rotate ") || $0.hasPrefix("remove ") }
        let script = try editor.historyScript(isScriptLine: commandLine)
        #expect(script.lines.first == "# pdfedit history --script: 3 steps; replay with pdfedit run or apply")
        #expect(script.lines.contains("rotate 2 --by 90"))
        let removal = try #require(script.lines.first { $0.hasPrefix("remove ") })
        // The words chosen are on page 3 alone (pdftotext, case ignored).
        #expect(removal == "remove \"text:alpha page 3\"")
        let alpha = KitFixtures.path("alpha.pdf")
        let pagesWithIt = try (1...7).filter { page in
            try KitTools.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", alpha, "-"]).stdout.lowercased()
                .split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("alpha page 3")
        }
        #expect(pagesWithIt == [3])
        #expect(script.lines.contains { $0.hasPrefix("# step 3 cannot be a script line") })
        #expect(script.warnings == 0)
        #expect(script.text == script.lines.joined(separator: "\n"))

        let some = try editor.historyScript(steps: 1...1, isScriptLine: commandLine)
        #expect(some.lines == ["# pdfedit history --script: 1 step; replay with pdfedit run or apply", "rotate 2 --by 90"])
        #expect(throws: PDFEditError.self) { try editor.historyScript(steps: 2...5) }
    }

    // MARK: Support

    /// `pdfinfo -f 1 -l N`: each page's size and rotation.
    static func pdfinfoPages(_ path: String) throws -> [(width: Double, height: Double, rotation: Int)] {
        let text = try KitTools.run("pdfinfo", ["-f", "1", "-l", "999", path]).stdout
        var sizes: [(Double, Double)] = []
        var rotations: [Int] = []
        for line in text.split(separator: "\n") where line.hasPrefix("Page ") {
            let words = line.split(separator: " ")
            if line.contains(" size:"), let at = words.firstIndex(of: "size:"), let width = Double(words[at + 1]),
                let height = Double(words[at + 3])
            {
                sizes.append((width, height))
            } else if line.contains(" rot:"), let value = words.last.flatMap({ Int($0) }) {
                rotations.append(value)
            }
        }
        return zip(sizes, rotations).map { ($0.0, $0.1, $1) }
    }

    /// Pillow's reading of PNG bytes: its format and size, after decoding every pixel.
    static func pillow(_ bytes: Data, in scratch: KitScratch) throws -> (format: String, size: [Int]) {
        let path = scratch.path("picture-\(UUID().uuidString).png")
        try bytes.write(to: URL(fileURLWithPath: path))
        let script = "import sys; from PIL import Image; i = Image.open(sys.argv[1]); i.load(); print(i.format, i.size[0], i.size[1])"
        let words = try KitTools.run("python3", ["-c", script, path]).stdout.split(separator: " ")
        #expect(words.first == "PNG")
        return (String(words.first ?? ""), words.dropFirst().compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    }
}
