import Foundation
import Testing

/// A small PDF carrying everything `strip` removes and nothing real to show,
/// written by Python with correct offsets: document JavaScript and an open
/// action that runs it, a page action, a link running JavaScript beside a plain
/// URI link, a text comment, an embedded file, /Info and XMP, and a page
/// thumbnail.
enum Scripted {
    static let script = #"""
import sys, zlib
import pdfbytes
objects = []
def add(body):
    objects.append(body)
    return len(objects)
xmp = b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Secret title</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
content = b'BT /F1 24 Tf 72 700 Td (SCRIPTED-P1) Tj ET'
thumb = bytes([0x80]) * 12
catalog = add(None)
pages = add(None)
page = add(None)
add(b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')                                  # 4
add(b'<< /Length %d >>\nstream\n' % len(content) + content + b'\nendstream')                    # 5
add(b'<< /S /JavaScript /JS (app.alert\\("open"\\);) >>')                                         # 6
add(b'<< /Type /Annot /Subtype /Link /Rect [72 600 200 620] /Border [0 0 0] /A << /S /JavaScript /JS (app.alert\\("link"\\);) >> >>')  # 7
add(b'<< /Type /Annot /Subtype /Link /Rect [72 560 200 580] /Border [0 0 0] /A << /S /URI /URI (https://example.org/) >> >>')      # 8
add(b'<< /Type /Annot /Subtype /Text /Rect [300 600 320 620] /Contents (a comment) >>')          # 9
add(b'<< /Type /EmbeddedFile /Length 5 >>\nstream\nhello\nendstream')                           # 10
add(b'<< /Type /Filespec /F (hello.txt) /UF (hello.txt) /EF << /F 10 0 R >> >>')                 # 11
add(b'<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n' % len(xmp) + xmp + b'\nendstream')  # 12
add(b'<< /Title (Secret title) /Author (Ann Lee) /Producer (hand made) /Creator (Python) >>')   # 13
add(b'<< /Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length %d >>\nstream\n' % len(thumb) + thumb + b'\nendstream')  # 14
objects[catalog - 1] = (b'<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /AA << /WC 6 0 R >> /Metadata 12 0 R '
    b'/Names << /JavaScript << /Names [(init) << /S /JavaScript /JS (var x = 1;) >>] >> '
    b'/EmbeddedFiles << /Names [(hello.txt) 11 0 R] >> >> >>')
objects[pages - 1] = b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>'
objects[page - 1] = (b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R '
    b'/Resources << /Font << /F1 4 0 R >> >> /Annots [7 0 R 8 0 R 9 0 R] /Thumb 14 0 R '
    b'/AA << /O << /S /JavaScript /JS (app.alert\\("page"\\);) >> >> >>')
open(sys.argv[1], "wb").write(pdfbytes.pdf(objects, trailer=b'/Info 13 0 R'))
"""#

    static func make(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("scripted.pdf").path
        let made = try python(script, [path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// The catalog's keys and the first page's, by qpdf's JSON.
    static func keys(_ file: String) throws -> (catalog: Set<String>, page: Set<String>, names: Set<String>) {
        let json = try run("qpdf", ["--json", "--json-key=qpdf", file]).stdout
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try #require((top["qpdf"] as? [Any])?.last as? [String: Any])
        func resolve(_ value: Any?) -> [String: Any]? {
            if let dictionary = value as? [String: Any] { return dictionary }
            guard let reference = value as? String else { return nil }
            let object = objects["obj:" + reference] as? [String: Any]
            return (object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]) as? [String: Any]
        }
        let trailer = try #require(resolve((objects["trailer"] as? [String: Any])?["value"]))
        let catalog = try #require(resolve(trailer["/Root"]))
        let pages = try #require(resolve(catalog["/Pages"]))
        let first = try #require(resolve((pages["/Kids"] as? [Any])?.first))
        let names = resolve(catalog["/Names"]).map { Set($0.keys) } ?? []
        return (Set(catalog.keys).union(trailer["/Info"] == nil ? [] : ["(Info)"]), Set(first.keys), names)
    }

    /// What every object of the file says, as text: to look for a script anywhere.
    static func everything(_ file: String) throws -> String {
        try run("qpdf", ["--qdf", "--object-streams=disable", file, "-"]).stdout
    }
}

/// `pdfedit strip`: what a published document should not carry, removed at
/// export, checked with qpdf's JSON, pdfinfo, pdfdetach and pdftotext.
@Suite struct StripTests {
    @Test func javascriptEverywhereGoesAndTheRestStays() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Scripted.make(in: dir)
        try Finished.checkClean(input)
        #expect(try Scripted.everything(input).contains("/JavaScript"))
        let result = try pdfeditOK("strip", "javascript", input, "-o", "out.pdf", in: dir)
        // Asked for: no "dropped" warning.
        #expect(!result.stderr.contains("JavaScript"), "\(result.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        let all = try Scripted.everything(out)
        #expect(!all.contains("/JavaScript") && !all.contains("app.alert"), "\(all.prefix(2000))")
        let keys = try Scripted.keys(out)
        #expect(!keys.catalog.contains("/OpenAction") && !keys.catalog.contains("/AA"))
        #expect(!keys.page.contains("/AA") && !keys.names.contains("/JavaScript"))
        // The links stay (the script one without its action), and so does the rest.
        #expect(try Finished.annotations(out) == [["Link", "Link", "Text"]])
        #expect(all.contains("https://example.org/"))
        #expect(keys.names.contains("/EmbeddedFiles") && keys.page.contains("/Thumb"))
        #expect(try pageText(out, 1).contains("SCRIPTED-P1"))
    }

    @Test func metadataGoesAndMetaAfterwardsIsWrittenAnew() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Scripted.make(in: dir)
        #expect(try run("pdfinfo", [input]).stdout.contains("Secret title"))
        let stripped = try pdfeditOK("strip", "metadata", input, "-o", "out.pdf", in: dir)
        #expect(stripped.stdout.contains("removed: document information (Author, Creator, Producer, Title)"), "\(stripped.stdout)")
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        let info = try run("pdfinfo", [out]).stdout
        #expect(!info.contains("Secret title") && !info.contains("Ann Lee") && !info.contains("hand made"), "\(info)")
        #expect(!(try Scripted.keys(out).catalog.contains("/Metadata")))
        #expect(!(try Scripted.keys(out).catalog.contains("(Info)")))
        #expect(try run("pdfinfo", ["-meta", out]).stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        // In a session: meta set before goes with the strip (one step), meta after is written.
        try pdfeditOK("open", input, in: dir)
        try pdfeditOK("meta", "--author", "Old Author", in: dir)
        try pdfeditOK("strip", "metadata", in: dir)
        #expect(try pdfeditOK("status", in: dir).stdout.contains("Strips:    metadata"))
        try pdfeditOK("meta", "--title", "Public", in: dir)
        try pdfeditOK("export", "session.pdf", in: dir)
        let session = dir.appendingPathComponent("session.pdf").path
        let sessionInfo = try run("pdfinfo", [session]).stdout
        #expect(sessionInfo.contains("Public") && !sessionInfo.contains("Old Author") && !sessionInfo.contains("Ann Lee"))
        #expect(try run("pdfinfo", ["-meta", session]).stdout.contains("Public"))
        // Undo both: the source's metadata and the author are back.
        try pdfeditOK("undo", "2", in: dir)
        try pdfeditOK("export", "undone.pdf", in: dir)
        let undone = try run("pdfinfo", [dir.appendingPathComponent("undone.pdf").path]).stdout
        #expect(undone.contains("Secret title") && undone.contains("Old Author"), "\(undone)")
    }

    @Test func attachmentsThumbnailsAndDocumentPartsTakeNoSelection() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Scripted.make(in: dir)
        #expect(try run("pdfdetach", ["-list", input]).stdout.contains("hello.txt"))
        try pdfeditOK("open", input, in: dir)
        try pdfeditOK("strip", "attachments", in: dir)
        try pdfeditOK("strip", "thumbnails", in: dir)
        let refused = try pdfedit("strip", "javascript", "1", in: dir)
        #expect(refused.status == 64 && refused.stderr.contains("takes no selection"), "\(refused.stderr)")
        let wrongType = try pdfedit("strip", "links", "--type", "Text", in: dir)
        #expect(wrongType.status == 64, "\(wrongType.stderr)")
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        #expect(try run("pdfdetach", ["-list", out]).stdout.contains("0 embedded files"))
        let keys = try Scripted.keys(out)
        #expect(!keys.page.contains("/Thumb") && !keys.names.contains("/EmbeddedFiles"))
        #expect(try Finished.annotations(out) == [["Link", "Link", "Text"]])
    }

    @Test func annotationsByTypeLinksAndFields() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Scripted.make(in: dir)
        try pdfeditOK("strip", "annotations", "--type", "Text", input, "-o", "text.pdf", in: dir)
        #expect(try Finished.annotations(dir.appendingPathComponent("text.pdf").path) == [["Link", "Link"]])
        try pdfeditOK("strip", "annotations", input, "-o", "none.pdf", in: dir)
        #expect(try Finished.annotations(dir.appendingPathComponent("none.pdf").path) == [[]])
        // features.pdf: links on pages 1, 2 and 6; fields on 2 and 3.
        try pdfeditOK("strip", "links", "features.pdf", "-o", "nolinks.pdf", in: dir)
        let nolinks = dir.appendingPathComponent("nolinks.pdf").path
        try Finished.checkClean(nolinks)
        #expect(try Finished.annotations(nolinks) == [[], ["Widget"], ["Widget"], [], [], []])
        #expect(try Finished.fields(nolinks) == ["name", "agree"])
        try pdfeditOK("strip", "fields", "3", "features.pdf", "-o", "nofield3.pdf", in: dir)
        let nofield = dir.appendingPathComponent("nofield3.pdf").path
        try Finished.checkClean(nofield)
        #expect(try Finished.fields(nofield) == ["name"])
        #expect(try Finished.annotations(nofield) == [["Link"], ["Link", "Widget"], [], [], [], ["Link"]])
    }

    /// Highlights and their pop-ups go; the other comments stay (a corpus file
    /// with comments of five kinds), in a session, undone exactly.
    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus"))
    func corpusHighlightsWithTheirPopups() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let example = Paths.corpus("pypdf-example.pdf")
        #expect(try Finished.annotations(example) == [["Highlight", "Popup", "FileAttachment", "Stamp", "Popup", "Text", "Popup"]])
        try pdfeditOK("open", example, in: dir)
        try pdfeditOK("export", "before.pdf", in: dir)
        try pdfeditOK("strip", "annotations", "--type", "Highlight,FileAttachment", in: dir)
        let list = try pdfeditOK("list", "--no-text", in: dir).stdout
        #expect(list.contains("AT EXPORT") && list.contains("strip annotations --type Highlight,FileAttachment"))
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        // The source's own stray `#` in a name comes along as in any export: warnings, no error.
        #expect(try qpdfCheck(out).status != 2)
        #expect(try Finished.annotations(out) == [["Stamp", "Popup", "Text", "Popup"]])
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "after.pdf", in: dir)
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("after.pdf"))
                == Data(contentsOf: dir.appendingPathComponent("before.pdf")))
    }

    /// Tags go: no structure tree, no /MarkInfo, pdfinfo says untagged; the text stays.
    @Test func structureOfATaggedFile() throws {
        let dir = try scratchDirectory(with: "tagged.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        func tagged(_ file: String) throws -> String? {
            try run("pdfinfo", [file]).stdout.split(separator: "\n").first { $0.hasPrefix("Tagged:") }
                .map { $0.dropFirst(7).trimmingCharacters(in: .whitespaces) }
        }
        #expect(try tagged(Paths.fixture("tagged.pdf")) == "yes")
        try pdfeditOK("strip", "structure", "tagged.pdf", "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        try Finished.checkClean(out)
        #expect(try tagged(out) == "no")
        let keys = try Scripted.keys(out)
        #expect(!keys.catalog.contains("/StructTreeRoot") && !keys.catalog.contains("/MarkInfo"))
        #expect(!keys.page.contains("/StructParents"))
        #expect(try pageText(out, 1) == (try pageText(Paths.fixture("tagged.pdf"), 1)))
    }
}
