#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

extension OutputPermission {
    /// The permissions of a comma list (`print,copy`); an unknown word is a usage error (64).
    package static func list(_ text: String) throws(PDFEditError) -> Set<OutputPermission> {
        var result: Set<OutputPermission> = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = word.trimmingSpaces()
            guard let permission = OutputPermission(rawValue: trimmed) else {
                let known = allCases.map(\.rawValue).joined(separator: ",")
                throw PDFEditError.usage("--allow: unknown permission \"\(trimmed)\"; known: \(known)")
            }
            result.insert(permission)
        }
        return result
    }
}

extension OutputEncryption {
    /// The environment variable that gives the user password of `--encrypt`.
    package static let userPasswordVariable = "PDFEDIT_USER_PASSWORD"
    /// The environment variable that gives the owner password of `--encrypt`.
    package static let ownerPasswordVariable = "PDFEDIT_OWNER_PASSWORD"

    /// This process's values of the two variables above (read by name, not by
    /// building the whole environment).
    package static var environmentVariables: [String: String] {
        EnvironmentVariables.process.values(of: [userPasswordVariable, ownerPasswordVariable])
    }

    /// The encryption `--encrypt` asks for, each password from the first place
    /// that gives it: the command line (`arguments`: both, or `-` for none), the
    /// first line of its file (without the line break), then the environment
    /// (`PDFEDIT_USER_PASSWORD`, `PDFEDIT_OWNER_PASSWORD`; read here only). A
    /// password found nowhere is a usage error (64) saying where to give it; a
    /// file that does not exist is 66, one that cannot be read 65, both naming
    /// the file. No message ever contains a password.
    package static func resolve(
        arguments: [String], userPasswordFile: String?, ownerPasswordFile: String?, allowed: Set<OutputPermission>,
        environment: [String: String] = environmentVariables
    ) throws(PDFEditError) -> OutputEncryption {
        guard arguments == ["-"] || arguments.count == 2 else {
            throw PDFEditError.usage(
                "--encrypt takes two passwords (USERPW OWNERPW), or - to take them from the password files or the environment"
            )
        }
        func password(_ index: Int, file: String?, variable: String, option: String) throws(PDFEditError) -> String {
            if arguments.count == 2 { return arguments[index] }
            if let file { return try firstLine(of: file) }
            if let value = environment[variable] { return value }
            throw PDFEditError.usage(
                "--encrypt - needs the \(index == 0 ? "user" : "owner") password: give \(option) FILE or set \(variable)"
            )
        }
        if arguments.count == 2 && (userPasswordFile != nil || ownerPasswordFile != nil) {
            throw PDFEditError.usage("give the passwords either after --encrypt or in files, not both")
        }
        return OutputEncryption(
            userPassword: try password(
                0, file: userPasswordFile, variable: userPasswordVariable, option: "--user-password-file"),
            ownerPassword: try password(
                1, file: ownerPasswordFile, variable: ownerPasswordVariable, option: "--owner-password-file"),
            allowed: allowed)
    }

    /// The first line of a password file, without its line break (CR LF or LF).
    static func firstLine(of path: String) throws(PDFEditError) -> String {
        // A password is one short line: 64 KiB is plenty, and a huge file is not read whole.
        let text = try smallText(of: path, upTo: 65_536)
        // "\r\n" is one Character, a newline as "\n" is.
        return String(text.prefix { !$0.isNewline })
    }

    /// The text of a small file a command reads (a password file, a list of
    /// passwords), at most `limit` bytes of it: the one reading of such files.
    /// A file that is missing is 66; one that is not a regular file (a FIFO,
    /// `/dev/zero`), cannot be read or is not UTF-8 is 65, said as such — never
    /// "no such file".
    static func smallText(of path: String, upTo limit: Int) throws(PDFEditError) -> String {
        var status = stat()
        if case .failure(let failure) = nothingOrErrno({ stat(path, &status) }) {
            if failure.rawValue == ENOENT || failure.rawValue == ENOTDIR { throw PDFEditError.engine(.missing(file: path)) }
            throw PDFEditError.engine(.unreadable(file: path, reason: failure.description))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PDFEditError.engine(.unreadable(file: path, reason: "not a regular file"))
        }
        ReadFiles.note(path, as: "a password file")
        guard let data = FileHead.read(path, upTo: limit) else {
            throw PDFEditError.engine(.unreadable(file: path, reason: Errno.current.description))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw PDFEditError.engine(.unreadable(file: path, reason: "not UTF-8 text"))
        }
        return text
    }
}
