import Foundation
import PropertyBased
import Testing

@testable import PDFEngine

/// File names are bytes (issue 40 item 37): every byte string a name can be
/// survives `FileNames.string` and `FileNames.bytes`, names in UTF-8 are the
/// usual strings, and the system calls reach the file with the given bytes.
@Suite struct FileNamesTests {
    @Test func everyByteStringSurvivesTheRoundTrip() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 1...255).array(of: 0...24)) { values in
            let bytes = values.map { UInt8($0) }
            #expect(FileNames.bytes(FileNames.string(bytes)) == bytes, "\(bytes)")
        }
        // The bytes that look like an escape scalar in valid UTF-8 are kept as bytes too.
        let lookalike: [UInt8] = [0x61, 0xF4, 0x8F, 0xBF, 0xBF, 0x62]
        #expect(FileNames.bytes(FileNames.string(lookalike)) == lookalike)
        #expect(FileNames.string(lookalike).unicodeScalars.count == 6)
    }

    @Test func utf8NamesAreTheUsualStrings() {
        for name in ["a.pdf", "é.pdf", "日本.pdf", "🙂", ""] {
            #expect(FileNames.string(Array(name.utf8)) == name)
            #expect(FileNames.bytes(name) == Array(name.utf8))
            #expect(FileNames.shown(name) == name)
        }
        let bad = FileNames.string([0x62, 0xFF, 0x2E])
        #expect(FileNames.shown(bad) == "b\\xFF.")
        #expect(FileNames.hasEscapes(bad))
    }

    @Test func systemCallsUseTheBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdfedit-names-\(UUID().uuidString)").path
        #expect(Files.makeFolders(folder) == nil)
        defer { Files.removeTree(folder) }
        let name = FileNames.string([0x6F, 0xFF, 0x2E, 0x70, 0x64, 0x66])
        let path = folder + "/" + name
        #expect(Files.write(Array("x".utf8), to: path) == nil)
        // The kernel has the name's own bytes, not U+FFFD's.
        let listed = try #require(Files.names(in: folder))
        #expect(listed == [name])
        #expect(FileNames.bytes(listed[0]) == [0x6F, 0xFF, 0x2E, 0x70, 0x64, 0x66])
        #expect(Files.contents(path) == Array("x".utf8))
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_size == 1)
    }
}
