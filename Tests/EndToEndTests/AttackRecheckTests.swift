import Foundation
import Testing

/// What a second attack on the merged hardening found: each test failed on the
/// build it was found on.
@Suite struct AttackRecheckTests {
    /// `--force` replaces a regular file only: a FIFO or a device node where an
    /// output goes is refused (73) and left what it was (a rename over /dev/full
    /// replaced the device node with a PDF).
    @Test func forceNeverReplacesAFIFOOrADevice() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("fifo").path, 0o600) == 0)
        var nodes = [("fifo", S_IFIFO)]
        if getuid() == 0, mknod(dir.appendingPathComponent("null").path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            nodes.append(("null", S_IFCHR))
        }
        #expect(try pdfedit("open", "alpha.pdf", "--session", "s/session.json", in: dir).status == 0)
        for (name, kind) in nodes {
            for arguments in [
                ["export", name, "--from", "alpha.pdf", "--force"],
                ["reverse", "all", "alpha.pdf", "-o", name, "--force"],
                ["export", name, "--force", "--session", "s/session.json"],
                ["show", "-o", name, "--force", "--session", "s/session.json"],
            ] {
                let result = try run("timeout", ["30", Paths.binary] + arguments, in: dir)
                #expect(result.status == 73, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.hasPrefix("pdfedit: ") && result.stderr.contains("not a regular file"),
                    "\(arguments): \(result.stderr)")
                var status = stat()
                #expect(lstat(dir.appendingPathComponent(name).path, &status) == 0 && status.st_mode & S_IFMT == kind)
            }
        }
    }

    /// A session path that holds a file which cannot be a session (a text, a PDF)
    /// is refused without leaving `NAME.lock` beside it.
    @Test func noLockIsLeftBesideAFileThatIsNotASession() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "hi\n".write(to: dir.appendingPathComponent("n.txt"), atomically: true, encoding: .utf8)
        let cases: [([String], [String: String], Int32)] = [
            (["list"], ["PDFEDIT_SESSION": dir.appendingPathComponent("n.txt").path], 65),
            (["remove", "1"], ["PDFEDIT_SESSION": dir.appendingPathComponent("n.txt").path], 65),
            (["open", "alpha.pdf", "--force"], ["PDFEDIT_SESSION": dir.appendingPathComponent("n.txt").path], 73),
            (["list", "--session", "alpha.pdf"], [:], 65),
        ]
        for (arguments, environment, code) in cases {
            let result = try pdfedit(args: arguments, in: dir, environment: environment)
            #expect(result.status == code, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("pdfedit: "), "\(result.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["alpha.pdf", "n.txt"], "\(names)")
        #expect(try String(contentsOf: dir.appendingPathComponent("n.txt"), encoding: .utf8) == "hi\n")
    }

    /// A session holding an encrypted source, used without its password: `find`
    /// and `list` (with or without text) stop with 77 naming the file, as every
    /// other command does, instead of a warning and an empty answer.
    @Test func findAndListNeedThePasswordToo() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try pdfedit("open", "encrypted.pdf", "--password", "secret", in: dir).status == 0)
        for arguments in [["find", "ENC"], ["list"], ["list", "--no-text"], ["remove", "text:ENC"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 77, "\(arguments): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("encrypted.pdf") && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        }
        let found = try pdfedit("find", "ENC", "--password", "secret", in: dir)
        #expect(found.status == 0 && found.stdout.contains("ENC-P1"), "\(found.stderr)")
        let listed = try pdfedit("list", "--no-text", "--password", "secret", in: dir)
        #expect(listed.status == 0 && listed.stdout.contains("612 x 792"), "\(listed.stdout)")
    }

    /// Short of memory, poppler draws an image as nothing without any error: the
    /// blank page was cached and shown ever after. Now the memory the largest
    /// image needs is reserved first; when it cannot be, the page is a marked
    /// frame with a warning, not cached, and the next run draws it.
    @Test func aPageDrawnShortOfMemoryIsNotCached() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // An 8000 x 8000 image: within PDFEDIT_MAX_PIXELS, over what `ulimit -v 400000` leaves.
        try DecompressionBombTests.make("image", "img.pdf", in: dir, imageSide: 8000)
        #expect(try pdfedit("open", "img.pdf", in: dir).status == 0)
        let short = try run("bash", ["-c", "ulimit -v 400000; exec \(Paths.binary) show -o a.png --json"], in: dir)
        #expect(short.status == 0, "\(short.stderr)")
        #expect(short.stderr.contains("img.pdf: page 1: not enough memory"), "\(short.stderr)")
        let again = try pdfedit("show", "-o", "b.png", "--json", in: dir)
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(again.status == 0 && report?["rendered"] as? Int == 1 && again.stderr.isEmpty, "\(again.stdout) \(again.stderr)")
    }
}
