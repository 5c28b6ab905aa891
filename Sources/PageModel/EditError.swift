/// Why an edit, an undo or a redo was refused. The session is unchanged.
public enum EditError: Error, Equatable, Sendable, CustomStringConvertible {
    case selection(SelectionError)
    case size(SizeError)
    /// `--before`/`--after` names an item that is itself being moved.
    case anchorInSelection(anchor: String, position: Int)
    case unknownDocument(String, known: [String])
    case documentExists(String)
    case invalidDocumentName(String, reason: String)
    /// A session always keeps at least one document.
    case cannotCloseLastDocument(String)
    /// `interleave` with the document itself.
    case sameDocument(String)
    case emptyDocument(String)
    case invalidCount(Int)
    /// `pad --multiple-of K` with K < 1.
    case invalidMultiple(Int)
    case invalidRotation(degrees: Int)
    /// `fill` at an item that is not a placeholder.
    case notAPlaceholder(position: Int, kind: String)
    case nothingToInsert
    /// The size of the item at `position` is needed and the caller could not give it.
    case pageSizeUnknown(position: Int, document: String)
    case unknownSource(SourceID)
    case sourcePageOutOfRange(source: SourceID, page: Int, pageCount: Int)
    /// A `.page` of an image source, an `.image` of a PDF, a bad page count…
    case invalidContent(String)
    /// `relink` to a file with fewer pages than the session uses.
    case relinkTooFewPages(source: SourceID, needed: Int, pageCount: Int)
    case invalidStepCount(Int)
    /// A stamp's opacity outside (0, 1].
    case invalidOpacity(Double)
    /// `unstamp` of items none of which has a stamp.
    case nothingToUnstamp(selected: Int)
    /// A generated stamp's text holds a character the standard fonts cannot encode.
    case unencodableText(UnencodableCharacter, text: String)
    /// A generated stamp's option out of range (size, digits, angle...).
    case invalidTextStamp(String)
    /// `crop` would leave a page without a visible area, or has nothing to do.
    case invalidCrop(String)
    /// `resize` to an impossible size, or with nothing to do.
    case invalidResize(String)
    /// `split-page --grid CxR` out of range.
    case invalidGrid(columns: Int, rows: Int)
    /// `nup`/`booklet` that cannot make its sheets (grid, gutter, a sheet selected).
    case invalidSheet(String)
    case nothingToUndo(requested: Int, available: Int)
    case nothingToRedo(requested: Int, available: Int)
    /// The stored history does not fit the session (a hand-edited session file).
    case historyCorrupt(String)
    /// `--count` would take the document past `Limits.itemsPerDocument`.
    case countOverLimit(count: Int, document: String, pageCount: Int, limit: Int)
    /// The edit would leave a document with more than `Limits.itemsPerDocument` items.
    case tooManyItems(document: String, count: Int, limit: Int)
    /// Handing out `needed` more ids of `kind` ("item", "source") from `next`
    /// would pass `Session.maximumCounter`.
    case idsExhausted(kind: String, next: Int, needed: Int)
    /// Two `labels` ranges start at the same item.
    case duplicateLabelStart(position: Int)
    /// `meta` with nothing to set.
    case nothingToSet
    /// A metadata value PDF metadata cannot hold (`DocumentMetadata.problem`).
    case invalidMetadata(String)
    /// An outline command that cannot be carried out: no such entry, two
    /// entries with one path, an empty title, an outline over its limits.
    case invalidOutline(String)
    /// `flatten` or `strip` with nothing to do, or an invalid `--type`.
    case invalidFinish(String)
    /// An attachment command that cannot be carried out: a name taken or not
    /// known, a name that breaks `Attachment.problem(ofName:)`.
    case invalidAttachment(String)
    /// Edit number `index` (0-based) of a batch failed; nothing of the batch was applied.
    indirect case batch(index: Int, EditError)

    public var description: String {
        switch self {
        case .selection(let error):
            return error.description
        case .size(let error):
            return error.description
        case .anchorInSelection(let anchor, let position):
            return
                "anchor \(quoted(anchor)) (position \(position)) is itself selected: anchor the block to an unselected item"
        case .unknownDocument(let name, let known):
            let list = cappedList(known.map { "\(quoted($0))" })
            return "no document named \(quoted(name)) (documents: \(list))"
        case .documentExists(let name):
            return "a document named \(quoted(name)) already exists"
        case .invalidDocumentName(let name, let reason):
            return "\(quoted(name)) cannot name a document: \(reason)"
        case .cannotCloseLastDocument(let name):
            return "cannot close \(quoted(name)): it is the only document of the session"
        case .sameDocument(let name):
            return "cannot interleave \(quoted(name)) with itself"
        case .emptyDocument(let name):
            return "document \(quoted(name)) is empty"
        case .invalidCount(let count):
            return "count must be at least 1 (got \(count))"
        case .invalidMultiple(let multiple):
            return "--multiple-of must be at least 1 (got \(multiple))"
        case .invalidRotation(let degrees):
            return "cannot rotate by \(degrees)°: use 90, 180, 270 or -90"
        case .notAPlaceholder(let position, let kind):
            return "position \(position) is a \(kind), not a placeholder"
        case .nothingToInsert:
            return "nothing to insert"
        case .pageSizeUnknown(let position, let document):
            return "the size of the page at position \(position) of \(quoted(document)) is not known: give --size"
        case .unknownSource(let id):
            return "no source \(id) in the session"
        case .sourcePageOutOfRange(let source, let page, let pageCount):
            return "source \(source) has \(pagesPhrase(pageCount)): there is no page \(page)"
        case .invalidContent(let reason):
            return reason
        case .relinkTooFewPages(let source, let needed, let pageCount):
            return "cannot relink \(source): the session uses its page \(needed), "
                + "the new file has \(pagesPhrase(pageCount))"
        case .invalidOpacity(let opacity):
            return "opacity must be above 0 and at most 1 (got \(opacity))"
        case .invalidCrop(let reason), .invalidResize(let reason):
            return reason
        case .invalidGrid(let columns, let rows):
            return "a grid of \(columns)x\(rows) cannot split a page: each side takes 1 to \(Session.maximumGridSide) "
                + "and there must be at least 2 cells"
        case .invalidSheet(let reason):
            return reason
        case .nothingToUnstamp(let selected):
            return selected == 1 ? "the selected page has no stamp" : "none of the \(selected) selected pages has a stamp"
        case .unencodableText(let character, let text):
            return "cannot write \(character) of \"\(text)\": the standard fonts (WinAnsi encoding) have no such character"
        case .invalidTextStamp(let reason):
            return reason
        case .invalidStepCount(let count):
            return "the number of steps must be at least 1 (got \(count))"
        case .nothingToUndo(let requested, let available):
            return available == 0
                ? "nothing to undo" : "cannot undo \(requested) steps: only \(available) can be undone"
        case .nothingToRedo(let requested, let available):
            return available == 0
                ? "nothing to redo" : "cannot redo \(requested) steps: only \(available) can be redone"
        case .historyCorrupt(let reason):
            return "the session's history is inconsistent (\(reason)); nothing was changed"
        case .countOverLimit(let count, let document, let pageCount, let limit):
            return "--count \(count) is over the limit: a document holds at most \(limit) items "
                + "(PDFEDIT_MAX_ITEMS) and \(quoted(document)) has \(pagesPhrase(pageCount))"
        case .tooManyItems(let document, let count, let limit):
            return "\(quoted(document)) would hold \(count) items, over the limit of \(limit) items per document "
                + "(PDFEDIT_MAX_ITEMS)"
        case .idsExhausted(let kind, let next, let needed):
            return "cannot hand out \(countPhrase(needed, "more \(kind) id")): the next is \(next) and ids stop at "
                + "\(Session.maximumCounter)"
        case .duplicateLabelStart(let position):
            return "two page label ranges start at position \(position)"
        case .nothingToSet:
            return "nothing to set: give --title, --author, --subject or --keywords"
        case .invalidMetadata(let reason):
            return escapingControlCharacters(reason)
        case .invalidOutline(let reason), .invalidFinish(let reason):
            return reason
        case .invalidAttachment(let reason):
            return escapingControlCharacters(reason)
        case .batch(let index, let error):
            return "edit \(index + 1): \(error)"
        }
    }
}
