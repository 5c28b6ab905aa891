import Foundation
import Testing

/// Signed files (issue 46 §6): `info` and `list` name the signatures, an export
/// that would invalidate one warns, and `--keep-signatures` appends the edit to
/// the signed bytes or refuses (64). Checked with pdfsig (poppler's verifier),
/// qpdf, byte comparison of the signed prefix and, where installed, pyHanko.
@Suite struct SignedFilesTests {
    struct Signature: Decodable, Equatable {
        var field: String
        var signer: String?
        var signingTime: String?
        var coversWholeFile: Bool
        var docMDP: Int?
        var byteRange: [Int]?
    }

    struct InfoJSON: Decodable {
        var signatures: [Signature]
    }

    func signatures(of file: String) throws -> [Signature] {
        let result = try pdfeditOK("info", file, "--json", "--no-text")
        return try JSONDecoder().decode(InfoJSON.self, from: Data(result.stdout.utf8)).signatures
    }

    /// pdfsig's report of `file`.
    func pdfsig(_ file: String) throws -> String { try run("pdfsig", [file]).stdout }

    @Test("info names the field, the certificate's signer, the CMS signing time and what is covered")
    func infoOfASignedFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signed = try SignedPDF.make(in: directory)
        let found = try signatures(of: signed)
        #expect(found.count == 1)
        let signature = try #require(found.first)
        #expect(signature.field == "Signature1")
        // The certificate's CN, not the dictionary's /Name ("Name In Dictionary").
        #expect(signature.signer == "Alice Example")
        // The CMS signing time (openssl's: now), not /M (2024-05-01T07:30:00Z).
        let time = try #require(signature.signingTime)
        #expect(time.hasSuffix("Z") && time.count == 20 && !time.hasPrefix("2024-05-01"))
        #expect(signature.coversWholeFile)
        #expect(signature.docMDP == nil)
        // The byte range as pdfsig reads it: "[0 - A], [B - C]".
        let range = try #require(signature.byteRange)
        let report = try pdfsig(signed)
        #expect(report.contains("Signed Ranges: [\(range[0]) - \(range[1])], [\(range[2]) - \(range[2] + range[3])]"), "\(report)")
        #expect(report.contains("Total document signed"))
        #expect(report.contains("Signer Certificate Common Name: Alice Example"))
        let text = try pdfeditOK("info", signed, "--no-text").stdout
        #expect(text.contains("Signatures: \"Signature1\" by Alice Example, \(time), covers the whole file"), "\(text)")
    }

    @Test("info tells a certification's DocMDP permission, and a signature of an earlier revision")
    func certificationAndLaterUpdates() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certified = try SignedPDF.make(in: directory, name: "certified.pdf", docMDP: 1)
        #expect(try signatures(of: certified).map(\.docMDP) == [1])
        let text = try pdfeditOK("info", certified, "--no-text").stdout
        #expect(text.contains("certifies: no changes (DocMDP 1)"), "\(text)")
        let formFilling = try SignedPDF.make(in: directory, name: "forms.pdf", docMDP: 2)
        #expect(try signatures(of: formFilling).map(\.docMDP) == [2])
        let later = try SignedPDF.make(in: directory, name: "later.pdf", updatedAfter: true)
        #expect(try signatures(of: later).map(\.coversWholeFile) == [false])
        #expect(try pdfsig(later).contains("Not total document signed"))
        #expect(try pdfeditOK("info", later, "--no-text").stdout.contains("covers an earlier revision (changed since)"))
        // An unsigned file has none (the key is there, empty).
        #expect(try signatures(of: Paths.fixture("alpha.pdf")) == [])
    }

    @Test("list names each signed source of the listed items and its signatures, in text and JSON")
    func listInASession() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SignedPDF.make(in: directory)
        try pdfeditOK("open", "signed.pdf", "alpha.pdf", in: directory)
        try pdfeditOK("insert", "alpha.pdf", "--doc", "signed", in: directory)
        let text = try pdfeditOK("list", "--no-text", "--doc", "signed", in: directory).stdout
        #expect(text.contains("Signed: signed.pdf\n  \"Signature1\" by Alice Example, "), "\(text)")
        #expect(!text.contains("Signed: alpha.pdf"))
        let json = try pdfeditOK("list", "--json", "--no-text", "--doc", "signed", in: directory).stdout
        struct Listing: Decodable {
            struct Signed: Decodable {
                var source: String
                var signatures: [Signature]
            }
            var signatures: [Signed]
        }
        let listing = try JSONDecoder().decode(Listing.self, from: Data(json.utf8))
        #expect(listing.signatures.map(\.source) == ["signed.pdf"])
        #expect(listing.signatures.first?.signatures.map(\.signer) == ["Alice Example"])
        // Only the listed items' sources: alpha's pages alone carry none.
        let alphaOnly = try pdfeditOK("list", "4..", "--json", "--no-text", "--doc", "signed", in: directory).stdout
        #expect(try JSONDecoder().decode(Listing.self, from: Data(alphaOnly.utf8)).signatures.isEmpty)
    }

    @Test("an export that rewrites a signed file warns naming the signature; one appended to it does not")
    func warningWhenInvalidated() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signed = try SignedPDF.make(in: directory)
        let removed = directory.appendingPathComponent("removed.pdf").path
        let result = try pdfeditOK("remove", "2", signed, "-o", removed)
        #expect(
            result.stderr.contains(
                "pdfedit: warning: \(signed): signature \"Signature1\" (Alice Example) does not verify in \(removed)"),
            "\(result.stderr)")
        #expect(!(try pdfsig(removed)).contains("Signature is Valid"))
        // A session export copying pages of two files warns too.
        try pdfeditOK("open", signed, Paths.fixture("alpha.pdf"), in: directory)
        try pdfeditOK("insert", Paths.fixture("alpha.pdf"), "--doc", "signed", in: directory)
        let exported = try pdfeditOK("export", "both.pdf", "--doc", "signed", in: directory)
        #expect(exported.stderr.contains("signature \"Signature1\" (Alice Example) does not verify in both.pdf"), "\(exported.stderr)")
        // Split parts are always copied: one warning, naming the folder.
        let split = try pdfeditOK("export", "--split", "parts", "--doc", "signed", in: directory)
        #expect(split.stderr.contains("does not verify in parts/"), "\(split.stderr)")
        // A rotation written as an update appended to the signed bytes keeps it: no warning.
        let turned = directory.appendingPathComponent("turned.pdf").path
        let kept = try pdfeditOK("rotate", "2", "--by", "90", signed, "-o", turned)
        #expect(!kept.stderr.contains("signature"), "\(kept.stderr)")
        #expect(try pdfsig(turned).contains("Signature is Valid"))
    }

    @Test("--keep-signatures appends the edit: the signed bytes unchanged, the signature valid, the edit there")
    func keepSignatures() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signed = try SignedPDF.make(in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: signed))
        let range = try #require(try signatures(of: signed).first?.byteRange)
        // Forced onto the copying path by the environment, the flag still appends.
        let output = directory.appendingPathComponent("out.pdf").path
        let result = try pdfeditOK(
            "move", "3", "--to", "1", signed, "-o", output, "--keep-signatures", environment: ["PDFEDIT_NO_APPEND": "1"])
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(written.count > original.count)
        #expect(written.prefix(original.count) == original)
        #expect(written.prefix(range[2] + range[3]) == original.prefix(range[2] + range[3]))
        #expect(try qpdfCheck(output).status == 0)
        #expect(try pageText(output, 1).contains("Page 3 of the signed file"))
        #expect(try pageText(output, 2).contains("Page 1 of the signed file"))
        let report = try pdfsig(output)
        #expect(report.contains("Signature is Valid"), "\(report)")
        #expect(report.contains("Not total document signed"))
        // pdfedit reads it back: the same signature, now of an earlier revision.
        #expect(try signatures(of: output).map(\.coversWholeFile) == [false])
        // A session export of a rotation keeps it too.
        try pdfeditOK("open", signed, in: directory)
        try pdfeditOK("rotate", "1", "--by", "90", in: directory)
        try pdfeditOK("export", "session.pdf", "--keep-signatures", in: directory)
        let session = try Data(contentsOf: directory.appendingPathComponent("session.pdf"))
        #expect(session.prefix(original.count) == original)
        let pages = try run("pdfinfo", ["-f", "1", "-l", "2", directory.appendingPathComponent("session.pdf").path]).stdout
        let rotations = pages.split(separator: "\n").filter { $0.contains(" rot:") }.map { $0.split(separator: " ").last }
        #expect(rotations == ["90", "0"], "\(pages)")
    }

    @Test(
        "pyHanko finds the kept signature intact and valid, and the copied one broken",
        .enabled(if: SignedPDF.pyHankoAvailable, "pyHanko is not installed (make setup-test installs it with pip): skipped"))
    func pyHankoVerdict() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signed = try SignedPDF.make(in: directory)
        let certificate = SignedPDF.certificate(in: directory)
        #expect(try SignedPDF.pyHanko(signed, certificate: certificate).first?.hasPrefix("Signature1 intact valid") == true)
        let kept = directory.appendingPathComponent("kept.pdf").path
        try pdfeditOK("rotate", "2", "--by", "90", signed, "-o", kept, "--keep-signatures")
        let verdict = try SignedPDF.pyHanko(kept, certificate: certificate)
        #expect(verdict.first?.hasPrefix("Signature1 intact valid SignatureCoverageLevel.ENTIRE_REVISION") == true, "\(verdict)")
        let copied = directory.appendingPathComponent("copied.pdf").path
        try pdfeditOK("remove", "3", signed, "-o", copied)
        #expect(try SignedPDF.pyHanko(copied, certificate: certificate).first?.contains("intact valid") != true)
    }

    /// poppler reads a signer on a GLib worker thread, which released the field
    /// (and with it the document) after waking the caller: the document could be
    /// finalized there while the process exited, a crash (139) in about one run
    /// of twenty. `PopplerPDF.signers` waits for that release.
    @Test("reading signers leaves nothing to a worker thread at exit: many refused exports, never a crash")
    func noCrashAtExitAfterReadingSigners() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signed = try SignedPDF.make(in: directory)
        let output = directory.appendingPathComponent("out.pdf").path
        for _ in 0..<60 {
            let result = try pdfedit(args: ["remove", "2", signed, "-o", output, "--keep-signatures"], in: directory)
            #expect(result.status == 64, "\(result.stderr)")
            if result.status != 64 { break }
        }
    }

    @Test("--keep-signatures refuses (64, saying why) what an appended update cannot keep")
    func refusals() throws {
        let directory = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let signed = try SignedPDF.make(in: directory)
        let certified = try SignedPDF.make(in: directory, name: "certified.pdf", docMDP: 1)
        let forms = try SignedPDF.make(in: directory, name: "forms.pdf", docMDP: 2)
        let output = directory.appendingPathComponent("out.pdf").path
        func refused(_ arguments: [String], _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try pdfedit(args: arguments + ["--keep-signatures"], in: directory)
            #expect(result.status == 64, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            // One error line (a damaged input's recovery warning aside), saying why.
            let errors = result.stderrLines.filter { !$0.hasPrefix("pdfedit: warning: ") }
            #expect(errors.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(errors.first?.contains("--keep-signatures: ") == true, "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(errors.first?.contains(reason) == true, "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: output), sourceLocation: sourceLocation)
        }
        try refused(["remove", "2", signed, "-o", output], "pages of the file are left out")
        try refused(["rotate", "1", "--by", "90", signed, "-o", output, "--encrypt", "u", "o"], "the output is encrypted anew")
        try refused(["number", "all", signed, "-o", output], "the output must be this file's pages alone")
        try refused(["rotate", "1", "--by", "90", certified, "-o", output], "(DocMDP 1): no update is allowed")
        try refused(["rotate", "1", "--by", "90", forms, "-o", output], "form filling and signing only (DocMDP 2)")
        try refused(["export", "--split", "parts", "--from", signed], "parts of a split are copied")
        // A file the appended writer cannot take: its cross-reference offset
        // broken, so qpdf repairs it while reading (the bridge says so).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: signed))
        let tail = bytes.suffix(40)
        let text = String(decoding: tail, as: UTF8.self)
        let digits = try #require(text.range(of: #"startxref\n[0-9]+"#, options: .regularExpression))
        let broken = text.replacingCharacters(in: digits, with: "startxref\n" + String(repeating: "9", count: text[digits].count - 10))
        bytes.replaceSubrange(bytes.count - 40..<bytes.count, with: Data(broken.utf8))
        let damaged = directory.appendingPathComponent("damaged.pdf").path
        try bytes.write(to: URL(fileURLWithPath: damaged))
        try refused(["rotate", "1", "--by", "90", damaged, "-o", output], "the file is damaged")
        // Nothing is refused for an unsigned file: the flag keeps what there is.
        try pdfeditOK("remove", "1", "alpha.pdf", "-o", output, "--keep-signatures", in: directory)
        // In a session: pages of two files.
        try pdfeditOK("open", signed, in: directory)
        try pdfeditOK("insert", "alpha.pdf", in: directory)
        try FileManager.default.removeItem(atPath: output)
        try refused(["export", output], "the output must be this file's pages alone")
    }
}
