import QPDFCore

/// How `pe_export` writes one output, and the one decision of which ways a plan
/// may take (`ExportStrategy.allowed`). The bridge carries out what it is given:
/// it decides nothing about what an edit may do or what the file holds, and
/// only falls back to the next way when the FILE cannot take one (encrypted,
/// damaged, no cross-reference table to append to, a structure tree it cannot
/// read).
package enum ExportStrategy: Sendable, Equatable, CaseIterable {
    /// The source's bytes unchanged, followed by an incremental update holding
    /// only what changed (Appended.cpp). Nothing may be taken out of the
    /// document: what is taken out stays readable in the source's bytes.
    case appendedUpdate
    /// The source rearranged in memory and written whole (InPlace.cpp): only
    /// what the output still uses reaches the file.
    case inPlace
    /// Every page of the source, in its order, written as the source's own
    /// document (WholeFile.cpp): the catalog as copying writes it, the page and
    /// structure trees, form, bookmarks and names as they are; taken only when
    /// the file holds nothing copying drops or rebuilds otherwise
    /// (`WholeFileFacts`). What `optimize` and `--compress` of a whole file take.
    case wholeFile
    /// The pages copied into a new document (Assembly.cpp): every feature. The
    /// default for whatever the lists below do not name.
    case copy
}

/// What an output changes of its one source that a strategy other than copying
/// may write. The allow-lists (`ExportStrategy.supports`) name these; anything
/// that is not one of them (a blank page, a sheet, a resize, a box, a stamp, a
/// second source, an option not known here) takes the copying path.
package enum SourceChange: Hashable, Sendable, CaseIterable {
    /// The pages, at their first placements, in another order than the source's.
    case order
    /// Pages turned (`quarterTurns` not a multiple of four).
    case rotation
    /// A page placed more than once.
    case repeatedPages
    /// Pages of the source not in the output.
    case leftOutPages
    /// Page labels other than the source's own (`labels`, `pageLabels`).
    case labels
    /// Bookmarks given to write (`outline`, non-empty).
    case outline
    /// The title, author, subject or keywords set or removed.
    case metadata
    /// The output encrypted with passwords of its own.
    case encryption
    /// Links on the source's pages, all plain ones (a destination or an
    /// address, `AnnotationShape.isPlainLink`): kept where their target page is
    /// in the output, removed where it is not, named destinations made explicit.
    case links
    /// The source's own bookmarks, pruned to the output's pages.
    case sourceOutline
    /// The source's named destinations (catalog /Dests, /Names /Dests): not
    /// kept; links, bookmarks and the open action get explicit ones.
    case namedDestinations
    /// An open action that shows a page: kept when the output has that page.
    case openDestination
    /// Whatever else the source's catalog or pages hold (a form, a structure
    /// tree, layers, attachments, scripts, annotations other than plain links,
    /// page actions, beads, bookmarks that run an action, an entry not known
    /// here): what copying carries, cuts or names as dropped.
    case otherContents
    /// What copying drops and names, which the appended update (keeping the
    /// file's bytes) would keep: scripts without `keepScripts` (a /JavaScript
    /// name tree, document actions, an open action other than a GoTo), an XFA
    /// form, a portfolio.
    case droppedContents
    /// A page with form fields or widgets placed more than once: copying gives
    /// each placement fields of its own.
    case repeatedFields
    /// Written as small as it losslessly can be (`ExportOptions.compress`).
    case compression
    /// Linearized (`ExportOptions.linearize`).
    case linearization
    /// Images resampled (`ExportOptions.images`).
    case imageResampling
}

/// What decides whether an output of every page of a source may be that
/// source written whole (`ExportStrategy.wholeFile`), read from its opened
/// document (`OpenedPDF.wholeFileFacts()`, `pe_document_read_whole_file_facts`):
/// what copying would drop with a warning, read otherwise, or rebuild.
package struct WholeFileFacts: Sendable, Equatable {
    package enum Structure: Sendable, Equatable {
        /// No structure tree.
        case none
        /// A tree copying reads (and rebuilds the same for every page).
        case readable
        /// A tree copying cannot read (nested deeper than the page tree's
        /// limit) and drops with a warning.
        case unusable
    }

    /// qpdf recovered damage when it opened the file.
    package var repaired: Bool
    /// The root page tree node's /Count (nil: not an integer).
    package var pageTreeCount: Int?
    package var structure: Structure
    /// Document JavaScript, document actions, an open action that shows no
    /// page, or a bookmark running JavaScript: copying drops them with a
    /// warning unless `keepScripts`.
    package var scripts: Bool
    /// An XFA form, which copying always drops with a warning.
    package var xfa: Bool
    /// Layers (/OCProperties), which copying rebuilds from the ones the pages use.
    package var optionalContent: Bool
    /// An annotation listed on two pages (or twice, or not as an object of its
    /// own): copying gives its placements new objects, fields of their own.
    package var sharedAnnotations: Bool

    package init(
        repaired: Bool = false, pageTreeCount: Int?, structure: Structure = .none, scripts: Bool = false,
        xfa: Bool = false, optionalContent: Bool = false, sharedAnnotations: Bool = false
    ) {
        self.repaired = repaired
        self.pageTreeCount = pageTreeCount
        self.structure = structure
        self.scripts = scripts
        self.xfa = xfa
        self.optionalContent = optionalContent
        self.sharedAnnotations = sharedAnnotations
    }

    /// Whether the file written whole is what copying its `pageCount` pages
    /// (qpdf's count) would write: not damaged, its page tree counting the
    /// pages qpdf found, and nothing copying drops with a warning (scripts
    /// only when they are kept) or rebuilds otherwise.
    package func keptWhole(pageCount: Int, keepScripts: Bool) -> Bool {
        !repaired && pageTreeCount == pageCount && structure != .unusable && (!scripts || keepScripts) && !xfa
            && !optionalContent && !sharedAnnotations
    }
}

/// A value of a source as the reader reports it (`pe_document_read_contents`):
/// a dictionary by its kind (an annotation's /Subtype, an action's /S) and its
/// keys; any other value by its type. What it means is judged here, not in the
/// bridge.
package struct ObjectShape: Hashable, Sendable {
    package enum ValueType: String, Hashable, Sendable {
        case dictionary = "dict", array, name, string, other
    }

    package var type: ValueType
    /// The kind entry when it is a name ("/Link", "/GoTo"); nil when absent or not a name.
    package var kind: String?
    /// A dictionary's keys ("/Rect"), as PDF syntax.
    package var keys: Set<String>

    package init(_ type: ValueType, kind: String? = nil, keys: Set<String> = []) {
        self.type = type
        self.kind = kind
        self.keys = keys
    }

    /// A dictionary of `kind` with these keys.
    package static func dictionary(_ kind: String?, _ keys: Set<String>) -> ObjectShape {
        ObjectShape(.dictionary, kind: kind, keys: keys)
    }

    /// The reader's text: "dict KIND KEY..." ("-": no kind), or the type's word.
    /// nil when it is neither.
    package init?(reported text: Substring) {
        let words = text.split(separator: " ")
        guard let first = words.first, let type = ValueType(rawValue: String(first)) else { return nil }
        guard type == .dictionary else {
            guard words.count == 1 else { return nil }
            self.init(type)
            return
        }
        guard words.count >= 2 else { return nil }
        self.init(.dictionary, kind: words[1] == "-" ? nil : String(words[1]), keys: Set(words.dropFirst(2).map(String.init)))
    }

    /// A GoTo action of /S and /D only (and /Type).
    package var isPlainGoTo: Bool {
        type == .dictionary && kind == "/GoTo" && keys.isSubset(of: ["/Type", "/S", "/D"])
    }

    /// A URI action of /S, /URI and /IsMap only (and /Type).
    package var isPlainURI: Bool {
        type == .dictionary && kind == "/URI" && keys.isSubset(of: ["/Type", "/S", "/URI", "/IsMap"])
    }

    /// What an open action or a link may be to show a page: a destination (an
    /// array, a named one as a name or a string) or a plain GoTo action.
    package var isDestination: Bool {
        type == .array || type == .name || type == .string || isPlainGoTo
    }
}

/// An annotation dictionary and its /A action (nil: none), as reported.
package struct AnnotationShape: Hashable, Sendable {
    package var annotation: ObjectShape
    package var action: ObjectShape?

    package init(_ annotation: ObjectShape, action: ObjectShape? = nil) {
        self.annotation = annotation
        self.action = action
    }

    /// The reader's text: the annotation's shape, a tab, the action's or "none".
    package init?(reported text: String) {
        let parts = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard parts.count == 2, let annotation = ObjectShape(reported: parts[0]) else { return nil }
        if parts[1] == "none" {
            self.init(annotation)
        } else {
            guard let action = ObjectShape(reported: parts[1]) else { return nil }
            self.init(annotation, action: action)
        }
    }

    /// The keys a plain link may have: nothing in it but its destination, its
    /// looks and its page (which `cut_left_out_pages` keeps from reaching a
    /// page left out).
    static let linkKeys: Set<String> = [
        "/Type", "/Subtype", "/Rect", "/Contents", "/P", "/NM", "/M", "/F", "/AP", "/AS", "/Border", "/C", "/BS",
        "/H", "/QuadPoints", "/Dest", "/A",
    ]

    /// A form field or its widget (a /Widget, an entry /FT, or a /Parent that
    /// is not a pop-up's): copying gives a placed-again page fields of its own.
    package var isField: Bool {
        annotation.type != .dictionary || annotation.kind == "/Widget" || annotation.keys.contains("/FT")
            || (annotation.keys.contains("/Parent") && annotation.kind != "/Popup")
    }

    /// A /Link annotation of those keys whose action, if any, is a plain GoTo
    /// or URI action: what the in-place rewrite keeps or removes as copying does.
    package var isPlainLink: Bool {
        annotation.type == .dictionary && annotation.kind == "/Link" && annotation.keys.isSubset(of: Self.linkKeys)
            && (action.map { $0.isPlainGoTo || $0.isPlainURI } ?? true)
    }
}

/// What a source holds besides its pages, read from its opened document
/// (`OpenedPDF.contents()`, `pe_document_read_contents`): the facts the
/// in-place rewrite's allow-list is checked against.
package struct SourceContents: Sendable, Equatable {
    package var catalogKeys: Set<String>
    /// The keys of the catalog's /Names dictionary.
    package var nameTrees: Set<String>
    /// Annotation dictionaries on the pages, and their distinct shapes.
    package var annotations: Int
    package var annotationShapes: Set<AnnotationShape>
    /// The pages (0-based) with an annotation that is a form field or its
    /// widget (`AnnotationShape.isField`).
    package var fieldPages: Set<Int>
    /// Every key some page dictionary has.
    package var pageKeys: Set<String>
    /// The catalog's /OpenAction; nil when it has none.
    package var openAction: ObjectShape?
    /// The actions of bookmarks that are not destinations in the file (URI,
    /// GoToR, named, JavaScript ...), each distinct shape.
    package var outlineActions: Set<ObjectShape>
    /// /AcroForm has fields, resp. an XFA form.
    package var formFields: Bool
    package var xfa: Bool

    package init(
        catalogKeys: Set<String>, nameTrees: Set<String> = [], annotations: [AnnotationShape] = [],
        fieldPages: Set<Int> = [],
        pageKeys: Set<String> = ["/Type", "/Parent", "/MediaBox", "/Contents", "/Resources"],
        openAction: ObjectShape? = nil, outlineActions: Set<ObjectShape> = [], formFields: Bool = false,
        xfa: Bool = false
    ) {
        self.catalogKeys = catalogKeys
        self.nameTrees = nameTrees
        self.annotations = annotations.count
        annotationShapes = Set(annotations)
        self.fieldPages = fieldPages
        self.pageKeys = pageKeys
        self.openAction = openAction
        self.outlineActions = outlineActions
        self.formFields = formFields
        self.xfa = xfa
    }

    /// Page entries besides annotations that may name other pages: additional
    /// actions, article beads, and entries of print production and
    /// presentations that the in-place rewrite does not carry as copying does.
    static let pageActionKeys: Set<String> = ["/AA", "/B", "/SeparationInfo", "/PresSteps", "/PieceInfo", "/DPart"]

    /// What an output of the source carries of these contents, its scripts
    /// dropped and no page placed twice (`changes(keepScripts:repeatedPages:)`).
    package var changes: Set<SourceChange> { changes(keepScripts: false, repeatedPages: []) }

    /// What an output of the source carries of these contents. Catalog
    /// entries that copying writes as the in-place rewrite does (or leaves out
    /// without a word) add nothing; what copying drops and names is
    /// `droppedContents`; an entry not named here is `otherContents`.
    /// `repeatedPages`: the pages (0-based) the output places more than once
    /// (a field on one of them is `repeatedFields`).
    package func changes(keepScripts: Bool, repeatedPages: Set<Int>) -> Set<SourceChange> {
        var changes: Set<SourceChange> = []
        let scripts: SourceChange = keepScripts ? .otherContents : .droppedContents
        for key in catalogKeys {
            switch key {
            case "/Type", "/Pages", "/PageLabels", "/Metadata", "/Lang", "/PageLayout", "/PageMode",
                "/ViewerPreferences", "/Version", "/Extensions", "/MarkInfo",
                "/JT":  // a job ticket: print production data, which copying leaves out too
                break
            case "/Outlines": changes.insert(.sourceOutline)
            case "/Dests": changes.insert(.namedDestinations)
            case "/Names":
                if nameTrees.contains("/Dests") { changes.insert(.namedDestinations) }
                if nameTrees.contains("/JavaScript") { changes.insert(scripts) }
                if !nameTrees.isSubset(of: ["/Dests", "/JavaScript"]) { changes.insert(.otherContents) }
            case "/OpenAction":
                // An /OpenAction of null is none.
                if let openAction {
                    // An action that is not a plain GoTo may run something
                    // (a GoTo's /Next may be a script): copying drops it.
                    if openAction.isDestination {
                        changes.insert(.openDestination)
                    } else {
                        changes.insert(openAction.type == .dictionary ? scripts : .otherContents)
                    }
                }
            case "/AA": changes.insert(scripts)
            case "/AcroForm":
                // A form without fields: copying writes no /AcroForm, silently.
                if xfa { changes.insert(.droppedContents) }
                if formFields { changes.insert(.otherContents) }
            case "/Collection": changes.insert(.droppedContents)
            default:
                changes.insert(.otherContents)
            }
        }
        if annotations > 0 { changes.insert(.links) }
        if !annotationShapes.allSatisfy(\.isPlainLink) || !pageKeys.isDisjoint(with: Self.pageActionKeys)
            || outlineActions.contains(where: { !$0.isPlainURI })
        {
            changes.insert(.otherContents)
        }
        if !fieldPages.isDisjoint(with: repeatedPages) { changes.insert(.repeatedFields) }
        return changes
    }
}

/// The strategies an export may take, fastest first; copying is always one.
package struct ExportStrategies: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let appendedUpdate = ExportStrategies(rawValue: 1)
    package static let inPlace = ExportStrategies(rawValue: 2)
    /// The source written whole (PE_STRATEGY_WHOLE_FILE), tried after the
    /// update and before the rewrite in place.
    package static let wholeFile = ExportStrategies(rawValue: 8)
}

extension ExportStrategy {
    /// The allow-list of each strategy: what it writes as copying would (the
    /// same document; `qpdf --check` clean). A new feature joins a list only
    /// once that strategy writes it and its tests say so; until then it is
    /// copied. The appended update takes nothing out (what it took out would
    /// stay readable in the source's bytes): no left-out pages, no metadata set
    /// or removed, and no new encryption (it keeps the file's bytes).
    package func supports(_ change: SourceChange) -> Bool {
        switch self {
        case .appendedUpdate:
            // The document's own contents stay as they are, every page kept.
            switch change {
            case .order, .rotation, .repeatedPages, .labels, .outline: true
            case .links, .sourceOutline, .namedDestinations, .openDestination, .otherContents: true
            case .leftOutPages, .metadata, .encryption, .droppedContents, .repeatedFields: false
            case .compression, .linearization, .imageResampling: false
            }
        case .inPlace:
            switch change {
            case .order, .rotation, .repeatedPages, .leftOutPages, .labels, .metadata, .encryption: true
            case .outline, .links, .sourceOutline, .namedDestinations, .openDestination: true
            case .otherContents, .droppedContents, .repeatedFields: false
            case .compression, .linearization, .imageResampling: false
            }
        case .wholeFile:
            // Every page in its order, unturned; what the file holds is kept
            // as it is, so long as copying would keep it too: judged from
            // `WholeFileFacts`, not from these (`allowed`).
            switch change {
            case .labels, .metadata, .encryption, .outline, .compression, .linearization, .imageResampling: true
            case .links, .sourceOutline, .namedDestinations, .openDestination, .otherContents: true
            case .droppedContents, .repeatedFields: true
            case .order, .rotation, .repeatedPages, .leftOutPages: false
            }
        case .copy:
            true
        }
    }

    /// The strategies `PDFExporter.write` may take for this export besides
    /// copying: those whose allow-list holds every change the output makes
    /// (`changes`) and every change of what the source holds besides its pages
    /// (`contents`, read from its opened document; nil: not opened, not read:
    /// copied), when it is one source's pages and nothing else, and the
    /// source's document may be changed in memory (not opened for a later
    /// export too). The in-place rewrite only for at least half of the
    /// source's pages (below that, copying what is kept is faster).
    ///
    /// For the update, only the catalog is read (`contents(source, false)`),
    /// and the pages too for an output that places a page twice (a field on
    /// it is copied). Beside the update, the in-place rewrite is a way out
    /// only for a file the update cannot take as its opening shows
    /// (`updateRefuses`: qpdf repaired it, or it is encrypted), and only then
    /// are the pages read (`contents(source, true)`): that touches every
    /// annotation, a tenth of the time of turning the pages of a book of
    /// links. A file the update refuses for what only writing it finds (no
    /// cross-reference section to follow) is then copied.
    package static func allowed(
        sources: [ExportSource], items: [ExportItem], stamps: [ExportStamp], options: ExportOptions,
        contents: (ExportSource, _ pages: Bool) -> SourceContents? = { try? $0.document?.contents(pages: $1) },
        updateRefuses: (ExportSource) -> Bool = { $0.document?.updateRefuses ?? true },
        wholeFile: (ExportSource) -> WholeFileFacts? = { try? $0.document?.wholeFileFacts() }
    ) -> ExportStrategies {
        guard let (source, changes) = candidate(sources: sources, items: items, stamps: stamps, options: options)
        else { return [] }
        let given = sources[source]
        // The whole file: for an output its file is rewritten for (compressed,
        // linearized, images resampled; no other strategy takes those), from
        // the facts of the file's opened document (the structure tree is
        // walked; none without a document). An ordinary export keeps to the
        // other ways. Off with `inPlace` (`PDFEDIT_NO_IN_PLACE`: the source is
        // not changed in memory).
        if wholeFileMayTake(changes, items: items, sources: sources, source: source, options: options) {
            // A form is copied: copying rebuilds /Fields from the pages'
            // widgets (a field on no page is left out), the whole file would
            // keep /AcroForm as it is.
            guard let pageCount = given.pageCount, let facts = wholeFile(given),
                facts.keptWhole(pageCount: pageCount, keepScripts: options.keepScripts),
                contents(given, false)?.formFields != true
            else { return [] }
            return .wholeFile
        }
        let update = options.appendUpdate && changes.allSatisfy(ExportStrategy.appendedUpdate.supports)
        let inPlace =
            inPlaceMayTake(changes, items: items, sources: sources, source: source, options: options)
            && (!update || updateRefuses(given))
        let repeated = changes.contains(.repeatedPages) ? placedTwice(items, source: source) : []
        guard update || inPlace, let held = contents(given, inPlace || !repeated.isEmpty) else { return [] }
        let all = changes.union(held.changes(keepScripts: options.keepScripts, repeatedPages: repeated))
        var allowed: ExportStrategies = []
        if update, all.allSatisfy(ExportStrategy.appendedUpdate.supports) { allowed.insert(.appendedUpdate) }
        if inPlace, all.allSatisfy(ExportStrategy.inPlace.supports) { allowed.insert(.inPlace) }
        return allowed
    }

    /// The source an export may write other than by copying, and what it
    /// changes of it: nil when no strategy but copying lists every change, or
    /// the source's document is kept for a later export or its page count is
    /// not known. `PDFExporter.write` opens that source first when the caller
    /// did not, so that what it holds is read and judged here.
    package static func candidate(
        sources: [ExportSource], items: [ExportItem], stamps: [ExportStamp], options: ExportOptions
    ) -> (source: Int, changes: Set<SourceChange>)? {
        guard let (source, changes) = changes(sources: sources, items: items, stamps: stamps, options: options) else {
            return nil
        }
        let given = sources[source]
        guard given.document == nil || given.lastUseOfDocument, given.pageCount != nil else { return nil }
        let appended = options.appendUpdate && changes.allSatisfy(ExportStrategy.appendedUpdate.supports)
        guard appended || inPlaceMayTake(changes, items: items, sources: sources, source: source, options: options)
            || wholeFileMayTake(changes, items: items, sources: sources, source: source, options: options)
        else { return nil }
        return (source, changes)
    }

    /// The changes that rewrite a whole file (`optimize`, `--compress`,
    /// `--linearize`, `--images`): the whole-file strategy's reason to be.
    package static let rewritingChanges: Set<SourceChange> = [.compression, .linearization, .imageResampling]

    /// Whether the output may be its source written whole as far as the
    /// request goes (every page in order, a rewrite asked, nothing off its
    /// list); the file's facts decide the rest (`allowed`).
    private static func wholeFileMayTake(
        _ changes: Set<SourceChange>, items: [ExportItem], sources: [ExportSource], source: Int, options: ExportOptions
    ) -> Bool {
        guard options.inPlace, let pageCount = sources[source].pageCount else { return false }
        return items.count == pageCount && !changes.isDisjoint(with: rewritingChanges)
            && changes.allSatisfy(ExportStrategy.wholeFile.supports)
    }

    /// The pages of `source` that `items` place more than once.
    package static func placedTwice(_ items: [ExportItem], source: Int) -> Set<Int> {
        var seen: Set<Int> = []
        var twice: Set<Int> = []
        for case .page(let from, let index, _, _, _) in items where from == source {
            if !seen.insert(index).inserted { twice.insert(index) }
        }
        return twice
    }

    private static func inPlaceMayTake(
        _ changes: Set<SourceChange>, items: [ExportItem], sources: [ExportSource], source: Int, options: ExportOptions
    ) -> Bool {
        guard options.inPlace, let pageCount = sources[source].pageCount else { return false }
        return changes.allSatisfy(ExportStrategy.inPlace.supports) && items.count * 2 >= pageCount
    }

    /// The one source (its index) whose pages the output shows, and what it
    /// changes of that source; nil when the output is anything else (several
    /// sources, no items, a page index out of range, pages with more than a
    /// rotation, other items, stamps, an option that is not allow-listed).
    package static func changes(
        sources: [ExportSource], items: [ExportItem], stamps: [ExportStamp], options: ExportOptions
    ) -> (source: Int, changes: Set<SourceChange>)? {
        guard stamps.isEmpty, optionsBeyondTheLists(options) == ExportOptions() else { return nil }
        var source: Int?
        var pages: [Int] = []
        var changes: Set<SourceChange> = []
        pages.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .page(let from, let index, let quarterTurns, _, _):
                // Equal to the plain page: no boxes, no resize, nor whatever an
                // item learns to carry later.
                guard item == .page(source: from, index: index, quarterTurns: quarterTurns),
                    source == nil || source == from, sources.indices.contains(from), index >= 0
                else { return nil }
                source = from
                pages.append(index)
                if quarterTurns % 4 != 0 { changes.insert(.rotation) }
            case .blank, .sheet:
                return nil
            }
        }
        guard let source else { return nil }
        let pageCount = sources[source].pageCount
        if let pageCount, pages.contains(where: { $0 >= pageCount }) { return nil }
        var distinct: Set<Int> = []
        var lastFirst = -1
        for page in pages where distinct.insert(page).inserted {
            if page < lastFirst { changes.insert(.order) }
            lastFirst = page
        }
        if distinct.count < pages.count { changes.insert(.repeatedPages) }
        // Not known: the file's count decides (copying, see `allowed`).
        if pageCount.map({ distinct.count < $0 }) ?? true { changes.insert(.leftOutPages) }
        if options.labels != .keep || options.pageLabels != nil { changes.insert(.labels) }
        if let outline = options.outline, !outline.isEmpty { changes.insert(.outline) }
        if options.title != nil || options.author != nil || options.subject != nil || options.keywords != nil {
            changes.insert(.metadata)
        }
        if options.encryption != nil { changes.insert(.encryption) }
        if options.compress { changes.insert(.compression) }
        if options.linearize { changes.insert(.linearization) }
        if options.images != nil { changes.insert(.imageResampling) }
        return (source, changes)
    }

    /// `options` with what the lists know taken away: the changes above, and
    /// how the file is written rather than what it shows (its /ID, limits,
    /// threads, progress, the strategies' off switches) and what the file
    /// decides (the encryption it keeps, the scripts it holds). Anything left
    /// differs from `ExportOptions()` only by an option added since, which is
    /// copied until it joins a list here.
    private static func optionsBeyondTheLists(_ options: ExportOptions) -> ExportOptions {
        var rest = options
        rest.labels = .keep
        rest.pageLabels = nil
        rest.outline = nil
        rest.title = nil
        rest.author = nil
        rest.subject = nil
        rest.keywords = nil
        rest.encryption = nil
        rest.deterministicID = true
        rest.maxStreamBytes = nil
        rest.maxPixels = nil
        rest.progress = nil
        rest.threads = nil
        rest.inPlace = true
        rest.appendUpdate = true
        rest.requireAppendedUpdate = false
        rest.keepEncryptionOf = nil
        rest.keepScripts = false
        rest.compress = false
        rest.linearize = false
        rest.images = nil
        return rest
    }
}

extension ExportStrategy {
    /// How the bridge's message starts when `ExportOptions.requireAppendedUpdate`
    /// met a file that cannot take an appended update (`PE_MESSAGE_NOT_APPENDED`);
    /// the reason follows.
    package static let notAppendedMessage = PE_MESSAGE_NOT_APPENDED
}
