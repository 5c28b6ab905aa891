import Foundation
import Testing

/// The lossless corpus sweep (issue 15): every file of `../shared/corpus` that opens
/// keeps its document-level parts through `reverse all` in direct mode, and a
/// session export of two sources keeps the union of theirs. The parts are counted
/// by an independent reader, `qpdf --json=2`, once per file and side.
///
/// The structure tree of each tagged file is walked by TaggedChecks.swift: the same
/// elements in the same order after `reverse all`, every MCID and numbered annotation
/// that resolved in the source resolving in the output, also after `remove 1`.
@Suite struct LosslessCorpusSweepTests {
    /// Every corpus file that opens, with the password MANIFEST.tsv gives for it.
    static func openable() -> [CorpusEntry] {
        CorpusEntry.load().filter { $0.pages != nil && !$0.features.contains("page-tree-loop") }
    }

    @Test("the sweep covers every corpus file that opens", .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone): the lossless sweep needs it"))
    func sweepCoversTheCorpus() {
        #expect(CorpusEntry.load().count == 39)
        #expect(Self.openable().count == 34)
    }

    @Test(
        "reverse all keeps every document-level part of a corpus file",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone): the lossless sweep needs it"),
        arguments: openable())
    func reverseAllKeepsParts(_ entry: CorpusEntry) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let password = entry.userPassword.map { ["--password", $0] } ?? []
        try pdfeditOK(args: ["reverse", "all", entry.path, "-o", "out.pdf"] + password, in: dir)
        let source = try DocumentParts(entry.path, password: entry.userPassword)
        let output = try DocumentParts(dir.appendingPathComponent("out.pdf").path, password: entry.userPassword)
        #expect(output.pages == source.pages)
        #expect(output.layers == source.layers)
        #expect(output.offLayers == source.offLayers)
        #expect(output.embeddedFiles == source.embeddedFiles)
        #expect(output.catalogAssociatedFiles == source.catalogAssociatedFiles)
        #expect(output.outputIntents == source.outputIntents)
        #expect(output.outlineEntries == source.outlineEntries)
        #expect(output.fields == source.fields)
        #expect(output.hasPageLabels == source.hasPageLabels)
        #expect(output.language == source.language)
        #expect(output.encryption == source.encryption)
    }

    /// The tagged corpus files (MANIFEST.tsv says "tagged").
    static func tagged() -> [CorpusEntry] { openable().filter { $0.features.contains("tagged") } }

    @Test(
        "the structure tree of a tagged corpus file follows reverse all and remove 1",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone): the lossless sweep needs it"),
        arguments: tagged())
    func structureFollowsThePages(_ entry: CorpusEntry) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let password = entry.userPassword.map { ["--password", $0] } ?? []
        let source = try TaggedStructure(entry.path)
        #expect(source.hasTree && source.elements > 0)
        try pdfeditOK(args: ["reverse", "all", entry.path, "-o", "out.pdf"] + password, in: dir)
        let reversed = try TaggedStructure(dir.appendingPathComponent("out.pdf").path)
        #expect(reversed.elementTypes == source.elementTypes)
        #expect(reversed.roleMap == source.roleMap)
        #expect(reversed.marked == source.marked)
        // Appended (a clean, unencrypted source): the source's tree as it is, its
        // defects too; copied: checked and repaired on the way.
        let appended = try Data(contentsOf: dir.appendingPathComponent("out.pdf")).starts(with: Data(contentsOf: URL(fileURLWithPath: entry.path)))
        if appended {
            #expect(reversed.strayElements == source.strayElements)
            #expect(Set(reversed.problems) == Set(source.problems))
            #expect(reversed.pageObjects == reversed.pages.count, "orphan page objects")
        } else {
            Self.expectResolves(reversed, like: source)
        }
        #expect(reversed.resolvedMCIDs == source.resolvedMCIDs)
        #expect(reversed.resolvedAnnotations == source.resolvedAnnotations)
        guard (entry.pages ?? 0) > 1 else { return }
        try pdfeditOK(args: ["remove", "1", entry.path, "-o", "removed.pdf"] + password, in: dir)
        let removed = try TaggedStructure(dir.appendingPathComponent("removed.pdf").path)
        #expect(removed.hasTree)
        #expect(removed.elements <= source.elements)
        Self.expectResolves(removed, like: source)
    }

    @Test(
        "a session export of two tagged corpus files keeps the sum of their elements under one root",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone): the lossless sweep needs it"))
    func mixedTaggedSourcesKeepBothTrees() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // PDF/A-3B + PDF/UA-1 with a role map; PDF 2.0.
        let first = Paths.corpus("ocrmypdf-tagged.pdf")
        let second = Paths.corpus("pdfjs-bug2009627.pdf")
        try pdfeditOK("open", first, in: dir)
        try pdfeditOK("insert", second, in: dir)
        let export = try pdfeditOK("export", "out.pdf", in: dir)
        #expect(!export.stderr.contains("structure tree"), "\(export.stderr)")
        let sources = try [TaggedStructure(first), TaggedStructure(second)]
        let output = try TaggedStructure(dir.appendingPathComponent("out.pdf").path)
        #expect(output.elementTypes.count == sources.map(\.elements).reduce(0, +))
        #expect(output.topLevel == sources.flatMap(\.topLevel))
        #expect(output.resolvedMCIDs == sources.map(\.resolvedMCIDs).reduce(0, +))
        #expect(output.resolvedAnnotations == sources.map(\.resolvedAnnotations).reduce(0, +))
        #expect(output.roleMap.count >= sources.map(\.roleMap.count).max() ?? 0)
        Self.expectResolves(output, like: sources[0])
    }

    /// No reference of the output's tree leaves its pages, no orphan page object, and
    /// every MCID and numbered annotation resolves unless the source's did not either.
    static func expectResolves(_ output: TaggedStructure, like source: TaggedStructure, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.pageObjects == output.pages.count, "orphan page objects", sourceLocation: sourceLocation)
        #expect(output.strayElements == 0, "elements outside the tree", sourceLocation: sourceLocation)
        #expect(output.problems.filter { !$0.contains("resolve") && !$0.contains("parent-tree entry") } == [], sourceLocation: sourceLocation)
        if source.resolvedMCIDs == source.contentMCIDs {
            #expect(output.resolvedMCIDs == output.contentMCIDs, "\(output.problems.prefix(5))", sourceLocation: sourceLocation)
        }
        if source.resolvedAnnotations == source.numberedAnnotations {
            #expect(output.resolvedAnnotations == output.numberedAnnotations, "\(output.problems.prefix(5))", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "a session export of two corpus files keeps the sum of their layers, attachments and /AF",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone): the lossless sweep needs it"))
    func mixedSourcesKeepTheUnion() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A layer, and three attachments with two catalog /AF entries.
        let first = Paths.corpus("pypdf-example.pdf")
        let second = Paths.corpus("pdfjs-bug2009627.pdf")
        try pdfeditOK("open", first, in: dir)
        try pdfeditOK("insert", second, in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let sources = try [DocumentParts(first, password: nil), DocumentParts(second, password: nil)]
        let output = try DocumentParts(dir.appendingPathComponent("out.pdf").path, password: nil)
        #expect(sources.map(\.layers) == [1, 0])
        #expect(sources.map(\.embeddedFiles) == [0, 3])
        #expect(output.pages == sources.map(\.pages).reduce(0, +))
        #expect(output.layers == sources.map(\.layers).reduce(0, +))
        #expect(output.offLayers == sources.map(\.offLayers).reduce(0, +))
        #expect(output.embeddedFiles == sources.map(\.embeddedFiles).reduce(0, +))
        #expect(output.catalogAssociatedFiles == sources.map(\.catalogAssociatedFiles).reduce(0, +))
        // poppler lists the attachments of the name tree and of file attachment annotations.
        let listed = try [first, second].map { try pdfdetachCount($0) ?? -1 }
        #expect(listed == [1, 3])
        #expect(try pdfdetachCount(dir.appendingPathComponent("out.pdf").path) == listed.reduce(0, +))
    }

    // MARK: The losses the sweep found, on generated files

    @Test("plain 1..n page labels of a source are still written: /PageLabels iff the source had it")
    func plainPageLabelsStay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writePDF(dir, "plain.pdf", catalog: "/PageLabels << /Nums [0 << /S /D >>] >>", extra: [])
        try pdfeditOK("reverse", "all", "plain.pdf", "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try DocumentParts(out, password: nil).hasPageLabels)
        // Reversed, each page keeps its label: 2, 1.
        let ranges = try run("qpdf", ["--json", "--json-key=pagelabels", out]).stdout
        let json = try JSONSerialization.jsonObject(with: Data(ranges.utf8)) as? [String: Any]
        let starts = (json?["pagelabels"] as? [[String: Any]] ?? []).map { ($0["label"] as? [String: Any])?["/St"] as? Int ?? 1 }
        #expect(starts == [2, 1], "\(ranges)")
        try pdfeditOK("open", "plain.pdf", in: dir)
        try pdfeditOK("export", "none.pdf", "--labels", "none", in: dir)
        #expect(try DocumentParts(dir.appendingPathComponent("none.pdf").path, password: nil).hasPageLabels == false)
    }

    @Test("bookmarks that never had a target page are kept as headings beside the entries with a kept target")
    func targetlessBookmarksStay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5: to page 1 (object 3); 6: a GoTo to a null page; 7: no destination at all.
        try Self.writePDF(
            dir, "marks.pdf", catalog: "/Outlines 8 0 R",
            extra: [
                "<< /Title (to page 1) /Parent 8 0 R /Next 6 0 R /Dest [3 0 R /Fit] >>",
                "<< /Title (nowhere) /Parent 8 0 R /Prev 5 0 R /Next 7 0 R /A << /S /GoTo /D [null /FitH 796] >> >>",
                "<< /Title (heading) /Parent 8 0 R /Prev 6 0 R >>",
                "<< /Type /Outlines /First 5 0 R /Last 7 0 R /Count 3 >>",
            ])
        try pdfeditOK("reverse", "all", "marks.pdf", "-o", "out.pdf", in: dir)
        #expect(try Self.outlineTitles(dir.appendingPathComponent("out.pdf").path) == ["to page 1→2", "nowhere→-", "heading→-"])
        // Without its page 1 the source targets no kept page: the entry that went
        // there goes, the headings stay (issue 40, item 31: an outline of
        // headings only is written, as the README says headings stay).
        try pdfeditOK("remove", "1", "marks.pdf", "-o", "removed.pdf", in: dir)
        #expect(try Self.outlineTitles(dir.appendingPathComponent("removed.pdf").path) == ["nowhere→-", "heading→-"])
        try pdfeditOK("remove", "2", "marks.pdf", "-o", "kept.pdf", in: dir)
        #expect(try Self.outlineTitles(dir.appendingPathComponent("kept.pdf").path) == ["to page 1→1", "nowhere→-", "heading→-"])
    }

    /// A two-page PDF (objects 1-4) with `catalog` added to its catalog and `extra`
    /// as objects 5, 6, …; qpdf writes its cross-reference table.
    static func writePDF(_ dir: URL, _ name: String, catalog: String, extra: [String]) throws {
        let page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"
        let objects = ["<< /Type /Catalog /Pages 2 0 R \(catalog) >>", "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>", page, page] + extra
        var text = "%PDF-1.7\n"
        for (index, object) in objects.enumerated() { text += "\(index + 1) 0 obj\n\(object)\nendobj\n" }
        text += "trailer\n<< /Root 1 0 R /Size \(objects.count + 1) >>\n%%EOF\n"
        let raw = dir.appendingPathComponent("raw-\(name)")
        try Data(text.utf8).write(to: raw)
        let rebuilt = try run("qpdf", [raw.path, dir.appendingPathComponent(name).path])
        #expect(rebuilt.status == 0 || rebuilt.status == 3, "\(rebuilt.stderr)")
    }

    /// Top-level bookmarks as "title→page" ("-" without a target page), per `qpdf --json`.
    static func outlineTitles(_ file: String) throws -> [String] {
        let result = try run("qpdf", ["--json=2", "--json-key=outlines", file])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (json?["outlines"] as? [[String: Any]] ?? []).map { entry in
            "\(entry["title"] as? String ?? "?")→\((entry["destpageposfrom1"] as? Int).map(String.init) ?? "-")"
        }
    }

    /// The number of attachments `pdfdetach -list` reports (poppler, a second reader).
    func pdfdetachCount(_ file: String) throws -> Int? {
        let listing = try run("pdfdetach", ["-list", file]).stdout
        guard let first = listing.split(separator: "\n").first else { return nil }
        return Int(first.split(separator: " ").first ?? "")
    }
}

/// The document-level parts of a PDF as `qpdf --json=2` shows them.
struct DocumentParts {
    var pages = 0
    var layers = 0
    /// Groups off by default (/OCProperties /D: /OFF, or /BaseState /OFF less /ON).
    var offLayers = 0
    /// Names in the /EmbeddedFiles name tree.
    var embeddedFiles = 0
    var catalogAssociatedFiles = 0
    var outputIntents = 0
    /// Every item reached from /Outlines through /First and /Next.
    var outlineEntries = 0
    /// Every dictionary reached from /AcroForm /Fields through /Kids.
    var fields = 0
    var hasPageLabels = false
    var language: String?
    /// qpdf's encryption method, "none" when not encrypted.
    var encryption = "none"

    /// The objects of qpdf's JSON, keyed "obj:N G R" and "trailer".
    private var objects: [String: Any] = [:]

    init(_ file: String, password: String?) throws {
        let arguments = ["--json=2", "--json-key=qpdf", "--json-key=pages", "--json-key=encrypt", "--password=\(password ?? "")", file]
        let result = try run("qpdf", arguments)
        guard result.status == 0 || result.status == 3,
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let qpdf = json["qpdf"] as? [Any], qpdf.count == 2, let table = qpdf[1] as? [String: Any]
        else {
            throw QPDFJSONUnreadable(file: file, status: result.status, stderr: result.stderr)
        }
        self.objects = table
        pages = (json["pages"] as? [Any])?.count ?? 0
        if let encrypt = json["encrypt"] as? [String: Any], encrypt["encrypted"] as? Bool == true {
            encryption = (encrypt["parameters"] as? [String: Any])?["method"] as? String ?? "unknown"
        }
        let trailer = (table["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let root = dictionary(trailer?["/Root"]) ?? [:]
        let optionalContent = dictionary(root["/OCProperties"])
        let groups = references(optionalContent?["/OCGs"])
        layers = groups.count
        let defaults = dictionary(optionalContent?["/D"])
        if defaults?["/BaseState"] as? String == "/OFF" {
            let on = Set(references(defaults?["/ON"]))
            offLayers = groups.filter { !on.contains($0) }.count
        } else {
            let off = Set(references(defaults?["/OFF"]))
            offLayers = groups.filter { off.contains($0) }.count
        }
        var seen = Set<String>()
        embeddedFiles = nameTreeCount(dictionary(root["/Names"])?["/EmbeddedFiles"], seen: &seen)
        catalogAssociatedFiles = array(root["/AF"]).count
        outputIntents = array(root["/OutputIntents"]).count
        outlineEntries = outlineCount(dictionary(root["/Outlines"])?["/First"], seen: &seen)
        fields = fieldCount(array(dictionary(root["/AcroForm"])?["/Fields"]), seen: &seen)
        hasPageLabels = root["/PageLabels"] != nil
        language = resolve(root["/Lang"]) as? String
    }

    /// An object with its reference followed (a stream gives its dictionary).
    private func resolve(_ value: Any?) -> Any? {
        guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
        let object = objects["obj:\(reference)"] as? [String: Any]
        return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
    }

    private func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }
    private func array(_ value: Any?) -> [Any] { resolve(value) as? [Any] ?? [] }
    /// The entries of an array as comparable strings (references stay "N G R").
    private func references(_ value: Any?) -> [String] { array(value).map { "\($0)" } }

    private func nameTreeCount(_ node: Any?, seen: inout Set<String>) -> Int {
        if let reference = node as? String, !seen.insert(reference).inserted { return 0 }
        guard let node = dictionary(node) else { return 0 }
        var count = array(node["/Names"]).count / 2
        for kid in array(node["/Kids"]) { count += nameTreeCount(kid, seen: &seen) }
        return count
    }

    private func outlineCount(_ first: Any?, seen: inout Set<String>) -> Int {
        var count = 0
        var item = first
        while let reference = item as? String, seen.insert(reference).inserted, let entry = dictionary(reference) {
            count += 1 + outlineCount(entry["/First"], seen: &seen)
            item = entry["/Next"]
        }
        return count
    }

    private func fieldCount(_ fields: [Any], seen: inout Set<String>) -> Int {
        var count = 0
        for field in fields {
            if let reference = field as? String, !seen.insert(reference).inserted { continue }
            guard let entry = dictionary(field) else { continue }
            count += 1 + fieldCount(array(entry["/Kids"]), seen: &seen)
        }
        return count
    }
}

/// qpdf could not give JSON for a file the sweep expected it to read.
struct QPDFJSONUnreadable: Error, CustomStringConvertible {
    var file: String
    var status: Int32
    var stderr: String
    var description: String { "qpdf --json=2 \(file): exit \(status) \(stderr)" }
}
