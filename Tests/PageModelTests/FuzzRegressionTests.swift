import Foundation
import PageModel
import Testing

/// Inputs the fuzz harnesses (Fuzz/) found to break an invariant, kept as
/// regression tests. Each also sits in Fuzz/Seeds/, so the fuzzers replay it.
@Suite struct FuzzRegressionTests {
    /// Messages become one `pdfedit:` line each.
    func isOneLine(_ message: String) -> Bool { !message.isEmpty && !message.contains(where: \.isNewline) }

    @Test(
        "a selection token holding a line break or a control character is named on one line",
        arguments: ["1\n2", "9\u{FFFD}.\0\0\u{FFFD}\u{0C}\u{FFFD}\u{FFFD}.9", "x\r", "3..\u{2028}5", "@p\u{85}1", "text:\n"])
    func controlCharactersInTokens(_ text: String) {
        do {
            let selection = try PageSelection.parse(text)
            Issue.record("\(text.debugDescription) parsed as \(selection)")
        } catch {
            #expect(isOneLine(error.description), "\(error.description.debugDescription)")
            #expect(isOneLine(error.inDocument(pageCount: 3).description))
        }
        do {
            _ = try Position.parse(text)
        } catch {
            #expect(isOneLine(error.description), "\(error.description.debugDescription)")
        }
    }

    @Test("a session file whose history names an operation with a carriage return is refused on one line")
    func controlCharacterInHistoryOperation() throws {
        let text = """
            {"version": 1, "current": "a", "nextItemNumber": 2, "nextSourceNumber": 1, "sources": [],
             "documents": [{"name": "a", "items": [{"id": "p1", "blank": {"width": 100, "height": 100}, "rotation": 0}]}],
             "history": {"undone": 0, "steps": [{"label": "x", "currentBefore": "a", "currentAfter": "a",
                                                 "changes": [{"op": "transf\\r"}]}]}}
            """
        do {
            _ = try Session.decode(Data(text.utf8))
            Issue.record("decoded")
        } catch {
            #expect(isOneLine(error.description), "\(error.description.debugDescription)")
            #expect(error.description.contains("transf\\r"))
        }
    }

    @Test("a session file whose source kind holds a form feed is refused on one line (Foundation quotes it raw)")
    func controlCharacterInSourceKind() throws {
        let text = """
            {"version": 1, "current": "a", "nextItemNumber": 1, "nextSourceNumber": 2,
             "sources": [{"id": "s1", "kind": "p\\f", "pageCount": 1, "path": "a.pdf", "sha256": "00", "size": 1}],
             "documents": [{"name": "a", "items": []}], "history": {"undone": 0, "steps": []}}
            """
        do {
            _ = try Session.decode(Data(text.utf8))
            Issue.record("decoded")
        } catch {
            #expect(isOneLine(error.description), "\(error.description.debugDescription)")
        }
    }

    @Test(
        "the session files the fuzzer found still decode to an error on one line",
        arguments: [
            "regression-op-with-carriage-return.json", "regression-kind-with-form-feed.json",
            "regression-crop-box-1e308.json", "regression-cell-rect-minus-2p63.json",
        ])
    func fuzzerSessionFile(_ name: String) throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Seeds/session/\(name)")
        let data = try Data(contentsOf: file)
        do {
            _ = try Session.decode(data)
            Issue.record("\(name) decoded")
        } catch {
            #expect(isOneLine(error.description), "\(error.description.debugDescription)")
        }
    }

    @Test("the seed with boxes, sheets and stamps decodes, round-trips and undoes")
    func boxesSheetsAndStampsSeed() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Seeds/session/boxes-sheets-stamps.json")
        let session = try Session.decode(Data(contentsOf: file))
        #expect(try Session.decode(session.encoded()) == session)
        var undone = session
        _ = try undone.undo(session.history.undoableCount)
        #expect(undone.documents[0].items.allSatisfy { $0.boxes.isEmpty && $0.stamps.isEmpty })
    }
}
