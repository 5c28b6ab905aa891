extension Session {
    /// Gives `newSources` their real ids (`s<n>` in order, or the id of an
    /// identical source already in the session) and checks `contents` against
    /// the sources they will refer to. Returns the sources to add, the
    /// contents with real ids and the source counter change.
    func importing(
        _ newSources: [Source], contents: [ItemContent]
    ) throws(EditError) -> (
        added: [Source], contents: [ItemContent], counter: CounterChange, realID: [SourceID: SourceID]
    ) {
        guard !contents.isEmpty else { throw .nothingToInsert }
        guard Set(newSources.map(\.id)).count == newSources.count else {
            throw .invalidContent("a new source id is given twice")
        }
        var added: [Source] = []
        var realID: [SourceID: SourceID] = [:]
        for provisional in newSources {
            try check(provisional)
            if let known = (sources + added).first(where: { $0.isSameFile(as: provisional) }) {
                realID[provisional.id] = known.id
            } else {
                var source = provisional
                source.id = SourceID(number: nextSourceNumber + added.count)
                realID[provisional.id] = source.id
                added.append(source)
            }
        }
        let mapped = contents.map { $0.replacingSource(using: realID) }
        let available = Dictionary((sources + added).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for content in mapped {
            try check(content, sources: available)
        }
        // The counter is at most Session.maximumCounter, so the provisional ids
        // above cannot overflow; handing them out past the maximum is refused here.
        return (added, mapped, try Self.advancing(nextSourceNumber, by: added.count, kind: "source"), realID)
    }

    private func check(_ source: Source) throws(EditError) {
        guard source.pageCount >= 1 else {
            throw .invalidContent("source \(quoted(source.path)) has no pages")
        }
        guard source.kind == .pdf || source.pageCount == 1 else {
            throw .invalidContent("image source \(quoted(source.path)) must count 1 page")
        }
        guard source.size >= 0 else {
            throw .invalidContent("source \(quoted(source.path)) has a negative size")
        }
    }

    func check(_ content: ItemContent, sources available: [SourceID: Source]) throws(EditError) {
        switch content {
        case .page(let id, let page):
            guard let source = available[id] else { throw .unknownSource(id) }
            guard source.kind == .pdf else {
                throw .invalidContent("source \(id) is an image: it has no pages to pick")
            }
            guard page >= 1, page <= source.pageCount else {
                throw .sourcePageOutOfRange(source: id, page: page, pageCount: source.pageCount)
            }
        case .image(let id, _):
            guard let source = available[id] else { throw .unknownSource(id) }
            guard source.kind == .image else { throw .invalidContent("source \(id) is a PDF, not an image") }
        case .blank(let size), .placeholder(let size, _):
            guard size.isValidPageSize else {
                throw .size(.outOfBounds(text: "\(size.width)x\(size.height)", size: size))
            }
        case .sheet:
            throw .invalidContent("a sheet is made by nup or booklet, not inserted")
        }
    }
}
