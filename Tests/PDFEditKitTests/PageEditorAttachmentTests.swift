import Foundation
import PDFEditKit
import Testing

/// `PageEditor`'s attachments (issue 43 §2), as a program uses them: attach,
/// list, write, extract, remove, undo; checked with pdfdetach and qpdf.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct PageEditorAttachmentTests {
    @Test func attachListWriteExtractRemoveUndo() throws {
        let scratch = try KitScratch()
        let file = scratch.path("data.csv")
        try Data("x,y\n1,2\n".utf8).write(to: URL(fileURLWithPath: file))
        var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
        try editor.attach(URL(fileURLWithPath: file), relationship: "Data")
        try editor.attach(URL(fileURLWithPath: file), name: "page.csv", page: .number(2))
        // Kept by the editor: a later change of the file changes nothing written.
        try Data("changed".utf8).write(to: URL(fileURLWithPath: file))
        let listed = try editor.attachments()
        #expect(listed.map(\.name) == ["data.csv", "page.csv"])
        #expect(listed.map(\.page) == [nil, 2])
        #expect(listed.first?.relationship == "Data")
        #expect(throws: PDFEditError.self) { try editor.attach(URL(fileURLWithPath: file)) }
        #expect(throws: PDFEditError.self) { try editor.attach(URL(fileURLWithPath: file), name: "x", relationship: "Friend") }

        let output = scratch.path("out.pdf")
        try editor.data().write(to: URL(fileURLWithPath: output))
        #expect(try KitTools.qpdfCheck(output))
        let listing = try KitTools.run("pdfdetach", ["-list", output])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("data.csv") && listing.stdout.contains("page.csv"))
        // The written file holds the bytes attached, not the file as it is now.
        let saved = scratch.path("saved")
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        #expect(try KitTools.run("pdfdetach", ["-saveall", "-o", saved, output]).status == 0)
        for name in ["data.csv", "page.csv"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: saved + "/" + name))
            #expect(bytes == Data("x,y\n1,2\n".utf8), "\(name)")
        }
        // page.csv is a file attachment annotation of page 2.
        let pages = try KitTools.run("qpdf", ["--json", "--json-key=pages", "--json-key=qpdf", output]).stdout
        let top = try #require(try JSONSerialization.jsonObject(with: Data(pages.utf8)) as? [String: Any])
        let objects = try #require((top["qpdf"] as? [Any])?.last as? [String: Any])
        let second = try #require((top["pages"] as? [[String: Any]])?[1]["object"] as? String)
        let page = try #require((objects["obj:" + second] as? [String: Any])?["value"] as? [String: Any])
        let annots = (page["/Annots"] as? [String]) ?? []
        let subtypes = annots.compactMap { ((objects["obj:" + $0] as? [String: Any])?["value"] as? [String: Any])?["/Subtype"] as? String }
        #expect(subtypes.contains("/FileAttachment"), "\(page)")

        let written = try editor.extractAttachments(to: URL(fileURLWithPath: scratch.path("x")))
        #expect(written.count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("x/data.csv"))) == Data("x,y\n1,2\n".utf8))

        try editor.removeAttachments(["data.csv"])
        #expect(try editor.attachments().map(\.name) == ["page.csv"])
        _ = try editor.undo(3)
        #expect(try editor.attachments().isEmpty)
    }
}

/// An editor's attachments survive `save(session:)` and `init(session:)`: the
/// bytes it kept go into the session's store, paths follow the folders.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct PageEditorAttachmentSessionTests {
    @Test func savedAndReopenedEditorsKeepTheirAttachments() throws {
        let scratch = try KitScratch()
        let file = scratch.path("notes.txt")
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: file))
        do {
            var editor = try PageEditor(contentsOf: URL(fileURLWithPath: KitFixtures.path("alpha.pdf")))
            try editor.attach(URL(fileURLWithPath: file))
            try editor.save(session: scratch.path("s/session.json"))
        }
        try FileManager.default.removeItem(atPath: file)
        let reopened = try PageEditor(session: scratch.path("s/session.json"))
        #expect(try reopened.attachments().map(\.name) == ["notes.txt"])
        try reopened.extractAttachments(to: URL(fileURLWithPath: scratch.path("x")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("x/notes.txt"))) == Data("kept\n".utf8))
        // And what it writes holds them, read back by poppler's pdfdetach.
        let output = scratch.path("out.pdf")
        try reopened.write(to: URL(fileURLWithPath: output))
        try FileManager.default.createDirectory(atPath: scratch.path("saved"), withIntermediateDirectories: true)
        #expect(try KitTools.run("pdfdetach", ["-saveall", "-o", scratch.path("saved"), output]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("saved/notes.txt"))) == Data("kept\n".utf8))
    }
}
