import Foundation
import PageModel
import Testing

/// `attach add` / `attach remove` as document edits: names unique, undo gives
/// back exactly what was there, a page-level file follows its item (issue 43 §2).
@Suite struct AttachmentModelTests {
    func file(_ name: String, item: ItemID? = nil) -> PageModel.Attachment {
        PageModel.Attachment(
            name: name, file: "store/\(name)", size: 3, sha256: String(repeating: "a", count: 64),
            mimeType: "text/plain", relationship: .data, date: "D:20240101000000Z", item: item)
    }

    /// A context whose sources hold one embedded file, "report.xml" of s1, as the
    /// bridge would name it, followed by the added ones.
    func context(sourceFile: Bool = true) -> EditContext {
        var context = EditContext()
        context.attachments = { document in
            var listed: [ListedAttachmentName] = []
            let removed = document.attachments?.removed ?? []
            if sourceFile, !removed.contains(RemovedAttachment(source: SourceID(number: 1), name: "report.xml")) {
                listed.append(ListedAttachmentName(name: "report.xml", source: SourceID(number: 1), original: "report.xml"))
            }
            for (index, added) in (document.attachments?.added ?? []).enumerated() {
                listed.append(ListedAttachmentName(name: added.name, added: index))
            }
            return listed
        }
        return context
    }

    @Test func addThenRemoveThenUndoGivesBackExactlyWhatWasThere() throws {
        var session = try session(pages: 3)
        let before = SessionState(session)
        try session.apply(.attach([file("a.csv"), file("b.txt")]), label: "attach", context: context())
        try session.apply(.attach([file("c.txt")], page: .number(2)), label: "attach", context: context())
        let added = session.document(named: "main")?.attachments?.added ?? []
        #expect(added.map(\.name) == ["a.csv", "b.txt", "c.txt"])
        #expect(added.map(\.item) == [nil, nil, session.document(named: "main")?.items[1].id])
        let afterAdds = SessionState(session)
        try session.apply(.detach(["b.txt", "report.xml"]), label: "remove", context: context())
        let document = try #require(session.document(named: "main"))
        #expect(document.attachments?.added.map(\.name) == ["a.csv", "c.txt"])
        #expect(document.attachments?.removed == [RemovedAttachment(source: SourceID(number: 1), name: "report.xml")])
        _ = try session.undo()
        #expect(SessionState(session) == afterAdds)
        _ = try session.undo(2)
        #expect(SessionState(session) == before)
        _ = try session.redo(3)
        #expect(session.document(named: "main")?.attachments?.added.map(\.name) == ["a.csv", "c.txt"])
    }

    @Test func aTakenNameIsRefusedAndNothingChanges() throws {
        var session = try session(pages: 2)
        try session.apply(.attach([file("a.csv")]), label: "attach", context: context())
        let state = SessionState(session)
        for taken in [[file("a.csv")], [file("report.xml")], [file("x"), file("x")]] {
            let error = editError({ try session.apply(.attach(taken), label: "attach", context: context()) })
            guard case .invalidAttachment(let reason)? = error else {
                Issue.record("\(taken.map(\.name)): refused as \(String(describing: error)), not as a taken name")
                continue
            }
            #expect(reason.contains("already has an attachment named"))
            #expect(SessionState(session) == state)
        }
        #expect(editError({ try session.apply(.attach([file("")]), label: "attach", context: context()) }) != nil)
        #expect(editError({ try session.apply(.attach([file("a\u{0}b")]), label: "attach", context: context()) }) != nil)
        #expect(editError({ try session.apply(.detach(["nope"]), label: "remove", context: context()) }) != nil)
        #expect(SessionState(session) == state)
    }

    @Test func aPageLevelFileFollowsItsItemAndComesBackWithIt() throws {
        var session = try session(pages: 3)
        try session.apply(.attach([file("n.txt")], page: .number(3)), label: "attach", context: context())
        let id = try #require(session.document(named: "main")?.items[2].id)
        try session.apply(.move(selection("3"), to: .position(.number(1))), label: "move")
        #expect(session.document(named: "main")?.index(of: id) == 0)
        #expect(session.document(named: "main")?.attachments?.added.first?.item == id)
        try session.apply(.remove(selection("1")), label: "remove")
        _ = try session.undo()
        #expect(session.document(named: "main")?.index(of: id) == 0)
        #expect(session.document(named: "main")?.attachments?.added.first?.item == id)
    }

    @Test func theSessionFileKeepsAttachmentsAndTheirHistory() throws {
        var session = try session(pages: 2)
        try session.apply(.attach([file("a.csv")], page: .number(1)), label: "attach", context: context())
        try session.apply(.detach(["report.xml"]), label: "remove", context: context())
        let read = try Session.decode(try session.encoded())
        #expect(SessionState(read) == SessionState(session))
        var undone = read
        _ = try undone.undo(2)
        #expect(undone.document(named: "main")?.attachments == nil)
    }

    @Test func aSessionFileWithAnAttachmentAttachCouldNotHaveMadeIsRefused() throws {
        var session = try session(pages: 1)
        try session.apply(.attach([file("a.csv")]), label: "attach", context: context())
        let text = String(decoding: try session.encoded(), as: UTF8.self)
        for (from, to) in [("\"a.csv\"", "\"a\\u0000b\""), ("\"name\" : \"a.csv\"", "\"name\" : \"\""),
                           (String(repeating: "a", count: 64), "nothex")] {
            let tampered = Data(text.replacingOccurrences(of: from, with: to).utf8)
            #expect(throws: SessionFormatError.self, "\(from) → \(to)") { try Session.decode(tampered) }
        }
    }
}
