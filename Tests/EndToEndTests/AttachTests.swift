import Foundation
import Testing

/// `pdfedit attach` (issue 43 §2): attachments added, listed, extracted and
/// removed in a session (undo gives back exactly what was there), in direct mode
/// and in `apply`; checked with pdfdetach, pikepdf and qpdf --check.
@Suite struct AttachTests {
    /// `pdfdetach -list`: the names of the embedded files (catalog and annotations).
    func detachNames(_ file: URL) throws -> [String] {
        let listed = try run("pdfdetach", ["-list", file.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        return listed.stdout.split(separator: "\n").dropFirst().map { line in
            String(line[line.index(after: line.firstIndex(of: ":")!)...].dropFirst())
        }
    }

    /// `pdfdetach -saveall` into a new folder: file name → bytes.
    func detachAll(_ file: URL) throws -> [String: Data] {
        let folder = file.deletingLastPathComponent().appendingPathComponent("saveall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = try run("pdfdetach", ["-saveall", "-o", folder.path, file.path])
        #expect(saved.status == 0, "\(saved.stderr)")
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    func expectChecked(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try qpdfCheck(file.path)
        #expect(check.status == 0, "qpdf --check \(file.lastPathComponent): \(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
    }

    /// Runs a pikepdf script on `file` (argv[1]) and returns its stdout as JSON.
    func pikepdf(_ script: String, _ file: URL) throws -> Any {
        let result = try run("python3", ["-c", "import pikepdf, hashlib, json, sys\n" + script, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// What pikepdf reads of every embedded file of the name tree and of /AF.
    static let describeFiles = """
        p = pikepdf.open(sys.argv[1])
        out = {"files": {}, "af": [], "annots": []}
        names = p.Root.get('/Names')
        if names is not None and '/EmbeddedFiles' in names:
            for name, fs in pikepdf.NameTree(names.EmbeddedFiles).items():
                ef = fs.EF.F
                data = ef.read_bytes()
                out["files"][name] = {"rel": str(fs.get('/AFRelationship', '')), "desc": str(fs.get('/Desc', '')),
                    "subtype": str(ef.get('/Subtype', '')), "size": int(ef.Params.Size),
                    "checksum": bytes(ef.Params.CheckSum).hex(), "md5": hashlib.md5(data).hexdigest(),
                    "moddate": str(ef.Params.get('/ModDate', '')), "uf": str(fs.UF)}
        for fs in p.Root.get('/AF', []):
            out["af"].append(str(fs.UF))
        for n, page in enumerate(p.pages):
            for a in page.get('/Annots', []):
                if a.get('/Subtype') == '/FileAttachment':
                    out["annots"].append({"page": n + 1, "name": str(a.FS.UF), "data": a.FS.EF.F.read_bytes().decode()})
        print(json.dumps(out))
        """

    func sessionDocuments(_ directory: URL) throws -> String {
        let data = try Data(contentsOf: directory.appendingPathComponent(".pdfedit/session.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let documents = try JSONSerialization.data(withJSONObject: object?["documents"] ?? [], options: [.sortedKeys])
        return String(decoding: documents, as: UTF8.self)
    }

    @Test func sessionAddListExportExtractRemoveAndUndo() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let invoice = dir.appendingPathComponent("invoice.xml")
        let original = Data("<invoice total=\"12.50\"/>\n".utf8)
        try original.write(to: invoice)
        try Data("reviewer notes\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let opened = try sessionDocuments(dir)
        try pdfeditOK(
            "attach", "add", "invoice.xml", "--relationship", "Data", "--description", "Factur-X data", in: dir)
        try pdfeditOK("attach", "add", "notes.txt", "--page", "2", in: dir)
        // The bytes were captured at add time: a later change of the file changes no export.
        try Data("changed afterwards".utf8).write(to: invoice)

        let listed = try pdfeditOK("attach", "list", "--json", in: dir)
        let infos = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(infos.map { $0["name"] as? String } == ["invoice.xml", "notes.txt"])
        #expect(infos[0]["relationship"] as? String == "Data")
        #expect(infos[0]["mimeType"] as? String == "application/xml")
        #expect(infos[0]["size"] as? Int == original.count)
        #expect(infos[0]["page"] is NSNull)
        #expect(infos[1]["page"] as? Int == 2)

        // A taken name is refused (64), nothing changes.
        let before = try sessionDocuments(dir)
        let again = try pdfedit("attach", "add", "notes.txt", in: dir)
        #expect(again.status == 64)
        #expect(again.stderr.contains("already has an attachment named \"notes.txt\""))
        #expect(try sessionDocuments(dir) == before)

        // The page-level file moves with its page.
        try pdfeditOK("move", "2", "--to", "1", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        try pdfeditOK("export", "out.pdf", in: dir)
        try expectChecked(out)
        #expect(try detachNames(out).sorted() == ["invoice.xml", "notes.txt"])
        #expect(try detachAll(out)["invoice.xml"] == original)
        let facts = try #require(try pikepdf(Self.describeFiles, out) as? [String: Any])
        let files = try #require(facts["files"] as? [String: [String: Any]])
        let file = try #require(files["invoice.xml"])
        #expect(file["rel"] as? String == "/Data")
        #expect(file["desc"] as? String == "Factur-X data")
        #expect(file["subtype"] as? String == "/application/xml")
        #expect(file["size"] as? Int == original.count)
        #expect(file["checksum"] as? String == file["md5"] as? String)
        #expect((file["moddate"] as? String)?.hasPrefix("D:") == true)
        #expect(files["notes.txt"] == nil)  // page level: an annotation, not the name tree
        #expect(facts["af"] as? [String] == ["invoice.xml"])
        let annotations = try #require(facts["annots"] as? [[String: Any]])
        #expect(annotations.count == 1)
        #expect(annotations.first?["page"] as? Int == 1)
        #expect(annotations.first?["data"] as? String == "reviewer notes\n")

        // Extraction writes the captured bytes; an existing file needs --force (73).
        let extracted = dir.appendingPathComponent("extracted")
        try pdfeditOK("attach", "extract", "--to", "extracted", in: dir)
        #expect(try Data(contentsOf: extracted.appendingPathComponent("invoice.xml")) == original)
        #expect(try String(contentsOf: extracted.appendingPathComponent("notes.txt"), encoding: .utf8) == "reviewer notes\n")
        try Data("mine".utf8).write(to: extracted.appendingPathComponent("invoice.xml"))
        let refused = try pdfedit("attach", "extract", "invoice.xml", "--to", "extracted", in: dir)
        #expect(refused.status == 73)
        #expect(try Data(contentsOf: extracted.appendingPathComponent("invoice.xml")) == Data("mine".utf8))
        try pdfeditOK("attach", "extract", "invoice.xml", "--to", "extracted", "--force", in: dir)
        #expect(try Data(contentsOf: extracted.appendingPathComponent("invoice.xml")) == original)

        // The session's copy of the bytes is its own file: no output replaces it, --force or not.
        let store = dir.appendingPathComponent(".pdfedit/session.json.attachments")
        let kept = try #require(
            try FileManager.default.contentsOfDirectory(atPath: store.path).first { name in
                (try? Data(contentsOf: store.appendingPathComponent(name))) == original
            })
        let attributes = try FileManager.default.attributesOfItem(atPath: store.appendingPathComponent(kept).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let overStore = try pdfedit(
            "export", ".pdfedit/session.json.attachments/\(kept)", "--force", in: dir)
        #expect(overStore.status == 73, "\(overStore.stderr)")
        #expect(try Data(contentsOf: store.appendingPathComponent(kept)) == original)

        // Remove, export, undo: exactly what was there.
        try pdfeditOK("attach", "remove", "invoice.xml", in: dir)
        try pdfeditOK("export", "out2.pdf", in: dir)
        let out2 = dir.appendingPathComponent("out2.pdf")
        try expectChecked(out2)
        #expect(try detachNames(out2) == ["notes.txt"])
        #expect(try pdfedit("attach", "remove", "invoice.xml", in: dir).status == 64)
        try pdfeditOK("undo", "4", in: dir)
        #expect(try sessionDocuments(dir) == opened)
        #expect(try pdfeditOK("attach", "list", in: dir).stdout.isEmpty)
        try pdfeditOK("redo", "4", in: dir)
        try pdfeditOK("export", "out3.pdf", "--force", in: dir)
        #expect(try detachNames(dir.appendingPathComponent("out3.pdf")) == ["notes.txt"])
    }

    @Test func directModeAddsListsExtractsAndRemoves() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("a,b\n1,2\n".utf8).write(to: dir.appendingPathComponent("data.csv"))
        try pdfeditOK(
            "attach", "add", "data.csv", "--relationship", "supplement", "alpha.pdf", "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        try expectChecked(out)
        #expect(try detachAll(out)["data.csv"] == Data("a,b\n1,2\n".utf8))
        let facts = try #require(try pikepdf(Self.describeFiles, out) as? [String: Any])
        let files = try #require(facts["files"] as? [String: [String: Any]])
        #expect(files["data.csv"]?["rel"] as? String == "/Supplement")
        #expect(files["data.csv"]?["subtype"] as? String == "/text/csv")

        let listed = try pdfeditOK("attach", "list", "--from", "out.pdf", in: dir)
        #expect(listed.stdout.hasPrefix("data.csv\t8\ttext/csv\tSupplement\t-\t"))
        try pdfeditOK("attach", "extract", "--to", "x", "--from", "out.pdf", in: dir)
        #expect(try Data(contentsOf: dir.appendingPathComponent("x/data.csv")) == Data("a,b\n1,2\n".utf8))
        let refused = try pdfedit("attach", "extract", "--to", "x", "--from", "out.pdf", in: dir)
        #expect(refused.status == 73)

        try pdfeditOK("attach", "remove", "data.csv", "out.pdf", "-o", "out2.pdf", in: dir)
        let out2 = dir.appendingPathComponent("out2.pdf")
        try expectChecked(out2)
        #expect(try detachNames(out2).isEmpty)
        let unknown = try pdfedit("attach", "remove", "nope.csv", "out.pdf", "-o", "out3.pdf", in: dir)
        #expect(unknown.status == 64)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out3.pdf").path))

        // The attached file is read by the command: no output replaces it, --force or not.
        let overAttached = try pdfedit("attach", "add", "data.csv", "alpha.pdf", "-o", "data.csv", "--force", in: dir)
        #expect(overAttached.status == 73, "\(overAttached.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("data.csv")) == Data("a,b\n1,2\n".utf8))

        // On a page, in place.
        try pdfeditOK("attach", "add", "data.csv", "--page", "last", "out2.pdf", "--in-place", in: dir)
        let facts2 = try #require(try pikepdf(Self.describeFiles, out2) as? [String: Any])
        let annotations = try #require(facts2["annots"] as? [[String: Any]])
        #expect(annotations.map { $0["page"] as? Int } == [7])
    }

    @Test func applyAttachesToEveryFile() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("<x/>".utf8).write(to: dir.appendingPathComponent("x.xml"))
        try pdfeditOK(
            "apply", "-e", "attach add x.xml --relationship Alternative", "alpha.pdf", "beta.pdf", "-o", "out/{name}",
            in: dir)
        for name in ["alpha.pdf", "beta.pdf"] {
            let out = dir.appendingPathComponent("out/\(name)")
            try expectChecked(out)
            #expect(try detachAll(out)["x.xml"] == Data("<x/>".utf8))
            let facts = try #require(try pikepdf(Self.describeFiles, out) as? [String: Any])
            #expect(facts["af"] as? [String] == ["x.xml"])
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func aCorpusFileKeepsListsExtractsAndRemovesItsOwnAttachments() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = URL(fileURLWithPath: Paths.corpus("pdfjs-bug2009627.pdf"))
        let theirs = try detachAll(source)
        #expect(theirs.count == 3)
        try pdfeditOK("open", source.path, in: dir)
        let listed = try pdfeditOK("attach", "list", in: dir)
        let names = listed.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(names == ["l3ef0001", "l3ef0002", "l3ef0003"])
        try pdfeditOK("attach", "extract", "--to", "x", in: dir)
        for name in names {
            let extracted = try Data(contentsOf: dir.appendingPathComponent("x/\(name)"))
            #expect(theirs.values.contains(extracted), "\(name)")
        }
        try pdfeditOK("attach", "remove", "l3ef0002", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        try expectChecked(out)
        #expect(try detachNames(out).count == 2)
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "out.pdf", "--force", in: dir)
        #expect(try detachNames(out).count == 3)
    }

    @Test func hostileNamesAreWrittenAsPlainFileNamesInsideTheFolder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hostile = dir.appendingPathComponent("hostile.pdf")
        let made = try run(
            "python3",
            [
                "-c",
                """
                import pikepdf, sys
                pdf = pikepdf.new()
                pdf.add_blank_page()
                for name, data in [('../../evil', b'evil'), ('/etc/passwd', b'root'), ('a/b', b'ab'), ('..', b'dots')]:
                    spec = pikepdf.AttachedFileSpec(pdf, data, filename=name)
                    pdf.attachments[name] = spec
                pdf.save(sys.argv[1])
                """,
                hostile.path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let target = dir.appendingPathComponent("deep/inside/x")
        try pdfeditOK("attach", "extract", "--to", target.path, "--from", hostile.path, in: dir)
        let written = try FileManager.default.contentsOfDirectory(atPath: target.path).sorted()
        #expect(written == [".._.._evil", "_etc_passwd", "a_b", "attachment"])
        #expect(try Data(contentsOf: target.appendingPathComponent(".._.._evil")) == Data("evil".utf8))
        for outside in ["evil", "deep/evil", "deep/inside/evil", "a", "b", "etc"] {
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(outside).path), "\(outside)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("deep/inside").path) == ["x"])
        // By name too, and a second time only with --force.
        let again = try pdfedit("attach", "extract", "../../evil", "--to", target.path, "--from", hostile.path, in: dir)
        #expect(again.status == 73)
    }

    @Test func splitPartsAndScriptsCarryAttachments() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("doc".utf8).write(to: dir.appendingPathComponent("doc.txt"))
        try Data("page".utf8).write(to: dir.appendingPathComponent("page.txt"))
        try pdfeditOK("open", "alpha.pdf", in: dir)
        // One script: one undo step, all or nothing.
        try Data("attach add doc.txt\nattach add page.txt --page 5\n".utf8).write(to: dir.appendingPathComponent("s.txt"))
        try pdfeditOK("run", "s.txt", in: dir)
        try Data("attach add doc.txt\nattach remove nope\n".utf8).write(to: dir.appendingPathComponent("bad.txt"))
        #expect(try pdfedit("run", "bad.txt", in: dir).status == 64)
        try pdfeditOK("export", "--split", "parts", "--every", "3", in: dir)
        let parts = ["alpha-1.pdf", "alpha-2.pdf", "alpha-3.pdf"].map { dir.appendingPathComponent("parts/\($0)") }
        for part in parts { try expectChecked(part) }
        // Document level in every part; the page's file only in the part with page 5.
        #expect(try detachNames(parts[0]) == ["doc.txt"])
        #expect(try detachNames(parts[1]).sorted() == ["doc.txt", "page.txt"])
        #expect(try detachNames(parts[2]) == ["doc.txt"])
        try pdfeditOK("undo", in: dir)
        #expect(try pdfeditOK("attach", "list", in: dir).stdout.isEmpty)
    }

    @Test func twoNamesThatWouldShareAFileNameAreRefusedAndNothingIsWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("two.pdf")
        let made = try run(
            "python3",
            [
                "-c",
                """
                import pikepdf, sys
                pdf = pikepdf.new()
                pdf.add_blank_page()
                for name in ['a/b', 'a_b']:
                    pdf.attachments[name] = pikepdf.AttachedFileSpec(pdf, name.encode(), filename=name)
                pdf.save(sys.argv[1])
                """,
                file.path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let refused = try pdfedit("attach", "extract", "--to", "out", "--from", file.path, in: dir)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("would both be written to a_b"))
        let written = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path)) ?? []
        #expect(written.isEmpty)
        try pdfeditOK("attach", "extract", "a/b", "--to", "out", "--from", file.path, in: dir)
        #expect(try Data(contentsOf: dir.appendingPathComponent("out/a_b")) == Data("a/b".utf8))
    }
}
