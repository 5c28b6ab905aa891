import Foundation
import PDFEditKit
import Testing

/// The kit as a Swift program uses it (`import PDFEditKit` only, no `@testable`):
/// open, edit, undo and redo, export one file and split, list — the outputs
/// checked with qpdf and poppler's tools, run as separate processes.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct KitAPITests {
    /// alpha.pdf's seven pages, by token.
    static let alpha = (1...7).map { "ALPHA-P\($0)" }

    /// The same steps as Examples/ReorderPDF: last page to the front, a quarter
    /// turn of the first, the second removed and the removal undone.
    @Test func openEditUndoExport() throws {
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("session.json"))
        #expect(editor.exists == false)
        #expect(try editor.open([KitFixtures.path("alpha.pdf")]) == [])
        #expect(editor.exists)

        let moved = try editor.move("last", to: .position(.number(1)))
        #expect(moved.pageCount == 7)
        #expect(moved.positions == [1])
        try editor.rotate("1", degrees: 90)
        let removed = try editor.remove("2")
        #expect(removed.pageCount == 6)
        #expect(try editor.undo() == ["remove 2"])

        let listing = try editor.list()
        #expect(listing.document == "alpha")
        #expect(listing.items.map(\.sourcePage) == [7, 1, 2, 3, 4, 5, 6])
        #expect(listing.items.map(\.rotation) == [90, 0, 0, 0, 0, 0, 0])
        #expect(listing.items.map(\.id) == ["p7", "p1", "p2", "p3", "p4", "p5", "p6"])

        let output = scratch.path("out.pdf")
        let result = try editor.export(to: output)
        #expect(result.output == output)
        #expect(result.document == "alpha")
        #expect(result.pageCount == 7)
        #expect(try KitTools.qpdfCheck(output))
        #expect(try KitTools.pageCount(output) == 7)
        #expect(try KitTools.rotation(output, page: 1) == 90)
        #expect(try KitTools.rotation(output, page: 2) == 0)
        #expect(try KitTools.tokens(output) == ["ALPHA-P7"] + Self.alpha.prefix(6))
    }

    @Test func redoReplaysAndTheHistoryIsInTheSession() throws {
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("s.json"))
        try editor.open([KitFixtures.path("alpha.pdf")])
        try editor.remove("1-3")
        try editor.apply(.reverse(.all), label: "reverse all")
        #expect(try editor.undo(2) == ["reverse all", "remove 1-3"])
        #expect(try editor.list().pageCount == 7)
        #expect(try editor.redo() == ["remove 1-3"])
        #expect(try editor.list().items.map(\.sourcePage) == [4, 5, 6, 7])
        let status = try editor.status()
        #expect(status.undoSteps == 1)
        #expect(status.redoSteps == 1)
        #expect(status.current == "alpha")
        #expect(status.sources.map(\.state) == [.ok])
        // A second editor of the same session sees the same state.
        let other = DocumentEditor(sessionPath: scratch.path("s.json"))
        #expect(try other.session().documents.map(\.name) == ["alpha"])
        #expect(try other.list().items.count == 4)
    }

    @Test func insertedFilesJoinTheDocument() throws {
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("s.json"))
        try editor.open([KitFixtures.path("gamma.pdf")])
        let inserted = try editor.insert(
            [KitFixtures.path("beta.pdf"), KitFixtures.path("logo.png")], at: .after(.number(1)))
        #expect(inserted.change.pageCount == 9)
        #expect(inserted.change.positions == Array(2...7))
        #expect(inserted.warnings.isEmpty)
        let listing = try editor.list()
        #expect(listing.items.map(\.kind) == ["page"] + Array(repeating: "page", count: 5) + ["image", "page", "page"])
        #expect(listing.items.map(\.sourcePage) == [1, 1, 2, 3, 4, 5, nil, 2, 3])
        let output = scratch.path("out.pdf")
        try editor.export(to: output)
        #expect(try KitTools.qpdfCheck(output))
        #expect(
            try KitTools.tokens(output)
                == ["GAMMA-P1", "BETA-P1", "BETA-P2", "BETA-P3", "BETA-P4", "BETA-P5", "?", "GAMMA-P2", "GAMMA-P3"])
        #expect(try KitTools.pageCount(output) == 9)
        #expect(try editor.undo() == ["insert \(KitFixtures.path("beta.pdf")) \(KitFixtures.path("logo.png"))"])
        #expect(try editor.list().pageCount == 3)
    }

    @Test func splitExportNamesItsParts() throws {
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("s.json"))
        try editor.open([KitFixtures.path("alpha.pdf")])
        let folder = scratch.path("parts")
        let defaults = try editor.exportSplit(into: folder, grouping: .every(3))
        #expect(
            defaults.map { ($0.output as NSString).lastPathComponent } == ["alpha-1.pdf", "alpha-2.pdf", "alpha-3.pdf"])
        #expect(defaults.map(\.pageCount) == [3, 3, 1])
        #expect(defaults.map(\.first) == [1, 4, 7])
        #expect(defaults.map(\.last) == [3, 6, 7])
        for (part, expected) in zip(defaults, [3, 3, 1]) {
            #expect(try KitTools.qpdfCheck(part.output))
            #expect(try KitTools.pageCount(part.output) == expected)
        }
        #expect(try KitTools.tokens(folder + "/alpha-2.pdf") == ["ALPHA-P4", "ALPHA-P5", "ALPHA-P6"])

        let named = try editor.exportSplit(into: folder, nameTemplate: "{n}_{src}_{srcpage}_{id}", selection: "2,5")
        #expect(named.map { ($0.output as NSString).lastPathComponent } == ["1_alpha_2_p2.pdf", "2_alpha_5_p5.pdf"])
        #expect(try KitTools.tokens(folder + "/2_alpha_5_p5.pdf") == ["ALPHA-P5"])
    }

    @Test func failuresCarryTheCommandLinesMessageAndCode() throws {
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("s.json"))
        do throws(PDFEditError) {
            try editor.remove("1")
            Issue.record("edited without a session")
        } catch {
            #expect(error.exitCode == 66)
            #expect(
                error.description == "\(scratch.path("s.json")): no session here; start one with `pdfedit open FILE...`")
        }
        let input = KitFixtures.path("alpha.pdf")
        try editor.open([input])
        do throws(PDFEditError) {
            try editor.open([input])
            Issue.record("replaced a session without being asked to")
        } catch {
            #expect(error.exitCode == 73)
        }
        #expect(throws: PDFEditError.self) { try editor.move("1..x", to: .position(.last)) }
        do throws(PDFEditError) {
            try editor.rotate("1", degrees: 45)
            Issue.record("turned by 45 degrees")
        } catch {
            #expect(error.exitCode == 64)
        }
        do throws(PDFEditError) {
            try editor.export(to: input, settings: ExportSettings(force: true))
            Issue.record("wrote over a source")
        } catch {
            guard case .outputIsSource = error else { throw error }
            #expect(error.exitCode == 73)
        }
        do throws(PDFEditError) {
            try editor.open([scratch.path("missing.pdf")], replacing: true)
            Issue.record("opened a missing file")
        } catch {
            guard case .engine(let problem) = error else { throw error }
            #expect(problem == .missing(file: scratch.path("missing.pdf")))
            #expect(error.exitCode == 66)
        }
    }

    @Test func exportSettingsReachTheOutput() throws {
        let scratch = try KitScratch()
        let editor = DocumentEditor(sessionPath: scratch.path("s.json"))
        // features.pdf labels its pages i, ii, 1, 2…: pages 2–3 are "ii" and "1".
        try editor.open([KitFixtures.path("features.pdf")])
        var settings = ExportSettings(encryption: OutputEncryption(userPassword: "u", ownerPassword: "o"))
        settings.pageLabels = .renumber
        let output = scratch.path("locked.pdf")
        try editor.export(to: output, selection: "2-3", settings: settings)
        #expect(try KitTools.run("qpdf", ["--check", output]).status == 2)
        #expect(try KitTools.run("qpdf", ["--password=u", "--check", output]).status == 0)
        // Renumbered: one range of decimal labels from 1 (kept, they would be ii, 1).
        let labels = try KitTools.run("qpdf", ["--password=u", "--json", "--json-key=pagelabels", output]).stdout
        let compact = labels.filter { !$0.isWhitespace }
        #expect(compact.contains(#""pagelabels":[{"index":0,"label":{"/S":"/D","/St":1}}]"#), "\(compact)")
        let encrypted = try KitTools.run("pdfinfo", ["-upw", "u", output]).stdout.split(separator: "\n")
            .first { $0.hasPrefix("Encrypted:") }
        #expect(encrypted?.contains("yes (") == true)
        #expect(encrypted?.contains("AES-256") == true)
    }

    @Test func infoDescribesAFileWithoutASession() throws {
        let info = try DocumentEditor.info(of: KitFixtures.path("alpha.pdf"))
        #expect(info.pageCount == 7)
        #expect(info.encrypted == false)
        #expect(info.pages.first?.width == 612)
        #expect(info.pages.first?.height == 792)
    }
}

// MARK: Support

/// The committed fixtures, found from this file: Tests/PDFEditKitTests/<file>.
enum KitFixtures {
    static let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func has(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

/// A scratch folder, removed when the test is done with it.
final class KitScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pdfeditkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// qpdf and poppler-utils, the independent checkers of what the kit writes.
enum KitTools {
    struct Run {
        var status: Int32
        var stdout: String
    }

    /// Runs `/usr/bin/<tool>`; its output goes through a file, so a large one cannot block a pipe.
    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let scratch = try KitScratch()
        let outPath = scratch.path("stdout")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        return Run(status: process.terminationStatus, stdout: try String(contentsOfFile: outPath, encoding: .utf8))
    }

    /// `qpdf --check` finds no error and no warning.
    static func qpdfCheck(_ path: String) throws -> Bool { try run("qpdf", ["--check", path]).status == 0 }

    /// `pdfinfo`'s page count.
    static func pageCount(_ path: String) throws -> Int? {
        let lines = try run("pdfinfo", [path]).stdout.split(separator: "\n")
        let line = lines.first { $0.hasPrefix("Pages:") }
        return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
    }

    /// `pdfinfo -f N -l N`'s rotation of page N.
    static func rotation(_ path: String, page: Int) throws -> Int? {
        let text = try run("pdfinfo", ["-f", "\(page)", "-l", "\(page)", path]).stdout
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Page") && $0.contains("rot:") }),
            let value = line.split(separator: ":").last
        else { return nil }
        return Int(value.trimmingCharacters(in: .whitespaces))
    }

    /// The fixture token (`ALPHA-P3`) of each page, in page order, from
    /// `pdftotext`; "?" for a page without one (a blank, an image), so that
    /// positions are kept.
    static func tokens(_ path: String) throws -> [String] {
        let text = try run("pdftotext", ["-layout", path, "-"]).stdout
        // pdftotext ends every page with a form feed: the piece after the last is no page.
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast()
        return pages.map { page in
            page.split(whereSeparator: { $0.isWhitespace }).first { $0.contains("-P") }.map(String.init) ?? "?"
        }
    }
}
