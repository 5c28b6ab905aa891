import Foundation
import PropertyBased
import Testing

@testable import PDFEditKit

/// `Paths` against Foundation's path rules: folder, name and stem of a path are
/// what `NSString` gives, for every path where `NSString` answers. It traps
/// (SIGILL, which would end the test run) on a folder-less name ("X", "X/") and on
/// some paths with "//", and it folds "//" into "/" where `Paths` keeps the text;
/// those paths are not compared, and `Paths`' own answers for them are pinned below.
@Suite struct PathsTests {
    static let alphabet: [Character] = ["a", "b", "/", ".", "é", " ", "/", "."]

    static func path(_ letters: [Int]) -> String {
        String(letters.map { alphabet[$0 % alphabet.count] })
    }

    /// `NSString` answers every question about it the same way `Paths` reads it.
    static func comparable(_ path: String) -> Bool {
        !path.contains("//")
    }

    /// `deletingLastPathComponent` does not trap on it.
    static func hasFolderForNSString(_ path: String) -> Bool {
        !path.allSatisfy { $0 == "/" } && (path.hasPrefix("/") || path.split(separator: "/").count > 1)
    }

    @Test func folderNameAndStemAgreeWithNSString() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...7).array(of: 0...14)) { letters in
            let path = Self.path(letters)
            guard Self.comparable(path) else { return }
            let text = path as NSString
            #expect(Paths.name(of: path) == text.lastPathComponent, "name of \"\(path)\"")
            #expect(
                Paths.stem(of: path) == (text.lastPathComponent as NSString).deletingPathExtension,
                "stem of \"\(path)\"")
            if Self.hasFolderForNSString(path) {
                #expect(Paths.folder(of: path) == text.deletingLastPathComponent, "folder of \"\(path)\"")
            }
        }
    }

    @Test func plainSplitAgreesWithFolderAndName() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...7).array(of: 0...14)) { letters in
            let path = Self.path(letters)
            // The quick forms agree with the slow ones for every path, plain or not.
            #expect(Paths.quickFolder(of: path) == Paths.folder(of: path))
            #expect(Paths.quickDirectory(of: path) == Paths.directory(of: path))
            let quick = Paths.quickDirectoryAndName(of: path)
            #expect(quick.directory == Paths.directory(of: path) && quick.name == Paths.name(of: path))
            guard let (folder, name) = Paths.plainSplit(path) else {
                #expect(path.isEmpty || path.hasSuffix("/") || path.contains("//") || [".", ".."].contains(Paths.name(of: path)))
                return
            }
            #expect(folder == Paths.folder(of: path), "folder of \"\(path)\"")
            #expect(name == Paths.name(of: path), "name of \"\(path)\"")
        }
    }

    /// Where `NSString` traps or folds, `Paths` answers from the text.
    @Test(arguments: [
        ("X", "", "X", "X"),
        ("X/", "", "X", "X"),
        (".", "", ".", "."),
        ("..", "", "..", ".."),
        ("/", "/", "/", "/"),
        ("", "", "", ""),
        ("//", "/", "/", "/"),
        ("a//b.pdf", "a", "b.pdf", "b"),
        ("//é.pdf", "/", "é.pdf", "é"),
        ("dir/.profile", "dir", ".profile", ".profile"),
        ("a.", "", "a.", "a"),
    ])
    func pathsWhereNSStringCannotBeAsked(path: String, folder: String, name: String, stem: String) {
        #expect(Paths.folder(of: path) == folder)
        #expect(Paths.name(of: path) == name)
        #expect(Paths.stem(of: path) == stem)
    }

    @Test func directoryAndJoin() {
        #expect(Paths.directory(of: "a.pdf") == ".")
        #expect(Paths.directory(of: "/a.pdf") == "/")
        #expect(Paths.join("", "a") == "a")
        #expect(Paths.join("/", "a") == "/a")
        #expect(Paths.join("d", "a") == "d/a")
        #expect(Paths.join("d/", "a") == "d/a")
    }

    /// `L/../x.pdf` is the `x.pdf` the kernel reaches through the link `L` (in
    /// the folder L leads to the parent of), never the `x.pdf` beside `L` that
    /// folding `..` as text gives; a path that does not exist yet is its existing
    /// folder plus the names below it. Issue 40 item 1: text comparison let
    /// `export L/../x.pdf --force` replace the source `d/x.pdf`.
    @Test func identityFollowsTheKernelNotTheText() throws {
        let folder = try TemporaryFolder()
        let d = Paths.join(folder.path, "d")
        try FileManager.default.createDirectory(atPath: Paths.join(d, "sub"), withIntermediateDirectories: true)
        let source = Paths.join(d, "x.pdf")
        #expect(FileManager.default.createFile(atPath: source, contents: Data("%PDF".utf8)))
        #expect(FileManager.default.createFile(atPath: Paths.join(folder.path, "x.pdf"), contents: Data("other".utf8)))
        let link = Paths.join(folder.path, "L")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "d/sub")
        let throughLink = Paths.join(link, "../x.pdf")
        #expect(FileIdentity(of: throughLink) == FileIdentity(of: source))
        #expect(FileIdentity(of: throughLink) != FileIdentity(of: Paths.join(folder.path, "x.pdf")))
        #expect(Paths.resolved(throughLink) == Paths.join(Paths.resolved(d), "x.pdf"))
        // Not there yet: the folder that exists plus the names, "." dropped, "x/.." folded.
        let new = FileIdentity(of: Paths.join(link, "../new/./o.pdf"))
        #expect(!new.exists && new.below == ["new", "o.pdf"])
        #expect(new == FileIdentity(of: Paths.join(d, "new/o.pdf")))
        #expect(new == FileIdentity(of: Paths.join(d, "new/deeper/../o.pdf")))
        #expect(FileIdentity(of: Paths.join(d, "new/../x.pdf")) == FileIdentity(of: source))
        // A dangling link is the link itself.
        let dangling = Paths.join(folder.path, "dangling.pdf")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere.pdf")
        #expect(FileIdentity(of: dangling).exists)
        #expect(FileIdentity(of: dangling) != FileIdentity(of: Paths.join(folder.path, "nowhere.pdf")))
        // Hard links of one file are one file.
        let hard = Paths.join(folder.path, "hard.pdf")
        #expect(Glibc.link(source, hard) == 0)
        #expect(FileIdentity(of: hard) == FileIdentity(of: source))
    }
}

/// A folder of its own under the temporary folder, removed at the end.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = Paths.join(NSTemporaryDirectory(), "pdfedit-kit-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { Paths.join(path, name) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
