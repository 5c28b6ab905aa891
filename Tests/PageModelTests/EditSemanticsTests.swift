import PageModel
import Testing

/// Every example of DESIGN.md "Editing semantics", and the edges around them.
@Suite struct MoveTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var selection: String
        var destination: Destination
        var expected: [Int]
        var testDescription: String { "move \(selection) \(destination)" }
    }

    @Test(arguments: [
        // The two examples of DESIGN.md, in a 7-page document.
        Case(selection: "3..5", destination: .position(.number(1)), expected: [3, 4, 5, 1, 2, 6, 7]),
        Case(selection: "1,3", destination: .position(.number(4)), expected: [2, 4, 5, 1, 3, 6, 7]),
        // Token order does not matter: a selection is a set.
        Case(selection: "3,1", destination: .position(.number(4)), expected: [2, 4, 5, 1, 3, 6, 7]),
        Case(selection: "3..5", destination: .position(.last), expected: [1, 2, 6, 7, 3, 4, 5]),
        Case(selection: "3..5", destination: .position(.number(5)), expected: [1, 2, 6, 7, 3, 4, 5]),
        Case(selection: "3..5", destination: .position(.fromEnd(1)), expected: [1, 2, 6, 3, 4, 5, 7]),
        Case(selection: "1", destination: .position(.last), expected: [2, 3, 4, 5, 6, 7, 1]),
        Case(selection: "last", destination: .position(.number(1)), expected: [7, 1, 2, 3, 4, 5, 6]),
        Case(selection: "2", destination: .before(.number(6)), expected: [1, 3, 4, 5, 2, 6, 7]),
        Case(selection: "2", destination: .after(.number(6)), expected: [1, 3, 4, 5, 6, 2, 7]),
        Case(selection: "6..7", destination: .before(.number(1)), expected: [6, 7, 1, 2, 3, 4, 5]),
        Case(selection: "1", destination: .after(.last), expected: [2, 3, 4, 5, 6, 7, 1]),
        Case(selection: "odd", destination: .after(.number(2)), expected: [2, 1, 3, 5, 7, 4, 6]),
        Case(selection: "@p4,@p2", destination: .before(.item(ItemID(number: 1))), expected: [2, 4, 1, 3, 5, 6, 7]),
        Case(selection: "all", destination: .position(.number(1)), expected: [1, 2, 3, 4, 5, 6, 7]),
    ])
    func moveWithinDocument(_ test: Case) throws {
        var s = try session(pages: 7)
        let summary = try s.apply(.move(selection(test.selection), to: test.destination), label: "move")
        #expect(pageNumbers(s) == test.expected)
        // Ids travel with their pages.
        #expect(ids(s) == test.expected.map { "p\($0)" })
        #expect(summary.pageCount == 7)
        let selectedCount = try selection(test.selection).resolve(in: try session(pages: 7).documents[0]).count
        #expect(summary.ids.count == selectedCount)
    }

    @Test func summaryReadsAsInTheBrief() throws {
        var s = try session(pages: 7)
        let summary = try s.apply(.move(selection("3..5"), to: .position(.number(1))), label: "move 3..5 --to 1")
        #expect(summary.description == "moved 3 pages to position 1 (now 7 pages)")
        #expect(summary.action == "move")
        #expect(summary.positions == [1, 2, 3])
        #expect(summary.ids.map(\.description) == ["p3", "p4", "p5"])
    }

    @Test(arguments: [
        ("3..5", Position.number(6), 1...5),
        ("3..5", Position.number(0), 1...5),
        ("1,3", Position.number(7), 1...6),
        ("all", Position.number(2), 1...1),
    ])
    func destinationOutOfRangeNamesTheValidRange(_ sel: String, _ to: Position, _ valid: ClosedRange<Int>) throws {
        var s = try session(pages: 7)
        let before = s
        let error = editError {
            try s.apply(.move(try selection(sel), to: .position(to)), label: "move")
        }
        #expect(error == .selection(.positionOutOfRange(token: to.description, validRange: valid)))
        #expect(error?.description.contains("\"\(to)\"") == true)
        #expect(error?.description.contains("\(valid.lowerBound)…\(valid.upperBound)") == true || valid.count == 1)
        #expect(s == before)
    }

    @Test func anchorMustNotBeSelected() throws {
        var s = try session(pages: 7)
        let before = s
        let error = editError {
            try s.apply(.move(try selection("2,3"), to: .before(.number(3))), label: "move")
        }
        #expect(error == .anchorInSelection(anchor: "3", position: 3))
        #expect(s == before)
    }

    @Test func anchorOutOfRangeNamesTokenAndPageCount() throws {
        var s = try session(pages: 7)
        let error = editError {
            try s.apply(.move(try selection("2"), to: .after(.number(9))), label: "move")
        }
        #expect(error == .selection(.outOfRange(token: "9", pageCount: 7)))
        #expect(error?.description == "\"9\" is out of range: the document has 7 pages")
    }

    @Test func destinationIDIsRefused() throws {
        var s = try session(pages: 3)
        let error = editError {
            try s.apply(.move(try selection("1"), to: .position(.item(ItemID(number: 2)))), label: "move")
        }
        #expect(error == .selection(.idNotAPosition(token: "@p2")))
    }

    @Test func moveIntoAnotherDocument() throws {
        var s = try Session.opening([
            OpenedFile(documentName: "main", source: pdfSource("a.pdf", pages: 7)),
            OpenedFile(documentName: "other", source: pdfSource("b.pdf", pages: 2)),
        ])
        let summary = try s.apply(
            .move(selection("3..5"), to: .position(.number(2)), into: "other"), label: "move 3..5 --to 2 --into other")
        #expect(pageNumbers(s, "main") == [1, 2, 6, 7])
        #expect(pageNumbers(s, "other") == [1, 3, 4, 5, 2])
        #expect(ids(s, "other") == ["p8", "p3", "p4", "p5", "p9"])
        #expect(summary.document == "other")
        #expect(summary.otherDocument == "main")
        #expect(summary.otherPageCount == 4)
        #expect(summary.positions == [2, 3, 4])

        // In another document nothing is taken out of it: N goes up to its length + 1.
        let error = editError {
            try s.apply(.move(try selection("1"), to: .position(.number(7)), into: "other"), label: "move")
        }
        #expect(error == .selection(.positionOutOfRange(token: "7", validRange: 1...6)))
        // There an anchor may have any position of the target.
        try s.apply(.move(selection("1"), to: .before(.number(1)), into: "other"), label: "move")
        #expect(pageNumbers(s, "other") == [1, 1, 3, 4, 5, 2])
        #expect(ids(s, "other").prefix(2) == ["p1", "p8"])
    }

    @Test func unknownTargetDocument() throws {
        var s = try session(pages: 3)
        let error = editError {
            try s.apply(.move(try selection("1"), to: .position(.number(1)), into: "nope"), label: "move")
        }
        #expect(error == .unknownDocument("nope", known: ["main"]))
    }
}

@Suite struct CopyAndDuplicateTests {
    @Test func copyKeepsOriginalsAndGivesNewIds() throws {
        var s = try session(pages: 7)
        let summary = try s.apply(.copy(selection("1,2"), to: .position(.last)), label: "copy 1,2 --to last")
        #expect(pageNumbers(s) == [1, 2, 3, 4, 5, 6, 7, 1, 2])
        #expect(ids(s) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"])
        #expect(summary.description == "copied 2 pages to position 8 (now 9 pages)")
        #expect(s.nextItemNumber == 10)
    }

    @Test func copyValidPositionsAreOneToLengthPlusOne() throws {
        var s = try session(pages: 3)
        try s.apply(.copy(selection("1"), to: .position(.number(4))), label: "copy")
        #expect(pageNumbers(s) == [1, 2, 3, 1])
        let error = editError {
            try s.apply(.copy(try selection("1"), to: .position(.number(6))), label: "copy")
        }
        #expect(error == .selection(.positionOutOfRange(token: "6", validRange: 1...5)))
    }

    @Test func copyMayAnchorOnACopiedItem() throws {
        var s = try session(pages: 3)
        try s.apply(.copy(selection("2"), to: .before(.number(2))), label: "copy")
        #expect(pageNumbers(s) == [1, 2, 2, 3])
        #expect(ids(s) == ["p1", "p4", "p2", "p3"])
    }

    @Test func copyKeepsRotation() throws {
        var s = try session(pages: 3)
        try s.apply(.rotate(selection("2"), quarterTurns: 1), label: "rotate")
        try s.apply(.copy(selection("2"), to: .position(.number(1))), label: "copy")
        #expect(rotations(s) == [1, 0, 1, 0])
    }

    @Test func duplicateCopiesEachItemRightAfterItself() throws {
        var s = try session(pages: 7)
        let summary = try s.apply(.duplicate(selection("4,2")), label: "duplicate 2,4")
        #expect(pageNumbers(s) == [1, 2, 2, 3, 4, 4, 5, 6, 7])
        #expect(ids(s) == ["p1", "p2", "p8", "p3", "p4", "p9", "p5", "p6", "p7"])
        #expect(summary.positions == [3, 6])
        #expect(summary.description == "duplicated 2 pages (now 9 pages)")
    }

    @Test func duplicateAdjacentItems() throws {
        var s = try session(pages: 3)
        try s.apply(.duplicate(.all), label: "duplicate all")
        #expect(pageNumbers(s) == [1, 1, 2, 2, 3, 3])
    }
}

@Suite struct RemoveRotateReverseTests {
    @Test func removeOdd() throws {
        var s = try session(pages: 7)
        let summary = try s.apply(.remove(selection("odd")), label: "remove odd")
        #expect(pageNumbers(s) == [2, 4, 6])
        #expect(summary.description == "removed 4 pages (now 3 pages)")
        #expect(summary.positions == [1, 3, 5, 7])
    }

    @Test func removeAllLeavesAnEmptyDocument() throws {
        var s = try session(pages: 2)
        try s.apply(.remove(.all), label: "remove all")
        #expect(s.documents[0].items.isEmpty)
    }

    @Test(arguments: [
        (90, [1, 1, 0]), (180, [2, 2, 0]), (270, [3, 3, 0]), (-90, [3, 3, 0]), (-180, [2, 2, 0]),
    ])
    func rotateComposes(_ degrees: Int, _ expected: [Int]) throws {
        var s = try session(pages: 3)
        try s.apply(.rotate(selection("1..2"), quarterTurns: Edit.quarterTurns(degrees: degrees)), label: "rotate")
        #expect(rotations(s) == expected)
        try s.apply(.rotate(selection("1..2"), quarterTurns: Edit.quarterTurns(degrees: degrees)), label: "rotate")
        #expect(rotations(s) == expected.map { ($0 * 2) % 4 })
    }

    @Test(arguments: [0, 45, 360, -360, 100, Int.min, Int.max])
    func rotateRefusesOtherAngles(_ degrees: Int) {
        #expect(throws: EditError.invalidRotation(degrees: degrees)) { try Edit.quarterTurns(degrees: degrees) }
    }

    @Test func rotateSummary() throws {
        var s = try session(pages: 3)
        let summary = try s.apply(.rotate(selection("2"), quarterTurns: -1), label: "rotate 2 --by -90")
        #expect(summary.description == "rotated 1 page by -90° (3 pages)")
        #expect(rotations(s) == [0, 3, 0])
    }

    @Test func reverseAll() throws {
        var s = try session(pages: 7)
        try s.apply(.reverse(.all), label: "reverse")
        #expect(pageNumbers(s) == [7, 6, 5, 4, 3, 2, 1])
    }

    @Test func reverseSwapsItemsAmongTheirOwnSlots() throws {
        var s = try session(pages: 7)
        try s.apply(.reverse(selection("2,4,6")), label: "reverse 2,4,6")
        #expect(pageNumbers(s) == [1, 6, 3, 4, 5, 2, 7])
        try s.apply(.reverse(selection("1..3,last")), label: "reverse")
        #expect(pageNumbers(s) == [7, 3, 6, 4, 5, 2, 1])
    }
}

@Suite struct InterleaveTests {
    func scans(fronts: Int, backs: Int) throws -> Session {
        try Session.opening([
            OpenedFile(documentName: "fronts", source: pdfSource("fronts.pdf", pages: fronts)),
            OpenedFile(documentName: "backs", source: pdfSource("backs.pdf", pages: backs)),
        ])
    }

    /// "f3" for page 3 of fronts.pdf, "b2" for page 2 of backs.pdf.
    func labels(_ s: Session, _ document: String) -> [String] {
        (s.document(named: document)?.items ?? []).map { item in
            guard case .page(let source, let page) = item.content else { return "?" }
            return (source.number == 1 ? "f" : "b") + "\(page)"
        }
    }

    @Test func alternates() throws {
        var s = try scans(fronts: 3, backs: 3)
        let summary = try s.apply(.interleave(other: "backs", reversed: false), label: "interleave backs")
        #expect(labels(s, "fronts") == ["f1", "b1", "f2", "b2", "f3", "b3"])
        #expect(s.document(named: "backs")?.items == [])
        #expect(summary.positions == [2, 4, 6])
        #expect(summary.otherPageCount == 0)
    }

    @Test func reversedTakesOtherFromItsEnd() throws {
        var s = try scans(fronts: 3, backs: 3)
        try s.apply(.interleave(other: "backs", reversed: true), label: "interleave backs --reverse")
        #expect(labels(s, "fronts") == ["f1", "b3", "f2", "b2", "f3", "b1"])
    }

    @Test(arguments: [
        (2, 4, ["f1", "b1", "f2", "b2", "b3", "b4"]),
        (4, 2, ["f1", "b1", "f2", "b2", "f3", "f4"]),
        (0, 2, ["b1", "b2"]),
    ])
    func longerRestGoesAtTheEnd(_ fronts: Int, _ backs: Int, _ expected: [String]) throws {
        var s = try scans(fronts: max(fronts, 1), backs: backs)
        if fronts == 0 { try s.apply(.remove(.all), label: "remove all") }
        try s.apply(.interleave(other: "backs", reversed: false), label: "interleave")
        #expect(labels(s, "fronts") == expected)
    }

    @Test func refusesItselfAnEmptyOtherAndUnknownNames() throws {
        var s = try scans(fronts: 2, backs: 2)
        #expect(
            editError {
                try s.apply(.interleave(other: "fronts", reversed: false), label: "x")
            } == .sameDocument("fronts"))
        #expect(
            editError {
                try s.apply(.interleave(other: "nope", reversed: false), label: "x")
            } == .unknownDocument("nope", known: ["fronts", "backs"]))
        try s.apply(.interleave(other: "backs", reversed: false), label: "x")
        #expect(
            editError {
                try s.apply(.interleave(other: "backs", reversed: false), label: "x")
            } == .emptyDocument("backs"))
    }
}
