import Foundation
import PDFEditKit
import Testing

/// Issue 42: the library does what the command line's session does. The edits
/// of PageEditor+Layout.swift, each checked in the written PDF with poppler's
/// and qpdf's tools, and each one undoable step.
@Suite struct PageEditorLayoutTests {
    static let alpha = URL(fileURLWithPath: KitFixtures.path("alpha.pdf"))
    static let beta = URL(fileURLWithPath: KitFixtures.path("beta.pdf"))

    /// `pdfinfo -box`'s numbers for page `page`'s box `box` ("CropBox"), or its
    /// size line's width and height ("size").
    static func box(_ path: String, page: Int, _ box: String) throws -> [Double] {
        let text = try KitTools.run("pdfinfo", ["-box", "-f", "\(page)", "-l", "\(page)", path]).stdout
        guard let line = text.split(separator: "\n").first(where: { $0.contains(" \(box):") }) else { return [] }
        let after = line[line.range(of: "\(box):")!.upperBound...]
        return after.split(whereSeparator: { $0 == " " || $0 == "x" }).compactMap { Double($0) }
    }

    func written(_ editor: PageEditor, _ scratch: KitScratch, _ name: String = "out.pdf") throws -> String {
        let path = try PageEditorTests.file(try editor.data(), in: scratch, name)
        #expect(try KitTools.qpdfCheck(path))
        return path
    }

    @Test func documentsAreMadeRenamedUsedInterleavedAndClosed() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: Self.alpha)
        let beta = try editor.open(Self.beta)
        try editor.newDocument(named: "empty")
        #expect(editor.currentDocument == "empty")
        try editor.renameDocument("empty", to: "spare")
        try editor.closeDocument("spare")
        #expect(editor.documentNames == ["alpha", beta])
        try editor.useDocument("alpha")
        try editor.interleave(with: beta)
        #expect(try editor.pageCount(of: beta) == 0)
        let path = try written(editor, scratch)
        #expect(
            try KitTools.tokens(path).prefix(6) == ["ALPHA-P1", "BETA-P1", "ALPHA-P2", "BETA-P2", "ALPHA-P3", "BETA-P3"])
        #expect(try KitTools.pageCount(path) == 12)
        try editor.undo()
        #expect(try editor.pageCount() == 7 && (try editor.pageCount(of: beta)) == 5)
    }

    @Test func blankPagesAndPadding() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: Self.alpha)
        try editor.blank(at: .position(1), count: 2, size: .a4)
        #expect(try editor.pageCount() == 9)
        try editor.pad(toMultipleOf: 4)
        #expect(try editor.pageCount() == 12)
        try editor.blankAfterEach(.page(3))
        let path = try written(editor, scratch)
        #expect(try KitTools.pageCount(path) == 13)
        let a4 = try Self.box(path, page: 1, "size")
        #expect(a4.count >= 2 && abs(a4[0] - 595.28) < 0.1 && abs(a4[1] - 841.89) < 0.1, "\(a4)")
        // Two blanks, ALPHA-P1, the blank after it, the rest, three pages of padding.
        #expect(try KitTools.tokens(path) == ["?", "?", "ALPHA-P1", "?"] + (2...7).map { "ALPHA-P\($0)" } + ["?", "?", "?"])
        #expect(try KitTools.run("pdftotext", ["-f", "4", "-l", "4", path, "-"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        try editor.undo(3)
        #expect(try editor.pageCount() == 7)
    }

    @Test func cropResizeSplitNUpAndBooklet() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: Self.alpha)
        try editor.crop(.page(1), top: 10, right: 20, bottom: 30, left: 40)
        var path = try written(editor, scratch, "crop.pdf")
        #expect(try Self.box(path, page: 1, "CropBox") == [40, 30, 592, 782])
        try editor.resetCrop(.page(1))
        path = try written(editor, scratch, "reset.pdf")
        #expect(try Self.box(path, page: 1, "CropBox") == [0, 0, 612, 792])

        try editor.resize(.page(2), to: .a4)
        path = try written(editor, scratch, "resize.pdf")
        let size = try Self.box(path, page: 2, "size")
        #expect(size.count >= 2 && abs(size[0] - 595.28) < 0.1, "\(size)")
        #expect(try KitTools.tokens(path)[1] == "ALPHA-P2")

        try editor.splitPages(.page(3), columns: 2, rows: 1)
        #expect(try editor.pageCount() == 8)
        path = try written(editor, scratch, "split.pdf")
        let half = try Self.box(path, page: 3, "CropBox")
        #expect(half.count == 4 && abs((half[2] - half[0]) - 306) < 0.01, "\(half)")

        try editor.nUp(.pages(5...8), columns: 2, rows: 2)
        #expect(try editor.pageCount() == 5)
        // The two halves of page 3 in a booklet: padded to four pages, one
        // sheet printed on both sides.
        try editor.booklet(.pages(3...4))
        #expect(try editor.pageCount() == 5)
        path = try written(editor, scratch, "sheets.pdf")
        #expect(try KitTools.pageCount(path) == 5)
        // The 2x2 sheet is the last page and shows the four pages it holds.
        let sheetText = try KitTools.run("pdftotext", ["-f", "5", "-l", "5", path, "-"]).stdout
        #expect(["ALPHA-P4", "ALPHA-P5", "ALPHA-P6", "ALPHA-P7"].allSatisfy { sheetText.contains($0) }, "\(sheetText)")
        try editor.undo(6)
        #expect(try editor.pageCount() == 7)
    }

    @Test func unstampAndMetadata() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: Self.alpha)
        try editor.number(format: "Seite {n}")
        try editor.setMetadata(title: "Bericht", author: "Ada")
        var path = try written(editor, scratch, "stamped.pdf")
        #expect(try KitTools.run("pdftotext", ["-f", "2", "-l", "2", path, "-"]).stdout.contains("Seite 2"))
        let info = try KitTools.run("pdfinfo", [path]).stdout
        #expect(info.contains("Title:           Bericht") && info.contains("Author:          Ada"), "\(info)")
        try editor.unstamp()
        path = try written(editor, scratch, "unstamped.pdf")
        #expect(!(try KitTools.run("pdftotext", [path, "-"]).stdout.contains("Seite")))
        #expect(try KitTools.run("pdfinfo", [path]).stdout.contains("Bericht"))
    }
}

/// Issue 42: "the library cannot fall behind the tool". `PageEditor.method(for:)`
/// names, in an exhaustive switch over the model's edits, the public method
/// that makes each one (or nil with a reason); each name must be a public
/// method of PageEditor in docs/public-api.txt (the list `make test` holds
/// against the built module).
@Suite struct PageEditorCoverageTests {
    @Test func everyEditHasAPublicMethodOrAReason() throws {
        let root = KitFixtures.folder.deletingLastPathComponent()
        let source = try String(
            contentsOf: root.appendingPathComponent("Sources/PDFEditKit/Library/PageEditor+Layout.swift"), encoding: .utf8)
        let api = try String(contentsOf: root.appendingPathComponent("docs/public-api.txt"), encoding: .utf8)
        let switchText = String(source[source.range(of: "package static func method(for edit: Edit)")!.lowerBound...])
        let cases = switchText.split(separator: "\n").compactMap { line -> (String, String?)? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("case ."), let colon = text.firstIndex(of: ":") else { return nil }
            let name = String(text[text.index(text.startIndex, offsetBy: 6)..<colon])
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return (name, value == "nil" ? nil : value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        #expect(cases.count >= 29, "\(cases.count) edits read")
        for (edit, method) in cases {
            guard let method else { continue }
            #expect(api.contains("  method  PageEditor.\(method)  "), "Edit.\(edit): PageEditor.\(method) is not public")
        }
        // Every edit has one (relink's came with `PageEditor.relink(_:to:force:)`).
        #expect(cases.filter { $0.1 == nil }.map(\.0).sorted() == [])
    }

    @Test func stampBatesAndLabels() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: PageEditorLayoutTests.alpha)
        try editor.stamp(.page(1), with: PageEditorLayoutTests.beta, page: 2)
        try editor.bates(.all, prefix: "SMITH-", start: 1201, digits: 5)
        try editor.setPageLabels([LabelSpec(position: 1, style: .lowerRoman), LabelSpec(position: 3, style: .decimal)])
        let path = try PageEditorTests.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(path))
        let first = try KitTools.run("pdftotext", ["-f", "1", "-l", "1", path, "-"]).stdout
        #expect(first.contains("ALPHA-P1") && first.contains("BETA-P2") && first.contains("SMITH-01201"), "\(first)")
        #expect(try KitTools.run("pdftotext", ["-f", "7", "-l", "7", path, "-"]).stdout.contains("SMITH-01207"))
        let json = try KitTools.run("qpdf", ["--json", "--json-key=pagelabels", path]).stdout
        #expect(json.contains("\"/S\": \"/r\"") && json.contains("\"/S\": \"/D\""), "\(json.prefix(400))")
        #expect(throws: PDFEditError.self) { try editor.bates(digits: 0) }
        try editor.setPageLabels(nil)
        #expect(try editor.undo(4) == ["labels --clear", "labels 1:r 3:D", "bates all", "stamp 1 beta.pdf"])
    }

    /// Issue 44: text in any language, in a font of the caller's, from Swift.
    @Test func unicodeTextAndFontsFromTheLibrary() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: PageEditorLayoutTests.alpha)
        try editor.number(.all, format: "Strona {n} — źdźbło")
        try editor.watermark(.page(2), text: "Καλημέρα", angle: 0, font: "DejaVu Serif:bold")
        try editor.bates(.page(3), prefix: "Nr-", font: "times")
        let path = try PageEditorTests.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(path))
        let second = try KitTools.run("pdftotext", ["-f", "2", "-l", "2", path, "-"]).stdout
        #expect(second.contains("Strona 2 — źdźbło") && second.contains("Καλημέρα"), "\(second)")
        let fonts = try KitTools.run("pdffonts", [path]).stdout
        #expect(fonts.contains("+DejaVuSans ") && fonts.contains("+DejaVuSerif-Bold ") && fonts.contains("Times-Roman"), "\(fonts)")
        #expect(throws: PDFEditError.self) { try editor.number(font: "No Such Font Anywhere") }
        #expect(try editor.undo(3) == ["bates 3", "watermark 2", "number all"])
    }

    /// Issue 44: sizes relative to the page and colours as typed values, from Swift.
    @Test func relativeSizesAndColoursFromTheLibrary() throws {
        let scratch = try KitScratch()
        var editor = try PageEditor(contentsOf: PageEditorLayoutTests.alpha)
        let red = try #require(TextColor("red"))
        #expect(TextColor(red: 1, green: 0, blue: 0) == red && TextColor(cyan: 0, magenta: 1, yellow: 1, black: 2) == nil)
        try editor.number(.all, format: "No{n}", size: .percent(2), margin: .percent(3), color: red)
        let path = try PageEditorTests.file(try editor.data(), in: scratch)
        #expect(try KitTools.qpdfCheck(path))
        // alpha.pdf is Letter: 2% of 612 pt is 12.24 pt.
        let xml = try KitTools.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", path, "-"]).stdout
        let word = try #require(xml.range(of: #"yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">No1</word>"#, options: .regularExpression))
        let numbers = xml[word].split(separator: "\"").compactMap { Double($0) }
        #expect(numbers.count == 3 && abs((numbers[2] - numbers[0]) / 12.24 - 0.925) < 0.01, "\(xml[word])")
        #expect(throws: PDFEditError.self) { try editor.number(size: .percent(80)) }
        #expect(throws: PDFEditError.self) { try editor.bates(margin: -1) }
    }
}

/// `merge` and `split` from Swift: the same files the command writes.
@Suite struct PageEditorMergeSplitTests {
    @Test func mergeAndWriteParts() throws {
        let scratch = try KitScratch()
        let merged = try PageEditor.merge([PageEditorLayoutTests.alpha, PageEditorLayoutTests.beta])
        let path = try PageEditorTests.file(merged, in: scratch, "merged.pdf")
        #expect(try KitTools.qpdfCheck(path))
        #expect(try KitTools.tokens(path) == (1...7).map { "ALPHA-P\($0)" } + (1...5).map { "BETA-P\($0)" })

        let editor = try PageEditor(contentsOf: URL(fileURLWithPath: path))
        let folder = URL(fileURLWithPath: scratch.path("parts"))
        let parts = try editor.writeParts(into: folder, grouping: .every(5), name: "part-{n}.pdf")
        #expect(parts.map(\.pageCount) == [5, 5, 2])
        let last = folder.appendingPathComponent("part-3.pdf").path
        #expect(try KitTools.qpdfCheck(last))
        #expect(try KitTools.tokens(last) == ["BETA-P4", "BETA-P5"])
        #expect(throws: PDFEditError.self) { try PageEditor.merge([]) }
    }
}
