import Foundation
import Testing

/// `-` as the input file (stdin) and `-o -` / `export -` (stdout), for pipelines
/// (DESIGN "Many files, pipelines, packages"). Commands run through `bash -c` so
/// that the PDF goes in and comes out as bytes; outputs are checked with qpdf,
/// pdfinfo and pdftotext; TMPDIR is a folder of the test's own, which must be
/// empty afterwards (nothing left behind, also after errors and Ctrl-C).
@Suite struct StandardStreamsTests {
    /// A test folder with alpha.pdf and an empty `tmp/` used as TMPDIR.
    func scratch() throws -> URL {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        return dir
    }

    /// `bash -c LINE` in `dir` with `pdfedit` on the PATH's place and TMPDIR=dir/tmp;
    /// `$PDFEDIT` in LINE is the binary.
    func shell(_ line: String, in dir: URL) throws -> Run {
        try run(
            "/bin/bash", ["-c", "set -o pipefail; " + line], in: dir,
            environment: ["PDFEDIT": Paths.binary, "TMPDIR": dir.appendingPathComponent("tmp").path])
    }

    func leftovers(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("tmp").path)
    }

    func rotation(_ file: URL, page: Int) throws -> String? {
        let info = try run("pdfinfo", ["-f", "\(page)", "-l", "\(page)", file.path]).stdout
        return info.split(separator: "\n").first { $0.hasPrefix("Page") && $0.contains(" rot:") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
    }

    @Test("an edit reads stdin and writes stdout: only the PDF on stdout, nothing on stderr, nothing left behind")
    func editThroughAPipe() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let piped = try shell("cat alpha.pdf | \"$PDFEDIT\" rotate 1 --by 90 - -o - | cat > out.pdf", in: dir)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        let out = dir.appendingPathComponent("out.pdf")
        #expect(try qpdfCheck(out.path).status == 0)
        #expect(try qpdfPageCount(out.path) == 7)
        #expect(try rotation(out, page: 1) == "90")
        #expect(try pageTokens(out.path) == (1...7).map { "ALPHA-P\($0)" })
        // From stdin to a file, and from a file to stdout.
        let toFile = try shell("\"$PDFEDIT\" reverse all - -o rev.pdf < alpha.pdf", in: dir)
        #expect(toFile.status == 0 && toFile.stdout.contains("wrote rev.pdf (7 pages)"), "\(toFile.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("rev.pdf").path) == (1...7).reversed().map { "ALPHA-P\($0)" })
        let toStdout = try shell("\"$PDFEDIT\" remove 2..7 alpha.pdf -o - > one.pdf", in: dir)
        #expect(toStdout.status == 0 && toStdout.stderr.isEmpty, "\(toStdout.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("one.pdf").path) == ["ALPHA-P1"])
        // Another file inserted into stdin's document.
        let insert = try shell("\"$PDFEDIT\" insert beta.pdf --at 1 - -o - < alpha.pdf > both.pdf", in: dir)
        #expect(insert.status == 0, "\(insert.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("both.pdf").path) == (1...5).map { "BETA-P\($0)" } + (1...7).map { "ALPHA-P\($0)" })
        #expect(try leftovers(dir) == [])
    }

    @Test("-o - and export - refuse a terminal as standard output (64), as gzip does, before any work (issue 40, item 39)")
    func noPDFOnATerminal() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let answer = Paths.root.appendingPathComponent("scripts/pty-answer.py").path
        for arguments in [
            ["rotate", "1", "--by", "90", dir.appendingPathComponent("alpha.pdf").path, "-o", "-"],
            ["export", "-", "--from", dir.appendingPathComponent("alpha.pdf").path],
        ] {
            // On a pseudo-terminal: stdout is a terminal (no prompt to answer).
            let result = try run("python3", [answer, "no prompt", "", Paths.binary] + arguments)
            #expect(result.status == 64, "\(arguments[0]): \(result.status) \(result.stdout)")
            #expect(result.stdout.contains("standard output is a terminal"), "\(result.stdout)")
            #expect(!result.stdout.contains("%PDF"), "a PDF reached the terminal")
        }
    }

    @Test("export reads --from - and writes to -; a split reads stdin")
    func exportThroughAPipe() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try shell("\"$PDFEDIT\" export - 2..3 --from - < alpha.pdf > part.pdf", in: dir)
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("part.pdf").path) == ["ALPHA-P2", "ALPHA-P3"])
        // A session's export to standard output.
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        let session = try shell("\"$PDFEDIT\" export - 1 --doc beta > beta1.pdf", in: dir)
        #expect(session.status == 0 && session.stderr.isEmpty, "\(session.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("beta1.pdf").path) == ["BETA-P1"])
        let folder = try shell("\"$PDFEDIT\" export - --split", in: dir)
        #expect(folder.status == 64 && folder.stderr == "pdfedit: --split writes a folder, not standard output (-)\n")
        let split = try shell("\"$PDFEDIT\" export --split parts --from - < alpha.pdf", in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path).sorted()
        #expect(parts.count == 7, "\(parts)")
        #expect(try leftovers(dir) == [])
    }

    @Test("bad input on stdin: one line naming -, the documented code, nothing on stdout, nothing left behind")
    func badInput() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try shell("echo hello | \"$PDFEDIT\" rotate 1 --by 90 - -o -", in: dir)
        #expect(text.status == 65 && text.stdout.isEmpty, "\(text.status) \(text.stderr)")
        #expect(text.stderr == "pdfedit: -: not a PDF or a supported image (JPEG, PNG)\n", "\(text.stderr)")
        let empty = try shell("\"$PDFEDIT\" rotate 1 --by 90 - -o - < /dev/null", in: dir)
        #expect(empty.status == 65 && empty.stderr == "pdfedit: -: empty file (0 bytes), not a PDF\n", "\(empty.stderr)")
        let page = try shell("\"$PDFEDIT\" rotate 9 --by 90 - -o - < alpha.pdf", in: dir)
        #expect(page.status == 64 && page.stdout.isEmpty, "\(page.stderr)")
        let inPlace = try shell("\"$PDFEDIT\" rotate 1 --by 90 - --in-place < alpha.pdf", in: dir)
        #expect(inPlace.status == 64 && inPlace.stderr == "pdfedit: --in-place cannot replace standard input (-)\n", "\(inPlace.stderr)")
        let json = try shell("\"$PDFEDIT\" rotate 1 --by 90 alpha.pdf -o - --json", in: dir)
        #expect(json.status == 64 && json.stdout.isEmpty, "\(json.stderr)")
        #expect(json.stderr == "pdfedit: --json cannot share standard output with the PDF (-o -)\n", "\(json.stderr)")
        #expect(try leftovers(dir) == [])
    }

    @Test("a reader that goes away: 73 naming -, not a silent death by SIGPIPE")
    func closedOutput() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 2000, at: dir.appendingPathComponent("big.pdf").path)
        let closed = try shell(
            "\"$PDFEDIT\" rotate 1 --by 90 big.pdf -o - | head -c 100 > /dev/null; echo \"exit ${PIPESTATUS[0]}\"", in: dir)
        #expect(closed.stdout == "exit 73\n", "\(closed.stdout) \(closed.stderr)")
        #expect(closed.stderr.hasPrefix("pdfedit: -: cannot be written: "), "\(closed.stderr)")
        #expect(try leftovers(dir) == [])
    }

    @Test("20,000 pages through stdin and stdout")
    func twentyThousandPages() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 20_000, at: dir.appendingPathComponent("big.pdf").path)
        let moved = try shell("\"$PDFEDIT\" move 1 --to last - -o - < big.pdf > out.pdf", in: dir)
        #expect(moved.status == 0 && moved.stderr.isEmpty, "\(moved.stderr)")
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 20_000)
        #expect(try pageText(out, 1).contains("BIG-P2"))
        #expect(try pageText(out, 20_000).contains("BIG-P1"))
        #expect(try leftovers(dir) == [])
    }

    @Test("Ctrl-C while stdin is still open: 130, nothing written, nothing left behind")
    func interruptedWhileReading() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = ["rotate", "1", "--by", "90", "-", "-o", "out.pdf"]
        process.currentDirectoryURL = dir
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = dir.appendingPathComponent("tmp").path
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Half a PDF, then nothing: pdfedit is still reading.
        let bytes = try Data(contentsOf: dir.appendingPathComponent("alpha.pdf"))
        input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
        usleep(500_000)
        #expect(try leftovers(dir).count == 1, "the spool folder exists while reading")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        #expect(try leftovers(dir) == [])
    }
}
