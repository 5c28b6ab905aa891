import Foundation
import PageModel

/// Where a session lives and how it is read, locked and written.
///
/// Location: `--session PATH`, else `PDFEDIT_SESSION`, else `.pdfedit/session.json`
/// in the current directory. Writes are atomic (`AtomicFile`); a lock file beside
/// the session (`<session>.lock`, `flock`) serialises processes for the whole
/// load–edit–save, so no update is lost.
public struct SessionStore: Sendable {
    public let path: String

    public init(explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let chosen = explicitPath ?? environment["PDFEDIT_SESSION"] ?? ".pdfedit/session.json"
        path = URL(fileURLWithPath: chosen).standardizedFileURL.path
    }

    public var directory: String { (path as NSString).deletingLastPathComponent }

    /// The folder source paths are stored relative to: the session file's folder,
    /// or, for a session inside a `.pdfedit` folder, the folder that holds it (so
    /// that `pdfedit open a.pdf` in a project stores `a.pdf`, not an absolute path).
    public var baseDirectory: String {
        (directory as NSString).lastPathComponent == ".pdfedit"
            ? (directory as NSString).deletingLastPathComponent : directory
    }

    /// Caches (thumbnails, text) live beside the session file.
    public var cacheDirectory: String {
        (directory as NSString).lastPathComponent == ".pdfedit"
            ? (directory as NSString).appendingPathComponent("cache")
            : (directory as NSString).appendingPathComponent(".pdfedit-cache")
    }

    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    // MARK: Reading and writing

    public func load() throws(PDFEditError) -> Session {
        guard let data = FileManager.default.contents(atPath: path) else {
            if exists { throw PDFEditError.engine(.unreadable(file: path, reason: "permission denied")) }
            throw PDFEditError.noSession(path: path)
        }
        do {
            return try Session.decode(data)
        } catch {
            throw PDFEditError.sessionCorrupt(path: path, reason: String(describing: error))
        }
    }

    public func save(_ session: Session) throws(PDFEditError) {
        let data: Data
        do {
            data = try session.encoded()
        } catch {
            throw PDFEditError.sessionCorrupt(path: path, reason: "cannot encode: \(error)")
        }
        try makeDirectory()
        try AtomicFile.write(data, to: path)
    }

    func makeDirectory() throws(PDFEditError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PDFEditError.engine(.cannotWrite(file: directory, reason: "cannot create the session folder"))
        }
    }

    // MARK: Locking

    /// The longest wait `PDFEDIT_LOCK_TIMEOUT` may ask for: a day.
    public static let maximumLockTimeout = 86_400.0

    /// `PDFEDIT_LOCK_TIMEOUT` in seconds (default 60): a number from 0 to
    /// `maximumLockTimeout`. Anything else (text, nan, infinities, negatives) is
    /// refused (64) naming the variable, rather than waiting forever or never.
    static func lockTimeout(environment: [String: String]) throws(PDFEditError) -> Double {
        guard let text = environment["PDFEDIT_LOCK_TIMEOUT"] else { return 60 }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
            (0...maximumLockTimeout).contains(seconds)
        else {
            throw PDFEditError.usage(
                "PDFEDIT_LOCK_TIMEOUT=\(escapingControlCharacters(text)): must be a number of seconds from 0 to "
                    + "\(Int(maximumLockTimeout))")
        }
        return seconds
    }

    /// Runs `body` holding the session's lock. Waits up to `PDFEDIT_LOCK_TIMEOUT`
    /// seconds (default 60) for another process to finish, then fails with 75.
    public func withLock<T>(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: () throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        let timeout = try Self.lockTimeout(environment: environment)
        try makeDirectory()
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AtomicFile.cannotWrite(lockPath, errno) }
        defer { close(descriptor) }  // closing releases the flock
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw AtomicFile.cannotWrite(lockPath, errno) }
            if Date() >= deadline { throw PDFEditError.locked(path: path, seconds: timeout) }
            usleep(20_000)
        }
        return try body()
    }
}
