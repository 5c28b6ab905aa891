extension Session {
    /// `relink`: the source now lives at `path` with a new fingerprint (moved
    /// or updated). Its kind stays; it must still have every page the
    /// documents use.
    mutating func executeRelink(
        _ id: SourceID, path: String, size: Int64, sha256: String, pageCount: Int
    ) throws(EditError) -> EditOutcome {
        guard let old = source(id) else { throw .unknownSource(id) }
        var new = old
        new.path = path
        new.size = size
        new.sha256 = sha256
        new.pageCount = pageCount
        guard size >= 0, pageCount >= 1, old.kind == .pdf || pageCount == 1 else {
            throw .invalidContent("\(quoted(path)) cannot replace \(id): bad size or page count")
        }
        var highest = 0
        for document in documents {
            for item in document.items.flatMap({ [$0] + ($0.content.sheet?.items ?? []) }) {
                if case .page(id, let page) = item.content { highest = max(highest, page) }
                for stamp in item.stamps {
                    if case .page(let source, let page) = stamp.content, source == id { highest = max(highest, page) }
                }
            }
        }
        guard highest <= pageCount else {
            throw .relinkTooFewPages(source: id, needed: highest, pageCount: pageCount)
        }
        let changes: [Change] = [.replaceSource(old: old, new: new)]
        try commit(changes)
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "relink", description: "relinked \(id) to \(quoted(path))", document: current,
                pageCount: currentDocument?.pageCount ?? 0))
    }
}
