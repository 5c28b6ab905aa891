import Foundation
import PageModel
import Testing

@Suite struct SessionCodecTests {
    /// A session that uses every kind of item and every kind of history step, with an undone tail.
    func richSession() throws -> Session {
        var s = try Session.opening([
            OpenedFile(documentName: "main", source: pdfSource("a.pdf", pages: 9)),
            OpenedFile(documentName: "backs", source: pdfSource("b.pdf", pages: 3)),
        ])
        let png = imageSource("logo.png", id: 40)
        try s.apply(.move(selection("2,5..6"), to: .position(.number(1))), label: "move 2,5..6 --to 1")
        try s.apply(.rotate(selection("even"), quarterTurns: 3), label: "rotate even --by -90")
        try s.apply(
            .insertItems(contents: [.image(source: png.id)], at: .position(.number(2)), newSources: [png]),
            label: "insert logo.png --at 2")
        try s.apply(.blank(at: nil, count: 2, size: .fixed(.letter)), label: "blank --count 2")
        try s.apply(
            .placeholder(at: .position(.number(1)), count: 1, size: .fixed(.a5), label: "cover \"ü\""),
            label: "placeholder")
        try s.apply(.interleave(other: "backs", reversed: true), label: "interleave backs --reverse")
        try s.apply(.newDocument(name: "extra"), label: "new extra")
        try s.apply(.copy(selection("1..3"), to: .position(.number(1)), into: "extra"), doc: "main", label: "copy")
        try s.apply(.renameDocument(from: "backs", to: "empty"), label: "rename")
        try s.apply(.closeDocument(name: "empty"), label: "close empty")
        try s.apply(.reverse(selection("1..4")), doc: "main", label: "reverse 1..4")
        try s.apply(.duplicate(selection("last")), doc: "main", label: "duplicate last")
        try s.apply(.remove(selection("2,4")), doc: "main", label: "remove 2,4")
        try s.apply(
            .relink(source: SourceID(number: 1), path: "moved/a.pdf", size: 5, sha256: "new", pageCount: 9),
            label: "relink")
        _ = try s.undo(3)
        return s
    }

    @Test func roundTripIsExact() throws {
        let s = try richSession()
        let data = try s.encoded()
        let decoded = try Session.decode(data)
        #expect(decoded == s)
        // Stable bytes: encoding the decoded session gives the same file.
        #expect(try decoded.encoded() == data)
        // And the decoded history still works.
        var again = decoded
        _ = try again.redo(3)
        _ = try again.undo(14)
        #expect(again.documents.map(\.name) == ["main", "backs"])
        #expect(pageNumbers(again, "main") == Array(1...9))
    }

    func json(_ s: Session) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: s.encoded()) as? [String: Any])
    }

    func itemRecords(_ object: [String: Any], document: Int = 0) throws -> [[String: Any]] {
        let documents = try #require(object["documents"] as? [[String: Any]])
        return try #require(documents[document]["items"] as? [[String: Any]])
    }

    @Test func consecutivePagesAreOneRun() throws {
        var s = try session(pages: 20_000)
        let object = try json(s)
        #expect(object["version"] as? Int == 8)
        let records = try itemRecords(object)
        #expect(records.count == 1)
        #expect(records[0]["source"] as? String == "s1")
        #expect(records[0]["pages"] as? [Int] == [1, 20_000])
        #expect(records[0]["firstId"] as? Int == 1)
        #expect(records[0]["rotation"] as? Int == 0)

        // Reversed, it is still one (descending) run.
        try s.apply(.reverse(.all), label: "reverse")
        let reversed = try itemRecords(try json(s))
        #expect(reversed.count == 1)
        #expect(reversed[0]["pages"] as? [Int] == [20_000, 1])
        #expect(reversed[0]["firstId"] as? Int == 20_000)
        #expect(try Session.decode(s.encoded()) == s)
    }

    @Test func runsBreakWhereRotationPagesOrIdsStopFollowing() throws {
        var s = try session(pages: 10)
        try s.apply(.rotate(selection("4"), quarterTurns: 1), label: "rotate")
        try s.apply(.move(selection("8"), to: .position(.number(1))), label: "move")
        try s.apply(.blank(at: nil, count: 1, size: .fixed(.a4)), label: "blank")
        let records = try itemRecords(try json(s))
        // 8 | 1-3 | 4 (rotated) | 5-7 | 9-10 | blank
        #expect(records.count == 6)
        #expect(records[0]["page"] as? Int == 8)
        #expect(records[0]["id"] as? String == "p8")
        #expect(records[1]["pages"] as? [Int] == [1, 3])
        #expect(records[2]["rotation"] as? Int == 1)
        #expect(records[5]["blank"] != nil)
    }

    @Test func pagesSteppingTogetherMakeASteppedRun() throws {
        var s = try session(pages: 20_000)
        try s.apply(.remove(selection("odd")), label: "remove odd")
        let records = try itemRecords(try json(s))
        #expect(records.count == 1)
        #expect(records[0]["pages"] as? [Int] == [2, 20_000])
        #expect(records[0]["step"] as? Int == 2)
        #expect(records[0]["firstId"] as? Int == 2)
        #expect(try s.encoded().count < 10_000)
        #expect(try Session.decode(s.encoded()) == s)
    }

    @Test func fileIsPrettyAndSorted() throws {
        let text = String(decoding: try session(pages: 2).encoded(), as: UTF8.self)
        #expect(text.contains("\n  \"current\" : \"main\""))
        let keys = ["current", "documents", "history", "nextItemNumber", "nextSourceNumber", "sources", "version"]
        let offsets = keys.compactMap { text.range(of: "\n  \"\($0)\"")?.lowerBound }
        #expect(offsets.count == keys.count)
        #expect(offsets == offsets.sorted())
    }

    /// A valid file with one edit applied to its JSON.
    func edited(_ change: (inout [String: Any]) throws -> Void) throws -> Data {
        var s = try session(pages: 3)
        try s.apply(.move(selection("3"), to: .position(.number(1))), label: "move")
        var object = try json(s)
        try change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    func decodeError(_ data: Data) -> SessionFormatError? {
        do {
            _ = try Session.decode(data)
            Issue.record("decoding should fail")
            return nil
        } catch {
            return error
        }
    }

    @Test("a version-1 file (before rotation patterns) is read, and saved again as the current version")
    func versionOneIsRead() throws {
        let decoded = try Session.decode(try edited { $0["version"] = 1 })
        let reference = try Session.decode(try edited { _ in })
        #expect(decoded == reference)
        #expect(try json(decoded)["version"] as? Int == 8)
    }

    @Test func unknownVersionIsNamed() throws {
        let error = decodeError(try edited { $0["version"] = 9 })
        #expect(error == .unsupportedVersion(9, supported: 1...8))
        #expect(error?.description == "the session file has version 9; this pdfedit reads versions 1 to 8 only")
        #expect(decodeError(try edited { $0["version"] = 0 }) == .unsupportedVersion(0, supported: 1...8))
        #expect(decodeError(try edited { $0["version"] = nil }) == .missingVersion)
    }

    @Test(arguments: ["", "{", "[1,2]", "null", "{\"version\":\"1\"}", "\u{FF}\u{FE}"])
    func malformedJSONIsAnError(_ text: String) {
        let error = decodeError(Data(text.utf8))
        guard case .malformedJSON(let detail)? = error else {
            Issue.record("expected malformedJSON, got \(String(describing: error))")
            return
        }
        #expect(!detail.isEmpty)
    }

    @Test func missingFieldIsNamed() throws {
        let error = decodeError(try edited { $0["current"] = nil })
        #expect(error == .malformedJSON("current is missing"))
    }

    @Test func duplicateIdsAreRefused() throws {
        let data = try edited { object in
            var documents = object["documents"] as! [[String: Any]]
            var items = documents[0]["items"] as! [[String: Any]]
            items.append(["id": "p1", "source": "s1", "page": 1, "rotation": 0])
            documents[0]["items"] = items
            object["documents"] = documents
        }
        #expect(decodeError(data) == .inconsistent(.duplicateItemID(ItemID(number: 1))))
    }

    @Test func badRotationUnknownSourceAndUnknownCurrentAreRefused() throws {
        func replacingFirstItem(_ item: [String: Any]) throws -> Data {
            try edited { object in
                var documents = object["documents"] as! [[String: Any]]
                var items = documents[0]["items"] as! [[String: Any]]
                items[0] = item
                documents[0]["items"] = items
                object["documents"] = documents
            }
        }
        #expect(
            decodeError(try replacingFirstItem(["id": "p3", "source": "s1", "page": 3, "rotation": 4]))
                == .inconsistent(.invalidRotation(ItemID(number: 3), rotation: 4)))
        #expect(
            decodeError(try replacingFirstItem(["id": "p3", "source": "s9", "page": 3, "rotation": 0]))
                == .inconsistent(.unknownSource(item: ItemID(number: 3), source: SourceID(number: 9))))
        #expect(
            decodeError(try replacingFirstItem(["id": "p3", "source": "s1", "page": 4, "rotation": 0]))
                == .inconsistent(.invalidContent(item: ItemID(number: 3), reason: "source s1 has no page 4")))
        #expect(
            decodeError(try replacingFirstItem(["id": "p9", "source": "s1", "page": 3, "rotation": 0]))
                == .inconsistent(.itemIDNotIssued(ItemID(number: 9), nextItemNumber: 4)))
        #expect(
            decodeError(try replacingFirstItem(["id": "p3", "rotation": 0]))
                == .malformedJSON(
                    "documents[0].items[0].id: item p3 has none of \"page\", \"blank\", \"image\", \"placeholder\", \"sheet\""))
        #expect(decodeError(try edited { $0["current"] = "gone" }) == .inconsistent(.unknownCurrentDocument("gone")))
    }

    @Test func hugeOrBrokenRunsAreRefused() throws {
        func withRun(_ run: [String: Any]) throws -> Data {
            try edited { object in
                var documents = object["documents"] as! [[String: Any]]
                documents[0]["items"] = [run]
                object["documents"] = documents
            }
        }
        guard
            case .invalidField? = decodeError(
                try withRun(["source": "s1", "pages": [1, Int.max], "firstId": 1, "rotation": 0]))
        else {
            Issue.record("a huge run must be refused")
            return
        }
        guard
            case .invalidField? = decodeError(
                try withRun(["source": "s1", "pages": [-5, 2], "firstId": 1, "rotation": 0]))
        else {
            Issue.record("a run below page 1 must be refused")
            return
        }
        guard
            case .invalidField? = decodeError(
                try withRun(["source": "s1", "pages": [3, 1], "firstId": 2, "rotation": 0]))
        else {
            Issue.record("a run with ids below 1 must be refused")
            return
        }
        guard
            case .invalidField? = decodeError(
                try withRun(["source": "s1", "pages": [1, 4], "step": 2, "firstId": 1, "rotation": 0]))
        else {
            Issue.record("a step that misses the last page must be refused")
            return
        }
        guard
            case .invalidField? = decodeError(
                try withRun(["source": "s1", "pages": [1, 3], "step": 0, "firstId": 1, "rotation": 0]))
        else {
            Issue.record("a zero step must be refused")
            return
        }
        #expect(
            decodeError(try withRun(["source": "s1", "pages": [1], "firstId": 1, "rotation": 0]))
                == .malformedJSON("documents[0].items[0].pages: \"pages\" must be [first, last]"))
    }

    @Test func brokenHistoryIsRefusedOrReportedNeverTrapped() throws {
        let undoneTooMany = try edited { object in
            var history = object["history"] as! [String: Any]
            history["undone"] = 5
            object["history"] = history
        }
        guard case .invalidField? = decodeError(undoneTooMany) else {
            Issue.record("undone > steps")
            return
        }

        let unknownOp = try edited { object in
            var history = object["history"] as! [String: Any]
            var steps = history["steps"] as! [[String: Any]]
            steps[0]["changes"] = [["op": "explode"]]
            history["steps"] = steps
            object["history"] = history
        }
        #expect(decodeError(unknownOp) == .invalidField("unknown history operation \"explode\""))

        // Well-formed but not matching the document: undo reports it and changes nothing.
        let mismatched = try edited { object in
            var history = object["history"] as! [String: Any]
            var steps = history["steps"] as! [[String: Any]]
            steps[0]["changes"] = [
                ["op": "transfer", "from": "main", "to": "main", "positions": [[7, 7]], "at": [[0, 0]]]
            ]
            history["steps"] = steps
            object["history"] = history
        }
        var s = try Session.decode(mismatched)
        let before = s
        guard case .historyCorrupt? = editError({ _ = try s.undo() }) else {
            Issue.record("expected historyCorrupt")
            return
        }
        #expect(s == before)
    }

    @Test func twentyThousandPagesAndAHundredStepsStaySmall() throws {
        var s = try session(pages: 20_000)
        for step in 0..<100 {
            let a = (step * 7_919) % 19_000 + 1
            switch step % 4 {
            case 0:
                try s.apply(
                    .move(selection("\(a)..\(a + 50)"), to: .position(.number((step * 104_729) % 19_000 + 1))),
                    label: "move")
            case 1: try s.apply(.rotate(selection("\(a)..\(a + 500)"), quarterTurns: 1), label: "rotate")
            case 2: try s.apply(.move(selection("\(a),\(a + 3),\(a + 9)"), to: .position(.last)), label: "move")
            default: try s.apply(.rotate(selection("\(a)"), quarterTurns: 2), label: "rotate")
            }
        }
        let data = try s.encoded()
        #expect(data.count < 5_000_000, "session file is \(data.count) bytes")
        #expect(try Session.decode(data) == s)
    }

    @Test func editsAndSummariesAreCodable() throws {
        let edits: [Edit] = [
            .move(try selection("1,3..last,@p4"), to: .after(.fromEnd(2)), into: "b"),
            .copy(try selection("text:Dear Sir"), to: .position(.last)),
            .rotate(try selection("odd"), quarterTurns: -1),
            .blank(at: .before(.item(ItemID(number: 3))), count: 2, size: try PageSize.parse("like:2")),
            .placeholder(at: nil, count: 1, size: .fixed(.a4), label: nil),
            .insertItems(
                contents: [.page(source: SourceID(number: 9), page: 2)], at: nil, newSources: [pdfSource(pages: 3)]),
            .fill(.number(2), contents: [.image(source: SourceID(number: 1))], newSources: []),
            .relink(source: SourceID(number: 1), path: "x.pdf", size: 3, sha256: "abc", pageCount: 4),
        ]
        let data = try JSONEncoder().encode(edits)
        #expect(try JSONDecoder().decode([Edit].self, from: data) == edits)

        var s = try session(pages: 3)
        let summary = try s.apply(.duplicate(.all), label: "duplicate")
        #expect(try JSONDecoder().decode(ChangeSummary.self, from: JSONEncoder().encode(summary)) == summary)
    }

    @Test func encodeAndDecodeOfAOneRunDocumentAreFast() throws {
        let s = try session(pages: 20_000)
        let clock = ContinuousClock()
        var decoded: Session?
        let elapsed = try clock.measure {
            decoded = try Session.decode(s.encoded())
        }
        #expect(decoded == s)
        // The target is well under 0.1 s in release builds; debug builds on a loaded machine get slack.
        #expect(elapsed < .milliseconds(500), "encode+decode took \(elapsed)")
    }
}
