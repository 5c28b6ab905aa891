import Foundation
import PDFEngine
import Testing

/// `ExportOptions.keepEncryptionOf`, `ExportEncryption.allowed` and
/// `ExportReport.decryptedSources` (the bridge's `keep_encryption`, `denied` and
/// PE_WARNING_DECRYPTED), checked with `qpdf --show-encryption` and `qpdf --check`.
@Suite struct ExportEncryptionTests {
    /// A plain and an encrypted (AES-128, U / O, no printing) two-page source.
    static func sources(_ scratch: ExportScratch) throws -> (plain: String, encrypted: String) {
        let plain = try scratch.write(TinyPDF(tokens: ["PLAIN-P1", "PLAIN-P2"]), as: "plain.pdf")
        let raw = try scratch.write(TinyPDF(tokens: ["ENC-P1", "ENC-P2"]), as: "raw.pdf")
        let encrypted = scratch.path("enc.pdf")
        let made = try ExportTools.run(
            "qpdf", ["--encrypt", "U", "O", "128", "--use-aes=y", "--print=none", "--", raw, encrypted])
        #expect(made.status == 0, "\(made.stderr)")
        return (plain, encrypted)
    }

    static func shown(_ path: String, password: String = "") throws -> String {
        try ExportTools.run("qpdf", ["--show-encryption", "--password=\(password)", path]).stdout
    }

    @Test func theOutputKeepsTheNamedSourcesEncryption() throws {
        let scratch = try ExportScratch()
        let (plain, encrypted) = try Self.sources(scratch)
        let sources = [ExportSource(path: plain), ExportSource(path: encrypted, password: "U")]
        let items: [ExportItem] = [.page(source: 1, index: 1), .page(source: 0, index: 0)]
        let kept = scratch.path("kept.pdf")
        let report = try PDFExporter.write(
            sources: sources, items: items, options: ExportOptions(keepEncryptionOf: 1), to: kept)
        #expect(report.decryptedSources.isEmpty && report.warnings.isEmpty)
        let asOwner = try Self.shown(kept, password: "O")
        #expect(asOwner.contains("R = 4") && asOwner.contains("stream encryption method: AESv2"))
        #expect(asOwner.contains("Supplied password is owner password"))
        #expect(asOwner.contains("print high resolution: not allowed"))
        #expect(try ExportTools.check(kept, password: "U").status == 0)
        // Keeping the plain source's (none): unencrypted, and the encrypted source is named.
        let plainKept = scratch.path("plain-kept.pdf")
        let named = try PDFExporter.write(
            sources: sources, items: items, options: ExportOptions(keepEncryptionOf: 0), to: plainKept)
        #expect(named.decryptedSources == [encrypted])
        #expect(named.warnings.isEmpty, "the note is not a warning line: \(named.warnings)")
        #expect(try Self.shown(plainKept).contains("File is not encrypted"))
        // Passwords of its own win over keeping.
        let own = scratch.path("own.pdf")
        let encryption = ExportEncryption(userPassword: "u", ownerPassword: "o", allowed: [.print, .form])
        let ownReport = try PDFExporter.write(
            sources: sources, items: items, options: ExportOptions(encryption: encryption, keepEncryptionOf: 1), to: own
        )
        #expect(ownReport.decryptedSources.isEmpty)
        let ownShown = try Self.shown(own, password: "o")
        #expect(ownShown.contains("R = 6") && ownShown.contains("print high resolution: allowed"))
        #expect(ownShown.contains("modify forms: allowed") && ownShown.contains("modify annotations: not allowed"))
        #expect(ownShown.contains("extract for any purpose: not allowed"))
    }

    @Test func everyPartKeepsItAndTheNoteComesOnce() throws {
        let scratch = try ExportScratch()
        let (_, encrypted) = try Self.sources(scratch)
        let sources = [ExportSource(path: encrypted, password: "O")]
        let items: [ExportItem] = [.page(source: 0, index: 0), .page(source: 0, index: 1)]
        let parts = [
            ExportPart(items: 0..<1, path: scratch.path("a.pdf")),
            ExportPart(items: 1..<2, path: scratch.path("b.pdf")),
        ]
        let report = try PDFExporter.writeParts(
            sources: sources, items: items, parts: parts, options: ExportOptions(keepEncryptionOf: 0))
        #expect(report.decryptedSources.isEmpty)
        for part in parts {
            #expect(try Self.shown(part.path, password: "U").contains("Supplied password is user password"))
            #expect(try ExportTools.check(part.path, password: "O").status == 0)
        }
        let plainParts = parts.map { ExportPart(items: $0.items, path: $0.path + ".plain.pdf") }
        let plain = try PDFExporter.writeParts(
            sources: sources, items: items, parts: plainParts, options: ExportOptions())
        #expect(plain.decryptedSources == [encrypted])
        #expect(try Self.shown(plainParts[1].path).contains("File is not encrypted"))
    }
}
