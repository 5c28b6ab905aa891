import Foundation
import PDFEditKit
import PageModel
import Testing

/// Direct mode opens each PDF once (`OpenedFiles`): a file the command already
/// opened (the input, inserted into itself) is not read and checked again; it
/// comes back under the new provisional id, with the same open document, which
/// the export then uses.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct OpenedFilesTests {
    @Test func aFileOpenedBeforeIsNotReadAgain() throws {
        let registry = OpenedFiles()
        var importer = Importer(baseDirectory: KitFixtures.path(""), passwords: PasswordBook(), keepOpen: true)
        importer.openedFiles = registry
        let first = try importer.load([KitFixtures.path("alpha.pdf"), KitFixtures.path("beta.pdf")])
        #expect(registry.opened.count == 2)
        let again = try importer.load([KitFixtures.path("gamma.pdf"), KitFixtures.path("alpha.pdf")])
        #expect(registry.opened.count == 3)
        let alpha = try #require(first.first?.opened)
        let reused = try #require(again.last?.opened)
        #expect(alpha === reused, "the same open document, not a second reading")
        // Renumbered as the second file of its load, its pages pointing at that id.
        #expect(again[1].source.id == SourceID(number: 2))
        #expect(again[1].contents == (1...7).map { ItemContent.page(source: SourceID(number: 2), page: $0) })
        #expect(again[1].source.sha256 == first[0].source.sha256 && again[1].source.pageCount == 7)
        #expect(again[1].outline == first[0].outline)
        // Without the registry every load reads the file.
        let plain = Importer(baseDirectory: KitFixtures.path(""), passwords: PasswordBook(), keepOpen: true)
        let other = try plain.load([KitFixtures.path("alpha.pdf")])
        #expect(try #require(other.first?.opened) !== alpha)
    }
}
