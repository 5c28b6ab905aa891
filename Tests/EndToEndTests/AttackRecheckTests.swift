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
        try pdfeditOK("open", "alpha.pdf", "--session", "s/session.json", in: dir)
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
        try pdfeditOK("open", "encrypted.pdf", "--password", "secret", in: dir)
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
        try pdfeditOK("open", "img.pdf", in: dir)
        let short = try run("bash", ["-c", "ulimit -v 400000; exec \(Paths.binary) show -o a.png --json"], in: dir)
        #expect(short.status == 0, "\(short.stderr)")
        #expect(short.stderr.contains("img.pdf: page 1: not enough memory"), "\(short.stderr)")
        let again = try pdfedit("show", "-o", "b.png", "--json", in: dir)
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(again.status == 0 && report?["rendered"] as? Int == 1 && again.stderr.isEmpty, "\(again.stdout) \(again.stderr)")
    }

    /// The depth walks skipped a node they had seen, so three chains of 900 levels,
    /// each ending in the head of the next, measured 901 while the readers, which
    /// follow every path, descend 2,700 levels. A node reached again by a deeper
    /// path is measured again now: refused (65) by the bridge's and info's walks.
    @Test(arguments: ["labels", "pages"])
    func aSharedNodeDoesNotHideTheDeeperPath(_ tree: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var objects: [Int: String] = [4: LimitsTests.content]
        let chains = 3, length = 900
        let heads = (0..<chains).map { 10 + $0 * length }
        for chain in 0..<chains {
            for step in 0..<length {
                let id = heads[chain] + step
                let next = step + 1 < length ? id + 1 : (chain + 1 < chains ? heads[chain + 1] : nil)
                switch (tree, next) {
                case ("labels", let next?): objects[id] = "<< /Kids [\(next) 0 R] >>"
                case ("labels", nil): objects[id] = "<< /Nums [0 << /S /D >>] >>"
                case (_, let next?): objects[id] = "<< /Type /Pages /Kids [\(next) 0 R] /Count 1 >>"
                default: objects[id] = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
                }
            }
        }
        let top = heads.map { "\($0) 0 R" }.joined(separator: " ")
        if tree == "labels" {
            objects[1] = "<< /Type /Catalog /Pages 2 0 R /PageLabels 9 0 R >>"
            objects[2] = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
            objects[9] = "<< /Kids [\(top)] >>"
            objects[3] = LimitsTests.page(parent: 2, content: 4)
        } else {
            objects[1] = "<< /Type /Catalog /Pages 2 0 R >>"
            objects[2] = "<< /Type /Pages /Kids [\(top)] /Count 1 >>"
            objects[3] = LimitsTests.page(parent: heads[chains - 1] + length - 1, content: 4)
        }
        let file = dir.appendingPathComponent("shared.pdf").path
        try LimitsTests.writePDF(objects, to: file)
        for arguments in [["info", file, "--no-text"], ["reverse", "all", file, "-o", "o.pdf"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 65, "\(tree) \(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("more than 1024 levels deep"), "\(tree) \(arguments): \(result.stderr)")
        }
    }
}
