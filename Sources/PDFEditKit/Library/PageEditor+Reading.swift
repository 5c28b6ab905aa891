import PageModel

/// A page whose text holds what ``PageEditor/find(_:caseSensitive:in:)``
/// looked for: what `pdfedit find` prints, one line each.
public struct PageMatch: Equatable, Sendable {
    /// The page's 1-based position in the document.
    public var position: Int
    /// The item's stable id (`p3`).
    public var id: ItemID
    /// The page's label, when its source has labels.
    public var label: String?
    /// The text around the first occurrence, on one line.
    public var excerpt: String
}

/// One step of an editor's history, oldest first.
public struct HistoryStepInfo: Equatable, Sendable {
    /// What made the step: the method and its arguments, or the command line.
    public var label: String
    /// Whether the step is undone (``PageEditor/redo(_:)`` replays it).
    public var isUndone: Bool
}

extension PageEditor {
    /// The text of each selected page (all pages when `pages` is nil) of a
    /// document (nil: the current one), in document order, as poppler extracts
    /// it (what `pdfedit find`, `text:` selections and `list` read). A page that
    /// is not a PDF page (a blank, a placeholder, an image) has no text: "".
    /// A sheet's text is its cells' texts, one after another.
    public func text(of pages: PageSelection? = nil, in document: String? = nil) throws(PDFEditError) -> [String] {
        let chosen = try session.chosenDocument(document)
        let access = access
        let picked = try Workspace.items(of: chosen, selection: pages, access: access)
        access.prefetchTexts(of: picked.items)
        var texts: [String] = []
        for item in picked.items {
            try CancellationToken.check()
            texts.append(try access.text(of: item) ?? "")
        }
        return texts
    }

    /// The pages of a document (nil: the current one) whose text contains
    /// `query`, in document order: white space matches any run of white space,
    /// case is ignored unless `caseSensitive` (`pdfedit find`).
    public func find(_ query: String, caseSensitive: Bool = false, in document: String? = nil) throws(PDFEditError)
        -> [PageMatch]
    {
        guard !TextMatch.collapsed(query).isEmpty else { throw PDFEditError.usage("find needs some text to look for") }
        let chosen = try session.chosenDocument(document)
        let access = access
        access.prefetchTexts(of: chosen.items)
        let labels = OutputLabels(document: chosen, access: access)
        var matches: [PageMatch] = []
        for (index, item) in chosen.items.enumerated() {
            if index % 64 == 0 { try CancellationToken.check() }
            guard let text = try access.text(of: item), TextMatch.matches(text, query, caseSensitive: caseSensitive)
            else { continue }
            matches.append(
                PageMatch(
                    position: index + 1, id: item.id, label: labels.label(of: item),
                    excerpt: TextMatch.excerpt(text, query, caseSensitive: caseSensitive)))
        }
        return matches
    }

    /// The editor's history, oldest first: the steps ``undo(_:)`` can take
    /// back, then those it took back (``redo(_:)`` replays them) — what
    /// `pdfedit history` lists.
    public var history: [HistoryStepInfo] {
        session.historyEntries.map { HistoryStepInfo(label: $0.label, isUndone: $0.isUndone) }
    }
}
