import Foundation
import Testing

/// The threads of a split read a tagged source's structure tree once together
/// (StructureShare in the bridge: its subtrees shared out, each thread's
/// elements found again in the others' openings), where each used to read all of
/// it. The parts must be the very files one thread writes (`PDFEDIT_THREADS=1`
/// reads the tree alone), byte for byte, and hold their pages' elements as
/// `qpdf --json=2` shows them.
@Suite struct SplitStructureShareTests {
    /// A tagged file of `pages` pages: a /Document whose 2,400 paragraphs
    /// (enough for the threads to share out, and for a second thread to join in
    /// while the first still reads) hold one MCID each, paragraph k on page
    /// k % pages with the text Pk; every third paragraph's content is in a
    /// direct /Span element of its /K. `twice`: paragraph 5 also lists paragraph
    /// 40 as a kid (an element reached twice: each thread reads the whole tree).
    static let paragraphs = 2400

    static func tagged(pages: Int, twice: Bool) -> Data {
        let paragraphs = Self.paragraphs
        let firstPage = 3, firstContent = firstPage + pages, root = firstContent + pages
        let document = root + 1, firstParagraph = document + 1
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R /StructTreeRoot \(root) 0 R /MarkInfo << /Marked true >> >>",
            2: "<< /Type /Pages /Kids [\((0..<pages).map { "\(firstPage + $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>",
            root: "<< /Type /StructTreeRoot /K [\(document) 0 R] >>",
        ]
        var onPage = [[Int]](repeating: [], count: pages)
        for k in 0..<paragraphs { onPage[k % pages].append(k) }
        for page in 0..<pages {
            var content = ""
            for (mcid, k) in onPage[page].enumerated() {
                let (x, y) = (20 + 40 * (mcid / 75), 770 - 10 * (mcid % 75))
                content += "/P << /MCID \(mcid) >> BDC BT /F1 6 Tf \(x) \(y) Td (P\(k)) Tj ET EMC\n"
            }
            objects[firstPage + page] =
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents \(firstContent + page) 0 R "
                + "/StructParents \(page) /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>"
            objects[firstContent + page] = TestPDF.stream("", content)
        }
        objects[document] =
            "<< /Type /StructElem /S /Document /P \(root) 0 R /K [\((0..<paragraphs).map { "\(firstParagraph + $0) 0 R" }.joined(separator: " "))] >>"
        for k in 0..<paragraphs {
            let page = k % pages
            let mcid = onPage[page].firstIndex(of: k)!
            let pg = "/Pg \(firstPage + page) 0 R"
            var kids = k % 3 == 0 ? "[<< /Type /StructElem /S /Span \(pg) /K \(mcid) >>]" : "[\(mcid)]"
            if twice && k == 5 { kids = "[\(mcid) \(firstParagraph + 40) 0 R]" }
            objects[firstParagraph + k] = "<< /Type /StructElem /S /P /T (P\(k)) \(pg) /P \(document) 0 R /K \(kids) >>"
        }
        return TestPDF.bytes(numbered: objects)
    }

    /// The /T of the structure elements of `file`, sorted.
    static func elementTitles(_ file: String) throws -> [String] {
        let shown = try SplitFidelityTests.Shown(file)
        var titles: [String] = []
        for case let entry as [String: Any] in shown.objects.values {
            guard let value = entry["value"] as? [String: Any], value["/S"] as? String == "/P" else { continue }
            // qpdf --json=2 writes a text string as "u:TEXT".
            if let title = value["/T"] as? String { titles.append(String(title.dropFirst(title.hasPrefix("u:") ? 2 : 0))) }
        }
        return titles.sorted()
    }

    /// Splits `source` per page in `dir` with `threads` threads into `folder`;
    /// the parts' paths, sorted.
    static func split(_ source: String, _ folder: String, threads: Int, in dir: URL) throws -> [String] {
        try pdfeditOK(args: ["export", "--split", folder, "--from", source, "-q"], in: dir,
                      environment: ["PDFEDIT_THREADS": "\(threads)"])
        let path = dir.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: path.path).sorted().map {
            path.appendingPathComponent($0).path
        }
    }

    @Test("a tagged file's parts split on several threads are the parts one thread writes",
          arguments: [false, true])
    func taggedPartsAsOneThreadWritesThem(twice: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = 16
        try Self.tagged(pages: pages, twice: twice).write(to: dir.appendingPathComponent("tagged.pdf"))
        let alone = try Self.split("tagged.pdf", "alone", threads: 1, in: dir)
        #expect(alone.count == pages)
        // Several times and on up to four threads: which thread reads which
        // subtree, and which parts each writes, changes from run to run.
        for (round, threads) in [2, 4, 2, 4].enumerated() {
            let shared = try Self.split("tagged.pdf", "shared-\(round)", threads: threads, in: dir)
            #expect(shared.map { URL(fileURLWithPath: $0).lastPathComponent }
                == alone.map { URL(fileURLWithPath: $0).lastPathComponent })
            for (a, b) in zip(alone, shared) {
                #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)),
                        "\(b) differs from the part one thread writes (\(threads) threads)")
            }
        }
        // What the parts hold, seen by qpdf: page p's paragraphs, each once,
        // and its text (paragraph 40 listed again under paragraph 5 is met
        // there second and left out, as a lone reader always did).
        for (page, part) in alone.enumerated() {
            #expect(try qpdfCheck(part).status == 0)
            let wanted = stride(from: page, to: Self.paragraphs, by: pages).map { "P\($0)" }
            #expect(try Self.elementTitles(part) == wanted.sorted(), "part \(page + 1)")
            #expect(try pageText(part, 1).contains("P\(page)"))
        }
    }

    /// The tagged linearized book of the corpus (206 pages, some 80,000
    /// elements, object streams): its 206 parts split on two threads are the
    /// files one thread writes, and hold their page's text and structure.
    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func taggedBookPartsAsOneThreadWritesThem() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = Paths.corpus("pdflib-linearized_with_object_streams.pdf")
        let alone = try Self.split(book, "alone", threads: 1, in: dir)
        let shared = try Self.split(book, "shared", threads: 2, in: dir)
        #expect(alone.count == 206)
        #expect(shared.count == alone.count)
        var differing: [String] = []
        for (a, b) in zip(alone, shared) where try Data(contentsOf: URL(fileURLWithPath: a)) != Data(contentsOf: URL(fileURLWithPath: b)) {
            differing.append(URL(fileURLWithPath: b).lastPathComponent)
        }
        #expect(differing.isEmpty, "parts that differ from one thread's: \(differing.prefix(10))")
        // Page 1, the cover, has no structure content (its part has no tree).
        for page in [2, 60, 150, 206] {
            let part = shared[page - 1]
            #expect(try qpdfCheck(part).status == 0)
            #expect(try pageText(part, 1) == pageText(book, page), "page \(page)")
            let shown = try SplitFidelityTests.Shown(part)
            #expect(shown.dictionary(shown.root["/StructTreeRoot"]) != nil, "page \(page)")
        }
    }
}
