import Foundation
import Testing

/// Pixels, annotations and fields of a PDF as independent tools read them, for
/// `flatten` and `strip`.
enum Finished {
    /// The mean absolute difference (0…255) between the grey pixels of each page
    /// of two PDFs rendered by `pdftoppm -r 72`; nil for a page whose size differs.
    static func meanDifferences(_ a: String, _ b: String) throws -> [Double?] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func render(_ file: String, _ prefix: String) throws -> [(width: Int, height: Int, pixels: [UInt8])] {
            let root = directory.appendingPathComponent(prefix).path
            #expect(try run("pdftoppm", ["-r", "72", "-gray", file, root]).status == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix(prefix + "-") && $0.hasSuffix(".pgm") }.sorted()
            return try names.map { name in
                Pixels.pgm([UInt8](try Data(contentsOf: directory.appendingPathComponent(name))))
            }
        }
        let left = try render(a, "a")
        let right = try render(b, "b")
        #expect(left.count == right.count)
        return zip(left, right).map { x, y in
            guard x.width == y.width, x.height == y.height, x.pixels.count == y.pixels.count, !x.pixels.isEmpty else {
                return nil
            }
            var total = 0
            for i in x.pixels.indices { total += abs(Int(x.pixels[i]) - Int(y.pixels[i])) }
            return Double(total) / Double(x.pixels.count)
        }
    }

    /// The subtypes (without the slash) of each page's annotations, by qpdf's JSON.
    static func annotations(_ file: String) throws -> [[String]] {
        let json = try run("qpdf", ["--json", "--json-key=qpdf", "--json-key=pages", file]).stdout
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try #require((top["qpdf"] as? [Any])?.last as? [String: Any])
        func resolve(_ value: Any?) -> Any? {
            guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
            let object = objects["obj:" + reference] as? [String: Any]
            return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
        }
        let pages = try #require(top["pages"] as? [[String: Any]])
        return pages.map { page in
            let dictionary = resolve(page["object"]) as? [String: Any]
            let annots = resolve(dictionary?["/Annots"]) as? [Any] ?? []
            return annots.map { ((resolve($0) as? [String: Any])?["/Subtype"] as? String ?? "?").replacing("/", with: "") }
        }
    }

    /// The fully qualified names of the form's fields, by `qpdf --json`; empty without a form.
    static func fields(_ file: String) throws -> [String] {
        let json = try run("qpdf", ["--json", "--json-key=acroform", file]).stdout
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let form = try #require(top["acroform"] as? [String: Any])
        return (form["fields"] as? [[String: Any]] ?? []).compactMap { $0["fullname"] as? String }
    }

    static func checkClean(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try qpdfCheck(file)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
    }

    /// features.pdf with its text field's appearance taken out and another value
    /// put in, made with qpdf's QDF form and fix-qdf: a field a viewer must draw.
    static func formWithoutAppearance(in directory: URL) throws -> String {
        let qdf = directory.appendingPathComponent("features-qdf.pdf").path
        #expect(try run("qpdf", ["--qdf", "--object-streams=disable", Paths.fixture("features.pdf"), qdf]).status == 0)
        var text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        text = text.replacing("/V (Jane Doe)", with: "/V (Zed Quux)")
        let field = try #require(text.range(of: "/T (name)"))
        let start = try #require(text[..<field.lowerBound].range(of: " obj", options: .backwards))
        let end = try #require(text[field.upperBound...].range(of: "endobj"))
        let object = String(text[start.upperBound..<end.lowerBound])
        let without = object.replacing(#/\/AP <<\s*\/N \d+ 0 R\s*>>/#, with: "")
        #expect(without != object)
        text.replaceSubrange(start.upperBound..<end.lowerBound, with: without)
        let edited = directory.appendingPathComponent("edited-qdf.pdf").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: edited))
        let fixed = try run("fix-qdf", [edited])
        let result = directory.appendingPathComponent("no-appearance.pdf").path
        try Data(fixed.stdout.utf8).write(to: URL(fileURLWithPath: result))
        return result
    }
}

/// `pdfedit flatten`: appearance streams become page content, the pages look
/// the same (pdftoppm at 72 dpi: a mean grey difference under 1 of 255 on
/// every page; measured 0.0 to 0.05), and no widget is left where it was asked.
@Suite struct FlattenTests {
    @Test func flattenFormsInASessionThenUndo() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("export", "plain.pdf", in: dir)
        let edit = try pdfeditOK("flatten", "forms", in: dir)
        #expect(edit.stdout.contains("flatten forms on 6 pages"))
        try pdfeditOK("export", "flat.pdf", in: dir)
        let flat = dir.appendingPathComponent("flat.pdf").path
        let plain = dir.appendingPathComponent("plain.pdf").path
        try Finished.checkClean(flat)
        #expect(try Finished.fields(plain) == ["name", "agree"])
        #expect(try Finished.fields(flat) == [])
        #expect(try Finished.annotations(flat).flatMap { $0 }.allSatisfy { $0 == "Link" })
        #expect(try Finished.annotations(flat).map(\.count) == [1, 1, 0, 0, 0, 1])
        #expect(try pageText(flat, 2).contains("Jane Doe"))
        for (page, difference) in try Finished.meanDifferences(plain, flat).enumerated() {
            #expect(difference.map { $0 < 1 } == true, "page \(page + 1): \(String(describing: difference))")
        }
        // One undo step gives back exactly what was there: the same bytes.
        let history = try pdfeditOK("history", in: dir).stdout
        #expect(history.contains("flatten forms"))
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "again.pdf", in: dir)
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("again.pdf"))
                == Data(contentsOf: dir.appendingPathComponent("plain.pdf")))
    }

    @Test func onlyTheSelectedPagesAreFlattened() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "features.pdf", in: dir)
        try pdfeditOK("flatten", "forms", "2", in: dir)
        let list = try pdfeditOK("list", "--json", in: dir).stdout
        #expect(list.contains("flatten forms"))
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        // The checkbox of page 3 is still a working field; the text field of page 2 is drawn.
        #expect(try Finished.fields(out) == ["agree"])
        #expect(try Finished.annotations(out).map(\.count) == [1, 1, 1, 0, 0, 1])
        #expect(try Finished.annotations(out)[2] == ["Widget"])
        #expect(try pageText(out, 2).contains("Jane Doe"))
        // Twice in a row is refused (64) and changes nothing.
        let before = try sessionBytes(dir)
        let again = try pdfedit("flatten", "forms", "2", in: dir)
        #expect(again.status == 64 && again.stderr.hasPrefix("pdfedit: "), "\(again.stderr)")
        #expect(try sessionBytes(dir) == before)
    }

    /// A field without an appearance gets one from its value before it is drawn.
    @Test func aFieldWithoutAnAppearanceIsGeneratedThenFlattened() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Finished.formWithoutAppearance(in: dir)
        try Finished.checkClean(input)
        try pdfeditOK("flatten", "forms", input, "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        #expect(try Finished.fields(out) == [])
        // No field is left for a viewer to draw: the value is in the page's content.
        #expect(try pageText(out, 2).contains("Zed Quux"))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func corpusFormsLookTheSame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["sample-libreoffice-form.pdf", "pdflib-with_update_sections.pdf"] {
            let out = dir.appendingPathComponent("flat-" + name).path
            try pdfeditOK("flatten", "forms", Paths.corpus(name), "-o", out)
            try Finished.checkClean(out)
            #expect(try Finished.fields(out) == [], "\(name)")
            #expect(!(try Finished.annotations(out).flatMap { $0 }.contains("Widget")), "\(name)")
            for difference in try Finished.meanDifferences(Paths.corpus(name), out) {
                #expect(difference.map { $0 < 1 } == true, "\(name): \(String(describing: difference))")
            }
        }
        let filled = dir.appendingPathComponent("flat-sample-libreoffice-form.pdf").path
        #expect(try pageText(filled, 1).contains("Alice"))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func corpusAnnotationsLookTheSame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let comments = Paths.corpus("pdfjs-comments.pdf")
        try pdfeditOK("open", comments, in: dir)
        try pdfeditOK("flatten", "annotations", "1..7", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        let before = try Finished.annotations(comments)
        let after = try Finished.annotations(out)
        #expect(before[0].contains("Highlight") && before[0].contains("Popup"))
        // Pages 1–7 keep only what has no appearance (none here); 8–14 are untouched.
        let firstSeven = after[0..<7].allSatisfy { $0.isEmpty }
        #expect(firstSeven, "\(after)")
        #expect(Array(after[7...]) == Array(before[7...]))
        for (page, difference) in try Finished.meanDifferences(comments, out).enumerated() {
            #expect(difference.map { $0 < 1 } == true, "page \(page + 1): \(String(describing: difference))")
        }
    }

    /// Items flattened in a session and then put on sheets (`nup`) keep what
    /// flattening drew: each sheet looks as the sheet of pages flattened first
    /// (pixel for pixel), the values of fields stay as text, and nothing
    /// flattened is left on the sheet as an annotation.
    @Test func flattenedItemsKeepTheirLookOnASheet() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let features = Paths.fixture("features.pdf")
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        // Flattened first (direct mode), then put on sheets.
        try pdfeditOK("flatten", "forms", features, "-o", path("flat.pdf"))
        try pdfeditOK("nup", "all", "--grid", "2x1", path("flat.pdf"), "-o", path("expected.pdf"))
        // Flattening staged on the items, the items then put on sheets.
        try pdfeditOK("open", features, in: dir)
        try pdfeditOK("flatten", "forms", in: dir)
        try pdfeditOK("nup", "all", "--grid", "2x1", in: dir)
        let exported = try pdfeditOK("export", "sheets.pdf", in: dir)
        #expect(!exported.stderr.contains("form fields cannot go onto a sheet"), "\(exported.stderr)")
        try Finished.checkClean(path("sheets.pdf"))
        #expect(try pageText(path("sheets.pdf"), 1).contains("Jane Doe"))
        #expect(!(try Finished.annotations(path("sheets.pdf")).flatMap { $0 }.contains("Widget")))
        for difference in try Finished.meanDifferences(path("expected.pdf"), path("sheets.pdf")) {
            #expect(difference == 0, "\(String(describing: difference))")
        }
        // Without the flattening the field is left out of the sheet, with a warning.
        try pdfeditOK("undo", "2", in: dir)
        try pdfeditOK("nup", "all", "--grid", "2x1", in: dir)
        let plain = try pdfeditOK("export", "plain.pdf", in: dir)
        #expect(plain.stderr.contains("form fields cannot go onto a sheet"), "\(plain.stderr)")
        #expect(!(try pageText(path("plain.pdf"), 1).contains("Jane Doe")))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func flattenedAnnotationsStayDrawnOnASheet() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let comments = Paths.corpus("pdfjs-comments.pdf")
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try pdfeditOK("flatten", "annotations", "1..4", comments, "-o", path("flat.pdf"))
        try pdfeditOK("nup", "1..6", "--grid", "2x1", path("flat.pdf"), "-o", path("expected.pdf"))
        try pdfeditOK("open", comments, in: dir)
        try pdfeditOK("flatten", "annotations", "1..4", in: dir)
        try pdfeditOK("nup", "1..6", "--grid", "2x1", in: dir)
        try pdfeditOK("export", "sheets.pdf", in: dir)
        try Finished.checkClean(path("sheets.pdf"))
        let sheets = try Finished.annotations(path("sheets.pdf"))
        // Sheets 1 and 2 hold pages 1–4, flattened: nothing of theirs is left as an
        // annotation; sheet 3 holds pages 5–6, whose highlights stay annotations.
        #expect(sheets[0].isEmpty && sheets[1].isEmpty, "\(sheets)")
        #expect(sheets[2].contains("Highlight") || sheets[2].contains("Text"), "\(sheets)")
        let differences = try Finished.meanDifferences(path("expected.pdf"), path("sheets.pdf"))
        for difference in differences.prefix(3) {
            #expect(difference == 0, "\(String(describing: difference))")
        }
    }

    /// Direct mode (-o, --in-place, the selection left out) and `apply` give the
    /// same flattened file; it is a copy, never the input's bytes with an update.
    @Test func directModeAndApply() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Data(contentsOf: dir.appendingPathComponent("features.pdf"))
        try pdfeditOK("flatten", "forms", "features.pdf", "-o", "direct.pdf", in: dir)
        try pdfeditOK("flatten", "forms", "all", "features.pdf", "-o", "direct-all.pdf", in: dir)
        let applied = try pdfeditOK("apply", "-e", "flatten forms", "features.pdf", "-o", "{stem}-applied.pdf", in: dir)
        #expect(applied.stdout.contains("features-applied.pdf"))
        let direct = try Data(contentsOf: dir.appendingPathComponent("direct.pdf"))
        #expect(direct == (try Data(contentsOf: dir.appendingPathComponent("direct-all.pdf"))))
        #expect(direct == (try Data(contentsOf: dir.appendingPathComponent("features-applied.pdf"))))
        #expect(!direct.starts(with: input.prefix(input.count - 64)), "written as an appended update")
        #expect(try Finished.fields(dir.appendingPathComponent("direct.pdf").path) == [])
        try pdfeditOK("flatten", "annotations", "2", "features.pdf", "--in-place", in: dir)
        let inPlace = dir.appendingPathComponent("features.pdf").path
        try Finished.checkClean(inPlace)
        #expect(try Finished.fields(inPlace) == ["agree"])
        #expect(try Finished.annotations(inPlace).map(\.count) == [1, 1, 1, 0, 0, 1])
    }
}
