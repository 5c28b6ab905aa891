import PageModel
import Testing

@Suite struct BlankAndPlaceholderTests {
    /// Page 1 of a.pdf is Letter, every other page A4; b.png is 100×200.
    let context = EditContext(pageSize: { item in
        switch item.content {
        case .page(_, 1): .letter
        case .page: .a4
        case .image: PageSize(width: 100, height: 200)
        default: nil
        }
    })

    func blankSizes(_ s: Session) -> [PageSize?] {
        s.documents[0].items.map { item in
            if case .blank(let size) = item.content { return size }
            return nil
        }
    }

    @Test func defaultSizeIsThePageBefore() throws {
        var s = try session(pages: 3)
        let summary = try s.apply(
            .blank(at: .position(.number(2)), count: 2, size: nil), label: "blank", context: context)
        #expect(pageNumbers(s) == [1, 0, 0, 2, 3])
        #expect(blankSizes(s)[1] == .letter)
        #expect(blankSizes(s)[2] == .letter)
        #expect(ids(s) == ["p1", "p4", "p5", "p2", "p3"])
        #expect(summary.description == "inserted 2 blank pages (Letter, 612×792 pt) at position 2 (now 5 pages)")
    }

    @Test func defaultSizeAtTheStartIsThePageAfter() throws {
        var s = try session(pages: 3)
        try s.apply(.move(selection("2"), to: .position(.number(1))), label: "move")
        try s.apply(.blank(at: .position(.number(1)), count: 1, size: nil), label: "blank", context: context)
        #expect(blankSizes(s)[0] == .a4)
    }

    @Test func defaultSizeInAnEmptyDocumentIsA4() throws {
        var s = Session()
        try s.apply(.blank(at: nil, count: 1, size: nil), label: "blank")
        #expect(blankSizes(s) == [.a4])
    }

    @Test func defaultSizeFollowsTheDisplayedOrientation() throws {
        var s = try session(pages: 2)
        try s.apply(.rotate(selection("2"), quarterTurns: 1), label: "rotate")
        try s.apply(.blank(at: nil, count: 1, size: nil), label: "blank", context: context)
        #expect(blankSizes(s)[2] == PageSize.a4.swapped)
    }

    @Test func likeP() throws {
        var s = try session(pages: 3)
        try s.apply(
            .blank(at: .position(.number(1)), count: 1, size: try PageSize.parse("like:last")), label: "blank",
            context: context)
        #expect(blankSizes(s)[0] == .a4)
        try s.apply(
            .blank(at: .after(.number(1)), count: 1, size: try PageSize.parse("like:2")), label: "blank",
            context: context)
        #expect(pageNumbers(s) == [0, 0, 1, 2, 3])
        #expect(blankSizes(s)[1] == .letter)
    }

    @Test func sizeUnknownWithoutLookup() throws {
        var s = try session(pages: 3)
        let error = editError { try s.apply(.blank(at: .position(.number(2)), count: 1, size: nil), label: "blank") }
        #expect(error == .pageSizeUnknown(position: 1, document: "main"))
    }

    @Test func countMustBePositive() throws {
        var s = try session(pages: 1)
        #expect(editError { try s.apply(.blank(at: nil, count: 0, size: .fixed(.a4)), label: "b") } == .invalidCount(0))
    }

    @Test func atMeansTheFirstInsertedItemEndsAtN() throws {
        var s = try session(pages: 3)
        try s.apply(.blank(at: .position(.number(4)), count: 1, size: .fixed(.a5)), label: "blank")
        #expect(pageNumbers(s) == [1, 2, 3, 0])
        let error = editError {
            try s.apply(.blank(at: .position(.number(6)), count: 1, size: .fixed(.a5)), label: "b")
        }
        #expect(error == .selection(.positionOutOfRange(token: "6", validRange: 1...5)))
    }

    @Test func placeholderThenFill() throws {
        var s = try session(pages: 3)
        try s.apply(
            .placeholder(at: .position(.number(2)), count: 1, size: .fixed(.letter), label: "cover"),
            label: "placeholder")
        #expect(s.documents[0].items[1].content == .placeholder(size: .letter, label: "cover"))
        #expect(s.documents[0].placeholderPositions == [2])

        let scan = pdfSource("scan.pdf", pages: 3, id: 77)
        let contents: [ItemContent] = (1...3).map { .page(source: SourceID(number: 77), page: $0) }
        let summary = try s.apply(.fill(.number(2), contents: contents, newSources: [scan]), label: "fill 2 scan.pdf")
        #expect(s.sources.map(\.id.description) == ["s1", "s2"])
        #expect(s.sources[1].path == "scan.pdf")
        #expect(
            s.documents[0].items[1...3].map(\.content) == (1...3).map { .page(source: SourceID(number: 2), page: $0) })
        #expect(ids(s) == ["p1", "p5", "p6", "p7", "p2", "p3"])
        #expect(s.documents[0].placeholderPositions == [])
        #expect(summary.newSources == [SourceID(number: 2)])
        #expect(summary.description == "filled the placeholder at position 2 with 3 pages (now 6 pages)")
    }

    /// Issue 40, item 10: `fill` kept none of the file's bookmarks, `insert` all of them.
    @Test func fillBringsTheFilesBookmarksAsInsertDoes() throws {
        let scan = pdfSource("scan.pdf", pages: 3, id: 77)
        let contents: [ItemContent] = (1...3).map { .page(source: SourceID(number: 77), page: $0) }
        let bookmarks = [
            SourceOutline(
                source: scan.id,
                entries: [
                    SourceOutlineEntry(title: "Front", page: 1, children: [SourceOutlineEntry(title: "Back", page: 3)])
                ])
        ]
        var filled = try session(pages: 3)
        try filled.apply(
            .placeholder(at: .position(.number(2)), count: 1, size: .fixed(.letter), label: nil), label: "placeholder")
        let placeholder = filled.documents[0].items[1].id
        try filled.apply(.outline(.add(title: "Slot", at: .item(placeholder), parent: nil)), label: "outline add")
        let before = SessionState(filled)
        try filled.apply(
            .fill(.number(2), contents: contents, newSources: [scan], outlines: bookmarks), label: "fill 2 scan.pdf")
        // The bookmark of the slot goes to the first page; the file's come along,
        // under an entry named after it, as beside any other bookmarks.
        #expect(outlineLines(filled) == ["Slot→p5", "scan→p5", "  Front→p5", "    Back→p7"])
        // As `insert` brings them to a document with an outline of its own.
        var inserted = try session(pages: 3)
        try inserted.apply(.outline(.add(title: "Slot", at: .number(1), parent: nil)), label: "outline add")
        try inserted.apply(
            .insertItems(contents: contents, at: .position(.number(2)), newSources: [scan], outlines: bookmarks),
            label: "insert")
        #expect(outlineLines(inserted) == ["a→p1", "  Slot→p1", "scan→p4", "  Front→p4", "    Back→p6"])
        // One undo takes the fill and its bookmarks back.
        _ = try filled.undo(1)
        #expect(SessionState(filled) == before)
    }

    @Test func fillRefusesAnItemThatIsNotAPlaceholder() throws {
        var s = try session(pages: 3)
        let error = editError {
            try s.apply(.fill(.number(1), contents: [.blank(.a4)], newSources: []), label: "fill")
        }
        #expect(error == .notAPlaceholder(position: 1, kind: "page"))
    }
}

@Suite struct InsertItemsTests {
    @Test func newSourcesGetTheNextIdsAndContentsAreRewritten() throws {
        var s = try session(pages: 2)
        let pdf = pdfSource("b.pdf", pages: 2, id: 900)
        let png = imageSource("c.png", id: 901)
        let summary = try s.apply(
            .insertItems(
                contents: [.page(source: pdf.id, page: 2), .image(source: png.id), .page(source: pdf.id, page: 1)],
                at: .position(.number(2)), newSources: [pdf, png]),
            label: "insert b.pdf c.png --at 2")
        #expect(s.sources.map(\.id.description) == ["s1", "s2", "s3"])
        #expect(
            s.documents[0].items.map(\.content) == [
                .page(source: SourceID(number: 1), page: 1),
                .page(source: SourceID(number: 2), page: 2),
                .image(source: SourceID(number: 3)),
                .page(source: SourceID(number: 2), page: 1),
                .page(source: SourceID(number: 1), page: 2),
            ])
        #expect(summary.newSources.map(\.description) == ["s2", "s3"])
        #expect(summary.positions == [2, 3, 4])
        #expect(s.nextSourceNumber == 4)
    }

    @Test func theSameFileIsImportedOnce() throws {
        var s = try session(pages: 2)
        let again = pdfSource("a.pdf", pages: 2, id: 5)
        try s.apply(
            .insertItems(contents: [.page(source: again.id, page: 1)], at: nil, newSources: [again]), label: "i")
        #expect(s.sources.count == 1)
        #expect(s.documents[0].items.last?.content == .page(source: SourceID(number: 1), page: 1))
    }

    @Test func contentIsChecked() throws {
        var s = try session(pages: 2)
        let before = s
        #expect(
            editError {
                try s.apply(
                    .insertItems(contents: [.page(source: SourceID(number: 1), page: 3)], at: nil, newSources: []),
                    label: "i")
            } == .sourcePageOutOfRange(source: SourceID(number: 1), page: 3, pageCount: 2))
        #expect(
            editError {
                try s.apply(
                    .insertItems(contents: [.image(source: SourceID(number: 9))], at: nil, newSources: []), label: "i")
            } == .unknownSource(SourceID(number: 9)))
        #expect(
            editError { try s.apply(.insertItems(contents: [], at: nil, newSources: []), label: "i") }
                == .nothingToInsert)
        #expect(s == before)
    }

    @Test func openingMakesOneDocumentPerFileWithUniqueNames() throws {
        let s = try Session.opening([
            OpenedFile(documentName: "scan", source: pdfSource("x/scan.pdf", pages: 2)),
            OpenedFile(documentName: "scan", source: pdfSource("y/scan.pdf", pages: 1)),
            OpenedFile(documentName: "photo", source: imageSource("photo.jpg")),
        ])
        #expect(s.documents.map(\.name) == ["scan", "scan-2", "photo"])
        #expect(s.current == "scan")
        #expect(s.documents.map(\.pageCount) == [2, 1, 1])
        #expect(s.documents[2].items[0].content == .image(source: SourceID(number: 3)))
        #expect(ids(s, "photo") == ["p4"])
        #expect(s.historyEntries.isEmpty)
    }
}

@Suite struct DocumentOperationTests {
    @Test func newBecomesCurrentAndUndoGoesBack() throws {
        var s = try session(pages: 2)
        let summary = try s.apply(.newDocument(name: "backs"), label: "new backs")
        #expect(s.current == "backs")
        #expect(s.documents.map(\.name) == ["main", "backs"])
        #expect(summary.description == "created document \"backs\" (now current)")
        _ = try s.undo()
        #expect(s.current == "main")
        #expect(s.documents.map(\.name) == ["main"])
    }

    @Test func namesAreChecked() throws {
        var s = try session(pages: 1)
        #expect(editError { try s.apply(.newDocument(name: "main"), label: "n") } == .documentExists("main"))
        #expect(
            editError { try s.apply(.newDocument(name: ""), label: "n") }
                == .invalidDocumentName("", reason: "it is empty"))
        #expect(
            editError { try s.apply(.newDocument(name: "a/b"), label: "n") }
                == .invalidDocumentName("a/b", reason: "it contains \"/\""))
        #expect(
            editError { try s.apply(.renameDocument(from: "x", to: "y"), label: "r") }
                == .unknownDocument("x", known: ["main"]))
    }

    @Test func renameKeepsTheCurrentDocumentCurrent() throws {
        var s = try session(pages: 1)
        try s.apply(.renameDocument(from: "main", to: "book"), label: "rename main book")
        #expect(s.current == "book")
        #expect(s.documents.map(\.name) == ["book"])
    }

    @Test func closeAndItsLimits() throws {
        var s = try session(pages: 2)
        #expect(editError { try s.apply(.closeDocument(name: "main"), label: "c") } == .cannotCloseLastDocument("main"))
        try s.apply(.newDocument(name: "second"), label: "new")
        try s.apply(.closeDocument(name: "second"), label: "close second")
        #expect(s.current == "main")
        try s.apply(.newDocument(name: "third"), label: "new")
        try s.apply(.useDocument(name: "main"), label: "use")
        try s.apply(.closeDocument(name: "main"), label: "close main")
        #expect(s.current == "third")
        _ = try s.undo()
        #expect(s.documents.map(\.name) == ["main", "third"])
        #expect(pageNumbers(s, "main") == [1, 2])
        #expect(s.current == "main")
    }

    @Test func useIsNotAnUndoStep() throws {
        var s = try session(pages: 1)
        try s.apply(.newDocument(name: "b"), label: "new b")
        try s.apply(.useDocument(name: "main"), label: "use main")
        #expect(s.current == "main")
        #expect(s.historyEntries.map(\.label) == ["new b"])
        #expect(
            editError { try s.apply(.useDocument(name: "zzz"), label: "use") }
                == .unknownDocument("zzz", known: ["main", "b"]))
    }

    @Test func relink() throws {
        var s = try session(pages: 3)
        try s.apply(.remove(selection("3")), label: "remove 3")
        #expect(
            editError {
                try s.apply(
                    .relink(source: SourceID(number: 1), path: "new.pdf", size: 1, sha256: "x", pageCount: 1),
                    label: "relink")
            } == .relinkTooFewPages(source: SourceID(number: 1), needed: 2, pageCount: 1))
        try s.apply(
            .relink(source: SourceID(number: 1), path: "new.pdf", size: 7, sha256: "x", pageCount: 2), label: "relink")
        #expect(s.sources[0].path == "new.pdf")
        #expect(s.sources[0].sha256 == "x")
        _ = try s.undo()
        #expect(s.sources[0].path == "a.pdf")
    }
}
