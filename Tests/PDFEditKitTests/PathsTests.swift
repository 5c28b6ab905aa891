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

    /// For files that exist (`standardised` resolves the links of existing paths
    /// only: a missing file in a linked folder keeps the link, where `Standardiser`
    /// resolves the folder).
    @Test func standardiserAgreesWithStandardised() throws {
        let folder = try TemporaryFolder()
        let real = Paths.join(folder.path, "real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        let link = Paths.join(folder.path, "link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(FileManager.default.createFile(atPath: Paths.join(real, "a.pdf"), contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: Paths.join(real, "alias.pdf"), withDestinationPath: "a.pdf")
        var standardiser = Paths.Standardiser()
        for name in ["a.pdf", "alias.pdf", ".", ".."] {
            for path in [Paths.join(link, name), Paths.join(real, name), Paths.join(link + "/", name)] {
                #expect(standardiser.standardised(path) == Paths.standardised(path), "\(path)")
            }
        }
        #expect(Paths.standardised(Paths.join(link, "alias.pdf")) == Paths.join(Paths.standardised(real), "a.pdf"))
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
