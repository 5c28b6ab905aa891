import Foundation
import Testing

/// The edges: an output folder that cannot be written, a full disk, a file size
/// limit, page trees that loop, claim billions of pages or nest a thousand levels
/// deep, a document of 100,000 pages, and a session file hand-edited into nonsense.
/// Each gets a correct result or a clear error with its documented exit code, and
/// leaves no partial file.
@Suite struct LimitsTests {
    // MARK: Read-only folders

    /// How this machine can make a folder unwritable. Running as root, permissions
    /// do not stop writes, so root needs `chattr +i` or a read-only bind mount.
    enum ReadOnly: String, Sendable {
        case chmod, chattr, bindMount

        func apply(_ dir: URL) -> Bool {
            switch self {
            case .chmod: return Glibc.chmod(dir.path, 0o555) == 0
            case .chattr: return (try? run("chattr", ["+i", dir.path]).status) == 0
            case .bindMount:
                guard (try? run("mount", ["--bind", dir.path, dir.path]).status) == 0 else { return false }
                if (try? run("mount", ["-o", "remount,ro,bind", dir.path]).status) == 0 { return true }
                _ = try? run("umount", [dir.path])
                return false
            }
        }

        func undo(_ dir: URL) {
            switch self {
            case .chmod: _ = Glibc.chmod(dir.path, 0o755)
            case .chattr: _ = try? run("chattr", ["-i", dir.path])
            case .bindMount: _ = try? run("umount", [dir.path])
            }
        }

        /// The first way that really stops this process from creating a file.
        static let available: ReadOnly? = {
            let candidates: [ReadOnly] = geteuid() == 0 ? [.chattr, .bindMount] : [.chmod]
            for candidate in candidates {
                guard let dir = try? temporaryDirectory() else { return nil }
                defer { try? FileManager.default.removeItem(at: dir) }
                guard candidate.apply(dir) else { continue }
                let blocked = !FileManager.default.createFile(atPath: dir.appendingPathComponent("probe").path, contents: Data())
                candidate.undo(dir)
                if blocked { return candidate }
            }
            return nil
        }()
    }

    static var readOnlyNote: Comment {
        "no way to make a folder read-only here (root without chattr +i or mount --bind)"
    }

    @Test(
        "an output folder that cannot be written: 73, one line, nothing written, the session unchanged",
        .enabled(if: ReadOnly.available != nil, readOnlyNote))
    func unwritableOutputFolder() throws {
        guard let readOnly = ReadOnly.available else { return }
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        guard readOnly.apply(locked) else {
            Issue.record("\(readOnly) did not apply")
            return
        }
        defer { readOnly.undo(locked) }
        let session = try sessionBytes(dir)
        let attempts: [[String]] = [
            ["export", "locked/out.pdf"], ["export", "--split", "locked/parts"], ["export", "--all", "locked"],
            ["move", "1", "--to", "last", "alpha.pdf", "-o", "locked/out.pdf"],
            ["export", "locked/out.pdf", "--from", "alpha.pdf"],
        ]
        for arguments in attempts {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 73, "\(arguments) (\(readOnly)): \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("locked"), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
        #expect(try sessionBytes(dir) == session)
    }

    @Test(
        "a session folder that cannot be written: an edit fails with 73 and the session stays as it was",
        .enabled(if: ReadOnly.available != nil, readOnlyNote))
    func unwritableSessionFolder() throws {
        guard let readOnly = ReadOnly.available else { return }
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let session = try sessionBytes(dir)
        let folder = dir.appendingPathComponent(".pdfedit")
        guard readOnly.apply(folder) else {
            Issue.record("\(readOnly) did not apply")
            return
        }
        defer { readOnly.undo(folder) }
        let result = try pdfedit("rotate", "1", "--by", "90", in: dir)
        #expect(result.status == 73, "\(readOnly): \(result.stderr)")
        #expect(Reliability.stderrProblem(result) == nil, "\(result.stderr)")
        #expect(try sessionBytes(dir) == session)
        #expect(Reliability.temporaries(in: folder).isEmpty)
    }

    @Test("an output where no file can be made (/proc): 73 for every user, even root")
    func outputUnderProc() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [
            ["export", "/proc/pdfedit-out.pdf", "--from", "alpha.pdf"],
            ["move", "1", "--to", "last", "alpha.pdf", "-o", "/proc/pdfedit-out.pdf"],
            ["export", "--split", "/proc/pdfedit-parts", "--from", "alpha.pdf"],
        ] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 73, "\(arguments): \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Full disk

    /// A 200 KB tmpfs, when this process may mount one (root in most containers).
    static let canMountTmpfs: Bool = {
        guard geteuid() == 0, let dir = try? temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        guard (try? run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir.path]).status) == 0 else { return false }
        _ = try? run("umount", [dir.path])
        return true
    }()

    /// Runs `body` with a fresh 200 KB tmpfs mounted at a new folder.
    static func withSmallDisk(_ body: (URL) throws -> Void) throws {
        let disk = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: disk) }
        let mounted = try run("mount", ["-t", "tmpfs", "-o", "size=200k", "tmpfs", disk.path])
        guard mounted.status == 0 else {
            Issue.record("mount failed: \(mounted.stderr)")
            return
        }
        defer { _ = try? run("umount", [disk.path]) }
        try body(disk)
    }

    @Test(
        "a full disk: 73, no partial output, no partial session, no partial cached image",
        .enabled(if: canMountTmpfs, "mounting a small tmpfs needs root (fileSizeLimit covers the rest)"))
    func fullDisk() throws {
        let dir = try scratchDirectory(with: "logo.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 2000, at: dir.appendingPathComponent("big.pdf").path)  // ~480 KB out
        try pdfeditOK("open", "big.pdf", in: dir)
        try Self.withSmallDisk { disk in
            // An export bigger than the disk.
            for arguments in [
                ["export", disk.appendingPathComponent("out.pdf").path],
                ["export", "--split", disk.appendingPathComponent("parts").path, "--every", "100"],
                ["move", "1", "--to", "last", "big.pdf", "-o", disk.appendingPathComponent("direct.pdf").path],
            ] {
                let result = try pdfedit(args: arguments, in: dir)
                #expect(result.status == 73, "\(arguments): \(result.stderr)")
                #expect(Reliability.stderrProblem(result) == nil, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("No space left"), "\(result.stderr)")
                #expect(!result.stderr.contains("pdfedit-tmp"), "the message names a temporary file: \(result.stderr)")
            }
            let left = (try? FileManager.default.subpathsOfDirectory(atPath: disk.path)) ?? []
            #expect(left.allSatisfy { $0 == "parts" }, "left on the full disk: \(left)")
        }
        try Self.withSmallDisk { disk in
            // A session on the disk, which then fills up: the save fails, the old session stays.
            let session = disk.appendingPathComponent("s.json").path
            try pdfeditOK("open", "big.pdf", "logo.png", "--session", session, in: dir)
            let before = try Data(contentsOf: URL(fileURLWithPath: session))
            _ = try run("dd", ["if=/dev/zero", "of=\(disk.appendingPathComponent("filler").path)", "bs=1k"])
            let edit = try pdfedit("rotate", "odd", "--by", "90", "--session", session, in: dir)
            #expect(edit.status == 73, "\(edit.stderr)")
            #expect(Reliability.stderrProblem(edit) == nil, "\(edit.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: session)) == before)
            // The image of the logo is converted into the cache beside the session: no room.
            let export = try pdfedit("export", "logo.pdf", "--doc", "logo", "--session", session, in: dir)
            #expect(export.status == 73, "\(export.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("logo.pdf").path))
            let cached = (try? FileManager.default.subpathsOfDirectory(atPath: disk.path)) ?? []
            #expect(!cached.contains { $0.hasSuffix(".pdf") }, "a cached image PDF was left: \(cached)")
            #expect(Reliability.temporaries(in: disk).isEmpty)
        }
    }

    @Test("a file size limit (ulimit -f): 73 and no partial file, not a SIGXFSZ death")
    func fileSizeLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 2000, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        // A ThreadSanitizer build cannot even start under a file size limit (its
        // runtime dies with SIGBUS before main): nothing to test then.
        let starts = try run("/bin/bash", ["-c", "ulimit -f 100; exec \"$0\" --version", Paths.binary], in: dir)
        guard starts.status == 0 else {
            print("LimitsTests.fileSizeLimit: this pdfedit binary cannot start under ulimit -f (\(starts.stderr.prefix(80)))")
            return
        }
        // 100 blocks of 1 KB: the session (tiny) fits, the 480 KB export does not.
        for command in ["export out.pdf", "export --split parts --every 1000", "rotate all --by 90 big.pdf -o direct.pdf"] {
            let result = try run("/bin/bash", ["-c", "ulimit -f 100; exec \"$0\" \(command)", Paths.binary], in: dir)
            #expect(result.status == 73, "\(command): \(result.status) \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(command): \(result.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(Set(names).isSubset(of: ["big.pdf", ".pdfedit", "parts"]), "\(names)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path)) ?? []).isEmpty)
    }

    /// The files the kit itself writes (contact sheets, thumbnails, image pages:
    /// `Files.create` over swift-system's `writeAll`) fail past a file size limit
    /// as the exports do: 73 naming the file and the system's reason, nothing left.
    @Test("a file size limit (ulimit -f) on a contact sheet and thumbnails: 73, the reason, no partial file")
    func fileSizeLimitOnPictures() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 40, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        let starts = try run("/bin/bash", ["-c", "ulimit -f 100; exec \"$0\" --version", Paths.binary], in: dir)
        guard starts.status == 0 else { return }
        // 8 blocks of 1 KB: a sheet of 40 pages at 300 pixels, or a page at 2000, does not fit.
        for (command, output) in [("show -o sheet.png --size 300", "sheet.png"), ("thumbs pics --size 2000", "pics/")] {
            let result = try run("/bin/bash", ["-c", "ulimit -f 8; exec \"$0\" \(command)", Paths.binary], in: dir)
            #expect(result.status == 73, "\(command): \(result.status) \(result.stderr)")
            // thumbs names every picture it could not write, one line each.
            #expect(!result.stderrLines.isEmpty && result.stderrLines.allSatisfy {
                $0.hasPrefix("pdfedit: \(output)") && $0.hasSuffix(": cannot be written: File too large")
            }, "\(command): \(result.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains("sheet.png") && Reliability.temporaries(in: dir).isEmpty, "\(names)")
        let pictures = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pics").path)) ?? []
        #expect(!pictures.contains { $0.contains(".pdfedit-tmp-") }, "\(pictures)")
    }

    @Test("under an address-space limit (ulimit -v) the outputs are the same as without one")
    func addressSpaceLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 300, at: dir.appendingPathComponent("big.pdf").path)
        // 1.5 GB: room for the program and a 300-page edit. A sanitizer build
        // reserves terabytes of shadow memory and cannot start.
        let limit = "ulimit -v 1500000; exec \"$0\" "
        let starts = try run("/bin/bash", ["-c", limit + "--version", Paths.binary], in: dir)
        guard starts.status == 0 else {
            print("LimitsTests.addressSpaceLimit: this pdfedit binary cannot start under ulimit -v (\(starts.stderr.prefix(80)))")
            return
        }
        for (name, command) in [
            ("rotated", "rotate even --by 90 big.pdf -o rotated-%@.pdf -q"),
            ("parts", "export --split parts-%@ --every 50 --from big.pdf -q"),
        ] {
            try pdfeditOK(args: command.replacingOccurrences(of: "%@", with: "free").split(separator: " ").map(String.init), in: dir)
            let limited = try run(
                "/bin/bash", ["-c", limit + command.replacingOccurrences(of: "%@", with: "limited"), Paths.binary], in: dir)
            #expect(limited.status == 0, "\(name) under ulimit -v: \(limited.status) \(limited.stderr)")
        }
        let free = try Data(contentsOf: dir.appendingPathComponent("rotated-free.pdf"))
        let limited = try Data(contentsOf: dir.appendingPathComponent("rotated-limited.pdf"))
        #expect(free == limited, "the rotation made under ulimit -v differs")
        let freeParts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts-free").path).sorted()
        let limitedParts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts-limited").path).sorted()
        #expect(freeParts.count == 6 && freeParts == limitedParts, "\(freeParts) \(limitedParts)")
        for part in freeParts {
            let a = try Data(contentsOf: dir.appendingPathComponent("parts-free/\(part)"))
            let b = try Data(contentsOf: dir.appendingPathComponent("parts-limited/\(part)"))
            #expect(a == b, "\(part) made under ulimit -v differs")
        }
        #expect(try run("qpdf", ["--check", dir.appendingPathComponent("rotated-limited.pdf").path]).status == 0)
    }

    // MARK: Page trees

    /// A PDF of `objects` (number → body) with a correct xref, root object 1.
    static func writePDF(_ objects: [Int: String], to path: String) throws {
        try TestPDF.bytes(numbered: objects).write(to: URL(fileURLWithPath: path))
    }

    static let content = "<< /Length 27 >>\nstream\n0 0 1 rg 20 20 160 160 re f\nendstream"

    static func page(parent: Int, content: Int) -> String {
        "<< /Type /Page /Parent \(parent) 0 R /MediaBox [0 0 200 200] /Contents \(content) 0 R /Resources << >> >>"
    }

    /// Every way in: open, info, insert, direct mode, export --from.
    static func everyEntry(_ file: String, in dir: URL) throws -> [(String, Run)] {
        let session = dir.appendingPathComponent("s/session.json").path
        _ = try pdfedit("open", Paths.fixture("alpha.pdf"), "--session", session, "--force", in: dir)
        return [
            ("open", try pdfedit("open", file, "--force", in: dir)),
            ("info", try pdfedit("info", file, in: dir)),
            ("insert", try pdfedit("insert", file, "--session", session, in: dir)),
            ("direct", try pdfedit("move", "1", "--to", "last", file, "-o", "direct.pdf", "--force", in: dir)),
            ("export --from", try pdfedit("export", "from.pdf", "--from", file, "--force", in: dir)),
        ]
    }

    @Test("a page tree that loops is refused with 65 naming the loop")
    func pageTreeLoop() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("loop.pdf").path
        try Self.writePDF(
            [
                1: "<< /Type /Catalog /Pages 2 0 R >>", 2: "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
                3: Self.page(parent: 2, content: 5), 4: "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
                5: Self.content,
            ], to: file)
        for (what, result) in try Self.everyEntry(file, in: dir) {
            #expect(result.status == 65, "\(what): \(result.status) \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(what): \(result.stderr)")
            #expect(result.stderr.lowercased().contains("loop"), "\(what): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("direct.pdf").path))
    }

    @Test("a /Kids entry that is not a page (a number, a string) is refused with 65, never written out as a page")
    func kidThatIsNotAPage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("kids.pdf").path
        try Self.writePDF(
            [
                1: "<< /Type /Catalog /Pages 2 0 R >>", 2: "<< /Type /Pages /Kids [3 0 R 42 (junk) 4 0 R] /Count 4 >>",
                3: Self.page(parent: 2, content: 5), 4: Self.page(parent: 2, content: 5), 5: Self.content,
            ], to: file)
        for (what, result) in try Self.everyEntry(file, in: dir) where what != "info" {
            #expect(result.status == 65, "\(what): \(result.status) \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(what): \(result.stderr)")
            #expect(result.stderr.contains("not a page"), "\(what): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("direct.pdf").path))
    }

    @Test("a /Count that claims billions of pages does not make pdfedit believe it", arguments: ["4000000000", "2147483647", "-5"])
    func countClaimsBillions(_ count: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("count.pdf").path
        try Self.writePDF(
            [
                1: "<< /Type /Catalog /Pages 2 0 R >>", 2: "<< /Type /Pages /Kids [3 0 R] /Count \(count) >>",
                3: Self.page(parent: 2, content: 4), 4: Self.content,
            ], to: file)
        for (what, result) in try Self.everyEntry(file, in: dir) {
            #expect(result.status == 0, "\(what): \(result.status) \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(what): \(result.stderr)")
        }
        let info = try pdfedit("info", file, "--json", in: dir)
        #expect((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])?["pageCount"] as? Int == 1)
        for output in ["direct.pdf", "from.pdf"] {
            #expect(try qpdfPageCount(dir.appendingPathComponent(output).path) == 1)
            #expect(try qpdfCheck(dir.appendingPathComponent(output).path).status == 0)
        }
    }

    @Test(
        "a page tree nested up to 1,024 levels works; deeper ones are refused with 65, not a stack overflow",
        arguments: [(1000, true), (1024, true), (1025, false), (30000, false), (100_000, false)])
    func deepPageTree(_ depth: Int, _ works: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("deep.pdf").path
        // /Pages nodes 2 … depth+1, each the only kid of the one before; then the page.
        var objects: [Int: String] = [1: "<< /Type /Catalog /Pages 2 0 R >>"]
        for level in 0..<depth {
            let node = 2 + level
            let parent = level == 0 ? "" : " /Parent \(node - 1) 0 R"
            objects[node] = "<< /Type /Pages /Kids [\(node + 1) 0 R] /Count 1\(parent) >>"
        }
        objects[2 + depth] = Self.page(parent: 1 + depth, content: 3 + depth)
        objects[3 + depth] = Self.content
        try Self.writePDF(objects, to: file)
        for (what, result) in try Self.everyEntry(file, in: dir) {
            #expect(result.status == (works ? 0 : 65), "depth \(depth), \(what): \(result.status) \(result.stderr.prefix(300))")
            #expect(Reliability.stderrProblem(result) == nil, "depth \(depth), \(what): \(result.stderr.prefix(300))")
            if !works { #expect(result.stderr.contains("nested"), "\(what): \(result.stderr)") }
        }
        if works { #expect(try qpdfPageCount(dir.appendingPathComponent("direct.pdf").path) == 1) }
    }

    // MARK: Size

    @Test("100,000 pages: open, move half to the end, export", .enabled(if: Reliability.longTests, Reliability.longTestsNote))
    func hundredThousandPages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 100_000, at: dir.appendingPathComponent("huge.pdf").path)
        let timed = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        for arguments in [["open", "huge.pdf"], ["move", "1..50000", "--to", "last"], ["export", "out.pdf"]] {
            let started = Date()
            let result =
                timed
                ? try run("/usr/bin/time", ["-f", "%M", Paths.binary] + arguments, in: dir)
                : try pdfedit(args: arguments, in: dir)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let peak = timed ? (result.stderrLines.last.flatMap { Int($0) }.map { "\($0 / 1024) MB peak" } ?? "?") : "peak not measured"
            print("LimitsTests.hundredThousandPages: \(arguments.joined(separator: " ")): \(String(format: "%.2f", Date().timeIntervalSince(started))) s, \(peak)")
        }
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 100_000)
        #expect(try pageText(out, 1).contains("BIG-P50001"))
        #expect(try pageText(out, 100_000).contains("BIG-P50000"))
    }

    // MARK: A session edited into nonsense

    /// Found by the nonsense test (seed 1582632968, round 139): an empty source path
    /// named the session's own folder and failed with a read error naming neither.
    @Test("a source path hand-edited to empty is a corrupt session (65); one naming a folder has changed (75)")
    func sourcePathOfAFolder() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        let file = dir.appendingPathComponent(".pdfedit/session.json")
        func edit(path: String) throws {
            var session = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            var sources = session["sources"] as! [[String: Any]]
            sources[1]["path"] = path
            session["sources"] = sources
            try JSONSerialization.data(withJSONObject: session).write(to: file)
        }
        try edit(path: "")
        let empty = try pdfedit("list", in: dir)
        #expect(empty.status == 65)
        #expect(empty.stderr.hasSuffix("session.json: session file cannot be used: the session file is inconsistent: source s2: its path is empty\n"), "\(empty.stderr)")
        try edit(path: ".")
        let folder = try pdfedit("export", "out.pdf", "--doc", "beta", in: dir)
        #expect(folder.status == 75)
        #expect(folder.stderr == "pdfedit: .: a folder now, not the file it was imported from; use `pdfedit relink` to point at it again\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
    }

    @Test("a session file hand-edited into nonsense gives 65 with a clear message (or works), never a trap")
    func sessionNonsense() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf", "logo.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        for edit in [["move", "3..5", "--to", "1"], ["rotate", "2", "--by", "90"], ["insert", "logo.png", "--at", "2"],
                     ["placeholder", "--at", "1", "--label", "cover"], ["copy", "1..2", "--to", "1", "--into", "beta"], ["undo"]] {
            try pdfeditOK(args: edit, in: dir)
        }
        let file = dir.appendingPathComponent(".pdfedit/session.json")
        let valid = try Data(contentsOf: file)
        let seed = Reliability.seed(0x5E55_1008)
        var generator = SeededGenerator(seed: seed)
        var outcomes: [String: Int] = [:]
        for round in 0..<Reliability.count(short: 40, long: 250) {
            let (mutation, bytes) = Self.nonsense(from: valid, using: &generator)
            try bytes.write(to: file)
            for arguments in [["list"], ["move", "1", "--to", "2"], ["undo"], ["export", "out.pdf", "--force", "--placeholders", "blank"]] {
                // An earlier command of the round may have succeeded and saved.
                let before = try Data(contentsOf: file)
                let result = try pdfedit(args: arguments, in: dir)
                let context = "round \(round) (seed \(seed)), \(mutation), \(arguments)"
                outcomes["\(result.status)", default: 0] += 1
                #expect([0, 64, 65, 75].contains(result.status), "\(context): exit \(result.status) \(result.stderr)")
                #expect(Reliability.stderrProblem(result) == nil, "\(context): \(result.stderr)")
                if result.status == 65 && arguments != ["export", "out.pdf", "--force", "--placeholders", "blank"] {
                    #expect(result.stderr.contains("session.json"), "\(context): \(result.stderr)")
                }
                if result.status != 0 {
                    #expect(try Data(contentsOf: file) == before, "\(context): a failed command rewrote the session")
                }
            }
        }
        print("LimitsTests.sessionNonsense: exit codes \(outcomes.sorted { $0.key < $1.key }) (seed \(seed))")
    }

    /// One hand edit: a value replaced by one of another type or an absurd number,
    /// a key removed, an array element repeated or dropped, or the text cut or a
    /// byte changed.
    static func nonsense(from valid: Data, using generator: inout SeededGenerator) -> (String, Data) {
        if Int.random(in: 0..<5, using: &generator) == 0 {
            var bytes = [UInt8](valid)
            if Bool.random(using: &generator) {
                let cut = Int.random(in: 0..<bytes.count, using: &generator)
                return ("cut at byte \(cut)", Data(bytes.prefix(cut)))
            }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[index] = UInt8.random(in: 0x20...0x7E, using: &generator)
            return ("byte \(index) changed", Data(bytes))
        }
        guard var root = try? JSONSerialization.jsonObject(with: valid) else { return ("unparsable seed", valid) }
        var paths: [[Any]] = []
        func collect(_ value: Any, _ path: [Any]) {
            paths.append(path)
            if let object = value as? [String: Any] {
                // Sorted: a seed must pick the same edit in every run (dictionary order is not stable).
                for (key, child) in object.sorted(by: { $0.key < $1.key }) { collect(child, path + [key]) }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { collect(child, path + [index]) }
            }
        }
        collect(root, [])
        let path = paths[Int.random(in: 1..<paths.count, using: &generator)]
        let replacements: [Any] = [
            NSNull(), "", "p0", "s999", "nonsense\nwith a line break", -1, 0, 4, 9_223_372_036_854_775_807,
            -9_223_372_036_854_775_807, 1e308, 0.5, true, [Any](), [String: Any](), [1, 2, 3], ["pages": [1, 99999999]],
        ]
        let action = Int.random(in: 0..<4, using: &generator)
        let replacement = replacements[Int.random(in: 0..<replacements.count, using: &generator)]
        func edit(_ value: Any, _ rest: ArraySlice<Any>) -> Any? {
            guard let step = rest.first else {
                switch action {
                case 0, 1: return replacement
                default: return value
                }
            }
            if var object = value as? [String: Any], let key = step as? String {
                if rest.count == 1 && action == 2 {
                    object.removeValue(forKey: key)
                    return object
                }
                object[key] = edit(object[key] as Any, rest.dropFirst())
                return object
            }
            if var array = value as? [Any], let index = step as? Int, array.indices.contains(index) {
                if rest.count == 1 && action >= 2 {
                    if action == 2 { array.remove(at: index) } else { array.insert(array[index], at: index) }
                    return array
                }
                array[index] = edit(array[index], rest.dropFirst()) ?? NSNull()
                return array
            }
            return value
        }
        root = edit(root, path[...]) ?? NSNull()
        let where_ = path.map { "\($0)" }.joined(separator: ".")
        let what = ["replaced by \(replacement)", "replaced by \(replacement)", "removed", "repeated"][action]
        let data =
            (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed])) ?? Data()
        return ("\(where_) \(what)", data)
    }
}
