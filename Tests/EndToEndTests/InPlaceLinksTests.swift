import Foundation
import Testing

/// A removal from a file with links, bookmarks, named destinations and an open
/// action is written by rearranging the file in place (ExportStrategy's list,
/// `SourceContents`), not by copying its pages. It must mean what the copy
/// means (`PDFEDIT_NO_IN_PLACE` forces copying): the same pages, links (those
/// into the removed range gone, named ones made explicit), bookmarks, no named
/// destinations, the same open action; and nothing of a removed page may stay
/// readable in the file: its content, its annotations, a bookmark or a name
/// that led to it.
@Suite struct InPlaceLinksTests {
    /// Six pages "PAGE-n"; page 4 also shows SECRET-CONTENT-4 and holds a link
    /// SECRET-LINK-4. Page 1 links to page 2 and page 4 (explicit), to names
    /// of pages 4 and 5 (a /GoTo action and a /Dest), and to an address.
    /// Bookmarks go to pages 1, 4 (Removed-Chapter) and 5 (by name); the open
    /// action to page 4.
    static let file = linked()

    /// That file, page 2 given `pageTwo`'s entries besides, and `replacing`'s
    /// objects (by number) instead of its own or besides them, `trailer`'s
    /// entries in its trailer.
    static func linked(pageTwo: String = "", replacing: [Int: String] = [:], trailer: String = "") -> Data {
        func page(_ n: Int) -> Int { 2 + n }       // objects 3...8
        func content(_ n: Int) -> Int { 8 + n }    // objects 9...14
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R /Outlines 20 0 R /Names << /Dests 30 0 R >> "
                + "/OpenAction [\(page(4)) 0 R /Fit] /PageMode /UseOutlines >>",
            2: "<< /Type /Pages /Kids [\((1...6).map { "\(page($0)) 0 R" }.joined(separator: " "))] /Count 6 "
                + "/MediaBox [0 0 300 200] /Resources << /Font << /F1 40 0 R >> >> >>",
            40: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            20: "<< /Type /Outlines /First 21 0 R /Last 23 0 R /Count 3 >>",
            21: "<< /Title (Chapter-One) /Parent 20 0 R /Next 22 0 R /Dest [\(page(1)) 0 R /Fit] >>",
            22: "<< /Title (Removed-Chapter) /Parent 20 0 R /Prev 21 0 R /Next 23 0 R /Dest [\(page(4)) 0 R /Fit] >>",
            23: "<< /Title (Chapter-Five) /Parent 20 0 R /Prev 22 0 R /A << /S /GoTo /D (five) >> >>",
            30: "<< /Names [(five) [\(page(5)) 0 R /XYZ 0 200 0] (four) [\(page(4)) 0 R /Fit]] >>",
            50: "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest [\(page(2)) 0 R /Fit] >>",
            51: "<< /Type /Annot /Subtype /Link /Rect [10 0 20 10] /Dest [\(page(4)) 0 R /Fit] >>",
            52: "<< /Type /Annot /Subtype /Link /Rect [20 0 30 10] /A << /S /GoTo /D (four) >> >>",
            53: "<< /Type /Annot /Subtype /Link /Rect [30 0 40 10] /Dest (five) >>",
            54: "<< /Type /Annot /Subtype /Link /Rect [40 0 50 10] /A << /S /URI /URI (https://example.org/) >> >>",
            55: "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Contents (SECRET-LINK-4) /Dest [\(page(1)) 0 R /Fit] >>",
        ]
        for n in 1...6 {
            let annots = n == 1 ? " /Annots [50 0 R 51 0 R 52 0 R 53 0 R 54 0 R]" : n == 4 ? " /Annots [55 0 R]" : ""
            let extra = n == 2 && !pageTwo.isEmpty ? " " + pageTwo : ""
            objects[page(n)] = "<< /Type /Page /Parent 2 0 R /Contents \(content(n)) 0 R\(annots)\(extra) >>"
            let secret = n == 4 ? " (SECRET-CONTENT-4) Tj" : ""
            objects[content(n)] = TestPDF.stream("", "BT /F1 12 Tf 20 100 Td (PAGE-\(n)) Tj\(secret) ET")
        }
        objects.merge(replacing) { $1 }
        return TestPDF.bytes(numbered: objects, trailer: trailer)
    }

    /// What an output means, read by pikepdf: per page its text token and its
    /// links' targets (0-based page, or the address), the bookmarks (title,
    /// page), the named destinations and the open action's page.
    static let meaning = """
        import json, sys, pikepdf
        pdf = pikepdf.open(sys.argv[1])
        index = {p.obj.objgen: i for i, p in enumerate(pdf.pages)}
        def target(d):
            if isinstance(d, pikepdf.Array) and len(d) and isinstance(d[0], pikepdf.Dictionary):
                return index.get(d[0].objgen, 'not a page')
            return 'not explicit: ' + repr(d)
        pages = []
        for p in pdf.pages:
            links = []
            for a in p.obj.get('/Annots', []):
                if '/Dest' in a: links.append(target(a.Dest))
                elif a.A.S == '/GoTo': links.append(target(a.A.D))
                else: links.append(str(a.A.URI))
                assert a.P.objgen == p.obj.objgen, 'an annotation whose /P is not its page'
            pages.append(links)
        outline = []
        with pdf.open_outline() as o:
            for item in o.root:
                outline.append([str(item.title), target(item.destination)])
        names = sorted(str(k) for k in pikepdf.NameTree(pdf.Root.Names.Dests).keys()) if '/Names' in pdf.Root else []
        opening = target(pdf.Root.OpenAction) if '/OpenAction' in pdf.Root else None
        print(json.dumps({'links': pages, 'outline': outline, 'names': names, 'open': opening,
                          'mode': str(pdf.Root.get('/PageMode'))}))
        """

    /// How many page objects a file decoded by `RedactPDF.decodedFile` holds.
    static func pageObjects(_ decoded: String) -> Int {
        decoded.components(separatedBy: "/Type /Page\n").count - 1
    }

    @Test("a removal from a file with links, bookmarks and names is rearranged in place, meaning what the copy means")
    func removalKeepsWhatCopyingKeeps() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("linked.pdf")
        try Self.file.write(to: source)
        let fast = dir.appendingPathComponent("fast.pdf").path
        let slow = dir.appendingPathComponent("slow.pdf").path
        let a = try pdfeditOK(
            "remove", "3..4", source.path, "-o", fast, in: dir, environment: ["PDFEDIT_TIMING": "1"])
        let b = try pdfeditOK(
            "remove", "3..4", source.path, "-o", slow, in: dir,
            environment: ["PDFEDIT_NO_IN_PLACE": "1", "PDFEDIT_TIMING": "1"])
        let (fastErrors, tookInPlace) = InPlaceExportTests.withoutTiming(a.stderr)
        let (slowErrors, slowInPlace) = InPlaceExportTests.withoutTiming(b.stderr)
        #expect(tookInPlace && !slowInPlace, "in place: \(tookInPlace), copied: \(!slowInPlace)")
        #expect(fastErrors == slowErrors)
        for output in [fast, slow] {
            #expect(try qpdfCheck(output).status == 0, "\(output)")
        }
        #expect(try qpdfPageCount(fast) == 4)
        for page in 1...4 {
            #expect(try pageText(fast, page) == pageText(slow, page), "page \(page)")
        }
        #expect(try pageText(fast, 3).contains("PAGE-5"))

        let meaning = try python(Self.meaning, [fast])
        #expect(meaning.status == 0, "\(meaning.stderr)")
        #expect(meaning.stdout == (try python(Self.meaning, [slow])).stdout)
        // Page 1 keeps its links to page 2 and (by name, now explicit) page 5 and
        // its address; those into the removed pages are gone. The bookmark of the
        // removed page is gone; the one by name points at page 5 (index 2). The
        // open action went to a removed page: gone, as the named destinations.
        let read = try JSONSerialization.jsonObject(with: Data(meaning.stdout.utf8)) as? [String: Any]
        #expect(read?["links"] as? [[AnyHashable]] == [[1, 2, "https://example.org/"], [], [], []])
        #expect(read?["outline"] as? [[AnyHashable]] == [["Chapter-One", 0], ["Chapter-Five", 2]])
        #expect(read?["names"] as? [String] == [])
        #expect(read?["open"] is NSNull)
        #expect(read?["mode"] as? String == "/UseOutlines")

        // Nothing of the removed pages is left in the file, decompressed.
        let bytes = try RedactPDF.decodedFile(fast)
        for leftover in ["SECRET-CONTENT-4", "SECRET-LINK-4", "PAGE-3", "PAGE-4", "Removed-Chapter", "(four)", "(five)"] {
            #expect(!bytes.contains(leftover), "\(leftover) is still in the file")
        }
        #expect(Self.pageObjects(bytes) == 4, "four page objects")
    }

    /// A session's export judges the file as direct mode does: the source,
    /// which the session did not open, is opened for the decision and read
    /// for what it holds (the bridge judges nothing), so the same removal is
    /// rearranged in place and writes the same bytes.
    @Test func aSessionExportIsJudgedAsDirectMode() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.file.write(to: dir.appendingPathComponent("linked.pdf"))
        let direct = try pdfeditOK("remove", "3..4", "linked.pdf", "-o", "direct.pdf", in: dir, environment: ["PDFEDIT_TIMING": "1"])
        try pdfeditOK("open", "linked.pdf", in: dir)
        try pdfeditOK("remove", "3..4", in: dir)
        let session = try pdfeditOK("export", "session.pdf", in: dir, environment: ["PDFEDIT_TIMING": "1"])
        let copied = try pdfeditOK(
            "export", "copied.pdf", in: dir, environment: ["PDFEDIT_TIMING": "1", "PDFEDIT_NO_IN_PLACE": "1"])
        #expect(InPlaceExportTests.withoutTiming(direct.stderr).inPlace)
        #expect(InPlaceExportTests.withoutTiming(session.stderr).inPlace, "\(session.stderr)")
        #expect(!InPlaceExportTests.withoutTiming(copied.stderr).inPlace)
        let written = try Data(contentsOf: dir.appendingPathComponent("session.pdf"))
        #expect(written == (try Data(contentsOf: dir.appendingPathComponent("direct.pdf"))))
        let meaning = try python(Self.meaning, [dir.appendingPathComponent("session.pdf").path])
        #expect(meaning.status == 0, "\(meaning.stderr)")
        #expect(meaning.stdout == (try python(Self.meaning, [dir.appendingPathComponent("copied.pdf").path])).stdout)
    }

    /// A kept page with an entry that may name another page (/PieceInfo here,
    /// naming the removed page 4) is on no list: the file is copied, and the
    /// copy leaves the removed page out (qpdf's copier nulls the reference).
    @Test func aPageNamingAnotherPageIsCopied() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("named.pdf")
        try Self.linked(pageTwo: "/PieceInfo << /X << /Private 6 0 R >> >>").write(to: source)
        let fast = dir.appendingPathComponent("fast.pdf").path
        let a = try pdfeditOK("remove", "3..4", source.path, "-o", fast, in: dir, environment: ["PDFEDIT_TIMING": "1"])
        #expect(!InPlaceExportTests.withoutTiming(a.stderr).inPlace, "copied")
        #expect(try qpdfCheck(fast).status == 0)
        let bytes = try RedactPDF.decodedFile(fast)
        #expect(!bytes.contains("SECRET-CONTENT-4"))
        #expect(Self.pageObjects(bytes) == 4, "four page objects")
    }

    /// Hostile references from what an output keeps to the removed page 4
    /// (object 6): in a kept link's action, border style or appearance, in a
    /// kept page's own key or transparency group, in the catalog's viewer
    /// preferences, the metadata stream's dictionary, the document
    /// information. Whichever way the removal is written (in place, where the
    /// file's own objects are written as they are, or copied), the reference
    /// is cut, as qpdf's copier cuts a reference to a page it does not copy:
    /// page 4, its content and the old page tree are not in the file.
    @Test(arguments: [
        ("a link's action", "", [50: "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest [4 0 R /Fit] /A << /S /GoTo /D [6 0 R /Fit] >> >>"], ""),
        ("a link's border style", "", [50: "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest [4 0 R /Fit] /BS << /W 1 /X 6 0 R >> >>"], ""),
        ("a link's appearance", "", [
            50: "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest [4 0 R /Fit] /AP << /N 60 0 R >> >>",
            60: TestPDF.stream("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Ref 6 0 R", ""),
        ], ""),
        ("a page's own key", "/Foo 6 0 R", [:], ""),
        ("a transparency group", "/Group << /S /Transparency /X 6 0 R >>", [:], ""),
        ("an /Annots that is a page", "", [3: "<< /Type /Page /Parent 2 0 R /Contents 9 0 R /Annots 6 0 R >>"], ""),
        ("viewer preferences", "", [1: "<< /Type /Catalog /Pages 2 0 R /ViewerPreferences << /X 6 0 R >> /MarkInfo << /Marked true /X 6 0 R >> >>"], ""),
        ("the metadata's dictionary", "", [
            1: "<< /Type /Catalog /Pages 2 0 R /Metadata 61 0 R >>",
            61: TestPDF.stream("/Type /Metadata /Subtype /XML /X 6 0 R", "<x/>"),
        ], ""),
        ("the document information", "", [62: "<< /Title (Linked) /X 6 0 R >>"], "/Info 62 0 R"),
    ])
    func nothingReachesARemovedPage(_ way: String, _ pageTwo: String, _ replacing: [Int: String], _ trailer: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("hostile.pdf")
        try Self.linked(pageTwo: pageTwo, replacing: replacing, trailer: trailer).write(to: source)
        for copying in [false, true] {
            let output = dir.appendingPathComponent("out-\(copying).pdf").path
            try pdfeditOK(
                "remove", "3..4", source.path, "-o", output, in: dir,
                environment: copying ? ["PDFEDIT_NO_IN_PLACE": "1"] : [:])
            #expect(try qpdfCheck(output).status == 0, "\(way), copying: \(copying)")
            let bytes = try RedactPDF.decodedFile(output)
            #expect(!bytes.contains("SECRET-CONTENT-4"), "\(way), copying: \(copying): the removed page's content")
            #expect(!bytes.contains("PAGE-3"), "\(way), copying: \(copying)")
            #expect(Self.pageObjects(bytes) == 4, "\(way), copying: \(copying): four pages")
            #expect(bytes.components(separatedBy: "/Type /Pages\n").count - 1 == 1, "\(way), copying: \(copying): one page tree node")
        }
    }

    /// A page listed in an /Annots array (its own here, as a fuzzed file had
    /// it) is no annotation: a page shown twice got, on its second placement,
    /// a copy of that page as an "annotation" — a page object the output does
    /// not show. Whichever way the output is written, it holds its pages and
    /// no other page object, and keeps the page's real link.
    @Test func aPageListedAsAnAnnotationIsNone() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("self.pdf")
        let pageOne = "<< /Type /Page /Parent 2 0 R /Contents 9 0 R /Annots [3 0 R 50 0 R] >>"
        try Self.linked(replacing: [3: pageOne]).write(to: source)
        for environment in [["PDFEDIT_NO_APPEND": "1"], ["PDFEDIT_NO_APPEND": "1", "PDFEDIT_NO_IN_PLACE": "1"]] {
            let output = dir.appendingPathComponent("out-\(environment.count).pdf").path
            try pdfeditOK("duplicate", "1", source.path, "-o", output, in: dir, environment: environment)
            #expect(try qpdfCheck(output).status == 0)
            let bytes = try RedactPDF.decodedFile(output)
            #expect(Self.pageObjects(bytes) == 7, "\(environment): seven pages, no other")
            #expect(bytes.components(separatedBy: "/Subtype /Link").count - 1 == 3, "\(environment): page 1's link on both placements, page 4's")
        }
    }

    /// A page shown twice gets links of its own on its second placement (new
    /// objects whose /P is that page), as copying gives it.
    @Test func aRepeatedPageGetsItsOwnLinks() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("linked.pdf")
        try Self.file.write(to: source)
        let fast = dir.appendingPathComponent("fast.pdf").path
        let slow = dir.appendingPathComponent("slow.pdf").path
        let a = try pdfeditOK(
            "duplicate", "1", source.path, "-o", fast, in: dir,
            environment: ["PDFEDIT_TIMING": "1", "PDFEDIT_NO_APPEND": "1"])
        try pdfeditOK(
            "duplicate", "1", source.path, "-o", slow, in: dir,
            environment: ["PDFEDIT_NO_IN_PLACE": "1", "PDFEDIT_NO_APPEND": "1"])
        #expect(InPlaceExportTests.withoutTiming(a.stderr).inPlace)
        let meaning = try python(Self.meaning, [fast])
        #expect(meaning.status == 0, "\(meaning.stderr)")
        #expect(meaning.stdout == (try python(Self.meaning, [slow])).stdout)
        let read = try JSONSerialization.jsonObject(with: Data(meaning.stdout.utf8)) as? [String: Any]
        let links = read?["links"] as? [[AnyHashable]]
        #expect(links?.first == links?[1], "both placements of page 1 have its five links")
        #expect(links?.first?.count == 5)
        #expect(try qpdfCheck(fast).status == 0)
    }

    /// Every corpus file, a third of its pages removed from the middle both
    /// ways: where the removal was rearranged in place, it means what the copy
    /// means and keeps nothing of the removed pages (scripts/same-removal.py).
    /// Long (a minute): PDFEDIT_LONG_TESTS=1.
    @Test(.enabled(
        if: Paths.corpusAvailable && ProcessInfo.processInfo.environment["PDFEDIT_LONG_TESTS"] == "1",
        "the corpus sweep runs with PDFEDIT_LONG_TESTS=1 and ../shared/corpus"))
    func corpusRemovalsMeanWhatCopiesMean() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = Paths.root.appendingPathComponent("scripts/same-removal.py").path
        var rearranged: [String] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.corpus.path).filter { $0.hasSuffix(".pdf") }
        for name in names.sorted() {
            guard let pages = try qpdfPageCount(Paths.corpus(name)), pages >= 3 else { continue }
            let file = dir.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
            let range = "\(pages / 3 + 1)..\(pages / 3 + max(1, pages / 3))"
            let fast = dir.appendingPathComponent("fast.pdf").path
            let slow = dir.appendingPathComponent("slow.pdf").path
            let a = try pdfedit(
                "remove", range, file.path, "-o", fast, "--force", in: dir, environment: ["PDFEDIT_TIMING": "1"])
            let b = try pdfedit(
                "remove", range, file.path, "-o", slow, "--force", in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])
            #expect(a.status == b.status, "\(name)")
            guard a.status == 0, b.status == 0, InPlaceExportTests.withoutTiming(a.stderr).inPlace else { continue }
            rearranged.append(name)
            let same = try run("python3", [script, file.path, fast, slow, range])
            #expect(same.status == 0, "\(name): \(same.stdout) \(same.stderr)")
        }
        #expect(rearranged.contains("tbt-TeXbyTopic.pdf") && rearranged.contains("pdfjs-freeculture.pdf"), "\(rearranged)")
    }
}
