import Foundation
import Testing

/// Issue 15, the structure tree: a tagged input stays a tagged output after reorder,
/// remove, duplicate, rotate in place, a two-source session export and a split;
/// elements whose content is on removed pages are pruned, every marked-content id of
/// every output page and every numbered annotation resolves through the parent tree
/// (TaggedChecks.swift, on `qpdf --json`), role maps of two sources are merged.
@Suite struct LosslessStructureTests {
    /// The element types of the tagged fixture, in tree order.
    static let sourceTypes = ["/Document", "/Heading", "/P", "/Link", "/P", "/P", "/P", "/P", "/Para", "/Sect"]

    @Test("reverse all keeps every element, and every MCID and the link resolve")
    func reverseAll() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "out.pdf", in: dir)
        let out = try Self.checked(dir, "out.pdf", pages: 4)
        #expect(out.elementTypes == Self.sourceTypes)
        #expect(out.contentMCIDs == 8)
        #expect(out.numberedAnnotations == 1 && out.resolvedAnnotations == 1)
        // The link's structure destination (/SD) names the output's element.
        #expect(out.structureDestinations == 1)
        #expect(out.roleMap == ["/Heading": "/H1", "/Para": "/P"])
        #expect(out.classMapKeys == ["/Bold"])
        #expect(out.ids == ["h1", "link", "p2", "p4b", "span"])
        #expect(out.contentItemsByID["span"] == 2)
        // Each element still points at the page its content is on, now reversed.
        #expect(out.typesByPage[4] == ["/Heading", "/P", "/Link"])
        #expect(out.typesByPage[1] == ["/P", "/Para"])
    }

    @Test("remove 2: the element only on page 2 is gone, the one spanning pages 1 and 2 keeps one MCR")
    func removeSecondPage() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "2", "tagged.pdf", "-o", "out.pdf", in: dir)
        let out = try Self.checked(dir, "out.pdf", pages: 3)
        #expect(out.elementTypes == ["/Document", "/Heading", "/P", "/Link", "/P", "/P", "/P", "/Para", "/Sect"])
        #expect(out.contentItemsByID["span"] == 1)
        #expect(out.ids == ["h1", "link", "p4b", "span"])
        #expect(out.contentMCIDs == 6)
        #expect(out.resolvedAnnotations == 1)
    }

    @Test("remove 3: the link to page 3 goes, and with it its element (nothing left to hold)")
    func removeLinkTarget() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("remove", "3", "tagged.pdf", "-o", "out.pdf", in: dir)
        let out = try Self.checked(dir, "out.pdf", pages: 3)
        #expect(out.elementTypes == ["/Document", "/Heading", "/P", "/P", "/P", "/Para", "/Sect"])
        #expect(out.numberedAnnotations == 0)
        // Its ID went with it: the /IDTree holds kept elements only.
        #expect(out.ids == ["h1", "p2", "p4b", "span"])
    }

    @Test("move keeps the logical order of the source (not re-sorted by page order)")
    func move() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("move", "4", "--to", "1", "tagged.pdf", "-o", "out.pdf", in: dir)
        let out = try Self.checked(dir, "out.pdf", pages: 4)
        #expect(out.elementTypes == Self.sourceTypes)
        #expect(out.typesByPage[1] == ["/P", "/Para"])
        #expect(out.resolvedAnnotations == 1)
    }

    @Test("duplicate 1: the second copy of page 1 gets its own elements (a clone of its part of the tree)")
    func duplicate() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("duplicate", "1", "tagged.pdf", "-o", "out.pdf", in: dir)
        let out = try Self.checked(dir, "out.pdf", pages: 5)
        #expect(out.elementTypes == Self.sourceTypes + ["/Document", "/Heading", "/P", "/Link"])
        #expect(out.topLevel == ["/Document", "/Document"])
        #expect(out.contentMCIDs == 10)
        #expect(out.numberedAnnotations == 2 && out.resolvedAnnotations == 2)
        #expect(out.typesByPage[1] == ["/Heading", "/P", "/Link"])
        #expect(out.typesByPage[2] == ["/Heading", "/P", "/Link"])
        // A clone has no /ID: the IDs stay unique.
        #expect(out.ids == ["h1", "link", "p2", "p4b", "span"])
    }

    @Test("rotate --in-place keeps the whole tree")
    func rotateInPlace() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("rotate", "1", "--by", "90", "--in-place", "tagged.pdf", in: dir)
        let out = try Self.checked(dir, "tagged.pdf", pages: 4)
        #expect(out.elementTypes == Self.sourceTypes)
        #expect(out.resolvedAnnotations == 1)
    }

    @Test("a session of two tagged files: one root, sources in order, role maps merged, IDs unique")
    func twoSources() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "other.pdf", in: dir)
        try pdfeditOK("insert", "tagged.pdf", in: dir)
        try pdfeditOK("move", "3", "--to", "1", in: dir)
        let export = try pdfeditOK("export", "out.pdf", in: dir)
        #expect(!export.stderr.contains("structure tree"), "\(export.stderr)")
        let out = try Self.checked(dir, "out.pdf", pages: 6)
        // tagged.pdf's page 1 comes first: its elements first.
        #expect(out.topLevel == ["/Document", "/Document"])
        #expect(out.elementTypes == Self.sourceTypes + ["/Document", "/Heading_2", "/Para"])
        #expect(out.roleMap == ["/Heading": "/H1", "/Para": "/P", "/Heading_2": "/H2"])
        #expect(out.ids == ["h1", "h1_2", "link", "p2", "p4b", "span"])
        #expect(out.topLevelLanguages == ["", "de-DE"])
        #expect(out.contentMCIDs == 10)
        #expect(out.resolvedAnnotations == 1)
    }

    @Test("export --split: each part has its own pruned tree")
    func split() throws {
        let dir = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("export", "--split", "parts", "--from", "tagged.pdf", in: dir)
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).sorted()
        #expect(parts.count == 4)
        let expected = [
            ["/Document", "/Heading", "/P", "/Sect"], ["/Document", "/P", "/P", "/Sect"],
            ["/Document", "/P", "/P", "/Sect"], ["/Document", "/P", "/Para", "/Sect"],
        ]
        for (index, part) in parts.enumerated() {
            let out = try Self.checked(dir, "parts/\(part)", pages: 1)
            #expect(out.elementTypes == expected[index], "\(part)")
            #expect(out.contentMCIDs == 2, "\(part)")
        }
    }

    @Test("a tagged corpus file claiming PDF/A-3B and PDF/UA-1 keeps both claims after reverse all and remove 1",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func claimsStay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Paths.corpus("ocrmypdf-tagged.pdf")
        for (name, edit) in [("reversed.pdf", ["reverse", "all"]), ("removed.pdf", ["remove", "1"])] {
            let result = try pdfeditOK(args: edit + [source, "-o", name], in: dir)
            #expect(!result.stderr.contains("dropped"), "\(result.stderr)")
            let metadata = try run("pdfinfo", ["-meta", dir.appendingPathComponent(name).path]).stdout
            #expect(metadata.contains("<pdfaid:part>3</pdfaid:part>") && metadata.contains("<pdfaid:conformance>B</pdfaid:conformance>"), "\(name)")
            #expect(metadata.contains("<pdfuaid:part>1</pdfuaid:part>"), "\(name)")
            _ = try Self.checked(dir, name, pages: name == "reversed.pdf" ? 2 : 1)
        }
    }

    @Test("nup, booklet and resize of a tagged PDF/UA file: the claim is removed with a warning naming why",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func sheetsDropTheClaim() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Paths.corpus("ocrmypdf-tagged.pdf")
        for (name, edit) in [
            ("nup.pdf", ["nup", "all", "--grid", "2x1"]), ("booklet.pdf", ["booklet", "all"]),
            ("resized.pdf", ["resize", "1", "--to", "a4"]),
        ] {
            let result = try pdfeditOK(args: edit + [source, "-o", name], in: dir)
            #expect(result.stderr.contains("structure of pages placed on sheets or resized (ocrmypdf-tagged.pdf)"),
                    "\(name): \(result.stderr)")
            #expect(result.stderr.contains("PDF/UA-1 claim"), "\(name): \(result.stderr)")
            let metadata = try run("pdfinfo", ["-meta", dir.appendingPathComponent(name).path]).stdout
            #expect(!metadata.contains("pdfuaid:part"), "\(name) still claims PDF/UA")
            #expect(try qpdfCheck(dir.appendingPathComponent(name).path).status == 0, "\(name)")
        }
    }

    /// The copying export walks the tree (PDFEDIT_NO_APPEND; a remove would copy
    /// too); a reorder of the clean source is appended and keeps the source's
    /// tree as it is, its junk included: nothing read, nothing changed.
    @Test("cycles, elements listed twice and junk in /K are ignored: the tree is kept, nothing else changes")
    func hostileKids() throws {
        let dir = try Self.fixtures(sect: "/K [30 0 R 21 0 R 26 0 R (text) [1 2] null -3 << /Type /MCR /MCID -5 /Pg 3 0 R >> << /Type /OBJR /Obj 99 0 R >> << /Type /MCR /Pg 3 0 R >>]")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "out.pdf", in: dir, environment: ["PDFEDIT_NO_APPEND": "1"])
        #expect(!result.stderr.contains("structure tree"), "\(result.stderr)")
        let out = try Self.checked(dir, "out.pdf", pages: 4)
        #expect(out.elementTypes == Self.sourceTypes)
        let appended = try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "appended.pdf", in: dir)
        #expect(!appended.stderr.contains("structure tree"), "\(appended.stderr)")
        let source = try TaggedStructure(dir.appendingPathComponent("tagged.pdf").path)
        let kept = try TaggedStructure(dir.appendingPathComponent("appended.pdf").path)
        #expect(try Data(contentsOf: dir.appendingPathComponent("appended.pdf")).starts(with: Data(contentsOf: dir.appendingPathComponent("tagged.pdf"))))
        #expect(kept.elementTypes == source.elementTypes && kept.elementTypes == Self.sourceTypes)
        #expect(Set(kept.problems) == Set(source.problems) && !source.problems.isEmpty)
        #expect(kept.resolvedMCIDs == source.resolvedMCIDs && kept.contentMCIDs == source.contentMCIDs)
    }

    @Test("an MCID far beyond a page's others (1,000,000) does not make a parent-tree array of a million entries")
    func sparseMCID() throws {
        let dir = try Self.fixtures(sect: "/Pg 3 0 R /K [1000000]")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The copying export builds the parent tree (a reorder would be appended, the source's kept).
        try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "out.pdf", in: dir, environment: ["PDFEDIT_NO_APPEND": "1"])
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfCheck(out).status == 0)
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0
        #expect(size < 20_000, "\(size) bytes")
        // That page has no parent-tree entry; the others resolve.
        let tree = try TaggedStructure(out)
        #expect(tree.elementTypes == Self.sourceTypes)
        #expect(tree.resolvedMCIDs == 6 && tree.contentMCIDs == 8)
    }

    @Test("a tree 1,000 levels deep (within the limit) is kept, also with a 512 KiB stack (no recursion per level)")
    func deepWithinTheLimit() throws {
        let chain = (0..<1000).map { "<< /S /Div /K \($0 == 999 ? "<< /Type /MCR /Pg 6 0 R /MCID 0 >>" : "\($0 + 41) 0 R") >>" }
        let dir = try Self.fixtures(sect: "/K 40 0 R", extra: Dictionary(uniqueKeysWithValues: chain.enumerated().map { ($0.offset + 40, $0.element) }))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try run("sh", ["-c", "ulimit -s 512 && exec \"$0\" duplicate 4 tagged.pdf -o out.pdf", Paths.binary], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("structure tree"), "\(result.stderr)")
        // 10 + 1,000 elements, and the clone for the second copy of page 4:
        // /Document, its two paragraphs, /Sect and the chain.
        #expect(try TaggedStructure(dir.appendingPathComponent("out.pdf").path).elements == 1010 + 1004)
    }

    @Test("a tree deeper than PDFEDIT_MAX_DEPTH is dropped with a warning; the export succeeds")
    func tooDeep() throws {
        // /Sect holds a chain of 40 /Div elements, the last one page 4's first MCID
        // (so page 4's /P element no longer claims it).
        let chain = (0..<40).map { "<< /S /Div /K \($0 == 39 ? "<< /Type /MCR /Pg 6 0 R /MCID 0 >>" : "\($0 + 41) 0 R") >>" }
        let dir = try Self.fixtures(sect: "/K 40 0 R", extra: Dictionary(uniqueKeysWithValues: chain.enumerated().map { ($0.offset + 40, $0.element) }))
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "kept.pdf", in: dir)
        #expect(!kept.stderr.contains("structure tree"), "\(kept.stderr)")
        #expect(try TaggedStructure(dir.appendingPathComponent("kept.pdf").path).elements == 50)
        // Appended (the default for a reorder of a clean source), the tree is not
        // walked at all: kept whole whatever the limit.
        let appended = try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "appended.pdf", in: dir, environment: ["PDFEDIT_MAX_DEPTH": "20"])
        #expect(!appended.stderr.contains("structure tree"), "\(appended.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("appended.pdf")).starts(with: Data(contentsOf: dir.appendingPathComponent("tagged.pdf"))))
        #expect(try TaggedStructure(dir.appendingPathComponent("appended.pdf").path).elements == 50)
        let lowered = try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "out.pdf", in: dir, environment: ["PDFEDIT_MAX_DEPTH": "20", "PDFEDIT_NO_APPEND": "1"])
        #expect(lowered.stderrLines.contains { $0.hasSuffix("dropped document-level data that cannot follow pages: structure tree (tagged.pdf)") }, "\(lowered.stderr)")
        let out = try TaggedStructure(dir.appendingPathComponent("out.pdf").path)
        #expect(!out.hasTree && out.pages.count == 4)
        let json = try run("qpdf", ["--json=2", "--json-key=qpdf", dir.appendingPathComponent("out.pdf").path]).stdout
        #expect(!json.contains("/StructParent"))
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
    }

    @Test("marked content in a form XObject (an MCR with /Stm) resolves through the XObject's own /StructParents")
    func formXObject() throws {
        let form = "/P << /MCID 0 >> BDC BT /F1 12 Tf 72 300 Td (in a form) Tj ET EMC"
        let dir = try Self.fixtures(
            sect: "/K [<< /Type /MCR /Pg 6 0 R /Stm 50 0 R /MCID 0 >>]",
            extra: [
                6: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 10 0 R /Resources << /Font << /F1 11 0 R >> /XObject << /Fm1 50 0 R >> >> /StructParents 3 >>",
                10: Self.stream(
                    "/P << /MCID 0 >> BDC BT /F1 20 Tf 72 700 Td (page 4 item 0) Tj ET EMC\n/P << /MCID 1 >> BDC BT /F1 12 Tf 72 650 Td (page 4 item 1) Tj ET EMC\n/Fm1 Do\n"),
                50: "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 11 0 R >> >> /StructParents 5 /Length \(form.utf8.count) >>\nstream\n\(form)\nendstream",
                31: "<< /Nums [0 [22 0 R 23 0 R] 1 [23 0 R 25 0 R] 2 [26 0 R 27 0 R] 3 [28 0 R 29 0 R] 4 24 0 R 5 [30 0 R]] >>",
            ])
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("reverse", "all", "tagged.pdf", "-o", "reversed.pdf", in: dir)
        let reversed = try Self.checked(dir, "reversed.pdf", pages: 4)
        #expect(reversed.elementTypes == Self.sourceTypes)
        #expect(reversed.formMCIDs == 1 && reversed.resolvedFormMCIDs == 1)
        // Two copies of page 4 share the XObject: one number, the first instance.
        try pdfeditOK("duplicate", "4", "tagged.pdf", "-o", "twice.pdf", in: dir)
        let twice = try Self.checked(dir, "twice.pdf", pages: 5)
        #expect(twice.formMCIDs == 1 && twice.resolvedFormMCIDs == 1)
        #expect(twice.elementTypes == Self.sourceTypes + ["/Document", "/P", "/Para", "/Sect"])
        // Without page 4 the /Sect has nothing left: gone, and the XObject with it.
        try pdfeditOK("remove", "4", "tagged.pdf", "-o", "removed.pdf", in: dir)
        let removed = try Self.checked(dir, "removed.pdf", pages: 3)
        #expect(removed.elementTypes == ["/Document", "/Heading", "/P", "/Link", "/P", "/P", "/P"])
        #expect(removed.formMCIDs == 0)
    }

    // MARK: Checks

    /// The output's tree, after the checks every output passes: `qpdf --check`
    /// clean, pdfinfo "Tagged: yes", no page object besides its pages, nothing in the
    /// tree pointing elsewhere, every MCID and numbered annotation resolving.
    static func checked(_ dir: URL, _ name: String, pages: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> TaggedStructure {
        let path = dir.appendingPathComponent(name).path
        let check = try qpdfCheck(path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        let info = try run("pdfinfo", [path]).stdout
        let tagged = info.split(separator: "\n").first { $0.hasPrefix("Tagged:") }.map { $0.split(separator: " ").last }
        #expect(tagged == "yes", "\(info)", sourceLocation: sourceLocation)
        let tree = try TaggedStructure(path)
        #expect(tree.pages.count == pages, sourceLocation: sourceLocation)
        #expect(tree.pageObjects == pages, "orphan page objects", sourceLocation: sourceLocation)
        #expect(tree.problems == [], sourceLocation: sourceLocation)
        #expect(tree.resolvedMCIDs == tree.contentMCIDs, sourceLocation: sourceLocation)
        #expect(tree.resolvedAnnotations == tree.numberedAnnotations, sourceLocation: sourceLocation)
        #expect(tree.resolvedFormMCIDs == tree.formMCIDs, sourceLocation: sourceLocation)
        #expect(tree.strayElements == 0, sourceLocation: sourceLocation)
        return tree
    }

    // MARK: Fixtures

    /// A directory with tagged.pdf (4 pages, 10 elements: a /Document holding a
    /// heading (/Heading -> /H1, class /Bold), a paragraph spanning pages 1 and 2
    /// (two MCRs), a /Link element tied by OBJR to a link on page 1 that goes to
    /// page 3 (and to its first paragraph: a structure destination, /SD), a
    /// paragraph per other MCID, an empty /Sect; IDs h1, span, link, p2, p4b)
    /// and other.pdf (2 pages, /Lang de-DE, /Heading -> /H2: the same key as
    /// tagged.pdf's with another value, /Para -> /P the same; ID h1 again).
    /// `sect` replaces the /Sect element's own entries; `extra` adds objects to tagged.pdf.
    static func fixtures(sect: String = "", extra: [Int: String] = [:]) throws -> URL {
        let dir = try temporaryDirectory()
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
        func content(_ page: Int, marks: Int) -> String {
            (0..<marks).map { mcid in
                "/P << /MCID \(mcid) >> BDC BT /F1 \(20 - 8 * mcid) Tf 72 \(700 - 50 * mcid) Td (page \(page) item \(mcid)) Tj ET EMC\n"
            }.joined()
        }
        func page(_ contents: Int, _ number: Int, extra: String = "") -> String {
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents \(contents) 0 R /Resources << /Font << /F1 11 0 R >> >> /StructParents \(number) \(extra) >>"
        }
        var tagged: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 20 0 R /MarkInfo << /Marked true >> /Lang (en-GB) >>",
            2: "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 6 0 R] /Count 4 >>",
            3: page(7, 0, extra: "/Annots [12 0 R]"), 4: page(8, 1), 5: page(9, 2), 6: page(10, 3),
            11: font,
            12: "<< /Type /Annot /Subtype /Link /Rect [72 600 300 620] /Border [0 0 0] /A << /S /GoTo /D [5 0 R /Fit] /SD [26 0 R /Fit] >> /StructParent 4 >>",
            20: "<< /Type /StructTreeRoot /K [21 0 R] /ParentTree 31 0 R /ParentTreeNextKey 5 /RoleMap << /Heading /H1 /Para /P >> /ClassMap << /Bold << /O /Layout /FontWeight 700 >> >> /IDTree << /Names [(h1) 22 0 R (link) 24 0 R (p2) 25 0 R (p4b) 29 0 R (span) 23 0 R] >> >>",
            21: "<< /Type /StructElem /S /Document /P 20 0 R /K [22 0 R 23 0 R 24 0 R 25 0 R 26 0 R 27 0 R 28 0 R 29 0 R 30 0 R] >>",
            22: "<< /Type /StructElem /S /Heading /P 21 0 R /Pg 3 0 R /K 0 /ID (h1) /C /Bold /Alt (The heading) >>",
            23: "<< /Type /StructElem /S /P /P 21 0 R /ID (span) /K [<< /Type /MCR /Pg 3 0 R /MCID 1 >> << /Type /MCR /Pg 4 0 R /MCID 0 >>] >>",
            24: "<< /Type /StructElem /S /Link /P 21 0 R /Pg 3 0 R /K [<< /Type /OBJR /Obj 12 0 R /Pg 3 0 R >>] /ID (link) >>",
            25: "<< /Type /StructElem /S /P /P 21 0 R /Pg 4 0 R /K 1 /ID (p2) >>",
            26: "<< /Type /StructElem /S /P /P 21 0 R /Pg 5 0 R /K 0 >>",
            27: "<< /Type /StructElem /S /P /P 21 0 R /Pg 5 0 R /K [1] >>",
            28: "<< /Type /StructElem /S /P /P 21 0 R /Pg 6 0 R /K 0 >>",
            29: "<< /Type /StructElem /S /Para /P 21 0 R /Pg 6 0 R /K 1 /ID (p4b) >>",
            30: "<< /Type /StructElem /S /Sect /P 21 0 R \(sect) >>",
            31: "<< /Nums [0 [22 0 R 23 0 R] 1 [23 0 R 25 0 R] 2 [26 0 R 27 0 R] 3 [28 0 R 29 0 R] 4 24 0 R] >>",
        ]
        for index in 0..<4 { tagged[7 + index] = stream(content(index + 1, marks: 2)) }
        tagged.merge(extra) { $1 }
        try write(dir, "tagged.pdf", tagged)
        var other: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 20 0 R /MarkInfo << /Marked true >> /Lang (de-DE) >>",
            2: "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            3: page(7, 0), 4: page(8, 1), 11: font,
            20: "<< /Type /StructTreeRoot /K 21 0 R /ParentTree << /Nums [0 [22 0 R] 1 [23 0 R]] >> /ParentTreeNextKey 2 /RoleMap << /Heading /H2 /Para /P >> /IDTree << /Names [(h1) 22 0 R] >> >>",
            21: "<< /Type /StructElem /S /Document /P 20 0 R /K [22 0 R 23 0 R] >>",
            22: "<< /Type /StructElem /S /Heading /P 21 0 R /Pg 3 0 R /K 0 /ID (h1) >>",
            23: "<< /Type /StructElem /S /Para /P 21 0 R /Pg 4 0 R /K 0 >>",
        ]
        other[7] = stream(content(1, marks: 1))
        other[8] = stream(content(2, marks: 1))
        try write(dir, "other.pdf", other)
        return dir
    }

    static func stream(_ data: String) -> String {
        "<< /Length \(data.utf8.count) >>\nstream\n\(data)\nendstream"
    }

    /// Writes `objects` (number -> body) as a PDF; qpdf writes its cross-reference table.
    static func write(_ dir: URL, _ name: String, _ objects: [Int: String]) throws {
        var text = "%PDF-1.7\n"
        for number in objects.keys.sorted() { text += "\(number) 0 obj\n\(objects[number]!)\nendobj\n" }
        text += "trailer\n<< /Root 1 0 R /Size \((objects.keys.max() ?? 0) + 1) >>\n%%EOF\n"
        let raw = dir.appendingPathComponent("raw-\(name)")
        try Data(text.utf8).write(to: raw)
        let rebuilt = try run("qpdf", [raw.path, dir.appendingPathComponent(name).path])
        #expect(rebuilt.status == 0 || rebuilt.status == 3, "\(rebuilt.stderr)")
        try FileManager.default.removeItem(at: raw)
    }
}
