import Foundation
import Testing

/// Damage that qpdf meets only while writing (a copied stream whose data does not
/// decode) is reported against the source that has it, never against "output" or
/// a temporary file.
@Suite struct SourceDamageWarningTests {
    /// One page whose content stream is ASCIIHex-wrapped LZW data that overflows
    /// LZW's table: the file opens cleanly; qpdf fails to decode the stream only
    /// when an export writes it (and then copies it raw, with a warning).
    static func writeDamaged(to path: String) throws {
        try LimitsTests.writePDF(
            [
                1: "<< /Type /Catalog /Pages 2 0 R >>",
                2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                3: LimitsTests.page(parent: 2, content: 4),
                4: "<< /Length 17 /Filter [/ASCIIHexDecode /LZWDecode] >>\nstream\nFFFFFFFFFFFF0001>\nendstream",
            ], to: path)
    }

    @Test("a source stream that fails to decode at export is blamed on the source, in every export path")
    func damageNamesTheSource() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeDamaged(to: dir.appendingPathComponent("hurt.pdf").path)
        try pdfeditOK("open", "hurt.pdf", "alpha.pdf", in: dir)
        try pdfeditOK("interleave", "alpha", in: dir)
        let runs: [(String, Run)] = [
            ("copied export", try pdfedit("export", "out.pdf", in: dir)),
            ("split", try pdfedit("export", "--split", "parts", "--every", "4", in: dir)),
            ("export --from (copied)",
             try pdfedit("export", "from.pdf", "--from", "hurt.pdf", in: dir, environment: ["PDFEDIT_NO_IN_PLACE": "1"])),
            ("export --from (in place)",
             try pdfedit("export", "inplace.pdf", "--from", "hurt.pdf", in: dir, environment: ["PDFEDIT_NO_APPEND": "1"])),
        ]
        for (what, result) in runs {
            #expect(result.status == 0, "\(what): \(result.stderr)")
            let warnings = result.stderrLines.filter { $0.contains("damaged, recovered") }
            #expect(warnings.count == 1, "\(what): \(result.stderr)")
            #expect(warnings.allSatisfy { $0.hasPrefix("pdfedit: warning: hurt.pdf: damaged, recovered (") },
                    "\(what): \(result.stderr)")
            #expect(!result.stderr.contains("output:") && !result.stderr.contains("pdfedit-tmp"), "\(what): \(result.stderr)")
        }
        // Appended to the source's bytes, the stream is never decoded: nothing to report.
        let appended = try pdfedit("export", "appended.pdf", "--from", "hurt.pdf", in: dir)
        #expect(appended.status == 0 && !appended.stderr.contains("damaged"), "\(appended.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("appended.pdf")).starts(
            with: Data(contentsOf: dir.appendingPathComponent("hurt.pdf"))))
    }
}
