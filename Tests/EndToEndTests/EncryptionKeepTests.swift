import Foundation
import Testing

/// Encryption (DESIGN "Encryption"): direct mode keeps the input's encryption
/// (method, permissions, both passwords; `--decrypt` drops it, `--in-place`
/// never quietly does), a session export is unencrypted with one warning naming
/// its encrypted sources, and `--encrypt` takes its passwords from argv, files or
/// the environment and its permissions from `--allow`. Every fixture is made
/// here (a three-page PDF with the words ENC-P1…ENC-P3, encrypted by qpdf) and
/// every output is checked with qpdf (`--show-encryption`, `--check`) and
/// pdftotext / pdfinfo.
@Suite struct EncryptionKeepTests {
    /// One way qpdf encrypts a fixture and what `qpdf --show-encryption` then says.
    struct Method: CustomStringConvertible {
        var name: String
        var qpdfArguments: [String]
        /// "R = …"
        var revision: Int
        /// "stream encryption method: …", nil where qpdf does not print one (RC4, R3).
        var streamMethod: String?
        var description: String { name }
    }

    static let methods: [Method] = [
        Method(name: "AES-256", qpdfArguments: ["256", "--print=none"], revision: 6, streamMethod: "AESv3"),
        Method(
            name: "AES-128", qpdfArguments: ["128", "--use-aes=y", "--print=none"], revision: 4, streamMethod: "AESv2"),
        Method(name: "RC4-128", qpdfArguments: ["128", "--use-aes=n", "--print=none"], revision: 3, streamMethod: nil),
        Method(name: "RC4-40", qpdfArguments: ["40", "--print=n"], revision: 2, streamMethod: nil),
    ]

    // MARK: Fixtures

    /// A plain three-page PDF (ENC-P1, ENC-P2, ENC-P3 in Helvetica) at `path`,
    /// written as text and given a real xref by qpdf.
    static func writePlain(_ path: String) throws {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [4 0 R 6 0 R 8 0 R] /Count 3 >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        for page in 1...3 {
            let content = "BT /F1 24 Tf 40 100 Td (ENC-P\(page)) Tj ET"
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents \(objects.count + 2) 0 R >>"
            )
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var text = "%PDF-1.7\n"
        for (index, object) in objects.enumerated() { text += "\(index + 1) 0 obj\n\(object)\nendobj\n" }
        text += "trailer\n<< /Root 1 0 R /Size \(objects.count + 1) >>\n%%EOF\n"
        let raw = path + ".raw"
        try text.write(toFile: raw, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let rebuilt = try run("qpdf", [raw, path])
        #expect(rebuilt.status == 0 || rebuilt.status == 3, "\(rebuilt.stderr)")
    }

    /// `plain` encrypted by qpdf with user password `user`, owner password `owner`.
    static func encrypt(_ plain: String, to path: String, user: String, owner: String, _ method: [String]) throws {
        let made = try run("qpdf", ["--allow-weak-crypto", "--encrypt", user, owner] + method + ["--", plain, path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// A directory with `plain.pdf` and `in.pdf` (plain encrypted with U / O by `method`).
    static func directory(_ method: [String] = ["256", "--print=none"], user: String = "U") throws -> URL {
        let dir = try temporaryDirectory()
        let plain = dir.appendingPathComponent("plain.pdf").path
        try writePlain(plain)
        try encrypt(plain, to: dir.appendingPathComponent("in.pdf").path, user: user, owner: "O", method)
        return dir
    }

    // MARK: Independent checks

    /// `qpdf --show-encryption` with `password`, as lines.
    static func encryption(_ file: URL, password: String) throws -> [String] {
        try run("qpdf", ["--show-encryption", "--password=\(password)", file.path]).stdout
            .split(separator: "\n").map(String.init)
    }

    /// The permission lines of `qpdf --show-encryption` ("print high resolution: not allowed", ...).
    static func permissions(_ lines: [String]) -> [String] {
        lines.filter { $0.hasSuffix(": allowed") || $0.hasSuffix(": not allowed") }
    }

    /// The file opens with both passwords, each recognised for what it is, and
    /// keeps `method`'s revision and the source's permissions; qpdf finds nothing wrong.
    static func expectKeeps(
        _ method: Method, _ output: URL, source: URL, user: String = "U",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let asOwner = try encryption(output, password: "O")
        #expect(asOwner.contains("R = \(method.revision)"), "\(asOwner)", sourceLocation: sourceLocation)
        #expect(asOwner.contains("Supplied password is owner password"), "\(asOwner)", sourceLocation: sourceLocation)
        if let stream = method.streamMethod {
            #expect(
                asOwner.contains("stream encryption method: \(stream)"), "\(asOwner)", sourceLocation: sourceLocation)
        }
        let asUser = try encryption(output, password: user)
        #expect(
            asUser.contains(user.isEmpty ? "User password = " : "Supplied password is user password"), "\(asUser)",
            sourceLocation: sourceLocation)
        let sourcePermissions = permissions(try encryption(source, password: "O"))
        #expect(permissions(asOwner) == sourcePermissions, sourceLocation: sourceLocation)
        #expect(asOwner.contains("print high resolution: not allowed"), sourceLocation: sourceLocation)
        #expect(
            asOwner.contains { $0.hasPrefix("P = ") && sourcePermissionsP(source) == $0 },
            sourceLocation: sourceLocation)
        let check = try run("qpdf", ["--check", "--password=\(user)", output.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        #expect(
            try run("qpdf", ["--check", "--password=wrong", output.path]).status != 0, sourceLocation: sourceLocation)
    }

    /// The "P = …" line of the source.
    static func sourcePermissionsP(_ source: URL) -> String? {
        (try? encryption(source, password: "O"))?.first { $0.hasPrefix("P = ") }
    }

    /// The page words as pdftotext reads them with `password`.
    static func tokens(_ file: URL, password: String) throws -> [String] {
        try (1...3).compactMap { page in
            let text = try run("pdftotext", ["-upw", password, "-f", "\(page)", "-l", "\(page)", file.path, "-"])
            guard text.status == 0 else { return nil }
            return text.stdout.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
    }

    static func isUnencrypted(_ file: URL) throws -> Bool {
        try run("qpdf", ["--show-encryption", file.path]).stdout.contains("File is not encrypted")
    }

    // MARK: Direct mode keeps the input's encryption

    @Test(arguments: methods)
    func aDirectEditKeepsMethodPermissionsAndBothPasswords(_ method: Method) throws {
        let dir = try Self.directory(method.qpdfArguments)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in.pdf")
        // Opened with the user password: the owner password still opens the output.
        let reversed = try pdfeditOK("reverse", "all", "in.pdf", "-o", "out.pdf", "--password", "U", in: dir)
        #expect(!reversed.stderr.contains("warning"), "\(reversed.stderr)")
        let out = dir.appendingPathComponent("out.pdf")
        try Self.expectKeeps(method, out, source: source)
        #expect(try Self.tokens(out, password: "U") == ["ENC-P3", "ENC-P2", "ENC-P1"])
        // Opened with the owner password: the same.
        try pdfeditOK("move", "3", "--to", "1", "in.pdf", "-o", "moved.pdf", "--password", "O", in: dir)
        let moved = dir.appendingPathComponent("moved.pdf")
        try Self.expectKeeps(method, moved, source: source)
        #expect(try Self.tokens(moved, password: "U") == ["ENC-P3", "ENC-P1", "ENC-P2"])
    }

    /// The defect: `--in-place` wrote the file back decrypted. Both ways of
    /// writing (rearranging the source in place, and copying its pages) keep it.
    @Test(arguments: methods, [false, true])
    func inPlaceKeepsTheEncryption(_ method: Method, copying: Bool) throws {
        let dir = try Self.directory(method.qpdfArguments)
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = dir.appendingPathComponent("before.pdf")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("in.pdf"), to: before)
        let environment = copying ? ["PDFEDIT_NO_IN_PLACE": "1"] : [:]
        try pdfeditOK(
            "rotate", "1", "--by", "90", "in.pdf", "--in-place", "--password", "U", in: dir, environment: environment)
        let edited = dir.appendingPathComponent("in.pdf")
        try Self.expectKeeps(method, edited, source: before)
        let info = try run("pdfinfo", ["-upw", "U", "-f", "1", "-l", "2", edited.path]).stdout
        #expect(info.contains("Page    1 rot:   90") && info.contains("Page    2 rot:   0"), "\(info)")
        try pdfeditOK("remove", "2", "in.pdf", "--in-place", "--password", "O", in: dir, environment: environment)
        try Self.expectKeeps(method, edited, source: before)
        #expect(try qpdfPageCount(edited.path, password: "U") == 2)
    }

    /// Rearranging an encrypted source in place writes the same document as
    /// copying its pages (`PDFEDIT_NO_IN_PLACE`), as qpdf lays both out decrypted.
    @Test(arguments: [["reverse", "all"], ["rotate", "1", "--by", "90"], ["remove", "2"]])
    func rearrangingInPlaceWritesWhatCopyingWrites(_ edit: [String]) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func normalized(_ name: String, environment: [String: String]) throws -> LaidOutPDF {
            try pdfeditOK(args: edit + ["in.pdf", "-o", name, "--password", "U"], in: dir, environment: environment)
            let qdf = dir.appendingPathComponent(name + ".qdf")
            let laidOut = try run(
                "qpdf",
                [
                    "--password=U", "--decrypt", "--qdf", "--object-streams=disable",
                    dir.appendingPathComponent(name).path, qdf.path,
                ])
            #expect(laidOut.status == 0, "\(laidOut.stderr)")
            return try LaidOutPDF(qdf: qdf)
        }
        let inPlace = try normalized("fast.pdf", environment: [:])
        let copied = try normalized("slow.pdf", environment: ["PDFEDIT_NO_IN_PLACE": "1"])
        #expect(!inPlace.isEmpty && inPlace == copied, "\(inPlace.firstDifference(from: copied))")
    }

    @Test func anOwnerPasswordOnlyFileStaysOwnerProtected() throws {
        let dir = try Self.directory(["256", "--print=none", "--modify=none"], user: "")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in.pdf")
        // No password needed to open it, none needed to open the output.
        try pdfeditOK("reverse", "all", "in.pdf", "-o", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf")
        try Self.expectKeeps(Self.methods[0], out, source: source, user: "")
        #expect(try Self.encryption(out, password: "O").contains("modify other: not allowed"))
        #expect(try Self.tokens(out, password: "") == ["ENC-P3", "ENC-P2", "ENC-P1"])
        let before = dir.appendingPathComponent("before.pdf")
        try FileManager.default.copyItem(at: source, to: before)
        try pdfeditOK("reverse", "all", "in.pdf", "--in-place", in: dir)
        try Self.expectKeeps(Self.methods[0], source, source: before, user: "")
    }

    @Test func exportFromAFileKeepsItsEncryptionInEveryPart() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in.pdf")
        try pdfeditOK("export", "two.pdf", "2..3", "--from", "in.pdf", "--password", "U", in: dir)
        try Self.expectKeeps(Self.methods[0], dir.appendingPathComponent("two.pdf"), source: source)
        let split = try pdfeditOK("export", "--split", "parts", "--from", "in.pdf", "--password", "U", in: dir)
        #expect(!split.stderr.contains("warning"), "\(split.stderr)")
        for part in 1...3 {
            try Self.expectKeeps(Self.methods[0], dir.appendingPathComponent("parts/in-\(part).pdf"), source: source)
        }
    }

    // MARK: --decrypt

    @Test func decryptWritesItUnencryptedWithoutAWarning() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let edit = try pdfeditOK("reverse", "all", "in.pdf", "-o", "out.pdf", "--decrypt", "--password", "U", in: dir)
        #expect(edit.stderr.isEmpty, "\(edit.stderr)")
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try Self.isUnencrypted(out))
        #expect(try pageTokens(out) == ["ENC-P3", "ENC-P2", "ENC-P1"])
        #expect(try qpdfCheck(out.path).status == 0)
        let export = try pdfeditOK("export", "e.pdf", "--from", "in.pdf", "--decrypt", "--password", "U", in: dir)
        #expect(export.stderr.isEmpty, "\(export.stderr)")
        #expect(try Self.isUnencrypted(dir.appendingPathComponent("e.pdf")))
        for copying in [false, true] {
            let copy = "copy-\(copying).pdf"
            try FileManager.default.copyItem(
                at: dir.appendingPathComponent("in.pdf"), to: dir.appendingPathComponent(copy))
            try pdfeditOK(
                "rotate", "1", "--by", "180", copy, "--in-place", "--decrypt", "--password", "O", in: dir,
                environment: copying ? ["PDFEDIT_NO_IN_PLACE": "1"] : [:])
            #expect(try Self.isUnencrypted(dir.appendingPathComponent(copy)))
            #expect(try pageTokens(dir.appendingPathComponent(copy)) == ["ENC-P1", "ENC-P2", "ENC-P3"])
        }
        // --decrypt belongs to direct mode; with --encrypt it makes no sense.
        let session = try pdfedit("reverse", "all", "--decrypt", in: dir)
        #expect(session.status == 64 && session.stderr == "pdfedit: --decrypt goes with -o or --in-place\n")
        let both = try pdfedit("export", "x.pdf", "--from", "in.pdf", "--decrypt", "--encrypt", "a", "b", in: dir)
        #expect(both.status == 64 && both.stderr == "pdfedit: give --decrypt or --encrypt, not both\n")
        let sessionExport = try pdfedit("export", "x.pdf", "--decrypt", in: dir)
        #expect(sessionExport.status == 64, "\(sessionExport.stderr)")
    }

    /// `--encrypt` on a direct-mode edit replaces the input's encryption (or
    /// encrypts a plain file) with the passwords and permissions given.
    @Test func encryptOnADirectEditReplacesTheInputsEncryption() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK(
            "reverse", "all", "in.pdf", "-o", "new.pdf", "--password", "U", "--encrypt", "nu", "no", "--allow", "print",
            in: dir)
        let new = dir.appendingPathComponent("new.pdf")
        let asOwner = try Self.encryption(new, password: "no")
        #expect(asOwner.contains("R = 6") && asOwner.contains("Supplied password is owner password"), "\(asOwner)")
        #expect(asOwner.contains("print high resolution: allowed") && asOwner.contains("modify other: not allowed"))
        #expect(try Self.encryption(new, password: "nu").contains("Supplied password is user password"))
        #expect(try run("qpdf", ["--check", "--password=U", new.path]).status != 0, "the old password still opens it")
        #expect(try Self.tokens(new, password: "nu") == ["ENC-P3", "ENC-P2", "ENC-P1"])
        // A plain file in place, the passwords from the environment.
        try pdfeditOK(
            "rotate", "2", "--by", "90", "plain.pdf", "--in-place", "--encrypt", "-", in: dir,
            environment: ["PDFEDIT_USER_PASSWORD": "eu", "PDFEDIT_OWNER_PASSWORD": "eo"])
        let plain = dir.appendingPathComponent("plain.pdf")
        #expect(try Self.encryption(plain, password: "eo").contains("Supplied password is owner password"))
        #expect(try run("qpdf", ["--check", "--password=eu", plain.path]).status == 0)
        // Given before FILE, --encrypt would take FILE as a third password: one clear line.
        let eaten = try pdfedit("reverse", "all", "--encrypt", "a", "b", "in.pdf", "-o", "x.pdf", in: dir)
        #expect(eaten.status == 64 && eaten.stderr.hasPrefix("pdfedit: --encrypt takes two passwords"), "\(eaten.stderr)")
        let both = try pdfedit("reverse", "all", "in.pdf", "-o", "x.pdf", "--decrypt", "--encrypt", "a", "b", in: dir)
        #expect(both.status == 64 && both.stderr == "pdfedit: give --decrypt or --encrypt, not both\n")
        let session = try pdfedit("reverse", "all", "--encrypt", "a", "b", in: dir)
        #expect(session.status == 64 && session.stderr == "pdfedit: --encrypt goes with -o or --in-place\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.pdf").path))
    }

    // MARK: Session exports

    @Test func aSessionExportWarnsOnceNamingItsEncryptedSources() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.pdf").path
        try Self.encrypt(
            plain, to: dir.appendingPathComponent("b.pdf").path, user: "U", owner: "O", ["128", "--use-aes=n"])
        try pdfeditOK("open", "in.pdf", "--password", "U", in: dir)
        try pdfeditOK("insert", "plain.pdf", "b.pdf", "--password", "U", in: dir)
        let export = try pdfeditOK("export", "out.pdf", "--password", "U", in: dir)
        #expect(
            export.stderr
                == "pdfedit: warning: out.pdf: written unencrypted; its pages come from encrypted in.pdf, b.pdf (use --encrypt to encrypt it)\n"
        )
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try Self.isUnencrypted(out))
        #expect(try qpdfPageCount(out.path) == 9)
        // The same line in --json, never a password.
        let json = try pdfeditOK("export", "out.pdf", "--force", "--password", "U", "--json", in: dir)
        #expect(json.stdout.contains("written unencrypted; its pages come from encrypted in.pdf, b.pdf"))
        #expect(!json.stdout.contains("\"U\"") && !json.stderr.contains(" U "))
        // Only the plain pages: no warning.
        let plainOnly = try pdfeditOK("export", "p.pdf", "4..6", "--password", "U", in: dir)
        #expect(plainOnly.stderr.isEmpty, "\(plainOnly.stderr)")
        // Encrypted on request: no warning either.
        let encrypted = try pdfeditOK("export", "e.pdf", "--password", "U", "--encrypt", "u2", "o2", in: dir)
        #expect(encrypted.stderr.isEmpty, "\(encrypted.stderr)")
        #expect(try Self.encryption(dir.appendingPathComponent("e.pdf"), password: "o2").contains("R = 6"))
    }

    // MARK: --encrypt

    @Test func encryptTakesPasswordsFromArgvFilesOrTheEnvironment() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "plain.pdf", in: dir)
        try "user secret\r\nsecond line\n".write(
            to: dir.appendingPathComponent("u.txt"), atomically: true, encoding: .utf8)
        try "owner secret".write(to: dir.appendingPathComponent("o.txt"), atomically: true, encoding: .utf8)
        try pdfeditOK(
            "export", "files.pdf", "--encrypt", "-", "--user-password-file", "u.txt", "--owner-password-file", "o.txt",
            in: dir)
        let files = dir.appendingPathComponent("files.pdf")
        #expect(try Self.encryption(files, password: "user secret").contains("Supplied password is user password"))
        #expect(try Self.encryption(files, password: "owner secret").contains("Supplied password is owner password"))
        #expect(try Self.encryption(files, password: "owner secret").contains("R = 6"))
        try pdfeditOK(
            "export", "env.pdf", "--encrypt", "-", in: dir,
            environment: ["PDFEDIT_USER_PASSWORD": "env user", "PDFEDIT_OWNER_PASSWORD": "env owner"])
        let env = dir.appendingPathComponent("env.pdf")
        #expect(try Self.encryption(env, password: "env user").contains("Supplied password is user password"))
        #expect(try Self.encryption(env, password: "env owner").contains("Supplied password is owner password"))
        // A file wins over the environment; argv over both.
        try pdfeditOK(
            "export", "mixed.pdf", "--encrypt", "-", "--owner-password-file", "o.txt", in: dir,
            environment: ["PDFEDIT_USER_PASSWORD": "env user", "PDFEDIT_OWNER_PASSWORD": "env owner"])
        let mixed = dir.appendingPathComponent("mixed.pdf")
        #expect(try Self.encryption(mixed, password: "owner secret").contains("Supplied password is owner password"))
        #expect(try Self.encryption(mixed, password: "env user").contains("Supplied password is user password"))
        try pdfeditOK(
            "export", "argv.pdf", "--encrypt", "a", "b", in: dir,
            environment: ["PDFEDIT_USER_PASSWORD": "env user", "PDFEDIT_OWNER_PASSWORD": "env owner"])
        #expect(
            try Self.encryption(dir.appendingPathComponent("argv.pdf"), password: "b").contains(
                "Supplied password is owner password"))
        #expect(try qpdfCheck(dir.appendingPathComponent("argv.pdf").path).status != 0, "needs a password")
    }

    @Test func allowGrantsExactlyThePermissionsNamed() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected: [(String, [String])] = [
            (
                "print",
                [
                    "extract for accessibility: allowed", "extract for any purpose: not allowed",
                    "print low resolution: allowed", "print high resolution: allowed",
                    "modify document assembly: not allowed", "modify forms: not allowed",
                    "modify annotations: not allowed", "modify other: not allowed", "modify anything: not allowed",
                ]
            ),
            (
                "copy,assemble",
                [
                    "extract for accessibility: allowed", "extract for any purpose: allowed",
                    "print low resolution: not allowed", "print high resolution: not allowed",
                    "modify document assembly: allowed", "modify forms: not allowed",
                    "modify annotations: not allowed", "modify other: not allowed", "modify anything: not allowed",
                ]
            ),
            (
                "print,copy,modify,annotate,form,assemble",
                [
                    "extract for accessibility: allowed", "extract for any purpose: allowed",
                    "print low resolution: allowed", "print high resolution: allowed",
                    "modify document assembly: allowed", "modify forms: allowed",
                    "modify annotations: allowed", "modify other: allowed", "modify anything: allowed",
                ]
            ),
        ]
        for (index, (allow, lines)) in expected.enumerated() {
            let name = "allow-\(index).pdf"
            try pdfeditOK("export", name, "--from", "plain.pdf", "--encrypt", "u", "o", "--allow", allow, in: dir)
            let shown = try Self.encryption(dir.appendingPathComponent(name), password: "u")
            #expect(Self.permissions(shown) == lines, "--allow \(allow): \(shown)")
        }
        // Direct mode with --encrypt: the new passwords, not the input's.
        try pdfeditOK(
            "export", "re.pdf", "--from", "in.pdf", "--password", "U", "--encrypt", "u", "o", "--allow", "print",
            in: dir)
        let reencrypted = try Self.encryption(dir.appendingPathComponent("re.pdf"), password: "o")
        #expect(reencrypted.contains("Supplied password is owner password"))
        #expect(Self.permissions(reencrypted) == expected[0].1)
    }

    @Test func badEncryptArgumentsAreOneLineAndNeverShowAPassword() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = try pdfedit(
            "export", "x.pdf", "--from", "plain.pdf", "--encrypt", "hunter2u", "hunter2o", "--allow", "print,fly",
            in: dir)
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr
                == "pdfedit: --allow: unknown permission \"fly\"; known: print,copy,modify,annotate,form,assemble\n")
        let missing = try pdfedit(
            "export", "x.pdf", "--from", "plain.pdf", "--encrypt", "-", "--user-password-file", "nope.txt",
            "--owner-password-file", "nope.txt", in: dir)
        #expect(missing.status == 66 && missing.stderr == "pdfedit: nope.txt: no such file\n", "\(missing.stderr)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let folder = try pdfedit(
            "export", "x.pdf", "--from", "plain.pdf", "--encrypt", "-", "--user-password-file", "folder",
            "--owner-password-file", "folder", in: dir)
        #expect(folder.status == 65 && folder.stderr == "pdfedit: folder: cannot be read: not a regular file\n")
        let none = try pdfedit("export", "x.pdf", "--from", "plain.pdf", "--encrypt", "-", in: dir)
        #expect(none.status == 64)
        #expect(
            none.stderr
                == "pdfedit: --encrypt - needs the user password: give --user-password-file FILE or set PDFEDIT_USER_PASSWORD\n"
        )
        let one = try pdfedit("export", "x.pdf", "--from", "plain.pdf", "--encrypt", "hunter2u", in: dir)
        #expect(one.status == 64 && !one.stderr.contains("hunter2"), "\(one.stderr)")
        let both = try pdfedit(
            "export", "x.pdf", "--from", "plain.pdf", "--encrypt", "hunter2u", "hunter2o", "--user-password-file",
            "u.txt", in: dir)
        #expect(both.status == 64 && !both.stderr.contains("hunter2"), "\(both.stderr)")
        let alone = try pdfedit("export", "x.pdf", "--from", "plain.pdf", "--allow", "print", in: dir)
        #expect(alone.status == 64 && alone.stderr.contains("go with --encrypt"), "\(alone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.pdf").path))
    }

    // MARK: Corpus

    /// Every encrypted file of the corpus (MANIFEST.tsv's "encrypted" column:
    /// `owner-only` or `user:PASSWORD`), reversed in direct mode, keeps its
    /// revision, P value, permissions and methods, and passes `qpdf --check`.
    @Test(.enabled(if: Paths.corpusAvailable, "needs ../shared/corpus (MANIFEST.tsv)"))
    func encryptedCorpusFilesKeepTheirEncryption() throws {
        let manifest = try String(contentsOf: Paths.corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let rows = manifest.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        .filter { $0.count >= 8 && $0[7] != "none" }
        #expect(!rows.isEmpty)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for row in rows {
            let file = String(row[0])
            let encrypted = String(row[7])
            let password = encrypted.hasPrefix("user:") ? String(encrypted.dropFirst(5)) : ""
            let out = dir.appendingPathComponent(file)
            try pdfeditOK(
                args: ["reverse", "all", Paths.corpus(file), "-o", out.path]
                    + (password.isEmpty ? [] : ["--password", password]))
            func facts(_ path: String) throws -> [String] {
                try run("qpdf", ["--show-encryption", "--password=\(password)", path]).stdout.split(separator: "\n")
                    .map(String.init).filter {
                        $0.hasPrefix("R = ") || $0.hasPrefix("P = ") || $0.contains("allowed") || $0.contains("method")
                    }
            }
            let kept = try facts(out.path)
            let source = try facts(Paths.corpus(file))
            #expect(kept.count >= 11 && kept == source, "\(file): \(kept)")
            #expect(try run("qpdf", ["--check", "--password=\(password)", out.path]).status == 0, "\(file)")
        }
    }
}
