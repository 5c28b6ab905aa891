import Foundation
import QPDFBridge

/// A PDF opened and checked by the bridge (`pe_document_open`): parsed with
/// recovery and its page list built. Loading keeps it when an export follows in
/// the same process (direct mode), so that the file is read and checked once.
///
/// An export may change the document in memory as it copies from it, so it is
/// handed to one export call at a time and never used by two threads at once;
/// `@unchecked Sendable` only so that it can travel with a loaded file from the
/// loading thread to the exporting one.
public final class OpenedPDF: @unchecked Sendable, Equatable {
    let handle: OpaquePointer
    public let path: String
    public let pageCount: Int
    /// Damage qpdf recovered from, as qpdf words it without the file name
    /// ("(offset N): ..."), as `PDFReader.warnings`.
    public let warnings: [String]

    /// Opens `path` with `password` (nil or empty: none).
    public init(path: String, password: String?) throws(EngineError) {
        let collector = OpenWarnings()
        var status = pe_status()
        var document: OpaquePointer?
        var pages: Int32 = 0
        let code = withExtendedLifetime(collector) {
            pe_document_open(
                path, password ?? "", &document, &pages,
                { context, _, message in
                    guard let context, let message else { return }
                    Unmanaged<OpenWarnings>.fromOpaque(context).takeUnretainedValue().lines.append(String(cString: message))
                }, Unmanaged.passUnretained(collector).toOpaque(), &status)
        }
        guard code == Int32(PE_OK), let document else {
            throw EngineError(status: status, about: BridgeFailure(file: path))
        }
        handle = document
        self.path = path
        pageCount = Int(pages)
        // qpdf's full text starts with the file name, which every message of ours names anyway.
        warnings = collector.lines.map { $0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0 }
    }

    deinit { pe_document_close(handle) }

    public static func == (lhs: OpenedPDF, rhs: OpenedPDF) -> Bool { lhs === rhs }
}

/// Collects the warning lines of an opening (the `pe_warning_fn` context).
final class OpenWarnings {
    var lines: [String] = []
}

/// What a page may make a reader (poppler) decode: bytes per inflated stream and
/// pixels per image (`Limits.inflatedStreamBytes` and `Limits.pixels`).
public struct ReaderLimits: Sendable, Equatable {
    public var inflatedStreamBytes: Int
    public var pixels: Int

    public init(inflatedStreamBytes: Int, pixels: Int) {
        self.inflatedStreamBytes = inflatedStreamBytes
        self.pixels = pixels
    }
}

extension OpenedPDF {
    /// Refuses (`.overLimit`, 65, naming the file and page) a page whose content
    /// streams or form XObjects inflate past `limits.inflatedStreamBytes` or whose
    /// images have more than `limits.pixels` pixels, before poppler decodes it
    /// (poppler has no such bounds). Decoding stops at the limit.
    /// Returns the pixel count of the page's largest image (0 for none).
    @discardableResult
    public func checkForReader(page index: Int, limits: ReaderLimits) throws(EngineError) -> Int {
        var status = pe_status()
        var largestImage: Int64 = 0
        let code = pe_document_check_page(
            handle, Int32(index), Int64(limits.inflatedStreamBytes), Int64(limits.pixels), &largestImage, &status)
        guard code != Int32(PE_OK) else { return Int(largestImage) }
        if code == Int32(PE_E_LIMIT) {
            throw EngineError.overLimit(file: path, page: index + 1, what: EngineError.detail(of: status))
        }
        status.page = 0 // other failures name no page, as at opening
        throw EngineError(status: status, about: BridgeFailure(file: path))
    }
}
