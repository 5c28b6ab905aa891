import Foundation
import Testing

@testable import PDFEditKit

/// `--encrypt`'s passwords and permissions (`OutputEncryption.swift`): where each
/// password comes from and in which order, the first line of a password file,
/// `--allow` lists, and the refusals (never quoting a password).
@Suite struct OutputEncryptionTests {
    static let environment = ["PDFEDIT_USER_PASSWORD": "env-u", "PDFEDIT_OWNER_PASSWORD": "env-o"]

    static func resolve(
        _ arguments: [String], user: String? = nil, owner: String? = nil, environment: [String: String] = [:]
    ) throws(PDFEditError) -> OutputEncryption {
        try OutputEncryption.resolve(
            arguments: arguments, userPasswordFile: user, ownerPasswordFile: owner,
            allowed: Set(OutputPermission.allCases), environment: environment)
    }

    @Test func argvThenFileThenEnvironment() throws {
        let scratch = try KitScratch()
        let file = scratch.path("owner.txt")
        try "from file\r\nignored\n".write(toFile: file, atomically: true, encoding: .utf8)
        let argv = try Self.resolve(["a", "b"], environment: Self.environment)
        #expect(argv.userPassword == "a" && argv.ownerPassword == "b")
        let mixed = try Self.resolve(["-"], owner: file, environment: Self.environment)
        #expect(mixed.userPassword == "env-u" && mixed.ownerPassword == "from file")
        let environment = try Self.resolve(["-"], environment: Self.environment)
        #expect(environment.userPassword == "env-u" && environment.ownerPassword == "env-o")
        #expect(environment.allowed == Set(OutputPermission.allCases))
    }

    @Test func aPasswordFileGivesItsFirstLine() throws {
        let scratch = try KitScratch()
        for (text, expected) in [
            ("pw", "pw"), ("pw\n", "pw"), ("pw\r\nx", "pw"), ("  spaced pw \nx", "  spaced pw "), ("", ""), ("\nx", ""),
        ] {
            let file = scratch.path("pw.txt")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try OutputEncryption.firstLine(of: file) == expected, "\(text.debugDescription)")
        }
    }

    @Test func refusalsNameTheFileOrOptionButNeverThePassword() throws {
        let scratch = try KitScratch()
        let missing = scratch.path("none.txt")
        do {
            _ = try Self.resolve(["-"], user: missing, owner: missing)
            Issue.record("a missing file accepted")
        } catch {
            #expect(error.exitCode == 66 && error.description == "\(missing): no such file")
        }
        let folder = scratch.path("")
        do {
            _ = try Self.resolve(["-"], user: folder, owner: folder)
            Issue.record("a folder accepted")
        } catch {
            #expect(error.exitCode == 65 && error.description == "\(folder): cannot be read: not a regular file")
        }
        for arguments in [["secret-1"], ["secret-1", "secret-2", "secret-3"]] {
            do {
                _ = try Self.resolve(arguments)
                Issue.record("\(arguments.count) values accepted")
            } catch {
                #expect(error.exitCode == 64 && !error.description.contains("secret"))
            }
        }
        do {
            _ = try Self.resolve(["-"], environment: ["PDFEDIT_USER_PASSWORD": "secret-u"])
            Issue.record("no owner password accepted")
        } catch {
            #expect(error.exitCode == 64 && error.description.contains("PDFEDIT_OWNER_PASSWORD"))
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func allowListsPermissions() throws {
        #expect(try OutputPermission.list("print") == [.print])
        #expect(try OutputPermission.list("print, copy,assemble") == [.print, .copy, .assemble])
        #expect(try OutputPermission.list("print,copy,modify,annotate,form,assemble") == Set(OutputPermission.allCases))
        for bad in ["", "print,", "Print", "all", "print;copy"] {
            #expect(throws: PDFEditError.self, "\(bad)") { try OutputPermission.list(bad) }
        }
        do {
            _ = try OutputPermission.list("print,fly")
            Issue.record("an unknown permission was accepted")
        } catch {
            #expect(error.exitCode == 64)
            #expect(
                error.description
                    == "--allow: unknown permission \"fly\"; known: print,copy,modify,annotate,form,assemble")
        }
    }
}
