/// Selections and positions written as Swift values, for programs using the
/// library: `.pages(3...5)`, `.last`, `.even`, `.text("Invoice")`,
/// `.pages(1...2) + .last`; positions `.before(1)`, `.after(.last)`.
///
/// Each is the selection the command line's text would give (`3..5`, `last`,
/// `even`, `text:Invoice`, `1..2,last`), so both resolve alike and errors name
/// the same token.
extension PageSelection {
    /// The page at a 1-based position.
    public static func page(_ position: Int) -> PageSelection {
        PageSelection(tokens: [Token(kind: .single(.number(position)), text: "\(position)")])
    }

    /// The pages at these 1-based positions, in order.
    public static func pages(_ positions: ClosedRange<Int>) -> PageSelection {
        PageSelection(tokens: [
            Token(
                kind: .range(.number(positions.lowerBound), .number(positions.upperBound)),
                text: "\(positions.lowerBound)..\(positions.upperBound)")
        ])
    }

    /// The pages from a 1-based position to the last one.
    public static func pages(_ positions: PartialRangeFrom<Int>) -> PageSelection {
        PageSelection(tokens: [
            Token(kind: .range(.number(positions.lowerBound), nil), text: "\(positions.lowerBound)..")
        ])
    }

    /// The pages at these 1-based positions.
    public static func pages(_ positions: Int...) -> PageSelection { PageSelection(positions: positions) }

    /// The first page.
    public static let first = page(1)

    /// The last page.
    public static let last = PageSelection(tokens: [Token(kind: .single(.fromEnd(0)), text: "last")])

    /// The `count` last pages (`last-(count-1)..last`); `count` at least 1.
    public static func last(_ count: Int) -> PageSelection {
        let back = max(count, 1) - 1
        return PageSelection(tokens: [
            Token(kind: .range(.fromEnd(back), .fromEnd(0)), text: back == 0 ? "last" : "last-\(back)..last")
        ])
    }

    /// Pages at odd positions (1, 3, 5, …).
    public static let odd = PageSelection(tokens: [Token(kind: .odd, text: "odd")])

    /// Pages at even positions.
    public static let even = PageSelection(tokens: [Token(kind: .even, text: "even")])

    /// Pages whose text contains these words (case and runs of whitespace ignored).
    public static func text(_ words: String) -> PageSelection {
        PageSelection(tokens: [Token(kind: .text(words), text: "text:" + quotedValue(words))])
    }

    /// Pages shown wider than tall (`landscape`), the item's rotation included.
    public static let landscape = PageSelection(tokens: [Token(kind: .landscape, text: "landscape")])

    /// Pages shown taller than wide (`portrait`).
    public static let portrait = PageSelection(tokens: [Token(kind: .portrait, text: "portrait")])

    /// Pages shown at this size either way round, each side within 1% (at least 2 pt) (`size:WxH`).
    public static func size(_ size: PageSize) -> PageSelection {
        PageSelection(tokens: [Token(kind: .size(size), text: "size:\(size.width)x\(size.height)pt")])
    }

    /// Pages carrying an annotation, popups aside (`annotated`).
    public static let annotated = PageSelection(tokens: [Token(kind: .annotated, text: "annotated")])

    /// Pages without extractable text, and image items (`image-only`).
    public static let imageOnly = PageSelection(tokens: [Token(kind: .imageOnly, text: "image-only")])

    /// Pages labelled `label` as `list` shows labels; with `last`, from each one
    /// labelled `label` to the next labelled `last` (`label:L`, `label:L..M`).
    public static func label(_ label: String, through last: String? = nil) -> PageSelection {
        let text = last.map { "label:\(label)..\($0)" } ?? "label:" + quotedValue(label)
        return PageSelection(tokens: [Token(kind: .label(label, through: last), text: text)])
    }

    /// The pages under every bookmark with this title (`outline:TITLE`).
    public static func outline(_ title: String) -> PageSelection {
        PageSelection(tokens: [Token(kind: .outline(title), text: "outline:" + quotedValue(title))])
    }

    /// Every later copy of a page an earlier item already shows (`dup`).
    public static let duplicates = PageSelection(tokens: [Token(kind: .duplicate, text: "dup")])

    /// A token's value as the command line writes it: in double quotes when it
    /// holds a comma or starts with a quote (or has dots, for labels), so the
    /// session's text reads back as the same selection.
    private static func quotedValue(_ value: String) -> String {
        value.contains(",") || value.hasPrefix("\"") || value.contains("..") ? "\"\(value)\"" : value
    }

    /// Pages that look empty: at most `maximumShare` (0…1) of their pixels dark
    /// and, unless `inkOnly`, no extractable text, as `empty`, `empty:S%` and
    /// `--ink-only` select on the command line.
    public static func empty(maximumShare: Double = EmptyPage.defaultMaximumShare, inkOnly: Bool = false)
        -> PageSelection
    {
        // Written as the command line would write it, so messages and the session's text agree.
        let percent = maximumShare * 100
        let text =
            maximumShare == EmptyPage.defaultMaximumShare
            ? "empty" : "empty:\(percent.rounded() == percent ? String(Int(percent)) : String(percent))%"
        return PageSelection(tokens: [Token(kind: .empty(maximumShare: maximumShare, inkOnly: inkOnly), text: text)])
    }

    /// The page item with this id, wherever it is now (`@ID`).
    public static func item(_ id: ItemID) -> PageSelection { PageSelection(ids: [id]) }

    /// Both selections, one after the other (`A,B` on the command line): the
    /// kit's `+`, declared there so that a program importing only PDFEditKit
    /// finds the operator.
    package static func joined(_ first: PageSelection, _ second: PageSelection) -> PageSelection {
        PageSelection(tokens: first.tokens + second.tokens)
    }
}

/// `1` is the position `.number(1)`, so destinations read `.before(1)`.
extension Position: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(value) }
}
