import Foundation
import PDFEditKit
import Testing

/// `WriteOptions` from Swift, as direct mode uses them: a source replaced in
/// place, atomically, keeping its encryption; a signed file written as its
/// bytes plus an appended update, its signature still valid. Judged by qpdf
/// (`--show-encryption`, `--check`), pdfinfo, pdftotext and pdfsig.
@Suite(.enabled(if: KitFixtures.has("encrypted.pdf") && KitFixtures.has("alpha.pdf"), "needs Fixtures/encrypted.pdf, alpha.pdf"))
struct PageEditorWriteOptionsTests {
    /// encrypted.pdf's user password (Fixtures/make-fixtures.py).
    static let password = "secret"

    /// `qpdf --show-encryption` of `path`, opened with `password`.
    static func encryption(_ path: String, password: String? = Self.password) throws -> String {
        try KitTools.run("qpdf", ["--show-encryption"] + (password.map { ["--password=\($0)"] } ?? []) + [path]).stdout
    }

    static func inode(_ path: String) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    @Test func replacingAnEncryptedSourceIsAtomicAndKeepsItsEncryption() throws {
        let scratch = try KitScratch()
        let path = scratch.path("enc.pdf")
        try FileManager.default.copyItem(atPath: KitFixtures.path("encrypted.pdf"), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let inodeBefore = try Self.inode(path)
        let url = URL(fileURLWithPath: path)

        var editor = try PageEditor(contentsOf: [url], passwords: PasswordBook(general: [Self.password]))
        #expect(editor.openingWarnings.isEmpty)
        try editor.rotate(.pages(1...1), by: 90)

        // Without the option, the source is refused and stays as it was.
        #expect { try editor.write(to: url) } throws: { error in
            if case PDFEditError.outputIsSource = error { return true }
            return false
        }
        #expect(try Data(contentsOf: url) == before)

        let result = try editor.write(to: url, options: WriteOptions(replacingSource: true, encryption: .keep))
        #expect(result.output == path)
        #expect(result.warnings.isEmpty)
        // Renamed over the old file (a new inode), its mode kept, nothing left beside it.
        #expect(try Self.inode(path) != inodeBefore)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["enc.pdf"])
        // Still encrypted as it was: AES-256 (R6), the user password needed.
        let shown = try Self.encryption(path)
        #expect(shown.contains("R = 6"), "\(shown)")
        #expect(shown.contains("AESv3"), "\(shown)")
        #expect(try KitTools.run("qpdf", ["--check", path]).status != 0)
        #expect(try KitTools.run("qpdf", ["--check", "--password=\(Self.password)", path]).status == 0)
        #expect(shown.contains("P = -4"), "\(shown)")
        let info = try KitTools.run("pdfinfo", ["-upw", Self.password, "-f", "1", "-l", "2", path]).stdout
        #expect(info.contains("Page    1 rot:   90"), "\(info)")
        #expect(info.contains("Page    2 rot:   0"), "\(info)")
        let text = try KitTools.run("pdftotext", ["-upw", Self.password, path, "-"]).stdout
        #expect(text.contains("ENC-P1") && text.contains("ENC-P2"))
    }

    @Test func encryptionIsKeptOrRemovedAsAsked() throws {
        let scratch = try KitScratch()
        let editor = try PageEditor(
            contentsOf: [URL(fileURLWithPath: KitFixtures.path("encrypted.pdf"))],
            passwords: PasswordBook(general: [Self.password]))
        // Bytes keep it too.
        let kept = scratch.path("kept.pdf")
        try editor.data(options: WriteOptions(encryption: .keep)).write(to: URL(fileURLWithPath: kept))
        #expect(try Self.encryption(kept).contains("R = 6"))
        // Removed: with a warning by default, without one when asked for.
        let warned = try editor.write(to: URL(fileURLWithPath: scratch.path("plain.pdf")))
        #expect(try Self.encryption(scratch.path("plain.pdf"), password: nil).contains("File is not encrypted"))
        #expect(warned.warnings.count == 1)
        let quiet = try editor.write(
            to: URL(fileURLWithPath: scratch.path("quiet.pdf")), options: WriteOptions(encryption: .remove))
        #expect(try Self.encryption(scratch.path("quiet.pdf"), password: nil).contains("File is not encrypted"))
        #expect(quiet.warnings.isEmpty)
        // Only a file the editor reads is replaced in place; bytes replace nothing.
        let other = URL(fileURLWithPath: KitFixtures.path("alpha.pdf"))
        func isUsage(_ error: any Error) -> Bool {
            if case PDFEditError.usage = error { return true }
            return false
        }
        #expect(performing: { try editor.write(to: other, options: WriteOptions(replacingSource: true)) }, throws: isUsage)
        #expect(performing: { try editor.data(options: WriteOptions(replacingSource: true)) }, throws: isUsage)
    }

    @Test(.enabled(if: KitSigned.canSign, "needs openssl, python3 and the signer of Tests/EndToEndTests/SignedPDF.swift"))
    func aSignedFileEditedInPlaceStaysSignedAsAnAppendedUpdate() throws {
        let scratch = try KitScratch()
        let path = try KitSigned.make(in: scratch)
        let signed = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try KitTools.run("pdfsig", [path]).stdout.contains("Signature is Valid"))

        var editor = try PageEditor(contentsOf: [URL(fileURLWithPath: path)])
        try editor.move(.pages(3...3), to: .position(1))
        try editor.rotate(.pages(2...2), by: 90)
        var settings = ExportSettings()
        settings.keepSignatures = true
        try editor.write(
            to: URL(fileURLWithPath: path), settings: settings,
            options: WriteOptions(replacingSource: true, encryption: .keep))

        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        // The signed bytes unchanged, the edit after them.
        #expect(written.count > signed.count)
        #expect(written.prefix(signed.count) == signed)
        let report = try KitTools.run("pdfsig", [path]).stdout
        #expect(report.contains("Signature is Valid"), "\(report)")
        #expect(report.contains("Not total document signed"), "\(report)")
        #expect(try KitTools.qpdfCheck(path))
        let text = try KitTools.run("pdftotext", [path, "-"]).stdout
        let order = ["Page 3 of", "Page 1 of", "Page 2 of"].map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "\(text)")
        #expect(try KitTools.rotation(path, page: 2) == 90)
        #expect(try KitTools.rotation(path, page: 1) == 0)

        // An edit that cannot be appended (a page left out) is refused, the file
        // kept. (A new editor: the first one's source has just been replaced, which
        // it would refuse as changed, whatever the edit.)
        var again = try PageEditor(contentsOf: [URL(fileURLWithPath: path)])
        try again.remove(.pages(1...1))
        #expect {
            try again.write(
                to: URL(fileURLWithPath: path), settings: settings, options: WriteOptions(replacingSource: true))
        } throws: { error in
            if case PDFEditError.usage(let message) = error { return message.contains("--keep-signatures") }
            return false
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    }
}

/// The signed PDFs of the end-to-end suite (`SignedPDF.make`), made by the same
/// Python signer: read from that file, so both suites sign alike.
enum KitSigned {
    static let signer: String? = {
        let file = KitFixtures.folder.deletingLastPathComponent()
            .appendingPathComponent("Tests/EndToEndTests/SignedPDF.swift")
        guard let source = try? String(contentsOf: file, encoding: .utf8),
            let start = source.range(of: "static let script = #\"\"\"\n"),
            let end = source.range(of: "\n\"\"\"#", range: start.upperBound..<source.endIndex)
        else { return nil }
        return String(source[start.upperBound..<end.lowerBound])
    }()

    static var canSign: Bool {
        signer != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfsig")
    }

    /// A three-page PDF signed in an appended update, in `scratch`.
    static func make(in scratch: KitScratch) throws -> String {
        let output = scratch.path("signed.pdf")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", signer ?? "", output, scratch.url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "the signer failed")
        return output
    }
}
