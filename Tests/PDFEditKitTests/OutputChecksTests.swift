import Foundation
import Testing

@testable import PDFEditKit

/// `OutputChecks` and `StagedOutput`: what an output may replace, and how it gets
/// there (atomically, nothing left behind, permissions kept).
@Suite struct OutputChecksTests {
    /// The error `body` throws (nil when it throws none).
    static func failure(_ body: () throws(PDFEditError) -> Void) -> PDFEditError? {
        do throws(PDFEditError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func check(_ path: String, _ checks: OutputChecks) -> PDFEditError? {
        var checks = checks
        return failure { () throws(PDFEditError) in try checks.check(path) }
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        stat(path, &status)
        return status.st_mode & 0o7777
    }

    /// Entries of the folder other than `kept`: temporaries left behind.
    static func leftovers(in folder: TemporaryFolder, besides kept: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !kept.contains($0) }
    }

    @Test func refusesASource() throws {
        let folder = try TemporaryFolder()
        let source = folder.file("in.pdf")
        try Self.write("%PDF", to: source)
        let checks = OutputChecks(sources: [source], protected: [], force: true)
        let error = Self.check(folder.path + "/./in.pdf", checks)
        guard case .outputIsSource(let path, let direct) = error else {
            Issue.record("not refused as a source: \(String(describing: error))")
            return
        }
        #expect(path == folder.path + "/./in.pdf" && !direct)
        #expect(error?.exitCode == 73)
        // Unless it is the one source `--in-place` may replace.
        #expect(Self.check(source, OutputChecks(sources: [source], protected: [], force: true, allowedSource: source)) == nil)
    }

    @Test func refusesTheSessionsOwnFiles() throws {
        let folder = try TemporaryFolder()
        let session = folder.file("session.json")
        let error = Self.check(session, OutputChecks(sources: [], protected: [session], force: true))
        #expect(error?.description.contains("is a file of the session; refusing to write over it") == true)
        #expect(error?.exitCode == 73)
    }

    @Test func refusesAFolderAndAFIFOEvenWithForce() throws {
        let folder = try TemporaryFolder()
        let directory = folder.file("dir.pdf")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fifo = folder.file("fifo.pdf")
        #expect(mkfifo(fifo, 0o600) == 0)
        let checks = OutputChecks(sources: [], protected: [], force: true)
        for (path, kind) in [(directory, "a folder"), (fifo, "a FIFO")] {
            let error = Self.check(path, checks)
            #expect(error?.description.contains("is \(kind), not a regular file; refusing to replace it") == true)
            #expect(error?.exitCode == 73)
        }
        #expect(OutputChecks.nonRegularKind(S_IFSOCK) == "a socket")
        #expect(OutputChecks.nonRegularKind(S_IFCHR) == "a device")
        #expect(OutputChecks.nonRegularKind(S_IFREG) == nil)
    }

    @Test func replacesAFileOnlyWithForceOrWhenItIsAPreviousExport() throws {
        let folder = try TemporaryFolder()
        let existing = folder.file("out.pdf")
        try Self.write("old", to: existing)
        guard case .outputExists(let path) = Self.check(existing, OutputChecks(sources: [], protected: [], force: false))
        else {
            Issue.record("an existing file was not refused without --force")
            return
        }
        #expect(path == existing)
        #expect(Self.check(existing, OutputChecks(sources: [], protected: [], force: true)) == nil)
        let written = try #require(WrittenFile(at: existing))
        let previous = OutputChecks(sources: [], protected: [], force: false, replaceable: [written])
        #expect(Self.check(existing, previous) == nil)
        // Changed since it was written (size, time or inode): the user's now.
        usleep(10_000)
        try Self.write("mine", to: existing)
        guard case .outputExists = Self.check(existing, previous) else {
            Issue.record("a previous export changed since was replaced without --force")
            return
        }
        // Nothing there, or a dangling link: no --force needed.
        #expect(Self.check(folder.file("new.pdf"), OutputChecks(sources: [], protected: [], force: false)) == nil)
    }

    @Test func refusesAFolderItCannotWriteIn() throws {
        let folder = try TemporaryFolder()
        let closed = folder.file("closed")
        try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: true)
        chmod(closed, 0o500)
        defer { chmod(closed, 0o700) }
        let error = Self.check(Paths.join(closed, "out.pdf"), OutputChecks(sources: [], protected: [], force: false))
        if getuid() == 0 {
            #expect(error == nil)  // root may write anywhere
        } else {
            #expect(error?.description.contains("cannot write in") == true)
            #expect(error?.exitCode == 73)
        }
    }

    @Test func commitsAtomically() throws {
        let folder = try TemporaryFolder()
        let target = folder.file("out.pdf")
        try Self.write("old", to: target)
        let staged = StagedOutput(target)
        #expect(FileIdentity(of: Paths.directory(of: staged.temporary)) == FileIdentity(of: folder.path))
        #expect(TemporaryFiles.shared.all.contains(staged.temporary))
        try staged.write(Data("new".utf8), sync: true)
        #expect(Self.read(target) == "old")
        try staged.commit()
        #expect(Self.read(target) == "new")
        #expect(!TemporaryFiles.shared.all.contains(staged.temporary))
        #expect(try Self.leftovers(in: folder, besides: ["out.pdf"]).isEmpty)
    }

    @Test func commitsManyAndSyncsEachFolderOnce() throws {
        let folder = try TemporaryFolder()
        let targets = (1...5).map { folder.file("part-\($0).pdf") }
        let staged = StagedOutput.staging(targets)
        for (index, output) in staged.enumerated() { try output.write(Data("\(index)".utf8), sync: false) }
        try StagedOutput.commitAll(staged)
        #expect(targets.map(Self.read) == (0..<5).map { "\($0)" })
        #expect(try Self.leftovers(in: folder, besides: Set(targets.map(Paths.name(of:)))).isEmpty)
    }

    @Test func leavesNoTemporaryWhenWritingFails() throws {
        let folder = try TemporaryFolder()
        // The rename fails: a folder that is not empty stands at the target.
        let target = folder.file("busy")
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        let staged = StagedOutput(target)
        try staged.write(Data("new".utf8), sync: false)
        let error = Self.failure { () throws(PDFEditError) in try staged.commit() }
        #expect(error?.exitCode == 73)
        #expect(error?.description.contains(target) == true)
        #expect(try Self.leftovers(in: folder, besides: ["busy"]).isEmpty)
        #expect(!TemporaryFiles.shared.all.contains(staged.temporary))

        // The temporary cannot be made: a missing folder.
        let missing = StagedOutput(folder.file("missing/out.pdf"))
        let writeError = Self.failure { () throws(PDFEditError) in try missing.write(Data("x".utf8), sync: false) }
        #expect(writeError?.description.contains("No such file or directory") == true)
        #expect(!TemporaryFiles.shared.all.contains(missing.temporary))

        // A failed part of many: every temporary goes.
        let parts = StagedOutput.staging([folder.file("a.pdf"), target, folder.file("c.pdf")])
        for part in parts { try part.write(Data("x".utf8), sync: false) }
        #expect(Self.failure { () throws(PDFEditError) in try StagedOutput.commitAll(parts) } != nil)
        #expect(try Self.leftovers(in: folder, besides: ["busy", "a.pdf"]).isEmpty)
        #expect(parts.allSatisfy { !TemporaryFiles.shared.all.contains($0.temporary) })
    }

    @Test func permissionsAreThoseOfTheReplacedFileOrPrivate() throws {
        let folder = try TemporaryFolder()
        let replaced = folder.file("kept.pdf")
        try Self.write("old", to: replaced)
        chmod(replaced, 0o640)
        try StagedOutput.replace(replaced, with: Data("new".utf8))
        #expect(Self.mode(replaced) == 0o640)

        let fresh = folder.file("fresh.pdf")
        try StagedOutput.replace(fresh, with: Data("new".utf8))
        #expect(Self.mode(fresh) == 0o666 & ~Permissions.processUmask)

        let cached = folder.file("cached.pdf")
        try Self.write("old", to: cached)
        chmod(cached, 0o644)
        try StagedOutput.replace(cached, with: Data("new".utf8), permissions: .privateFile)
        #expect(Self.mode(cached) == 0o600)
    }

    @Test func removesOnlyTheTemporariesOfDeadProcesses() throws {
        let folder = try TemporaryFolder()
        let target = folder.file("out.pdf")
        // Process ids above /proc/sys/kernel/pid_max (at most 2^22) never exist.
        let stale = folder.file(".out.pdf\(StagedOutput.marker)99999999-1")
        let live = folder.file(".out.pdf\(StagedOutput.marker)\(getpid())-2")
        let other = folder.file(".other.pdf\(StagedOutput.marker)99999999-3")
        let accented = folder.file(".résumé.pdf\(StagedOutput.marker)99999999-4")
        for path in [stale, live, other, accented] { try Self.write("x", to: path) }
        StagedOutput.removeStaleTemporaries(for: [target, folder.file("résumé.pdf")])
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(!FileManager.default.fileExists(atPath: accented))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(StagedOutput.parseTemporaryName(".a.pdf.pdfedit-tmp-12-34")! == ("a.pdf", 12))
        #expect(StagedOutput.parseTemporaryName("a.pdf.pdfedit-tmp-12-34") == nil)
    }

    /// `Paths.names(in:where:)` gives the names whose bytes pass, as strings, and
    /// never "." or ".."; nil for a folder that cannot be listed.
    @Test func namesAreListedByTheirBytes() throws {
        let folder = try TemporaryFolder()
        for name in ["a.pdf", ".b.pdf.pdfedit-tmp-1-2", "pdfedit-3-4", "pdfedit-été", "pdfedit"] {
            try Self.write("x", to: folder.file(name))
        }
        let prefix = Array("pdfedit-".utf8)
        let found = try #require(Paths.names(in: folder.path) { $0.starts(with: prefix) })
        #expect(found.sorted() == ["pdfedit-3-4", "pdfedit-été"])
        #expect(try #require(Paths.names(in: folder.path) { _ in true }).sorted()
            == [".b.pdf.pdfedit-tmp-1-2", "a.pdf", "pdfedit", "pdfedit-3-4", "pdfedit-été"])
        #expect(Paths.names(in: folder.file("missing")) { _ in true } == nil)
    }
}

/// Out of memory is its own exit code (71, EX_OSERR), whatever it interrupted.
@Suite struct OutOfMemoryCodeTests {
    @Test func outOfMemoryExits71() {
        #expect(PDFEditError.engine(.outOfMemory(file: "x.pdf")).exitCode == 71)
    }
}
