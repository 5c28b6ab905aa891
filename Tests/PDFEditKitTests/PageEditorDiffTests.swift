import Foundation
import PDFEditKit
import Testing

/// `PageEditor.diff`: the library's `pdfedit diff`, on a file the library edited.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct PageEditorDiffTests {
    @Test func removedAndMovedPages() throws {
        let scratch = try KitScratch()
        let alpha = URL(fileURLWithPath: KitFixtures.path("alpha.pdf"))
        var editor = try PageEditor(contentsOf: alpha)
        try editor.remove(.page(2))
        try editor.move(.page(6), to: .position(1))
        let edited = scratch.url.appendingPathComponent("edited.pdf")
        try editor.data().write(to: edited)

        let diff = try PageEditor.diff(alpha, edited)
        #expect(!diff.same)
        #expect(diff.counts.removed == 1 && diff.counts.moved == 1 && diff.counts.changed == 0)
        #expect(diff.reportLines == [
            "7 -> 1  moved",
            "2 -> -  removed",
            "\(alpha.path) (7 pages) and \(edited.path) (6 pages) differ: 1 moved, 1 removed",
        ])
        #expect(try PageEditor.diff(alpha, alpha).same)
    }
}
