import CPoppler
import PageModel

/// A page's text with the box of each of its characters, as poppler's text
/// layout gives them (`poppler_page_get_text_layout`): what `redact --text`
/// finds occurrences in, and what the redaction proof reads back.
package struct PageCharacters: Sendable {
    /// The page's text (`poppler_page_get_text`), as Unicode scalars.
    package var scalars: [Unicode.Scalar]
    /// One box per scalar, on the page as displayed (points from its top-left
    /// corner, y downward, the page's /Rotate applied); nil when poppler gave
    /// none for it.
    package var boxes: [BoxRect?]
    /// The displayed page's size in points.
    package var width: Double
    package var height: Double

    /// A displayed y-down box as a y-up one (from the displayed page's lower-left corner).
    package func upward(_ box: BoxRect) -> BoxRect {
        BoxRect(x0: box.x0, y0: height - box.y1, x1: box.x1, y1: height - box.y0)
    }

    /// The ranges (scalar offsets) of the occurrences of `words`: a regular
    /// expression with `regex`; case folded unless `caseSensitive`.
    package func occurrences(of words: String, regex: Bool, caseSensitive: Bool) throws(EngineError) -> [Range<Int>] {
        let text = String(String.UnicodeScalarView(scalars))
        if regex {
            let pattern: Regex<AnyRegexOutput>
            do { pattern = try Regex(words) } catch {
                throw EngineError.library(file: "--regex", message: "not a regular expression: \(error)")
            }
            let matcher = caseSensitive ? pattern : pattern.ignoresCase()
            return text.ranges(of: matcher).compactMap { range in
                let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
                let end = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.upperBound)
                return end > start ? start..<end : nil
            }
        }
        let needle = Array(words.unicodeScalars).map { caseSensitive ? $0 : Self.folded($0) }
        guard !needle.isEmpty else { return [] }
        let haystack = caseSensitive ? scalars : scalars.map(Self.folded)
        var found: [Range<Int>] = []
        var start = 0
        while start + needle.count <= haystack.count {
            if haystack[start] == needle[0], Array(haystack[start..<start + needle.count]) == needle {
                found.append(start..<start + needle.count)
                start += needle.count
            } else {
                start += 1
            }
        }
        return found
    }

    /// One scalar lower-cased when that gives one scalar.
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    /// The boxes (y upward, displayed) of an occurrence: one per line it
    /// spans, around its characters other than white space.
    package func boxes(of range: Range<Int>) -> [BoxRect] {
        var lines: [BoxRect] = []
        for index in range where index < boxes.count {
            guard let box = boxes[index], !scalars[index].properties.isWhitespace else { continue }
            let up = upward(box)
            if let last = lines.last, abs((last.y0 + last.y1) / 2 - (up.y0 + up.y1) / 2) < max(1, up.height / 2) {
                lines[lines.count - 1] = last.union(up)
            } else {
                lines.append(up)
            }
        }
        return lines
    }
}

extension PopplerPDF {
    /// The text and character boxes of the page at 0-based `index`.
    package func characters(ofPage index: Int) throws(EngineError) -> PageCharacters {
        try checkForReader(page: index)
        return try SlowWork.during("reading the text of page \(index + 1) of \(path)") { () throws(EngineError) in
            try withPage(index) { page in
                var width = 0.0
                var height = 0.0
                poppler_page_get_size(page, &width, &height)
                var scalars: [Unicode.Scalar] = []
                if let text = poppler_page_get_text(page) {
                    scalars = Array(String(cString: text).unicodeScalars)
                    g_free(text)
                }
                var rectangles: UnsafeMutablePointer<PopplerRectangle>?
                var count: guint = 0
                var boxes = [BoxRect?](repeating: nil, count: scalars.count)
                if poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles {
                    for i in 0..<min(Int(count), scalars.count) {
                        let r = rectangles[i]
                        boxes[i] = BoxRect(x0: min(r.x1, r.x2), y0: min(r.y1, r.y2), x1: max(r.x1, r.x2), y1: max(r.y1, r.y2))
                    }
                    g_free(rectangles)
                }
                return PageCharacters(scalars: scalars, boxes: boxes, width: width, height: height)
            }
        }
    }
}
