import Foundation
import Testing

/// Where the export tests find their inputs, and the independent tools they check
/// outputs with (qpdf, pdfinfo, pdftotext), run as separate processes.
enum ExportPaths {
    /// The package root, found from this file: Tests/PDFEngineTests/<file>.
    static let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// `../shared/corpus` is beside the package on developer machines and in CI,
    /// but not in every clone.
    static var corpusAvailable: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path)
    }

    static func corpusFile(_ name: String) -> String { corpus.appendingPathComponent(name).path }

    static func hasFixture(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(name).path)
    }

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
}

/// A scratch directory removed when the test is done with it.
final class ExportScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pdfedit-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a generated PDF and returns its path.
    func write(_ pdf: TinyPDF, as name: String) throws -> String {
        let path = self.path(name)
        try pdf.data().write(to: URL(fileURLWithPath: path))
        return path
    }
}

struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ExportTools {
    /// Runs `/usr/bin/<tool>` and collects its output (through files, so that a
    /// large output cannot block the pipe).
    static func run(_ tool: String, _ arguments: [String]) throws -> ToolRun {
        let scratch = try ExportScratch()
        let outPath = scratch.path("stdout"), errPath = scratch.path("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolRun(
            status: process.terminationStatus,
            stdout: try String(contentsOfFile: outPath, encoding: .utf8),
            stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }

    /// `qpdf --check` exit status (0: no errors; 3: warnings only).
    static func check(_ path: String, password: String? = nil) throws -> ToolRun {
        try run("qpdf", (password.map { ["--password=\($0)"] } ?? []) + ["--check", path])
    }

    /// The text of 1-based `page` (`pdftotext -f N -l N`), trimmed.
    static func text(_ path: String, page: Int) throws -> String {
        let result = try run("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct PageFacts: Equatable {
        var width: Double
        var height: Double
        var rotation: Int
    }

    /// Page count from `pdfinfo`.
    static func pageCount(_ path: String) throws -> Int? {
        let result = try run("pdfinfo", [path])
        for line in result.stdout.split(separator: "\n") where line.hasPrefix("Pages:") {
            return Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Size (unrotated, as pdfinfo prints it) and effective rotation of every page,
    /// from `pdfinfo -f 1 -l N`.
    static func pages(_ path: String) throws -> [PageFacts] {
        guard let count = try pageCount(path) else { return [] }
        let result = try run("pdfinfo", ["-f", "1", "-l", "\(count)", path])
        var facts = Array(repeating: PageFacts(width: 0, height: 0, rotation: -1), count: count)
        for line in result.stdout.split(separator: "\n") where line.hasPrefix("Page ") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard words.count >= 4, let number = Int(words[1]), (1...count).contains(number) else { continue }
            if words[2] == "size", words.count >= 6, let w = Double(words[3]), let h = Double(words[5]) {
                facts[number - 1].width = w
                facts[number - 1].height = h
            } else if words[2] == "rot", let r = Int(words[3]) {
                facts[number - 1].rotation = r
            }
        }
        return facts
    }
}

/// The object graph of a PDF as `qpdf --json` (v2) shows it: pages in order and
/// every object's value. References are "N G R" strings, names "/Name".
struct QPDFJSON {
    let pages: [String]
    let objects: [String: Any]

    init(_ path: String, password: String? = nil) throws {
        let result = try ExportTools.run(
            "qpdf",
            ["--json", "--json-key=pages", "--json-key=qpdf"] + (password.map { ["--password=\($0)"] } ?? [])
                + [path])
        let root = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let pageList = root?["pages"] as? [[String: Any]] ?? []
        pages = pageList.compactMap { $0["object"] as? String }
        let qpdf = root?["qpdf"] as? [Any] ?? []
        objects = qpdf.count > 1 ? qpdf[1] as? [String: Any] ?? [:] : [:]
    }

    /// An object's value (a stream's dictionary for a stream).
    func value(_ reference: String) -> Any? {
        guard let entry = objects["obj:\(reference)"] as? [String: Any] else { return nil }
        if let value = entry["value"] { return value }
        return (entry["stream"] as? [String: Any])?["dict"]
    }

    /// `value` through a reference, or the value itself when it is direct.
    func resolve(_ value: Any?) -> Any? {
        if let reference = value as? String, reference.hasSuffix(" R") { return self.value(reference) }
        return value
    }

    func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

    /// The references in a page's /Annots (direct annotations give "direct").
    func annotations(ofPage page: String) -> [String] {
        guard let annots = resolve(dictionary(page)?["/Annots"]) as? [Any] else { return [] }
        return annots.map { $0 as? String ?? "direct" }
    }

    /// The first element of an annotation's explicit destination (/Dest, or /A /D of
    /// a GoTo action): a page reference for an internal link; nil for anything else.
    func destinationTarget(ofAnnotation annotation: String) -> Any? {
        guard let dict = dictionary(annotation) else { return nil }
        var dest = dict["/Dest"]
        if dest == nil, let action = dictionary(dict["/A"]), action["/S"] as? String == "/GoTo" {
            dest = action["/D"]
        }
        guard let dest else { return nil }
        if let array = resolve(dest) as? [Any] { return array.first ?? NSNull() }
        return dest  // a name or string: a named destination
    }

    /// Page objects that are not in the page tree: what a reference to a page
    /// that was not exported would leave behind.
    var strayPages: [String] {
        let inTree = Set(pages)
        return objects.compactMap { key, entry in
            guard key.hasPrefix("obj:"), let value = (entry as? [String: Any])?["value"] as? [String: Any],
                value["/Type"] as? String == "/Page"
            else { return nil }
            let reference = String(key.dropFirst("obj:".count))
            return inTree.contains(reference) ? nil : reference
        }
    }

    /// Every internal link of the output, as (page, annotation, target) with target
    /// the destination's first element as qpdf prints it.
    var internalLinks: [(page: String, annotation: String, target: Any)] {
        var links: [(page: String, annotation: String, target: Any)] = []
        for page in pages {
            for annotation in annotations(ofPage: page) {
                guard dictionary(annotation)?["/Subtype"] as? String == "/Link",
                    let target = destinationTarget(ofAnnotation: annotation)
                else { continue }
                links.append((page, annotation, target))
            }
        }
        return links
    }
}

/// A minimal PDF written by hand: one Helvetica text line (the page's token) per
/// page, optional internal links, attributes optionally inherited from /Pages.
struct TinyPDF {
    struct Page {
        var token: String
        /// 0-based pages this page links to (one /Link annotation each, explicit /Dest).
        var linksTo: [Int] = []
        /// The page's own /Rotate; nil: none (inherits the /Pages value if any).
        var rotate: Int? = nil
    }

    var pages: [Page]
    /// /Rotate on the /Pages node, inherited by pages without their own.
    var inheritedRotate: Int? = nil
    /// /MediaBox on the /Pages node (always inherited: pages have none).
    var mediaBox = "0 0 612 792"
    /// More trailer entries, as PDF syntax (e.g. a direct `/Info << … >>`).
    var trailerEntries = ""

    init(tokens: [String], inheritedRotate: Int? = nil) {
        pages = tokens.map { Page(token: $0) }
        self.inheritedRotate = inheritedRotate
    }

    func data() -> Data {
        let count = pages.count
        func pageObject(_ index: Int) -> Int { 4 + index }
        func contentObject(_ index: Int) -> Int { 4 + count + index }
        var nextObject = 4 + 2 * count
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R >>",
            3: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        ]
        var pagesNode = "<< /Type /Pages /Count \(count) /MediaBox [\(mediaBox)] "
            + "/Resources << /Font << /F1 3 0 R >> >> "
        if let inheritedRotate { pagesNode += "/Rotate \(inheritedRotate) " }
        pagesNode += "/Kids [" + (0..<count).map { "\(pageObject($0)) 0 R" }.joined(separator: " ") + "] >>"
        objects[2] = pagesNode
        for (index, page) in pages.enumerated() {
            var annots: [Int] = []
            for (n, target) in page.linksTo.enumerated() {
                let y = 600 - 40 * n
                objects[nextObject] =
                    "<< /Type /Annot /Subtype /Link /Rect [72 \(y) 300 \(y + 30)] /Border [0 0 0] "
                    + "/P \(pageObject(index)) 0 R /Dest [\(pageObject(target)) 0 R /XYZ null null null] >>"
                annots.append(nextObject)
                nextObject += 1
            }
            var dict = "<< /Type /Page /Parent 2 0 R /Contents \(contentObject(index)) 0 R"
            if let rotate = page.rotate { dict += " /Rotate \(rotate)" }
            if !annots.isEmpty { dict += " /Annots [" + annots.map { "\($0) 0 R" }.joined(separator: " ") + "]" }
            objects[pageObject(index)] = dict + " >>"
            let stream = "BT /F1 24 Tf 72 700 Td (\(page.token)) Tj ET"
            objects[contentObject(index)] = "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream"
        }
        return pdfFileData(objects: objects, trailerEntries: trailerEntries)
    }
}

/// The bytes of a PDF 1.4 file made of `objects` (by object number, from 1; a
/// number missing below the largest is listed at offset 0), with its
/// cross-reference table and a trailer of /Size, /Root 1 0 R and `trailerEntries`.
func pdfFileData(objects: [Int: String], trailerEntries: String = "") -> Data {
    var body = "%PDF-1.4\n"
    var offsets: [Int: Int] = [:]
    for number in objects.keys.sorted() {
        offsets[number] = body.utf8.count
        body += "\(number) 0 obj\n\(objects[number] ?? "null")\nendobj\n"
    }
    let xref = body.utf8.count
    let size = (objects.keys.max() ?? 0) + 1
    body += "xref\n0 \(size)\n0000000000 65535 f \n"
    for number in 1..<size {
        let offset = String(offsets[number] ?? 0)
        body += String(repeating: "0", count: 10 - offset.count) + offset + " 00000 n \n"
    }
    body += "trailer\n<< /Size \(size) /Root 1 0 R \(trailerEntries)>>\nstartxref\n\(xref)\n%%EOF\n"
    return Data(body.utf8)
}
