import Foundation
import Testing

/// Small PDFs written byte by byte for the redaction tests, each page's
/// content stream given as text, and what independent tools read of them.
enum RedactPDF {
    /// One page: its content, its resources (dictionary body), its boxes and
    /// other page keys.
    struct Page {
        var content: String
        var resources = "/Font << /F1 10 0 R >>"
        var extra = ""
        var mediaBox = "0 0 300 200"
    }

    /// An indirect object beside the pages: a dictionary's text, or a stream.
    enum Object {
        case dictionary(String)
        case stream(String, [UInt8])
    }

    /// Object 10: a proportional font whose widths the file gives (400 to
    /// 700 by code), so that positions do not depend on a font file.
    static let widthsFont: Object = .dictionary(
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 126 /Widths ["
            + (32...126).map { String(400 + ($0 % 7) * 50) }.joined(separator: " ") + "] >>")

    /// Writes pages 3, 5, 7… (contents 4, 6, 8…) and `objects` (10 and up);
    /// `catalog`: more keys of the catalog.
    static func write(_ path: String, pages: [Page], objects: [Int: Object] = [:], catalog: String = "") throws {
        var all: [Int: Object] = [10: widthsFont]
        for (number, object) in objects { all[number] = object }
        let kids = pages.indices.map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        all[1] = .dictionary("<< /Type /Catalog /Pages 2 0 R \(catalog) >>")
        all[2] = .dictionary("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        for (index, page) in pages.enumerated() {
            all[3 + 2 * index] = .dictionary(
                "<< /Type /Page /Parent 2 0 R /MediaBox [\(page.mediaBox)] /Contents \(4 + 2 * index) 0 R "
                    + "/Resources << \(page.resources) >> \(page.extra) >>")
            all[4 + 2 * index] = .stream("", Array(page.content.utf8))
        }
        var out = Array("%PDF-1.5\n".utf8)
        var offsets: [Int: Int] = [:]
        let top = all.keys.max() ?? 1
        for number in all.keys.sorted() {
            offsets[number] = out.count
            switch all[number]! {
            case .dictionary(let text):
                out += Array("\(number) 0 obj\n\(text)\nendobj\n".utf8)
            case .stream(let dictionary, let data):
                out += Array("\(number) 0 obj\n<< /Length \(data.count) \(dictionary) >>\nstream\n".utf8)
                out += data
                out += Array("\nendstream\nendobj\n".utf8)
            }
        }
        let xref = out.count
        out += Array("xref\n0 \(top + 1)\n0000000000 65535 f \n".utf8)
        for number in 1...top {
            let offset = offsets[number] ?? 0
            out += Array((String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 \(offsets[number] == nil ? "f" : "n") \n").utf8)
        }
        out += Array("trailer\n<< /Size \(top + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        try Data(out).write(to: URL(fileURLWithPath: path))
    }

    /// A word of `pdftotext -bbox`: its text and box (points, y downward).
    struct Word: Equatable, CustomStringConvertible {
        var text: String
        var x0, y0, x1, y1: Double
        var description: String { "\(text)@\(x0),\(y0)" }

        func samePlace(as other: Word) -> Bool {
            text == other.text && abs(x0 - other.x0) < 0.05 && abs(x1 - other.x1) < 0.05 && abs(y0 - other.y0) < 0.05
        }
    }

    static func words(_ file: String, page: Int = 1) throws -> [Word] {
        let html = try run("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", file, "-"]).stdout
        let pattern = try NSRegularExpression(
            pattern: #"<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>"#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { match in
            func group(_ i: Int) -> String { String(html[Range(match.range(at: i), in: html)!]) }
            return Word(
                text: group(5), x0: Double(group(1)) ?? 0, y0: Double(group(2)) ?? 0, x1: Double(group(3)) ?? 0,
                y1: Double(group(4)) ?? 0)
        }
    }

    /// The page's content streams as qpdf decodes them (every stream of the
    /// file, uncompressed, in QDF form).
    static func decodedFile(_ file: String) throws -> String {
        let result = try run("qpdf", ["--qdf", "--object-streams=disable", file, "-"])
        return String(decoding: Data(result.stdout.utf8), as: UTF8.self)
    }

    /// Grey pixels of page `page` rendered by `pdftoppm -r 72 -gray`: width, height, samples.
    static func grey(_ file: String, page: Int = 1) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("p").path
        #expect(try run("pdftoppm", ["-r", "72", "-gray", "-f", "\(page)", "-l", "\(page)", "-singlefile", file, root]).status == 0)
        return Pixels.pgm([UInt8](try Data(contentsOf: URL(fileURLWithPath: root + ".pgm"))))
    }

    /// The region (`--rect X,Y,W,H`, y upward on a page `height` tall) around a word of `pdftotext -bbox`.
    static func rect(around word: Word, pageHeight height: Double = 200) -> String {
        let fields = [word.x0, height - word.y1, word.x1 - word.x0, word.y1 - word.y0]
        return fields.map { String(format: "%.2f", $0) }.joined(separator: ",")
    }
}
