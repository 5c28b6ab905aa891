import Foundation
import Testing

/// Issue 40, item 23: a page whose content stream inflates to a gigabyte (inside
/// the 1 GiB limit) took `info` a minute with nothing on the terminal. A page the
/// kit measures, reads or draws for long now shows what is happening and for how
/// long, on a terminal only, and not with `--quiet`.
@Suite struct SlowPageProgressTests {
    /// A two-page PDF: page 1's content is `megabytes` MB of spaces (a few kB
    /// compressed, no operator) and then one line; page 2 is blank.
    static func makeSlowPDF(megabytes: Int, at path: String) throws {
        let script = """
            import sys, zlib
            import pdfbytes
            size, path = int(sys.argv[1]), sys.argv[2]
            z = zlib.compressobj(9)
            block = b" " * (1 << 20)
            data = b"".join(z.compress(block) for _ in range(size)) + z.compress(b"0 0 m 100 100 l S\\n") + z.flush()
            line = zlib.compress(b"")
            objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
                    b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
                    b"<< /Length %d /Filter /FlateDecode >>\\nstream\\n" % len(data) + data + b"\\nendstream",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R >>",
                    b"<< /Length %d /Filter /FlateDecode >>\\nstream\\n" % len(line) + line + b"\\nendstream"]
            open(path, "wb").write(pdfbytes.pdf(objs, header=b"%PDF-1.7\\n"))
            """
        let made = try python(script, ["\(megabytes)", path])
        guard made.status == 0 else { throw Reliability.Failure("making the slow PDF failed: \(made.stderr)") }
    }

    /// `pdfedit ARGS` on a pseudo-terminal (`script`), the phase shown from its
    /// first tick whatever the machine's speed.
    func onTerminal(_ arguments: String, in dir: URL) throws -> Run {
        try run(
            "script", ["-qec", "\(Paths.binary) \(arguments)", "/dev/null"], in: dir,
            environment: ["PDFEDIT_PROGRESS_AFTER": "0"])
    }

    @Test("a page that takes long to measure, read or draw shows its phase and time on a terminal, then is erased")
    func slowPageShows() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.makeSlowPDF(megabytes: 150, at: dir.appendingPathComponent("slow.pdf").path)

        let info = try onTerminal("info slow.pdf", in: dir)
        #expect(info.status == 0, "\(info.stdout.suffix(300))")
        #expect(info.stdout.contains("measuring page 1 of "), "\(info.stdout.prefix(300))")
        #expect(info.stdout.range(of: #"measuring page 1 of [^\r]*slow\.pdf … [0-9.]+ s"#, options: .regularExpression) != nil)
        // Erased before the report: the report's lines carry no phase.
        let report = info.stdout.components(separatedBy: "\u{1B}[K").last ?? ""
        #expect(report.contains("Pages:") && !report.contains("measuring"), "\(report.debugDescription)")

        // remove empty measures and draws page 1 (blank but for one line: kept)
        // and removes page 2.
        let remove = try onTerminal("remove empty slow.pdf -o kept.pdf", in: dir)
        #expect(remove.status == 0, "\(remove.stdout.suffix(300))")
        #expect(remove.stdout.contains("drawing page 1 of "), "\(remove.stdout.prefix(600))")
        #expect(try qpdfPageCount(dir.appendingPathComponent("kept.pdf").path) == 1)

        // --quiet and a pipe: nothing.
        let quiet = try onTerminal("remove empty slow.pdf -o quiet.pdf --quiet", in: dir)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout.prefix(300))")
        let piped = try pdfedit("info", "slow.pdf", in: dir)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }
}
