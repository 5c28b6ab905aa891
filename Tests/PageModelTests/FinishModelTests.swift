import Foundation
@testable import PageModel
import PropertyBased
import Testing

/// `flatten` and `strip` in the model: the intent recorded on items and
/// documents, one undo step that gives back exactly what was there, and the
/// session file's records.
@Suite struct FinishModelTests {
    static func finish(_ s: Session, _ position: Int) -> [PageFinish] {
        s.document(named: s.current)?.items[position - 1].finish ?? []
    }

    @Test func stepsAreAddedInOrderAndUndoneExactly() throws {
        var s = try session(pages: 6)
        let start = SessionState(s)
        try s.apply(.finish(try selection("2..4"), .flattenForms), label: "flatten forms 2..4")
        try s.apply(.finish(try selection("3..6"), .stripAnnotations(types: ["Link"])), label: "strip links 3..6")
        let both = SessionState(s)
        #expect(Self.finish(s, 1) == [])
        #expect(Self.finish(s, 2) == [.flattenForms])
        #expect(Self.finish(s, 3) == [.flattenForms, .stripAnnotations(types: ["Link"])])
        #expect(Self.finish(s, 6) == [.stripAnnotations(types: ["Link"])])
        _ = try s.undo()
        #expect(Self.finish(s, 3) == [.flattenForms] && Self.finish(s, 6) == [])
        _ = try s.undo()
        #expect(SessionState(s) == start)
        _ = try s.redo(2)
        #expect(SessionState(s) == both)
    }

    @Test func theSameStepTwiceInARowChangesNothing() throws {
        var s = try session(pages: 3)
        try s.apply(.finish(.all, .flattenAnnotations), label: "flatten annotations")
        let error = editError { try s.apply(.finish(.all, .flattenAnnotations), label: "again") }
        #expect(error.map { "\($0)" }?.contains("already set to flatten annotations") == true)
        // Only the pages that do not end with it change; the others are left alone.
        try s.apply(.finish(try selection("2"), .stripThumbnails), label: "strip thumbnails 2")
        try s.apply(.finish(.all, .flattenAnnotations), label: "flatten annotations")
        #expect(Self.finish(s, 1) == [.flattenAnnotations])
        #expect(Self.finish(s, 2) == [.flattenAnnotations, .stripThumbnails, .flattenAnnotations])
        #expect(s.history.steps.last?.changes.count == 1)
    }

    @Test func invalidSubtypesAreRefused() throws {
        var s = try session(pages: 2)
        for bad in ["", "/Link", "Li nk", "a(b"] {
            let error = editError { try s.apply(.finish(.all, .stripAnnotations(types: [bad])), label: "strip") }
            #expect(error != nil, "\(bad)")
        }
        #expect(s.history.steps.isEmpty)
    }

    @Test func stripMetadataForgetsWhatMetaSetInTheSameStep() throws {
        var s = try session(pages: 2)
        try s.apply(.metadata(DocumentMetadata(title: "Draft", author: "Ann")), label: "meta")
        let before = SessionState(s)
        try s.apply(.strip(.metadata), label: "strip metadata")
        try s.apply(.strip(.javascript), label: "strip javascript")
        let document = try #require(s.document(named: s.current))
        #expect(document.stripped == [.javascript, .metadata])
        #expect(document.metadata == nil)
        #expect(editError { try s.apply(.strip(.javascript), label: "again") } != nil)
        _ = try s.undo(2)
        #expect(SessionState(s) == before)
        #expect(s.document(named: s.current)?.metadata?.title == "Draft")
    }

    @Test func theSessionFileKeepsThemAndTheirHistory() throws {
        var s = try session(pages: 5)
        try s.apply(.finish(try selection("odd"), .stripAnnotations(types: ["Highlight", "Ink"])), label: "strip")
        try s.apply(.finish(try selection("2"), .flattenForms), label: "flatten forms 2")
        try s.apply(.strip(.structure), label: "strip structure")
        let data = try s.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"version\" : 8"))
        let decoded = try Session.decode(data)
        #expect(SessionState(decoded) == SessionState(s))
        #expect(try decoded.encoded() == data)
        var undone = decoded
        _ = try undone.undo(3)
        #expect(undone.document(named: undone.current)?.items.allSatisfy(\.finish.isEmpty) == true)
        #expect(undone.document(named: undone.current)?.stripped == [])
        // A hand-edited subtype that is not a PDF name is refused when the session is read.
        let bad = text.replacingOccurrences(of: "\"Highlight\"", with: "\"High light\"")
        #expect(throws: SessionFormatError.self) { try Session.decode(Data(bad.utf8)) }
    }

    /// Copies carry their page's finishing; moving pages keeps it with them.
    @Test func finishingFollowsItsItem() async throws {
        await propertyCheck(count: 50, input: Gen.int(in: 2...12), Gen.int(in: 1...12)) { pages, picked in
            guard var s = try? session(pages: pages) else { return }
            let position = min(picked, pages)
            _ = try? s.apply(.finish((try? PageSelection.parse("\(position)")) ?? .all, .flattenForms), label: "flatten")
            let id = s.document(named: s.current)?.items[position - 1].id
            _ = try? s.apply(.reverse(.all), label: "reverse")
            _ = try? s.apply(.duplicate(.all), label: "duplicate")
            let items = s.document(named: s.current)?.items ?? []
            let finished = items.filter { $0.finish == [.flattenForms] }
            #expect(finished.count == 2)
            #expect(finished.first?.id == id)
        }
    }
}
