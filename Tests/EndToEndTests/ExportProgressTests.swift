import Foundation
import Testing

/// Export, split and in-place writes draw a progress bar on a terminal when they
/// take more than half a second, and nothing when stderr is a pipe.
@Suite struct ExportProgressTests {
    /// `pdfedit ARGS` on a pseudo-terminal (`script`): what it wrote there. Not
    /// as an appended update (AppendedExportTests): writing one is over long
    /// before half a second, even for 20,000 pages.
    /// `after`: `PDFEDIT_PROGRESS_AFTER`, 0 for long work so that its bar shows
    /// however fast the machine is (an in-place rotation of 20,000 pages took
    /// 0.6 s here and less on CI, which then drew no bar).
    func onTerminal(_ arguments: String, in dir: URL, after: String? = "0") throws -> Run {
        var environment = ["PDFEDIT_NO_APPEND": "1"]
        environment["PDFEDIT_PROGRESS_AFTER"] = after
        return try run(
            "script", ["-qec", "\(Paths.binary) \(arguments)", "/dev/null"], in: dir, environment: environment)
    }

    @Test("a long export, split and in-place write show a bar on a terminal; a short one and a pipe show none")
    func writingProgress() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 20_000, at: dir.appendingPathComponent("big.pdf").path)

        let export = try onTerminal("export out.pdf --from big.pdf", in: dir)
        #expect(export.status == 0, "\(export.stdout)")
        #expect(export.stdout.contains("writing [") && export.stdout.contains("/100 %"), "\(export.stdout.prefix(300))")
        let split = try onTerminal("export --split parts --every 2000 --from big.pdf", in: dir)
        #expect(split.stdout.contains("writing [") && split.stdout.contains("/10 files"), "\(split.stdout.prefix(300))")
        // Exactly 100 parts count files, not percent (the unit was guessed from the total).
        let hundred = try onTerminal("export --split hundred --every 200 --from big.pdf", in: dir)
        #expect(hundred.stdout.contains("/100 files") && !hundred.stdout.contains("/100 %"), "\(hundred.stdout.prefix(300))")
        // A split into few large parts is long work too: a bar, whatever the part count.
        let fewParts = try onTerminal("export --split few --every 10000 --from big.pdf", in: dir)
        #expect(fewParts.stdout.contains("writing [") && fewParts.stdout.contains("/2 files"), "\(fewParts.stdout.prefix(300))")
        let inPlace = try onTerminal("rotate 1 --by 90 big.pdf --in-place", in: dir)
        #expect(inPlace.status == 0, "\(inPlace.stdout)")
        #expect(inPlace.stdout.contains("writing ["), "\(inPlace.stdout.prefix(300))")

        // Short work: over before half a second, no bar.
        let short = try onTerminal("export small.pdf --from alpha.pdf", in: dir, after: nil)
        #expect(short.status == 0 && !short.stdout.contains("writing"), "\(short.stdout)")
        // Piped: nothing on stderr but the result.
        let piped = try pdfedit("export", "piped.pdf", "--from", "big.pdf", in: dir)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("out.pdf").path) == 20_000)
    }

    /// Issue 40, item 44: a session export of 50,000 pages spent about a second
    /// reading and planning before its first written percent, with nothing on the
    /// terminal; that work now shows as an uncounted phase with its time.
    @Test("a large session export shows its preparation before the writing bar, and erases it")
    func preparationProgress() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 50_000, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        try pdfeditOK("rotate", "odd", "--by", "90", in: dir)
        let export = try onTerminal("export out.pdf", in: dir)
        #expect(export.status == 0, "\(export.stdout.suffix(300))")
        #expect(export.stdout.contains("preparing the pages … "), "\(export.stdout.prefix(300))")
        #expect(export.stdout.contains("writing ["), "\(export.stdout.prefix(300))")
        // The bar is erased before the result line: it ends the output, alone on its line.
        let last = String(export.stdout.split(separator: "\n").last ?? "")
        let tail = last.components(separatedBy: "\u{1B}[K").last ?? ""
        #expect(tail.hasPrefix("wrote out.pdf (50000 pages of big)"), "\(last.debugDescription)")
        // A failure while preparing leaves no bar behind its message.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("out.pdf"))
        try FileManager.default.moveItem(at: dir.appendingPathComponent("big.pdf"), to: dir.appendingPathComponent("gone.pdf"))
        let failed = try onTerminal("export out.pdf", in: dir)
        #expect(failed.status == 75, "\(failed.stdout.suffix(300))")
        #expect(failed.stdout.contains("pdfedit: "), "\(failed.stdout)")
        #expect(!failed.stdout.contains("… 0") || failed.stdout.contains("\u{1B}[Kpdfedit: "), "\(failed.stdout)")
    }
}
