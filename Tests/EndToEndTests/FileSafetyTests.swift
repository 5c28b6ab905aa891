import Foundation
import Testing

/// Files, paths, sessions and caches as an attacker or a careless user would meet
/// them (issue 13, group A): one-character names, a session path that holds
/// something else, `--in-place` on protected files and links, private caches.

/// The permission bits of a file (not following a final symbolic link).
private func mode(_ path: String) -> Int {
    var status = stat()
    guard lstat(path, &status) == 0 else { return -1 }
    return Int(status.st_mode & 0o7777)
}

private func isSymbolicLink(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
}

/// Everything below `directory` (files and folders), relative to it.
private func files(under directory: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    return enumerator.compactMap { $0 as? String }.sorted()
}

/// The regular files below `directory`, relative to it.
private func regularFiles(under directory: URL) -> [String] {
    files(under: directory).filter { name in
        var status = stat()
        return lstat(directory.appendingPathComponent(name).path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

@Suite struct OneCharacterNameTests {
    /// Every way an output is written, with names of one character and no folder part.
    @Test("a read-only (0444) file replaced by --force or --in-place is said so, and keeps its mode in place (issue 40, item 39)")
    func readOnlyFilesAreReplacedWithAWord() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf").path
        try FileManager.default.copyItem(atPath: dir.appendingPathComponent("beta.pdf").path, toPath: out)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: out)
        let forced = try pdfeditOK("rotate", "1", "--by", "90", "alpha.pdf", "-o", "out.pdf", "--force", in: dir)
        #expect(forced.stderr.contains("warning: out.pdf: read-only file replaced, as asked"), "\(forced.stderr)")
        #expect(try pageTokens(out).first == "ALPHA-P1")
        let input = dir.appendingPathComponent("alpha.pdf").path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: input)
        let inPlace = try pdfeditOK("rotate", "1", "--by", "90", "alpha.pdf", "--in-place", in: dir)
        #expect(inPlace.stderr.contains("read-only file replaced, as asked"), "\(inPlace.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: input)[.posixPermissions] as? Int
        #expect(mode == 0o444, "the input's mode became \(String(mode ?? 0, radix: 8))")
        // A writable file replaced with --force: no such word.
        let plain = try pdfeditOK("rotate", "1", "--by", "90", "beta.pdf", "-o", "beta2.pdf", in: dir)
        let again = try pdfeditOK("rotate", "1", "--by", "90", "beta.pdf", "-o", "beta2.pdf", "--force", in: dir)
        #expect(!plain.stderr.contains("read-only") && !again.stderr.contains("read-only"), "\(again.stderr)")
    }

    @Test func everyWriterAcceptsOneCharacterNames() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try pdfedit("export", "X", "--from", "alpha.pdf", "1", in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("X").path) == 1)

        let direct = try pdfedit("rotate", "1", "--by", "90", "alpha.pdf", "-o", "z", in: dir)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("z").path) == 7)

        try FileManager.default.copyItem(at: dir.appendingPathComponent("alpha.pdf"), to: dir.appendingPathComponent("b"))
        let inPlace = try pdfedit("remove", "1", "b", "--in-place", in: dir)
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("b").path) == 6)

        try pdfeditOK("open", "alpha.pdf", in: dir)
        let session = try pdfedit("export", "q", "2", in: dir)
        #expect(session.status == 0, "\(session.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("q")) == ["ALPHA-P2"])
        // Also a non-ASCII one-character name, and one given with a trailing slash's cousin "./".
        try pdfeditOK("export", "é", "1", in: dir)
        try pdfeditOK("export", "./Y", "1", in: dir)
        #expect(try qpdfPageCount(dir.appendingPathComponent("é").path) == 1)
        #expect(try qpdfPageCount(dir.appendingPathComponent("Y").path) == 1)
    }
}

@Suite struct SessionPlaceTests {
    @Test func aSourceIsNeverReplacedBySessionJSON() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: dir.appendingPathComponent("beta.pdf"))
        let same = try pdfedit("open", "beta.pdf", "--force", "--session", "beta.pdf", in: dir)
        #expect(same.status == 73)
        #expect(same.stderr.hasPrefix("pdfedit: ") && same.stderr.contains("beta.pdf"))
        let other = try pdfedit("open", "alpha.pdf", "--force", "--session", "beta.pdf", in: dir)
        #expect(other.status == 73)
        #expect(other.stderr.contains("not a pdfedit session"))
        #expect(!other.stderr.contains("--force"), "the hint must not point at replacing it: \(other.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("beta.pdf")) == before)
    }

    @Test func aFileThatIsNotASessionIsRefusedEvenWithForce() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("my notes\n".utf8).write(to: notes)
        let result = try pdfedit(
            "open", "alpha.pdf", "--force", in: dir, environment: ["PDFEDIT_SESSION": notes.path])
        #expect(result.status == 73)
        #expect(result.stderr.contains("notes.txt") && result.stderr.contains("not a pdfedit session"))
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")
    }

    @Test func aDamagedSessionIsNamedAndLeftButAnyVersionIsReplaced() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = dir.appendingPathComponent("s.json")
        let damaged = Data(#"{"version": 2, "documents": 7}"#.utf8)
        try damaged.write(to: session)
        let refused = try pdfedit("open", "alpha.pdf", "--force", "--session", "s.json", in: dir)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("s.json") && refused.stderr.contains("damaged session"))
        #expect(try Data(contentsOf: session) == damaged)
        // A session of a version this pdfedit cannot read is still a session.
        try Data(#"{"version": 99, "documents": []}"#.utf8).write(to: session)
        try pdfeditOK("open", "alpha.pdf", "--force", "--session", "s.json", in: dir)
        try pdfeditOK("status", "--session", "s.json", in: dir)
    }

    @Test func aSessionPathThatIsNotARegularFileIsRefused() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A FIFO: must neither hang (reading it blocks) nor say "permission denied".
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["status", "--session", "fifo"], ["open", "alpha.pdf", "--force", "--session", "fifo"]] {
            let result = try run("timeout", ["20", Paths.binary] + arguments, in: dir)
            #expect(result.status == 73, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("fifo") && result.stderr.contains("not a regular file"))
        }
        // A folder (as PDFEDIT_SESSION=/ would be): refused before any lock file is made.
        let folder = dir.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try pdfedit("open", "alpha.pdf", "--force", in: dir, environment: ["PDFEDIT_SESSION": folder.path])
        #expect(result.status == 73)
        #expect(!FileManager.default.fileExists(atPath: folder.path + ".lock"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // A device node (root only may make one): left a device.
        let device = dir.appendingPathComponent("null").path
        if getuid() == 0, mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            let replaced = try pdfedit("open", "alpha.pdf", "--force", in: dir, environment: ["PDFEDIT_SESSION": device])
            #expect(replaced.status == 73)
            var status = stat()
            #expect(lstat(device, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        }
    }

    @Test func exportRefusesTheSessionFiles() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        for name in [".pdfedit/session.json", ".pdfedit/session.json.lock", "./.pdfedit/../.pdfedit/session.json"] {
            let result = try pdfedit("export", name, "--force", in: dir)
            #expect(result.status == 73, "\(name): \(result.stderr)")
            #expect(result.stderr.hasPrefix("pdfedit: ") && result.stderr.contains("session"))
        }
        #expect(try sessionBytes(dir) == before)
        try pdfeditOK("status", in: dir)
    }

    /// A command that needs a session, where there is none, fails (66) without
    /// leaving a `.pdfedit` folder or a lock file behind.
    @Test func aFailedCommandWithoutASessionLeavesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["status"], ["list"], ["export", "o.pdf"], ["undo"], ["status", "--session", "x/s.json"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 66, "\(arguments): \(result.stderr)")
        }
        #expect(files(under: dir).isEmpty, "\(files(under: dir))")
    }

    @Test func contactSheetsRefuseTheSessionFile() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "--session", "s.png", in: dir)
        let before = try Data(contentsOf: dir.appendingPathComponent("s.png"))
        let result = try pdfedit("show", "-o", "s.png", "--force", "--session", "s.png", in: dir)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("s.png")) == before)
    }

    @Test func aSymlinkedSessionIsFollowedNotReplaced() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "--session", "real.json", in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: "real.json")
        try pdfeditOK("remove", "1", "--session", "link.json", in: dir)
        #expect(isSymbolicLink(dir.appendingPathComponent("link.json").path))
        // The edit is in the one session, whichever name reaches it.
        let listed = try pdfedit("list", "--no-text", "--session", "real.json", in: dir)
        #expect(listed.status == 0)
        #expect(!listed.stdout.contains("p1 "), "\(listed.stdout)")
        try pdfeditOK("undo", "--session", "real.json", in: dir)
    }

    @Test func aDamagedHistoryEntryIsAnUnusableSession() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("remove", "1", in: dir)
        let file = dir.appendingPathComponent(".pdfedit/session.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let damaged = try #require(text.range(of: #""document" : "alpha""#))
        try text.replacingCharacters(in: damaged, with: #""document" : "nosuch""#).write(to: file, atomically: true, encoding: .utf8)
        let result = try pdfedit("undo", in: dir)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("pdfedit: ") && result.stderr.contains(".pdfedit/session.json"))
    }
}

@Suite struct InPlacePermissionTests {
    @Test func inPlaceKeepsTheModeAndWritesThroughLinks() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for wanted in [0o600, 0o444, 0o640] {
            let name = "m\(String(wanted, radix: 8)).pdf"
            let path = dir.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: dir.appendingPathComponent("alpha.pdf").path, toPath: path)
            #expect(chmod(path, mode_t(wanted)) == 0)
            let result = try pdfedit("remove", "1", name, "--in-place", in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(mode(path) == wanted, "\(name) became \(String(mode(path), radix: 8))")
            #expect(try qpdfPageCount(path) == 6)
        }
        let target = dir.appendingPathComponent("target.pdf").path
        try FileManager.default.copyItem(atPath: dir.appendingPathComponent("alpha.pdf").path, toPath: target)
        #expect(chmod(target, 0o600) == 0)
        let link = dir.appendingPathComponent("link.pdf").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.pdf")
        let result = try pdfedit("remove", "1..2", "link.pdf", "--in-place", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(isSymbolicLink(link))
        #expect(try qpdfPageCount(target) == 5)
        #expect(mode(target) == 0o600)
        // A new output gets the usual mode (0666 less the umask), not the temporary's 0600.
        let mask = umask(0o022)
        umask(mask)
        try pdfeditOK("export", "new.pdf", "--from", "alpha.pdf", in: dir)
        #expect(mode(dir.appendingPathComponent("new.pdf").path) == 0o666 & ~Int(mask))
    }
}

@Suite struct CacheSafetyTests {
    @Test func theCacheOfAnEncryptedSourceIsWrittenOnlyWhenAskedAndIsPrivate() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent(".pdfedit/cache")
        // A cache folder an older pdfedit made with the umask's mode is made private.
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        #expect(chmod(cache.path, 0o755) == 0)
        try pdfeditOK("open", "encrypted.pdf", "--password", "secret", in: dir)
        try pdfeditOK("list", "--password", "secret", in: dir)
        try pdfeditOK("thumbs", "th", "--password", "secret", in: dir)
        #expect(regularFiles(under: cache).isEmpty, "\(regularFiles(under: cache))")

        let asked = ["PDFEDIT_CACHE_ENCRYPTED": "1"]
        try pdfeditOK("list", "--password", "secret", in: dir, environment: asked)
        try pdfeditOK("thumbs", "th2", "--password", "secret", in: dir, environment: asked)
        let cached = files(under: cache)
        #expect(cached.contains { $0.hasPrefix("pages/") && $0.hasSuffix(".json") })
        #expect(cached.contains { $0.hasSuffix(".png") })
        #expect(mode(cache.path) == 0o700)
        for name in cached {
            let path = cache.appendingPathComponent(name).path
            let isFile = regularFiles(under: cache).contains(name)
            #expect(mode(path) == (isFile ? 0o600 : 0o700), "\(name): \(String(mode(path), radix: 8))")
        }
    }

    @Test func cachesOfSourcesNoLongerInTheSessionArePrunedAndTheCapHolds() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent(".pdfedit/cache")
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("list", in: dir)
        try pdfeditOK("thumbs", "th", in: dir)
        let alpha = files(under: cache)
        #expect(alpha.contains { $0.hasPrefix("pages/") } && alpha.contains { $0.hasPrefix("thumbs/v1/") && $0.hasSuffix(".png") })
        try pdfeditOK("open", "beta.pdf", "--force", in: dir)
        try pdfeditOK("list", in: dir)
        let beta = regularFiles(under: cache)
        #expect(beta.count == 1 && beta.allSatisfy { !alpha.contains($0) }, "\(beta) after \(alpha)")
        // The cap: 0 MB keeps nothing once the command is done.
        try pdfeditOK("thumbs", "th2", in: dir, environment: ["PDFEDIT_CACHE_MAX_MB": "0"])
        #expect(regularFiles(under: cache).isEmpty)
    }

    @Test func aMalformedPasswordForIsNotEchoed() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("export", "o.pdf", "--from", "encrypted.pdf", "--password-for", "hunter2xyz", in: dir)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("pdfedit: ") && result.stderr.contains("--password-for"))
        #expect(!result.stderr.contains("hunter2xyz"))
    }
}

@Suite(.serialized) struct ScratchCleanupTests {
    /// What a killed (SIGKILL) direct-mode run left in $TMPDIR is removed by the next
    /// one that makes a scratch folder (one converting an image; a PDF's edit makes
    /// none and does not look); a live process's folder and other names are left alone.
    @Test func staleScratchFoldersOfDeadProcessesAreRemoved() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "logo.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let temporary = dir.appendingPathComponent("tmp")
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let stale = temporary.appendingPathComponent("pdfedit-\(finished.processIdentifier)-7/images")
        let live = temporary.appendingPathComponent("pdfedit-\(getpid())-7")
        let other = temporary.appendingPathComponent("pdfedit-notes")
        for folder in [stale, live, other] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data("x".utf8).write(to: stale.appendingPathComponent("a.pdf"))
        let result = try pdfedit("export", "o.pdf", "--from", "alpha.pdf", in: dir, environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.stderr)")
        let all = ["pdfedit-\(finished.processIdentifier)-7", "pdfedit-\(getpid())-7", "pdfedit-notes"].sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted() == all)
        let image = try pdfedit("insert", "logo.png", "alpha.pdf", "-o", "i.pdf", in: dir, environment: ["TMPDIR": temporary.path])
        #expect(image.status == 0, "\(image.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted() == ["pdfedit-\(getpid())-7", "pdfedit-notes"])
    }

    /// SIGINT / SIGTERM in direct mode: the private scratch folder in $TMPDIR goes
    /// too, with the image converted into it.
    @Test(arguments: [SIGINT, SIGTERM])
    func signalInDirectModeLeavesNoScratchFolder(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let temporary = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        try run("python3", [Paths.root.appendingPathComponent("scripts/make-big-pdf.py").path, "20000", dir.appendingPathComponent("big.pdf").path])
        try FileManager.default.copyItem(atPath: Paths.fixture("gray16.png"), toPath: dir.appendingPathComponent("gray16.png").path)
        var landed = false
        for attempt in 1...4 where !landed {
            let output = "out\(attempt).pdf"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["insert", "gray16.png", "--at", "1", "big.pdf", "-o", output]
            process.currentDirectoryURL = dir
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporary.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var sent = false
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
                if names.contains(where: { $0.hasPrefix(".\(output).pdfedit-tmp-") }) {
                    kill(process.processIdentifier, signal)
                    sent = true
                    break
                }
                usleep(1_000)
            }
            process.waitUntilExit()
            landed = sent && process.terminationStatus == 128 + signal
        }
        try #require(landed, "the command always finished before the signal")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }
}
