import Foundation
import PDFEngine
import Testing

/// `PDFExporter` (the `pe_export` bridge) on generated and real PDFs, every output
/// checked with qpdf, pdfinfo and pdftotext rather than with our own code.
@Suite struct ExportTests {
    static let corpusMissing = "../shared/corpus is absent (fresh clone): corpus export tests skipped"

    /// Exports and checks that `qpdf --check` accepts the result.
    @discardableResult
    func export(
        _ sources: [ExportSource], _ items: [ExportItem], to output: String,
        options: ExportOptions = ExportOptions()
    ) throws -> ExportReport {
        let report = try PDFExporter.write(sources: sources, items: items, options: options, to: output)
        let check = try ExportTools.check(output, password: options.encryption?.userPassword)
        #expect(check.status == 0, "qpdf --check \(output): \(check.stdout) \(check.stderr)")
        return report
    }

    func texts(_ path: String) throws -> [String] {
        let count = try ExportTools.pageCount(path) ?? 0
        return try (0..<count).map { try ExportTools.text(path, page: $0 + 1) }
    }

    static func tokens(_ prefix: String, _ count: Int) -> [String] { (1...count).map { "\(prefix)-P\($0)" } }

    // MARK: Order, duplicates, sources

    @Test func reordersPages() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: Self.tokens("GEN", 5)), as: "in.pdf")
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: input)],
            [.page(source: 0, index: 3), .page(source: 0, index: 0), .page(source: 0, index: 4)], to: output)
        #expect(try texts(output) == ["GEN-P4", "GEN-P1", "GEN-P5"])
    }

    @Test func mixesPagesOfTwoSources() throws {
        let scratch = try ExportScratch()
        let a = try scratch.write(TinyPDF(tokens: Self.tokens("AAA", 3)), as: "a.pdf")
        let b = try scratch.write(TinyPDF(tokens: Self.tokens("BBB", 2)), as: "b.pdf")
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: a), ExportSource(path: b)],
            [.page(source: 1, index: 1), .page(source: 0, index: 0), .page(source: 1, index: 0),
             .page(source: 0, index: 2)],
            to: output)
        #expect(try texts(output) == ["BBB-P2", "AAA-P1", "BBB-P1", "AAA-P3"])
    }

    @Test(.enabled(if: ExportPaths.hasFixture("alpha.pdf") && ExportPaths.hasFixture("beta.pdf"), "needs Fixtures/alpha.pdf, beta.pdf"))
    func mixesFixtureSources() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: ExportPaths.fixture("alpha.pdf")), ExportSource(path: ExportPaths.fixture("beta.pdf"))],
            [.page(source: 0, index: 6), .page(source: 1, index: 0), .page(source: 0, index: 0),
             .page(source: 1, index: 4)],
            to: output)
        let texts = try texts(output)
        #expect(texts.count == 4)
        for (text, token) in zip(texts, ["ALPHA-P7", "BETA-P1", "ALPHA-P1", "BETA-P5"]) {
            #expect(text.contains(token), "\(text)")
        }
        let sizes = try ExportTools.pages(output).map { [$0.width, $0.height] }
        #expect(sizes == [[612, 792], [595, 842], [612, 792], [595, 842]])
    }

    @Test func samePageTwiceGivesDistinctPagesAndAnnotations() throws {
        let scratch = try ExportScratch()
        var pdf = TinyPDF(tokens: Self.tokens("DUP", 3))
        pdf.pages[0].linksTo = [2, 1]
        let input = try scratch.write(pdf, as: "in.pdf")
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: input)],
            [.page(source: 0, index: 0), .page(source: 0, index: 2), .page(source: 0, index: 0, quarterTurns: 1)],
            to: output)
        #expect(try texts(output) == ["DUP-P1", "DUP-P3", "DUP-P1"])
        let json = try expectNoDanglingLinks(output)
        #expect(json.pages.count == 3)
        #expect(Set(json.pages).count == 3, "each occurrence is its own page object")
        let first = json.annotations(ofPage: json.pages[0])
        let again = json.annotations(ofPage: json.pages[2])
        // The link to page 2 (not exported) is gone from both copies; the one to page 3 stays.
        #expect(first.count == 1)
        #expect(again.count == 1)
        #expect(!first.contains("direct") && !again.contains("direct"))
        #expect(Set(first).isDisjoint(with: again), "no annotation object is shared between pages")
        for (page, annotations) in [(json.pages[0], first), (json.pages[2], again)] {
            for annotation in annotations {
                #expect(json.dictionary(annotation)?["/P"] as? String == page)
                #expect(json.destinationTarget(ofAnnotation: annotation) as? String == json.pages[1])
            }
        }
        #expect(try ExportTools.pages(output).map(\.rotation) == [0, 0, 90])
    }

    // MARK: Rotation, inherited attributes, blank pages

    @Test func rotationComposesWithInheritedRotate() throws {
        let scratch = try ExportScratch()
        var pdf = TinyPDF(tokens: Self.tokens("ROT", 3), inheritedRotate: 90)
        pdf.pages[2].rotate = 180
        let input = try scratch.write(pdf, as: "in.pdf")
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: input)],
            [.page(source: 0, index: 0), .page(source: 0, index: 1, quarterTurns: 1),
             .page(source: 0, index: 2, quarterTurns: 3), .page(source: 0, index: 0, quarterTurns: -1)],
            to: output)
        #expect(try ExportTools.pages(output).map(\.rotation) == [90, 180, 90, 0])
        // Inherited attributes are explicit on each page: no /Rotate, /MediaBox or
        // /Resources left on the /Pages node to inherit from.
        let json = try QPDFJSON(output)
        for page in json.pages {
            let dict = json.dictionary(page) ?? [:]
            #expect(dict["/MediaBox"] != nil)
            #expect(dict["/Resources"] != nil)
        }
        #expect(try texts(output) == ["ROT-P1", "ROT-P2", "ROT-P3", "ROT-P1"])
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func rotationOfCorpusFileWithInheritedRotate() throws {
        let scratch = try ExportScratch()
        let input = ExportPaths.corpusFile("qpdf-to-rotate.pdf")
        let before = try ExportTools.pages(input)
        #expect(before.count == 20)
        let output = scratch.path("out.pdf")
        let turns = (0..<before.count).map { $0 % 4 }
        try export(
            [ExportSource(path: input)],
            before.indices.map { .page(source: 0, index: $0, quarterTurns: turns[$0]) }, to: output)
        let after = try ExportTools.pages(output)
        #expect(after.map(\.rotation) == before.indices.map { (before[$0].rotation + 90 * turns[$0]) % 360 })
        #expect(after.map(\.width) == before.map(\.width))
        #expect(after.map(\.height) == before.map(\.height))
    }

    @Test func blankPagesHaveTheGivenSize() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: ["ONE"]), as: "in.pdf")
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: input)],
            [.blank(width: 200, height: 300.5), .page(source: 0, index: 0), .blank(width: 842, height: 595, quarterTurns: 1)],
            to: output)
        let pages = try ExportTools.pages(output)
        #expect(pages == [
            .init(width: 200, height: 300.5, rotation: 0), .init(width: 612, height: 792, rotation: 0),
            .init(width: 842, height: 595, rotation: 90),
        ])
        #expect(try texts(output) == ["", "ONE", ""])
    }

    @Test func onlyBlankPagesNeedNoSource() throws {
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        try export([], [.blank(width: 100, height: 100)], to: output)
        #expect(try ExportTools.pageCount(output) == 1)
    }

    // MARK: Links

    @Test func linksFollowTheirTargetOrAreRemoved() throws {
        let scratch = try ExportScratch()
        var pdf = TinyPDF(tokens: Self.tokens("LNK", 4))
        pdf.pages[0].linksTo = [1, 3, 2]  // page 2 is not exported
        pdf.pages[3].linksTo = [0]
        let input = try scratch.write(pdf, as: "in.pdf")
        let output = scratch.path("out.pdf")
        // Targets placed after and before their links.
        try export(
            [ExportSource(path: input)],
            [.page(source: 0, index: 3), .page(source: 0, index: 0), .page(source: 0, index: 2)], to: output)
        let json = try expectNoDanglingLinks(output)
        #expect(json.pages.count == 3)
        let targets = json.annotations(ofPage: json.pages[1]).map { json.destinationTarget(ofAnnotation: $0) as? String }
        #expect(targets == [json.pages[0], json.pages[2]])
        #expect(json.annotations(ofPage: json.pages[0]).map { json.destinationTarget(ofAnnotation: $0) as? String } == [json.pages[1]])
    }

    /// Every internal link of `output` targets one of its pages, every annotation's
    /// /P is the page it is on, and no page object exists outside the page tree.
    func expectNoDanglingLinks(_ output: String) throws -> QPDFJSON {
        let json = try QPDFJSON(output)
        #expect(json.strayPages.isEmpty, "page objects outside the page tree: \(json.strayPages)")
        var seen: Set<String> = []
        for page in json.pages {
            for annotation in json.annotations(ofPage: page) {
                #expect(json.dictionary(annotation)?["/P"] as? String == page, "\(annotation) on \(page)")
                #expect(annotation == "direct" || seen.insert(annotation).inserted, "\(annotation) is on two pages")
            }
        }
        for link in json.internalLinks {
            #expect(
                (link.target as? String).map(json.pages.contains) == true,
                "link \(link.annotation) on \(link.page) points at \(link.target), not a page of the output")
        }
        return json
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func corpusLinksToRemovedPagesAreRemoved() throws {
        let scratch = try ExportScratch()
        // basicapi: page 1 links twice to page 2 and twice to page 3; page 3 has a URI link.
        let basic = scratch.path("basic.pdf")
        try export(
            [ExportSource(path: ExportPaths.corpusFile("pdfjs-basicapi.pdf"))],
            [.page(source: 0, index: 2), .page(source: 0, index: 0)], to: basic)
        var json = try expectNoDanglingLinks(basic)
        #expect(json.internalLinks.count == 2)
        #expect(json.internalLinks.allSatisfy { $0.page == json.pages[1] && $0.target as? String == json.pages[0] })
        #expect(json.annotations(ofPage: json.pages[0]).count == 1, "the URI link stays")

        // pdflatex-outline: page 1 links to sections through named destinations.
        let latex = scratch.path("latex.pdf")
        try export(
            [ExportSource(path: ExportPaths.corpusFile("sample-pdflatex-outline.pdf"))],
            [.page(source: 0, index: 3), .page(source: 0, index: 0), .page(source: 0, index: 2)], to: latex)
        json = try expectNoDanglingLinks(latex)
        let kept = json.internalLinks
        #expect(!kept.isEmpty && kept.count < 9, "links to page 2 are dropped, the others kept: \(kept.count)")
        #expect(kept.allSatisfy { $0.target is String }, "named destinations are made explicit")
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func corpusAnnotationsFromManySources() throws {
        // Link-heavy books, markup with popups, forms; pages repeated and shuffled.
        let files = [
            "tbt-TeXbyTopic.pdf", "pdfjs-freeculture.pdf", "plumber-chelsea_pdta.pdf", "pdfjs-comments.pdf",
            "plumber-pdffill-demo.pdf", "sample-libreoffice-form.pdf", "pdflib-with_update_sections.pdf",
        ]
        let items: [ExportItem] = [
            .page(source: 0, index: 120), .page(source: 1, index: 10), .page(source: 0, index: 3),
            .page(source: 2, index: 2), .page(source: 0, index: 120), .page(source: 3, index: 0),
            .page(source: 3, index: 0, quarterTurns: 1), .page(source: 4, index: 0), .page(source: 4, index: 1),
            .page(source: 5, index: 0), .page(source: 5, index: 0), .page(source: 6, index: 0),
            .page(source: 0, index: 5), .page(source: 1, index: 200), .page(source: 2, index: 0),
        ]
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        try export(files.map { ExportSource(path: ExportPaths.corpusFile($0)) }, items, to: output)
        let json = try expectNoDanglingLinks(output)
        #expect(json.pages.count == items.count)
        #expect(!json.internalLinks.isEmpty)
        let annotated = json.pages.filter { !json.annotations(ofPage: $0).isEmpty }
        #expect(annotated.count >= 7, "annotations were copied: \(annotated.count) pages have some")
    }

    @Test(.enabled(if: ExportPaths.hasFixture("features.pdf"), "needs Fixtures/features.pdf"))
    func fixtureLinksExplicitAndNamed() throws {
        // features.pdf: page 1 links to page 5 (explicit /Dest); page 6 to page 4
        // (GoTo a named destination).
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        try export(
            [ExportSource(path: ExportPaths.fixture("features.pdf"))],
            [.page(source: 0, index: 5), .page(source: 0, index: 3), .page(source: 0, index: 0)], to: output)
        let json = try expectNoDanglingLinks(output)
        let links = json.internalLinks
        #expect(links.count == 1)
        #expect(links.first?.page == json.pages[0])
        #expect(links.first?.target as? String == json.pages[1])
    }

    // MARK: Determinism and encryption

    @Test func sameInputsGiveIdenticalBytes() throws {
        let scratch = try ExportScratch()
        var pdf = TinyPDF(tokens: Self.tokens("DET", 4))
        pdf.pages[1].linksTo = [3]
        let input = try scratch.write(pdf, as: "in.pdf")
        let items: [ExportItem] = [
            .page(source: 0, index: 1), .blank(width: 300, height: 400), .page(source: 0, index: 3, quarterTurns: 2),
            .page(source: 0, index: 1),
        ]
        let first = scratch.path("one.pdf"), second = scratch.path("two.pdf")
        try export([ExportSource(path: input)], items, to: first)
        try export([ExportSource(path: input)], items, to: second)
        let a = try Data(contentsOf: URL(fileURLWithPath: first))
        let b = try Data(contentsOf: URL(fileURLWithPath: second))
        #expect(!a.isEmpty)
        #expect(a == b)
    }

    @Test func encryptedOutputOpensWithItsPassword() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: Self.tokens("ENC", 2)), as: "in.pdf")
        let output = scratch.path("out.pdf")
        let options = ExportOptions(encryption: ExportEncryption(userPassword: "user pw", ownerPassword: "owner pw"))
        try export([ExportSource(path: input)], [.page(source: 0, index: 1)], to: output, options: options)
        #expect(try ExportTools.check(output, password: "owner pw").status == 0)
        #expect(try ExportTools.check(output).status != 0, "no password, no access")
        let shown = try ExportTools.run("qpdf", ["--password=user pw", "--show-encryption", output])
        #expect(shown.stdout.contains("R = 6"))
        #expect(shown.stdout.contains("AESv3"))
        #expect(try ExportTools.text(output, page: 1).isEmpty, "pdftotext cannot read it without the password")
        let text = try ExportTools.run("pdftotext", ["-upw", "user pw", output, "-"])
        #expect(text.stdout.contains("ENC-P2"))
    }

    @Test func outputIsNotEncryptedByDefault() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: ["PLAIN"]), as: "in.pdf")
        let output = scratch.path("out.pdf")
        try export([ExportSource(path: input)], [.page(source: 0, index: 0)], to: output)
        let shown = try ExportTools.run("qpdf", ["--show-encryption", output])
        #expect(shown.stdout.contains("File is not encrypted"))
    }

    // MARK: Encrypted, damaged and broken sources

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func encryptedSourceNeedsItsPassword() throws {
        let scratch = try ExportScratch()
        let input = ExportPaths.corpusFile("pdfjs-issue3371.pdf")
        let output = scratch.path("out.pdf")
        #expect(throws: EngineError.password(file: input, given: false)) {
            _ = try PDFExporter.write(sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0)], to: output)
        }
        #expect(throws: EngineError.password(file: input, given: true)) {
            _ = try PDFExporter.write(
                sources: [ExportSource(path: input, password: "wrong")], items: [.page(source: 0, index: 0)], to: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        try export([ExportSource(path: input, password: "ELXRTQWS")], [.page(source: 0, index: 0)], to: output)
        let shown = try ExportTools.run("qpdf", ["--show-encryption", output])
        #expect(shown.stdout.contains("File is not encrypted"), "the output drops the source's encryption")
        #expect(try ExportTools.pageCount(output) == 1)
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func damagedButRecoverableSourceGivesWarnings() throws {
        let scratch = try ExportScratch()
        let input = ExportPaths.corpusFile("pdfjs-issue7229.pdf")
        let output = scratch.path("out.pdf")
        let report = try export(
            [ExportSource(path: input)], [.page(source: 0, index: 1), .page(source: 0, index: 0)], to: output)
        #expect(!report.warnings.isEmpty)
        #expect(report.warnings.allSatisfy { $0.file == input })
        #expect(report.warnings.allSatisfy { !$0.message.contains(input) }, "the message does not repeat the file")
        #expect(try ExportTools.pageCount(output) == 2)
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func unrecoverableSourceIsDamaged() throws {
        let scratch = try ExportScratch()
        let input = ExportPaths.corpusFile("ocrmypdf-invalid.pdf")
        let output = scratch.path("out.pdf")
        do {
            _ = try PDFExporter.write(sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0)], to: output)
            Issue.record("export of \(input) succeeded")
        } catch {
            guard case .damaged(let file, _, let detail) = error else {
                Issue.record("expected .damaged, got \(error)")
                return
            }
            #expect(file == input)
            #expect(!detail.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: corpusMissing)))
    func pageTreeLoopIsUnsupported() throws {
        let scratch = try ExportScratch()
        let input = ExportPaths.corpusFile("pdfjs-Pages-tree-refs.pdf")
        do {
            _ = try PDFExporter.write(
                sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0)], to: scratch.path("out.pdf"))
            Issue.record("export succeeded")
        } catch {
            guard case .unsupported(let file, _, _) = error else {
                Issue.record("expected .unsupported, got \(error)")
                return
            }
            #expect(file == input)
        }
    }

    // MARK: Plan errors

    @Test func pageOutOfRange() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: Self.tokens("OOR", 5)), as: "in.pdf")
        #expect(throws: EngineError.pageOutOfRange(file: input, page: 9, pageCount: 5)) {
            _ = try PDFExporter.write(
                sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0), .page(source: 0, index: 8)],
                to: scratch.path("out.pdf"))
        }
    }

    @Test func missingSource() throws {
        let scratch = try ExportScratch()
        let input = scratch.path("nothing-here.pdf")
        #expect(throws: EngineError.missing(file: input)) {
            _ = try PDFExporter.write(sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0)], to: scratch.path("out.pdf"))
        }
    }

    @Test func refusesToWriteOverASource() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: ["KEEP"]), as: "in.pdf")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        #expect(throws: EngineError.self) {
            _ = try PDFExporter.write(sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0)], to: input)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test func unwritableOutput() throws {
        let scratch = try ExportScratch()
        let input = try scratch.write(TinyPDF(tokens: ["W"]), as: "in.pdf")
        let output = scratch.path("no-such-dir/out.pdf")
        do {
            _ = try PDFExporter.write(sources: [ExportSource(path: input)], items: [.page(source: 0, index: 0)], to: output)
            Issue.record("export succeeded")
        } catch {
            guard case .cannotWrite(let file, _) = error else {
                Issue.record("expected .cannotWrite, got \(error)")
                return
            }
            #expect(file == output)
        }
    }

    @Test func emptyPlanIsRefused() throws {
        let scratch = try ExportScratch()
        #expect(throws: EngineError.self) {
            _ = try PDFExporter.write(sources: [], items: [], to: scratch.path("out.pdf"))
        }
    }
}
