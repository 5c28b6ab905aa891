internal import PDFEngine
import PageModel

/// What a PDF file on disk is (``PageEditor/info(of:passwords:includeText:)``,
/// `pdfedit info FILE`): its pages with their sizes, rotations, labels and first
/// words, its version, encryption, document information, features and digital
/// signatures, and the damage read around. Its JSON shape (`info --json`) is
/// documented in docs/manual.md and stable: fields are only ever added.
public struct FileInfo: Codable, Equatable, Sendable {
    /// One page of the file.
    public struct Page: Codable, Equatable, Sendable {
        /// 1-based page number.
        public var number: Int
        /// Size of the visible area (crop box) in points, before /Rotate is applied.
        public var width: Double
        /// Height of the visible area in points, before /Rotate is applied.
        public var height: Double
        /// "A4", "Letter", "A4 landscape"… when the size is a common paper size.
        public var sizeName: String?
        /// The effective /Rotate (inherited values resolved): 0, 90, 180 or 270.
        public var rotation: Int
        /// The page label from /PageLabels, nil when the file has none.
        public var label: String?
        /// The first words of the page's text; nil when text was not asked for.
        public var text: String?
    }

    /// The path as given.
    public var file: String
    /// Pages in the file.
    public var pageCount: Int
    /// The header's version, `1.7`.
    public var pdfVersion: String
    /// Whether the file is encrypted.
    public var encrypted: Bool
    /// The document information's /Producer.
    public var producer: String?
    /// The document information's /Creator.
    public var creator: String?
    /// The document information's /Title.
    public var title: String?
    /// Whether the file has an interactive form (/AcroForm with fields).
    public var hasForm: Bool
    /// Whether the file has bookmarks (/Outlines).
    public var hasOutlines: Bool
    /// Whether the file has /PageLabels.
    public var hasPageLabels: Bool
    /// Whether the file is tagged (/MarkInfo /Marked true).
    public var tagged: Bool
    /// Its digital signatures (signed signature fields); empty when it has none.
    public var signatures: [DigitalSignature] = []
    /// Damage qpdf recovered from while reading.
    public var warnings: [String]
    /// Every page, in order.
    public var pages: [Page]
}

// docs/manual.md documents every key of `info --json`, the optional ones as null: the
// encoders write nil as an explicit null (the synthesized ones leave the key out).
extension FileInfo.Page {
    /// Writes every key, an absent value as `null` (the JSON shape docs/manual.md documents).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(sizeName, forKey: .sizeName)
        try container.encode(rotation, forKey: .rotation)
        try container.encode(label, forKey: .label)
        try container.encode(text, forKey: .text)
    }
}

extension FileInfo {
    /// Writes every key, an absent value as `null` (the JSON shape docs/manual.md documents).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(pageCount, forKey: .pageCount)
        try container.encode(pdfVersion, forKey: .pdfVersion)
        try container.encode(encrypted, forKey: .encrypted)
        try container.encode(producer, forKey: .producer)
        try container.encode(creator, forKey: .creator)
        try container.encode(title, forKey: .title)
        try container.encode(hasForm, forKey: .hasForm)
        try container.encode(hasOutlines, forKey: .hasOutlines)
        try container.encode(hasPageLabels, forKey: .hasPageLabels)
        try container.encode(tagged, forKey: .tagged)
        try container.encode(signatures, forKey: .signatures)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(pages, forKey: .pages)
    }
}

/// The first `count` words of `text`, on one line.
func firstWords(_ text: String, count: Int = 8) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).prefix(count).joined(separator: " ")
}

extension FileInfo {
    /// Describes a PDF on disk: the bridge's reader for structure, attributes and
    /// page labels, poppler for text. Text is optional because it costs a few ms per page.
    package static func describe(
        path: String, passwords: PasswordBook, includeText: Bool = true
    ) throws(PDFEditError) -> FileInfo {
        do throws(EngineError) {
            let kind = try SourceLoader.sniff(path)
            guard kind == .pdf else { throw EngineError.notAPDF(file: path) }
            let document = try passwords.open(path) { password throws(EngineError) in
                try OpenedPDF(path: path, password: password, for: .reading)
            }
            let facts = try document.pdf.facts()
            // The file's own labels (no document around it: nothing continues them).
            let labels = facts.hasPageLabels ? try? document.pdf.pageLabels() : nil
            let poppler = includeText
                ? try? PopplerPDF(path: path, password: document.password, limits: ProcessLimits.reader) : nil
            var pages: [Page] = []
            var unreadable: [String] = []
            pages.reserveCapacity(facts.pageCount)
            for index in 0..<facts.pageCount {
                var pageText: String?
                if includeText, let poppler {
                    pageText = try text(of: poppler, page: index, unreadable: &unreadable).map { firstWords($0) }
                }
                let attributes = try document.pdf.attributes(ofPage: index)
                let box = attributes.cropBox
                let width = box.width * attributes.userUnit
                let height = box.height * attributes.userUnit
                pages.append(
                    Page(
                        number: index + 1,
                        width: rounded(width), height: rounded(height),
                        sizeName: PageSize.commonName(width: width, height: height),
                        rotation: attributes.rotation,
                        label: labels.map { $0.value(ofPage: index + 1).text },
                        text: pageText))
            }
            let signatures = try DigitalSignature.read(document.pdf, password: document.password, poppler: poppler)
            return FileInfo(
                file: path, pageCount: facts.pageCount, pdfVersion: facts.pdfVersion,
                encrypted: facts.encrypted, producer: facts.producer, creator: facts.creator, title: facts.title,
                hasForm: facts.hasForm, hasOutlines: facts.hasOutlines, hasPageLabels: facts.hasPageLabels,
                tagged: facts.isTagged, signatures: signatures, warnings: document.pdf.warnings + unreadable,
                pages: pages)
        } catch {
            throw PDFEditError.engine(error)
        }
    }
}

/// A page's text, nil when poppler cannot give it (said in `unreadable`, which
/// becomes a warning, naming the page); a page over a limit (a decompression
/// bomb) is refused, not silently left without text.
private func text(of poppler: PopplerPDF, page index: Int, unreadable: inout [String]) throws(EngineError) -> String? {
    do {
        return try poppler.text(ofPage: index)
    } catch {
        if case .overLimit = error { throw error }
        if case .damaged(_, _, let detail) = error {
            unreadable.append("page \(index + 1): \(detail)")
        } else {
            unreadable.append("page \(index + 1): \(error.description)")
        }
        return nil
    }
}

/// Sizes in points to two decimals: enough for any paper size, stable in JSON.
func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

extension FileInfo {
    /// The keys of a PDF's document information dictionary (`Author`, `Title`…),
    /// sorted: what `strip metadata` in direct mode says it removed.
    package static func informationKeys(path: String, passwords: PasswordBook) throws(PDFEditError) -> [String] {
        do throws(EngineError) {
            let document = try passwords.open(path) { password throws(EngineError) in
                try OpenedPDF(path: path, password: password, for: .reading)
            }
            return try document.pdf.facts().information.keys.sorted()
        } catch {
            throw PDFEditError.engine(error)
        }
    }
}
