import Foundation
import Testing

/// Sessions edited through the built binary; outputs checked with qpdf and poppler tools.
@Suite struct SessionTests {
    @Test("DESIGN.md: move 3..5 --to 1 gives 3 4 5 1 2 6 7; move 1,3 --to 4 gives 2 4 5 1 3 6 7")
    func designExamples() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("move", "3..5", "--to", "1", in: dir)
        try pdfeditOK("export", "a.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("a.pdf")) == [3, 4, 5, 1, 2, 6, 7].map { "ALPHA-P\($0)" })
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("move", "1,3", "--to", "4", in: dir)
        try pdfeditOK("export", "b.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("b.pdf")) == [2, 4, 5, 1, 3, 6, 7].map { "ALPHA-P\($0)" })
        let check = try qpdfCheck(dir.appendingPathComponent("b.pdf").path)
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func editsAcrossDocumentsRotationBlankAndUndo() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        try pdfeditOK("copy", "1..2", "--to", "1", "--into", "beta", in: dir)
        try pdfeditOK("rotate", "2", "--by", "90", "--doc", "beta", in: dir)
        try pdfeditOK("blank", "--at", "last", "--size", "a5", "--doc", "beta", in: dir)
        try pdfeditOK("duplicate", "1", in: dir)
        try pdfeditOK("remove", "last", in: dir)
        let out = dir.appendingPathComponent("beta-out.pdf")
        try pdfeditOK("export", out.path, "--doc", "beta", in: dir)
        #expect(try pageTokens(out) == ["ALPHA-P1", "ALPHA-P2", "BETA-P1", "BETA-P2", "BETA-P3", "BETA-P4", "BETA-P5", "?"])
        let info = try run("pdfinfo", ["-f", "1", "-l", "8", out.path]).stdout
        #expect(info.contains("Page    2 rot:   90"))
        #expect(info.contains("Page    1 rot:   0"))
        // The blank page is A5 (420 x 595 pt).
        let size = info.split(separator: "\n").first { $0.hasPrefix("Page    8 size:") }?
            .split(separator: " ").compactMap { Double($0) } ?? []
        #expect(size.count >= 3 && abs(size[1] - 419.53) < 0.5 && abs(size[2] - 595.28) < 0.5, "\(info)")
        let alpha = dir.appendingPathComponent("alpha-out.pdf")
        try pdfeditOK("export", alpha.path, in: dir)
        #expect(try pageTokens(alpha) == ["ALPHA-P1", "ALPHA-P1", "ALPHA-P2", "ALPHA-P3", "ALPHA-P4", "ALPHA-P5", "ALPHA-P6"])
        // Undo everything: the session is back to what open made.
        let history = try pdfedit("history", "--json", in: dir)
        let steps = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]]
        #expect(steps?.count == 5)
        try pdfeditOK("undo", "5", in: dir)
        let list = try pdfedit("list", "--json", "--doc", "beta", in: dir)
        let listing = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        #expect(listing?["pageCount"] as? Int == 5)
        #expect(try pdfedit("undo", in: dir).status == 64)
        try pdfeditOK("redo", "2", in: dir)
        let redone = try pdfedit("list", "--json", "--doc", "beta", in: dir)
        #expect((try JSONSerialization.jsonObject(with: Data(redone.stdout.utf8)) as? [String: Any])?["pageCount"] as? Int == 7)
    }

    @Test("bad selections exit 64, name the token and leave the session byte-identical",
          arguments: ["9", "3..1", "1,1", "", "x", "1,,2", "@p99", "last-7", "0"])
    func badSelection(_ selection: String) throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let result = try pdfedit("move", selection, "--to", "1", in: dir)
        #expect(result.status == 64)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("pdfedit: "))
        #expect(try sessionBytes(dir) == before)
    }

    @Test("a token or file name holding a line break still gives one error line, the break escaped",
          arguments: [["move", "1\n2", "--to", "1"], ["insert", "no\nsuch.pdf"], ["insert", "a\u{2028}b.pdf"]])
    func controlCharactersStayOnOneLine(_ arguments: [String]) throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let result = try pdfedit(args: arguments, in: dir)
        #expect([64, 66].contains(result.status), "\(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("pdfedit: "), "\(result.stderr)")
        #expect(result.stderr.contains("\\n") || result.stderr.contains("\\u{2028}"), "\(result.stderr)")
    }

    @Test func badPositionNamesTheValidRange() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let result = try pdfedit("move", "1,3", "--to", "7", in: dir)
        #expect(result.status == 64)
        #expect(result.stderr.contains("1…6"))
        #expect(try sessionBytes(dir) == before)
    }

    @Test func scriptIsAllOrNothingAndOneUndoStep() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let bad = try pdfedit("run", "-", in: dir, stdin: "move 7 --to 1\nremove 2\nrotate 9 --by 90\n")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("stdin:3"))
        #expect(try sessionBytes(dir) == before)
        let refused = try pdfedit("run", "-", in: dir, stdin: "move 7 --to 1\nexport x.pdf\n")
        #expect(refused.status == 64)
        #expect(try sessionBytes(dir) == before)
        let script = dir.appendingPathComponent("fix.txt")
        try "# reorder\nmove 7 --to 1   # the summary first\nremove 2\nrotate even --by 90\n".write(
            to: script, atomically: true, encoding: .utf8)
        try pdfeditOK("run", "fix.txt", in: dir)
        try pdfeditOK("export", "s.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("s.pdf")) == [7, 2, 3, 4, 5, 6].map { "ALPHA-P\($0)" })
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("export", "u.pdf", "--force", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("u.pdf")) == (1...7).map { "ALPHA-P\($0)" })
    }

    @Test func sessionFileProblems() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try pdfedit("move", "1", "--to", "2", in: dir)
        #expect(missing.status == 66)
        try pdfeditOK("open", "alpha.pdf", in: dir)
        #expect(try pdfedit("open", "alpha.pdf", in: dir).status == 73)
        try pdfeditOK("open", "alpha.pdf", "--force", in: dir)
        let sessionFile = dir.appendingPathComponent(".pdfedit/session.json")
        try Data("{ not json".utf8).write(to: sessionFile)
        let corrupt = try pdfedit("list", in: dir)
        #expect(corrupt.status == 65)
        #expect(corrupt.stderr.contains("session.json"))
        try Data("{ not json".utf8).write(to: sessionFile)
        #expect(try String(contentsOf: sessionFile, encoding: .utf8) == "{ not json")
        try Data(#"{"version": 99}"#.utf8).write(to: sessionFile)
        let future = try pdfedit("list", in: dir)
        #expect(future.status == 65)
        #expect(future.stderr.contains("99"))
    }

    @Test func changedOrMissingSourceRefusesExportWith75() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("alpha.pdf"))
        try FileManager.default.copyItem(at: dir.appendingPathComponent("beta.pdf"), to: dir.appendingPathComponent("alpha.pdf"))
        let changed = try pdfedit("export", "out.pdf", in: dir)
        #expect(changed.status == 75)
        #expect(changed.stderr.contains("alpha.pdf") && changed.stderr.contains("changed"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("alpha.pdf"))
        let vanished = try pdfedit("export", "out.pdf", in: dir)
        #expect(vanished.status == 75)
        #expect(vanished.stderr.contains("missing"))
    }

    @Test func outputsAreNotOverwrittenWithoutForceAndNeverOverASource() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let original = try Data(contentsOf: dir.appendingPathComponent("alpha.pdf"))
        let overSource = try pdfedit("export", "alpha.pdf", "--force", in: dir)
        #expect(overSource.status == 73)
        #expect(try Data(contentsOf: dir.appendingPathComponent("alpha.pdf")) == original)
        try Data("keep me".utf8).write(to: dir.appendingPathComponent("other.pdf"))
        #expect(try pdfedit("export", "other.pdf", in: dir).status == 73)
        #expect(try String(contentsOf: dir.appendingPathComponent("other.pdf"), encoding: .utf8) == "keep me")
        try pdfeditOK("export", "other.pdf", "--force", in: dir)
        // The session's own previous export may be replaced without --force.
        try pdfeditOK("export", "mine.pdf", in: dir)
        try pdfeditOK("move", "1", "--to", "2", in: dir)
        try pdfeditOK("export", "mine.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("mine.pdf")).prefix(2) == ["ALPHA-P2", "ALPHA-P1"])
    }

    @Test func exportsAreDeterministic() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        try pdfeditOK("interleave", "beta", in: dir)
        try pdfeditOK("export", "one.pdf", in: dir)
        try pdfeditOK("export", "two.pdf", in: dir)
        let one = try Data(contentsOf: dir.appendingPathComponent("one.pdf"))
        #expect(one == (try Data(contentsOf: dir.appendingPathComponent("two.pdf"))))
        #expect(try pageTokens(dir.appendingPathComponent("one.pdf")).prefix(4) == ["ALPHA-P1", "BETA-P1", "ALPHA-P2", "BETA-P2"])
    }

    @Test func exportAllWritesOneFilePerDocument() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        try pdfeditOK("export", "--all", "out", in: dir)
        #expect(try qpdfPageCount(dir.appendingPathComponent("out/alpha.pdf").path) == 7)
        #expect(try qpdfPageCount(dir.appendingPathComponent("out/beta.pdf").path) == 5)
    }

    @Test func encryptedSourceNeedsItsPasswordAndOutputIsUnencrypted() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let refused = try pdfedit("open", "encrypted.pdf", in: dir)
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("encrypted.pdf") && refused.stderr.contains("password"))
        try pdfeditOK("open", "encrypted.pdf", "--password", "secret", in: dir)
        #expect(!(try String(contentsOf: dir.appendingPathComponent(".pdfedit/session.json"), encoding: .utf8)).contains("secret"))
        try pdfeditOK("reverse", in: dir)
        #expect(try pdfedit("export", "out.pdf", in: dir).status == 77)
        let exported = try pdfeditOK("export", "out.pdf", in: dir, environment: ["PDFEDIT_PASSWORD": "secret"])
        #expect(
            exported.stderr
                == "pdfedit: warning: out.pdf: written unencrypted; its pages come from encrypted encrypted.pdf (use --encrypt to encrypt it)\n"
        )
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try pageTokens(out) == ["ENC-P2", "ENC-P1"])
        #expect(!(try run("pdfinfo", [out.path]).stdout.contains("Encrypted:      yes")))
        let listFile = dir.appendingPathComponent("pw.txt")
        try "# passwords\nencrypted.pdf=secret\n".write(to: listFile, atomically: true, encoding: .utf8)
        try pdfeditOK("export", "out2.pdf", in: dir, environment: ["PDFEDIT_PASSWORD_FILE": listFile.path])
        try pdfeditOK("export", "out3.pdf", "--password-for", "encrypted.pdf=secret", in: dir)
        for name in ["out2.pdf", "out3.pdf"] {
            let written = dir.appendingPathComponent(name)
            #expect(try pageTokens(written) == ["ENC-P2", "ENC-P1"], "\(name)")
            #expect(!(try run("pdfinfo", [written.path]).stdout.contains("Encrypted:      yes")), "\(name)")
        }
        try pdfeditOK("export", "enc.pdf", "--password", "secret", "--encrypt", "u", "o", in: dir)
        #expect(try run("qpdf", ["--password=u", "--check", dir.appendingPathComponent("enc.pdf").path]).status == 0)
        #expect(try run("qpdf", ["--check", dir.appendingPathComponent("enc.pdf").path]).status != 0)
    }

    @Test func lockedSessionTimesOutWith75() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [dir.appendingPathComponent(".pdfedit/session.json.lock").path, "sleep", "3"]
        try holder.run()
        defer { holder.terminate() }
        Thread.sleep(forTimeInterval: 0.3)
        let before = try sessionBytes(dir)
        let result = try pdfedit("move", "1", "--to", "2", in: dir, environment: ["PDFEDIT_LOCK_TIMEOUT": "0.5"])
        #expect(result.status == 75)
        #expect(result.stderr.contains("locked"))
        #expect(try sessionBytes(dir) == before)
    }

    @Test("concurrent processes editing one session lose no update")
    func concurrentEditsAreSerialised() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let count = 12
        // Each process duplicates page 1: every one must land, none overwrite another.
        let processes = try (0..<count).map { _ -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["duplicate", "1"]
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let list = try pdfedit("list", "--json", in: dir)
        let listing = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        #expect(listing?["pageCount"] as? Int == 7 + count)
        let history = try pdfedit("history", "--json", in: dir)
        #expect((try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [Any])?.count == count)
    }

    @Test("a process killed while editing never leaves a broken session file")
    func killedWhileEditing() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        for round in 0..<15 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["rotate", "all", "--by", "90"]
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(1_000 * (round * 3 % 40)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let list = try pdfedit("list", "--json", in: dir)
            #expect(list.status == 0, "round \(round): \(list.stderr)")
        }
        // No temporary files left under a final name; leftovers are hidden dot-files at most
        // (`cache` is the folder of thumbnails and page texts).
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(".pdfedit").path)
        #expect(
            names.filter { !$0.hasPrefix(".") }.sorted().allSatisfy {
                ["session.json", "session.json.lock", "session.json.exports", "cache"].contains($0)
            })
    }
}
