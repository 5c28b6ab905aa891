import PDFEngine
import PageModel
import Testing

/// `OpenedPDF.outline()` (the bridge's pe_document_read_outline) against what
/// `qpdf --json` reports of the same file's /Outlines.
@Suite struct OutlineReadingTests {
    /// "title→page" with children in brackets, as FidelityJSON.Outline.shape writes it.
    static func shape(_ entries: [SourceOutlineEntry]) -> [String] {
        entries.map { entry in
            "\(entry.title)→\(entry.page.map(String.init) ?? "-")"
                + (entry.children.isEmpty ? "" : "[\(shape(entry.children).joined(separator: ", "))]")
        }
    }

    /// Open states of the entries with children (qpdf calls a leaf without /Count open).
    static func openStates(_ entries: [SourceOutlineEntry]) -> [Bool] {
        entries.flatMap { ($0.children.isEmpty ? [] : [$0.isOpen]) + openStates($0.children) }
    }

    static func openStates(_ entries: [FidelityJSON.Outline]) -> [Bool] {
        entries.flatMap { ($0.kids.isEmpty ? [] : [$0.open]) + openStates($0.kids) }
    }

    @Test(.enabled(if: ExportPaths.hasFixture("features.pdf"), "needs Fixtures/features.pdf"))
    func featuresFixtureOutlineIsReadWhole() throws {
        let path = ExportPaths.fixture("features.pdf")
        let outline = try OpenedPDF(path: path, for: .reading).outline()
        #expect(
            Self.shape(outline) == [
                "Chapter 1→1[Section 1.1→2, Section 1.2→3]", "Chapter 2→4[Section 2.1→5]", "Appendix→6",
            ])
        #expect(Self.shape(outline) == (try FidelityJSON(path)).outlines.map(\.shape))
        #expect(Self.openStates(outline) == [true, false])
        #expect(outline[0].children[0].isOpen == false)
        // Views: explicit, through the name tree, through a GoTo action.
        #expect(outline[0].view == ["/XYZ", "null", "null", "null"])
        #expect(outline[0].children[0].view == ["/XYZ", "72", "792", "null"])
        #expect(outline[1].children[0].view == ["/XYZ", "72", "720", "0"])
        #expect(outline[2].view == ["/Fit"])
        #expect(outline[0].color == nil && outline[0].style == nil)
    }

    @Test(.enabled(if: ExportPaths.hasFixture("alpha.pdf"), "needs Fixtures/alpha.pdf"))
    func aFileWithoutBookmarksHasNone() throws {
        #expect(try OpenedPDF(path: ExportPaths.fixture("alpha.pdf"), for: .reading).outline() == [])
    }

    @Test(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: ExportTests.corpusMissing)))
    func aTeXBookOutlineAgreesWithQPDF() throws {
        let path = ExportPaths.corpusFile("tbt-TeXbyTopic.pdf")
        let outline = try OpenedPDF(path: path, for: .reading).outline()
        let qpdf = try FidelityJSON(path)
        #expect(Self.shape(outline) == qpdf.outlines.map(\.shape))
        #expect(Self.openStates(outline) == Self.openStates(qpdf.outlines))
        #expect(qpdf.allOutlines.count > 300)
    }
}
