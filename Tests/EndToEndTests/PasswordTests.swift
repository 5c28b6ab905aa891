import Foundation
import Testing

/// Passwords: asked for only on a terminal, never stored, tried from every source.
@Suite struct PasswordTests {
    let answer = Paths.root.appendingPathComponent("scripts/pty-answer.py").path

    @Test("a PDFEDIT_PASSWORD_FILE that is /dev/zero, a FIFO or not UTF-8 is 65 saying so, never 'no such file' (issue 40, item 39)")
    func passwordListThatIsNotText() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let latin = dir.appendingPathComponent("latin.txt")
        try Data([0x65, 0x6e, 0x63, 0x3d, 0xff, 0xfe, 0x0a]).write(to: latin)
        for (list, reason) in [("/dev/zero", "not a regular file"), (latin.path, "not UTF-8 text")] {
            let result = try pdfedit("info", "encrypted.pdf", in: dir, environment: ["PDFEDIT_PASSWORD_FILE": list])
            #expect(result.status == 65, "\(list): \(result.status) \(result.stderr)")
            #expect(result.stderr == "pdfedit: \(list): cannot be read: \(reason)\n", "\(result.stderr)")
        }
        let missing = try pdfedit("info", "encrypted.pdf", in: dir, environment: ["PDFEDIT_PASSWORD_FILE": "nothing-here.txt"])
        #expect(missing.status == 66 && missing.stderr.contains("nothing-here.txt: no such file"), "\(missing.stderr)")
    }

    @Test func promptsOnATerminalOnly() throws {
        let file = Paths.fixture("encrypted.pdf")
        let typed = try run("python3", [answer, "Password for", "secret", Paths.binary, "info", file, "--no-text"])
        #expect(typed.status == 0, "\(typed.stdout)")
        #expect(typed.stdout.contains("Password for \(file):"))
        #expect(typed.stdout.contains("Pages:      2"))
        let wrong = try run("python3", [answer, "Password for", "nope", Paths.binary, "info", file, "--no-text"])
        #expect(wrong.status == 77)
        #expect(wrong.stdout.contains("wrong password"))
        // Not a terminal: no prompt, a clear error naming the file.
        let piped = try pdfedit("info", file, stdin: "secret\n")
        #expect(piped.status == 77)
        #expect(piped.stderr == "pdfedit: \(file): encrypted; give its password with --password or --password-for\n")
    }

    @Test func exportAsksOnceOnATerminalWhenNoPasswordWorks() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "encrypted.pdf", "--password", "secret", in: dir)
        let session = try String(contentsOf: dir.appendingPathComponent(".pdfedit/session.json"), encoding: .utf8)
        #expect(!session.contains("secret"))
        let out = dir.appendingPathComponent("out.pdf").path
        let typed = try run("python3", [
            answer, "Password for", "secret", "/bin/sh", "-c", "cd '\(dir.path)' && '\(Paths.binary)' export '\(out)'",
        ])
        #expect(typed.status == 0, "\(typed.stdout)")
        #expect(try qpdfPageCount(out) == 9)
        #expect(try pageText(out, 9).contains("ENC-P2"))
    }

    @Test func ownerPasswordOnlyFilesNeedNoPasswordAndWarnAboutAssembly() throws {
        let dir = try scratchDirectory(with: "owner-only.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("insert", "owner-only.pdf", "--at", "1", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning") && result.stderr.contains("assembl"))
        #expect(try qpdfPageCount(dir.appendingPathComponent("out.pdf").path) == 8)
        // The output keeps the encryption of the file edited (alpha.pdf: none), and
        // says that pages of an encrypted file went into it unencrypted.
        #expect(result.stderr.contains("pdfedit: warning: out.pdf: written unencrypted; its pages come from encrypted owner-only.pdf"))
        let shown = try run("qpdf", ["--show-encryption", dir.appendingPathComponent("out.pdf").path])
        #expect(shown.stdout.contains("File is not encrypted"))
        // Edited itself, the owner-password-only file stays encrypted with its permissions.
        try pdfeditOK("reverse", "all", "owner-only.pdf", "-o", "kept.pdf", in: dir)
        let kept = try run("qpdf", ["--show-encryption", dir.appendingPathComponent("kept.pdf").path])
        #expect(kept.stdout.contains("modify document assembly: not allowed"), "\(kept.stdout)")
    }
}
