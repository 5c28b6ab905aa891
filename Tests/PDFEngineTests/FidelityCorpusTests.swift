import Foundation
import PDFEngine
import Testing

/// Export fidelity on real PDFs of `../shared/corpus` (forms, outlines, labels,
/// named destinations, optional content, attachments, tagged files), mixed,
/// reordered, duplicated and cut, checked with qpdf, pdfinfo and pdftoppm.
@Suite(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: ExportTests.corpusMissing)))
struct FidelityCorpusTests {
    static func file(_ name: String) -> String { ExportPaths.corpusFile(name) }

    static func page(_ index: Int, source: Int = 0) -> ExportItem { .page(source: source, index: index) }

    /// The 1-based source page of each item of source `source` (nil for others).
    static func sourcePages(_ items: [ExportItem], source: Int) -> [Int?] {
        items.map {
            if case .page(let s, let index, _, _, _) = $0, s == source { return index + 1 }
            return nil
        }
    }

    // MARK: Forms

    @Test func formsOfSeveralSourcesMerged() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let names = [
            "sample-libreoffice-form.pdf", "pdflib-with_update_sections.pdf", "pdfjs-secHandler.pdf",
        ]
        let sources = names.map { ExportSource(path: Self.file($0)) } + [
            ExportSource(path: ExportPaths.fixture("features.pdf")),
        ]
        let items = [Self.page(0), Self.page(0, source: 1), Self.page(0, source: 2), Self.page(0), Self.page(1, source: 3)]
        let (json, report) = try FidelityTests.export(sources, items, to: output)
        // The owner-only source is used with a warning, and its fields come along.
        #expect(report.warnings.contains { $0.file == sources[2].path && $0.message.contains("permissions") })
        var perPage: [Int: [FidelityJSON.Field]] = [:]
        for field in json.fields { perPage[field.page ?? 0, default: []].append(field) }
        #expect(perPage.mapValues(\.count) == [1: 9, 2: 12, 3: 2, 4: 9, 5: 1])
        // Each source's field names as qpdf reads them from the source.
        let sourceNames = try sources.map { try FidelityJSON($0.path).fields.map(\.name).sorted() }
        #expect(perPage[1]?.map(\.name).sorted() == sourceNames[0])
        #expect(perPage[2]?.map(\.name).sorted() == sourceNames[1])
        #expect(perPage[3]?.map(\.name).sorted() == sourceNames[2])
        // The second copy of the LibreOffice form has names of its own.
        let again = Set(perPage[4]?.map(\.name) ?? [])
        #expect(again.isDisjoint(with: Set(perPage[1]?.map(\.name) ?? [])), "\(again)")
        #expect(again.count == Set(sourceNames[0]).count)
        #expect(json.acroform?["/NeedAppearances"] as? Bool == true, "the LibreOffice form asks for appearances")
        let check = try ExportTools.run("qpdf", ["--json", "--json-key=acroform", output])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        for (position, sourcePath, sourcePage) in [(1, sources[0].path, 1), (2, sources[1].path, 1), (4, sources[0].path, 1)] {
            #expect(try RenderedPage(output, page: position).looksLike(RenderedPage(sourcePath, page: sourcePage)))
        }
    }

    // MARK: Outlines, labels, named destinations

    @Test func bookOutlineLabelsAndLinksFollowACut() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let path = Self.file("tbt-TeXbyTopic.pdf")
        let source = try FidelityJSON(path)
        // Chapters moved around, some pages twice, most removed.
        let indices = Array(60..<90) + Array(0..<12) + [70, 71] + Array(200..<230) + [5]
        let items = indices.map { Self.page($0) }
        let (json, _) = try FidelityTests.export([ExportSource(path: path)], items, to: output)
        let expected = ExpectedOutline.pruned(
            source.outlines, firstPosition: ExpectedOutline.firstPositions(Self.sourcePages(items, source: 0)))
        #expect(json.outlines.map(\.shape) == expected.map(\.shape))
        #expect(json.allOutlines.count > 20)
        #expect(json.labels == indices.map { source.labels[$0] })
        let links = try QPDFJSON(output).internalLinks
        #expect(links.count > 50)
        #expect(links.allSatisfy { ($0.target as? String).map(json.pages.contains) == true })
        for position in [1, 31, 75] {
            #expect(
                try RenderedPage(output, page: position).looksLike(RenderedPage(path, page: indices[position - 1] + 1)),
                "page \(position)")
        }
    }

    @Test func twoPdfTeXSourcesKeepTheirOwnDestinations() throws {
        // Both made by pdfTeX, with named destinations of the same kind: resolved
        // per source, they cannot collide.
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let paths = [Self.file("sample-pdflatex-outline.pdf"), Self.file("tbt-TeXbyTopic.pdf")]
        let items = [Self.page(2), Self.page(30, source: 1), Self.page(0), Self.page(31, source: 1), Self.page(1)]
        let (json, _) = try FidelityTests.export(
            paths.enumerated().map { ExportSource(path: $1, name: "doc\($0)") }, items, to: output)
        #expect(json.outlines.map(\.title) == ["doc0", "doc1"])
        #expect(json.outlines.map(\.page) == [1, 2])
        for (index, path) in paths.enumerated() {
            let expected = ExpectedOutline.pruned(
                try FidelityJSON(path).outlines,
                firstPosition: ExpectedOutline.firstPositions(Self.sourcePages(items, source: index)))
            #expect(json.outlines[index].kids.map(\.shape) == expected.map(\.shape))
        }
        #expect(json.catalog["/Names"] == nil)
        let links = try QPDFJSON(output).internalLinks
        #expect(!links.isEmpty)
        #expect(links.allSatisfy { ($0.target as? String).map(json.pages.contains) == true })
    }

    @Test func sameNamedDestinationsInTwoSourcesGoToTheirOwnPages() throws {
        // The same book twice: every named destination exists in both sources.
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let path = Self.file("tbt-TeXbyTopic.pdf")
        let first = Array(59..<75), second = Array(69..<80)  // 0-based; p62, p70 link to p75 (chapter.6)
        let items = first.map { Self.page($0) } + second.map { Self.page($0, source: 1) }
        _ = try FidelityTests.export([ExportSource(path: path), ExportSource(path: path)], items, to: output)
        let json = try QPDFJSON(output)
        let links = json.internalLinks
        func targets(ofPosition position: Int) -> Set<String> {
            Set(links.filter { $0.page == json.pages[position] }.compactMap { $0.target as? String })
        }
        // Source 0: p62 (position 3) → its p75 (position 16). Source 1: p70 (position
        // 17) → its own p75 (position 22).
        #expect(targets(ofPosition: 2) == [json.pages[15]])
        #expect(targets(ofPosition: 16).contains(json.pages[21]))
        #expect(!targets(ofPosition: 16).contains(json.pages[15]))
        #expect(links.allSatisfy { ($0.target as? String).map(json.pages.contains) == true })
    }

    @Test func labelledPagesKeepTheirLabels() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let path = Self.file("pdfjs-labelled_pages.pdf")
        let source = try FidelityJSON(path)
        #expect(source.labels == ["i", "ii", "iii", "iv", "1", "2", "3", "a", "b", "4", "5"])
        let indices = [10, 9, 8, 7, 0, 1, 4, 4, 3]
        let (json, _) = try FidelityTests.export(
            [ExportSource(path: path), ExportSource(path: ExportPaths.fixture("alpha.pdf"))],
            indices.map { Self.page($0) } + [Self.page(6, source: 1)], to: output)
        #expect(json.labels == indices.map { source.labels[$0] } + ["7"])
    }

    @Test func outlineStartsOfCorpusFiles() throws {
        let path = Self.file("plumber-pdffill-demo.pdf")
        let source = try FidelityJSON(path)
        let items = (0..<7).reversed().map { Self.page($0) }
        let starts = try PDFExporter.outlineStarts(sources: [ExportSource(path: path)], items: items)
        #expect(starts.map(\.title) == source.outlines.filter { $0.page != nil }.map(\.title))
        for (start, entry) in zip(starts, source.outlines.filter { $0.page != nil }) {
            #expect(start.itemIndex == 7 - (entry.page ?? 0), "\(start)")
        }
    }

    // MARK: What cannot follow pages

    @Test func documentLevelDataDroppedWithOneWarning() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let sources = [
            ExportSource(path: Self.file("pypdf-example.pdf")), ExportSource(path: Self.file("pdfbox-testPDFPackage.pdf")),
            ExportSource(path: ExportPaths.fixture("features.pdf")),
        ]
        let report = try PDFExporter.write(
            sources: sources, items: [Self.page(0), Self.page(0, source: 1), Self.page(0, source: 2)], to: output)
        let dropped = report.warnings.filter { $0.message.hasPrefix("dropped document-level data") }
        #expect(dropped.count == 1)
        #expect(
            dropped.first?.message
                == "dropped document-level data that cannot follow pages: JavaScript (pdfbox-testPDFPackage.pdf)")
        // pypdf-example.pdf has a name qpdf warns about; the output inherits that
        // warning and nothing else.
        let check = try ExportTools.check(output)
        #expect(
            check.status == 0 || (check.status == 3 && check.stderr.contains("name with stray #")),
            "\(check.stdout) \(check.stderr)")
        #expect(!check.stdout.contains("ERROR"))
        let json = try FidelityJSON(output)
        for key in ["/OpenAction", "/AA"] {
            #expect(json.catalog[key] == nil, "\(key) kept")
        }
        // The tagged source's tree follows its page (LosslessStructureTests has the details).
        #expect(json.catalog["/StructTreeRoot"] != nil)
        // Embedded files and the portfolio follow (LosslessAttachmentsTests); scripts do not.
        let names = json.resolve(json.catalog["/Names"]) as? [String: Any]
        #expect(names?["/EmbeddedFiles"] != nil && names?["/JavaScript"] == nil, "\(names ?? [:])")
        #expect(json.catalog["/Collection"] != nil)
        // Optional content follows its pages (LosslessLayersTests has the details).
        #expect(json.catalog["/OCProperties"] != nil)
        // Content in optional content groups still renders as in the source.
        #expect(try RenderedPage(output, page: 1).looksLike(RenderedPage(sources[0].path, page: 1)))
        #expect(try RenderedPage(output, page: 2).looksLike(RenderedPage(sources[1].path, page: 1)))
    }

    @Test func dropWarningComesOnceForAllParts() throws {
        let scratch = try ExportScratch()
        let path = Self.file("pdfbox-testPDFPackage.pdf")
        let report = try PDFExporter.writeParts(
            sources: [ExportSource(path: path)], items: [Self.page(0), Self.page(0), Self.page(0)],
            parts: (0..<3).map { ExportPart(items: $0..<($0 + 1), path: scratch.path("p\($0).pdf")) })
        let dropped = report.warnings.filter { $0.message.hasPrefix("dropped") }.map(\.message)
        #expect(dropped.count == 1)
        #expect(dropped.first?.hasSuffix("JavaScript (pdfbox-testPDFPackage.pdf)") == true, "\(dropped)")
        #expect(report.warnings.first { $0.message.hasPrefix("dropped") }?.file == path)
    }

    // MARK: Structure tree and metadata

    @Test func taggedCorpusFileKeepsItsTreeWhole() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let path = Self.file("ocrmypdf-tagged.pdf")
        let title = "Tagged & <renamed> — ü"
        let (json, report) = try FidelityTests.export(
            [ExportSource(path: path)], [Self.page(0), Self.page(1)], to: output, options: ExportOptions(title: title))
        #expect(report.warnings.isEmpty, "its open action only shows page 1: kept, no warning: \(report.warnings)")
        #expect(json.catalog["/StructTreeRoot"] != nil)
        #expect(json.catalog["/OpenAction"] != nil)
        // Every annotation the structure tree refers to is an annotation of a page.
        let annotations = Set(json.pages.flatMap { json.resolve(json.dictionary($0)?["/Annots"]) as? [String] ?? [] })
        let referenced = Self.objectReferences(in: json)
        #expect(!referenced.isEmpty)
        #expect(referenced.isSubset(of: annotations), "\(referenced.subtracting(annotations))")
        let info = try ExportTools.run("pdfinfo", [output])
        #expect(info.stdout.contains("Title:           \(title)"))
        let metadata = try ExportTools.run("pdfinfo", ["-meta", output])
        #expect(metadata.stdout.contains("<rdf:li xml:lang=\"x-default\">Tagged &amp; &lt;renamed&gt; — ü</rdf:li>"))
        #expect(metadata.stdout.components(separatedBy: "<dc:title").count == 2, "one dc:title")
    }

    /// The /Obj of every OBJR (marked annotation reference) in the file.
    static func objectReferences(in json: FidelityJSON) -> Set<String> {
        var found: Set<String> = []
        func visit(_ value: Any?) {
            if let dict = value as? [String: Any] {
                if dict["/Type"] as? String == "/OBJR", let object = dict["/Obj"] as? String { found.insert(object) }
                dict.values.forEach(visit)
            } else if let array = value as? [Any] {
                array.forEach(visit)
            }
        }
        for entry in json.objects.values { visit((entry as? [String: Any])?["value"]) }
        return found
    }

    @Test func taggedCorpusFileCutKeepsItsPartOfTheTree() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let (json, report) = try FidelityTests.export(
            [ExportSource(path: Self.file("ocrmypdf-tagged.pdf"))], [Self.page(1)], to: output)
        #expect(json.catalog["/StructTreeRoot"] != nil)
        #expect(json.pages.map { json.dictionary($0)?["/StructParents"] as? Int } == [0])
        // Nothing dropped: its XMP still claims PDF/A-3B and PDF/UA-1.
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let metadata = try ExportTools.run("pdfinfo", ["-meta", output]).stdout
        #expect(metadata.contains("<pdfaid:part>3</pdfaid:part>") && metadata.contains("<pdfuaid:part>1</pdfuaid:part>"))
        // The tree's pages and annotations are the output's.
        let annotations = Set(json.pages.flatMap { json.resolve(json.dictionary($0)?["/Annots"]) as? [String] ?? [] })
        #expect(Self.objectReferences(in: json).isSubset(of: annotations))
        for element in json.objects(withKey: "/Pg") {
            #expect(json.pages.contains(json.dictionary(element)?["/Pg"] as? String ?? ""), "\(element)")
        }
        #expect(json.outlines.map(\.shape) == ["Page 2 Heading→1"])
    }

    // MARK: A mixed export, rendered

    @Test func mixedExportRendersLikeItsSources() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        let paths = [
            ExportPaths.fixture("features.pdf"), Self.file("sample-libreoffice-form.pdf"), Self.file("tbt-TeXbyTopic.pdf"),
            Self.file("pdfjs-labelled_pages.pdf"), Self.file("plumber-pdffill-demo.pdf"),
        ]
        let items: [ExportItem] = [
            Self.page(3), Self.page(0, source: 1), Self.page(100, source: 2), Self.page(1), Self.page(2, source: 3),
            Self.page(4, source: 4), Self.page(0, source: 1), Self.page(101, source: 2), Self.page(1),
        ]
        let (json, _) = try FidelityTests.export(paths.map { ExportSource(path: $0) }, items, to: output)
        #expect(json.pages.count == items.count)
        // The LibreOffice form asks for appearances, so the merged form does: a
        // viewer then redraws every field, and features.pdf's text field (output
        // pages 4 and 9) looks a little different from its own appearance stream.
        #expect(json.acroform?["/NeedAppearances"] as? Bool == true)
        let fieldPages = Set(json.fields.compactMap(\.page))
        for (position, item) in items.enumerated() {
            guard case .page(let source, let index, _, _, _) = item else { continue }
            let redrawn = fieldPages.contains(position + 1) && source == 0
            #expect(
                try RenderedPage(output, page: position + 1).looksLike(
                    RenderedPage(paths[source], page: index + 1), fraction: redrawn ? 0.01 : 0.002),
                "output page \(position + 1)")
        }
        let sourceLabels = try paths.map { try FidelityJSON($0).labels }
        #expect(json.labels == items.map {
            guard case .page(let source, let index, _, _, _) = $0 else { return "" }
            return sourceLabels[source][index]
        })
        #expect(json.fields.count == 1 + 9 + 9 + 1)
        #expect(json.outlines.count == 4, "features, tbt, labelled_pages, pdffill: \(json.outlines.map(\.title))")
    }
}
