#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// `--max-size SIZE`: a byte count, `10MB` style.
package enum ByteSize {
    /// Bytes of `text`: a number (decimals allowed) with an optional unit — B,
    /// kB/KB (10^3), MB (10^6), GB (10^9), KiB/MiB/GiB (powers of 1024); nil
    /// when it is not one or is below 1 byte.
    package static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpaces()
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(number.count).trimmingSpaces().lowercased()
        let factors: [String: Double] = [
            "": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824,
        ]
        guard !number.isEmpty, let value = Double(String(number)), let factor = factors[unit] else { return nil }
        let bytes = (value * factor).rounded(.down)
        guard bytes >= 1, bytes < 1e15 else { return nil }
        return Int64(bytes)
    }
}

extension ExportWriter {
    /// Cuts each part into parts as large as possible whose files are at most
    /// `maxSize` bytes, measured by writing them (the part files are written
    /// the same way afterwards, so the sizes hold). A part's length is found
    /// by doubling from the previous part's length and then bisecting, so a
    /// part of n items costs about 2·log2(n) trial writes, not n. Sizes are
    /// taken to grow with the number of pages (true of a PDF's pages, which
    /// only add objects). A single item over `maxSize` is an error naming it.
    func cutToSize(
        _ parts: [SplitPart], maxSize: Int64, items: [PageItem], positions: [Int], document name: String,
        directory: String, settings: ExportSettings
    ) throws(PDFEditError) -> [SplitPart] {
        try ensureDirectory(directory.isEmpty ? "." : directory)
        var probe = try SizeProbe(writer: self, items: items, document: name, directory: directory, settings: settings)
        var result: [SplitPart] = []
        var guess = 1
        for part in parts {
            var start = part.items.lowerBound
            while start < part.items.upperBound {
                let available = part.items.upperBound - start
                let length = try probe.longestRun(from: start, available: available, guess: guess, maxSize: maxSize) {
                    (size) throws(PDFEditError) in
                    let item = items[start]
                    throw PDFEditError.notExportable(
                        "item @\(item.id) (position \(positions[start])) alone is \(size) bytes as a PDF, "
                            + "over --max-size \(maxSize) bytes")
                }
                result.append(SplitPart(items: start..<(start + length), title: part.title))
                start += length
                guess = length
            }
        }
        return result
    }
}

/// Writes trial parts into one hidden temporary beside the split's parts and
/// tells their sizes.
struct SizeProbe {
    let writer: ExportWriter
    let items: [PageItem]
    let document: String
    var plan: EnginePlan
    var options: ExportOptions
    let target: String
    /// The model's outline, pruned to a part, as the part will carry it (nil: the sources').
    let outline: (([PageItem]) -> [ExportedOutlineEntry])?
    /// Sizes measured so far, by (start, length).
    private var known: [Int: [Int: Int64]] = [:]

    init(
        writer: ExportWriter, items: [PageItem], document name: String, directory: String, settings: ExportSettings
    ) throws(PDFEditError) {
        self.writer = writer
        self.items = items
        self.document = name
        options = settings.engineOptions(progressUnit: "files")
        options.progress = nil
        writer.setDocumentData(of: items, document: name, on: &options)
        let plan = try writer.plan(items, document: name, settings: settings)
        options.keepEncryptionOf = settings.keepEncryptionOf.flatMap { plan.sessionSources.firstIndex(of: $0) }
        self.plan = plan
        target = Paths.join(directory.isEmpty ? "." : directory, "max-size-trial.pdf")
        let session = writer.session
        let policy = settings.outline
        if let model = session.document(named: name), model.outline != nil || settings.outline == .none {
            options.outline = []
            outline = { part in session.exportedOutline(of: model, items: part, policy: policy) ?? [] }
        } else {
            outline = nil
        }
    }

    /// The size of the file of items `start..<start+length`.
    mutating func size(from start: Int, length: Int) throws(PDFEditError) -> Int64 {
        if let size = known[start]?[length] { return size }
        let staged = StagedOutput(target, removingStale: true)
        defer { staged.discard() }
        var part = ExportPart(items: start..<(start + length), path: staged.temporary)
        if let outline { part.outline = outline(Array(items[part.items])) }
        let options = options
        _ = try writer.run(&plan, staged: [staged]) { (plan) throws(EngineError) in
            try PDFExporter.writeParts(
                sources: plan.sources, items: plan.items, stamps: plan.stamps, parts: [part], options: options)
        }
        var status = stat()
        guard stat(staged.temporary, &status) == 0 else {
            throw PDFEditError.engine(.cannotWrite(file: target, reason: "the trial part vanished"))
        }
        known[start, default: [:]][length] = Int64(status.st_size)
        return Int64(status.st_size)
    }

    /// The largest length ≤ `available` of a run from `start` whose file is at
    /// most `maxSize` bytes (see `longestFit`).
    mutating func longestRun(
        from start: Int, available: Int, guess: Int, maxSize: Int64,
        tooLarge: (Int64) throws(PDFEditError) -> Void
    ) throws(PDFEditError) -> Int {
        try longestFit(available: available, guess: guess, maxSize: maxSize, tooLarge: tooLarge) {
            (length) throws(PDFEditError) in try size(from: start, length: length)
        }
    }
}

/// The largest length in 1…`available` whose `size` is at most `maxSize`, for
/// sizes that grow with the length; `tooLarge` is called (and must throw) with
/// the size of length 1 when even that is over. Grows from `guess` by
/// doubling, then bisects between the longest length that fitted and the
/// shortest that did not, so that the answer and the length after it (unless
/// the answer is `available`) have both been measured: about 2·log2(answer)
/// calls of `size`, not `answer`.
func longestFit(
    available: Int, guess: Int, maxSize: Int64, tooLarge: (Int64) throws(PDFEditError) -> Void,
    size: (Int) throws(PDFEditError) -> Int64
) throws(PDFEditError) -> Int {
    var fits = 0  // longest length known to fit
    var over = available + 1  // shortest length known not to fit
    var trial = min(max(guess, 1), available)
    while fits + 1 < over {
        let measured = try size(trial)
        if measured <= maxSize {
            fits = trial
            // Still growing by doubling until something does not fit.
            trial = over == available + 1 ? min(trial * 2, available) : (fits + over) / 2
        } else {
            if trial == 1 { try tooLarge(measured) }
            over = trial
            // Shrinking by halving until something fits.
            trial = fits == 0 ? max(1, trial / 2) : (fits + over) / 2
        }
        if trial <= fits || trial >= over { trial = (fits + over) / 2 }
    }
    if fits == 0 { try tooLarge(try size(1)) }
    return fits
}
