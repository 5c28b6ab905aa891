import PDFEngine
@testable import PageModel
import Testing

/// The one decision of how an export is written (`ExportStrategy.allowed`):
/// each change on a strategy's allow-list takes that strategy, anything else is
/// copied. The bridge only carries it out (its fallbacks are about the file:
/// AppendedExportTests and InPlaceExportTests run both ways end to end).
@Suite struct ExportStrategyTests {
    /// A 10-page source, given by the caller with its page count.
    static let book = ExportSource(path: "/book.pdf", pageCount: 10)
    static let pages: [ExportItem] = (0..<10).map { .page(source: 0, index: $0) }
    static let both: ExportStrategies = [.appendedUpdate, .inPlace]

    static func allowed(
        _ items: [ExportItem], sources: [ExportSource] = [book], stamps: [ExportStamp] = [],
        options: ExportOptions = ExportOptions(), contents: SourceContents? = SourceContents(catalogKeys: plain),
        updateRefuses: Bool = true
    ) -> ExportStrategies {
        ExportStrategy.allowed(
            sources: sources, items: items, stamps: stamps, options: options, contents: { _, _ in contents },
            updateRefuses: { _ in updateRefuses })
    }

    /// A request making exactly `change`, and nothing else, of the 10-page book.
    static func request(making change: SourceChange) -> (items: [ExportItem], options: ExportOptions) {
        var items = pages
        var options = ExportOptions()
        switch change {
        case .order: items.swapAt(0, 9)
        case .rotation: items[3] = .page(source: 0, index: 3, quarterTurns: 1)
        case .repeatedPages: items.append(.page(source: 0, index: 2))
        case .leftOutPages: items.removeLast(3)
        case .labels: options.labels = .renumber
        case .outline:
            options.outline = [ExportedOutlineEntry(level: 0, title: "Start", item: 0, isOpen: false)]
        case .metadata: options.title = "New"
        case .encryption: options.encryption = ExportEncryption(userPassword: "u", ownerPassword: "o")
        case .compression: options.compress = true
        case .linearization: options.linearize = true
        case .imageResampling: options.images = ImageResampling(dpi: 150)
        case .links, .sourceOutline, .namedDestinations, .openDestination, .otherContents, .droppedContents:
            break  // what the file holds: `contents(making:)`
        case .repeatedFields:
            items.append(.page(source: 0, index: 2))  // and a field: `contents(making:)`
        }
        return (items, options)
    }

    /// A plain catalog, and what a source holding exactly `change` besides
    /// its pages reads as (nil for a change a request makes).
    static let plain: Set<String> = ["/Type", "/Pages"]
    /// Annotations as the reader reports them: a link to a page, a link to an
    /// address, a form field's widget.
    static let link = AnnotationShape(.dictionary("/Link", ["/Type", "/Subtype", "/Rect", "/Border", "/Dest"]))
    static let uriLink = AnnotationShape(
        .dictionary("/Link", ["/Subtype", "/Rect", "/A"]), action: .dictionary("/URI", ["/S", "/URI"]))
    static let widget = AnnotationShape(.dictionary("/Widget", ["/Subtype", "/Rect", "/FT", "/T"]))
    static func contents(making change: SourceChange) -> SourceContents? {
        switch change {
        case .links: SourceContents(catalogKeys: plain, annotations: [link, link, uriLink])
        case .sourceOutline: SourceContents(catalogKeys: plain.union(["/Outlines"]))
        case .namedDestinations: SourceContents(catalogKeys: plain.union(["/Names"]), nameTrees: ["/Dests"])
        case .openDestination: SourceContents(catalogKeys: plain.union(["/OpenAction"]), openAction: ObjectShape(.array))
        case .otherContents: SourceContents(catalogKeys: plain.union(["/StructTreeRoot"]))
        case .droppedContents: SourceContents(catalogKeys: plain.union(["/Collection"]))
        case .repeatedFields: SourceContents(catalogKeys: plain, annotations: [widget], fieldPages: [2])
        default: nil
        }
    }

    /// What a source holds is its own change, and copied unless listed: a
    /// form, scripts, other annotations, page actions, bookmarks that run an
    /// action, a catalog entry not known.
    @Test func whatTheSourceHolds() {
        let plain = SourceContents(catalogKeys: Self.plain)
        #expect(plain.changes.isEmpty)
        let emptyForm = SourceContents(catalogKeys: Self.plain.union(["/AcroForm", "/JT", "/Metadata", "/Dests"]))
        #expect(emptyForm.changes == [.namedDestinations], "a form without fields is written by neither")
        let other: [SourceContents] = [
            SourceContents(catalogKeys: Self.plain.union(["/AcroForm"]), formFields: true),
            SourceContents(catalogKeys: Self.plain.union(["/AcroForm"]), xfa: true),
            SourceContents(catalogKeys: Self.plain.union(["/Names"]), nameTrees: ["/Dests", "/JavaScript"]),
            SourceContents(
                catalogKeys: Self.plain.union(["/OpenAction"]), openAction: .dictionary("/JavaScript", ["/S", "/JS"])),
            SourceContents(catalogKeys: Self.plain, annotations: [Self.link, Self.link, Self.widget]),
            SourceContents(catalogKeys: Self.plain, pageKeys: ["/Type", "/Parent", "/Contents", "/AA"]),
            SourceContents(
                catalogKeys: Self.plain.union(["/Outlines"]), outlineActions: [.dictionary("/Launch", ["/S", "/F"])]),
            SourceContents(catalogKeys: Self.plain.union(["/OCProperties"])),
        ]
        for contents in other {
            #expect(!contents.changes.isDisjoint(with: [.otherContents, .droppedContents]), "\(contents)")
            #expect(Self.allowed(Array(Self.pages.prefix(8)), contents: contents) == [], "\(contents)")
        }
        // Not read (no opened document): copied, for nothing is judged in the bridge.
        #expect(Self.allowed(Array(Self.pages.prefix(8)), contents: nil) == [])
        #expect(Self.allowed(Array(Self.pages.prefix(8)), contents: plain) == [.inPlace])
    }

    /// What the reader reports is judged here: a plain link has nothing but its
    /// destination, looks and page, and an action that only goes to a page or
    /// an address; anything more is other contents (copied).
    @Test func whatAPlainLinkIs() throws {
        let goTo = ObjectShape.dictionary("/GoTo", ["/S", "/D"])
        #expect(AnnotationShape(.dictionary("/Link", ["/Subtype", "/Rect", "/A"]), action: goTo).isPlainLink)
        #expect(Self.uriLink.isPlainLink)
        #expect(Self.link.isPlainLink)
        let notPlain: [AnnotationShape] = [
            Self.widget,
            // a link with additional actions, or an action that runs something
            AnnotationShape(.dictionary("/Link", ["/Subtype", "/Rect", "/Dest", "/AA"])),
            AnnotationShape(.dictionary("/Link", ["/Subtype", "/A"]), action: .dictionary("/GoTo", ["/S", "/D", "/Next"])),
            AnnotationShape(.dictionary("/Link", ["/Subtype", "/A"]), action: .dictionary("/JavaScript", ["/S", "/JS"])),
            AnnotationShape(.dictionary("/Link", ["/Subtype", "/A"]), action: ObjectShape(.array)),
            AnnotationShape(.dictionary(nil, ["/Rect", "/Dest"])),
            AnnotationShape(ObjectShape(.other)),
        ]
        for shape in notPlain {
            #expect(!shape.isPlainLink, "\(shape)")
            #expect(SourceContents(catalogKeys: Self.plain, annotations: [Self.link, shape]).changes == [.links, .otherContents])
        }
        // The reader's words, parsed.
        #expect(
            AnnotationShape(reported: "dict /Link /A /Rect /Subtype\tdict /URI /S /URI")
                == AnnotationShape(.dictionary("/Link", ["/A", "/Rect", "/Subtype"]), action: .dictionary("/URI", ["/S", "/URI"])))
        #expect(AnnotationShape(reported: "dict - /Rect\tnone") == AnnotationShape(.dictionary(nil, ["/Rect"])))
        #expect(AnnotationShape(reported: "dict /Link /Rect") == nil, "no action part")
        #expect(ObjectShape(reported: "array") == ObjectShape(.array))
        #expect(ObjectShape(reported: "array /D") == nil)
        #expect(ObjectShape(reported: "stream") == nil)
        // Open actions: a destination, or anything else.
        for destination in [ObjectShape(.array), ObjectShape(.name), ObjectShape(.string), goTo] {
            #expect(SourceContents(catalogKeys: ["/OpenAction"], openAction: destination).changes == [.openDestination])
        }
        #expect(SourceContents(catalogKeys: ["/OpenAction"]).changes.isEmpty, "an /OpenAction of null")
        // Bookmarks: an address is carried, anything else is not.
        #expect(SourceContents(catalogKeys: ["/Outlines"], outlineActions: [.dictionary("/URI", ["/S", "/URI"])]).changes
            == [.sourceOutline])
    }

    /// What copying drops and names (scripts without --keep-scripts, XFA, a
    /// portfolio), and form fields on a page placed twice, keep the update
    /// away, judged here from the catalog (and the annotations' shapes).
    @Test func scriptsXFAPortfoliosAndRepeatedFieldsKeepTheUpdateAway() {
        let script = ObjectShape.dictionary("/JavaScript", ["/S", "/JS"])
        let dropped: [SourceContents] = [
            SourceContents(catalogKeys: Self.plain.union(["/AA"])),
            SourceContents(catalogKeys: Self.plain.union(["/Names"]), nameTrees: ["/JavaScript"]),
            SourceContents(catalogKeys: Self.plain.union(["/OpenAction"]), openAction: script),
            SourceContents(catalogKeys: Self.plain.union(["/AcroForm"]), xfa: true),
            SourceContents(catalogKeys: Self.plain.union(["/Collection"])),
        ]
        for contents in dropped {
            #expect(contents.changes == [.droppedContents], "\(contents)")
            #expect(Self.allowed(Self.pages, contents: contents) == [], "\(contents)")
        }
        // Kept scripts are the file's own contents, which the update keeps.
        for contents in dropped.prefix(3) {
            #expect(contents.changes(keepScripts: true, repeatedPages: []) == [.otherContents], "\(contents)")
            var options = ExportOptions()
            options.keepScripts = true
            #expect(Self.allowed(Self.pages, options: options, contents: contents) == [.appendedUpdate], "\(contents)")
        }
        // A GoTo that goes on to another action may run a script there (copying
        // drops it), and so may a URI or any other action.
        for action in [ObjectShape.dictionary("/GoTo", ["/S", "/D", "/Next"]), .dictionary("/URI", ["/S", "/URI"])] {
            let opening = SourceContents(catalogKeys: Self.plain.union(["/OpenAction"]), openAction: action)
            #expect(opening.changes == [.droppedContents], "\(action)")
            #expect(opening.changes(keepScripts: true, repeatedPages: []) == [.otherContents], "\(action)")
        }
        // A page whose /Annots is no array (damaged): what it holds is not
        // known, so it counts as a field and as no plain link.
        let damaged = AnnotationShape(reported: "other\tnone")
        #expect(damaged?.isField == true && damaged?.isPlainLink == false)
        // Fields: a widget, an entry /FT, a /Parent that is not a pop-up's.
        for field in [
            Self.widget, AnnotationShape(.dictionary("/Text", ["/Subtype", "/FT"])),
            AnnotationShape(.dictionary("/Square", ["/Subtype", "/Parent"])),
        ] {
            #expect(field.isField, "\(field)")
            // on page 2 (index 1)
            let contents = SourceContents(catalogKeys: Self.plain, annotations: [Self.link, field], fieldPages: [1])
            #expect(contents.changes(keepScripts: false, repeatedPages: [1]).contains(.repeatedFields))
            #expect(!contents.changes(keepScripts: false, repeatedPages: [0, 2]).contains(.repeatedFields))
            #expect(Self.allowed(Self.pages + [.page(source: 0, index: 1)], contents: contents) == [], "\(field)")
            // Page 1 placed twice: its twin has no field.
            #expect(
                Self.allowed(Self.pages + [.page(source: 0, index: 0)], contents: contents, updateRefuses: false)
                    == [.appendedUpdate], "\(field)")
        }
        #expect(!AnnotationShape(.dictionary("/Popup", ["/Subtype", "/Parent"])).isField)
        #expect(!Self.link.isField)
        let links = SourceContents(catalogKeys: Self.plain, annotations: [Self.link])
        #expect(Self.allowed(Self.pages + [.page(source: 0, index: 1)], contents: links) == [.appendedUpdate, .inPlace])
    }

    /// Every change alone: taken by the strategies whose list holds it (each
    /// strategy's `supports` is a switch without default, so a new change must
    /// be placed on or off each list).
    @Test(arguments: SourceChange.allCases)
    func eachChangeTakesTheStrategiesThatListIt(change: SourceChange) {
        let (items, options) = Self.request(making: change)
        var expected: ExportStrategies = []
        if let contents = Self.contents(making: change) {
            // A field counts where the output places a page twice (the request
            // for `repeatedFields` does).
            let repeated = change == .repeatedFields
            let held = contents.changes(keepScripts: false, repeatedPages: repeated ? [2] : [])
            // (a field is no plain link either: the rewrite in place does not take it anyway)
            #expect(repeated ? held.contains(change) : held == [change], "\(change)")
            let update: ExportStrategies = ExportStrategy.appendedUpdate.supports(change) ? .appendedUpdate : []
            let inPlace: ExportStrategies = ExportStrategy.inPlace.supports(change) ? .inPlace : []
            // Pages left out: only the rewrite in place may take it.
            var fewer = Array(Self.pages.prefix(8))
            if repeated { fewer.append(.page(source: 0, index: 2)) }
            #expect(Self.allowed(fewer, options: options, contents: contents) == inPlace, "\(change)")
            // All pages: the update (which keeps what the file holds) is tried
            // first; the rewrite in place beside it only for a file the update
            // cannot take (repaired, encrypted).
            #expect(
                Self.allowed(items, options: options, contents: contents, updateRefuses: false) == update,
                "\(change)")
            #expect(Self.allowed(items, options: options, contents: contents) == update.union(inPlace), "\(change)")
            return
        }
        let found = ExportStrategy.changes(sources: [Self.book], items: items, stamps: [], options: options)
        #expect(found?.changes == [change], "\(change)")
        if ExportStrategy.appendedUpdate.supports(change) { expected.insert(.appendedUpdate) }
        if ExportStrategy.inPlace.supports(change) { expected.insert(.inPlace) }
        #expect(Self.allowed(items, options: options) == expected, "\(change)")
    }

    /// The lists as the bridge accepted them before the decision moved here:
    /// the update adds (order, turns, repeats, labels, bookmarks) and takes
    /// nothing out and keeps what the file holds; the rewrite in place writes
    /// bookmarks and carries links, the source's bookmarks, named destinations
    /// and an open destination as copying does, nothing else the file holds.
    @Test func theListsAreWhatTheWritersSupport() {
        let appended = Set(SourceChange.allCases.filter(ExportStrategy.appendedUpdate.supports))
        let inPlace = Set(SourceChange.allCases.filter(ExportStrategy.inPlace.supports))
        #expect(
            appended == [
                .order, .rotation, .repeatedPages, .labels, .outline, .links, .sourceOutline, .namedDestinations,
                .openDestination, .otherContents,
            ])
        #expect(
            inPlace == [
                .order, .rotation, .repeatedPages, .leftOutPages, .labels, .metadata, .encryption, .outline, .links,
                .sourceOutline, .namedDestinations, .openDestination,
            ])
        #expect(SourceChange.allCases.allSatisfy(ExportStrategy.copy.supports))
        #expect(Self.allowed(Self.pages) == [.appendedUpdate, .inPlace])
        // A file the update takes is not read for the rewrite in place.
        let read = Counter()
        let strategies = ExportStrategy.allowed(
            sources: [Self.book], items: Self.pages, stamps: [], options: ExportOptions(),
            contents: { _, pages in
                if pages { read.count += 1 }
                return SourceContents(catalogKeys: Self.plain)
            },
            updateRefuses: { _ in false })
        #expect(strategies == [.appendedUpdate])
        #expect(read.count == 0)
    }

    final class Counter { var count = 0 }

    /// What is on no list is copied: other items, item boxes and resizes,
    /// stamps, a second source.
    @Test func everythingElseIsCopied() {
        let box = BoxRect(x0: 0, y0: 0, x1: 100, y1: 100)
        var withBlank = Self.pages
        withBlank.append(.blank(width: 595, height: 842))
        var withSheet = Self.pages
        withSheet.append(.sheet(width: 842, height: 595, cells: []))
        var boxed = Self.pages
        boxed[0] = .page(source: 0, index: 0, boxes: PageBoxes(crop: box))
        var resized = Self.pages
        resized[0] = .page(
            source: 0, index: 0,
            resize: ExportResize(size: PageSize(width: 300, height: 300), placement: FormPlacement(matrix: .identity)))
        for items in [withBlank, withSheet, boxed, resized] {
            #expect(Self.allowed(items) == [], "\(items.last.map(String.init(describing:)) ?? "")")
        }
        #expect(Self.allowed(Self.pages, stamps: [ExportStamp(item: 0, source: 0, page: 0)]) == [])
        let twoSources = Self.pages + [.page(source: 1, index: 0)]
        #expect(Self.allowed(twoSources, sources: [Self.book, Self.book]) == [])
        #expect(Self.allowed([.blank(width: 10, height: 10)]) == [])
        #expect(Self.allowed([]) == [])
        // A page the source does not have: the bridge reports it, copying.
        #expect(Self.allowed(Self.pages + [.page(source: 0, index: 10)]) == [])
    }

    /// What the caller knows of the source and its own switches.
    @Test func theSourceAndTheSwitches() {
        // Without a page count nobody knows what is left out: copied.
        #expect(Self.allowed(Self.pages, sources: [ExportSource(path: "/book.pdf")]) == [])
        var off = ExportOptions()
        off.appendUpdate = false
        #expect(Self.allowed(Self.pages, options: off) == [.inPlace])
        off.inPlace = false
        #expect(Self.allowed(Self.pages, options: off) == [])
        // Fewer than half the pages: copying what is kept is faster than rewriting.
        #expect(Self.allowed(Array(Self.pages.prefix(5))) == [.inPlace])
        #expect(Self.allowed(Array(Self.pages.prefix(4))) == [])
        // How the file is written, and what the file decides, are no change.
        var neutral = ExportOptions(deterministicID: false, keepEncryptionOf: 0, maxStreamBytes: 1 << 20, threads: 2)
        neutral.keepScripts = true
        neutral.outline = []
        #expect(Self.allowed(Self.pages, options: neutral) == [.appendedUpdate, .inPlace])
    }

    /// `--compress` and `--linearize` rewrite every object of the file: no list
    /// knows them, so the output is copied (Compress.cpp runs on that path only),
    /// even when nothing else changes.
    @Test func compressAndLinearizeAreCopied() {
        #expect(Self.allowed(Self.pages) == [.appendedUpdate, .inPlace])
        var compress = ExportOptions()
        compress.compress = true
        #expect(Self.allowed(Self.pages, options: compress) == [])
        var linearize = ExportOptions()
        linearize.linearize = true
        #expect(Self.allowed(Self.pages, options: linearize) == [])
        #expect(ExportOptions() != compress && compress != linearize)
    }

    /// `flatten` and `strip` take annotations, fields, scripts or metadata out
    /// of pages the source still holds: an appended update would leave them
    /// readable in the source's bytes, and neither fast path draws appearances
    /// into pages. No list knows them, so every such output is copied — one
    /// page with one step is enough, and a document-level strip alone too.
    @Test func flattenAndStripAreCopied() {
        var finished = ExportOptions()
        finished.finish = Self.pages.indices.map { $0 == 4 ? [.flattenForms] : [] }
        #expect(Self.allowed(Self.pages, options: finished) == [])
        finished.finish = Self.pages.map { _ in [.stripAnnotations(types: ["Link"])] }
        #expect(Self.allowed(Self.pages, options: finished) == [])
        for part in DocumentPart.allCases {
            var stripped = ExportOptions()
            stripped.stripped = [part]
            #expect(Self.allowed(Self.pages, options: stripped) == [], "\(part)")
            #expect(stripped != ExportOptions())
        }
        // Nothing to finish (every list empty is written as nil by the kit): the fast paths stay.
        #expect(Self.allowed(Self.pages, options: ExportOptions()) == [.appendedUpdate, .inPlace])
    }
}
