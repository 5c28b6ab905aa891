/// A broken invariant of a session: what a hand-edited or damaged session
/// file can contain and an edit never produces.
package enum SessionInconsistency: Equatable, Sendable, CustomStringConvertible {
    case noDocuments
    case duplicateDocumentName(String)
    case invalidDocumentName(String, reason: String)
    case unknownCurrentDocument(String)
    case invalidCounter(name: String, value: Int)
    case duplicateSourceID(SourceID)
    /// A source id at or past `nextSourceNumber`: a later import would reuse it.
    case sourceIDNotIssued(SourceID, nextSourceNumber: Int)
    case invalidSource(SourceID, reason: String)
    case duplicateItemID(ItemID)
    /// An item id at or past `nextItemNumber`: a later item would reuse it.
    case itemIDNotIssued(ItemID, nextItemNumber: Int)
    case invalidRotation(ItemID, rotation: Int)
    case invalidBox(ItemID, kind: PageBoxKind, BoxRect)
    case invalidResize(ItemID, String)
    case unknownSource(item: ItemID, source: SourceID)
    case invalidContent(item: ItemID, reason: String)
    case invalidStamp(item: ItemID, reason: String)
    case invalidLabelRange(document: String, reason: String)
    case invalidOutline(document: String, reason: String)
    case invalidMetadata(document: String, reason: String)
    case invalidAttachment(document: String, reason: String)

    package var description: String {
        switch self {
        case .noDocuments: "the session has no document"
        case .duplicateDocumentName(let name): "two documents are named \(quoted(name))"
        case .invalidDocumentName(let name, let reason): "document name \(quoted(name)) is invalid: \(reason)"
        case .unknownCurrentDocument(let name): "the current document \(quoted(name)) does not exist"
        case .invalidCounter(let name, let value): "\(name) is \(value), it must be 1 to \(Session.maximumCounter)"
        case .duplicateSourceID(let id): "source id \(id) is used twice"
        case .sourceIDNotIssued(let id, let next): "source id \(id) is not below nextSourceNumber \(next)"
        case .invalidSource(let id, let reason): "source \(id): \(reason)"
        case .duplicateItemID(let id): "item id \(id) is used twice"
        case .itemIDNotIssued(let id, let next): "item id \(id) is not below nextItemNumber \(next)"
        case .invalidRotation(let id, let rotation): "item \(id) has rotation \(rotation), not 0…3"
        case .invalidBox(let id, let kind, let rect): "item \(id) has a \(kind.rawValue) box \(rect) without area"
        case .invalidResize(let id, let reason): "item \(id) is resized \(reason)"
        case .unknownSource(let item, let source): "item \(item) refers to unknown source \(source)"
        case .invalidContent(let item, let reason): "item \(item): \(reason)"
        case .invalidStamp(let item, let reason): "a stamp of item \(item): \(reason)"
        case .invalidLabelRange(let document, let reason): "a page label range of \(quoted(document)): \(reason)"
        case .invalidOutline(let document, let reason): "the outline of \(quoted(document)): \(reason)"
        case .invalidMetadata(let document, let reason): "the metadata of \(quoted(document)): \(reason)"
        case .invalidAttachment(let document, let reason): "the attachments of \(quoted(document)): \(reason)"
        }
    }
}

extension Session {
    /// The first broken invariant, or nil. Checked when a session is read
    /// and after undo/redo, which replay stored history.
    func firstInconsistency() -> SessionInconsistency? {
        guard !documents.isEmpty else { return .noDocuments }
        for (name, value) in [("nextItemNumber", nextItemNumber), ("nextSourceNumber", nextSourceNumber)]
        where !(1...Session.maximumCounter).contains(value) {
            return .invalidCounter(name: name, value: value)
        }

        var names = Set<String>()
        for document in documents {
            if let problem = Session.problem(withDocumentName: document.name) {
                return .invalidDocumentName(document.name, reason: problem)
            }
            guard names.insert(document.name).inserted else { return .duplicateDocumentName(document.name) }
        }
        guard names.contains(current) else { return .unknownCurrentDocument(current) }

        var sourcesByID: [SourceID: Source] = [:]
        for source in sources {
            guard sourcesByID.updateValue(source, forKey: source.id) == nil else {
                return .duplicateSourceID(source.id)
            }
            guard source.id.number < nextSourceNumber else {
                return .sourceIDNotIssued(source.id, nextSourceNumber: nextSourceNumber)
            }
            if source.pageCount < 1 { return .invalidSource(source.id, reason: "it has no pages") }
            if source.kind == .image && source.pageCount != 1 {
                return .invalidSource(source.id, reason: "an image counts exactly 1 page")
            }
            if source.size < 0 { return .invalidSource(source.id, reason: "negative size") }
            // An empty path would name the session's own folder.
            if source.path.isEmpty { return .invalidSource(source.id, reason: "its path is empty") }
        }

        var ids = Set<ItemID>()
        for document in documents {
            for item in document.items.flatMap({ [$0] + ($0.content.sheet?.items ?? []) }) {
                guard ids.insert(item.id).inserted else { return .duplicateItemID(item.id) }
                guard item.id.number < nextItemNumber else {
                    return .itemIDNotIssued(item.id, nextItemNumber: nextItemNumber)
                }
                guard (0...3).contains(item.rotation) else { return .invalidRotation(item.id, rotation: item.rotation) }
                for kind in PageBoxKind.allCases {
                    if let rect = item.boxes[kind], !rect.isValid { return .invalidBox(item.id, kind: kind, rect) }
                }
                if let resize = item.resize {
                    if !resize.size.isValidPageSize { return .invalidResize(item.id, "to an impossible page size") }
                    if !(0...3).contains(resize.quarterTurns) {
                        return .invalidResize(item.id, "with a rotation outside 0…3")
                    }
                    if let crop = resize.crop, !crop.isValid { return .invalidResize(item.id, "with a crop without area") }
                }
                if let problem = contentProblem(item, sources: sourcesByID) { return problem }
                if let problem = stampProblem(item, sources: sourcesByID) { return problem }
                for case .stripAnnotations(let types) in item.finish {
                    if let bad = types.first(where: { !PageFinish.isValidSubtype($0) }) {
                        return .invalidContent(item: item.id, reason: "strips annotations of the invalid subtype \(quoted(bad))")
                    }
                }
            }
            if let problem = labelRangeProblem(document) { return problem }
            if let problem = outlineProblem(document) { return problem }
            if let problem = document.metadata?.problem { return .invalidMetadata(document: document.name, reason: problem) }
            if let problem = attachmentProblem(document, sources: Set(sourcesByID.keys)) {
                return .invalidAttachment(document: document.name, reason: problem)
            }
        }
        return nil
    }

    /// What `attach` could not have made: a name or description it refuses, two
    /// files of one name, a fingerprint that is not one, a removed file of a
    /// source the session does not have.
    private func attachmentProblem(_ document: Document, sources: Set<SourceID>) -> String? {
        guard let attachments = document.attachments else { return nil }
        var names = Set<String>()
        for file in attachments.added {
            if let problem = Attachment.problem(ofName: file.name) { return escapingControlCharacters(problem) }
            guard names.insert(file.name).inserted else { return "two files are named \(quoted(file.name))" }
            if let problem = file.description.flatMap(DocumentMetadata.problem(ofValue:)) {
                return "the description of \(quoted(file.name)) \(problem)"
            }
            guard file.size >= 0, file.sha256.count == 64, file.sha256.allSatisfy(\.isHexDigit), !file.file.isEmpty else {
                return "\(quoted(file.name)) has no usable size, SHA-256 or file"
            }
        }
        for removed in attachments.removed where !sources.contains(removed.source) {
            return "a removed file names the unknown source \(removed.source)"
        }
        return nil
    }

    private func labelRangeProblem(_ document: Document) -> SessionInconsistency? {
        guard let ranges = document.labelRanges else { return nil }
        var starts = Set<ItemID>()
        let present = Set(document.items.map(\.id))
        for range in ranges {
            guard present.contains(range.start) else {
                return .invalidLabelRange(document: document.name, reason: "its start \(range.start) is not in it")
            }
            guard starts.insert(range.start).inserted else {
                return .invalidLabelRange(document: document.name, reason: "two ranges start at \(range.start)")
            }
            guard (1...LabelSpec.maximumFirstNumber).contains(range.firstNumber) else {
                return .invalidLabelRange(document: document.name, reason: "first number \(range.firstNumber)")
            }
        }
        return nil
    }

    private func outlineProblem(_ document: Document) -> SessionInconsistency? {
        guard let outline = document.outline else { return nil }
        if let reason = Session.outlineLimitProblem(outline) {
            return .invalidOutline(document: document.name, reason: reason)
        }
        let ids = document.idsWithCells
        if let target = outline.targets.first(where: { !ids.contains($0) }) {
            return .invalidOutline(document: document.name, reason: "entry target \(target) is not an item of the document")
        }
        return nil
    }

    private func stampProblem(_ item: PageItem, sources: [SourceID: Source]) -> SessionInconsistency? {
        for stamp in item.stamps {
            switch stamp.content {
            case .page(let id, let page):
                guard let source = sources[id] else { return .unknownSource(item: item.id, source: id) }
                let pageCount = source.kind == .image ? 1 : source.pageCount
                if page < 1 || page > pageCount {
                    return .invalidStamp(item: item.id, reason: "source \(id) has no page \(page)")
                }
            case .text(let mark):
                if let problem = mark.problem { return .invalidStamp(item: item.id, reason: problem) }
            }
            if !stamp.placement.isValid {
                return .invalidStamp(item: item.id, reason: "offset and margin must be finite, the margin not negative")
            }
            if !Stamp.isValidOpacity(stamp.opacity) {
                return .invalidStamp(item: item.id, reason: "opacity \(stamp.opacity) is not above 0 and at most 1")
            }
        }
        return nil
    }

    private func contentProblem(_ item: PageItem, sources: [SourceID: Source]) -> SessionInconsistency? {
        switch item.content {
        case .page(let id, let page):
            guard let source = sources[id] else { return .unknownSource(item: item.id, source: id) }
            if source.kind != .pdf { return .invalidContent(item: item.id, reason: "source \(id) is not a PDF") }
            if page < 1 || page > source.pageCount {
                return .invalidContent(item: item.id, reason: "source \(id) has no page \(page)")
            }
        case .image(let id, let fit):
            guard let source = sources[id] else { return .unknownSource(item: item.id, source: id) }
            if source.kind != .image { return .invalidContent(item: item.id, reason: "source \(id) is not an image") }
            if let fit, !fit.isValidPageSize {
                return .invalidContent(item: item.id, reason: "image page size \(fit) is not a valid page size")
            }
        case .blank(let size), .placeholder(let size, _):
            if !size.isValidPageSize {
                return .invalidContent(item: item.id, reason: "page size \(size.width)×\(size.height) is invalid")
            }
        case .sheet(let sheet):
            if !sheet.size.isValidPageSize {
                return .invalidContent(item: item.id, reason: "sheet size \(sheet.size.width)×\(sheet.size.height) is invalid")
            }
            for cell in sheet.cells {
                guard cell.rect.isValid, cell.rect.x0 >= -0.001, cell.rect.y0 >= -0.001, cell.rect.x1 <= sheet.size.width + 0.001,
                    cell.rect.y1 <= sheet.size.height + 0.001
                else { return .invalidContent(item: item.id, reason: "a cell \(cell.rect) is not on the sheet") }
                if cell.item?.content.sheet != nil {
                    return .invalidContent(item: item.id, reason: "a sheet inside a sheet")
                }
            }
        }
        return nil
    }
}
