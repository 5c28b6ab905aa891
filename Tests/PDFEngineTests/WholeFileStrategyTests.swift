import PDFEngine
@testable import PageModel
import Testing

/// The whole-file strategy (`ExportStrategy.wholeFile`): every page of one
/// source in its order, with at most the options `optimize` and `--compress`
/// give, and only when the file's facts say copying would drop or rebuild
/// nothing of it (WholeFileExportTests runs it end to end).
@Suite struct WholeFileStrategyTests {
    static let book = ExportSource(path: "/book.pdf", pageCount: 10)
    static let pages: [ExportItem] = (0..<10).map { .page(source: 0, index: $0) }
    static let clean = WholeFileFacts(pageTreeCount: 10, structure: .readable)

    static func compressed() -> ExportOptions {
        var options = ExportOptions()
        options.compress = true
        return options
    }

    static func allowed(
        _ items: [ExportItem] = pages, options: ExportOptions = compressed(), facts: WholeFileFacts? = clean,
        sources: [ExportSource] = [book]
    ) -> ExportStrategies {
        ExportStrategy.allowed(
            sources: sources, items: items, stamps: [], options: options, contents: { _, _ in nil },
            wholeFile: { _ in facts })
    }

    @Test func aCompressedWholeFileIsWrittenWhole() {
        #expect(Self.allowed() == [.wholeFile])
        var options = Self.compressed()
        options.linearize = true
        options.images = ImageResampling(dpi: 150)
        options.title = "New"
        options.labels = .renumber
        options.outline = [ExportedOutlineEntry(level: 0, title: "Start", item: 0, isOpen: false)]
        options.keepEncryptionOf = 0
        #expect(Self.allowed(options: options) == [.wholeFile])
        // Not without a rewrite (compression, linearization, images): an
        // ordinary export of the whole file keeps to the rewrite in place.
        var plain = ExportOptions()
        plain.title = "New"
        #expect(!Self.allowed(options: plain).contains(.wholeFile))
        #expect(!Self.allowed(options: ExportOptions()).contains(.wholeFile))
    }

    @Test func compressionIsOnNoOtherList() {
        for change in [SourceChange.compression, .linearization, .imageResampling] {
            #expect(!ExportStrategy.appendedUpdate.supports(change))
            #expect(!ExportStrategy.inPlace.supports(change))
            #expect(ExportStrategy.wholeFile.supports(change))
        }
        // Not read (no opened document): copied, as before.
        #expect(Self.allowed(facts: nil) == [])
    }

    /// A form is copied: copying rebuilds /Fields from the pages' widgets (a
    /// field on no page is left out), where the whole file keeps /AcroForm.
    @Test func aFormIsCopied() {
        let form = SourceContents(catalogKeys: ["/Type", "/Pages", "/AcroForm"], formFields: true)
        let strategies = ExportStrategy.allowed(
            sources: [Self.book], items: Self.pages, stamps: [], options: Self.compressed(),
            contents: { _, _ in form }, wholeFile: { _ in Self.clean })
        #expect(strategies == [])
        let noFields = SourceContents(catalogKeys: ["/Type", "/Pages", "/AcroForm"])
        #expect(
            ExportStrategy.allowed(
                sources: [Self.book], items: Self.pages, stamps: [], options: Self.compressed(),
                contents: { _, _ in noFields }, wholeFile: { _ in Self.clean }) == [.wholeFile])
    }

    /// Each fact that forbids it sends the output to copying.
    @Test(arguments: [
        ("repaired", WholeFileFacts(repaired: true, pageTreeCount: 10)),
        ("page tree counts 11", WholeFileFacts(pageTreeCount: 11)),
        ("no page tree count", WholeFileFacts(pageTreeCount: nil)),
        ("structure too deep", WholeFileFacts(pageTreeCount: 10, structure: .unusable)),
        ("scripts", WholeFileFacts(pageTreeCount: 10, scripts: true)),
        ("XFA", WholeFileFacts(pageTreeCount: 10, xfa: true)),
        ("layers", WholeFileFacts(pageTreeCount: 10, optionalContent: true)),
        ("annotation on two pages", WholeFileFacts(pageTreeCount: 10, sharedAnnotations: true)),
    ])
    func aFactCopies(what: String, facts: WholeFileFacts) {
        #expect(Self.allowed(facts: facts) == [], "\(what)")
    }

    @Test func scriptsKeptAreWrittenWhole() {
        var options = Self.compressed()
        options.keepScripts = true
        #expect(Self.allowed(options: options, facts: WholeFileFacts(pageTreeCount: 10, scripts: true)) == [.wholeFile])
    }

    /// Anything but every page in order, unturned, of one source is copied
    /// (with --compress, no other strategy takes it).
    @Test func otherPlansAreCopied() {
        var reversed = Self.pages
        reversed.reverse()
        var turned = Self.pages
        turned[2] = .page(source: 0, index: 2, quarterTurns: 1)
        var repeated = Self.pages
        repeated.append(.page(source: 0, index: 0))
        var blank = Self.pages
        blank.append(.blank(width: 595, height: 842))
        for items in [reversed, turned, repeated, Array(Self.pages.dropLast()), blank] {
            #expect(Self.allowed(items) == [], "\(items)")
        }
        var off = Self.compressed()
        off.inPlace = false  // PDFEDIT_NO_IN_PLACE
        #expect(Self.allowed(options: off) == [])
        var stripped = Self.compressed()
        stripped.stripped = [.javascript]
        #expect(Self.allowed(options: stripped) == [])
        let second = ExportSource(path: "/other.pdf", pageCount: 10)
        #expect(Self.allowed(Self.pages + [.page(source: 1, index: 0)], sources: [Self.book, second]) == [])
    }

    /// Its own bit, apart from the others'.
    @Test func itsOwnBit() {
        let others: [ExportStrategies] = [.appendedUpdate, .inPlace]
        for other in others { #expect(ExportStrategies.wholeFile.intersection(other).isEmpty) }
    }
}
