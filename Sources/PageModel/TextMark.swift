/// A generated text stamp (`number`, `bates`, `watermark`): `format` resolved
/// per item at export, in `font` at `size` points, turned `angle` degrees
/// counter-clockwise on the page as displayed.
///
/// `format` takes `{n}` (the item's number: `start` on the first item in
/// document order that carries a stamp of this `run`, one more on each next
/// one; zero-padded to `digits` when above 0), `{total}` (how many items carry
/// the run), `{label}` (the page's label as export writes it, else its
/// position in the document) and `{doc}` (the document's name); other braces
/// are text. Every stamp one command makes shares one `run`, so numbers follow
/// the items when they move, and a removed item leaves no gap. Numbers are
/// counted over the whole document, so a part of a split export keeps them.
///
/// `fontName`, when set (`--font` naming an installed font or a font file),
/// is the font every text of the mark is drawn in by Pango; else `font`, a
/// standard font, draws what WinAnsi can say (see `needsShaping`).
///
/// In the session file: `{"kind": "number", "format": "Page {n} of {total}",
/// "start": 1, "digits": 0, "run": 1, "font": "helvetica", "size": 10, "angle": 0}`,
/// with `"fontName": "DejaVu Serif:bold"` when set (format 7).
package struct TextMark: Codable, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: String, Codable, Hashable, Sendable {
        case number, bates, watermark
    }

    package var kind: Kind
    package var format: String
    package var start: Int
    package var digits: Int
    package var run: Int
    package var font: StandardFont
    /// A fontconfig pattern (`"DejaVu Serif:bold"`) or a font file's absolute
    /// path; nil: the standard `font`.
    package var fontName: String?
    /// The text's colour (nil: black), a box behind it (`background`) and its
    /// border (`outline`), nil for none (format 7).
    package var color: TextColor?
    package var background: TextColor?
    package var outline: TextColor?
    /// The size in points as seen (a page's /UserUnit applied), unless `sizeShare` is set.
    package var size: Double
    /// `--size 2%`: the size is this share (0.02) of the shorter side of the
    /// page it is drawn on, as displayed; nil: `size` points (format 8).
    package var sizeShare: Double?
    package var angle: Double

    package init(
        kind: Kind, format: String, start: Int = 1, digits: Int = 0, run: Int = 0, font: StandardFont = .helvetica,
        fontName: String? = nil, size: Double, angle: Double = 0
    ) {
        self.kind = kind
        self.format = format
        self.start = start
        self.digits = digits
        self.run = run
        self.font = font
        self.fontName = fontName
        self.size = size
        self.angle = angle
    }

    private enum CodingKeys: String, CodingKey {
        case kind, format, start, digits, run, font, fontName, color, background, outline, size, sizeShare, angle
    }

    // Encoded as synthesized; the size and angle read through the session's number check.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        format = try container.decode(String.self, forKey: .format)
        start = try container.decode(Int.self, forKey: .start)
        digits = try container.decode(Int.self, forKey: .digits)
        run = try container.decode(Int.self, forKey: .run)
        font = try container.decode(StandardFont.self, forKey: .font)
        fontName = try container.decodeIfPresent(String.self, forKey: .fontName)
        color = try container.decodeIfPresent(TextColor.self, forKey: .color)
        background = try container.decodeIfPresent(TextColor.self, forKey: .background)
        outline = try container.decodeIfPresent(TextColor.self, forKey: .outline)
        size = try container.decodeSessionNumber(.size)
        sizeShare = try container.decodeSessionNumberIfPresent(.sizeShare)
        angle = try container.decodeSessionNumber(.angle)
    }

    /// The fields `format` may hold (besides `{date:FORMAT}`).
    package static let fields = ["{n}", "{total}", "{label}", "{doc}", "{file}", "{pages}", "{date}"]

    /// The strftime format of `{date}`: 2026-03-14.
    package static let defaultDateFormat = "%Y-%m-%d"

    /// The text for one item: `{file}` the name of the file its page comes
    /// from ("" for a blank page), `{pages}` the document's page count, and
    /// `date(FORMAT)` the export's date as strftime writes it with FORMAT
    /// (`{date}`: `defaultDateFormat`; `{date:%d.%m.%Y}`: its own).
    package func resolved(
        number: Int, total: Int, label: String, document: String, file: String = "", pages: Int = 0,
        date: (String) -> String = { _ in "" }
    ) -> String {
        var digitsText = String(number)
        if digits > 0, number >= 0, digitsText.count < digits {
            digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
        }
        func value(of field: String) -> String {
            switch field {
            case "{n}": digitsText
            case "{total}": String(total)
            case "{label}": label
            case "{doc}": document
            case "{file}": file
            case "{pages}": String(pages)
            default: date(TextMark.defaultDateFormat)
            }
        }
        var result = ""
        var rest = Substring(format)
        outer: while !rest.isEmpty {
            if rest.first == "{" {
                for field in TextMark.fields where rest.hasPrefix(field) {
                    result += value(of: field)
                    rest = rest.dropFirst(field.count)
                    continue outer
                }
                if rest.hasPrefix("{date:"), let close = rest.firstIndex(of: "}") {
                    let pattern = rest[rest.index(rest.startIndex, offsetBy: 6)..<close]
                    result += date(pattern.isEmpty ? TextMark.defaultDateFormat : String(pattern))
                    rest = rest[rest.index(after: close)...]
                    continue outer
                }
            }
            result.append(rest.removeFirst())
        }
        return result
    }

    /// `number "Page {n}" 10pt`.
    package var description: String {
        var words = [kind.rawValue, "\"\(format)\""]
        if start != 1 { words.append("from \(start)") }
        if let fontName {
            words.append("\"\(fontName)\"")
        } else if font != .helvetica {
            words.append(font.rawValue)
        }
        if let color { words.append("colour \(color)") }
        if let background { words.append("on \(background)") }
        if let outline { words.append("outlined \(outline)") }
        words.append(sizeShare.map { "\(formatPoints($0 * 100))%" } ?? "\(formatPoints(size))pt")
        if angle != 0 { words.append("\(formatPoints(angle))°") }
        return words.joined(separator: " ")
    }
}

extension Document {
    /// The texts of the items' generated stamps as export writes them, by item
    /// index, in each item's stamp order (items without text stamps absent).
    /// `label(index)` is the item's label in the output, nil when it has none;
    /// `file(index)` the name of the file its page comes from; `date` formats
    /// the export's date (see `TextMark.resolved`).
    package func stampTexts(
        label: (Int) -> String?, file: (Int) -> String = { _ in "" }, date: (String) -> String = { _ in "" }
    ) -> [Int: [String]] {
        var counts: [Int: Int] = [:]
        for item in items {
            var seen: Set<Int> = []
            for stamp in item.stamps {
                if let mark = stamp.text, seen.insert(mark.run).inserted { counts[mark.run, default: 0] += 1 }
            }
        }
        guard !counts.isEmpty else { return [:] }
        var reached: [Int: Int] = [:]
        var texts: [Int: [String]] = [:]
        for (index, item) in items.enumerated() {
            var lines: [String] = []
            var seen: Set<Int> = []
            for stamp in item.stamps {
                guard let mark = stamp.text else { continue }
                if seen.insert(mark.run).inserted { reached[mark.run, default: 0] += 1 }
                let number = mark.start + (reached[mark.run] ?? 1) - 1
                lines.append(
                    mark.resolved(
                        number: number, total: counts[mark.run] ?? 0, label: label(index) ?? String(index + 1),
                        document: name, file: file(index), pages: items.count, date: date))
            }
            if !lines.isEmpty { texts[index] = lines }
        }
        return texts
    }

    /// The largest run any text stamp of the document has, 0 without one.
    var highestTextRun: Int {
        items.lazy.flatMap(\.stamps).compactMap(\.text?.run).max() ?? 0
    }
}

extension TextMark {
    /// Whether `text` (this mark's text resolved for one item) is drawn in a
    /// real font, shaped by Pango and embedded as a subset, rather than in the
    /// standard font with nothing embedded: when the mark names a font of its
    /// own (`fontName`) or WinAnsi cannot encode the text.
    package func needsShaping(_ text: String) -> Bool {
        if fontName != nil { return true }
        if case .failure = WinAnsi.encode(text) { return true }
        return false
    }

    /// The space a background or outline box leaves around the text, in points.
    package var boxPadding: Double {
        background != nil || outline != nil ? size / 4 : 0
    }

    /// The fontconfig pattern of the font a shaped text is drawn in without a
    /// `fontName`: the generic family of the standard font (DejaVu Sans, Serif and Sans Mono
    /// where fonts-dejavu-core is installed); fontconfig adds fallback fonts
    /// for characters it lacks (CJK: WenQuanYi, Noto CJK, …).
    package var shapingFontPattern: String {
        switch font {
        case .helvetica: "sans-serif"
        case .times: "serif"
        case .courier: "monospace"
        }
    }
}

extension TextMark {
    /// The largest font size a text stamp takes, in points.
    package static let maximumSize = 1000.0
    /// The largest share of a page's shorter side a relative size or margin takes (50%).
    package static let maximumShare = 0.5
    /// The most digits `bates --digits` pads to.
    package static let maximumDigits = 18
    /// The numbers `--start` takes: at least 0, small enough to add a document's items to.
    package static let startRange = 0...(1 << 50)

    /// Why this mark cannot be drawn, nil when it can: a size, digits, start,
    /// angle out of range, or a format that is empty or not WinAnsi.
    package var problem: String? {
        if !(size.isFinite && size > 0 && size <= TextMark.maximumSize) {
            return "the text size must be above 0 and at most \(formatPoints(TextMark.maximumSize)) pt (got \(size))"
        }
        if let share = sizeShare, !(share.isFinite && share > 0 && share <= TextMark.maximumShare) {
            return "a relative text size must be above 0% and at most \(formatPoints(TextMark.maximumShare * 100))%"
        }
        if !(0...TextMark.maximumDigits).contains(digits) {
            return "--digits takes 1 to \(TextMark.maximumDigits) (got \(digits))"
        }
        if !TextMark.startRange.contains(start) {
            return "--start takes 0 to \(TextMark.startRange.upperBound) (got \(start))"
        }
        if !angle.isFinite { return "the angle must be a finite number of degrees" }
        if format.isEmpty { return "the text is empty" }
        return nil
    }

    /// The most characters a stamp's text (`--format`, `--prefix`, `--text`)
    /// takes: far more than fits across any page at a readable size, few enough
    /// that a session stamping thousands of pages stays small.
    package static let maximumTextLength = 1_000

    /// Why a command may not make this mark, beyond `problem`: a text longer
    /// than `maximumTextLength` or naming an unknown `{field}`. Checked when a
    /// command makes a mark, not when a session is read, so that sessions
    /// written before these rules still load.
    package var commandProblem: String? {
        if let problem { return problem }
        let length = format.count
        if length > TextMark.maximumTextLength {
            return "the text has \(length) characters; at most \(TextMark.maximumTextLength) are allowed"
        }
        if let field = unknownFields.first {
            return "unknown field \(quoted(field)) (the text takes \(TextMark.fields.joined(separator: ", ")), {date:FORMAT})"
        }
        return nil
    }

    /// The `{word}`s of `format` that are not fields, in order: a brace, a
    /// letter or `_`, letters, digits or `_`, a closing brace. Other braces are text.
    package var unknownFields: [String] {
        var found: [String] = []
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            guard let first = name.first, first.isLetter || first == "_",
                rest.dropFirst(name.count).first == "}"
            else { continue }
            let field = "{" + name + "}"
            if !TextMark.fields.contains(field) { found.append(field) }
        }
        return found
    }
}

extension TextMark {
    /// This mark as drawn on a page `page` large as displayed (points as seen:
    /// /UserUnit applied): with `sizeShare`, its size that share of the page's
    /// shorter side (the same whatever the page's rotation); else itself.
    package func sized(on page: PageSize) -> TextMark {
        guard let share = sizeShare else { return self }
        var sized = self
        let side = min(page.width, page.height)
        if side.isFinite, side > 0 { sized.size = share * side }
        sized.sizeShare = nil
        return sized
    }
}
