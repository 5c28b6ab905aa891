import Foundation
import Testing

/// Issue 46, `pdfedit edit`: the pages in the user's editor, one line each,
/// applied as one undo step — tested with scripted editors ($EDITOR running a
/// Python script that rewrites the file), the results read with pdftotext,
/// pdfinfo and qpdf.
@Suite struct EditCommandTests {
    /// Writes a Python editor script into `dir`: it receives the file's lines
    /// (without comments and blank lines) as `lines`, `ids` maps each id to its
    /// line, and writes back what `body` leaves in `out`.
    private func editor(_ body: String, in dir: URL, name: String = "editor.py") throws -> String {
        let script = """
            import sys
            path = sys.argv[-1]
            lines = [l for l in open(path) if l.strip() and not l.startswith("#")]
            ids = {l.split()[0]: l for l in lines}
            out = lines
            \(body)
            open(path, "w").write("".join(l if l.endswith("\\n") else l + "\\n" for l in out))
            """
        let url = dir.appendingPathComponent(name)
        try script.write(to: url, atomically: true, encoding: .utf8)
        return "python3 \(url.path)"
    }

    private func positions(_ dir: URL) throws -> [String] {
        let list = try pdfeditOK("list", "--json", "--no-text", in: dir)
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        return (object?["items"] as? [[String: Any]] ?? []).map { item in
            let kind = item["kind"] as? String ?? "?"
            let page = item["sourcePage"].map { "\($0)" } ?? ""
            let rotation = item["rotation"] as? Int ?? 0
            return kind + page + (rotation == 0 ? "" : "r\(rotation)")
        }
    }

    @Test("moved, deleted, copied and turned lines, blank and placeholder lines: one step, undone as one")
    func sessionEdit() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let script = try editor(
            """
            out = [ids["p7"], "r90 " + ids["p2"], "blank a5", ids["p2"], "placeholder \\"Appendix, A\\"", ids["p1"], "@p3"]
            """, in: dir)
        let edited = try pdfedit("edit", in: dir, environment: ["EDITOR": script, "VISUAL": ""])
        #expect(edited.status == 0, "\(edited.stderr)")
        // Moves counted as made: p7, p1 and p3 (p2 and the new pages already stand in order).
        #expect(edited.stdout == "moved 3 pages, removed 3 pages, added 3 pages, rotated 1 page (now 7 pages)\n")
        #expect(try positions(dir) == ["page7", "page2r90", "blank", "page2", "placeholder", "page1", "page3"])
        try pdfeditOK("export", "out.pdf", "--placeholders", "blank", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try pageTokens(out) == ["ALPHA-P7", "ALPHA-P2", "?", "ALPHA-P2", "?", "ALPHA-P1", "ALPHA-P3"])
        let info = try run("pdfinfo", ["-f", "2", "-l", "3", out]).stdout
        #expect(info.contains("Page    2 rot:   90") && info.contains("Page    3 size:  419.528 x 595.276 pts"), "\(info)")
        #expect(try qpdfCheck(out).status == 0)
        // One step: undo gives back the seven pages as they were.
        let history = try pdfeditOK("history", in: dir).stdout
        #expect(history.contains("edit"))
        try pdfeditOK("undo", in: dir)
        #expect(try positions(dir) == (1...7).map { "page\($0)" })
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".pdfedit/session.json.edit").path))
    }

    @Test("a file saved unchanged, or emptied, changes nothing and records no step; VISUAL comes before EDITOR")
    func nothingChanged() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let same = try pdfedit("edit", in: dir, environment: ["EDITOR": "true", "VISUAL": ""])
        #expect(same.status == 0 && same.stderr == "pdfedit: the edit file asks for no change: nothing changed\n")
        let emptied = try editor("out = []", in: dir)
        let reversing = try editor("out = lines[::-1]", in: dir, name: "reverse.py")
        let none = try pdfedit("edit", in: dir, environment: ["VISUAL": emptied, "EDITOR": reversing])
        #expect(none.status == 0 && none.stderr.contains("nothing changed"), "\(none.stderr)")
        #expect(try pdfeditOK("history", in: dir).stdout.contains("edit") == false)
        #expect(try positions(dir) == (1...7).map { "page\($0)" })
        // The editor command may carry arguments (run by the shell, as git runs it).
        try pdfeditOK("edit", in: dir, environment: ["EDITOR": reversing + " --wait", "VISUAL": ""])
        #expect(try positions(dir) == (1...7).reversed().map { "page\($0)" })
    }

    @Test("a line that cannot be read: 64 naming file and line, session untouched, the file kept for --continue")
    func refusedAndContinued() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let bad = try editor(#"out = [ids["p3"], "p99 gone", ids["p1"]]"#, in: dir)
        let refused = try pdfedit("edit", in: dir, environment: ["EDITOR": bad, "VISUAL": ""])
        let kept = dir.appendingPathComponent(".pdfedit/session.json.edit").path
        #expect(refused.status == 64)
        #expect(refused.stderr.hasSuffix(
            "session.json.edit:2: p99 is not a page of \"alpha\" (the file is kept: fix it and run pdfedit edit --continue)\n"),
            "\(refused.stderr)")
        #expect(try sessionBytes(dir) == before)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("p99 gone"))
        // Other mistakes, each named.
        for (body, reason) in [
            (#"out = ["r90"]"#, "r90 turns a page: give its id after it"),
            (#"out = ["r90 blank"]"#, "a new blank cannot be turned"),
            (#"out = ["blank huge"]"#, "is not a page size"),
            (#"out = ["zebra"]"#, "\"zebra\" is not a page id (p12), blank or placeholder"),
        ] {
            let script = try editor(body, in: dir, name: "mistake.py")
            let result = try pdfedit("edit", in: dir, environment: ["EDITOR": script, "VISUAL": ""])
            #expect(result.status == 64 && result.stderr.contains(reason), "\(body): \(result.stderr)")
        }
        // --continue opens the kept file again: fixed, it applies.
        #expect(try pdfedit("edit", in: dir, environment: ["EDITOR": bad, "VISUAL": ""]).status == 64)
        let fix = try editor(#"out = [l for l in lines if not l.startswith("p99")]"#, in: dir, name: "fix.py")
        let resumed = try pdfedit("edit", "--continue", in: dir, environment: ["EDITOR": fix, "VISUAL": ""])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try positions(dir) == ["page3", "page1"])
        #expect(!FileManager.default.fileExists(atPath: kept))
        let nothingKept = try pdfedit("edit", "--continue", in: dir, environment: ["EDITOR": "true", "VISUAL": ""])
        #expect(nothingKept.status == 64 && nothingKept.stderr.contains("no edit to continue"))
    }

    @Test("an editor that fails (vim's :cq) changes nothing")
    func editorFails() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let failed = try pdfedit("edit", in: dir, environment: ["EDITOR": "false", "VISUAL": ""])
        #expect(failed.status == 64 && failed.stderr.contains("the editor \"false\" exited with status 1: nothing changed"))
        #expect(try sessionBytes(dir) == before)
    }

    @Test("direct mode: FILE -o OUT, the pages p1…pN; the input untouched")
    func directMode() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("alpha.pdf")
        let original = try Data(contentsOf: input)
        let script = try editor(#"out = [ids["p5"], "r180 p1", ids["p5"]]"#, in: dir)
        let edited = try pdfedit("edit", "alpha.pdf", "-o", "out.pdf", in: dir, environment: ["EDITOR": script, "VISUAL": ""])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.hasSuffix("wrote out.pdf (3 pages)\n"), "\(edited.stdout)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try pageTokens(out) == ["ALPHA-P5", "ALPHA-P1", "ALPHA-P5"])
        #expect(try run("pdfinfo", ["-f", "2", "-l", "2", out]).stdout.contains("Page    2 rot:   180"))
        #expect(try Data(contentsOf: input) == original)
        // Standard input cannot share the terminal with an editor.
        let piped = try pdfedit("edit", "-", "-o", "x.pdf", in: dir, environment: ["EDITOR": "true"], stdin: "")
        #expect(piped.status == 64 && piped.stderr.contains("give files, not -"), "\(piped.stderr)")
    }
}
