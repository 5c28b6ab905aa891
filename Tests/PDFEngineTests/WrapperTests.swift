import Foundation
import Testing

import PageModel
@testable import PDFEngine

/// The bridge's reader (`OpenedPDF`) and the poppler wrapper on real files, compared with what independent
/// tools (pdfinfo, sha256sum, pdftotext) and the fixtures' documented facts say.
@Suite struct WrapperTests {
    let fixture = ExportPaths.fixture

    @Test func inheritedRotationMediaBoxAndCropBox() throws {
        let rotated = try OpenedPDF(path: fixture("rotated.pdf"), for: .reading)
        #expect(rotated.pageCount == 4)
        let attributes = try (0..<4).map { try rotated.attributes(ofPage: $0) }
        // Pages 2–3 inherit /Rotate 90 and an A5 MediaBox from an intermediate /Pages node.
        #expect(attributes.map(\.rotation) == [0, 90, 90, 270])
        #expect(attributes[1].mediaBox == BoxRect(x0: 0, y0: 0, x1: 420, y1: 595))
        #expect(attributes[1].displayedSize == (width: 595, height: 420))
        #expect(attributes[3].displayedSize == (width: 792, height: 612))

        let sizes = try OpenedPDF(path: fixture("sizes.pdf"), for: .reading)
        let second = try sizes.attributes(ofPage: 1)
        #expect(second.mediaBox == BoxRect(x0: 0, y0: 0, x1: 792, y1: 612))
        #expect(second.cropBox == BoxRect(x0: 36, y0: 36, x1: 756, y1: 576))
        let fourth = try sizes.attributes(ofPage: 3)
        #expect(fourth.mediaBox == BoxRect(x0: 100, y0: 200, x1: 695, y1: 1042))
        #expect(fourth.cropBox == fourth.mediaBox)
    }

    @Test func pdfinfoAgreesOnEveryCorpusRotation() throws {
        guard ExportPaths.corpusAvailable else { return }
        let file = ExportPaths.corpusFile("qpdf-to-rotate.pdf")
        let document = try OpenedPDF(path: file, for: .reading)
        let ours = try (0..<document.pageCount).map { try document.attributes(ofPage: $0).rotation }
        let pdfinfo = try tool("pdfinfo", ["-f", "1", "-l", "\(ours.count)", file])
        let theirs = pdfinfo.split(separator: "\n").filter { $0.contains(" rot:") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(ours == theirs)
    }

    @Test func documentFacts() throws {
        let features = try OpenedPDF(path: fixture("features.pdf"), for: .reading).facts()
        #expect(features.pageCount == 6)
        #expect(features.hasForm && features.hasOutlines && features.hasPageLabels)
        #expect(!features.isTagged && !features.encrypted)
        #expect(features.title == "pdfedit features fixture")
        let tagged = try OpenedPDF(path: fixture("tagged.pdf"), for: .reading).facts()
        #expect(tagged.isTagged && !tagged.hasForm && !tagged.hasOutlines)
        let ownerOnly = try OpenedPDF(path: fixture("owner-only.pdf"), for: .reading).facts()
        #expect(ownerOnly.encrypted && !ownerOnly.allowsAssembly)
    }

    @Test func errorsNameTheFileAndTheirKind() throws {
        #expect(throws: EngineError.password(file: fixture("encrypted.pdf"), given: true)) {
            try OpenedPDF(path: fixture("encrypted.pdf"), password: "wrong", for: .reading)
        }
        #expect(try OpenedPDF(path: fixture("encrypted.pdf"), password: "secret", for: .reading).pageCount == 2)
        do {
            _ = try OpenedPDF(path: fixture("truncated.pdf"), for: .reading)
            Issue.record("a truncated file opened")
        } catch {
            guard case .damaged(let file, _, _) = error else { Issue.record("\(error)"); return }
            #expect(file == fixture("truncated.pdf"))
        }
        #expect(throws: EngineError.emptyFile(file: fixture("empty.pdf"))) { try SourceLoader.sniff(fixture("empty.pdf")) }
        #expect(throws: EngineError.notAPDF(file: fixture("notapdf.pdf"))) { try SourceLoader.sniff(fixture("notapdf.pdf")) }
        #expect(throws: EngineError.notAPDF(file: fixture("fake.png"))) { try SourceLoader.sniff(fixture("fake.png")) }
        #expect(throws: EngineError.missing(file: "/no/such.pdf")) { try SourceLoader.sniff("/no/such.pdf") }
        #expect(try SourceLoader.sniff(fixture("photo.jpg")) == .jpeg)
        #expect(try SourceLoader.sniff(fixture("logo.png")) == .png)
        #expect(throws: EngineError.pageOutOfRange(file: fixture("alpha.pdf"), page: 8, pageCount: 7)) {
            try OpenedPDF(path: fixture("alpha.pdf"), for: .reading).attributes(ofPage: 7)
        }
    }

    @Test func recoveredDamageBecomesWarningsNotOutput() throws {
        guard ExportPaths.corpusAvailable else { return }
        let document = try OpenedPDF(path: ExportPaths.corpusFile("pdfjs-issue7229.pdf"), for: .reading)
        #expect(document.pageCount == 2)
        #expect(!document.warnings.isEmpty)
    }

    @Test func fingerprintMatchesSha256sum() throws {
        let path = fixture("features.pdf")
        let fingerprint = try Fingerprint.of(file: path)
        let sha = try tool("sha256sum", [path]).split(separator: " ").first.map(String.init)
        #expect(fingerprint.sha256 == sha)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(fingerprint.size == Int64(size ?? -1))
    }

    /// A one-page PDF of about 2 MB (its content stream padded with comment
    /// lines), large enough to be fingerprinted on another thread.
    static func largePDF() -> Data {
        let padding = String(repeating: "% padding line of a large content stream\n", count: 50_000)
        let content = "BT /F1 24 Tf 72 700 Td (LARGE-P1) Tj ET\n" + padding
        return pdfFileData(objects: [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            4: "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ])
    }

    /// A large file is fingerprinted on another thread while qpdf opens it: the
    /// same size and SHA-256 as sha256sum's, and a missing file's error is the
    /// one `Fingerprint.of` gives.
    @Test func largeFilesAreFingerprintedAlongsideTheOpen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdfedit-fingerprint-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("large.pdf").path
        let data = Self.largePDF()
        #expect(Int64(data.count) >= Fingerprint.backgroundBytes)
        try data.write(to: URL(fileURLWithPath: path))
        let sha = try tool("sha256sum", [path]).split(separator: " ").first.map(String.init)

        let loaded = try SourceLoader.load(path, password: nil)
        #expect(loaded.pageCount == 1)
        #expect(loaded.fingerprint == Fingerprint(size: Int64(data.count), sha256: sha ?? ""))
        #expect(try Fingerprint.started(file: path).value() == loaded.fingerprint)

        let missing = folder.appendingPathComponent("missing.pdf").path
        #expect(throws: EngineError.missing(file: missing)) { try Fingerprint.started(file: missing).value() }
        #expect(throws: EngineError.missing(file: missing)) { try SourceLoader.load(missing, password: nil) }
    }

    /// Issue 40, item 30: label prefixes are PDF text strings, decoded in one
    /// place (qpdf's getUTF8Value, through `pe_document_read_page_labels`):
    /// PDFDocEncoding, UTF-16BE with its mark, and PDF 2.0's UTF-8 with its mark
    /// (poppler showed the latter as "ï»¿…").
    @Test func labelPrefixesAreDecodedInOnePlace() throws {
        let scratch = try ExportScratch()
        let page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R /PageLabels << /Nums [0 << /S /D /P <EFBBBF5072C3A9> >> "
                + "1 << /S /r /St 4 /P <FEFF00DC002D> >> 2 << /P (\\200 ) >> 3 << /S /A /St 27 >> 4 [1 2] 5 << /S /X >>] >> >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 6 0 R 7 0 R 8 0 R 9 0 R] /Count 7 >>",
            page, page, page, page, page, page, page,
        ]
        var text = "%PDF-2.0\n"
        for (index, object) in objects.enumerated() { text += "\(index + 1) 0 obj\n\(object)\nendobj\n" }
        text += "trailer\n<< /Root 1 0 R /Size \(objects.count + 1) >>\n%%EOF\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: scratch.path("raw.pdf")))
        let fixed = try ExportTools.run("qpdf", [scratch.path("raw.pdf"), scratch.path("labels.pdf")])
        #expect(fixed.status == 0 || fixed.status == 3, "\(fixed.stderr)")
        let labels = try #require(try OpenedPDF(path: scratch.path("labels.pdf"), for: .reading).pageLabels())
        // A page under an entry that is not a dictionary shows its page number; an
        // unknown style numbers nothing.
        #expect((1...7).map { labels.value(ofPage: $0).text } == ["Pré1", "Ü-iv", "• ", "AA", "5", "", ""])
    }

    @Test func popplerTextAndSizesBridgeLabels() throws {
        let features = try PopplerPDF(path: fixture("features.pdf"))
        #expect(features.pageCount == 6)
        #expect(try features.text(ofPage: 3).contains("FEAT-P4"))
        let labels = try #require(try OpenedPDF(path: fixture("features.pdf"), for: .reading).pageLabels())
        #expect((1...6).map { labels.value(ofPage: $0).text } == ["i", "ii", "1", "2", "3", "4"])
        #expect(try OpenedPDF(path: fixture("alpha.pdf"), for: .reading).pageLabels() == nil)
        #expect(throws: EngineError.password(file: fixture("encrypted.pdf"), given: false)) {
            try PopplerPDF(path: fixture("encrypted.pdf"))
        }
        let rotated = try PopplerPDF(path: fixture("rotated.pdf"))
        #expect(try rotated.pageSize(1) == (width: 595, height: 420))
    }

    @Test("rendering applies /Rotate: each page's colour is where the fixture says")
    func renderingColoursAndRotation() throws {
        let facts = try FixtureFacts.load()
        let pdf = try PopplerPDF(path: fixture("rotated.pdf"))
        for page in try #require(facts["rotated.pdf"]).pages {
            let image = try pdf.render(page: page.page - 1, fittingIn: 200)
            #expect(image.width == Int((200 * page.display_size[0] / max(page.display_size[0], page.display_size[1])).rounded()))
            let x = Int(Double(image.width) * page.probe_fraction[0])
            let y = Int(Double(image.height) * page.probe_fraction[1])
            let rgb = image.rgb(x: x, y: y)
            let expected = page.color_rgb
            #expect(abs(Int(rgb >> 16) - expected[0]) < 12 && abs(Int((rgb >> 8) & 0xFF) - expected[1]) < 12
                && abs(Int(rgb & 0xFF) - expected[2]) < 12, "page \(page.page): \(String(rgb, radix: 16))")
            // The black orientation marker is where the page, as displayed, puts it.
            let marker = image.rgb(
                x: Int(Double(image.width) * page.marker_fraction[0]), y: Int(Double(image.height) * page.marker_fraction[1]))
            #expect(marker & 0xFF_FFFF < 0x30_3030, "page \(page.page) marker: \(String(marker, radix: 16))")
        }
        let scratch = try ExportScratch()
        let png = scratch.path("p.png")
        try pdf.render(page: 0, fittingIn: 64).writePNG(to: png)
        let header = try Data(contentsOf: URL(fileURLWithPath: png)).prefix(8)
        #expect(header == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }
}

/// The documented facts of the fixtures (Fixtures/fixtures.json, made by make-fixtures.py).
struct FixtureFacts: Decodable {
    struct Page: Decodable {
        var page: Int
        var display_size: [Double]
        var color_rgb: [Int]
        var probe_fraction: [Double]
        var marker_fraction: [Double]
        var rotate: Int
    }
    var pages: [Page]

    static func load() throws -> [String: FixtureFacts] {
        let data = try Data(contentsOf: ExportPaths.fixtures.appendingPathComponent("fixtures.json"))
        let all = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var result: [String: FixtureFacts] = [:]
        for (name, value) in all {
            guard let object = value as? [String: Any], object["pages"] != nil,
                let encoded = try? JSONSerialization.data(withJSONObject: object),
                let facts = try? JSONDecoder().decode(FixtureFacts.self, from: encoded)
            else { continue }
            result[name] = facts
        }
        return result
    }
}

/// Runs an independent tool and returns its stdout.
func tool(_ name: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
