internal import PDFEngine
import PageModel

/// The proof a redacting export gives before its output takes its name: the
/// written temporary is read back by poppler, independently of the code that
/// rewrote the pages. On each redacted page no character of the text layout
/// may sit inside a region (its box's centre), no occurrence of a text
/// `redact --text` removed may be left, and rendered, every pixel inside a
/// region (a pixel and a half in from its edges) must be the fill colour.
/// A failure names the page and the region (exit 65); the caller removes the
/// temporary, so nothing is written.
enum RedactionProof {
    /// The channel difference a rendered fill pixel may show (anti-aliasing,
    /// colour rounding).
    static let tolerance = 3
    /// Pixels per point the regions are rendered at.
    static let scale = 2.0

    /// Checks the file at `path` (written for `output`), whose page i is
    /// `items[i]`'s; `passwords` open it when it is encrypted. (The copies
    /// of a redacted text left outside the pages — document information,
    /// XMP, bookmarks, annotations — are QPDFCore's to find and scrub, before
    /// the file is written: RedactLeftovers.cpp.)
    static func verify(_ path: String, output: String, items: [PageItem], passwords: [String]) throws(PDFEditError) {
        let redacted = items.indices.filter { index in
            items[index].finish.contains { if case .redact = $0 { true } else { false } }
        }
        guard !redacted.isEmpty else { return }
        var failed: (page: Int, problem: String)?
        do throws(EngineError) {
            var opened: (poppler: PopplerPDF, qpdf: OpenedPDF)?
            var lastError: EngineError?
            for password in [nil] + passwords.map(Optional.some) {
                do throws(EngineError) {
                    opened = (
                        try PopplerPDF(path: path, password: password, limits: ProcessLimits.reader),
                        try OpenedPDF(path: path, password: password, for: .reading)
                    )
                    break
                } catch {
                    lastError = error
                }
            }
            guard let (poppler, qpdf) = opened else { throw lastError ?? EngineError.missing(file: path) }
            for index in redacted {
                let regions = items[index].finish.compactMap { if case .redact(let r) = $0 { r } else { nil } }
                if let failure = try problem(page: index, regions: regions, poppler: poppler, qpdf: qpdf) {
                    failed = (index, failure)
                    break
                }
            }
        } catch {
            throw .engine(error)
        }
        if let failed {
            throw PDFEditError.notExportable(
                "\(output): page \(failed.page + 1): the redaction could not be proven (\(failed.problem)); nothing was written")
        }
    }

    /// What is wrong with page `index`, nil when nothing is.
    static func problem(page index: Int, regions: [Redaction], poppler: PopplerPDF, qpdf: OpenedPDF) throws(EngineError)
        -> String?
    {
        let attributes = try qpdf.attributes(ofPage: index)
        let turns = attributes.rotation / 90
        let visible = attributes.cropBox
        let unit = attributes.userUnit
        func shown(_ rect: BoxRect) -> BoxRect {
            let box = rect.toDisplayed(visible: visible, quarterTurns: turns)
            return BoxRect(x0: box.x0 * unit, y0: box.y0 * unit, x1: box.x1 * unit, y1: box.y1 * unit)
        }
        let characters = try poppler.characters(ofPage: index)
        for region in regions {
            let area = shown(region.rect)
            for (offset, box) in characters.boxes.enumerated() {
                guard let box, !characters.scalars[offset].properties.isWhitespace else { continue }
                let up = characters.upward(box)
                let cx = (up.x0 + up.x1) / 2
                let cy = (up.y0 + up.y1) / 2
                if cx > area.x0, cx < area.x1, cy > area.y0, cy < area.y1 {
                    return "text \"\(characters.scalars[offset])\" is still inside region \(region.rect)"
                }
            }
            if let text = region.text, !text.isEmpty,
                !(try characters.occurrences(of: text, regex: false, caseSensitive: true)).isEmpty
            {
                return "\"\(text)\" is still on the page"
            }
        }
        let image = try poppler.render(page: index, scale: scale)
        for region in regions {
            let area = shown(region.rect)
            let (red, green, blue) = region.fill.rgb
            let want = [red, green, blue].map { Int(($0 * 255).rounded()) }
            // Pixel rows count from the top of the displayed page.
            let height = Double(image.height) / scale
            let x0 = Int(((area.x0 * scale) + 1.5).rounded(.up))
            let x1 = Int(((area.x1 * scale) - 1.5).rounded(.down))
            let y0 = Int((((height - area.y1) * scale) + 1.5).rounded(.up))
            let y1 = Int((((height - area.y0) * scale) - 1.5).rounded(.down))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in max(0, y0)...min(image.height - 1, max(0, y1)) {
                for x in max(0, x0)...min(image.width - 1, max(0, x1)) {
                    let pixel = image.rgb(x: x, y: y)
                    let got = [Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF)]
                    if zip(got, want).contains(where: { abs($0 - $1) > tolerance }) {
                        return "a pixel inside region \(region.rect) is not the fill colour"
                    }
                }
            }
        }
        return nil
    }

    /// The texts `redact --text` removed from `items`' pages, each once, in order.
    static func texts(in items: [PageItem]) -> [String] {
        let all = items.flatMap { item in item.finish.compactMap { if case .redact(let r) = $0 { r.text } else { nil } } }
        return Array(Set(all.filter { !$0.isEmpty })).sorted()
    }
}
