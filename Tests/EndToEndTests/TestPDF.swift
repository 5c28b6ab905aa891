import Foundation

/// The bytes of small classic PDFs the tests build, in Swift or in Python: a
/// header, the objects numbered from 1, a cross-reference table and a trailer
/// whose root is object 1. The one writer of them is scripts/pdfbytes.py's in
/// Python, this in Swift; a test states only its objects.
enum TestPDF {
    static let header = "%PDF-1.7\n%\u{e2}\u{e3}\u{cf}\u{d3}\n"

    /// Object n is `objects[n - 1]`.
    static func bytes(_ objects: [String], header: String = header, trailer: String = "") -> Data {
        bytes(numbered: Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($0 + 1, $1) }), header: header,
              trailer: trailer)
    }

    /// Object n is `numbered[n]`, `null` where a number has none. Bodies are
    /// written as Latin-1, so a string of compressed bytes survives.
    static func bytes(numbered objects: [Int: String], header: String = header, trailer: String = "") -> Data {
        let count = (objects.keys.max() ?? 0) + 1
        var out = header.data(using: .isoLatin1)!
        var offsets = [Int](repeating: 0, count: count)
        for number in 1..<count {
            offsets[number] = out.count
            out += "\(number) 0 obj\n\(objects[number] ?? "null")\nendobj\n".data(using: .isoLatin1)!
        }
        let xref = out.count
        var tail = "xref\n0 \(count)\n0000000000 65535 f \n"
        for number in 1..<count { tail += String(format: "%010d 00000 n \n", offsets[number]) }
        tail += "trailer\n<< /Size \(count) /Root 1 0 R\(trailer.isEmpty ? "" : " " + trailer) >>\nstartxref\n\(xref)\n%%EOF\n"
        return out + Data(tail.utf8)
    }

    /// A stream object: `dictionary`'s entries (without << >>) and `data`, /Length added.
    static func stream(_ dictionary: String, _ data: String) -> String {
        "<< \(dictionary)\(dictionary.isEmpty ? "" : " ")/Length \(data.data(using: .isoLatin1)!.count) >>\nstream\n\(data)\nendstream"
    }
}

/// Runs a Python 3 `script` with `arguments`; the script can `import pdfbytes`
/// (scripts/pdfbytes.py, the Python writer of test PDFs).
@discardableResult
func python(_ script: String, _ arguments: [String]) throws -> Run {
    try run("python3", ["-c", script] + arguments,
            environment: ["PYTHONPATH": Paths.root.appendingPathComponent("scripts").path])
}
