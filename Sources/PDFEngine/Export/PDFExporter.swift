import Foundation
import QPDFBridge

/// Writes PDFs made of pages of other PDFs, through the C++ bridge (`pe_export`).
public enum PDFExporter {
    /// Writes `items`, in order, to `path` by calling `pe_export`.
    ///
    /// `path` is written as given: the caller passes a temporary name in the target
    /// directory and renames it into place (a failed export removes what it wrote).
    /// `path` must not name one of the sources (refused with `.library`).
    ///
    /// The output keeps, from every source: annotations, links between exported
    /// pages, one working form (a field copied twice gets its own name), the
    /// outlines pruned to the exported pages (one top-level entry per source when
    /// several have some), page labels per `options.labels`, and the first source's
    /// metadata; a structure tree only when the output is exactly one tagged source.
    /// What cannot follow pages (embedded files, optional content, JavaScript, ...)
    /// is dropped with one warning naming it (see `pe_export` in QPDFBridge.h).
    ///
    /// ```swift
    /// let report = try PDFExporter.write(
    ///     sources: [ExportSource(path: "a.pdf"), ExportSource(path: "b.pdf", password: "pw")],
    ///     items: [.page(source: 1, index: 0), .page(source: 0, index: 2, quarterTurns: 1),
    ///             .blank(width: 595, height: 842)],
    ///     to: "out.pdf.tmp")
    /// for warning in report.warnings { print(warning) }
    /// ```
    /// `stamps` (pages drawn onto items, see `ExportStamp`) go through `pe_export_stamped`.
    public static func write(
        sources: [ExportSource],
        items: [ExportItem],
        stamps: [ExportStamp] = [],
        options: ExportOptions = ExportOptions(),
        to path: String
    ) throws(EngineError) -> ExportReport {
        let collector = WarningCollector(paths: sources.map(\.path))
        var status = pe_status()
        let cItems = items.map(\.bridged)
        let code = withCSources(sources) { cSources in
            cItems.withUnsafeBufferPointer { cItems in
                withCOptions(options) { cOptions in
                    withExtendedLifetime(collector) {
                        stamps.withBridged { cStamps, stampCount in
                            pe_export_stamped(
                                cSources.baseAddress, Int32(cSources.count),
                                cItems.baseAddress, Int32(cItems.count),
                                cStamps, stampCount,
                                path, cOptions,
                                collectWarning, Unmanaged.passUnretained(collector).toOpaque(),
                                &status)
                        }
                    }
                }
            }
        }
        if code != Int32(PE_OK) {
            throw EngineError(exportStatus: status, sources: sources, output: path)
        }
        return ExportReport(warnings: collector.warnings)
    }

    /// Writes several files from one opening of the sources by calling
    /// `pe_export_parts`: part `k` gets the items `parts[k].items`, with what applies
    /// to its own pages (fields, annotations, page labels, bookmarks pruned to the
    /// part, links between its pages). Each path is written as given (temporary
    /// names, renamed into place by the caller); when the export fails, none of the
    /// part files is left behind. Warnings about dropped document-level data come
    /// once for all parts.
    ///
    /// ```swift
    /// let items: [ExportItem] = (0..<4).map { .page(source: 0, index: $0) }
    /// try PDFExporter.writeParts(
    ///     sources: [ExportSource(path: "book.pdf")], items: items,
    ///     parts: [ExportPart(items: 0..<2, path: "a.pdf.tmp"), ExportPart(items: 2..<4, path: "b.pdf.tmp")])
    /// ```
    public static func writeParts(
        sources: [ExportSource],
        items: [ExportItem],
        stamps: [ExportStamp] = [],
        parts: [ExportPart],
        options: ExportOptions = ExportOptions()
    ) throws(EngineError) -> ExportReport {
        let collector = WarningCollector(paths: sources.map(\.path))
        var status = pe_status()
        let cItems = items.map(\.bridged)
        let code = withCSources(sources) { cSources in
            withCParts(parts) { cParts in
                cItems.withUnsafeBufferPointer { cItems in
                    withCOptions(options) { cOptions in
                        withExtendedLifetime(collector) {
                            stamps.withBridged { cStamps, stampCount in
                                pe_export_parts_stamped(
                                    cSources.baseAddress, Int32(cSources.count),
                                    cItems.baseAddress, Int32(cItems.count),
                                    cStamps, stampCount,
                                    cParts.baseAddress, Int32(cParts.count), cOptions,
                                    collectWarning, Unmanaged.passUnretained(collector).toOpaque(),
                                    &status)
                            }
                        }
                    }
                }
            }
        }
        if code != Int32(PE_OK) {
            // An error of no source belongs to the output of the part `page` names.
            var output = parts.first?.path ?? ""
            if status.source_index < 0 {
                if parts.indices.contains(Int(status.page) - 1) { output = parts[Int(status.page) - 1].path }
                status.page = 0
            }
            throw EngineError(exportStatus: status, sources: sources, output: output)
        }
        return ExportReport(warnings: collector.warnings)
    }

    /// The top-level bookmarks of the output `write` would make of `items`, in
    /// outline order, each with the first item it points to (`pe_outline_starts`;
    /// for `export --split --at-outlines`). Bookmarks of pages that are not
    /// exported are left out; when several sources contribute bookmarks, there is
    /// one per source (its `name`, else its title, else its file name).
    public static func outlineStarts(
        sources: [ExportSource], items: [ExportItem]
    ) throws(EngineError) -> [OutlineStart] {
        let collector = OutlineCollector()
        var status = pe_status()
        let cItems = items.map(\.bridged)
        let code = withCSources(sources) { cSources in
            cItems.withUnsafeBufferPointer { cItems in
                withExtendedLifetime(collector) {
                    pe_outline_starts(
                        cSources.baseAddress, Int32(cSources.count),
                        cItems.baseAddress, Int32(cItems.count),
                        collectOutlineStart, Unmanaged.passUnretained(collector).toOpaque(), &status)
                }
            }
        }
        if code != Int32(PE_OK) {
            throw EngineError(exportStatus: status, sources: sources, output: sources.first?.path ?? "")
        }
        return collector.starts
    }

    /// Runs `body` with the parts as `pe_part`s whose paths live until it returns.
    private static func withCParts<R>(_ parts: [ExportPart], _ body: (UnsafeBufferPointer<pe_part>) -> R) -> R {
        let paths = parts.map { part -> UnsafeMutablePointer<CChar> in
            guard let copied = strdup(part.path) else { fatalError("out of memory") }
            return copied
        }
        defer { paths.forEach { free($0) } }
        let cParts = zip(parts, paths).map { part, path in
            pe_part(
                first_item: Int32(clamping: part.items.lowerBound), item_count: Int32(clamping: part.items.count),
                out_path: UnsafePointer(path))
        }
        return cParts.withUnsafeBufferPointer(body)
    }

    /// Runs `body` with the sources as `pe_source`s whose strings live until it returns.
    private static func withCSources<R>(
        _ sources: [ExportSource], _ body: (UnsafeBufferPointer<pe_source>) -> R
    ) -> R {
        var strings: [UnsafeMutablePointer<CChar>] = []
        var lists: [UnsafeMutablePointer<UnsafePointer<CChar>?>] = []
        defer {
            strings.forEach { free($0) }
            lists.forEach { $0.deallocate() }
        }
        func copy(_ text: String) -> UnsafePointer<CChar> {
            guard let copied = strdup(text) else { fatalError("out of memory") }
            strings.append(copied)
            return UnsafePointer(copied)
        }
        func copyList(_ texts: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
            guard !texts.isEmpty else { return nil }
            let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: texts.count)
            for (index, text) in texts.enumerated() { list[index] = copy(text) }
            lists.append(list)
            return UnsafePointer(list)
        }
        let cSources = sources.map { source in
            pe_source(
                path: copy(source.path), password: source.password.map { copy($0) },
                alternatives: copyList(source.alternatives), alternative_count: Int32(source.alternatives.count),
                name: source.name.map { copy($0) }, document: source.document?.handle,
                document_last_use: source.document != nil && source.lastUseOfDocument ? 1 : 0)
        }
        return withExtendedLifetime(sources) { cSources.withUnsafeBufferPointer(body) }
    }

    private static func withCOptions<R>(
        _ options: ExportOptions, _ body: (UnsafePointer<pe_export_options>) -> R
    ) -> R {
        func call(_ user: UnsafePointer<CChar>?, _ owner: UnsafePointer<CChar>?) -> R {
            let labels: Int32 =
                switch options.labels {
                case .keep: Int32(PE_LABELS_KEEP)
                case .renumber: Int32(PE_LABELS_RENUMBER)
                case .none: Int32(PE_LABELS_NONE)
                }
            func withTitle(_ title: UnsafePointer<CChar>?) -> R {
                // The reporter lives as long as the call; the bridge calls it one at a time.
                let reporter = options.progress.map(ProgressBox.init)
                var cOptions = pe_export_options(
                    deterministic_id: options.deterministicID ? 1 : 0,
                    user_password: user, owner_password: owner, labels: labels, title: title,
                    max_stream_bytes: Int64(options.maxStreamBytes ?? 0),
                    progress: reporter == nil ? nil : { context, done, total in
                        guard let context else { return }
                        Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue().report(Int(done), Int(total))
                    },
                    progress_context: reporter.map { Unmanaged.passUnretained($0).toOpaque() })
                return withExtendedLifetime(reporter) { body(&cOptions) }
            }
            guard let title = options.title else { return withTitle(nil) }
            return title.withCString { withTitle($0) }
        }
        guard let encryption = options.encryption else { return call(nil, nil) }
        return encryption.userPassword.withCString { user in
            encryption.ownerPassword.withCString { owner in call(user, owner) }
        }
    }
}

/// Carries `ExportOptions.progress` through the bridge's C callback.
private final class ProgressBox {
    let report: @Sendable (Int, Int) -> Void

    init(_ report: @escaping @Sendable (Int, Int) -> Void) {
        self.report = report
    }
}

/// Receives the bridge's warnings during one `pe_export` call (same thread).
private final class WarningCollector {
    let paths: [String]
    var warnings: [ExportWarning] = []

    init(paths: [String]) {
        self.paths = paths
    }

    /// Files whose recovered damage was already reported: one line per file.
    private var damaged: Set<Int> = []

    func add(source: Int32, message: String) {
        let index = Int(source)
        let file = paths.indices.contains(index) ? paths[index] : nil
        if message.hasPrefix("qpdf: ") {
            guard damaged.insert(index).inserted else { return }
            warnings.append(ExportWarning(file: file, message: "damaged, recovered (\(message.dropFirst(6)))"))
        } else {
            warnings.append(ExportWarning(file: file, message: message))
        }
    }
}

/// Receives the top-level bookmarks during one `pe_outline_starts` call (same thread).
private final class OutlineCollector {
    var starts: [OutlineStart] = []
}

/// The `pe_outline_fn` given to `pe_outline_starts`; `context` is an unretained `OutlineCollector`.
private func collectOutlineStart(_ context: UnsafeMutableRawPointer?, _ title: UnsafePointer<CChar>?, _ item: Int32) {
    guard let context else { return }
    let collector = Unmanaged<OutlineCollector>.fromOpaque(context).takeUnretainedValue()
    collector.starts.append(OutlineStart(title: title.map { String(cString: $0) } ?? "", itemIndex: Int(item)))
}

/// The `pe_warning_fn` given to `pe_export`; `context` is an unretained `WarningCollector`.
private func collectWarning(
    _ context: UnsafeMutableRawPointer?, _ source: Int32, _ message: UnsafePointer<CChar>?
) {
    guard let context, let message else { return }
    let collector = Unmanaged<WarningCollector>.fromOpaque(context).takeUnretainedValue()
    collector.add(source: source, message: String(cString: message))
}

extension ExportItem {
    var bridged: pe_item {
        switch self {
        case .page(let source, let index, let quarterTurns):
            return pe_item(
                kind: Int32(PE_ITEM_PAGE), source: Int32(clamping: source), page: Int32(clamping: index),
                width: 0, height: 0, quarter_turns: Int32(quarterTurns.quarterTurnsModulo4))
        case .blank(let width, let height, let quarterTurns):
            return pe_item(
                kind: Int32(PE_ITEM_BLANK), source: -1, page: -1,
                width: width, height: height, quarter_turns: Int32(quarterTurns.quarterTurnsModulo4))
        }
    }
}

extension Int {
    /// 0...3, counting negative turns the other way round.
    fileprivate var quarterTurnsModulo4: Int { ((self % 4) + 4) % 4 }
}

extension EngineError {
    /// A failed `pe_export` status as the error of the file it concerns
    /// (`source_index` -1: the output), through the one bridge mapping. qpdf
    /// reports some damage with a plain std::exception instead of a QPDFExc (an
    /// object number so large that no object can be added to the file: "max
    /// object id is too high to create new objects"); raised while a source was
    /// read or copied, it makes the source unusable (65).
    init(exportStatus status: pe_status, sources: [ExportSource], output: String) {
        let index = Int(status.source_index)
        let source = sources.indices.contains(index) ? sources[index] : nil
        self.init(
            status: status,
            about: BridgeFailure(
                file: source?.path ?? output, isOutput: source == nil,
                passwordGiven: !(source?.password ?? "").isEmpty || !(source?.alternatives.isEmpty ?? true),
                internalIsDamage: true, checksInput: source != nil))
    }
}
