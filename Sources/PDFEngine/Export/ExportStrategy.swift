import QPDFCore

/// How `pe_export` writes one output, and the one decision of which ways a plan
/// may take (`ExportStrategy.allowed`). The bridge carries out what it is given:
/// it decides nothing about what an edit may do, and only falls back to the next
/// way when the FILE cannot take one (encrypted, damaged, no cross-reference
/// table to append to, a catalog holding what the output must drop).
package enum ExportStrategy: Sendable, Equatable, CaseIterable {
    /// The source's bytes unchanged, followed by an incremental update holding
    /// only what changed (Appended.cpp). Nothing may be taken out of the
    /// document: what is taken out stays readable in the source's bytes.
    case appendedUpdate
    /// The source rearranged in memory and written whole (InPlace.cpp): only
    /// what the output still uses reaches the file.
    case inPlace
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
    /// address, `SourceContents.plainLinks`): kept where their target page is
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
}

/// What a source holds besides its pages, read from its opened document
/// (`OpenedPDF.contents()`, `pe_document_read_contents`): the facts the
/// in-place rewrite's allow-list is checked against.
package struct SourceContents: Sendable, Equatable {
    package enum OpenAction: Sendable, Equatable {
        case none
        /// An array, a name, a string, or a GoTo action of /S and /D only.
        case destination
        case other
    }

    package var catalogKeys: Set<String>
    /// The keys of the catalog's /Names dictionary.
    package var nameTrees: Set<String>
    /// Annotation dictionaries on the pages, and how many of them are plain
    /// links (nothing in them but a destination, an address and their page
    /// reaches another object of the file that could be a page).
    package var annotations: Int
    package var plainLinks: Int
    /// Some page has additional actions (/AA), article beads (/B) or another
    /// entry that may name other pages (/SeparationInfo, /PresSteps,
    /// /PieceInfo, /DPart).
    package var pageActions: Bool
    package var openAction: OpenAction
    /// Bookmarks with an action that is neither a destination nor a plain URI.
    package var outlineActions: Int
    /// /AcroForm has fields, resp. an XFA form.
    package var formFields: Bool
    package var xfa: Bool

    package init(
        catalogKeys: Set<String>, nameTrees: Set<String> = [], annotations: Int = 0, plainLinks: Int = 0,
        pageActions: Bool = false, openAction: OpenAction = .none, outlineActions: Int = 0, formFields: Bool = false,
        xfa: Bool = false
    ) {
        self.catalogKeys = catalogKeys
        self.nameTrees = nameTrees
        self.annotations = annotations
        self.plainLinks = plainLinks
        self.pageActions = pageActions
        self.openAction = openAction
        self.outlineActions = outlineActions
        self.formFields = formFields
        self.xfa = xfa
    }

    /// What an output of the source carries of these contents. Catalog
    /// entries that copying writes as the in-place rewrite does (or leaves out
    /// without a word) add nothing; an entry not named here is `otherContents`.
    package var changes: Set<SourceChange> {
        var changes: Set<SourceChange> = []
        for key in catalogKeys {
            switch key {
            case "/Type", "/Pages", "/PageLabels", "/Metadata", "/Lang", "/PageLayout", "/PageMode",
                "/ViewerPreferences", "/Version", "/Extensions", "/MarkInfo",
                "/JT":  // a job ticket: print production data, which copying leaves out too
                break
            case "/Outlines": changes.insert(.sourceOutline)
            case "/Dests": changes.insert(.namedDestinations)
            case "/Names":
                if !nameTrees.isEmpty { changes.insert(.namedDestinations) }
                if !nameTrees.isSubset(of: ["/Dests"]) { changes.insert(.otherContents) }
            case "/OpenAction":
                switch openAction {
                case .none: break
                case .destination: changes.insert(.openDestination)
                case .other: changes.insert(.otherContents)
                }
            case "/AcroForm":
                // A form without fields: copying writes no /AcroForm, silently.
                if formFields || xfa { changes.insert(.otherContents) }
            default:
                changes.insert(.otherContents)
            }
        }
        if annotations > 0 { changes.insert(.links) }
        if annotations > plainLinks || pageActions || outlineActions > 0 { changes.insert(.otherContents) }
        return changes
    }
}

/// The strategies an export may take, fastest first; copying is always one.
package struct ExportStrategies: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let appendedUpdate = ExportStrategies(rawValue: 1)
    package static let inPlace = ExportStrategies(rawValue: 2)
    /// With `inPlace`: the source's contents were read and are on the
    /// in-place list (`SourceContents.changes`), so the bridge rearranges it
    /// with its links, bookmarks and open action (PE_STRATEGY_IN_PLACE_CONTENTS).
    /// Without it, the bridge takes only a source whose catalog and pages hold
    /// nothing of these (a document the caller did not open: not read).
    package static let inPlaceWithContents = ExportStrategies(rawValue: 4)
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
            case .leftOutPages, .metadata, .encryption: false
            }
        case .inPlace:
            switch change {
            case .order, .rotation, .repeatedPages, .leftOutPages, .labels, .metadata, .encryption: true
            case .outline, .links, .sourceOutline, .namedDestinations, .openDestination: true
            case .otherContents: false
            }
        case .copy:
            true
        }
    }

    /// The strategies `PDFExporter.write` may take for this export besides
    /// copying: those whose allow-list holds every change the output makes
    /// (`changes`), when it is one source's pages and nothing else, and the
    /// source's document may be changed in memory (not opened for a later
    /// export too). The in-place rewrite only for at least half of the
    /// source's pages (below that, copying what is kept is faster), and, for
    /// an output the update does not take, only when what the source holds
    /// besides its pages (`contents`, read from its opened document; nil: not
    /// opened, not read) is on its list too; unread, the bridge takes in place
    /// only a file whose catalog and pages hold none of it. Empty: copy.
    package static func allowed(
        sources: [ExportSource], items: [ExportItem], stamps: [ExportStamp], options: ExportOptions,
        contents: (ExportSource) -> SourceContents? = { try? $0.document?.contents() }
    ) -> ExportStrategies {
        guard let (source, changes) = changes(sources: sources, items: items, stamps: stamps, options: options) else {
            return []
        }
        let given = sources[source]
        guard given.document == nil || given.lastUseOfDocument, let pageCount = given.pageCount else { return [] }
        var allowed: ExportStrategies = []
        if options.appendUpdate, changes.allSatisfy(ExportStrategy.appendedUpdate.supports) {
            allowed.insert(.appendedUpdate)
        }
        if options.inPlace, changes.allSatisfy(ExportStrategy.inPlace.supports), items.count * 2 >= pageCount {
            // Read only for an output the update does not take (an output that
            // leaves pages out): reading touches every annotation of the file.
            if !allowed.contains(.appendedUpdate), let contents = contents(given) {
                if contents.changes.allSatisfy(ExportStrategy.inPlace.supports) {
                    allowed.formUnion([.inPlace, .inPlaceWithContents])
                }
            } else {
                allowed.insert(.inPlace)
            }
        }
        return allowed
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
        return rest
    }
}

extension ExportStrategy {
    /// How the bridge's message starts when `ExportOptions.requireAppendedUpdate`
    /// met a file that cannot take an appended update (`PE_MESSAGE_NOT_APPENDED`);
    /// the reason follows.
    package static let notAppendedMessage = PE_MESSAGE_NOT_APPENDED
}
