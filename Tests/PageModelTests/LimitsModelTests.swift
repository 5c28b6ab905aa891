import Foundation
import PageModel
import Testing

/// Issue 13, item 16, in the model: counts are checked against `Limits` before
/// anything is allocated, id counters never overflow, and a session file whose
/// counters are out of range is refused when read.
@Suite struct LimitsModelTests {
    @Test("blank and placeholder counts over the item limit are refused before allocating")
    func countsOverTheLimit() throws {
        var s = try session(pages: 3)
        let before = s
        for count in [Int.max, 4_000_000, 999_998] {
            let error = editError {
                try s.apply(.blank(at: nil, count: count, size: nil), label: "blank")
            }
            #expect(error == .countOverLimit(count: count, document: "main", pageCount: 3, limit: 1_000_000))
            let placeholder = editError {
                try s.apply(.placeholder(at: nil, count: count, size: nil, label: nil), label: "placeholder")
            }
            #expect(placeholder == .countOverLimit(count: count, document: "main", pageCount: 3, limit: 1_000_000))
        }
        #expect(s == before)
        let small = EditContext(limits: Limits(itemsPerDocument: 5))
        try s.apply(.blank(at: nil, count: 2, size: .fixed(.a4)), label: "blank", context: small)
        #expect(s.document(named: "main")?.pageCount == 5)
        #expect(editError { try s.apply(.blank(at: nil, count: 1, size: nil), label: "b", context: small) }
            == .countOverLimit(count: 1, document: "main", pageCount: 5, limit: 5))
    }

    @Test("pad past the item limit names the document's would-be count, not a --count it has not got")
    func padOverTheLimit() throws {
        var s = try session(pages: 3)
        let before = s
        for perSource in [false, true] {
            let error = editError {
                try s.apply(.pad(multipleOf: Int.max, perSource: perSource, size: nil), label: "pad")
            }
            #expect(error == .tooManyItems(document: "main", count: Int.max, limit: 1_000_000))
            #expect(error.map { "\($0)" }?.contains("--count") == false)
        }
        #expect(s == before)
    }

    @Test("duplicate and copy past the item limit are refused by the check every edit ends with")
    func copiesOverTheLimit() throws {
        var s = try session(pages: 3)
        let small = EditContext(limits: Limits(itemsPerDocument: 5))
        #expect(editError { try s.apply(.duplicate(try selection("all")), label: "d", context: small) }
            == .tooManyItems(document: "main", count: 6, limit: 5))
        #expect(editError {
            try s.apply(.copy(try selection("1..3"), to: .position(.number(1))), label: "c", context: small)
        } == .tooManyItems(document: "main", count: 6, limit: 5))
        #expect(s.document(named: "main")?.pageCount == 3)
    }

    /// The session's file with one counter replaced.
    static func withCounter(_ name: String, _ value: String, in session: Session) throws -> Data {
        let text = String(decoding: try session.encoded(), as: UTF8.self)
        let pattern = try NSRegularExpression(pattern: "\"\(name)\" : [0-9]+")
        let range = NSRange(text.startIndex..., in: text)
        return Data(pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "\"\(name)\" : \(value)").utf8)
    }

    @Test("counters out of 1...2^53 in a session file are refused when read")
    func countersOutOfRange() throws {
        let s = try session(pages: 3)
        for name in ["nextItemNumber", "nextSourceNumber"] {
            for value in ["9223372036854775807", "9007199254740993", "0"] {
                do {
                    _ = try Session.decode(try Self.withCounter(name, value, in: s))
                    Issue.record("\(name) \(value) was accepted")
                } catch {
                    #expect("\(error)".contains("\(name) is \(value), it must be 1 to 9007199254740992"), "\(error)")
                }
            }
            #expect(throws: Never.self) { try Session.decode(try Self.withCounter(name, "9007199254740992", in: s)) }
        }
    }

    @Test("an edit that would take an id counter past 2^53 is refused, never an overflow")
    func countersAtTheirMaximum() throws {
        let s = try session(pages: 3)
        var full = try Session.decode(try Self.withCounter("nextItemNumber", "9007199254740991", in: s))
        try full.apply(.blank(at: nil, count: 1, size: .fixed(.a4)), label: "blank")
        #expect(full.nextItemNumber == Session.maximumCounter)
        let before = full
        for edit: Edit in [
            .blank(at: nil, count: 1, size: .fixed(.a4)), .duplicate(try selection("1")),
            .copy(try selection("1"), to: .position(.number(1))),
            .placeholder(at: nil, count: 2, size: .fixed(.a4), label: nil),
        ] {
            let error = editError { try full.apply(edit, label: "edit") }
            if case .idsExhausted(kind: "item", next: Session.maximumCounter, needed: _)? = error {
            } else {
                Issue.record("\(edit): \(String(describing: error))")
            }
        }
        #expect(full == before)
    }
}

extension LimitsModelTests {
    @Test("open refuses a file whose pages would pass the item limit")
    func openingIsBounded() throws {
        let error = editError {
            _ = try Session.opening(
                [OpenedFile(documentName: "big", source: pdfSource(pages: 6))], limits: Limits(itemsPerDocument: 5))
        }
        #expect(error == .tooManyItems(document: "big", count: 6, limit: 5))
        #expect(throws: Never.self) {
            try Session.opening([OpenedFile(documentName: "big", source: pdfSource(pages: 5))], limits: Limits(itemsPerDocument: 5))
        }
    }
}
