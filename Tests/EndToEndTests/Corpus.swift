import Foundation

/// One row of `../shared/corpus/MANIFEST.tsv`.
struct CorpusEntry: CustomTestStringConvertible, Sendable {
    var file: String
    /// nil when neither qpdf nor poppler can open the file ("-").
    var pages: Int?
    var qpdfCheck: String
    /// The user password when one is needed to open the file.
    var userPassword: String?
    var features: Set<String>

    var path: String { Paths.corpus(file) }
    var testDescription: String { file }

    static func load() -> [CorpusEntry] {
        guard Paths.corpusAvailable,
            let text = try? String(contentsOf: Paths.corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 9 else { return nil }
            let encrypted = columns[7]
            return CorpusEntry(
                file: columns[0],
                pages: Int(columns[5]),
                qpdfCheck: columns[6],
                userPassword: encrypted.hasPrefix("user:") ? String(encrypted.dropFirst(5)) : nil,
                features: Set(columns[8].split(separator: ",").map { String($0.split(separator: "(")[0]) }))
        }
    }
}

import Testing
