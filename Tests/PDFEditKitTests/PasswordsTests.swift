import Foundation
import PropertyBased
import Testing

@testable import PDFEditKit

/// The password book (`Passwords.swift`): where passwords come from and in which
/// order they are tried, how a FILE names a source, the refusals of malformed
/// entries, and opening an encrypted fixture through the kit.
@Suite struct PasswordsTests {
    static func book(
        password: String? = nil, passwordFor: [String] = [], environment: [String: String] = [:],
        terminal: Bool = false
    ) throws(PDFEditError) -> PasswordBook {
        try PasswordBook.from(
            password: password, passwordFor: passwordFor, environment: environment, stdinIsTerminal: terminal)
    }

    // MARK: Sources and their order

    @Test func commandLineThenEnvironmentThenFile() throws {
        let scratch = try KitScratch()
        let list = scratch.path("passwords.txt")
        try "# a comment\n\n  a.pdf=from-file  \nb.pdf=x=y\n".write(toFile: list, atomically: true, encoding: .utf8)
        let book = try Self.book(
            password: "cli", passwordFor: ["a.pdf=for-a"],
            environment: ["PDFEDIT_PASSWORD": "env", "PDFEDIT_PASSWORD_FILE": list])
        #expect(book.general == ["cli", "env"])
        #expect(book.perFile.map(\.file) == ["a.pdf", "a.pdf", "b.pdf"])
        // Lines are trimmed; everything after the first "=" is the password.
        #expect(book.perFile.map(\.password) == ["for-a", "from-file", "x=y"])
        #expect(book.mayPrompt == false)
        #expect(book.candidates(for: "/any/where/a.pdf") == ["for-a", "from-file", "cli", "env"])
        #expect(book.candidates(for: "b.pdf") == ["x=y", "cli", "env"])
        #expect(book.candidates(for: "c.pdf") == ["cli", "env"])
    }

    @Test func aPromptOnlyOnATerminal() throws {
        #expect(try Self.book(terminal: true).mayPrompt)
        #expect(try Self.book(terminal: false).mayPrompt == false)
    }

    @Test func addingKeepsThisBooksPasswordsFirst() {
        let line = PasswordBook(general: ["line"], perFile: [("a.pdf", "line-a")])
        let run = PasswordBook(general: ["run"], perFile: [("a.pdf", "run-a")], mayPrompt: true)
        let both = line.adding(run)
        #expect(both.general == ["line", "run"])
        #expect(both.perFile.map(\.password) == ["line-a", "run-a"])
        #expect(both.mayPrompt)
        #expect(both.candidates(for: "a.pdf") == ["line-a", "run-a", "line", "run"])
    }

    // MARK: Which FILE names a source

    @Test func aNameWithoutSlashMatchesTheFileNameInAnyFolder() {
        let book = PasswordBook(perFile: [("report.pdf", "r")])
        #expect(book.candidates(for: "/a/report.pdf") == ["r"])
        #expect(book.candidates(for: "b/report.pdf") == ["r"])
        #expect(book.candidates(for: "/a/report.pdf.bak") == [])
        #expect(book.candidates(for: "/a/Report.pdf") == [])
    }

    @Test func aPathMatchesTheSameFileSpelledAnotherWay() throws {
        let scratch = try KitScratch()
        let folder = scratch.path("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/doc.pdf"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let link = scratch.path("link.pdf")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let book = PasswordBook(perFile: [(folder + "/../in/./doc.pdf", "p")])
        #expect(book.candidates(for: file) == ["p"])
        #expect(book.candidates(for: link) == ["p"])
        // A path names only that file, not every file of the name.
        #expect(book.candidates(for: scratch.path("doc.pdf")) == [])
    }

    @Test func identitiesResolveDotsAndLinks() throws {
        let scratch = try KitScratch()
        let real = Paths.resolved(scratch.path("."))
        let target = real + "/t.pdf"
        _ = FileManager.default.createFile(atPath: target, contents: Data())
        try FileManager.default.createSymbolicLink(atPath: real + "/l.pdf", withDestinationPath: target)
        #expect(FileIdentity(of: real + "/x/../t.pdf") == FileIdentity(of: target))
        #expect(FileIdentity(of: real + "/./l.pdf") == FileIdentity(of: target))
        #expect(Paths.resolved("/") == "/")
    }

    /// Whatever the entries, the candidates hold each password once, in the
    /// order of its first appearance among the matching entries and then the general ones.
    @Test func candidatesAreUniqueAndInOrderOfFirstAppearance() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...5).array(of: 0...8), Gen.int(in: 0...5).array(of: 0...8),
            Gen.int(in: 0...3).array(of: 0...8)
        ) { perFilePasswords, general, fileChoice in
            let names = ["a.pdf", "b.pdf", "/x/a.pdf", "/y/a.pdf"]
            let entries = zip(perFilePasswords, fileChoice).map { (file: names[$1], password: "pw\($0)") }
            let book = PasswordBook(general: general.map { "pw\($0)" }, perFile: entries)
            let candidates = book.candidates(for: "/x/a.pdf")
            let matching = entries.filter { ["a.pdf", "/x/a.pdf"].contains($0.file) }.map(\.password)
            var expected: [String] = []
            for password in matching + general.map({ "pw\($0)" }) where !expected.contains(password) {
                expected.append(password)
            }
            #expect(candidates == expected)
        }
    }

    // MARK: Refusals

    @Test func malformedEntriesAreRefusedWithoutQuotingThem() {
        for entry in ["secret", "=secret"] {
            #expect(throws: PDFEditError.self) { try Self.book(passwordFor: [entry]) }
            do throws(PDFEditError) {
                _ = try Self.book(passwordFor: [entry])
            } catch {
                #expect(
                    error.description
                        == "--password-for wants FILE=PASSWORD; the value given has no \"=\" before the password")
                #expect(error.exitCode == 64)
            }
        }
    }

    @Test func aMissingOrMalformedPasswordFile() throws {
        let scratch = try KitScratch()
        let missing = scratch.path("none.txt")
        do throws(PDFEditError) {
            _ = try Self.book(environment: ["PDFEDIT_PASSWORD_FILE": missing])
            Issue.record("a missing password file was accepted")
        } catch {
            guard case .engine(.missing(let file)) = error else { throw error }
            #expect(file == missing)
            #expect(error.exitCode == 66)
        }
        let bad = scratch.path("bad.txt")
        try "a.pdf=1\nno equals sign\n".write(toFile: bad, atomically: true, encoding: .utf8)
        do throws(PDFEditError) {
            _ = try Self.book(environment: ["PDFEDIT_PASSWORD_FILE": bad])
            Issue.record("a malformed password file was accepted")
        } catch {
            #expect(error.description == "\(bad): a line is not FILE=PASSWORD")
            #expect(error.exitCode == 64)
        }
    }

    // MARK: Opening an encrypted file through the kit

    @Test(.enabled(if: KitFixtures.has("encrypted.pdf"), "needs Fixtures/encrypted.pdf"))
    func anEncryptedFileNeedsOneOfTheCandidates() throws {
        let scratch = try KitScratch()
        let input = KitFixtures.path("encrypted.pdf")
        let withoutPassword = DocumentEditor(sessionPath: scratch.path("none.json"))
        do throws(PDFEditError) {
            try withoutPassword.open([input])
            Issue.record("opened without a password")
        } catch {
            #expect(error.exitCode == 77)
            #expect(error.description == "\(input): encrypted; give its password with --password or --password-for")
        }
        let wrong = DocumentEditor(sessionPath: scratch.path("wrong.json"), passwords: PasswordBook(general: ["nope"]))
        do throws(PDFEditError) {
            try wrong.open([input])
            Issue.record("opened with a wrong password")
        } catch {
            guard case .engine(.password(let file, let given)) = error else { throw error }
            #expect(file == input && given)
            #expect(error.description == "\(input): wrong password")
        }
        // The right one among wrong ones, given for the file by name.
        let book = PasswordBook(general: ["nope"], perFile: [("encrypted.pdf", "secret")])
        let editor = DocumentEditor(sessionPath: scratch.path("right.json"), passwords: book)
        try editor.open([input])
        #expect(try editor.list().pageCount == 2)
        let output = scratch.path("decrypted.pdf")
        #expect(try editor.export(to: output).pageCount == 2)
        #expect(try KitTools.pageCount(output) == 2)
    }
}
