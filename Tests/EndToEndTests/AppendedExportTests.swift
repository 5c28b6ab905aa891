import Foundation
import Testing

/// An edit that keeps every page of one clean source once (reorder, rotate,
/// labels, bookmarks added) is written as the source's bytes, unchanged, plus an
/// incremental update. Its output must show the same document as copying
/// (`PDFEDIT_NO_IN_PLACE`), checked with qpdf, pdfinfo and pdftotext: pages,
/// their order, text and rotation, links on each page, bookmarks with their
/// target pages, page labels; and `qpdf --check` must pass. Edits that drop
/// something (pages, metadata, a bookmark) must not be written this way, since
/// what they drop would stay readable in the source's bytes.
@Suite struct AppendedExportTests {
    /// What independent tools see in a PDF.
    struct Seen: Equatable, CustomStringConvertible {
        var pages: Int
        var rotations: [String]
        var texts: [String]
        var annotations: [[String]]  // each page's, by subtype
        var outline: [String]  // depth, title, target page
        var labels: [String]

        var links: Int { annotations.joined().filter { $0 == "/Link" }.count }
        var description: String {
            "\(pages) pages, rotations \(rotations), \(links) links, \(outline.count) bookmarks, labels \(labels)"
        }
    }

    static func seen(_ file: String) throws -> Seen {
        let json = try run(
            "qpdf",
            ["--json", "--json-key=qpdf", "--json-key=pages", "--json-key=outlines", "--json-key=pagelabels", file])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
        let objects = (object["qpdf"] as? [Any])?.last as? [String: Any] ?? [:]
        func value(_ reference: Any?) -> Any? {
            guard let reference = reference as? String, reference.hasSuffix(" R") else { return reference }
            return (objects["obj:" + reference] as? [String: Any])?["value"]
        }
        let pages = object["pages"] as? [[String: Any]] ?? []
        // Each page's annotations by subtype, in order.
        let annotations = pages.map { page -> [String] in
            let dictionary = value(page["object"]) as? [String: Any] ?? [:]
            let annots = value(dictionary["/Annots"]) as? [Any] ?? []
            return annots.map { ((value($0) as? [String: Any])?["/Subtype"] as? String) ?? "?" }
        }
        var outline: [String] = []
        func walk(_ entries: [[String: Any]], depth: Int) {
            for entry in entries {
                outline.append("\(depth) \(entry["title"] ?? "") -> \(entry["destpageposfrom1"] ?? "none")")
                walk(entry["kids"] as? [[String: Any]] ?? [], depth: depth + 1)
            }
        }
        walk(object["outlines"] as? [[String: Any]] ?? [], depth: 0)
        let labels = try (object["pagelabels"] as? [[String: Any]] ?? []).map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
        let info = try run("pdfinfo", ["-f", "1", "-l", "\(pages.count)", file]).stdout
        let rotations = info.split(separator: "\n").filter { $0.contains(" rot:") }.map {
            String($0.split(separator: " ").last ?? "")
        }
        let text = try run("pdftotext", ["-layout", file, "-"]).stdout
        return Seen(
            pages: pages.count, rotations: rotations, texts: text.components(separatedBy: "\u{0C}"),
            annotations: annotations, outline: outline, labels: labels)
    }

    /// Runs `edit` on `file` (in `dir`) both ways; returns the default output's
    /// bytes, what is seen in each, and whether the default output begins with
    /// the source's bytes.
    static func bothWays(_ edit: [String], file: URL, in dir: URL) throws -> (
        appended: Bool, output: Data, fast: Seen, copied: Seen
    ) {
        let fast = dir.appendingPathComponent("fast-\(UUID().uuidString).pdf")
        let slow = dir.appendingPathComponent("slow-\(UUID().uuidString).pdf")
        defer {
            try? FileManager.default.removeItem(at: fast)
            try? FileManager.default.removeItem(at: slow)
        }
        let a = try pdfedit(args: edit + [file.path, "-o", fast.path], in: dir)
        let b = try pdfedit(
            args: edit + [file.path, "-o", slow.path], in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])
        #expect(a.status == 0 && b.status == 0, "\(edit) \(file.lastPathComponent): \(a.stderr) \(b.stderr)")
        #expect(a.stderr == b.stderr, "\(edit) \(file.lastPathComponent): the same warnings either way")
        let source = try Data(contentsOf: file)
        let output = try Data(contentsOf: fast)
        let check = try qpdfCheck(fast.path)
        #expect(check.status == 0, "\(edit) \(file.lastPathComponent): \(check.stdout) \(check.stderr)")
        return (output.starts(with: source), output, try seen(fast.path), try seen(slow.path))
    }

    static let edits: [[String]] = [
        ["rotate", "even", "--by", "90"], ["move", "2", "--to", "1"], ["reverse", "all"],
        ["labels", "1:r", "2:D/10/P-"], ["outline", "add", "Added here", "2"],
    ]

    @Test(arguments: [
        "alpha.pdf", "gamma.pdf", "rotated.pdf", "sizes.pdf", "odd-rotate.pdf", "features.pdf",
    ])
    func sameDocumentAsCopying(fixture: String) throws {
        let dir = try scratchDirectory(with: fixture)
        defer { try? FileManager.default.removeItem(at: dir) }
        for edit in Self.edits {
            let result = try Self.bothWays(edit, file: dir.appendingPathComponent(fixture), in: dir)
            #expect(result.appended, "\(fixture) \(edit): written as an appended update")
            #expect(result.fast == result.copied, "\(fixture) \(edit)")
        }
    }

    /// Real documents: links, bookmarks, labels, forms, linearized files, object
    /// and cross-reference streams, deep page trees.
    static let books = [
        "tbt-TeXbyTopic.pdf", "pdfjs-freeculture.pdf", "pdfjs-tracemonkey.pdf", "pdfjs-TAMReview.pdf",
        "pdfjs-labelled_pages.pdf", "sample-pdflatex-outline.pdf", "plumber-pdffill-demo.pdf", "qpdf-to-rotate.pdf",
        "pdfjs-sizes.pdf", "pdfjs-issue8088.pdf",
    ]

    @Test(
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
        arguments: books)
    func sameDocumentAsCopyingForRealDocuments(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
        for edit in [["rotate", "even", "--by", "90"], ["move", "2", "--to", "1"]] {
            let result = try Self.bothWays(edit, file: file, in: dir)
            #expect(result.appended, "\(name) \(edit): written as an appended update")
            #expect(result.fast == result.copied, "\(name) \(edit)")
            if name == "tbt-TeXbyTopic.pdf" {
                #expect(result.fast.links > 2000, "the book's links are all there")
                #expect(result.fast.outline.count > 500, "and its bookmarks")
            }
        }
    }

    /// A scratch folder holding the tagged source `name` ("tagged fixture", or a
    /// corpus file: nil where ../shared is absent) and the file's URL in it.
    static func taggedSource(_ name: String) throws -> (URL, URL)? {
        if name == "tagged fixture" {
            let dir = try LosslessStructureTests.fixtures()
            return (dir, dir.appendingPathComponent("tagged.pdf"))
        }
        guard Paths.corpusAvailable else {
            print("\(name): ../shared/corpus is absent (fresh clone), skipped")
            return nil
        }
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
        return (dir, file)
    }

    /// A tagged source is appended too: its pages stay the objects they were, so
    /// the structure tree, every /StructParents number and the parent tree stay
    /// right unread. What qpdf, pdfinfo and pdftotext see is what copying gives,
    /// and the tree (TaggedChecks, on qpdf --json) is the source's: every element,
    /// every marked-content id and numbered annotation resolving as before.
    @Test(arguments: ["tagged fixture", "plumber-chelsea_pdta.pdf"])
    func taggedSourcesKeepTheirTree(name: String) throws {
        guard let (dir, file) = try Self.taggedSource(name) else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try TaggedStructure(file.path)
        #expect(source.hasTree && source.elements > 5)
        for edit in [["reverse", "all"], ["rotate", "even", "--by", "90"]] {
            let result = try Self.bothWays(edit, file: file, in: dir)
            #expect(result.appended, "\(name) \(edit): written as an appended update")
            #expect(result.fast == result.copied, "\(name) \(edit)")
            let out = dir.appendingPathComponent("tree.pdf")
            try pdfeditOK(args: edit + [file.path, "-o", out.path, "--force"], in: dir)
            let tree = try TaggedStructure(out.path)
            #expect(tree.elementTypes == source.elementTypes && tree.roleMap == source.roleMap, "\(name) \(edit)")
            #expect(tree.resolvedMCIDs == source.resolvedMCIDs && tree.contentMCIDs == source.contentMCIDs, "\(name) \(edit)")
            #expect(tree.resolvedAnnotations == source.resolvedAnnotations, "\(name) \(edit)")
            #expect(Set(tree.problems) == Set(source.problems), "\(name) \(edit)")
        }
    }

    /// A page used more than once (duplicate, the file inserted into itself)
    /// keeps every page too: its first placement is the page object itself, each
    /// further one a new page object sharing its content, with new annotation
    /// objects. The same document as copying, links included.
    @Test(arguments: ["alpha.pdf", "gamma.pdf", "rotated.pdf", "sizes.pdf", "odd-rotate.pdf", "features.pdf"])
    func repeatedPagesAreAppendedToo(fixture: String) throws {
        let dir = try scratchDirectory(with: fixture)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(fixture)
        // features.pdf: page 1 has a link; its page 2 a form field (copied, below).
        let edits = [["duplicate", "1"]]
            + (fixture == "features.pdf"
                ? [] : [["insert", file.path, "--at", "last"], ["duplicate", "all"], ["duplicate", "odd"]])
        for edit in edits {
            let result = try Self.bothWays(edit, file: file, in: dir)
            #expect(result.appended, "\(fixture) \(edit): written as an appended update")
            #expect(result.fast == result.copied, "\(fixture) \(edit)")
            #expect(result.fast.pages > (try qpdfPageCount(file.path) ?? 0), "\(fixture) \(edit)")
        }
    }

    @Test(
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"),
        arguments: ["tbt-TeXbyTopic.pdf", "pdfjs-freeculture.pdf", "pdfjs-TAMReview.pdf", "pdfjs-labelled_pages.pdf"])
    func realDocumentsInsertedIntoThemselves(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
        let source = try Self.seen(file.path)
        let result = try Self.bothWays(["insert", file.path, "--at", "last"], file: file, in: dir)
        #expect(result.appended, "\(name): written as an appended update")
        #expect(result.fast == result.copied, "\(name)")
        #expect(result.fast.pages == 2 * source.pages && result.fast.links == 2 * source.links, "\(name)")
        if name == "tbt-TeXbyTopic.pdf" {
            // After a cross-reference stream the update's objects are packed in
            // compressed object streams: written loose they made the output 1.5x
            // the source's size.
            let size = try Data(contentsOf: file).count
            #expect(result.output.count < size * 5 / 4, "\(result.output.count) bytes, the source \(size)")
            #expect(String(decoding: result.output.dropFirst(size), as: UTF8.self).contains("/Type /ObjStm"))
        }
        #expect(Array(result.fast.texts.prefix(source.pages)) == Array(source.texts.prefix(source.pages)))
    }

    /// A repeated page's annotations are its own objects: /P its page, a popup's
    /// /Parent and a markup's /Popup the twin on the same page (read by qpdf).
    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (fresh clone): corpus tests skipped"))
    func twinsHaveTheirOwnAnnotations() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("popups.pdf")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus("pypdf-example.pdf")), to: file)
        let out = dir.appendingPathComponent("out.pdf")
        try pdfeditOK("duplicate", "1", file.path, "-o", out.path, in: dir)
        #expect(try Data(contentsOf: out).starts(with: Data(contentsOf: file)), "appended")
        // The source's own warning (a name with a stray #) and nothing more.
        let check = try qpdfCheck(out.path)
        #expect(check.status == 0 || check.stderr.split(separator: "\n").allSatisfy {
            $0.contains("stray #") || $0.hasPrefix("qpdf: operation succeeded") }, "\(check.stderr)")
        let json = try run("qpdf", ["--json", "--json-key=qpdf", "--json-key=pages", out.path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
        let objects = (object["qpdf"] as? [Any])?.last as? [String: Any] ?? [:]
        func value(_ reference: Any?) -> Any? {
            guard let reference = reference as? String, reference.hasSuffix(" R") else { return reference }
            return (objects["obj:" + reference] as? [String: Any])?["value"]
        }
        func dictionary(_ reference: Any?) -> [String: Any] { value(reference) as? [String: Any] ?? [:] }
        let pages = (object["pages"] as? [[String: Any]] ?? []).compactMap { $0["object"] as? String }
        try #require(pages.count == 2)
        let annots = pages.map { page in (value(dictionary(page)["/Annots"]) as? [String] ?? []) }
        #expect(annots[0].count == 7 && annots[1].count == 7)
        #expect(Set(annots[0]).isDisjoint(with: annots[1]), "each page its own annotation objects")
        for (page, references) in zip(pages, annots) {
            var popups = 0
            for reference in references {
                let annot = dictionary(reference)
                if annot["/Subtype"] as? String != "/Popup" || page == pages[1] {
                    #expect(annot["/P"] as? String == page, "\(reference) on \(page)")
                }
                for key in ["/Popup", "/Parent"] {
                    if let sibling = annot[key] as? String {
                        #expect(references.contains(sibling), "\(reference) \(key) \(sibling) on the same page")
                        popups += 1
                    }
                }
            }
            #expect(popups == 6, "3 markups and their popups on \(page)")
        }
        // The same rendering as the source page.
        let first = try run("pdftoppm", ["-r", "30", "-f", "1", "-l", "1", "-gray", out.path]).stdout
        let second = try run("pdftoppm", ["-r", "30", "-f", "2", "-l", "2", "-gray", out.path]).stdout
        #expect(!first.isEmpty && first == second)
    }

    /// A tagged source with a page used again: the further placements get their
    /// content's structure cloned (copying's instance k), with new numbers in the
    /// parent tree. The tree read by TaggedChecks (on qpdf --json) is copying's:
    /// the same elements in the same order, every marked-content id and numbered
    /// annotation of the twins resolving, no problem the source did not have.
    @Test(arguments: ["tagged fixture", "plumber-chelsea_pdta.pdf"])
    func taggedTwinsGetTheirStructure(name: String) throws {
        guard let (dir, file) = try Self.taggedSource(name) else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try TaggedStructure(file.path)
        #expect(source.hasTree && source.contentMCIDs > 0)
        for edit in [["duplicate", "1"], ["insert", file.path, "--at", "last"], ["duplicate", "odd"]] {
            let fast = dir.appendingPathComponent("fast.pdf")
            let slow = dir.appendingPathComponent("slow.pdf")
            let a = try pdfedit(args: edit + [file.path, "-o", fast.path, "--force"], in: dir)
            let b = try pdfedit(
                args: edit + [file.path, "-o", slow.path, "--force"], in: dir,
                environment: ["PDFEDIT_NO_IN_PLACE": "1"])
            try #require(a.status == 0 && b.status == 0, "\(name) \(edit): \(a.stderr) \(b.stderr)")
            #expect(a.stderr == b.stderr, "\(name) \(edit)")
            #expect(try Data(contentsOf: fast).starts(with: Data(contentsOf: file)), "\(name) \(edit): appended")
            let check = try qpdfCheck(fast.path)
            #expect(check.status == 0, "\(name) \(edit): \(check.stderr)")
            #expect(try Self.seen(fast.path) == Self.seen(slow.path), "\(name) \(edit)")
            let tree = try TaggedStructure(fast.path)
            let copied = try TaggedStructure(slow.path)
            #expect(tree.elementTypes == copied.elementTypes, "\(name) \(edit): \(tree.elements) elements, copying \(copied.elements)")
            #expect(tree.elements > source.elements, "\(name) \(edit): clones added")
            #expect(tree.contentMCIDs == copied.contentMCIDs && tree.resolvedMCIDs == copied.resolvedMCIDs,
                "\(name) \(edit): MCIDs \(tree.resolvedMCIDs)/\(tree.contentMCIDs), copying \(copied.resolvedMCIDs)/\(copied.contentMCIDs)")
            #expect(tree.resolvedMCIDs - source.resolvedMCIDs == tree.contentMCIDs - source.contentMCIDs,
                "\(name) \(edit): every MCID of the twins resolves")
            #expect(tree.numberedAnnotations == copied.numberedAnnotations
                && tree.resolvedAnnotations == copied.resolvedAnnotations, "\(name) \(edit)")
            #expect(Set(tree.problems) == Set(source.problems), "\(name) \(edit): \(tree.problems.prefix(3))")
            #expect(tree.strayElements == 0, "\(name) \(edit)")
        }
    }

    /// The twins' new /StructParents numbers go above the parent tree's and its
    /// /ParentTreeNextKey; a tree declaring numbers near PDF's largest integer
    /// (2^31 - 1) leaves no room for them, so such a source is copied (copying
    /// renumbers the tree), while the same tree with a small next key is appended.
    @Test(arguments: [(5, true), (4_000_000_000, false)])
    func parentTreeWithoutRoomIsCopied(nextKey: Int, appended: Bool) throws {
        let root = "<< /Type /StructTreeRoot /K [21 0 R] /ParentTree 31 0 R /ParentTreeNextKey \(nextKey) >>"
        let dir = try LosslessStructureTests.fixtures(extra: [20: root])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tagged.pdf")
        let out = dir.appendingPathComponent("out.pdf")
        try pdfeditOK("duplicate", "1", file.path, "-o", out.path, in: dir)
        #expect(try Data(contentsOf: out).starts(with: Data(contentsOf: file)) == appended, "next key \(nextKey)")
        #expect(try qpdfCheck(out.path).status == 0)
        let tree = try TaggedStructure(out.path)
        #expect(tree.resolvedMCIDs == tree.contentMCIDs && tree.contentMCIDs == 10, "\(tree.resolvedMCIDs)/\(tree.contentMCIDs)")
    }

    /// The update's cross-reference section is of the kind the file's last one
    /// is: a stream after a stream (TeXbyTopic), a table after a table.
    @Test func crossReferenceOfTheSameKind() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        var files = [dir.appendingPathComponent("alpha.pdf")]
        if Paths.corpusAvailable {
            let book = dir.appendingPathComponent("book.pdf")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus("tbt-TeXbyTopic.pdf")), to: book)
            files.append(book)
        }
        for file in files {
            let out = dir.appendingPathComponent("out.pdf")
            try pdfeditOK("rotate", "1", "--by", "90", file.path, "-o", out.path, "--force", in: dir)
            let source = try Data(contentsOf: file)
            let output = try Data(contentsOf: out)
            #expect(output.starts(with: source))
            let update = String(decoding: output.dropFirst(source.count), as: UTF8.self)
            let sourceTail = String(decoding: source.suffix(4096), as: UTF8.self)
            let sourceUsesStream = !sourceTail.contains("\ntrailer") && !sourceTail.contains("\rtrailer")
            #expect(update.contains("/Type /XRef") == sourceUsesStream, "\(file.lastPathComponent)")
            #expect(update.contains("\nxref\n") == !sourceUsesStream, "\(file.lastPathComponent)")
            // The update's /Prev is the source's last startxref.
            let last = sourceTail.components(separatedBy: "startxref").last ?? ""
            let previous = last.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? "?"
            #expect(update.contains("/Prev \(previous) "), "\(file.lastPathComponent): /Prev \(previous)")
            #expect(try qpdfCheck(out.path).status == 0)
            #expect(try run("pdfinfo", ["-f", "1", "-l", "1", out.path]).stdout.contains(try Regex(#"rot:\s+90\b"#)))
        }
    }

    /// An update appended to a file that already has one: the chain of /Prev
    /// holds, and each edit shows.
    @Test func updateOfAnUpdate() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.pdf")
        let second = dir.appendingPathComponent("second.pdf")
        try pdfeditOK("move", "3", "--to", "1", "alpha.pdf", "-o", first.path, in: dir)
        try pdfeditOK("rotate", "1", "--by", "180", first.path, "-o", second.path, in: dir)
        #expect(try Data(contentsOf: second).starts(with: Data(contentsOf: first)))
        #expect(try qpdfCheck(second.path).status == 0)
        let tokens = try pageTokens(second)
        let original = try pageTokens(dir.appendingPathComponent("alpha.pdf"))
        #expect(tokens == [original[2], original[0], original[1]] + original.dropFirst(3))
        #expect(try run("pdfinfo", ["-f", "1", "-l", "1", second.path]).stdout.contains(try Regex(#"rot:\s+180\b"#)))
        // Deterministic: the same edit gives the same bytes; the first /ID stays the source's.
        let again = dir.appendingPathComponent("again.pdf")
        try pdfeditOK("rotate", "1", "--by", "180", first.path, "-o", again.path, in: dir)
        #expect(try Data(contentsOf: again) == Data(contentsOf: second))
        let id = try run("qpdf", ["--show-object=trailer", first.path]).stdout
        let idAfter = try run("qpdf", ["--show-object=trailer", second.path]).stdout
        let firstID = { (text: String) in text.components(separatedBy: "/ID [ ").last?.split(separator: " ").first }
        #expect(firstID(id) != nil && firstID(id) == firstID(idAfter))
    }

    /// Edits that drop something, and sources the update cannot be appended to,
    /// are copied: the output does not begin with the source's bytes.
    @Test func notForWhatDropsSomethingOrCannotBeTrusted() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "encrypted.pdf", "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A damaged source qpdf recovers from (its startxref points nowhere), and
        // one whose open action runs JavaScript (dropped by default, which an
        // update could not do).
        let alpha = try Data(contentsOf: dir.appendingPathComponent("alpha.pdf"))
        let startxref = try #require(alpha.range(of: Data("startxref".utf8), options: .backwards))
        try (alpha[..<startxref.upperBound] + Data("\n12\n%%EOF\n".utf8)).write(
            to: dir.appendingPathComponent("damaged.pdf"))
        let qdf = dir.appendingPathComponent("qdf.pdf")
        try #require(try run("qpdf", ["--qdf", "--object-streams=disable", "alpha.pdf", qdf.path], in: dir).status == 0)
        var scripted = try Data(contentsOf: qdf)
        let catalog = try #require(scripted.range(of: Data("/Type /Catalog".utf8)))
        scripted.replaceSubrange(
            catalog, with: Data("/Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>".utf8))
        try scripted.write(to: qdf)
        let fixed = try run("sh", ["-c", "fix-qdf qdf.pdf > scripted.pdf"], in: dir)
        try #require(fixed.status == 0, "\(fixed.stderr)")
        let cases: [(edit: [String], file: String, why: String)] = [
            (["remove", "2"], "alpha.pdf", "a removed page would stay readable"),
            (["meta", "--title", "New"], "alpha.pdf", "the old title would stay readable"),
            (["duplicate", "2"], "features.pdf", "a page with a form field used twice (copying rebuilds the fields)"),
            (["crop", "1", "--margins", "10"], "alpha.pdf", "boxes are written on copies"),
            (["rotate", "1", "--by", "90"], "damaged.pdf", "a damaged source"),
            (["rotate", "1", "--by", "90"], "scripted.pdf", "JavaScript the output drops"),
        ]
        for (edit, file, why) in cases {
            let out = dir.appendingPathComponent("out.pdf")
            let result = try pdfedit(args: edit + [file, "-o", out.path, "--force"], in: dir)
            #expect(result.status == 0, "\(edit) \(file): \(result.stderr)")
            #expect(try qpdfCheck(out.path).status == 0, "\(edit) \(file)")
            let source = try Data(contentsOf: dir.appendingPathComponent(file))
            #expect(!(try Data(contentsOf: out)).starts(with: source), "\(edit) \(file): \(why)")
        }
        // A cross-reference entry pointing at offset 0, met only when the object
        // is read (qpdf --check does): an update would keep it, copying leaves the
        // unused object out.
        if Paths.corpusAvailable {
            for name in ["pdfjs-annotation-link-text-popup.pdf", "pdfjs-issue918.pdf"] {
                let file = dir.appendingPathComponent(name)
                try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.corpus(name)), to: file)
                #expect(try qpdfCheck(file.path).stderr.contains("offset 0"), "\(name): the damage is there")
                let out = dir.appendingPathComponent("out.pdf")
                let result = try pdfedit(args: ["rotate", "1", "--by", "90", name, "-o", out.path, "--force"], in: dir)
                #expect(result.status == 0, "\(name): \(result.stderr)")
                #expect(!(try Data(contentsOf: out)).starts(with: try Data(contentsOf: file)), "\(name): copied")
                #expect(try qpdfCheck(out.path).status == 0, "\(name)")
            }
        }
        // A removed bookmark: its title must not be in the output at all.
        let outlined = dir.appendingPathComponent("outlined.pdf")
        try pdfeditOK("outline", "add", "Secret chapter", "2", "alpha.pdf", "-o", outlined.path, in: dir)
        #expect(try Data(contentsOf: outlined).starts(with: Data(contentsOf: dir.appendingPathComponent("alpha.pdf"))))
        let cleared = dir.appendingPathComponent("cleared.pdf")
        try pdfeditOK("outline", "remove", "Secret chapter", outlined.path, "-o", cleared.path, in: dir)
        let bytes = try Data(contentsOf: cleared)
        #expect(!bytes.starts(with: try Data(contentsOf: outlined)))
        // The appended output holds the title in plain bytes, so the look for it
        // below would find it had the removal been appended too.
        #expect(String(decoding: try Data(contentsOf: outlined), as: UTF8.self).contains("Secret chapter"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Secret chapter"))
        // An encrypted source keeps its encryption in direct mode: copied.
        let encrypted = dir.appendingPathComponent("enc-out.pdf")
        try pdfeditOK("rotate", "1", "--by", "90", "encrypted.pdf", "-o", encrypted.path, "--password", "secret", in: dir)
        let source = try Data(contentsOf: dir.appendingPathComponent("encrypted.pdf"))
        #expect(!(try Data(contentsOf: encrypted)).starts(with: source))
        #expect(try run("qpdf", ["--requires-password", encrypted.path]).status == 0, "still encrypted")
    }

    /// --in-place and standard input take the appended path too and give the same pages.
    @Test func inPlaceAndStandardInput() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("alpha.pdf")
        let before = try Data(contentsOf: file)
        let tokens = try pageTokens(file)
        try pdfeditOK("reverse", "all", "alpha.pdf", "--in-place", in: dir)
        let after = try Data(contentsOf: file)
        #expect(after.starts(with: before) && after.count > before.count)
        #expect(try pageTokens(file) == tokens.reversed())
        #expect(try qpdfCheck(file.path).status == 0)
    }
}
