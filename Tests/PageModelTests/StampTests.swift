import Foundation
import PageModel
import Testing

/// `stamp` and `unstamp`: the model, its history and its session-file records.
@Suite struct StampTests {
    let stampFile = pdfSource("stamp.pdf", pages: 2, id: 1)
    let logo = imageSource("logo.png", id: 2)

    func stamps(_ session: Session, _ document: String? = nil) -> [[Stamp]] {
        (session.document(named: document ?? session.current)?.items ?? []).map(\.stamps)
    }

    @Test func stampAddsAStampToEachSelectedItemAndImportsTheFileOnce() throws {
        var s = try session(pages: 5)
        let summary = try s.apply(
            .stamp(selection("odd"), Stamp(source: stampFile.id, page: 2, opacity: 0.5), newSources: [stampFile]),
            label: "stamp odd stamp.pdf --page 2 --opacity 0.5")
        let draft = Stamp(source: SourceID(number: 2), page: 2, opacity: 0.5)
        #expect(stamps(s) == [[draft], [], [draft], [], [draft]])
        #expect(summary.action == "stamp")
        #expect(summary.positions == [1, 3, 5])
        #expect(summary.ids.map(\.description) == ["p1", "p3", "p5"])
        #expect(summary.newSources == [SourceID(number: 2)])
        #expect(summary.description == "stamped 3 pages with stamp.pdf page 2 (over, opacity 50%) (5 pages)")
        #expect(ids(s) == ["p1", "p2", "p3", "p4", "p5"], "stamping makes no new items")
        #expect(rotations(s) == [0, 0, 0, 0, 0])

        // The same file again is the same source; stamps pile up in order.
        let second = Stamp(source: SourceID(number: 9), page: 1, under: true, fit: true)
        let again = try s.apply(
            .stamp(selection("1..2"), second, newSources: [pdfSource("stamp.pdf", pages: 2, id: 9)]),
            label: "stamp 1..2 stamp.pdf --under --fit")
        #expect(again.newSources == [])
        #expect(s.sources.count == 2)
        let under = Stamp(source: SourceID(number: 2), page: 1, under: true, fit: true)
        #expect(stamps(s) == [[draft, under], [under], [draft], [], [draft]])
        #expect(again.description == "stamped 2 pages with stamp.pdf page 1 (under, fitted) (5 pages)")
    }

    @Test func anImageStampHasOnePage() throws {
        var s = try session(pages: 2)
        try s.apply(.stamp(.all, Stamp(source: logo.id), newSources: [logo]), label: "stamp all logo.png")
        #expect(stamps(s) == [[Stamp(source: SourceID(number: 2))], [Stamp(source: SourceID(number: 2))]])
        #expect(s.source(SourceID(number: 2))?.kind == .image)

        let before = s
        let error1 = editError { try s.apply(.stamp(.all, Stamp(source: logo.id, page: 2), newSources: [logo]), label: "x") }
        #expect(error1 == .invalidContent("logo.png has 1 page: there is no page 2"))
        #expect(s == before)
    }

    @Test func badStampsAreRefusedAndChangeNothing() throws {
        var s = try session(pages: 3)
        let before = s
        let error2 = editError {
                try s.apply(.stamp(.all, Stamp(source: stampFile.id, page: 3), newSources: [stampFile]), label: "x")
            }
        #expect(error2 == .invalidContent("stamp.pdf has 2 pages: there is no page 3"))
        for opacity in [0, -0.5, 1.5, .nan, .infinity] {
            let error3 = editError {
                    try s.apply(
                        .stamp(.all, Stamp(source: stampFile.id, opacity: opacity), newSources: [stampFile]),
                        label: "x")
                }
            #expect(error3 != nil)
        }
        let error4 = editError { try s.apply(.stamp(.all, Stamp(source: SourceID(number: 5)), newSources: []), label: "x") }
        #expect(error4 == .unknownSource(SourceID(number: 5)))
        let error5 = editError {
                try s.apply(.stamp(selection("4"), Stamp(source: stampFile.id), newSources: [stampFile]), label: "x")
            }
        #expect(error5 != nil)
        #expect(s == before)
        #expect(s.history.undoableCount == 0)
    }

    @Test func aPageOfASessionSourceCanBeAStamp() throws {
        var s = try session(pages: 3)
        try s.apply(.stamp(selection("2..3"), Stamp(source: SourceID(number: 1), page: 1), newSources: []), label: "x")
        #expect(stamps(s) == [[], [Stamp(source: SourceID(number: 1))], [Stamp(source: SourceID(number: 1))]])
        #expect(s.sources.count == 1)
    }

    @Test func unstampRemovesEveryStampOfTheSelectedItems() throws {
        var s = try session(pages: 4)
        try s.apply(.stamp(.all, Stamp(source: stampFile.id), newSources: [stampFile]), label: "stamp all")
        try s.apply(.stamp(selection("2"), Stamp(source: logo.id), newSources: [logo]), label: "stamp 2")
        let summary = try s.apply(.unstamp(selection("2..3")), label: "unstamp 2..3")
        #expect(summary.description == "removed 3 stamps from 2 pages (4 pages)")
        #expect(summary.positions == [2, 3])
        #expect(stamps(s).map(\.count) == [1, 0, 0, 1])

        // Nothing to remove: refused, nothing recorded.
        let before = s
        let error6 = editError { try s.apply(.unstamp(selection("2..3")), label: "x") }
        #expect(error6 == .nothingToUnstamp(selected: 2))
        #expect(s == before)
        // Items without stamps in a selection that has some are fine.
        try s.apply(.unstamp(.all), label: "unstamp all")
        #expect(stamps(s).allSatisfy { $0.isEmpty })
    }

    @Test func undoAndRedoOfStampAndUnstampAreExact() throws {
        var s = try session(pages: 6)
        let start = SessionState(s)
        try s.apply(.stamp(selection("even"), Stamp(source: stampFile.id), newSources: [stampFile]), label: "a")
        let once = SessionState(s)
        try s.apply(.stamp(selection("1..3"), Stamp(source: logo.id, under: true), newSources: [logo]), label: "b")
        let twice = SessionState(s)
        try s.apply(.unstamp(selection("2..5")), label: "c")
        let thrice = SessionState(s)

        #expect(try s.undo() == ["c"])
        #expect(SessionState(s) == twice)
        #expect(try s.undo() == ["b"])
        #expect(SessionState(s) == once)
        #expect(try s.undo() == ["a"])
        #expect(SessionState(s) == start)
        #expect(s.sources.count == 1, "undo removes the stamp's source")
        _ = try s.redo(3)
        #expect(SessionState(s) == thrice)
        // The history survives the session file.
        var decoded = try Session.decode(s.encoded())
        _ = try decoded.undo(3)
        #expect(SessionState(decoded) == start)
    }

    @Test func copiesDuplicatesAndFilledPlaceholdersKeepTheirStamps() throws {
        var s = try session(pages: 3)
        try s.apply(.placeholder(at: nil, count: 1, size: .fixed(.a4), label: "sig"), label: "placeholder")
        try s.apply(.stamp(selection("2,4"), Stamp(source: stampFile.id), newSources: [stampFile]), label: "stamp")
        let draft = Stamp(source: SourceID(number: 2))
        try s.apply(.duplicate(selection("2")), label: "duplicate 2")
        try s.apply(.copy(selection("2"), to: .position(.last)), label: "copy 2")
        #expect(stamps(s) == [[], [draft], [draft], [], [draft], [draft]])
        #expect(ids(s) == ["p1", "p2", "p5", "p3", "p4", "p6"])
        try s.apply(
            .fill(.number(5), contents: [.page(source: SourceID(number: 1), page: 1), .blank(.a5)], newSources: []),
            label: "fill 5")
        #expect(stamps(s) == [[], [draft], [draft], [], [draft], [draft], [draft]])
    }

    @Test func stampedItemsAreSingleRecordsAndRunsStayForTheOthers() throws {
        var s = try session(pages: 10)
        try s.apply(
            .stamp(selection("4"), Stamp(source: stampFile.id, under: true, fit: true, opacity: 0.25),
                newSources: [stampFile]), label: "stamp 4")
        let object = try #require(try JSONSerialization.jsonObject(with: s.encoded()) as? [String: Any])
        let documents = try #require(object["documents"] as? [[String: Any]])
        let records = try #require(documents[0]["items"] as? [[String: Any]])
        #expect(records.count == 3)
        #expect(records[0]["pages"] as? [Int] == [1, 3])
        #expect(records[1]["id"] as? String == "p4")
        let stamp = try #require((records[1]["stamps"] as? [[String: Any]])?.first)
        #expect(stamp["source"] as? String == "s2")
        #expect(stamp["page"] as? Int == 1)
        #expect(stamp["under"] as? Bool == true)
        #expect(stamp["fit"] as? Bool == true)
        #expect(stamp["opacity"] as? Double == 0.25)
        #expect(records[2]["pages"] as? [Int] == [5, 10])
        #expect(try Session.decode(s.encoded()) == s)
    }

    @Test func stampingAHugeDocumentIsASmallHistoryStep() throws {
        var s = try session(pages: 20_000)
        try s.apply(.stamp(.all, Stamp(source: stampFile.id), newSources: [stampFile]), label: "stamp all")
        let bytes = try s.encoded()
        // 20,000 stamped items are written one by one; the history step is a range and one stamp.
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let history = try #require(object["history"] as? [String: Any])
        let steps = try #require(history["steps"] as? [Any])
        let step = try JSONSerialization.data(withJSONObject: steps[0])
        #expect(step.count < 1_000)
        #expect(try Session.decode(bytes) == s)
    }

    @Test func relinkKeepsThePagesStampsUse() throws {
        var s = try session(pages: 2)
        try s.apply(.stamp(.all, Stamp(source: stampFile.id, page: 2), newSources: [stampFile]), label: "stamp")
        let error7 = editError {
                try s.apply(
                    .relink(source: SourceID(number: 2), path: "new.pdf", size: 1, sha256: "x", pageCount: 1),
                    label: "relink")
            }
        #expect(error7 == .relinkTooFewPages(source: SourceID(number: 2), needed: 2, pageCount: 1))
    }

    /// A session file with one stamped item, its stamp given as JSON text.
    func sessionFile(stamp: String, sources: String = #"{"id": "s1", "path": "a.pdf", "size": 1, "sha256": "x", "pageCount": 2, "kind": "pdf"}"#, run: Bool = false) -> Data {
        let item =
            run
            ? #"{"source": "s1", "pages": [1, 2], "firstId": 1, "rotation": 0, "stamps": [\#(stamp)]}"#
            : #"{"id": "p1", "source": "s1", "page": 1, "rotation": 0, "stamps": [\#(stamp)]}"#
        return Data(
            #"""
            {"version": 1, "current": "main", "nextItemNumber": 3, "nextSourceNumber": 2,
             "sources": [\#(sources)],
             "documents": [{"name": "main", "items": [\#(item)]}],
             "history": {"undone": 0, "steps": []}}
            """#.utf8)
    }

    @Test func stampsAreCheckedWhenASessionIsRead() throws {
        let good = #"{"source": "s1", "page": 2, "under": true, "fit": false, "opacity": 0.5}"#
        let session = try Session.decode(sessionFile(stamp: good))
        #expect(session.documents[0].items[0].stamps == [Stamp(source: SourceID(number: 1), page: 2, under: true, opacity: 0.5)])

        let bad: [(String, String)] = [
            (#"{"source": "s1", "page": 3, "under": false, "fit": false, "opacity": 1}"#, "has no page 3"),
            (#"{"source": "s4", "page": 1, "under": false, "fit": false, "opacity": 1}"#, "unknown source s4"),
            (#"{"source": "s1", "page": 1, "under": false, "fit": false, "opacity": 2}"#, "opacity"),
            (#"{"source": "s1", "page": 1, "under": false, "fit": false, "opacity": 0}"#, "opacity"),
            (#"{"source": "s1", "page": 1, "opacity": 1}"#, "under"),
        ]
        for (stamp, expected) in bad {
            do {
                _ = try Session.decode(sessionFile(stamp: stamp))
                Issue.record("accepted \(stamp)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
        do {
            _ = try Session.decode(sessionFile(stamp: good, run: true))
            Issue.record("accepted a run with stamps")
        } catch {
            #expect(error.description.contains("run cannot have stamps"), "\(error.description)")
        }
    }
}
