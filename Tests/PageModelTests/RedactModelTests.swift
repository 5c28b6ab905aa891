import Foundation
@testable import PageModel
import Testing

/// `redact` in the model: regions given on the page as displayed land in the
/// page's user space whatever its rotation, text occurrences come from the
/// context, and the command is one undo step.
@Suite struct RedactModelTests {
    /// Pages 600×800 at origin (100, 50), page k turned (k-1) quarter turns.
    let context = EditContext(
        pageFrame: { item in
            guard case .page(_, let page) = item.content else { return nil }
            let box = BoxRect(x0: 100, y0: 50, x1: 700, y1: 850)
            return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: page - 1)
        },
        textHits: { item, words, _, _ in
            guard case .page(_, let page) = item.content, page == 2, words == "secret" else { return [] }
            return [TextHit(rect: BoxRect(x0: 200, y0: 300, x1: 260, y1: 312), text: "Secret")]
        })

    static func regions(_ s: Session) -> [[BoxRect]] {
        (s.document(named: s.current)?.items ?? []).map { item in
            item.finish.compactMap { if case .redact(let r) = $0 { r.rect } else { nil } }
        }
    }

    @Test func aDisplayedCornerIsTheSameCornerOnEveryRotation() throws {
        var s = try session(pages: 4)
        let start = SessionState(s)
        let rect = RedactTarget.rect(x: 0, y: 0, width: 10, height: 20, units: .pt)
        let summary = try s.apply(.redact(.all, rect, fill: Redaction.black, label: "x"), label: "redact", context: context)
        #expect(summary.description == "4 regions to redact on 4 pages at export (4 pages)")
        #expect(
            Self.regions(s) == [
                [BoxRect(x0: 100, y0: 50, x1: 110, y1: 70)],  // upright: the lower-left corner
                [BoxRect(x0: 680, y0: 50, x1: 700, y1: 60)],  // 90°: the user space's lower-right
                [BoxRect(x0: 690, y0: 830, x1: 700, y1: 850)],  // 180°: its upper-right
                [BoxRect(x0: 100, y0: 840, x1: 120, y1: 850)],  // 270°: its upper-left
            ])
        _ = try s.undo()
        #expect(SessionState(s) == start)
    }

    @Test func unitsArePointsMillimetresOrPercent() throws {
        var s = try session(pages: 1)
        try s.apply(
            .redact(.all, .rect(x: 10, y: 10, width: 50, height: 25, units: .percent), fill: Redaction.black, label: nil),
            label: "redact", context: context)
        try s.apply(
            .redact(.all, .rect(x: 0, y: 0, width: 25.4, height: 25.4, units: .mm), fill: Redaction.black, label: nil),
            label: "redact", context: context)
        let rounded = Self.regions(s)[0].map { r in [r.x0, r.y0, r.x1, r.y1].map { ($0 * 1000).rounded() / 1000 } }
        #expect(rounded == [[160, 130, 460, 330], [100, 50, 172, 122]])
    }

    @Test func displayedAndUserSpaceRoundTrip() {
        let visible = BoxRect(x0: 10, y0: 20, x1: 310, y1: 420)
        let shown = BoxRect(x0: 5, y0: 7, x1: 50, y1: 90)
        for turns in -1...4 {
            let user = shown.fromDisplayed(visible: visible, quarterTurns: turns)
            #expect(user.toDisplayed(visible: visible, quarterTurns: turns) == shown, "\(turns)")
        }
    }

    @Test func textOccurrencesComeFromTheContextAndNoneChangesNothing() throws {
        var s = try session(pages: 3)
        try s.apply(
            .redact(.all, .text("secret", regex: false, caseSensitive: false), fill: Redaction.black, label: nil),
            label: "redact", context: context)
        #expect(Self.regions(s) == [[], [BoxRect(x0: 200, y0: 300, x1: 260, y1: 312)], []])
        // As a `text:` token matching nothing: no step, no error (the command says so and goes on).
        _ = try? s.apply(
            .redact(.all, .text("other", regex: false, caseSensitive: false), fill: Redaction.black, label: nil),
            label: "redact", context: context)
        #expect(s.history.steps.count == 1)
        #expect(Self.regions(s) == [[], [BoxRect(x0: 200, y0: 300, x1: 260, y1: 312)], []])
    }
}
