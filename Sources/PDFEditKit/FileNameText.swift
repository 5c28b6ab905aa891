#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// File names whose bytes are not UTF-8, as a program using the kit takes them
/// in and shows them: the kit keeps each such byte as one private scalar of a
/// `String` (U+10FF80 … U+10FFFF for bytes 0x80 … 0xFF) and gives the kernel the
/// bytes back, so `$'o\xff.pdf'` is read and written as itself.
package enum FileNameText {
    /// This process's arguments (without the program's name), each byte that is
    /// not UTF-8 kept (Swift's `CommandLine.arguments` replaces it with U+FFFD,
    /// which names another file).
    package static var arguments: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { FileNames.string(cString: $0) }
        }
    }

    /// The current folder, its bytes kept.
    package static var currentDirectory: String { FileNames.currentDirectory }

    /// `text` for a person: each kept byte written `\xFF`.
    package static func shown(_ text: String) -> String { FileNames.shown(text) }

    /// JSON text (UTF-8) with each kept byte written as the escape `\udcXX`: the
    /// lone surrogate Python's `surrogateescape` error handler (PEP 383) gives
    /// byte 0xXX, so `os.fsencode(json.loads(text)["file"])` is the name's bytes.
    /// JSON allows the escape; a string holding one is not valid Unicode, which
    /// is what a name that is not UTF-8 is.
    package static func json(_ encoded: Data) -> Data {
        // An escape scalar's UTF-8 is F4 8F BE/BF xx: rare enough to look for F4 first.
        guard encoded.contains(0xF4) else { return encoded }
        var result = Data()
        result.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == 0xF4, encoded.distance(from: index, to: encoded.endIndex) >= 4,
                encoded[index + 1] == 0x8F, encoded[index + 2] & 0xFE == 0xBE
            {
                let scalar = UInt32(0x10_0000) | UInt32(0x0F) << 12 | UInt32(encoded[index + 2] & 0x3F) << 6
                    | UInt32(encoded[index + 3] & 0x3F)
                let raw = UInt8(truncatingIfNeeded: scalar - FileNames.escapeBase)
                result.append(contentsOf: Array("\\udc\(String(raw, radix: 16))".utf8))
                index += 4
            } else {
                result.append(byte)
                index += 1
            }
        }
        return result
    }
}
