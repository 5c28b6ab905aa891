import Glibc

/// File names are bytes: Linux allows any byte but NUL and "/" in a name, UTF-8
/// or not. pdfedit keeps a name as a `String` in which each byte that is not
/// part of valid UTF-8 is one scalar of a private range (byte B is U+10FF00 + B,
/// so U+10FF80 … U+10FFFF), and turns it back into the same bytes for every
/// system call. Names come in through `string(_:)` (the command line, the
/// environment, folder listings, the current folder, link targets) and go out
/// through `withCString` (every `open`, `stat`… below, and the libraries' file
/// arguments). Every byte string survives the round trip: the four bytes of a
/// valid UTF-8 encoding of a scalar in that range are taken as four escaped
/// bytes too, so no name means two files.
///
/// Shown to a person, an escaped byte is `\xFF` (`shown`); in JSON it is
/// `\udcff`, the lone surrogate Python's `surrogateescape` (PEP 383) makes of
/// that byte, so `os.fsencode(json.loads(line)["file"])` gives the name's
/// bytes (`Console.json` in the command line writes it).
package enum FileNames {
    /// Byte B (0x80…0xFF) that is not UTF-8 is the scalar `escapeBase + B`.
    package static let escapeBase: UInt32 = 0x10_FF00

    /// Whether `scalar` stands for a raw byte.
    @inline(__always)
    package static func isEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= escapeBase + 0x80 }

    /// The byte an escape scalar stands for.
    @inline(__always)
    package static func byte(of scalar: Unicode.Scalar) -> UInt8 { UInt8(truncatingIfNeeded: scalar.value - escapeBase) }

    /// A name's bytes as pdfedit keeps them (see the type).
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        // Valid UTF-8 without the escape range: the usual string (the common case).
        if let plain = String(validating: bytes, as: UTF8.self), !plain.unicodeScalars.contains(where: isEscape) {
            return plain
        }
        let all = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < all.count {
            let lead = all[index]
            if lead < 0x80 {
                scalars.append(Unicode.Scalar(lead))
                index += 1
                continue
            }
            let (length, bits, minimum): (Int, UInt8, UInt32) =
                switch lead {
                case 0xC2...0xDF: (2, 0x1F, 0x80)
                case 0xE0...0xEF: (3, 0x0F, 0x800)
                case 0xF0...0xF4: (4, 0x07, 0x1_0000)
                default: (0, 0, 0)
                }
            var value = UInt32(lead & bits)
            var valid = length > 0 && index + length <= all.count
            if valid {
                for next in all[(index + 1)..<(index + length)] {
                    guard next & 0xC0 == 0x80 else {
                        valid = false
                        break
                    }
                    value = value << 6 | UInt32(next & 0x3F)
                }
            }
            // Overlong forms, surrogates and the escape range itself are bytes, one by one.
            if valid, value >= minimum, let scalar = Unicode.Scalar(value), !isEscape(scalar) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(escape(lead))
                index += 1
            }
        }
        return String(scalars)
    }

    /// A NUL-terminated C string's bytes as a name (`getcwd`, `readdir`, `getenv`…).
    package static func string(cString: UnsafePointer<CChar>) -> String {
        string(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(escapeBase + UInt32(byte))!
    }

    /// Whether `name` holds an escaped byte (most names do not: they are passed
    /// to C as they are).
    package static func hasEscapes(_ name: String) -> Bool {
        // An escape scalar's UTF-8 starts with F4 8F BE or F4 8F BF; any F4 byte is rare.
        name.utf8.contains(0xF4) && name.unicodeScalars.contains(where: isEscape)
    }

    /// The bytes of `name`, escapes turned back into their bytes.
    package static func bytes(_ name: String) -> [UInt8] {
        guard hasEscapes(name) else { return Array(name.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if isEscape(scalar) {
                result.append(byte(of: scalar))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Runs `body` with `name` as the NUL-terminated bytes a system call takes.
    package static func withCString<Result, Failure: Error>(
        _ name: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var bytes = hasEscapes(name) ? bytes(name) : Array(name.utf8)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(Failure) -> Result in try body(chars.baseAddress!) }
        }
    }

    /// A `strdup` of `name`'s bytes (for tables a signal handler reads); nil when out of memory.
    package static func duplicate(_ name: String) -> UnsafeMutablePointer<CChar>? {
        withCString(name) { strdup($0) }
    }

    /// `name` for a person: each escaped byte as `\xFF`, the rest as it is.
    package static func shown(_ name: String) -> String {
        guard hasEscapes(name) else { return name }
        var result = ""
        for scalar in name.unicodeScalars {
            if isEscape(scalar) {
                let hex = String(byte(of: scalar), radix: 16, uppercase: true)
                result += "\\x" + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The current folder (`getcwd`), its bytes kept; "." when it cannot be had.
    package static var currentDirectory: String {
        var size = Int(PATH_MAX) + 1
        while size <= 1 << 20 {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            if getcwd(buffer, size) != nil { return string(cString: buffer) }
            guard errno == ERANGE else { break }
            size *= 4
        }
        return "."
    }
}

