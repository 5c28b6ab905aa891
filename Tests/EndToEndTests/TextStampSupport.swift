import Foundation
import Testing

/// One word of `pdftotext -bbox`: its box in points from the top-left corner of
/// the page's MediaBox as displayed (poppler turns the page by its /Rotate).
struct BoxedWord: Equatable {
    var text: String
    var xMin: Double
    var yMin: Double
    var xMax: Double
    var yMax: Double

    var centreX: Double { (xMin + xMax) / 2 }
    var centreY: Double { (yMin + yMax) / 2 }

    /// The words of page `page` of `pdf`, read by `pdftotext -bbox`.
    static func words(_ pdf: String, page: Int) throws -> [BoxedWord] {
        let result = try run("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", pdf, "-"])
        try #require(result.status == 0, "pdftotext: \(result.stderr)")
        let pattern = try NSRegularExpression(
            pattern: #"<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">([^<]*)</word>"#)
        let text = result.stdout
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            func group(_ index: Int) -> String { String(text[Range(match.range(at: index), in: text)!]) }
            return BoxedWord(
                text: group(5), xMin: Double(group(1)) ?? .nan, yMin: Double(group(2)) ?? .nan,
                xMax: Double(group(3)) ?? .nan, yMax: Double(group(4)) ?? .nan)
        }
    }

    /// The one word `text` on page `page` of `pdf`.
    static func word(_ text: String, in pdf: String, page: Int) throws -> BoxedWord {
        let found = try words(pdf, page: page).filter { $0.text == text }
        try #require(found.count == 1, "\(text) on page \(page): \(found)")
        return found[0]
    }
}

/// `pdfinfo`'s size of page `page` as displayed (its /Rotate applied), in points.
func displayedPageSize(_ pdf: String, page: Int) throws -> (width: Double, height: Double) {
    let result = try run("pdfinfo", ["-f", "\(page)", "-l", "\(page)", pdf])
    try #require(result.status == 0, "pdfinfo: \(result.stderr)")
    var size: (Double, Double)?
    var rotation = 0
    for line in result.stdout.split(separator: "\n") {
        let words = line.split(separator: " ")
        if line.hasPrefix("Page") && line.contains("size:"), let w = Double(words[3]), let h = Double(words[5]) {
            size = (w, h)
        }
        if line.hasPrefix("Page") && line.contains("rot:"), let r = Int(words.last ?? "") { rotation = r }
    }
    let (w, h) = try #require(size)
    return rotation % 180 == 0 ? (w, h) : (h, w)
}

/// A two-page PDF whose pages do not start at the origin: MediaBox
/// [-300 200 312 992] (612 × 792), page 2 with /Rotate 90; each page says
/// `odd one`/`odd two`. Written by hand and put in order by `qpdf`.
func oddOriginPDF(at path: String) throws {
    func page(_ name: String, rotate: Int, content: Int) -> String {
        "<< /Type /Page /Parent 2 0 R /MediaBox [-300 200 312 992] /Rotate \(rotate) "
            + "/Resources << /Font << /F1 7 0 R >> >> /Contents \(content) 0 R >>"
    }
    func stream(_ text: String) -> String { "<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream" }
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        page("one", rotate: 0, content: 5),
        page("two", rotate: 90, content: 6),
        stream("BT /F1 20 Tf -250 900 Td (odd one) Tj ET"),
        stream("BT /F1 20 Tf -250 900 Td (odd two) Tj ET"),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    var text = "%PDF-1.7\n"
    for (index, object) in objects.enumerated() { text += "\(index + 1) 0 obj\n\(object)\nendobj\n" }
    text += "trailer\n<< /Root 1 0 R /Size \(objects.count + 1) >>\n%%EOF\n"
    let raw = path + ".raw"
    try Data(text.utf8).write(to: URL(fileURLWithPath: raw))
    defer { try? FileManager.default.removeItem(atPath: raw) }
    // qpdf rebuilds the missing cross-reference table (exit 3: warnings only).
    let fixed = try run("qpdf", [raw, path])
    try #require(fixed.status == 0 || fixed.status == 3, "qpdf: \(fixed.stderr)")
}
