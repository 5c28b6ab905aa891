import Foundation
import PageModel
import Testing

/// A PDF source with `pages` pages (its id is provisional until imported).
func pdfSource(_ path: String = "a.pdf", pages: Int, id: Int = 1) -> Source {
    Source(
        id: SourceID(number: id), path: path, size: Int64(1000 + pages), sha256: "sha-\(path)", pageCount: pages,
        kind: .pdf)
}

func imageSource(_ path: String, id: Int = 1) -> Source {
    Source(id: SourceID(number: id), path: path, size: 500, sha256: "sha-\(path)", pageCount: 1, kind: .image)
}

/// A session whose current document "main" holds pages 1…`pages` of a.pdf (ids p1…pN).
func session(pages: Int, name: String = "main") throws -> Session {
    try Session.opening([OpenedFile(documentName: name, source: pdfSource(pages: pages))])
}

/// The source page numbers of a document, in order (0 for items that are not pages).
func pageNumbers(_ session: Session, _ document: String? = nil) -> [Int] {
    let document = session.document(named: document ?? session.current)
    return (document?.items ?? []).map { item in
        if case .page(_, let page) = item.content { return page }
        return 0
    }
}

func ids(_ session: Session, _ document: String? = nil) -> [String] {
    (session.document(named: document ?? session.current)?.items ?? []).map(\.id.description)
}

func rotations(_ session: Session, _ document: String? = nil) -> [Int] {
    (session.document(named: document ?? session.current)?.items ?? []).map(\.rotation)
}

func selection(_ text: String) throws -> PageSelection {
    try PageSelection.parse(text)
}

/// Everything of a session but its history: what undo must restore exactly.
struct SessionState: Equatable {
    var documents: [Document]
    var sources: [Source]
    var current: String
    var nextItemNumber: Int
    var nextSourceNumber: Int

    init(_ session: Session) {
        documents = session.documents
        sources = session.sources
        current = session.current
        nextItemNumber = session.nextItemNumber
        nextSourceNumber = session.nextSourceNumber
    }
}

/// Runs `body`, which must throw an `EditError`, and returns it; records an issue otherwise.
func editError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> EditError? {
    do {
        try body()
        Issue.record("expected an EditError", sourceLocation: sourceLocation)
        return nil
    } catch let error as EditError {
        return error
    } catch {
        Issue.record("expected an EditError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
