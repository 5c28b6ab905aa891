import Foundation
import PDFEngine
import Testing

/// What an export keeps beyond page content (forms, outlines, page labels, named
/// destinations, metadata, structure tree, split parts), on the fixtures. Every
/// output is checked with qpdf (`--check`, `--json`), pdfinfo and pdftoppm.
@Suite(.enabled(if: ExportPaths.hasFixture("features.pdf") && ExportPaths.hasFixture("tagged.pdf"), "needs Fixtures/"))
struct FidelityTests {
    static let features = ExportPaths.fixture("features.pdf")
    static let alpha = ExportPaths.fixture("alpha.pdf")
    static let tagged = ExportPaths.fixture("tagged.pdf")

    /// Exports, checks that `qpdf --check` and `qpdf --json` are silent, and reads
    /// the result back with qpdf.
    @discardableResult
    static func export(
        _ sources: [ExportSource], _ items: [ExportItem], to output: String,
        options: ExportOptions = ExportOptions()
    ) throws -> (FidelityJSON, ExportReport) {
        let report = try PDFExporter.write(sources: sources, items: items, options: options, to: output)
        let check = try ExportTools.check(output)
        #expect(check.status == 0, "qpdf --check \(output): \(check.stdout) \(check.stderr)")
        let json = try FidelityJSON(output)
        #expect(json.warnings.isEmpty, "qpdf --json \(output): \(json.warnings)")
        return (json, report)
    }

    static func page(_ index: Int, source: Int = 0, turns: Int = 0) -> ExportItem {
        .page(source: source, index: index, quarterTurns: turns)
    }

    // MARK: Forms

    @Test func fieldsFollowTheirPagesAndDuplicatesGetDistinctNames() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        // p6 p4 p2 p2 p3 blank p1
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features)],
            [Self.page(5), Self.page(3), Self.page(1), Self.page(1), Self.page(2), .blank(width: 612, height: 792),
             Self.page(0)],
            to: output)
        #expect(json.fields.map(\.description).sorted() == ["agree@5", "name@3", "name_2@4"])
        let form = try #require(json.acroform)
        #expect(FidelityJSON.text(form["/DA"]) == "/Helv 0 Tf 0 g")
        let fonts = json.dictionary(json.dictionary(form["/DR"])?["/Font"]) ?? [:]
        #expect(Set(fonts.keys) == ["/Helv", "/ZaDb"])
        #expect(form["/NeedAppearances"] == nil, "features.pdf does not ask for appearances")
        // Each field's widget is on the page qpdf says, and is that page's own object.
        for field in json.fields {
            let page = try #require(field.page)
            let annots = json.resolve(json.dictionary(json.pages[page - 1])?["/Annots"]) as? [String] ?? []
            #expect(annots.contains(field.object), "\(field) is not among its page's annotations")
        }
        // The copied text field keeps its value and appearance.
        let copy = try #require(json.fields.first { $0.name == "name_2" })
        #expect(FidelityJSON.text(json.dictionary(copy.object)?["/V"]) == "Jane Doe")
        #expect(json.dictionary(copy.object)?["/AP"] != nil)
        let first = try RenderedPage(output, page: 3)
        let again = try RenderedPage(output, page: 4)
        let source = try RenderedPage(Self.features, page: 2)
        #expect(first.looksLike(source))
        #expect(again.looksLike(source))
    }

    @Test func fieldsOfPagesNotExportedAreGone() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export([ExportSource(path: Self.features)], [Self.page(0), Self.page(2)], to: output)
        #expect(json.fields.map(\.description) == ["agree@2"])
        let fields = json.resolve(json.acroform?["/Fields"]) as? [String] ?? []
        #expect(fields.count == 1)
        // No text field object is left anywhere in the file.
        let textFields = json.objects(withKey: "/FT").filter { json.dictionary($0)?["/FT"] as? String == "/Tx" }
        #expect(textFields.isEmpty, "orphaned field objects: \(textFields)")
    }

    @Test func noFormWithoutFields() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features), ExportSource(path: Self.alpha)],
            [Self.page(0), Self.page(3, source: 1)], to: output)
        #expect(json.acroform == nil)
        #expect(json.fields.isEmpty)
    }

    @Test func sameSourceTwiceKeepsBothFormsApart() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features, name: "first"), ExportSource(path: Self.features, name: "second")],
            [Self.page(1), Self.page(2), Self.page(1, source: 1), Self.page(2, source: 1)], to: output)
        #expect(json.fields.map(\.description).sorted() == ["agree@2", "agree_2@4", "name@1", "name_2@3"])
        #expect(Set(json.fields.map(\.object)).count == 4)
    }

    // MARK: Outlines

    @Test func outlineFollowsReorderAndRemoval() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features)],
            [Self.page(5), Self.page(3), Self.page(1), Self.page(1), Self.page(2), .blank(width: 100, height: 100),
             Self.page(0)],
            to: output)
        #expect(json.outlines.map(\.shape) == ["Chapter 1→7[Section 1.1→3, Section 1.2→5]", "Chapter 2→2", "Appendix→1"])
        // Destinations are explicit arrays on output pages: no names, no actions.
        for entry in json.allOutlines {
            let dict = try #require(json.dictionary(entry.object))
            #expect(dict["/A"] == nil)
            let dest = try #require(json.resolve(dict["/Dest"]) as? [Any], "\(entry.title) has no explicit /Dest")
            #expect((dest.first as? String).map(json.pages.contains) == true)
        }
        #expect(json.catalog["/Names"] == nil, "named destinations are resolved, not carried")
        #expect(json.catalog["/PageMode"] as? String == "/UseOutlines")
    }

    @Test func entryWithoutItsPageStaysAsHeadingAndKeepsItsState() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features)], [Self.page(0), Self.page(4), Self.page(5)], to: output)
        #expect(json.outlines.map(\.shape) == ["Chapter 1→1", "Chapter 2→-[Section 2.1→2]", "Appendix→3"])
        let chapter2 = json.outlines[1]
        #expect(!chapter2.open, "Chapter 2 was closed in the source")
        let dict = try #require(json.dictionary(chapter2.object))
        #expect(dict["/Dest"] == nil && dict["/A"] == nil)
        #expect(dict["/Count"] as? Int == -1)
        let root = try #require(json.dictionary(json.catalog["/Outlines"]))
        #expect(root["/Count"] as? Int == 3, "three top-level entries, Chapter 2 closed")
    }

    @Test func duplicatedTargetPointsAtFirstCopy() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features)], [Self.page(3), Self.page(4), Self.page(3), Self.page(0)], to: output)
        #expect(json.outlines.map(\.shape) == ["Chapter 1→4", "Chapter 2→1[Section 2.1→2]"])
    }

    @Test func severalSourcesWithOutlinesGetOneEntryEach() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.alpha), ExportSource(path: Self.features, name: "features"),
             ExportSource(path: Self.features)],
            [Self.page(0), Self.page(0, source: 2), Self.page(3, source: 1), Self.page(0, source: 1)], to: output)
        // alpha has no outline: no entry. The third source has no name: its /Title.
        #expect(json.outlines.map(\.shape) == [
            "pdfedit features fixture→2[Chapter 1→2]", "features→3[Chapter 1→4, Chapter 2→3]",
        ])
        #expect(json.outlines.allSatisfy { $0.open })
    }

    @Test func oneContributingSourceIsTheTopLevel() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.alpha, name: "alpha"), ExportSource(path: Self.features, name: "features")],
            [Self.page(0), Self.page(5, source: 1)], to: output)
        #expect(json.outlines.map(\.shape) == ["Appendix→2"])
    }

    @Test func outlineStartsGiveTopLevelTitlesAndFirstItems() throws {
        let source = [ExportSource(path: Self.features)]
        #expect(
            try PDFExporter.outlineStarts(sources: source, items: (0..<6).map { Self.page($0) }) == [
                OutlineStart(title: "Chapter 1", itemIndex: 0), OutlineStart(title: "Chapter 2", itemIndex: 3),
                OutlineStart(title: "Appendix", itemIndex: 5),
            ])
        // Chapter 2 is a heading here: it starts at its first surviving child.
        #expect(
            try PDFExporter.outlineStarts(sources: source, items: [Self.page(5), Self.page(4), Self.page(1)]) == [
                OutlineStart(title: "Chapter 1", itemIndex: 2), OutlineStart(title: "Chapter 2", itemIndex: 1),
                OutlineStart(title: "Appendix", itemIndex: 0),
            ])
        let two = [ExportSource(path: Self.features, name: "one"), ExportSource(path: Self.features, name: "two")]
        #expect(
            try PDFExporter.outlineStarts(
                sources: two, items: [.blank(width: 10, height: 10), Self.page(2, source: 1), Self.page(0)]) == [
                    OutlineStart(title: "two", itemIndex: 1), OutlineStart(title: "one", itemIndex: 2),
                ])
        #expect(try PDFExporter.outlineStarts(sources: [ExportSource(path: Self.alpha)], items: [Self.page(0)]).isEmpty)
    }

    @Test func outlineStartsReportPlanErrors() throws {
        #expect(throws: EngineError.pageOutOfRange(file: Self.features, page: 9, pageCount: 6)) {
            _ = try PDFExporter.outlineStarts(sources: [ExportSource(path: Self.features)], items: [Self.page(8)])
        }
    }

    // MARK: Links

    @Test func namedLinkFollowsItsTarget() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        _ = try Self.export([ExportSource(path: Self.features)], [Self.page(5), Self.page(3), Self.page(5)], to: output)
        let links = try QPDFJSON(output).internalLinks
        // Both copies of p6 link to the one copy of p4, explicitly.
        #expect(links.count == 2)
        let json = try QPDFJSON(output)
        #expect(links.allSatisfy { $0.target as? String == json.pages[1] })
        #expect(Set(links.map(\.annotation)).count == 2)
    }

    // MARK: Page labels

    @Test func labelsKeepTheirSourceLabels() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let sources = [ExportSource(path: Self.alpha), ExportSource(path: Self.features)]
        let items: [ExportItem] = [
            Self.page(2), Self.page(0, source: 1), Self.page(2, source: 1), .blank(width: 100, height: 100),
            Self.page(0), Self.page(1, source: 1), Self.page(1, source: 1),
        ]
        let (keep, _) = try Self.export(sources, items, to: output)
        // alpha has no labels: its page numbers; a blank page continues the page before it.
        #expect(keep.labels == ["3", "i", "1", "2", "1", "ii", "ii"])
        let (renumber, _) = try Self.export(sources, items, to: output, options: ExportOptions(labels: .renumber))
        #expect(renumber.labels == (1...7).map(String.init))
        #expect(renumber.hasPageLabels, "renumber says 1..n explicitly")
        let (none, _) = try Self.export(sources, items, to: output, options: ExportOptions(labels: .none))
        #expect(!none.hasPageLabels)
        #expect(none.catalog["/PageLabels"] == nil)
    }

    @Test func plainNumbersNeedNoLabels() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.alpha)], [.blank(width: 100, height: 100), Self.page(1), Self.page(2)], to: output)
        #expect(json.labels == ["1", "2", "3"])
        #expect(!json.hasPageLabels)
    }

    @Test func labelsRunsAreCompressed() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, _) = try Self.export(
            [ExportSource(path: Self.features)], (0..<6).map { Self.page($0) } + [Self.page(0)], to: output)
        #expect(json.labels == ["i", "ii", "1", "2", "3", "4", "i"])
        let nums = json.dictionary(json.catalog["/PageLabels"])?["/Nums"] as? [Any] ?? []
        #expect(nums.count == 6, "three ranges: \(nums)")
    }

    // MARK: Metadata

    @Test func metadataOfFirstSourceAndTitleOverride() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let sources = [ExportSource(path: Self.alpha), ExportSource(path: Self.features)]
        let (json, _) = try Self.export(sources, [Self.page(0, source: 1), Self.page(0)], to: output)
        #expect(FidelityJSON.text(json.info["/Title"]) == "pdfedit features fixture")
        let title = "Über & <Neu>"
        _ = try Self.export(sources, [Self.page(0, source: 1), Self.page(0)], to: output, options: ExportOptions(title: title))
        let info = try ExportTools.run("pdfinfo", [output])
        #expect(info.stdout.contains("Title:           \(title)"), "\(info.stdout)")
    }

    // MARK: Structure tree

    @Test func structureTreeKeptWhenTheOutputIsExactlyTheTaggedSource() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, report) = try Self.export([ExportSource(path: Self.tagged)], [Self.page(0), Self.page(1, turns: 1)], to: output)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(json.catalog["/StructTreeRoot"] != nil)
        #expect(json.dictionary(json.catalog["/MarkInfo"])?["/Marked"] as? Bool == true)
        #expect(json.pages.map { json.dictionary($0)?["/StructParents"] as? Int } == [0, 1])
        // The tree's pages are the output's pages.
        let elements = json.objects(withKey: "/Pg")
        #expect(!elements.isEmpty)
        for element in elements {
            #expect(json.pages.contains(json.dictionary(element)?["/Pg"] as? String ?? ""), "\(element)")
        }
    }

    @Test func structureTreeFollowsAReorder() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        var copying = ExportOptions()
        copying.appendUpdate = false
        let (json, report) = try Self.export(
            [ExportSource(path: Self.tagged)], [Self.page(1), Self.page(0)], to: output, options: copying)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(json.catalog["/StructTreeRoot"] != nil)
        #expect(json.dictionary(json.catalog["/MarkInfo"])?["/Marked"] as? Bool == true)
        // Copied: fresh numbers in output order; the tree's pages are the output's pages.
        #expect(json.pages.map { json.dictionary($0)?["/StructParents"] as? Int } == [0, 1])
        // Appended (the default for a reorder of a clean source whose page count
        // the caller gives): the pages keep their objects and numbers, the tree
        // is the source's.
        let appended = scratch.path("appended.pdf")
        let (kept, _) = try Self.export(
            [ExportSource(path: Self.tagged, pageCount: 2)], [Self.page(1), Self.page(0)], to: appended)
        #expect(kept.pages.map { kept.dictionary($0)?["/StructParents"] as? Int } == [1, 0])
        let source = try FidelityJSON(Self.tagged)
        #expect(kept.catalog["/StructTreeRoot"] as? String == source.catalog["/StructTreeRoot"] as? String)
        let elements = json.objects(withKey: "/Pg")
        #expect(!elements.isEmpty)
        for element in elements {
            #expect(json.pages.contains(json.dictionary(element)?["/Pg"] as? String ?? ""), "\(element)")
        }
        #expect(try RenderedPage(output, page: 1).looksLike(RenderedPage(Self.tagged, page: 2)))
    }

    @Test func nothingDroppedNoWarning() throws {
        let scratch = try ExportScratch()
        let (_, report) = try Self.export(
            [ExportSource(path: Self.features), ExportSource(path: Self.alpha)],
            [Self.page(2), Self.page(0, source: 1)], to: scratch.path("out.pdf"))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    // MARK: Split parts

    @Test func splitPartsKeepWhatAppliesToTheirPages() throws {
        let scratch = try ExportScratch()
        let paths = (1...3).map { scratch.path("part\($0).pdf") }
        let report = try PDFExporter.writeParts(
            sources: [ExportSource(path: Self.features)], items: (0..<6).map { Self.page($0) },
            parts: [0..<2, 2..<4, 4..<6].enumerated().map { ExportPart(items: $1, path: paths[$0]) })
        #expect(report.warnings.isEmpty)
        var parts: [FidelityJSON] = []
        for path in paths {
            #expect(try ExportTools.check(path).status == 0)
            let json = try FidelityJSON(path)
            #expect(json.warnings.isEmpty)
            parts.append(json)
        }
        #expect(parts.map { $0.fields.map(\.description) } == [["name@2"], ["agree@1"], []])
        #expect(parts.map(\.labels) == [["i", "ii"], ["1", "2"], ["3", "4"]])
        #expect(parts.map { $0.outlines.map(\.shape) } == [
            ["Chapter 1→1[Section 1.1→2]"], ["Chapter 1→-[Section 1.2→1]", "Chapter 2→2"],
            ["Chapter 2→-[Section 2.1→1]", "Appendix→2"],
        ])
        // p6 links to p4, which is in another part: the link is gone.
        #expect(try QPDFJSON(paths[2]).internalLinks.isEmpty)
        #expect(try texts(paths[1]).map { $0.contains("FEAT-P3") } == [true, false])
    }

    @Test func splitPartKeepsLinksWithinIt() throws {
        let scratch = try ExportScratch()
        let paths = [scratch.path("a.pdf"), scratch.path("b.pdf")]
        _ = try PDFExporter.writeParts(
            sources: [ExportSource(path: Self.features)], items: (0..<6).map { Self.page($0) },
            parts: [ExportPart(items: 0..<5, path: paths[0]), ExportPart(items: 3..<6, path: paths[1])])
        let first = try QPDFJSON(paths[0])
        #expect(first.internalLinks.map { $0.target as? String } == [first.pages[4]], "p1 → p5 within the part")
        let second = try QPDFJSON(paths[1])
        #expect(second.internalLinks.map { $0.target as? String } == [second.pages[0]], "p6 → p4 within the part")
    }

    @Test func failedSplitLeavesNoPartBehind() throws {
        let scratch = try ExportScratch()
        let good = scratch.path("good.pdf")
        let bad = scratch.path("missing-dir/bad.pdf")
        do {
            _ = try PDFExporter.writeParts(
                sources: [ExportSource(path: Self.features)], items: [Self.page(0), Self.page(1)],
                parts: [ExportPart(items: 0..<1, path: good), ExportPart(items: 1..<2, path: bad)])
            Issue.record("the split succeeded")
        } catch {
            guard case .cannotWrite(let file, _) = error else {
                Issue.record("expected .cannotWrite, got \(error)")
                return
            }
            #expect(file == bad)
        }
        #expect(!FileManager.default.fileExists(atPath: good))
        #expect(!FileManager.default.fileExists(atPath: bad))
    }

    @Test func splitRefusesABadPlan() throws {
        let scratch = try ExportScratch()
        let items = [Self.page(0), Self.page(1)]
        let source = [ExportSource(path: Self.features)]
        for parts in [
            [ExportPart(items: 0..<3, path: scratch.path("a.pdf"))],
            [ExportPart(items: 0..<1, path: scratch.path("a.pdf")), ExportPart(items: 1..<2, path: scratch.path("a.pdf"))],
            [ExportPart(items: 0..<1, path: Self.features)],
            [],
        ] {
            #expect(throws: EngineError.self) {
                _ = try PDFExporter.writeParts(sources: source, items: items, parts: parts)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    // MARK: Determinism

    @Test func sameInputsGiveIdenticalBytes() throws {
        let scratch = try ExportScratch()
        let sources = [ExportSource(path: Self.features), ExportSource(path: Self.tagged), ExportSource(path: Self.features)]
        let items: [ExportItem] = [
            Self.page(1), Self.page(0, source: 1), Self.page(1), Self.page(5, source: 2), .blank(width: 50, height: 50),
            Self.page(2, source: 2, turns: 1), Self.page(0),
        ]
        let options = ExportOptions(title: "Same")
        _ = try PDFExporter.write(sources: sources, items: items, options: options, to: scratch.path("one.pdf"))
        _ = try PDFExporter.write(sources: sources, items: items, options: options, to: scratch.path("two.pdf"))
        let one = try Data(contentsOf: scratch.url.appendingPathComponent("one.pdf"))
        #expect(!one.isEmpty)
        #expect(one == (try Data(contentsOf: scratch.url.appendingPathComponent("two.pdf"))))
        for name in ["x", "y"] {
            _ = try PDFExporter.writeParts(
                sources: sources, items: items,
                parts: [ExportPart(items: 0..<4, path: scratch.path("\(name)1.pdf")),
                        ExportPart(items: 4..<7, path: scratch.path("\(name)2.pdf"))])
        }
        for part in ["1", "2"] {
            #expect(
                try Data(contentsOf: scratch.url.appendingPathComponent("x\(part).pdf"))
                    == Data(contentsOf: scratch.url.appendingPathComponent("y\(part).pdf")))
        }
    }

    func texts(_ path: String) throws -> [String] {
        let count = try ExportTools.pageCount(path) ?? 0
        return try (0..<count).map { try ExportTools.text(path, page: $0 + 1) }
    }
}
