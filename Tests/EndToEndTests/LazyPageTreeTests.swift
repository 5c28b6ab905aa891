import Foundation
import Testing

/// An export of a few pages reads only the part of the page tree above them
/// (PageList in QPDFCore): the page count is the root's /Count, a page is found
/// through the /Count of the nodes above it, and only those nodes and their kids
/// are parsed. Whatever the lazy walk does not accept goes through qpdf's whole
/// page list as before; a /Count found to lie after the count was used is
/// refused, never answered with another page.
@Suite struct LazyPageTreeTests {
    /// A 20-page file in two branches, pages 1–10 under node 3 and 11–20 under
    /// node 4, each page drawing "LAZY-Pn"; the root holds /MediaBox and the font
    /// (inherited). `counts`: the branches' /Count; `rootCount`: the root's;
    /// `damaged`: a page whose dictionary has a stray `]` (qpdf warns when it
    /// parses it); `typeless`: a page without /Type; `loop`: node 4 lists the
    /// root among its kids.
    static func twoBranches(
        counts: (Int, Int) = (10, 10), rootCount: Int? = nil, damaged: Int? = nil, typeless: Int? = nil,
        loop: Bool = false
    ) -> [Int: String] {
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            5: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        var kids: [Int: [Int]] = [3: [], 4: []]
        var next = 10
        for page in 1...20 {
            let node = page <= 10 ? 3 : 4
            let text = "BT /F1 24 Tf 20 100 Td (LAZY-P\(page)) Tj ET"
            objects[next + 1] = "<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream"
            let type = page == typeless ? "" : "/Type /Page "
            let stray = page == damaged ? " /Foo ]" : ""
            objects[next] = "<< \(type)/Parent \(node) 0 R /Contents \(next + 1) 0 R\(stray) >>"
            kids[node, default: []].append(next)
            next += 2
        }
        for (node, count) in [(3, counts.0), (4, counts.1)] {
            let list = (kids[node] ?? []).map { "\($0) 0 R" } + (loop && node == 4 ? ["2 0 R"] : [])
            objects[node] = "<< /Type /Pages /Parent 2 0 R /Kids [\(list.joined(separator: " "))] /Count \(count) >>"
        }
        objects[2] = "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count \(rootCount ?? counts.0 + counts.1) "
            + "/MediaBox [0 0 200 200] /Resources << /Font << /F1 5 0 R >> >> >>"
        return objects
    }

    static func make(_ objects: [Int: String], _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try LimitsTests.writePDF(objects, to: path)
        return path
    }

    /// The text of the one page of `file`, trimmed.
    static func onlyPageText(_ file: String) throws -> String {
        try pageText(file, 1).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The damage of page 15 is never parsed when page 2 is exported (no
    /// warning), and is when page 15 is: the other branch is left unread. Before
    /// the lazy walk, qpdf's page list parsed every page and both warned.
    @Test func pagesOfAnotherBranchAreNotParsed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.make(Self.twoBranches(damaged: 15), "damaged.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let quiet = try pdfedit(args: ["export", out, "2", "--from", input], in: dir)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(try Self.onlyPageText(out) == "LAZY-P2")
        // The inherited /MediaBox and font went with the page.
        #expect(try run("pdfinfo", [out]).stdout.contains("200 x 200 pts"))
        #expect(try qpdfCheck(out).status == 0)

        let out15 = dir.appendingPathComponent("out15.pdf").path
        let warned = try pdfedit(args: ["export", out15, "15", "--from", input], in: dir)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("damaged, recovered"), "\(warned.stderr)")
        #expect(try Self.onlyPageText(out15) == "LAZY-P15")
    }

    /// The pages a lazy walk finds are the pages qpdf lists at those numbers, with
    /// what they inherit: on a generated file of 20 branches and on every corpus
    /// file qpdf can list, the first, a middle and the last page exported alone
    /// read (pdftotext) and measure (pdfinfo's boxes and rotation) as the same
    /// page of the source.
    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent"))
    func theLazyPageIsTheListedPage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.pdf").path
        try Reliability.makeBigPDF(pages: 2000, at: big)
        var inputs = [big]
        for entry in CorpusEntry.load() where entry.pages != nil && entry.userPassword == nil
            && !entry.features.contains("page-tree-loop")
        {
            inputs.append(entry.path)
        }
        #expect(inputs.count > 25)
        for input in inputs {
            guard let count = try qpdfPageCount(input), count > 0 else { continue }
            for page in Set([1, (count + 1) / 2, count]).sorted() {
                let out = dir.appendingPathComponent("page.pdf").path
                try? FileManager.default.removeItem(atPath: out)
                let result = try pdfedit(args: ["export", out, "\(page)", "--from", input, "-q"], in: dir)
                #expect(result.status == 0, "\(input) page \(page): \(result.stderr)")
                guard result.status == 0 else { continue }
                #expect(try pageText(out, 1) == pageText(input, page), "\(input) page \(page)")
                #expect(try boxes(out, 1) == boxes(input, page), "\(input) page \(page)")
            }
        }
    }

    /// pdfinfo's boxes and rotation of one page, without the page number.
    func boxes(_ file: String, _ page: Int) throws -> [String] {
        let info = try run("pdfinfo", ["-box", "-f", "\(page)", "-l", "\(page)", file]).stdout
        return info.split(separator: "\n").filter { $0.hasPrefix("Page ") }.map {
            $0.replacingOccurrences(of: "Page \(String(format: "%4d", page))", with: "Page")
        }
    }

    /// A root /Count larger than its kids hold: a page of the first branch is
    /// exported; one past it, where the walk finds the lie, is refused (65) as an
    /// inconsistent page tree — never another page.
    @Test func aRootCountThatLiesIsRefusedWhereItMatters() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.make(Self.twoBranches(rootCount: 30), "lie.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try pdfeditOK("export", out, "2", "--from", input, in: dir)
        #expect(try Self.onlyPageText(out) == "LAZY-P2")
        for selection in ["15", "last"] {
            let refused = try pdfedit(
                args: ["export", dir.appendingPathComponent("no.pdf").path, selection, "--from", input], in: dir)
            #expect(refused.status == 65, "\(selection): \(refused.stderr)")
            #expect(refused.stderrLines.count == 1 && refused.stderr.hasPrefix("pdfedit: "), "\(refused.stderr)")
            #expect(refused.stderr.contains("page tree is inconsistent"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no.pdf").path))
        }
    }

    /// A branch whose /Count is larger than its kids hold, the root's agreeing
    /// with it (25 = 10 + 15): a page it does hold is exported; the last page by
    /// /Count (25) is refused.
    @Test func aBranchCountThatLiesIsRefusedWhereItMatters() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.make(Self.twoBranches(counts: (10, 15)), "lie.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try pdfeditOK("export", out, "15", "--from", input, in: dir)
        #expect(try Self.onlyPageText(out) == "LAZY-P15")
        let refused = try pdfedit(
            args: ["export", dir.appendingPathComponent("no.pdf").path, "last", "--from", input], in: dir)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("its /Count says 25 pages, its /Kids hold 20"), "\(refused.stderr)")
    }

    /// A loop in the second branch: a page of the first is exported (the loop is
    /// never walked); a page below the loop is refused as qpdf's page list
    /// refuses it ("loop"), and so is every page of the file together.
    @Test func aLoopIsRefusedWhenTheWalkMeetsIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.make(Self.twoBranches(loop: true), "loop.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try pdfeditOK("export", out, "2", "--from", input, in: dir)
        #expect(try Self.onlyPageText(out) == "LAZY-P2")
        for selection in ["15", "all"] {
            let refused = try pdfedit(
                args: ["export", dir.appendingPathComponent("no.pdf").path, selection, "--from", input], in: dir)
            #expect(refused.status == 65, "\(selection): \(refused.stderr)")
            #expect(refused.stderr.lowercased().contains("loop"), "\(refused.stderr)")
        }
    }

    /// A page without /Type below the walk: the walk hands the tree to qpdf's page
    /// list, which sets the type and says so, as before the lazy walk.
    @Test func aPageWithoutTypeFallsBackToQPDFsList() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.make(Self.twoBranches(typeless: 15), "typeless.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let result = try pdfeditOK("export", out, "14..16", "--from", input, in: dir)
        #expect(result.stderr.contains("/Type key should be /Page"), "\(result.stderr)")
        #expect(try pageTokens(out) == ["LAZY-P14", "LAZY-P15", "LAZY-P16"])
        #expect(try qpdfCheck(out).status == 0)
    }
}
