import Foundation
import PageModel
import Testing

/// A book of `pages` pages whose bookmarks are chapters (a page each) with sections.
func bookOutline() -> [SourceOutlineEntry] {
    [
        SourceOutlineEntry(title: "Preface", page: 1),
        SourceOutlineEntry(
            title: "Chapter 1", page: 2, isOpen: true, view: ["/XYZ", "72", "700", "null"],
            children: [
                SourceOutlineEntry(title: "1.1", page: 3), SourceOutlineEntry(title: "1.2", page: 4, color: [1, 0, 0]),
            ]),
        SourceOutlineEntry(
            title: "Chapter 2", page: 5, style: 2, children: [SourceOutlineEntry(title: "2.1", page: 6)]),
        SourceOutlineEntry(title: "Index", page: 8),
    ]
}

func outlineSession(pages: Int = 8, outline: [SourceOutlineEntry] = bookOutline()) throws -> Session {
    try Session.opening([OpenedFile(documentName: "main", source: pdfSource("book.pdf", pages: pages), outline: outline)])
}

/// "title→target" lines, depth first, indented two spaces a level.
func outlineLines(_ session: Session, _ document: String = "main") -> [String] {
    func lines(_ entries: [OutlineEntry], _ depth: Int) -> [String] {
        entries.flatMap { entry in
            [String(repeating: "  ", count: depth) + entry.title + "→" + (entry.target?.description ?? "-")]
                + lines(entry.children, depth + 1)
        }
    }
    return lines(session.document(named: document)?.outline ?? [], 0)
}

@Suite struct OutlineModelTests {
    @Test func openingAttachesTheSourceOutlineToItsItems() throws {
        let s = try outlineSession()
        #expect(
            outlineLines(s) == [
                "Preface→p1", "Chapter 1→p2", "  1.1→p3", "  1.2→p4", "Chapter 2→p5", "  2.1→p6", "Index→p8",
            ])
        let chapter = try #require(s.currentDocument?.outline?[1])
        #expect(chapter.isOpen)
        #expect(chapter.view == ["/XYZ", "72", "700", "null"])
        #expect(chapter.children[1].color == [1, 0, 0])
        #expect(s.currentDocument?.outline?[2].style == 2)
    }

    @Test func moveCarriesTheEntriesWithTheirPages() throws {
        var s = try outlineSession()
        let before = s.currentDocument?.outline
        try s.apply(.move(selection("5..6"), to: .position(.number(1))), label: "move")
        #expect(ids(s) == ["p5", "p6", "p1", "p2", "p3", "p4", "p7", "p8"])
        #expect(s.currentDocument?.outline == before)
        #expect(s.historyEntries.count == 1)
    }

    @Test func removeMakesHeadingsOfEntriesWithChildrenAndDropsLeaves() throws {
        var s = try outlineSession()
        try s.apply(.remove(selection("2,8")), label: "remove")
        #expect(
            outlineLines(s) == ["Preface→p1", "Chapter 1→-", "  1.1→p3", "  1.2→p4", "Chapter 2→p5", "  2.1→p6"])
        // The heading goes when its last child goes.
        try s.apply(.remove(selection("2..3")), label: "remove")
        #expect(outlineLines(s) == ["Preface→p1", "Chapter 2→p5", "  2.1→p6"])
        _ = try s.undo(2)
        #expect(s.currentDocument?.outline == (try outlineSession()).currentDocument?.outline)
    }

    @Test func duplicateAndCopyKeepTheEntriesOnTheOriginal() throws {
        var s = try outlineSession()
        try s.apply(.duplicate(selection("2")), label: "duplicate")
        try s.apply(.copy(selection("1"), to: .position(.last)), label: "copy")
        #expect(outlineLines(s).prefix(2) == ["Preface→p1", "Chapter 1→p2"])
        // Removing the original leaves the copy without an entry.
        try s.apply(.remove(selection("1")), label: "remove")
        #expect(outlineLines(s).first == "Chapter 1→p2")
    }

    @Test func itemsMovedToAnotherDocumentTakeNoEntries() throws {
        var s = try outlineSession()
        try s.apply(.newDocument(name: "other"), label: "new")
        try s.apply(.move(selection("8"), to: .position(.number(1)), into: "other"), doc: "main", label: "move")
        #expect(!outlineLines(s).contains("Index→p8"))
        #expect(s.document(named: "other")?.outline == [])
        _ = try s.undo()
        #expect(outlineLines(s).last == "Index→p8")
    }

    @Test func fillPointsThePlaceholdersEntryAtItsFirstPage() throws {
        var s = try outlineSession()
        try s.apply(.placeholder(at: .position(.number(1)), count: 1, size: .fixed(.a4), label: nil), label: "ph")
        try s.apply(.outline(.add(title: "Cover", at: .number(1), parent: nil)), label: "outline add")
        try s.apply(
            .fill(.number(1), contents: [.page(source: SourceID(number: 1), page: 1)], newSources: []), label: "fill")
        #expect(outlineLines(s).last == "Cover→p10")
    }

    @Test func addRemoveRenameClearAndImportAreOneStepEach() throws {
        var s = try outlineSession()
        let original = s.currentDocument?.outline
        try s.apply(.outline(.add(title: "1.3", at: .number(7), parent: "Chapter 1")), label: "a")
        try s.apply(.outline(.rename(path: "Chapter 1/1.3", title: "A/B")), label: "r")
        #expect(outlineLines(s)[4] == "  A/B→p7")
        try s.apply(.outline(.remove(path: "Chapter 1/A\\/B")), label: "rm")
        try s.apply(.outline(.remove(path: "Chapter 2")), label: "rm")
        #expect(outlineLines(s) == ["Preface→p1", "Chapter 1→p2", "  1.1→p3", "  1.2→p4", "Index→p8"])
        try s.apply(.outline(.clear), label: "clear")
        #expect(s.currentDocument?.outline == [])
        try s.apply(
            .outline(
                .replace([
                    OutlineDraft(title: "Part", position: nil, children: [OutlineDraft(title: "x", position: .last)])
                ])), label: "import")
        #expect(outlineLines(s) == ["Part→-", "  x→p8"])
        #expect(s.historyEntries.count == 6)
        _ = try s.undo(6)
        #expect(s.currentDocument?.outline == original)
        _ = try s.redo(6)
        #expect(outlineLines(s) == ["Part→-", "  x→p8"])
    }

    @Test func pathErrorsNameTheEntry() throws {
        var s = try outlineSession()
        try s.apply(.outline(.add(title: "Preface", at: .number(2), parent: nil)), label: "a")
        #expect(
            editError { try s.apply(.outline(.remove(path: "Preface")), label: "x") }
                == .invalidOutline("2 outline entries are named \"Preface\""))
        #expect(
            editError { try s.apply(.outline(.rename(path: "Chapter 1/9.9", title: "y")), label: "x") }
                == .invalidOutline("no outline entry \"Chapter 1/9.9\""))
        #expect(
            editError { try s.apply(.outline(.add(title: "", at: .number(1), parent: nil)), label: "x") }
                == .invalidOutline("a bookmark title cannot be empty"))
        #expect(editError { try s.apply(.outline(.add(title: "z", at: .number(9), parent: nil)), label: "x") } != nil)
        var deep = OutlineDraft(title: "leaf", position: .number(1))
        for level in 0..<64 { deep = OutlineDraft(title: "l\(level)", position: nil, children: [deep]) }
        #expect(
            editError { try s.apply(.outline(.replace([deep])), label: "x") }
                == .invalidOutline("the outline would have 65 levels, over the limit of 64"))
        #expect(OutlinePath.components("a\\/b/c") == ["a/b", "c"])
        #expect(OutlinePath.components("a//c") == nil)
        #expect(OutlinePath.joined(["a/b", "c\\d"]) == "a\\/b/c\\\\d")
    }

    @Test func severalSourcesSitUnderTheirStems() throws {
        var s = try outlineSession()
        let appendix = pdfSource("dir/appendix.PDF", pages: 2, id: 9)
        try s.apply(
            .insertItems(
                contents: [.page(source: appendix.id, page: 1), .page(source: appendix.id, page: 2)], at: nil,
                newSources: [appendix],
                outlines: [SourceOutline(source: appendix.id, entries: [SourceOutlineEntry(title: "A", page: 2)])]),
            label: "insert")
        #expect(
            outlineLines(s) == [
                "book→p1", "  Preface→p1", "  Chapter 1→p2", "    1.1→p3", "    1.2→p4", "  Chapter 2→p5",
                "    2.1→p6", "  Index→p8", "appendix→p9", "  A→p10",
            ])
        #expect(s.currentDocument?.outline?[1].view == ["/Fit"])
        _ = try s.undo()
        #expect(s.currentDocument?.outline == (try outlineSession()).currentDocument?.outline)
    }

    @Test func aSourceWithoutReachableEntriesAddsNothing() throws {
        var s = try outlineSession()
        let other = pdfSource("other.pdf", pages: 3, id: 9)
        try s.apply(
            .insertItems(
                contents: [.page(source: other.id, page: 1)], at: nil, newSources: [other],
                outlines: [SourceOutline(source: other.id, entries: [SourceOutlineEntry(title: "B", page: 3)])]),
            label: "insert")
        #expect(s.currentDocument?.outline == (try outlineSession()).currentDocument?.outline)
    }

    @Test func aFileInsertedAgainKeepsItsEntriesOnTheFirstPages() throws {
        var s = try outlineSession()
        let again = pdfSource("book.pdf", pages: 8, id: 5)
        try s.apply(
            .insertItems(
                contents: [.page(source: again.id, page: 2)], at: .position(.number(1)), newSources: [again],
                outlines: [SourceOutline(source: again.id, entries: bookOutline())]),
            label: "insert")
        #expect(s.sources.count == 1)
        #expect(s.currentDocument?.outline == (try outlineSession()).currentDocument?.outline)
    }

    @Test func outlinesSurviveTheSessionFileAndAnOlderFileHasNone() throws {
        var s = try outlineSession()
        try s.apply(.remove(selection("2")), label: "remove")
        try s.apply(.newDocument(name: "x"), label: "new")
        try s.apply(.closeDocument(name: "main"), label: "close")
        #expect(try Session.decode(s.encoded()) == s)
        _ = try s.undo(2)
        #expect(try Session.decode(s.encoded()) == s)

        var object = try #require(try JSONSerialization.jsonObject(with: s.encoded()) as? [String: Any])
        object["version"] = 2
        object["history"] = ["undone": 0, "steps": [Any]()]
        var documents = try #require(object["documents"] as? [[String: Any]])
        documents[0]["outline"] = nil
        object["documents"] = documents
        let old = try Session.decode(try JSONSerialization.data(withJSONObject: object))
        #expect(old.currentDocument?.outline == nil)
        // Edits leave it to the sources; an outline command adopts them first.
        var edited = old
        try edited.apply(.move(selection("1"), to: .position(.last)), label: "move")
        #expect(edited.currentDocument?.outline == nil)
        #expect(editError { try edited.apply(.outline(.clear), label: "c") } != nil)
        try edited.apply(
            .outline(
                .add(title: "End", at: .last, parent: nil),
                sources: [SourceOutline(source: SourceID(number: 1), entries: bookOutline())]), label: "add")
        #expect(outlineLines(edited).suffix(2) == ["Index→p8", "End→p1"])
        _ = try edited.undo()
        #expect(edited.currentDocument?.outline == nil)
    }

    @Test func aSessionFileWithATargetOutsideItsDocumentIsRefused() throws {
        let s = try outlineSession()
        var object = try #require(try JSONSerialization.jsonObject(with: s.encoded()) as? [String: Any])
        var documents = try #require(object["documents"] as? [[String: Any]])
        documents[0]["outline"] = [["title": "x", "target": "p99"]]
        object["documents"] = documents
        #expect(throws: SessionFormatError.self) { try Session.decode(try JSONSerialization.data(withJSONObject: object)) }
    }
}

@Suite struct OutlineExportModelTests {
    func flat(_ entries: [ExportedOutlineEntry]?) -> [String] {
        (entries ?? []).map { String(repeating: "  ", count: $0.level) + "\($0.title)→\($0.item.map(String.init) ?? "-")" }
    }

    @Test func keepPrunesToTheExportedItemsAndIndexesThem() throws {
        let s = try outlineSession()
        let document = try #require(s.currentDocument)
        let items = Array(document.items[2...5])  // p3…p6
        #expect(
            flat(s.exportedOutline(of: document, items: items, policy: .keep)) == [
                "Chapter 1→-", "  1.1→0", "  1.2→1", "Chapter 2→2", "  2.1→3",
            ])
        #expect(s.exportedOutline(of: document, items: items, policy: .none) == [])
        // Nothing reaches an exported page: the headings that remain are still
        // written (issue 40, item 31: an outline of headings only is an outline).
        let lonely = try Session.opening([
            OpenedFile(
                documentName: "main", source: pdfSource(pages: 2),
                outline: [SourceOutlineEntry(title: "to 1", page: 1), SourceOutlineEntry(title: "heading", page: nil)])
        ])
        let doc = try #require(lonely.currentDocument)
        #expect(flat(lonely.exportedOutline(of: doc, items: doc.items, policy: .keep)) == ["to 1→0", "heading→-"])
        #expect(flat(lonely.exportedOutline(of: doc, items: [doc.items[1]], policy: .keep)) == ["heading→-"])
        // An entry that only pointed at a page not exported goes.
        let pointing = try Session.opening([
            OpenedFile(
                documentName: "main", source: pdfSource(pages: 2), outline: [SourceOutlineEntry(title: "to 1", page: 1)])
        ])
        let only = try #require(pointing.currentDocument)
        #expect(pointing.exportedOutline(of: only, items: [only.items[1]], policy: .keep) == [])
    }

    @Test func perSourceGivesEverySourceOneEntryEvenWithoutBookmarks() throws {
        var s = try outlineSession(pages: 8)
        let plain = pdfSource("plain.pdf", pages: 2, id: 7)
        try s.apply(
            .insertItems(
                contents: [.page(source: plain.id, page: 1), .page(source: plain.id, page: 2)],
                at: .position(.number(1)), newSources: [plain]), label: "insert")
        let document = try #require(s.currentDocument)
        #expect(
            flat(s.exportedOutline(of: document, items: document.items, policy: .perSource)) == [
                "plain→0", "book→2", "  Preface→2", "  Chapter 1→3", "    1.1→4", "    1.2→5", "  Chapter 2→6",
                "    2.1→7", "  Index→9",
            ])
        // A legacy document (no model outline): keep leaves it to the sources.
        var legacy = document
        legacy.outline = nil
        #expect(s.exportedOutline(of: legacy, items: legacy.items, policy: .keep) == nil)
    }

    /// Issue 40, item 28: after any bookmark edit, per-source nested every source's
    /// entries twice ("A > A > …") and put the new entry under the wrapper.
    @Test func perSourceAfterAnOutlineEditNestsOnce() throws {
        var s = try outlineSession(pages: 8)
        let other = pdfSource("other.pdf", pages: 2, id: 7)
        try s.apply(
            .insertItems(
                contents: [.page(source: other.id, page: 1), .page(source: other.id, page: 2)], at: nil,
                newSources: [other],
                outlines: [SourceOutline(source: other.id, entries: [SourceOutlineEntry(title: "O1", page: 2)])]),
            label: "insert")
        let before = try #require(s.currentDocument)
        let expected = [
            "book→0", "  Preface→0", "  Chapter 1→1", "    1.1→2", "    1.2→3", "  Chapter 2→4", "    2.1→5",
            "  Index→7", "other→8", "  O1→9",
        ]
        #expect(flat(s.exportedOutline(of: before, items: before.items, policy: .perSource)) == expected)
        try s.apply(.outline(.add(title: "X", at: .number(1), parent: nil)), label: "outline add")
        try s.apply(.outline(.add(title: "Y", at: .number(10), parent: nil)), label: "outline add")
        let after = try #require(s.currentDocument)
        #expect(
            flat(s.exportedOutline(of: after, items: after.items, policy: .perSource)) == [
                "book→0", "  Preface→0", "  Chapter 1→1", "    1.1→2", "    1.2→3", "  Chapter 2→4", "    2.1→5",
                "  Index→7", "  X→0", "other→8", "  O1→9", "  Y→9",
            ])
    }
}
