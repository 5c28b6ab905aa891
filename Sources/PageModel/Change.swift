/// One primitive, exactly invertible change of a session. A history step is
/// a list of these, so it stores what changed (positions as runs, the items
/// only where they were created or destroyed), never a copy of a document.
enum Change: Equatable, Sendable {
    /// Take the items at `positions` out of `from` and put them into `to` so
    /// that they end at `at` (indices in the result), in order. `from` may be `to`.
    case transfer(from: String, positions: IndexRuns, to: String, at: IndexRuns)
    /// New items, ending at `at`.
    case insert(document: String, at: IndexRuns, items: [PageItem])
    /// The items at `at`, which must be `items`, go away.
    case remove(document: String, at: IndexRuns, items: [PageItem])
    /// Add `quarterTurns` (0…3) to each item's rotation, modulo 4.
    case rotate(document: String, at: IndexRuns, quarterTurns: Int)
    /// The items at `at` swap places among their own slots (its own inverse).
    case reverse(document: String, at: IndexRuns)
    case counters(items: CounterChange, sources: CounterChange)
    /// Sources appended at the end of the source list.
    case addSources([Source])
    /// The last sources of the list, which must be these, go away.
    case removeSources([Source])
    case replaceSource(old: Source, new: Source)
    case addDocument(Document, index: Int)
    case dropDocument(Document, index: Int)
    case renameDocument(from: String, to: String)
    /// The items at `at`, whose stamps are all `from`, get the stamps `to`.
    case restamp(document: String, at: IndexRuns, from: [Stamp], to: [Stamp])
    /// The document's label ranges, which must be `from`, become `to`.
    case relabel(document: String, from: [LabelRange]?, to: [LabelRange]?)
    /// The document's metadata, which must be `from`, becomes `to`.
    case setMetadata(document: String, from: DocumentMetadata?, to: DocumentMetadata?)
    /// The document's outline, which must be `from`, becomes `to`.
    case outline(document: String, from: [OutlineEntry]?, to: [OutlineEntry]?)
    /// The items at `at`, whose boxes are all `from`, get the boxes `to`.
    case rebox(document: String, at: IndexRuns, from: PageBoxes, to: PageBoxes)
    /// The items at `at`, whose shape (rotation, boxes, resize) is `from`, get `to`.
    case reshape(document: String, at: IndexRuns, from: ItemShape, to: ItemShape)
    /// The items at `at`, whose finishing (`flatten`, `strip`) is all `from`, get `to`.
    case refinish(document: String, at: IndexRuns, from: [PageFinish], to: [PageFinish])
    /// The document's stripped parts, which must be `from`, become `to`.
    case restrip(document: String, from: [DocumentPart], to: [DocumentPart])
    /// The document's attachments, which must be `from`, become `to`.
    case setAttachments(document: String, from: DocumentAttachments?, to: DocumentAttachments?)
    /// The document's export settings (`optimize`), which must be `from`, become `to`.
    case reoptimize(document: String, from: OptimizeSettings?, to: OptimizeSettings?)

    var inverse: Change {
        switch self {
        case .transfer(let from, let positions, let to, let at):
            .transfer(from: to, positions: at, to: from, at: positions)
        case .insert(let document, let at, let items):
            .remove(document: document, at: at, items: items)
        case .remove(let document, let at, let items):
            .insert(document: document, at: at, items: items)
        case .rotate(let document, let at, let quarterTurns):
            .rotate(document: document, at: at, quarterTurns: (4 - quarterTurns) % 4)
        case .reverse:
            self
        case .counters(let items, let sources):
            .counters(items: items.inverse, sources: sources.inverse)
        case .addSources(let sources):
            .removeSources(sources)
        case .removeSources(let sources):
            .addSources(sources)
        case .replaceSource(let old, let new):
            .replaceSource(old: new, new: old)
        case .addDocument(let document, let index):
            .dropDocument(document, index: index)
        case .dropDocument(let document, let index):
            .addDocument(document, index: index)
        case .renameDocument(let from, let to):
            .renameDocument(from: to, to: from)
        case .restamp(let document, let at, let from, let to):
            .restamp(document: document, at: at, from: to, to: from)
        case .relabel(let document, let from, let to):
            .relabel(document: document, from: to, to: from)
        case .setMetadata(let document, let from, let to):
            .setMetadata(document: document, from: to, to: from)
        case .outline(let document, let from, let to):
            .outline(document: document, from: to, to: from)
        case .rebox(let document, let at, let from, let to):
            .rebox(document: document, at: at, from: to, to: from)
        case .reshape(let document, let at, let from, let to):
            .reshape(document: document, at: at, from: to, to: from)
        case .refinish(let document, let at, let from, let to):
            .refinish(document: document, at: at, from: to, to: from)
        case .restrip(let document, let from, let to):
            .restrip(document: document, from: to, to: from)
        case .setAttachments(let document, let from, let to):
            .setAttachments(document: document, from: to, to: from)
        case .reoptimize(let document, let from, let to):
            .reoptimize(document: document, from: to, to: from)
        }
    }
}

/// A counter's value before and after a step, so undo can put it back.
struct CounterChange: Equatable, Sendable {
    var before: Int
    var after: Int

    var inverse: CounterChange { CounterChange(before: after, after: before) }
}
