#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// What one lossless step of `--compress` saved: how many objects and bytes.
public struct SavedBytes: Encodable, Sendable, Equatable {
    /// Objects the step changed: copies left out, or streams recompressed.
    public var count: Int
    /// Bytes it saved.
    public var bytes: Int
}

/// What sharing identical streams and recompressing saved on one output
/// (`ExportSettings.compress`).
package struct CompressionSavings: Sendable, Equatable {
    /// Identical streams (and the resource objects that lead to them) written
    /// once: how many copies were left out, and their bytes.
    package var sharedDuplicates: SavedBytes
    /// Streams deflated again at zlib's best level, and the bytes that saved.
    package var recompression: SavedBytes
    /// Images resampled (`ExportSettings.images`), and the bytes that saved.
    package var images: SavedBytes

    init(_ savings: StreamSavings) {
        sharedDuplicates = SavedBytes(count: savings.duplicates, bytes: savings.duplicateBytes)
        recompression = SavedBytes(count: savings.recompressed, bytes: savings.recompressedBytes)
        images = SavedBytes(count: savings.images, bytes: savings.imageBytes)
    }
}

/// The report of `optimize`: one file rewritten losslessly smaller.
public struct OptimizeReport: Encodable, Sendable, Equatable {
    /// The file read.
    public var input: String
    /// The file written (the input itself when it was replaced in place).
    public var output: String
    /// Pages in the file.
    public var pageCount: Int
    /// The input's size in bytes.
    public var bytesBefore: Int
    /// The output's size in bytes.
    public var bytesAfter: Int
    /// Bytes saved in all (`bytesBefore - bytesAfter`); negative when the output is larger.
    public var saved: Int
    /// Identical streams (fonts, images, ICC profiles, forms) and the resource
    /// objects around them (font dictionaries, color spaces) written once.
    public var sharedDuplicates: SavedBytes
    /// Streams deflated again at zlib's best level (and unfiltered ones deflated).
    public var recompression: SavedBytes
    /// With `images`: raster images resampled and written again (their soft
    /// masks with them), and the bytes that saved; zero without.
    public var images: SavedBytes
    /// The resolution and JPEG quality images were resampled to; nil: lossless.
    public var imageResampling: ImageResampling?
    /// The rest of the difference: object streams and a cross-reference stream
    /// instead of a table, objects nothing refers to left out (negative when
    /// what the writer adds, a linearized file's hint tables, outweighs them).
    public var objectStreams: Int
    /// The output is linearized (fast web view).
    public var linearized: Bool
    /// Problems met on the way (damage recovered), one each.
    public var warnings: [Warning]

}

extension PageEditor {
    /// Rewrites the PDF at `input` as small as it losslessly can be, to `output`
    /// (nil: replaces `input` atomically): identical streams written once,
    /// every Flate stream recompressed at zlib's best level, object streams,
    /// objects nothing refers to left out; pages, text, links, bookmarks and
    /// forms are kept as every export keeps them. An encrypted input keeps its
    /// encryption (`decrypt` writes it unencrypted).
    ///
    /// ```swift
    /// let report = try PageEditor.optimize(URL(fileURLWithPath: "in.pdf"), to: URL(fileURLWithPath: "small.pdf"))
    /// print(report.bytesBefore, "->", report.bytesAfter)
    /// ```
    ///
    /// `images` makes it lossy: raster images drawn finer than `images.dpi`
    /// are resampled to it, photographs written as JPEG at `images.quality`
    /// (see `ExportSettings.images`).
    public static func optimize(
        _ input: URL, to output: URL?, linearize: Bool = false, images: ImageResampling? = nil, decrypt: Bool = false,
        force: Bool = false, passwords: PasswordBook = PasswordBook()
    ) throws(PDFEditError) -> OptimizeReport {
        let path = input.path
        // Before the write, which replaces it in place (nil when it is not there:
        // opening fails naming it, 66).
        let measured = OptimizeReport.size(of: path)
        // Direct mode's editor: the file kept open for the one write, and the
        // default session's own files protected as the command line protects them.
        let editor = try PageEditor(opening: [path], passwords: passwords, repair: false)
        var settings = ExportSettings(force: force)
        settings.compress = true
        settings.linearize = linearize
        settings.images = images
        var result = try editor.write(
            to: output ?? input, settings: settings,
            options: WriteOptions(replacingSource: output == nil, encryption: decrypt ? .remove : .keep))
        result.warnings = Warning.oneDamageWarningPerFile(editor.openingWarnings + result.warnings)
        return OptimizeReport(input: path, written: result, bytesBefore: measured ?? 0, settings: settings)
    }
}

extension OptimizeReport {
    /// The report of `written`, the rewrite of `input` (`bytesBefore` long) with
    /// `settings`: the output's size measured now, the savings the export counted.
    init(input: String, written result: ExportResult, bytesBefore before: Int, settings: ExportSettings) {
        let after = Self.size(of: result.output) ?? 0
        let savings = result.savings ?? CompressionSavings(StreamSavings())
        let saved = before - after
        self.init(
            input: input, output: result.output, pageCount: result.pageCount, bytesBefore: before, bytesAfter: after,
            saved: saved, sharedDuplicates: savings.sharedDuplicates, recompression: savings.recompression,
            images: savings.images, imageResampling: settings.images,
            objectStreams: saved - savings.sharedDuplicates.bytes - savings.recompression.bytes - savings.images.bytes,
            linearized: settings.linearize, warnings: result.warnings)
    }

    /// The size of the file at `path` (followed through links), for the report.
    static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }
}

extension DirectMode {
    /// `optimize`: the input written again with `compress` (and `linearize` and
    /// `images` as set), no edit; the sizes measured before and after. `-` as input or output
    /// is resolved by the caller (`resolvingStandardStreams`).
    package func optimize() throws(PDFEditError) -> OptimizeReport {
        var mode = self
        mode.compress = true
        // Before the edit, which replaces it with --in-place (nil when it is not
        // there: the edit fails naming it, 66).
        let measured = OptimizeReport.size(of: input)
        let (_, result) = try mode.edit { _, _, _ in [] }
        return OptimizeReport(input: input, written: result, bytesBefore: measured ?? 0, settings: mode.settings)
    }
}
