import Foundation
import Testing

/// `pdfedit info` on real files, checked against qpdf and pdfinfo.
@Suite struct InfoTests {
    struct InfoJSON: Decodable {
        struct Page: Decodable {
            var number: Int
            var width: Double
            var height: Double
            var sizeName: String?
            var rotation: Int
            var label: String?
            var text: String?
        }
        var file: String
        var pageCount: Int
        var pdfVersion: String
        var encrypted: Bool
        var hasForm: Bool
        var hasOutlines: Bool
        var hasPageLabels: Bool
        var tagged: Bool
        var pages: [Page]
    }

    func info(_ arguments: String...) throws -> (Run, InfoJSON?) {
        let result = try pdfedit(args: ["info", "--json"] + arguments)
        let decoded = try? JSONDecoder().decode(InfoJSON.self, from: Data(result.stdout.utf8))
        return (result, decoded)
    }

    @Test(
        "info describes every corpus file or refuses it cleanly",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
        arguments: CorpusEntry.load())
    func corpusFile(_ entry: CorpusEntry) throws {
        let (result, decoded) = try info(entry.path, "--no-text")
        // A /Pages loop (pdfjs-Pages-tree-refs.pdf) is refused: qpdf cannot list its pages.
        guard let pages = entry.pages, !entry.features.contains("page-tree-loop") else {
            #expect(result.status == 65, "\(entry.file): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.hasPrefix("pdfedit: "))
            #expect(result.stderr.contains(entry.file))
            #expect(result.stdout.isEmpty)
            if entry.features.contains("page-tree-loop") { #expect(result.stderr.lowercased().contains("loop")) }
            return
        }
        if let password = entry.userPassword {
            #expect(result.status == 77)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains(entry.file) && result.stderr.contains("password"))
            let (unlocked, unlockedJSON) = try info(entry.path, "--no-text", "--password", password)
            #expect(unlocked.status == 0, "\(unlocked.stderr)")
            #expect(unlockedJSON?.pageCount == pages)
            #expect(unlockedJSON?.encrypted == true)
            return
        }
        #expect(result.status == 0, "\(entry.file): \(result.stderr)")
        // Anything on stderr is one warning line of ours, never qpdf's own chatter.
        #expect(result.stderrLines.allSatisfy { $0.hasPrefix("pdfedit: warning: ") })
        #expect(result.stderrLines.count <= 1)
        let json = try #require(decoded)
        #expect(json.pageCount == pages)
        #expect(json.pages.count == pages)
        #expect(try qpdfPageCount(entry.path) == pages)
        #expect(json.hasOutlines == entry.features.contains("outlines"))
        #expect(json.hasPageLabels == entry.features.contains("page-labels"))
        #expect(json.tagged == entry.features.contains("tagged"))
        if entry.features.contains("acroform") { #expect(json.hasForm) }
        // The first page's size and rotation as pdfinfo sees them.
        let pdfinfo = try run("pdfinfo", ["-f", "1", "-l", "1", entry.path]).stdout
        if let line = pdfinfo.split(separator: "\n").first(where: { $0.hasPrefix("Page    1 size:") }) {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            let first = json.pages[0]
            if numbers.count >= 3, !entry.features.contains("huge-page") {
                // pdfinfo prints the crop box: compare to within rounding.
                #expect(abs(numbers[1] - first.width) < 1 && abs(numbers[2] - first.height) < 1, "\(line)")
            }
        }
        if let line = pdfinfo.split(separator: "\n").first(where: { $0.hasPrefix("Page    1 rot:") }),
            let rotation = line.split(separator: " ").last.flatMap({ Int($0) })
        {
            #expect(json.pages[0].rotation == rotation)
        }
    }

    @Test("a relative path works (poppler wants a URI) and text, labels and features are reported")
    func relativePathTextAndLabels() throws {
        let result = try pdfedit("info", "--json", "Fixtures/features.pdf", in: Paths.root)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONDecoder().decode(InfoJSON.self, from: Data(result.stdout.utf8))
        #expect(json.pages.map { $0.label ?? "" } == ["i", "ii", "1", "2", "3", "4"])
        #expect(json.pages[3].text?.contains("FEAT-P4") == true)
        #expect(json.hasForm && json.hasOutlines && json.hasPageLabels && !json.tagged)
        let table = try pdfedit("info", "Fixtures/rotated.pdf", in: Paths.root)
        let rows = table.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(rows.count == 4)
        #expect(rows[1].contains("420 x 595") && rows[1].contains("A5") && rows[1].contains(" 90 "))
    }

    @Test func missingFileExits66() throws {
        let result = try pdfedit("info", "/nonexistent/dir/none.pdf")
        #expect(result.status == 66)
        #expect(result.stderr == "pdfedit: /nonexistent/dir/none.pdf: no such file\n")
    }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func inheritedRotationIsResolved() throws {
        // qpdf-to-rotate.pdf carries /Rotate 90 on an intermediate /Pages node.
        let (result, json) = try info(Paths.corpus("qpdf-to-rotate.pdf"), "--no-text")
        #expect(result.status == 0)
        let rotations = try #require(json).pages.map(\.rotation)
        // pdfinfo gives each page's effective rotation.
        let pdfinfo = try run("pdfinfo", ["-f", "1", "-l", "20", Paths.corpus("qpdf-to-rotate.pdf")]).stdout
        let fromPdfinfo = pdfinfo.split(separator: "\n").filter { $0.contains(" rot:") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(rotations == fromPdfinfo)
        #expect(Set(rotations).isSuperset(of: [90, 180, 270]))
    }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func textAndLabelsOfARealFile() throws {
        let file = Paths.corpus("pdfjs-labelled_pages.pdf")
        let (result, decoded) = try info(file)
        #expect(result.status == 0)
        let json = try #require(decoded)
        #expect(json.hasPageLabels)
        // poppler's command-line tools are independent of our poppler-glib use only in
        // part; pdftotext's text of page 1 must start with our first words.
        let text = try pageText(file, 1).split(whereSeparator: \.isWhitespace).prefix(3).joined(separator: " ")
        #expect(json.pages[0].text?.hasPrefix(text) == true)
        // qpdf --json --json-key=pagelabels: r from 0, D from 4, a from 7, D start 4 from 9.
        #expect(json.pages.map { $0.label ?? "" } == ["i", "ii", "iii", "iv", "1", "2", "3", "a", "b", "4", "5"])
    }
}
