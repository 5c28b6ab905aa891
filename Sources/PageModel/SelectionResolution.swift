extension PageSelection {
    /// The 0-based indices this selection names in `document`, ascending.
    ///
    /// `text` tells whether an item's page text contains the words of a `text:`
    /// token (false when it has none, e.g. a blank page), as `find` matches them:
    /// the Unicode rules of that match (NFKC, case folding) are the text
    /// library's, outside the model. `darkShare` gives the share of dark pixels of
    /// an item's page for `empty` tokens, and `hasText` whether it has extractable
    /// text (see `EmptyPage.isEmpty`; nil: none known). Each positional token
    /// must select at least one item, and no item may be selected by two tokens —
    /// but tokens that depend on the pages (`text:`, `empty`) may overlap each
    /// other and may match nothing; when nothing is selected because of them,
    /// the answer is `.matchedNothing` (an edit then changes nothing).
    package func resolve(
        in document: Document, text: ((PageItem, String) -> Bool)? = nil, darkShare: ((PageItem) -> Double?)? = nil,
        hasText: ((PageItem) -> Bool)? = nil
    ) throws(SelectionError) -> [Int] {
        try resolve(in: document, context: EditContext(pageText: text, darkShare: darkShare, pageHasText: hasText))
    }

    /// The 0-based indices this selection names in `document`, ascending, with
    /// the context's lookups answering the tokens that look at the pages
    /// (`text:`, `empty`, `landscape`, `annotated`, `dup` …); a token whose
    /// lookup the context lacks is an error naming it.
    package func resolve(in document: Document, context: EditContext) throws(SelectionError) -> [Int] {
        let count = document.items.count
        // owner[i] is the index of the token that selected position i, or -1.
        var owner = [Int](repeating: -1, count: count)
        var idIndex: [ItemID: Int]?
        var unmatched: [String] = []
        var pages = PageLookups(document: document, context: context)

        for (tokenIndex, token) in tokens.enumerated() {
            let indices: [Int]
            switch token.kind {
            case .single(let bound):
                let position = bound.position(count: count)
                guard (1...max(count, 1)).contains(position), count > 0 else {
                    throw .outOfRange(token: token.text, pageCount: count)
                }
                indices = [position - 1]
            case .range(let lower, let upper):
                let first = lower?.position(count: count) ?? 1
                let last = upper?.position(count: count) ?? count
                guard count > 0, (1...count).contains(first), (1...count).contains(last) else {
                    throw .outOfRange(token: token.text, pageCount: count)
                }
                guard first <= last else { throw .descendingRange(token: token.text, pageCount: count) }
                indices = Array((first - 1)..<last)
            case .odd:
                indices = Array(stride(from: 0, to: count, by: 2))
            case .even:
                indices = Array(stride(from: 1, to: count, by: 2))
            case .all:
                indices = Array(0..<count)
            case .id(let id):
                if idIndex == nil {
                    idIndex = Dictionary(
                        document.items.enumerated().map { ($0.element.id, $0.offset) },
                        uniquingKeysWith: { first, _ in first })
                }
                guard let index = idIndex?[id] else { throw .unknownID(token: token.text, pageCount: count) }
                indices = [index]
            case .text(let words):
                guard let text = context.pageText else { throw .textWithoutLookup(token: token.text) }
                indices = document.items.indices.filter { text(document.items[$0], words) }
            case .empty(let maximumShare, let inkOnly):
                guard let darkShare = context.darkShare else { throw .renderingWithoutLookup(token: token.text) }
                let hasText = context.pageHasText ?? { _ in false }
                indices = document.items.indices.filter { index in
                    EmptyPage.isEmpty(
                        document.items[index], maximumShare: maximumShare, inkOnly: inkOnly, hasText: hasText,
                        darkShare: darkShare)
                }
            case .landscape, .portrait, .size, .annotated, .imageOnly, .label, .outline, .duplicate:
                indices = try pages.indices(of: token)
            }
            guard !indices.isEmpty else {
                if token.kind.dependsOnPages {
                    unmatched.append(token.text)
                    continue
                }
                throw .selectsNothing(token: token.text, pageCount: count)
            }
            for index in indices {
                if owner[index] >= 0, token.kind.dependsOnPages, tokens[owner[index]].kind.dependsOnPages { continue }
                guard owner[index] < 0 else {
                    throw .duplicate(
                        token: token.text, position: index + 1, firstToken: tokens[owner[index]].text,
                        pageCount: count)
                }
                owner[index] = tokenIndex
            }
        }
        guard !tokens.isEmpty else { throw .empty(pageCount: count) }
        let selected = owner.indices.filter { owner[$0] >= 0 }
        if selected.isEmpty, !unmatched.isEmpty { throw .matchedNothing(tokens: unmatched, pageCount: count) }
        return selected
    }
}
