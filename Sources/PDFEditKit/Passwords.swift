#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
package import PDFEngine
import Synchronization
import PageModel

/// The passwords a command may try on encrypted sources. Never stored anywhere.
///
/// Sources, in the order they are tried: `--password-for FILE=PW` for that file,
/// `--password PW`, `PDFEDIT_PASSWORD`, the `FILE=PW` lines of the file named by
/// `PDFEDIT_PASSWORD_FILE`; then, only when stdin is a terminal, a prompt.
/// A FILE matches a source when it names the same file (compared as absolute,
/// `FileIdentity`) or, when it has no slash, the source's file name.
public struct PasswordBook: Sendable {
    /// Passwords for any file (`--password`, `PDFEDIT_PASSWORD`), in the order tried.
    public var general: [String]
    /// Passwords for one file (`--password-for`, `PDFEDIT_PASSWORD_FILE`): a path or a bare file name.
    public var perFile: [(file: String, password: String)]
    /// Ask on the terminal when no password given fits.
    public var mayPrompt: Bool

    /// A book of these passwords; empty by default, and never prompting.
    public init(general: [String] = [], perFile: [(file: String, password: String)] = [], mayPrompt: Bool = false) {
        self.general = general
        self.perFile = perFile
        self.mayPrompt = mayPrompt
    }

    /// This book's passwords, then `other`'s (a `run` script line's own options with `run`'s).
    public func adding(_ other: PasswordBook) -> PasswordBook {
        PasswordBook(
            general: general + other.general, perFile: perFile + other.perFile, mayPrompt: mayPrompt || other.mayPrompt)
    }

    /// The environment variable that gives a password for any file.
    public static let passwordVariable = "PDFEDIT_PASSWORD"
    /// The environment variable that names a file of `FILE=PASSWORD` lines.
    public static let passwordFileVariable = "PDFEDIT_PASSWORD_FILE"

    /// This process's values of the two variables above (read by name, not by
    /// building the whole environment).
    public static var environmentVariables: [String: String] {
        EnvironmentVariables.process.values(of: [passwordVariable, passwordFileVariable])
    }

    /// Builds the book from the command line and the environment.
    public static func from(
        password: String?, passwordFor: [String], environment: [String: String] = environmentVariables,
        stdinIsTerminal: Bool = isatty(STDIN_FILENO) == 1
    ) throws(PDFEditError) -> PasswordBook {
        var book = PasswordBook(mayPrompt: stdinIsTerminal)
        if let password { book.general.append(password) }
        for entry in passwordFor {
            guard let pair = Self.splitPair(entry) else {
                // The value is not quoted back: it may well be the password itself.
                throw PDFEditError.usage("--password-for wants FILE=PASSWORD; the value given has no \"=\" before the password")
            }
            book.perFile.append(pair)
        }
        if let password = environment[passwordVariable] { book.general.append(password) }
        if let listPath = environment[passwordFileVariable] {
            // A list of FILE=PW lines: 1 MiB is far more than any holds.
            let text = try OutputEncryption.smallText(of: listPath, upTo: 1 << 20)
            for line in text.split(whereSeparator: \.isNewline) {
                let trimmed = line.trimmingSpaces()
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                guard let pair = Self.splitPair(trimmed) else {
                    throw PDFEditError.usage("\(listPath): a line is not FILE=PASSWORD")
                }
                book.perFile.append(pair)
            }
        }
        return book
    }

    private static func splitPair(_ text: String) -> (file: String, password: String)? {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// Candidate passwords for `path`, most specific first, without repeats.
    public func candidates(for path: String) -> [String] {
        let identity = FileIdentity(of: path)
        let name = Paths.name(of: path)
        var result: [String] = []
        for entry in perFile {
            let matches = entry.file.contains("/") ? FileIdentity(of: entry.file) == identity : entry.file == name
            if matches { result.append(entry.password) }
        }
        result += general
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }
    }

    /// Opens a file with `open`, first without a password, then with each candidate,
    /// then (on a terminal) with a typed one. Returns the result and the password used.
    package func open<T>(
        _ path: String, _ open: (String?) throws(EngineError) -> T
    ) throws(EngineError) -> (pdf: T, password: String?) {
        do {
            return (try open(nil), nil)
        } catch .password {
            // Encrypted with a non-empty user password: try what we were given.
        }
        let candidates = candidates(for: path)
        for password in candidates {
            do {
                let opened = try open(password)
                Self.decrypted.store(true, ordering: .relaxed)
                return (opened, password)
            } catch .password {
                continue
            }
        }
        if mayPrompt, let typed = Self.prompt(for: path) {
            do {
                let opened = try open(typed)
                Self.decrypted.store(true, ordering: .relaxed)
                return (opened, typed)
            } catch .password {}
        }
        throw EngineError.password(file: path, given: !candidates.isEmpty || mayPrompt)
    }

    /// Whether this process opened a file with a password: what it read from
    /// such a file (bookmark titles, link targets) is as secret as the file, so a
    /// session it saves is private (`SessionStore.save`).
    package static var someFileWasDecrypted: Bool { decrypted.load(ordering: .relaxed) }

    private static let decrypted = Atomic<Bool>(false)

    private static func prompt(for path: String) -> String? {
        guard let typed = getpass("Password for \(path): ") else { return nil }
        return String(cString: typed)
    }
}
