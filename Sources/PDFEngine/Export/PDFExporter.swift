#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel
import QPDFCore

/// Writes PDFs made of pages of other PDFs, through the C++ bridge (`pe_export`).
package enum PDFExporter {
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
    /// metadata; the layers (optional content) its pages use, with their default
    /// states; the structure trees of tagged sources, pruned to the exported pages;
    /// JavaScript and actions only with `options.keepScripts`. What cannot follow
    /// pages (embedded files, scripts unless kept, ...) is dropped with one warning
    /// naming it (see `pe_export` in QPDFBridge.h).
    ///
    /// ```swift
    /// let report = try PDFExporter.write(
    ///     sources: [ExportSource(path: "a.pdf"), ExportSource(path: "b.pdf", password: "pw")],
    ///     items: [.page(source: 1, index: 0), .page(source: 0, index: 2, quarterTurns: 1),
    ///             .blank(width: 595, height: 842)],
    ///     to: "out.pdf.tmp")
    /// for warning in report.warnings { print(warning) }
    /// ```
    /// `stamps` are pages drawn onto items (see `ExportStamp`). The output is
    /// written as its source's bytes plus an update, or its source rearranged
    /// in place, where `ExportStrategy.allowed` lets it and the file can take
    /// it; else its pages are copied.
    package static func write(
        sources: [ExportSource],
        items: [ExportItem],
        stamps: [ExportStamp] = [],
        options: ExportOptions = ExportOptions(),
        to path: String
    ) throws(EngineError) -> ExportReport {
        let sources = withCandidateOpened(sources: sources, items: items, stamps: stamps, options: options)
        let collector = WarningCollector(paths: sources.map(\.path))
        var status = pe_status()
        let strategies = ExportStrategy.allowed(sources: sources, items: items, stamps: stamps, options: options)
        let arguments = BridgeArguments(
            sources: sources, items: items, stamps: stamps, options: options, strategies: strategies)
        let code = arguments.call(context: collector) { c in
            FileNames.withCString(path) { path in
                pe_export(
                    c.sources, c.sourceCount, c.items, c.itemCount, c.stamps, c.stampCount, path, c.options,
                    collectWarning, c.context, &status)
            }
        }
        if code != Int32(PE_OK) {
            throw EngineError(exportStatus: status, sources: sources, output: path)
        }
        var report = ExportReport(
            warnings: collector.warnings, decryptedSources: collector.decrypted, savings: arguments.savings)
        report.appendedTo = collector.appendedTo
        return report
    }

    /// `sources` with the one an export may write other than by copying
    /// (`ExportStrategy.candidate`) opened, when the caller did not open it (a
    /// session's export): what it holds is judged in Swift, from its opened
    /// document (`ExportStrategy.allowed`), which is then handed to the bridge,
    /// so the file is read once. Unchanged when there is no such source, or it
    /// does not open cleanly (copying then opens it and says why).
    package static func withCandidateOpened(
        sources: [ExportSource], items: [ExportItem], stamps: [ExportStamp], options: ExportOptions
    ) -> [ExportSource] {
        var sources = sources
        if let (source, _) = ExportStrategy.candidate(sources: sources, items: items, stamps: stamps, options: options),
            sources[source].document == nil, let opened = OpenedPDF.opening(sources[source])
        {
            sources[source].document = opened
            sources[source].lastUseOfDocument = true
        }
        return sources
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
    package static func writeParts(
        sources: [ExportSource],
        items: [ExportItem],
        stamps: [ExportStamp] = [],
        parts: [ExportPart],
        options: ExportOptions = ExportOptions()
    ) throws(EngineError) -> ExportReport {
        let collector = WarningCollector(paths: sources.map(\.path))
        var status = pe_status()
        let arguments = BridgeArguments(sources: sources, items: items, stamps: stamps, parts: parts, options: options)
        let code = arguments.call(context: collector) { c in
            pe_export_parts(
                c.sources, c.sourceCount, c.items, c.itemCount, c.stamps, c.stampCount, c.parts, c.partCount,
                c.options, collectWarning, c.context, &status)
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
        return ExportReport(warnings: collector.warnings, decryptedSources: collector.decrypted)
    }

    /// The top-level bookmarks of the output `write` would make of `items`, in
    /// outline order, each with the first item it points to (`pe_outline_starts`;
    /// for `export --split --at-outlines`). Bookmarks of pages that are not
    /// exported are left out; when several sources contribute bookmarks, there is
    /// one per source (its `name`, else its title, else its file name).
    package static func outlineStarts(
        sources: [ExportSource], items: [ExportItem]
    ) throws(EngineError) -> [OutlineStart] {
        let collector = OutlineCollector()
        var status = pe_status()
        let arguments = BridgeArguments(sources: sources, items: items)
        let code = arguments.call(context: collector) { c in
            pe_outline_starts(
                c.sources, c.sourceCount, c.items, c.itemCount, collectOutlineStart, c.context, &status)
        }
        if code != Int32(PE_OK) {
            throw EngineError(exportStatus: status, sources: sources, output: sources.first?.path ?? "")
        }
        return collector.starts
    }
}

extension ExportWarning {
    /// How a warning about a redacted text left outside the pages starts
    /// (`PE_REDACTED_LEFTOVER`); the rest is about the output.
    package static let redactedLeftoverPrefix = PE_REDACTED_LEFTOVER
}

/// Receives the bridge's warnings during one `pe_export` call (same thread).
private final class WarningCollector {
    let paths: [String]
    var warnings: [ExportWarning] = []
    /// The sources the bridge noted as encrypted but written unencrypted.
    var decrypted: [String] = []
    /// The source the output was appended to (`PE_WARNING_APPENDED`).
    var appendedTo: String?

    init(paths: [String]) {
        self.paths = paths
    }

    /// Files whose recovered damage was already reported: one line per file.
    private var damaged: Set<Int> = []

    func add(source: Int32, message: String) {
        let index = Int(source)
        let file = paths.indices.contains(index) ? paths[index] : nil
        if message == PE_WARNING_DECRYPTED {
            if let file, !decrypted.contains(file) { decrypted.append(file) }
        } else if message == PE_WARNING_APPENDED {
            appendedTo = file
        } else if message.hasPrefix("qpdf: ") {
            guard damaged.insert(index).inserted else { return }
            warnings.append(ExportWarning(file: file, kind: .recoveredDamage(detail: String(message.dropFirst(6)))))
        } else {
            warnings.append(ExportWarning(file: file, kind: .notice(message)))
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
    /// `pe_item` without its pointers (boxes, resize, a sheet's cells), which
    /// `BridgeArguments` allocates.
    var bridged: pe_item {
        switch self {
        case .page(let source, let index, let quarterTurns, _, _):
            return pe_item(
                kind: Int32(PE_ITEM_PAGE), source: Int32(clamping: source), page: Int32(clamping: index),
                width: 0, height: 0, user_unit: 1, quarter_turns: Int32(quarterTurns.quarterTurnsModulo4), boxes: nil,
                resize: nil, cells: nil, cell_count: 0)
        case .blank(let width, let height, let quarterTurns, _):
            return pe_item(
                kind: Int32(PE_ITEM_BLANK), source: -1, page: -1,
                width: width, height: height, user_unit: PageSize(width: width, height: height).userUnit,
                quarter_turns: Int32(quarterTurns.quarterTurnsModulo4), boxes: nil, resize: nil, cells: nil,
                cell_count: 0)
        case .sheet(let width, let height, let quarterTurns, _, _):
            return pe_item(
                kind: Int32(PE_ITEM_SHEET), source: -1, page: -1,
                width: width, height: height, user_unit: PageSize(width: width, height: height).userUnit,
                quarter_turns: Int32(quarterTurns.quarterTurnsModulo4), boxes: nil, resize: nil, cells: nil,
                cell_count: 0)
        }
    }

    /// The boxes the item sets on its page.
    var boxes: PageBoxes {
        switch self {
        case .page(_, _, _, let boxes, _), .blank(_, _, _, let boxes), .sheet(_, _, _, let boxes, _): boxes
        }
    }

    /// The item's resize, if it has one.
    var resize: ExportResize? {
        if case .page(_, _, _, _, let resize) = self { return resize }
        return nil
    }
}

extension ExportResize {
    /// `pe_item.resize`: the new page in its own units.
    var bridged: pe_resize {
        let unit = size.userUnit
        return pe_resize(
            width: size.width / unit, height: size.height / unit, user_unit: unit, placement: placement.bridged)
    }
}

extension FormPlacement {
    /// `pe_placement`.
    var bridged: pe_placement {
        let m = matrix
        let box = clip ?? BoxRect(x0: 0, y0: 0, x1: 0, y1: 0)
        return pe_placement(
            matrix: (m.a, m.b, m.c, m.d, m.e, m.f), clip: clip == nil ? 0 : 1, clip_box: (box.x0, box.y0, box.x1, box.y1))
    }
}

extension PageBoxes {
    /// `pe_item.boxes`, in PE_BOX_* order.
    var bridged: (pe_box, pe_box, pe_box, pe_box) {
        func box(_ rect: BoxRect?) -> pe_box {
            guard let rect else { return pe_box(set: 0, x0: 0, y0: 0, x1: 0, y1: 0) }
            return pe_box(set: 1, x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1)
        }
        return (box(crop), box(trim), box(bleed), box(art))
    }
}

extension Int {
    /// 0...3, counting negative turns the other way round.
    var quarterTurnsModulo4: Int { ((self % 4) + 4) % 4 }
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
