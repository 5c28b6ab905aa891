import Foundation
import Testing

/// Issue 40, the second attack on files: what an output may replace is decided by
/// what files are (device and inode), never by their paths' text; every file a
/// command reads is protected as a source is; a previous export is replaced
/// without --force only while it is as pdfedit wrote it. Each test failed on the
/// build the attack was made on.
@Suite struct FileIdentityAttackTests {
    /// `L/../x.pdf`, where `L` is a link to `d/sub`, is `d/x.pdf` for the kernel;
    /// folding `..` as text made it `./x.pdf`, and `--force` replaced the source.
    /// Item 1: session export, direct mode, apply and `outline export`.
    @Test func aLinkAndDotDotNeverLandOnASource() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let d = dir.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: d.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: d.appendingPathComponent("x.pdf"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("L").path, withDestinationPath: "d/sub")
        let source = d.appendingPathComponent("x.pdf")
        let before = try Data(contentsOf: source)
        try pdfeditOK("open", "d/x.pdf", in: dir)
        try pdfeditOK("remove", "2..7", in: dir)
        for (arguments, code) in [
            (["export", "L/../x.pdf", "--force"], Int32(73)),
            (["reverse", "all", "d/x.pdf", "-o", "L/../x.pdf", "--force"], 73),
            (["outline", "export", "L/../x.pdf", "--force"], 73),
            (["apply", "-e", "rotate 1 --by 90", "d/x.pdf", "-o", "L/../{name}", "--force"], 64),
        ] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == code, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("pdfedit: L/../x.pdf: ") || result.stderr.contains("would replace"),
                "\(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: source) == before, "\(arguments) changed the source")
        }
        // The session stored the file the kernel reached, so its export still reads it.
        try pdfeditOK("export", "out.pdf", in: dir)
        #expect(try qpdfPageCount(dir.appendingPathComponent("out.pdf").path) == 1)
        // The same link used to open a file: the source is d/x.pdf, not ./x.pdf.
        let other = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        try FileManager.default.createDirectory(at: other.appendingPathComponent("d/sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: other.appendingPathComponent("d/x.pdf"))
        try FileManager.default.createSymbolicLink(atPath: other.appendingPathComponent("L").path, withDestinationPath: "d/sub")
        try pdfeditOK("open", "L/../x.pdf", in: other)
        try pdfeditOK("export", "o.pdf", in: other)
        #expect(try pageTokens(other.appendingPathComponent("o.pdf")).first == "ALPHA-P1")
    }

    /// Two inputs of one batch written to one output through a linked folder
    /// (`c` → `a`), before the output's folder exists (item 4).
    @Test func twoOutputsThroughALinkedFolderAreOneFile() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a")
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: a.appendingPathComponent("x.pdf"))
        try FileManager.default.copyItem(at: dir.appendingPathComponent("beta.pdf"), to: a.appendingPathComponent("y.pdf"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("c").path, withDestinationPath: "a")
        let result = try pdfedit(
            "apply", "-e", "rotate 1 --by 90", "a/x.pdf", "c/y.pdf", "-o", "{dir}/new/o.pdf", "--force", in: dir)
        #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("a/x.pdf and c/y.pdf would both be written to"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: a.appendingPathComponent("new").path))
    }

    /// The session's list of exports named like a source (item 2): `open` refuses
    /// a file of the session as a source, and a source that got there another way
    /// (insert) is never written over by the list.
    @Test func theExportsListNeverReplacesASource() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("s.json.exports")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: list)
        let before = try Data(contentsOf: list)
        let refused = try pdfedit("open", "s.json.exports", "--session", "s.json", in: dir)
        #expect(refused.status == 73 && refused.stderr.contains("s.json.exports"), "\(refused.stderr)")
        try pdfeditOK("open", "beta.pdf", "--session", "s.json", in: dir)
        try pdfeditOK("insert", "s.json.exports", "--session", "s.json", in: dir)
        try pdfeditOK("export", "out.pdf", "--session", "s.json", in: dir)
        #expect(try Data(contentsOf: list) == before)
        #expect(try qpdfPageCount(dir.appendingPathComponent("out.pdf").path) == 12)
    }

    /// A previous export is replaced without --force only while it is what pdfedit
    /// wrote (item 3): the user's own file put there since — new content, or
    /// another file of the same size — needs --force.
    @Test func aPreviousExportTheUserChangedIsTheirs() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o.pdf")
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("export", "o.pdf", in: dir)
        try pdfeditOK("export", "o.pdf", in: dir)  // still as written: no --force needed
        try Data("mine\n".utf8).write(to: out)
        let refused = try pdfedit("export", "o.pdf", in: dir)
        #expect(refused.status == 73 && refused.stderr.contains("o.pdf: exists; use --force"), "\(refused.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == "mine\n")
        // A file of the very same size and bytes, but another file: still the user's.
        try pdfeditOK("export", "o.pdf", "--force", in: dir)
        let copy = dir.appendingPathComponent("copy.pdf")
        try FileManager.default.copyItem(at: out, to: copy)
        #expect(rename(copy.path, out.path) == 0)
        #expect(try pdfedit("export", "o.pdf", in: dir).status == 73)
    }

    /// `--force` never replaces the script or a password file the command reads
    /// (item 5): they are protected as sources are.
    @Test func theScriptAndPasswordFilesAreNeverOutputs() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("fix.txt")
        try Data("rotate 1 --by 90\n".utf8).write(to: script)
        let applied = try pdfedit("apply", "fix.txt", "alpha.pdf", "-o", "fix.txt", "--force", in: dir)
        #expect(applied.status == 73, "\(applied.stdout) \(applied.stderr)")
        #expect(applied.stderr.contains("fix.txt: is the script this command reads"), "\(applied.stderr)")
        #expect(try String(contentsOf: script, encoding: .utf8) == "rotate 1 --by 90\n")

        for name in ["u.txt", "o.txt"] { try Data("pw-\(name)\n".utf8).write(to: dir.appendingPathComponent(name)) }
        let encrypted = try pdfedit(
            "reverse", "all", "alpha.pdf", "-o", "./u.txt", "--force", "--encrypt", "-", "--user-password-file", "u.txt",
            "--owner-password-file", "o.txt", in: dir)
        #expect(encrypted.status == 73 && encrypted.stderr.contains("a password file"), "\(encrypted.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("u.txt"), encoding: .utf8) == "pw-u.txt\n")

        try Data("alpha.pdf=x\n".utf8).write(to: dir.appendingPathComponent("pw.list"))
        let listed = try pdfedit(
            "reverse", "all", "alpha.pdf", "-o", "pw.list", "--force", in: dir,
            environment: ["PDFEDIT_PASSWORD_FILE": dir.appendingPathComponent("pw.list").path])
        #expect(listed.status == 73, "\(listed.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("pw.list"), encoding: .utf8) == "alpha.pdf=x\n")
    }

    /// A session holding what was read from a source opened with a password (its
    /// bookmark titles) is written 0600 whatever the umask, and stays so (item 8).
    @Test func aSessionWithDecryptedContentIsPrivate() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try run(
            "qpdf", ["--encrypt", "upw", "opw", "256", "--", Paths.fixture("features.pdf"), dir.appendingPathComponent("enc.pdf").path])
        try #require(made.status == 0, "\(made.stderr)")
        try pdfeditOK("open", "enc.pdf", "--password", "upw", in: dir)
        let session = dir.appendingPathComponent(".pdfedit/session.json").path
        func mode() -> mode_t {
            var status = stat()
            stat(session, &status)
            return status.st_mode & 0o777
        }
        #expect(try String(contentsOfFile: session, encoding: .utf8).contains("Chapter 1"))  // what must stay private
        #expect(mode() == 0o600, "\(String(mode(), radix: 8))")
        try pdfeditOK("move", "1", "--to", "2", in: dir)  // no password: the mode is kept
        #expect(mode() == 0o600)
        // A session of plain sources keeps the usual mode.
        try pdfeditOK("open", "features.pdf", "--session", "plain.json", in: dir)
        var status = stat()
        stat(dir.appendingPathComponent("plain.json").path, &status)
        #expect(status.st_mode & 0o044 != 0)
    }

    /// `export 1..3`, the output name forgotten, wrote a file named `1..3`
    /// (item 41): an output that is a selection and not a .pdf is refused (64).
    @Test func anOutputThatIsASelectionIsRefused() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        for name in ["1..3", "odd", "last"] {
            let result = try pdfedit("export", name, in: dir)
            #expect(result.status == 64 && result.stderr.contains("is a page selection"), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path))
        }
        try pdfeditOK("export", "1..3.pdf", "1..3", in: dir)
        #expect(try qpdfPageCount(dir.appendingPathComponent("1..3.pdf").path) == 3)
    }
}

/// The cache of a session is trusted only when it is the user's own (item 7),
/// and direct mode neither reads nor writes a session's cache of the current folder.
@Suite struct CacheTrustTests {
    /// `pages/<sha256>.json` claiming every page of alpha.pdf reads "PLANTED".
    static func plant(in cache: URL, sha256: String) throws {
        let pages = cache.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        let texts = (1...7).map { "\"\($0)\":\"PLANTED\"" }.joined(separator: ",")
        let record = "{\"version\":1,\"sha256\":\"\(sha256)\",\"texts\":{\(texts)},\"labels\":{},\"sizes\":{},\"darkShares\":{}}"
        try Data(record.utf8).write(to: pages.appendingPathComponent("\(sha256).json"))
    }

    static func sha256(of file: URL) throws -> String {
        String(try run("sha256sum", [file.path]).stdout.prefix(64))
    }

    @Test func anotherUsersOrAWorldWritableCacheIsIgnored() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "--session", "s.json", in: dir)
        let cache = dir.appendingPathComponent(".pdfedit-cache")
        let sha = try Self.sha256(of: dir.appendingPathComponent("alpha.pdf"))
        try Self.plant(in: cache, sha256: sha)
        // Everyone may write in it, as a planted cache in a shared folder would be.
        _ = try run("chmod", ["-R", "a+rwX", cache.path])
        if getuid() == 0 {
            // Another user's: ignored, with a warning naming it.
            _ = try run("chown", ["-R", "65534:65534", cache.path])
            let found = try pdfedit("find", "PLANTED", "--session", "s.json", in: dir)
            #expect(found.status == 0 && found.stdout.contains("no page contains"), "\(found.stdout)")
            #expect(found.stderr.contains(".pdfedit-cache: cache not used: it belongs to another user"), "\(found.stderr)")
            _ = try run("chown", ["-R", "0:0", cache.path])
        }
        // This user's, but its entry writable by others: the entry is not used.
        let found = try pdfedit("find", "PLANTED", "--session", "s.json", in: dir)
        #expect(found.status == 0 && found.stdout.contains("no page contains"), "\(found.stdout) \(found.stderr)")
        let removed = try pdfedit("remove", "text:ALPHA-P2", "--session", "s.json", in: dir)
        #expect(removed.status == 0, "\(removed.stderr)")
        let listed = try pdfeditOK("list", "--session", "s.json", in: dir)
        #expect(listed.stdout.contains("alpha: 6 pages"), "\(listed.stdout)")
        // A symbolic link in the cache's place is never followed.
        try FileManager.default.removeItem(at: cache)
        let elsewhere = dir.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cache.path, withDestinationPath: "elsewhere")
        try Self.plant(in: elsewhere, sha256: sha)
        let linked = try pdfedit("find", "PLANTED", "--session", "s.json", in: dir)
        #expect(linked.stdout.contains("no page contains") && linked.stderr.contains("it is a symbolic link"),
            "\(linked.stdout) \(linked.stderr)")
        try pdfeditOK("thumbs", "th", "--session", "s.json", in: dir)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["pages"])
    }

    /// Direct mode in a folder holding a session's cache: what the cache says is
    /// not believed, and nothing is written there.
    @Test func directModeUsesNoSessionCache() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent(".pdfedit/cache")
        try Self.plant(in: cache, sha256: try Self.sha256(of: dir.appendingPathComponent("alpha.pdf")))
        _ = try run("chmod", ["-R", "go-rwx", dir.appendingPathComponent(".pdfedit").path])
        func listing() -> [String] { (FileManager.default.subpaths(atPath: cache.path) ?? []).sorted() }
        let before = listing()
        try pdfeditOK("remove", "text:ALPHA-P2", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("out.pdf")) == ["ALPHA-P1", "ALPHA-P3", "ALPHA-P4", "ALPHA-P5", "ALPHA-P6", "ALPHA-P7"])
        #expect(listing() == before)
    }
}

/// Sources that are no longer regular files, inputs from pipes without end, and
/// the exit code of a report nobody read (items 17, 24, 25, 35, 36, 38).
@Suite struct UnboundedInputTests {
    func shell(_ line: String, in dir: URL, environment: [String: String] = [:]) throws -> Run {
        var env = ["PDFEDIT": Paths.binary, "TMPDIR": dir.appendingPathComponent("tmp").path]
        env.merge(environment) { $1 }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        return try run("/bin/bash", ["-c", line], in: dir, environment: env)
    }

    /// A source swapped for a FIFO, a device or a huge sparse file is found
    /// changed at once, without reading it, and the lock is not held forever (item 24).
    @Test func aSourceThatIsNoLongerAFileIsNotRead() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let source = dir.appendingPathComponent("alpha.pdf").path
        try FileManager.default.removeItem(atPath: source)
        #expect(mkfifo(source, 0o600) == 0)
        for arguments in [["list"], ["export", "o.pdf"], ["status"]] {
            let result = try run("timeout", ["20", Paths.binary] + arguments, in: dir)
            #expect(result.status == (arguments == ["status"] ? 0 : 75), "\(arguments): \(result.status) \(result.stderr)")
            #expect((result.stderr + result.stdout).contains("alpha.pdf"), "\(arguments)")
        }
        try FileManager.default.removeItem(atPath: source)
        try FileManager.default.createSymbolicLink(atPath: source, withDestinationPath: "/dev/zero")
        let zero = try run("timeout", ["20", Paths.binary, "list"], in: dir)
        #expect(zero.status == 75 && zero.stderr.contains("a device now"), "\(zero.stderr)")
        try FileManager.default.removeItem(atPath: source)
        #expect(FileManager.default.createFile(atPath: source, contents: nil))
        #expect(truncate(source, 100 << 30) == 0 || truncate(source, 1 << 30) == 0)
        let started = Date()
        let sparse = try run("timeout", ["20", Paths.binary, "list"], in: dir)
        #expect(sparse.status == 75 && Date().timeIntervalSince(started) < 5, "\(sparse.stderr)")
    }

    /// `run -` and `apply -` read at most PDFEDIT_MAX_SCRIPT_BYTES (SIGABRT under
    /// `ulimit -v` before), and a line longer than PDFEDIT_MAX_LINE_BYTES is
    /// refused before its words are split (item 17).
    @Test func scriptsFromPipesAreBounded() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let session = try sessionBytes(dir)
        for line in [
            "ulimit -v 1000000; timeout 60 \"$PDFEDIT\" run - < /dev/zero",
            "ulimit -v 1000000; timeout 60 \"$PDFEDIT\" apply - alpha.pdf -o 'o/{name}' < /dev/zero",
        ] {
            let result = try shell(line, in: dir)
            #expect(result.status == 65 && result.stderr.contains("PDFEDIT_MAX_SCRIPT_BYTES"), "\(line): \(result.status) \(result.stderr)")
        }
        let small = try pdfedit("run", "-", in: dir, environment: ["PDFEDIT_MAX_SCRIPT_BYTES": "20"], stdin: "rotate 1 --by 90\nrotate 2 --by 90\n")
        #expect(small.status == 65 && small.stderr.contains("more than 20 bytes"), "\(small.stderr)")
        let long = try pdfedit(
            "run", "-", in: dir, environment: ["PDFEDIT_MAX_LINE_BYTES": "30"],
            stdin: "rotate 1 --by 90\nrotate 2 --by 90 # " + String(repeating: "x", count: 40) + "\n")
        #expect(long.status == 65 && long.stderr.contains("stdin:2: over a limit: a line of"), "\(long.stderr)")
        #expect(try sessionBytes(dir) == session)
        let unbounded = try pdfedit("list", in: dir, environment: ["PDFEDIT_MAX_SCRIPT_BYTES": "\(1 << 40)"])
        #expect(unbounded.status == 64 && unbounded.stderr.contains("from 1 to 1073741824"), "\(unbounded.stderr)")
    }

    /// `-` is looked at before it is spooled: what is not a PDF or an image is
    /// refused at once, and no more than PDFEDIT_MAX_STDIN_BYTES is spooled;
    /// nothing is left in TMPDIR (item 25).
    @Test func standardInputIsCheckedAndBounded() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let zero = try shell("timeout 20 \"$PDFEDIT\" reverse all - -o o.pdf < /dev/zero", in: dir)
        #expect(zero.status == 65 && zero.stderr.contains("-: not a PDF"), "\(zero.status) \(zero.stderr)")
        let padded = try shell(
            "cat alpha.pdf /dev/zero | timeout 20 \"$PDFEDIT\" reverse all - -o o.pdf", in: dir,
            environment: ["PDFEDIT_MAX_STDIN_BYTES": "100000"])
        #expect(padded.status == 65 && padded.stderr.contains("PDFEDIT_MAX_STDIN_BYTES"), "\(padded.status) \(padded.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("tmp").path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.pdf").path))
        let fine = try shell("\"$PDFEDIT\" reverse all - -o o.pdf < alpha.pdf", in: dir)
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// A report that cannot be written (a full disk) is 73, not 0 (item 35).
    @Test func aLostReportIsAnError() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        for line in [
            "\"$PDFEDIT\" list --json > /dev/full",
            "\"$PDFEDIT\" info alpha.pdf > /dev/full",
            "\"$PDFEDIT\" apply -e 'rotate 1 --by 90' alpha.pdf beta.pdf -o 'out/{name}' --json > /dev/full",
        ] {
            let result = try shell(line, in: dir)
            #expect(result.status == 73 && result.stderr.contains("standard output: cannot be written"), "\(line): \(result.status) \(result.stderr)")
        }
    }

    /// `apply … | head -1`: no death by SIGPIPE, no new file started once the
    /// reader left, a summary on stderr, exit 141, no temporary left, and every
    /// output written is whole (item 36).
    @Test func aReaderThatLeavesStopsABatchCleanly() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = (1...150).map { "f\($0).pdf" }
        for input in inputs {
            try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: dir.appendingPathComponent(input))
        }
        let result = try shell(
            "set -o pipefail; \"$PDFEDIT\" apply -e 'rotate 1 --by 90' " + inputs.joined(separator: " ")
                + " -o 'out/{name}' -j 2 | head -1", in: dir)
        #expect(result.status == 141, "\(result.status) \(result.stderr)")
        #expect(result.stdout.hasPrefix("ok ") && result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("the reader went away") && result.stderr.contains("not started"), "\(result.stderr)")
        let out = dir.appendingPathComponent("out")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(!written.contains { $0.contains("pdfedit-tmp") }, "\(written)")
        #expect(written.count < inputs.count, "\(written.count)")
        for name in written { #expect(try qpdfCheck(out.appendingPathComponent(name).path).status == 0, "\(name)") }
    }

    /// A file name with an escape sequence and a line break: one escaped line per
    /// file in human output, never the raw bytes (item 38).
    @Test func controlCharactersOfNamesAreEscaped() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "x\u{1b}[31mRED\nb.pdf"
        try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: dir.appendingPathComponent(name))
        let applied = try pdfeditOK("apply", "-e", "rotate 1 --by 90", name, "-o", "o/{stem}.pdf", in: dir)
        #expect(!applied.stdout.contains("\u{1b}") && applied.stdout.split(separator: "\n").count == 1, "\(applied.stdout)")
        #expect(applied.stdout.contains("x\\u{1b}[31mRED\\nb.pdf"), "\(applied.stdout)")
        let wrote = try pdfeditOK("reverse", "all", name, "-o", "r\u{1b}.pdf", in: dir)
        #expect(!wrote.stdout.contains("\u{1b}") && wrote.stdout.contains("wrote r\\u{1b}.pdf"), "\(wrote.stdout)")
        try pdfeditOK("open", name, in: dir)
        let listed = try pdfeditOK("list", in: dir)
        #expect(!listed.stdout.contains("\u{1b}") && listed.stdout.split(separator: "\n").count == 9, "\(listed.stdout)")
    }
}

/// A run that dies of a fatal signal — an abort short of memory inside a
/// library, a crash — leaves no temporary behind (item 18: SIGSEGV under a
/// memory limit left 28 of them).
@Suite(.serialized) struct CrashCleanupTests {
    @Test(arguments: [SIGSEGV, SIGABRT])
    func aCrashLeavesNoTemporary(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 20000, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        try pdfeditOK("reverse", in: dir)
        var landed: Process?
        for attempt in 1...4 where landed == nil {
            let output = "out\(attempt).pdf"
            let process = try Reliability.start(["export", output], in: dir)
            var sent = false
            while process.isRunning {
                if Reliability.temporaries(in: dir).contains(where: { $0.hasPrefix(".\(output).pdfedit-tmp-") }) {
                    kill(process.processIdentifier, signal)
                    sent = true
                    break
                }
                usleep(1_000)
            }
            process.waitUntilExit()
            if sent && process.terminationReason == .uncaughtSignal { landed = process }
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(output))
        }
        let process = try #require(landed, "the export always finished before the signal")
        #expect(process.terminationStatus == signal)
        #expect(Reliability.temporaries(in: dir).isEmpty, "\(Reliability.temporaries(in: dir))")
    }
}

/// File names that are not UTF-8 (item 37): read and written as their own
/// bytes (not as U+FFFD's, which named another file), shown as `\xFF`, and in
/// JSON as `\udcff` (Python's surrogateescape: `os.fsencode` gives the bytes back).
/// Run through bash, which can pass such bytes as arguments.
@Suite struct ByteFileNameTests {
    func shell(_ line: String, in dir: URL) throws -> Run {
        try run("/bin/bash", ["-c", line], in: dir, environment: ["PDFEDIT": Paths.binary])
    }

    /// The names in `dir` as bytes, each as Python writes a bytes literal.
    func names(in dir: URL, _ folder: String = ".") throws -> Set<String> {
        let listed = try run(
            "python3", ["-c", "import os,sys; [print(repr(n)) for n in sorted(os.listdir(os.fsencode(sys.argv[1])))]", folder],
            in: dir)
        return Set(listed.stdout.split(separator: "\n").map(String.init))
    }

    @Test func namesAreBytesEndToEnd() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try shell("cp alpha.pdf \"$(printf 'bad\\xff.pdf')\"", in: dir)
        let direct = try shell("\"$PDFEDIT\" reverse all \"$(printf 'bad\\xff.pdf')\" -o \"$(printf 'o\\xff.pdf')\"", in: dir)
        #expect(direct.status == 0 && direct.stdout.contains("wrote o\\xFF.pdf"), "\(direct.stdout) \(direct.stderr)")
        let listed = try names(in: dir)
        #expect(listed.contains("b'o\\xff.pdf'"), "\(listed)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o\u{FFFD}.pdf").path))  // not U+FFFD's name

        let applied = try shell(
            "\"$PDFEDIT\" apply -e 'rotate 1 --by 90' \"$(printf 'bad\\xff.pdf')\" -o 'out/{stem}-r.pdf' --json", in: dir)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout.contains(#""file":"bad\udcff.pdf""#), "\(applied.stdout)")
        let decoded = try run(
            "python3", ["-c", "import json,os,sys; d=json.loads(sys.stdin.readline()); print(os.fsencode(d['output']))"],
            stdin: applied.stdout)
        #expect(decoded.stdout == "b'out/bad\\xff-r.pdf'\n", "\(decoded.stdout) \(decoded.stderr)")
        #expect(try names(in: dir, "out") == ["b'bad\\xff-r.pdf'"])

        let opened = try shell(
            "\"$PDFEDIT\" open \"$(printf 'bad\\xff.pdf')\" && \"$PDFEDIT\" export \"$(printf 'e\\xfe.pdf')\" && \"$PDFEDIT\" list",
            in: dir)
        #expect(opened.status == 0 && opened.stdout.contains("bad\\xFF.pdf") && opened.stdout.contains("wrote e\\xFE.pdf"),
            "\(opened.stdout) \(opened.stderr)")
        #expect(try names(in: dir).contains("b'e\\xfe.pdf'"))
        // A message names the file as its bytes show, one line.
        let missing = try shell("\"$PDFEDIT\" info \"$(printf 'no\\xff.pdf')\"", in: dir)
        #expect(missing.status == 66 && missing.stderr == "pdfedit: no\\xFF.pdf: no such file\n", "\(missing.stderr)")
    }
}
