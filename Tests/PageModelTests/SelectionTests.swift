import PageModel
import Testing

/// The selection grammar of DESIGN.md "Positions and selections".
@Suite struct SelectionGrammarTests {
    /// A 10-page document; pages containing "Invoice" are 2 and 9.
    let document = Document(
        name: "main",
        items: (1...10).map { PageItem(id: ItemID(number: $0), content: .page(source: SourceID(number: 1), page: $0)) })
    /// The kit's matcher folds case and whitespace (and Unicode forms, tested in
    /// PDFEditKitTests); this stand-in folds case and whitespace.
    let text: (PageItem, String) -> Bool = { item, words in
        let page = [2, 9].contains(item.id.number) ? "Total\n  INVOICE  no. \(item.id.number)" : "page \(item.id.number)"
        func plain(_ text: String) -> String { text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return !plain(words).isEmpty && plain(page).contains(plain(words))
    }

    @Test(arguments: [
        ("1", [1]), ("3..5", [3, 4, 5]), ("3-5", [3, 4, 5]), ("8..", [8, 9, 10]), ("..3", [1, 2, 3]),
        ("last", [10]), ("last-2", [8]), ("last-0", [10]), ("LAST", [10]), ("odd", [1, 3, 5, 7, 9]),
        ("Even", [2, 4, 6, 8, 10]), ("all", Array(1...10)), ("5,1,3", [1, 3, 5]), (" 2 , 4 ", [2, 4]),
        ("last-2..last", [8, 9, 10]), ("3..last-5", [3, 4, 5]), ("1..1", [1]), ("9..last", [9, 10]),
        ("@p3", [3]), ("@P7,@p1", [1, 7]), ("10,..2", [1, 2, 10]), ("text:invoice", [2, 9]),
        ("text:total invoice", [2, 9]), ("text: Invoice No. 9 ", [9]), ("last-1..", [9, 10]), ("..last-8", [1, 2]),
        ("1-1", [1]), ("6..6,2-3", [2, 3, 6]),
    ])
    func valid(_ input: String, _ positions: [Int]) throws {
        let indices = try PageSelection.parse(input).resolve(in: document, text: text)
        #expect(indices.map { $0 + 1 } == positions)
    }

    /// Parses and resolves like the kit does, the page count filled in.
    func failure(_ input: String, in document: Document, text: ((PageItem, String) -> Bool)? = nil) -> SelectionError? {
        do {
            _ = try PageSelection.parse(input).resolve(in: document, text: text)
            Issue.record("\"\(input)\" should fail")
            return nil
        } catch {
            return error.inDocument(pageCount: document.pageCount)
        }
    }

    func doc(_ pages: Int) -> Document {
        Document(
            name: "d",
            items: (0..<pages).map {
                PageItem(id: ItemID(number: $0 + 1), content: .page(source: SourceID(number: 1), page: $0 + 1))
            })
    }

    @Test(arguments: [
        ("", SelectionError.empty(pageCount: 5)),
        ("   ", .empty(pageCount: 5)),
        ("1,,2", .emptyToken(after: "1", pageCount: 5)),
        ("1,", .emptyToken(after: "1", pageCount: 5)),
        (",1", .emptyToken(after: nil, pageCount: 5)),
        ("x", .malformed(token: "x", pageCount: 5)),
        ("1..2..3", .malformed(token: "1..2..3", pageCount: 5)),
        ("p3", .malformed(token: "p3", pageCount: 5)),
        ("@x", .malformed(token: "@x", pageCount: 5)),
        ("@p0", .malformed(token: "@p0", pageCount: 5)),
        ("-3", .malformed(token: "-3", pageCount: 5)),
        ("1-", .malformed(token: "1-", pageCount: 5)),
        ("1-2-3", .malformed(token: "1-2-3", pageCount: 5)),
        ("text:", .malformed(token: "text:", pageCount: 5)),
        ("3 4", .malformed(token: "3 4", pageCount: 5)),
        ("..", .malformed(token: "..", pageCount: 5)),
        ("last+1", .malformed(token: "last+1", pageCount: 5)),
        ("1.5", .malformed(token: "1.5", pageCount: 5)),
        ("first", .malformed(token: "first", pageCount: 5)),
        ("5..3", .descendingRange(token: "5..3", pageCount: 5)),
        ("3-1", .descendingRange(token: "3-1", pageCount: 5)),
        ("last..last-1", .descendingRange(token: "last..last-1", pageCount: 5)),
        ("last..2", .descendingRange(token: "last..2", pageCount: 5)),
        ("7", .outOfRange(token: "7", pageCount: 5)),
        ("0", .outOfRange(token: "0", pageCount: 5)),
        ("4..9", .outOfRange(token: "4..9", pageCount: 5)),
        ("6..", .outOfRange(token: "6..", pageCount: 5)),
        ("..0", .outOfRange(token: "..0", pageCount: 5)),
        ("last-5", .outOfRange(token: "last-5", pageCount: 5)),
        ("99999999999999999999999", .outOfRange(token: "99999999999999999999999", pageCount: 5)),
        ("1..3,2", .duplicate(token: "2", position: 2, firstToken: "1..3", pageCount: 5)),
        ("2,2", .duplicate(token: "2", position: 2, firstToken: "2", pageCount: 5)),
        ("odd,3", .duplicate(token: "3", position: 3, firstToken: "odd", pageCount: 5)),
        ("all,@p1", .duplicate(token: "@p1", position: 1, firstToken: "all", pageCount: 5)),
        ("last,5", .duplicate(token: "5", position: 5, firstToken: "last", pageCount: 5)),
        ("@p99", .unknownID(token: "@p99", pageCount: 5)),
        // Page-dependent tokens may match nothing: an answer, not a mistake.
        ("text:zebra", .matchedNothing(tokens: ["text:zebra"], pageCount: 5)),
    ])
    func invalid(_ input: String, _ expected: SelectionError) throws {
        let error = failure(input, in: doc(5), text: { _, words in "some words".contains(words) })
        #expect(error == expected)
        // The message names the offending token (when there is one) and the page count.
        let message = error?.description ?? ""
        if let token = expected.token {
            #expect(message.contains("\"\(token)\""))
        }
        #expect(message.contains("5 pages"))
    }

    @Test func outOfRangeMessageIsExact() {
        #expect(failure("7", in: doc(5))?.description == "\"7\" is out of range: the document has 5 pages")
        #expect(failure("2", in: doc(1))?.description == "\"2\" is out of range: the document has 1 page")
    }

    @Test func parseErrorsHaveNoPageCountUntilResolvedAgainstADocument() {
        #expect(throws: SelectionError.malformed(token: "x", pageCount: nil)) { try PageSelection.parse("1,x") }
        #expect(throws: SelectionError.descendingRange(token: "5..3", pageCount: nil)) {
            try PageSelection.parse("5..3")
        }
    }

    @Test func textNeedsALookup() {
        let error = failure("text:invoice", in: doc(5))
        #expect(error == .textWithoutLookup(token: "text:invoice"))
        #expect(error?.description.contains("\"text:invoice\"") == true)
    }

    /// DESIGN.md, "Selections that depend on the pages": tokens of the pages'
    /// contents may match nothing (beside others that match) and may overlap
    /// each other; positional tokens may not.
    @Test func pageDependentTokensMayMatchNothingAndOverlap() throws {
        let text: (PageItem, String) -> Bool = { item, words in item.id.number % 2 == 1 && words == "odd" }
        let document = doc(5)
        #expect(try PageSelection.parse("text:zebra,2").resolve(in: document, text: text) == [1])
        #expect(try PageSelection.parse("text:odd,text:odd").resolve(in: document, text: text) == [0, 2, 4])
        #expect(throws: SelectionError.matchedNothing(tokens: ["text:zebra", "text:gnu"], pageCount: 5)) {
            try PageSelection.parse("text:zebra,text:gnu").resolve(in: document, text: text)
        }
        // A positional token still may not select what a text token did.
        #expect(throws: SelectionError.duplicate(token: "1", position: 1, firstToken: "text:odd", pageCount: 5)) {
            try PageSelection.parse("text:odd,1").resolve(in: document, text: text)
        }
    }

    @Test(arguments: [("even", 1), ("all", 0), ("odd", 0)])
    func tokensThatSelectNothing(_ token: String, _ pages: Int) {
        let error = failure(token, in: doc(pages))
        #expect(error == .selectsNothing(token: token, pageCount: pages))
        #expect(error?.description.contains("\"\(token)\"") == true)
    }

    @Test func anEmptyDocumentHasNoPositions() {
        #expect(failure("1", in: doc(0)) == .outOfRange(token: "1", pageCount: 0))
        #expect(failure("last", in: doc(0)) == .outOfRange(token: "last", pageCount: 0))
        #expect(failure("..1", in: doc(0)) == .outOfRange(token: "..1", pageCount: 0))
    }

    @Test func editsReportSelectionErrorsWithThePageCount() throws {
        var s = try session(pages: 5)
        let before = s
        #expect(
            editError { try s.apply(.remove(try selection("9")), label: "remove 9") }
                == .selection(.outOfRange(token: "9", pageCount: 5)))
        #expect(
            editError { try s.apply(.rotate(try selection("last..2"), quarterTurns: 1), label: "rotate") }
                == .selection(.descendingRange(token: "last..2", pageCount: 5)))
        #expect(
            editError { try s.apply(.reverse(try selection("2,1..3")), label: "reverse") }
                == .selection(.duplicate(token: "1..3", position: 2, firstToken: "2", pageCount: 5)))
        #expect(s == before)
    }

    @Test func descriptionAndCodableKeepTheTokens() throws {
        let parsed = try PageSelection.parse(" 3..5 , last ,@p2,text:Foo Bar")
        #expect(parsed.description == "3..5,last,@p2,text:Foo Bar")
        #expect(try PageSelection.parse(parsed.description) == parsed)
        #expect(PageSelection(positions: [4, 1]).description == "4,1")
        #expect(try PageSelection(positions: [4, 1]).resolve(in: document) == [0, 3])
        #expect(try PageSelection(ids: [ItemID(number: 9)]).resolve(in: document) == [8])
    }

}

extension SelectionError {
    /// The token the error names, if any.
    var token: String? {
        switch self {
        case .malformed(let token, _), .descendingRange(let token, _), .outOfRange(let token, _),
            .duplicate(let token, _, _, _), .unknownID(let token, _), .textWithoutLookup(let token), .renderingWithoutLookup(let token),
            .pagesWithoutLookup(let token),
            .selectsNothing(let token, _), .idNotAPosition(let token), .positionOutOfRange(let token, _):
            token
        case .emptyToken(let after, _): after
        case .matchedNothing(let tokens, _): tokens.first
        case .empty: nil
        }
    }
}

@Suite struct PositionTests {
    @Test(arguments: [
        ("4", Position.number(4)), ("last", .last), (" LAST-2 ", .fromEnd(2)), ("@p12", .item(ItemID(number: 12))),
    ])
    func parses(_ text: String, _ expected: Position) throws {
        #expect(try Position.parse(text) == expected)
    }

    @Test(arguments: ["", "x", "-1", "last-", "@q1", "1..2", "3,4"])
    func refuses(_ text: String) {
        #expect(throws: SelectionError.self) { try Position.parse(text) }
    }

    @Test func resolvesAgainstTheLargestValidPosition() throws {
        #expect(try Position.last.resolve(maxPosition: 6) == 6)
        #expect(try Position.fromEnd(2).resolve(maxPosition: 6) == 4)
        #expect(try Position.number(1).resolve(maxPosition: 1) == 1)
        #expect(throws: SelectionError.positionOutOfRange(token: "7", validRange: 1...6)) {
            try Position.number(7).resolve(maxPosition: 6)
        }
        #expect(throws: SelectionError.positionOutOfRange(token: "last-6", validRange: 1...6)) {
            try Position.fromEnd(6).resolve(maxPosition: 6)
        }
        #expect(throws: SelectionError.idNotAPosition(token: "@p1")) {
            try Position.item(ItemID(number: 1)).resolve(maxPosition: 6)
        }
        #expect(
            SelectionError.positionOutOfRange(token: "7", validRange: 1...6).description
                == "position \"7\" is out of range: valid positions are 1…6")
    }
}
