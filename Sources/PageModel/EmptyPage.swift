/// The rule of the `empty` selection token: which items show no ink.
///
/// A page is rendered in grey at 36 dpi (see the kit's `PageInkFinder`, which
/// also finds the ink `crop --auto` crops to, with the same darkness
/// threshold), and it is empty when at most `maximumShare` of the pixels of
/// what it shows (its crop box) are dark. The decision about kinds lives here:
/// a blank item is empty, a placeholder never is (it waits for content), and
/// an item carrying a stamp is not (the page as exported shows the stamp).
/// A page with extractable text is not empty unless the judgement is by ink
/// only (`--ink-only`): a sentence and a page number on a pdfTeX page are
/// 0.04 % of its pixels, under the share that forgives dust.
public enum EmptyPage {
    /// `empty` without a share: 0.1 % of the pixels (specks of dust, scanner noise).
    public static let defaultMaximumShare = 0.001

    /// `S%` of `empty:S%` as a share 0…1; nil unless S is a number from 0 to 100 followed by `%`.
    package static func share<S: StringProtocol>(parsing text: S) -> Double? {
        guard text.hasSuffix("%") else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let percent = Double(String(number)), percent.isFinite, (0...100).contains(percent)
        else { return nil }
        return percent / 100
    }

    /// Whether `item` is empty: `darkShare` gives the share of dark pixels of
    /// a page or image item's page as shown (nil: not known, so not empty),
    /// `hasText` whether its page has extractable text (asked first, unless
    /// `inkOnly`: text is cheaper to know than ink). Pages and images are judged
    /// by rendering (an image as the page export makes of it).
    package static func isEmpty(
        _ item: PageItem, maximumShare: Double, inkOnly: Bool = false, hasText: (PageItem) -> Bool = { _ in false },
        darkShare: (PageItem) -> Double?
    ) -> Bool {
        guard item.stamps.isEmpty else { return false }
        switch item.content {
        case .placeholder: return false
        case .blank: return true
        case .page, .image:
            if !inkOnly, hasText(item) { return false }
            guard let share = darkShare(item) else { return false }
            return share <= maximumShare
        case .sheet(let sheet):
            // A sheet shows its cells' pages: empty when every cell is.
            return sheet.items.allSatisfy {
                isEmpty($0, maximumShare: maximumShare, inkOnly: inkOnly, hasText: hasText, darkShare: darkShare)
            }
        }
    }

    /// Whether a page's extracted text counts as text: anything but whitespace.
    package static func isText(_ extracted: String) -> Bool {
        !extracted.allSatisfy(\.isWhitespace)
    }
}

extension Margins {
    /// The inverse of `applied(to:quarterTurns:)`: the margins, on the page
    /// as displayed turned `quarterTurns` clockwise, that move `visible` in to
    /// `inner` (both in default user space; `inner` clipped to `visible`).
    package init(of inner: BoxRect, in visible: BoxRect, quarterTurns: Int) {
        let x0 = min(max(inner.x0, visible.x0), visible.x1)
        let y0 = min(max(inner.y0, visible.y0), visible.y1)
        let x1 = max(min(inner.x1, visible.x1), x0)
        let y1 = max(min(inner.y1, visible.y1), y0)
        // Insets of the user-space edges in clockwise order: y1 (top), x1, y0, x0.
        let insets = [visible.y1 - y1, visible.x1 - x1, y0 - visible.y0, x0 - visible.x0]
        let turns = ((quarterTurns % 4) + 4) % 4
        // User edge e shows as displayed side (e + turns) mod 4.
        var displayed = [0.0, 0.0, 0.0, 0.0]
        for edge in 0..<4 { displayed[(edge + turns) % 4] = insets[edge] }
        self.init(top: displayed[0], right: displayed[1], bottom: displayed[2], left: displayed[3])
    }
}
