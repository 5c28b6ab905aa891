/// A primitive change that does not fit the session. Edits build only
/// changes that fit, so this means a bug or a hand-edited history.
struct ChangeFailure: Error {
    var reason: String
}

extension Session {
    /// Applies one primitive change, checking everything it relies on, so a
    /// damaged history fails with a message instead of trapping.
    mutating func perform(_ change: Change) throws(ChangeFailure) {
        switch change {
        case .transfer(let from, let positions, let to, let at):
            let fromIndex = try existingDocument(from)
            guard let (taken, kept) = documents[fromIndex].items.partitioned(by: positions) else {
                throw ChangeFailure(reason: "positions past the end of \(quoted(from))")
            }
            documents[fromIndex].items = kept
            let toIndex = try existingDocument(to)
            documents[toIndex].items = try merged(taken, into: documents[toIndex].items, at: at, document: to)

        case .insert(let document, let at, let items):
            for item in items {
                for source in item.content.sources + item.stamps.compactMap(\.source)
                where self.source(source) == nil {
                    throw ChangeFailure(reason: "item \(item.id) refers to missing source \(source)")
                }
            }
            let index = try existingDocument(document)
            documents[index].items = try merged(items, into: documents[index].items, at: at, document: document)

        case .remove(let document, let at, let items):
            let index = try existingDocument(document)
            guard let (taken, kept) = documents[index].items.partitioned(by: at), taken == items else {
                throw ChangeFailure(reason: "the items to remove from \(quoted(document)) are not where they were")
            }
            documents[index].items = kept

        case .rotate(let document, let at, let quarterTurns):
            let index = try existingDocument(document)
            try checkBounds(at, document: index)
            for run in at.runs {
                for i in run {
                    documents[index].items[i].rotation = (documents[index].items[i].rotation + quarterTurns) & 3
                }
            }

        case .reverse(let document, let at):
            let index = try existingDocument(document)
            try checkBounds(at, document: index)
            let slots = at.indices
            for k in 0..<(slots.count / 2) {
                documents[index].items.swapAt(slots[k], slots[slots.count - 1 - k])
            }

        case .counters(let items, let sources):
            guard nextItemNumber == items.before, nextSourceNumber == sources.before else {
                throw ChangeFailure(reason: "id counters are not where the history left them")
            }
            nextItemNumber = items.after
            nextSourceNumber = sources.after

        case .addSources(let added):
            for source in added where self.source(source.id) != nil {
                throw ChangeFailure(reason: "source \(source.id) already exists")
            }
            sources.append(contentsOf: added)

        case .removeSources(let removed):
            guard sources.count >= removed.count, Array(sources.suffix(removed.count)) == removed else {
                throw ChangeFailure(reason: "the sources to remove are not the last ones")
            }
            sources.removeLast(removed.count)

        case .replaceSource(let old, let new):
            guard let index = sources.firstIndex(of: old), old.id == new.id else {
                throw ChangeFailure(reason: "source \(old.id) is not as the history recorded it")
            }
            sources[index] = new

        case .addDocument(let document, let index):
            guard documentIndex(document.name) == nil, index >= 0, index <= documents.count else {
                throw ChangeFailure(reason: "cannot add document \(quoted(document.name)) back")
            }
            documents.insert(document, at: index)

        case .dropDocument(let document, let index):
            guard index >= 0, index < documents.count, documents[index] == document, documents.count > 1 else {
                throw ChangeFailure(reason: "document \(quoted(document.name)) is not as the history recorded it")
            }
            documents.remove(at: index)

        case .renameDocument(let from, let to):
            let index = try existingDocument(from)
            guard documentIndex(to) == nil else { throw ChangeFailure(reason: "document \(quoted(to)) already exists") }
            documents[index].name = to
            if current == from { current = to }

        case .restamp(let document, let at, let from, let to):
            let index = try existingDocument(document)
            try checkBounds(at, document: index)
            try restamp(document: index, at: at, from: from, to: to)

        case .rebox(let document, let at, let from, let to):
            let index = try existingDocument(document)
            try checkBounds(at, document: index)
            try rebox(document: index, at: at, from: from, to: to)

        case .reshape(let document, let at, let from, let to):
            let index = try existingDocument(document)
            try checkBounds(at, document: index)
            try reshape(document: index, at: at, from: from, to: to)

        case .relabel(let document, let from, let to):
            let index = try existingDocument(document)
            guard documents[index].labelRanges == from else {
                throw ChangeFailure(reason: "the page labels of \(quoted(document)) are not as the history recorded them")
            }
            documents[index].labelRanges = to

        case .setMetadata(let document, let from, let to):
            let index = try existingDocument(document)
            guard documents[index].metadata == from else {
                throw ChangeFailure(reason: "the metadata of \(quoted(document)) is not as the history recorded it")
            }
            documents[index].metadata = to

        case .outline(let document, let from, let to):
            let index = try existingDocument(document)
            guard documents[index].outline == from else {
                throw ChangeFailure(reason: "the outline of \(quoted(document)) is not as the history recorded it")
            }
            documents[index].outline = to

        case .refinish(let document, let at, let from, let to):
            let index = try existingDocument(document)
            try checkBounds(at, document: index)
            for run in at.runs {
                for i in run where documents[index].items[i].finish != from {
                    throw ChangeFailure(
                        reason: "what is flattened or stripped on \(documents[index].items[i].id) is not as the history recorded it")
                }
            }
            for run in at.runs {
                for i in run { documents[index].items[i].finish = to }
            }

        case .restrip(let document, let from, let to):
            let index = try existingDocument(document)
            guard documents[index].stripped == from else {
                throw ChangeFailure(reason: "what \(quoted(document)) strips is not as the history recorded it")
            }
            documents[index].stripped = to
        case .setAttachments(let document, let from, let to):
            let index = try existingDocument(document)
            guard documents[index].attachments == from else {
                throw ChangeFailure(reason: "the attachments of \(quoted(document)) are not as the history recorded them")
            }
            documents[index].attachments = to
        case .reoptimize(let document, let from, let to):
            let index = try existingDocument(document)
            guard documents[index].optimize == from else {
                throw ChangeFailure(reason: "the export settings of \(quoted(document)) are not as the history recorded them")
            }
            documents[index].optimize = to
        }
    }

    private func existingDocument(_ name: String) throws(ChangeFailure) -> Int {
        guard let index = documentIndex(name) else { throw ChangeFailure(reason: "no document \(quoted(name))") }
        return index
    }

    private func checkBounds(_ runs: IndexRuns, document index: Int) throws(ChangeFailure) {
        if let last = runs.last, last >= documents[index].items.count {
            throw ChangeFailure(reason: "positions past the end of \(quoted(documents[index].name))")
        }
    }

    private func merged(
        _ block: [PageItem], into items: [PageItem], at runs: IndexRuns, document: String
    ) throws(ChangeFailure) -> [PageItem] {
        guard let result = items.merging(block, at: runs) else {
            throw ChangeFailure(
                reason: "cannot place \(block.count) items at the recorded positions of \(quoted(document))")
        }
        return result
    }
}
