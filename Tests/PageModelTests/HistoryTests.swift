import PageModel
import Testing

@Suite struct HistoryTests {
    @Test func undoRestoresEveryStepExactlyAndRedoReplaysIt() throws {
        var s = try session(pages: 7)
        var states = [SessionState(s)]
        let edits: [Edit] = [
            .move(try selection("3..5"), to: .position(.number(1))),
            .rotate(try selection("odd"), quarterTurns: 1),
            .copy(try selection("1,7"), to: .position(.number(2))),
            .remove(try selection("2..3")),
            .newDocument(name: "b"),
            .move(try selection("1..2"), to: .position(.number(1)), into: "b"),
            .reverse(.all),
            .duplicate(try selection("last")),
            .blank(at: nil, count: 2, size: .fixed(.a4)),
        ]
        for (index, edit) in edits.enumerated() {
            try s.apply(edit, doc: "main", label: "edit \(index)")
            states.append(SessionState(s))
        }
        let final = s
        #expect(s.history.undoableCount == edits.count)

        for expected in states.dropLast().reversed() {
            _ = try s.undo()
            #expect(SessionState(s) == expected)
        }
        #expect(editError { _ = try s.undo() } == .nothingToUndo(requested: 1, available: 0))

        for expected in states.dropFirst() {
            _ = try s.redo()
            #expect(SessionState(s) == expected)
        }
        #expect(s == final)
    }

    @Test func undoSeveralStepsAtOnceReturnsTheirLabels() throws {
        var s = try session(pages: 3)
        let initial = s
        try s.apply(.remove(selection("1")), label: "remove 1")
        try s.apply(.rotate(selection("1"), quarterTurns: 2), label: "rotate 1 --by 180")
        try s.apply(.duplicate(.all), label: "duplicate")
        #expect(try s.undo(3) == ["duplicate", "rotate 1 --by 180", "remove 1"])
        #expect(SessionState(s) == SessionState(initial))
        #expect(try s.redo(2) == ["remove 1", "rotate 1 --by 180"])
        #expect(pageNumbers(s) == [2, 3])
        #expect(rotations(s) == [2, 0])
    }

    @Test func aNewEditDropsTheRedoTail() throws {
        var s = try session(pages: 3)
        try s.apply(.remove(selection("1")), label: "remove 1")
        try s.apply(.remove(selection("1")), label: "remove 1 again")
        _ = try s.undo()
        #expect(
            s.historyEntries == [
                HistoryEntry(index: 1, label: "remove 1", isUndone: false),
                HistoryEntry(index: 2, label: "remove 1 again", isUndone: true),
            ])
        try s.apply(.reverse(.all), label: "reverse")
        #expect(s.historyEntries.map(\.label) == ["remove 1", "reverse"])
        #expect(s.historyEntries.map(\.isUndone) == [false, false])
        #expect(editError { _ = try s.redo() } == .nothingToRedo(requested: 1, available: 0))
    }

    @Test func undoCountsAreChecked() throws {
        var s = try session(pages: 3)
        try s.apply(.remove(selection("1")), label: "remove 1")
        let before = s
        #expect(editError { _ = try s.undo(0) } == .invalidStepCount(0))
        #expect(editError { _ = try s.undo(2) } == .nothingToUndo(requested: 2, available: 1))
        #expect(editError { _ = try s.redo(1) } == .nothingToRedo(requested: 1, available: 0))
        #expect(s == before)
        #expect(
            EditError.nothingToUndo(requested: 2, available: 1).description
                == "cannot undo 2 steps: only 1 can be undone")
    }

    @Test func idsAreDeterministicAcrossUndo() throws {
        var s = try session(pages: 3)
        try s.apply(.copy(selection("1..2"), to: .position(.last)), label: "copy")
        let first = ids(s)
        _ = try s.undo()
        #expect(s.nextItemNumber == 4)
        try s.apply(.copy(selection("1..2"), to: .position(.last)), label: "copy")
        #expect(ids(s) == first)
        #expect(first == ["p1", "p2", "p3", "p4", "p5"])
    }

    @Test func undoPutsBackTheCurrentDocumentOfTheStep() throws {
        var s = try session(pages: 2)
        try s.apply(.newDocument(name: "b"), label: "new b")
        try s.apply(.useDocument(name: "main"), label: "use main")
        try s.apply(.remove(selection("1")), label: "remove 1")
        try s.apply(.useDocument(name: "b"), label: "use b")
        _ = try s.undo()
        #expect(s.current == "main")
        _ = try s.redo()
        #expect(s.current == "main")
    }

    @Test func aBatchIsOneStepAndAllOrNothing() throws {
        var s = try session(pages: 7)
        let initial = s
        let summaries = try s.applyAll(
            [
                (.move(try selection("7"), to: .position(.number(1))), nil),
                // Sees the positions left by the edit before: page 7 is now first.
                (.remove(try selection("1")), nil),
                (.newDocument(name: "b"), nil),
                (.copy(try selection("1..2"), to: .position(.number(1)), into: "b"), "main"),
            ], label: "run script.txt")
        #expect(summaries.map(\.action) == ["move", "remove", "new", "copy"])
        #expect(pageNumbers(s, "main") == [1, 2, 3, 4, 5, 6])
        #expect(pageNumbers(s, "b") == [1, 2])
        #expect(s.current == "b")
        #expect(s.historyEntries.map(\.label) == ["run script.txt"])
        _ = try s.undo()
        #expect(SessionState(s) == SessionState(initial))

        let before = s
        let error = editError {
            try s.applyAll(
                [(.remove(try selection("1")), nil), (.remove(try selection("9")), nil)], label: "run bad.txt")
        }
        #expect(error == .batch(index: 1, .selection(.outOfRange(token: "9", pageCount: 6))))
        #expect(error?.description == "edit 2: \"9\" is out of range: the document has 6 pages")
        #expect(s == before)
    }

    @Test func undoOfStepsThatAddedSourcesRemovesThem() throws {
        var s = try session(pages: 2)
        let initial = s
        let other = pdfSource("b.pdf", pages: 2, id: 50)
        try s.apply(
            .insertItems(contents: [.page(source: other.id, page: 2)], at: nil, newSources: [other]), label: "insert")
        #expect(s.sources.count == 2)
        _ = try s.undo()
        #expect(SessionState(s) == SessionState(initial))
        _ = try s.redo()
        #expect(s.sources.map(\.path) == ["a.pdf", "b.pdf"])
    }
}
