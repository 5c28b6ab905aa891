#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
package import PDFEngine
import PageModel

/// Where a session lives and how it is read, locked and written.
///
/// Location: `--session PATH`, else `PDFEDIT_SESSION`, else `.pdfedit/session.json`
/// in the current directory. Writes are atomic (`StagedOutput`); a lock file beside
/// the session (`<session>.lock`, `flock`) serialises processes for the whole
/// load–edit–save, so no update is lost.
package struct SessionStore: Sendable {
    package let path: String

    /// A session path that is a symbolic link means the file it leads to: the
    /// session is read, locked and saved there (saving by rename would otherwise
    /// replace the link with a file, forking the session).
    package init(explicitPath: String?, environment: EnvironmentVariables = .process) {
        let chosen = explicitPath ?? environment["PDFEDIT_SESSION"] ?? ".pdfedit/session.json"
        path = Paths.followingLinks(chosen)
    }

    package var directory: String { Paths.folder(of: path) }

    /// The files beside the session that only pdfedit may write: the session, its
    /// lock, its list of exports, the file `edit` keeps and the bytes of its
    /// attachments (`attachmentsFolder`). No export may replace them.
    package var ownFiles: [String] {
        [path, lockPath, exportsListPath, path + ".edit"]
            + (Files.names(in: attachmentsFolder) ?? []).filter { !$0.hasPrefix(".") }.map {
                Paths.join(attachmentsFolder, $0)
            }
    }

    var lockPath: String { path + ".lock" }

    /// The session's list of its previous exports (`ExportsList`).
    var exportsListPath: String { path + ".exports" }

    /// The folder source paths are stored relative to: the session file's folder,
    /// or, for a session inside a `.pdfedit` folder, the folder that holds it (so
    /// that `pdfedit open a.pdf` in a project stores `a.pdf`, not an absolute path).
    package var baseDirectory: String {
        Paths.name(of: directory) == ".pdfedit" ? Paths.folder(of: directory) : directory
    }

    /// Where caches (thumbnails, text) live: beside the session file.
    package var cacheFolder: String {
        Paths.join(directory, Paths.name(of: directory) == ".pdfedit" ? "cache" : ".pdfedit-cache")
    }

    /// The cache folder when this command may use it (`CacheFolder.trusted`: not
    /// a link, this user's own, nobody else may write in it); nil otherwise, with
    /// a warning, and the command works without a cache.
    package var cacheDirectory: String? { CacheFolder.trusted(cacheFolder) }

    package var exists: Bool { Files.exists(path) }

    // MARK: Reading and writing

    /// Refuses (73) a session path that holds anything but a regular file (a
    /// folder, a device, a FIFO, which would block a read): such a path is never
    /// read, locked, nor replaced, `--force` or not.
    package func checkPlace() throws(PDFEditError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // absent: a new session may go there
        guard let kind = OutputChecks.nonRegularKind(status.st_mode) else { return }
        throw PDFEditError.sessionPlace(
            path: path, reason: "is \(kind), not a regular file; a session path only ever holds a pdfedit session")
    }

    /// What any session version has: a JSON object with a whole-number "version"
    /// (a Boolean or a fraction is not one).
    private struct VersionField: Decodable { var version: Int }

    static let notASession = "is not a pdfedit session; refusing to replace it (move it away, or give another --session)"

    /// Refuses, before a lock file is made beside it, a file at the session path
    /// that cannot be a session at all: a session is a JSON object, so anything
    /// whose first byte (after white space) is not `{` — a PDF, a text, an empty
    /// file — is refused as `open` or `load` would refuse it (73 / 65), without
    /// leaving `NAME.lock` behind. Only the first bytes are read; the full check
    /// is made under the lock.
    func checkLooksLikeASession(creating: Bool) throws(PDFEditError) {
        guard exists, let head = FileHead.read(path, upTo: 256) else { return }
        if head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") { return }
        if creating {
            throw PDFEditError.sessionPlace(path: path, reason: Self.notASession)
        }
        throw PDFEditError.sessionCorrupt(path: path, reason: "it is not a pdfedit session (not a JSON object)")
    }

    /// What `open` may do with the file at the session path: nothing there, or a
    /// pdfedit session of any version, may be replaced (with `--force`); any other
    /// file — a PDF, a text, a damaged session, which the user may want back — is
    /// refused (73), `--force` or not.
    package func checkReplaceable() throws(PDFEditError) {
        try checkPlace()
        guard exists else { return }
        guard let data = Files.contents(path).map({ Data($0) }) else {
            throw PDFEditError.engine(.cannotWrite(file: path, reason: "cannot read it to check that it is a session"))
        }
        // A session of any version: a JSON object with a whole-number "version".
        guard let version = try? JSONDecoder().decode(VersionField.self, from: data).version else {
            throw PDFEditError.sessionPlace(path: path, reason: Self.notASession)
        }
        guard Session.readableVersions.contains(version) else { return }
        do {
            _ = try Session.decode(data)
        } catch {
            throw PDFEditError.sessionPlace(
                path: path, reason: "is a damaged session (\(error)); move it away to start a new one")
        }
    }

    package func load() throws(PDFEditError) -> Session {
        try checkPlace()
        guard let data = Files.contents(path).map({ Data($0) }) else {
            if exists { throw PDFEditError.engine(.unreadable(file: path, reason: "permission denied")) }
            throw PDFEditError.noSession(path: path)
        }
        do {
            return try Session.decode(data)
        } catch {
            throw PDFEditError.sessionCorrupt(path: path, reason: String(describing: error))
        }
    }

    package func save(_ session: Session) throws(PDFEditError) {
        let data: Data
        do {
            data = try session.encoded()
        } catch {
            throw PDFEditError.sessionCorrupt(path: path, reason: "cannot encode: \(error)")
        }
        try makeDirectory()
        // What was read from an encrypted source (its bookmark titles, link
        // targets) is kept from other users: the session is made 0600, and later
        // saves keep the mode of the file they replace.
        try StagedOutput.replace(
            path, with: data, permissions: PasswordBook.someFileWasDecrypted ? .privateFile : .likeReplaced)
    }

    func makeDirectory() throws(PDFEditError) {
        if Files.makeFolders(directory) != nil {
            throw PDFEditError.engine(.cannotWrite(file: directory, reason: "cannot create the session folder"))
        }
    }

    // MARK: Locking

    /// The longest wait `PDFEDIT_LOCK_TIMEOUT` may ask for: a day.
    package static let maximumLockTimeout = 86_400.0

    /// `PDFEDIT_LOCK_TIMEOUT` in seconds (default 60): a number from 0 to
    /// `maximumLockTimeout`. Anything else (text, nan, infinities, negatives) is
    /// refused (64) naming the variable, rather than waiting forever or never.
    static func lockTimeout(environment: EnvironmentVariables) throws(PDFEditError) -> Double {
        guard let text = environment["PDFEDIT_LOCK_TIMEOUT"] else { return 60 }
        guard let seconds = Double(text.trimmingSpaces()), seconds.isFinite,
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
    /// Only `creating` (`open`) makes the session's folder and a lock where there is
    /// no session yet; any other command fails with 66 before making anything.
    package func withLock<T>(
        creating: Bool = false, environment: EnvironmentVariables = .process,
        _ body: () throws(PDFEditError) -> T
    ) throws(PDFEditError) -> T {
        // Before anything is made: a refused path leaves nothing behind (no lock
        // file beside a device, no folders).
        try checkPlace()
        if !creating && !exists { throw PDFEditError.noSession(path: path) }
        try checkLooksLikeASession(creating: creating)
        let timeout = try Self.lockTimeout(environment: environment)
        try makeDirectory()
        // Not through a symbolic link, and without blocking on a FIFO put there.
        let descriptor: Int32
        switch valueOrErrno({ open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644) }) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): throw StagedOutput.cannotWrite(lockPath, failure)
        }
        defer { close(descriptor) }  // closing releases the flock
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw PDFEditError.sessionPlace(path: lockPath, reason: "the session's lock is not a regular file")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while case .failure(let failure) = nothingOrErrno({ flock(descriptor, LOCK_EX | LOCK_NB) }) {
            guard failure == .wouldBlock || failure == .interrupted else {
                throw StagedOutput.cannotWrite(lockPath, failure)
            }
            if Date() >= deadline { throw PDFEditError.locked(path: path, seconds: timeout) }
            usleep(20_000)
        }
        return try body()
    }
}
