import Foundation
import PageModel
import PropertyBased
import Testing

/// Page label ranges and metadata as document edits (issue 17, DESIGN "Authoring").
@Suite struct LabelsAndMetadataTests {
    func specs(_ texts: String...) throws -> [LabelSpec] {
        try texts.map { text throws in try LabelSpec.parse(text) }
    }

    func labels(_ session: Session, _ document: String = "main") -> [String?] {
        session.document(named: document)?.rangeLabels() ?? []
    }

    @Test func designExampleGivesRomanThenDecimalThenAppendix() throws {
        var session = try session(pages: 42)
        try session.apply(.labels(specs("1:r", "5:D", "40:A/1/App-")), label: "labels")
        let shown = labels(session)
        #expect(Array(shown[0..<6]) == ["i", "ii", "iii", "iv", "1", "2"])
        #expect(shown[38] == "35")
        #expect(Array(shown[39...]) == ["App-A", "App-B", "App-C"])
    }

    @Test func specsParseEveryPart() throws {
        #expect(try LabelSpec.parse("5:D") == LabelSpec(position: .number(5), style: .decimal))
        #expect(
            try LabelSpec.parse("last:R/4/Part/x-")
                == LabelSpec(position: .last, style: .upperRoman, firstNumber: 4, prefix: "Part/x-"))
        #expect(
            try LabelSpec.parse("@p3:-//Cover") == LabelSpec(position: .item(ItemID(number: 3)), style: .none, prefix: "Cover"))
        #expect(throws: LabelSpecError.self) { try LabelSpec.parse("5") }
        #expect(throws: LabelSpecError.self) { try LabelSpec.parse("5:x") }
        #expect(throws: LabelSpecError.self) { try LabelSpec.parse("5:D/0") }
        #expect(throws: LabelSpecError.self) { try LabelSpec.parse("five:D") }
    }

    @Test func stylesFormatAsReadersDo() {
        #expect(LabelStyle.lowerRoman.format(1994) == "mcmxciv")
        #expect(LabelStyle.upperRoman.format(4) == "IV")
        #expect(LabelStyle.upperLetters.format(26) == "Z")
        #expect(LabelStyle.upperLetters.format(27) == "AA")
        #expect(LabelStyle.lowerLetters.format(53) == "aaa")
        #expect(LabelStyle.none.format(3) == "")
    }

    @Test func itemsBeforeTheFirstRangeHaveNoLabel() throws {
        var session = try session(pages: 4)
        try session.apply(.labels(specs("3:D/7")), label: "labels")
        #expect(labels(session) == [nil, nil, "7", "8"])
    }

    @Test func aRangeMovesWithItsFirstItem() throws {
        var session = try session(pages: 6)
        try session.apply(.labels(specs("1:r", "4:D")), label: "labels")
        try session.apply(.move(selection("4..6"), to: .position(.number(1))), label: "move")
        // p4 p5 p6 p1 p2 p3: the D range starts at p4 (now first), the r range at p1.
        #expect(labels(session) == ["1", "2", "3", "i", "ii", "iii"])
    }

    @Test func removingARangesFirstItemMovesTheStartToTheNext() throws {
        var session = try session(pages: 6)
        try session.apply(.labels(specs("1:r", "4:D/10")), label: "labels")
        try session.apply(.remove(selection("4")), label: "remove")
        #expect(labels(session) == ["i", "ii", "iii", "10", "11"])
        #expect(session.currentDocument?.labelRanges?.map(\.start.description) == ["p1", "p5"])
        // A range none of whose items is left goes.
        try session.apply(.remove(selection("4..5")), label: "remove")
        #expect(session.currentDocument?.labelRanges?.map(\.start.description) == ["p1"])
        _ = try session.undo(3)
        #expect(session.currentDocument?.labelRanges == nil)
        _ = try session.redo(2)
        #expect(labels(session) == ["i", "ii", "iii", "10", "11"])
    }

    @Test func aFilledPlaceholderPassesItsRangeToItsFirstPage() throws {
        var session = try session(pages: 2)
        try session.apply(.placeholder(at: .position(.number(2)), count: 1, size: .fixed(.a5), label: nil), label: "ph")
        try session.apply(.labels(specs("1:r", "2:D/5")), label: "labels")
        let pages: [ItemContent] = [.page(source: SourceID(number: 1), page: 1), .page(source: SourceID(number: 1), page: 2)]
        try session.apply(.fill(.number(2), contents: pages, newSources: []), label: "fill")
        #expect(labels(session) == ["i", "5", "6", "7"])
        _ = try session.undo()
        #expect(labels(session) == ["i", "5", "6"])
    }

    @Test func clearMeansNoLabelsAndUndoBringsThemBack() throws {
        var session = try session(pages: 3)
        try session.apply(.labels(specs("1:D")), label: "labels")
        let labelled = session
        try session.apply(.labels(nil), label: "labels --clear")
        #expect(session.currentDocument?.labelRanges == [])
        _ = try session.undo()
        #expect(SessionState(session) == SessionState(labelled))
    }

    @Test func twoRangesAtOneItemAreRefused() throws {
        var session = try session(pages: 3)
        let before = session
        #expect(throws: EditError.duplicateLabelStart(position: 2)) {
            try session.apply(.labels(specs("2:D", "@p2:r")), label: "labels")
        }
        #expect(session == before)
    }

    @Test func metadataSetsOnlyTheFieldsGivenAndUndoes() throws {
        var session = try session(pages: 2)
        try session.apply(.metadata(DocumentMetadata(title: "Report", author: "Ann")), label: "meta")
        try session.apply(.metadata(DocumentMetadata(author: "", keywords: "a, b")), label: "meta")
        #expect(
            session.currentDocument?.metadata == DocumentMetadata(title: "Report", author: "", keywords: "a, b"))
        _ = try session.undo()
        #expect(session.currentDocument?.metadata == DocumentMetadata(title: "Report", author: "Ann"))
        _ = try session.undo()
        #expect(session.currentDocument?.metadata == nil)
        #expect(throws: EditError.nothingToSet) { try session.apply(.metadata(DocumentMetadata()), label: "meta") }
    }

    @Test func sessionFileKeepsRangesMetadataAndClosedDocuments() throws {
        var session = try Session.opening([
            OpenedFile(documentName: "a", source: pdfSource("a.pdf", pages: 3)),
            OpenedFile(documentName: "b", source: pdfSource("b.pdf", pages: 2)),
        ])
        try session.apply(.labels(specs("2:R/3/X-")), doc: "b", label: "labels")
        try session.apply(.metadata(DocumentMetadata(title: "Ünïcode ✓")), doc: "b", label: "meta")
        try session.apply(.labels([]), doc: "a", label: "labels")
        try session.apply(.closeDocument(name: "b"), label: "close b")
        var read = try Session.decode(session.encoded())
        #expect(read == session)
        _ = try read.undo()
        #expect(read.document(named: "b")?.rangeLabels() == [nil, "X-III"])
        #expect(read.document(named: "b")?.metadata?.title == "Ünïcode ✓")
        #expect(read.document(named: "a")?.labelRanges == [])
    }

    @Test func aVersion2SessionLoadsWithTheSourcesLabels() throws {
        let session = try session(pages: 2)
        var json = try #require(String(data: session.encoded(), encoding: .utf8))
        json = json.replacingOccurrences(of: "\"version\" : 3", with: "\"version\" : 2")
        let read = try Session.decode(Data(json.utf8))
        #expect(read.currentDocument?.labelRanges == nil)
        #expect(read.currentDocument?.metadata == nil)
        #expect(read.currentDocument?.items == session.currentDocument?.items)
    }

    @Test func aRangeStartingAtAMissingItemIsRefusedWhenRead() throws {
        var session = try session(pages: 2)
        try session.apply(.labels(specs("2:D")), label: "labels")
        let json = try #require(String(data: session.encoded(), encoding: .utf8))
        let broken = json.replacingOccurrences(of: "\"start\" : \"p2\"", with: "\"start\" : \"p9\"")
        #expect(broken != json)
        #expect(throws: SessionFormatError.self) { try Session.decode(Data(broken.utf8)) }
    }

    /// Random edits of two documents with label ranges and metadata: every
    /// range starts at an item of its document, once; a start still in its
    /// document keeps its range; undo of each step restores the state exactly.
    @Test func randomEditsKeepRangesOnItemsAndUndoRestoresThem() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 1...10), Gen.int(in: 1...5),
            Gen.int(in: 0...(1 << 30)).array(of: 4).array(of: 1...25)
        ) { mainPages, otherPages, script in
            try Self.runRandom(mainPages: mainPages, otherPages: otherPages, script: script)
        }
    }

    static func runRandom(mainPages: Int, otherPages: Int, script: [[Int]]) throws {
        var session = try Session.opening([
            OpenedFile(documentName: "main", source: pdfSource("main.pdf", pages: mainPages)),
            OpenedFile(documentName: "other", source: pdfSource("other.pdf", pages: otherPages)),
        ])
        var states = [SessionState(session)]
        let styles = LabelStyle.allCases
        for (step, v) in script.enumerated() {
            let name = v[1] % 2 == 0 ? "main" : "other"
            let otherName = name == "main" ? "other" : "main"
            let count = session.document(named: name)?.pageCount ?? 0
            let n = count == 0 ? 1 : v[2] % count + 1
            let m = count == 0 ? 1 : v[3] % count + 1
            let sel = try PageSelection.parse("\(min(n, m))..\(max(n, m))")
            let edit: Edit
            switch v[0] % 10 {
            case 0, 1:
                let starts = Set([n, m, v[2] % 3 + 1]).sorted()
                edit = .labels(
                    starts.enumerated().map { offset, start in
                        LabelSpec(
                            position: .number(start), style: styles[(v[3] + offset) % styles.count],
                            firstNumber: v[2] % 5 + 1, prefix: offset == 0 ? "" : "P\(offset)-")
                    })
            case 2: edit = .move(sel, to: .position(.number(v[3] % 3 + 1)), into: v[2] % 3 == 0 ? otherName : nil)
            case 3: edit = .remove(sel)
            case 4: edit = .duplicate(sel)
            case 5: edit = .copy(sel, to: .position(.last), into: otherName)
            case 6: edit = .reverse(sel)
            case 7: edit = .interleave(other: otherName, reversed: v[2] % 2 == 0)
            case 8: edit = v[2] % 4 == 0 ? .labels(nil) : .metadata(DocumentMetadata(title: "T\(step)", author: v[3] % 2 == 0 ? "" : nil))
            default:
                switch v[2] % 3 {
                case 0: edit = .blank(at: .position(.number(1)), count: 1, size: .fixed(.a5))
                case 1: edit = .placeholder(at: .position(.number(n)), count: 1, size: .fixed(.a5), label: nil)
                default:
                    // Refused unless the item at n is a placeholder.
                    edit = .fill(
                        .number(n), contents: [.page(source: SourceID(number: 1), page: 1)], newSources: [])
                }
            }
            let before = session
            do {
                try session.apply(edit, doc: name, label: "step \(step)")
            } catch {
                #expect(session == before, "a refused edit changed the session")
                continue
            }
            // A start still in its document keeps its range.
            for old in before.documents {
                for range in old.labelRanges ?? [] where session.document(named: old.name)?.index(of: range.start) != nil {
                    if case .labels = edit, old.name == name { continue }
                    #expect(
                        session.document(named: old.name)?.labelRanges?.contains(range) == true,
                        "step \(step): range at \(range.start) lost")
                }
            }
            for document in session.documents {
                let starts = (document.labelRanges ?? []).map(\.start)
                #expect(Set(starts).count == starts.count, "step \(step): two ranges at one item")
                #expect(starts.allSatisfy { document.index(of: $0) != nil }, "step \(step): a range lost its item")
                // Each item's label, worked out here from the ranges' positions:
                // the last range starting at or before it, counted from there.
                let positions = Dictionary(uniqueKeysWithValues: document.items.enumerated().map { ($1.id, $0) })
                let expected: [String?] = document.items.indices.map { index in
                    let owner = (document.labelRanges ?? []).filter { positions[$0.start].map { $0 <= index } ?? false }
                        .max { positions[$0.start]! < positions[$1.start]! }
                    return owner.map { $0.prefix + $0.style.format($0.firstNumber + index - positions[$0.start]!) }
                }
                #expect(document.rangeLabels() == expected, "step \(step): labels differ from their ranges")
            }
            states.append(SessionState(session))
        }
        #expect(try Session.decode(session.encoded()) == session, "JSON round trip differs")
        let final = SessionState(session)
        let steps = session.history.undoableCount
        for back in 1...max(steps, 1) where steps > 0 {
            _ = try session.undo()
            #expect(SessionState(session) == states[states.count - 1 - back], "undo \(back) differs")
        }
        if steps > 0 {
            _ = try session.redo(steps)
        }
        #expect(SessionState(session) == final)
    }
}
