#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PageModel
import QPDFCore

/// The C arguments of one export call of the bridge (`pe_export`,
/// `pe_export_parts`, `pe_outline_starts`), marshalled once: the strings copied
/// to C, the `pe_source`, `pe_item`, `pe_stamp` and `pe_part` arrays and the
/// `pe_export_options`. All of it is freed with this object; `call` keeps it, the
/// sources' opened documents and the callback context alive while the bridge runs.
final class BridgeArguments {
    /// What the bridge call takes; valid only inside `call`.
    struct Pointers {
        var sources: UnsafePointer<pe_source>?
        var sourceCount: Int32
        var items: UnsafePointer<pe_item>?
        var itemCount: Int32
        var stamps: UnsafePointer<pe_stamp>?
        var stampCount: Int32
        var parts: UnsafePointer<pe_part>?
        var partCount: Int32
        /// nil when no options were given (`pe_outline_starts`).
        var options: UnsafePointer<pe_export_options>?
        /// The unretained object given to `call`, for the warning or outline callback.
        var context: UnsafeMutableRawPointer?
    }

    /// Keeps the opened documents the `pe_source`s point at.
    private let sources: [ExportSource]
    /// Receives the bridge's progress calls while the call runs.
    private let reporter: ProgressBox?
    /// Keeps the flag `pe_export_options.cancel` points at.
    private let cancel: CancelFlag?
    /// What `pe_export_options.compress_report` points at, with `compress`.
    private var compressReport: UnsafeMutablePointer<pe_compress_report>?
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private lazy var emptyString: UnsafePointer<CChar> = copy("")
    private var blocks: [UnsafeMutableRawPointer] = []
    private var pointers = Pointers(
        sources: nil, sourceCount: 0, items: nil, itemCount: 0, stamps: nil, stampCount: 0, parts: nil, partCount: 0,
        options: nil, context: nil)

    /// `strategies`: what `pe_export_options.strategies` allows besides copying
    /// (`ExportStrategy.allowed`; `pe_export_parts` always copies).
    init(
        sources: [ExportSource], items: [ExportItem], stamps: [ExportStamp] = [], parts: [ExportPart] = [],
        options: ExportOptions? = nil, strategies: ExportStrategies = []
    ) {
        self.sources = sources
        reporter = options?.progress.map(ProgressBox.init)
        cancel = options?.cancel
        pointers.sources = array(
            sources.map { source in
                pe_source(
                    path: copy(bytes: FileNames.bytes(source.path)), password: source.password.map { copy($0) },
                    alternatives: array(source.alternatives.map { Optional(copy($0)) }),
                    alternative_count: Int32(source.alternatives.count),
                    name: source.name.map { copy($0) }, document: source.document?.handle,
                    document_last_use: source.document != nil && source.lastUseOfDocument ? 1 : 0,
                    dated_path: source.datedPath.map { copy(bytes: FileNames.bytes($0)) })
            })
        pointers.sourceCount = Int32(sources.count)
        pointers.items = bridged(items)
        pointers.itemCount = Int32(items.count)
        pointers.stamps = array(stamps.map { bridged($0) })
        pointers.stampCount = Int32(clamping: stamps.count)
        pointers.parts = array(
            parts.map { part in
                pe_part(
                    first_item: Int32(clamping: part.items.lowerBound), item_count: Int32(clamping: part.items.count),
                    out_path: copy(bytes: FileNames.bytes(part.path)), outline: array(part.outline.map { bridged($0) }),
                    outline_count: Int32(clamping: part.outline.count))
            })
        pointers.partCount = Int32(parts.count)
        if let options {
            var bridgedOptions = bridged(options)
            bridgedOptions.strategies =
                (strategies.contains(.appendedUpdate) ? Int32(PE_STRATEGY_APPENDED_UPDATE) : 0)
                | (strategies.contains(.inPlace) ? Int32(PE_STRATEGY_IN_PLACE) : 0)
                | (strategies.contains(.wholeFile) ? Int32(PE_STRATEGY_WHOLE_FILE) : 0)
                | (strategies.contains(.appendedUpdate) && options.requireAppendedUpdate
                    ? Int32(PE_STRATEGY_REQUIRED) : 0)
            pointers.options = array([bridgedOptions])
        }
    }

    deinit {
        strings.forEach { free($0) }
        blocks.forEach { $0.deallocate() }
    }

    /// What the bridge reported of `compress` once `call` returned (nil without it).
    var savings: StreamSavings? {
        compressReport.map { report in
            var savings = StreamSavings(
                duplicates: Int(report.pointee.duplicates), duplicateBytes: Int(report.pointee.duplicate_bytes),
                recompressed: Int(report.pointee.recompressed), recompressedBytes: Int(report.pointee.recompressed_saved))
            savings.images = Int(report.pointee.images)
            savings.imageBytes = Int(report.pointee.images_saved)
            return savings
        }
    }

    /// Runs `body` (the bridge call) with the C arguments and `context` as the
    /// callbacks' unretained context.
    func call<R>(context: AnyObject, _ body: (Pointers) -> R) -> R {
        var given = pointers
        given.context = Unmanaged.passUnretained(context).toOpaque()
        return withExtendedLifetime((self, context)) { body(given) }
    }

    /// The items, made in C memory in place (20,000 items are 1.4 MB): the
    /// boxes and resizes they point at allocated only for the items that have
    /// some, one array for a run of items with the same ones (a crop of every
    /// page), and a sheet's cells.
    private func bridged(_ items: [ExportItem]) -> UnsafePointer<pe_item>? {
        guard !items.isEmpty else { return nil }
        let memory = UnsafeMutablePointer<pe_item>.allocate(capacity: items.count)
        blocks.append(UnsafeMutableRawPointer(memory))
        var lastBoxes: (PageBoxes, UnsafePointer<pe_box>?)? = nil
        var lastResize: (ExportResize, UnsafePointer<pe_resize>?)? = nil
        for (index, item) in items.enumerated() {
            var result = bridged(item)
            let boxes = item.boxes
            if !boxes.isEmpty {
                result.boxes = shared(boxes, last: &lastBoxes) {
                    let four = $0.bridged
                    return [four.0, four.1, four.2, four.3]
                }
            }
            if let resize = item.resize {
                result.resize = shared(resize, last: &lastResize) { [$0.bridged] }
            }
            (memory + index).initialize(to: result)
        }
        return UnsafePointer(memory)
    }

    /// `value` in C memory freed with this object: the array made for the item
    /// before when it had the same value (`last`), else a new one.
    private func shared<Value: Equatable, C>(
        _ value: Value, last: inout (Value, UnsafePointer<C>?)?, _ make: (Value) -> [C]
    ) -> UnsafePointer<C>? {
        if let (known, pointer) = last, known == value { return pointer }
        let pointer = array(make(value))
        last = (value, pointer)
        return pointer
    }

    /// An item with, for a sheet, its cells' array.
    private func bridged(_ item: ExportItem) -> pe_item {
        var result = item.bridged
        if case .sheet(_, _, _, _, let cells) = item {
            result.cells = array(
                cells.map { cell in
                    pe_sheet_cell(
                        kind: Int32(cell.source == nil ? PE_ITEM_BLANK : PE_ITEM_PAGE),
                        source: Int32(clamping: cell.source ?? -1), page: Int32(clamping: cell.index),
                        quarter_turns: Int32(cell.quarterTurns.quarterTurnsModulo4),
                        crop: PageBoxes(crop: cell.crop).bridged.0, placement: cell.placement.bridged,
                        stamps: array(cell.stamps.map { bridged($0) }), stamp_count: Int32(clamping: cell.stamps.count),
                        finish: cell.finish.isEmpty
                            ? nil
                            : array([
                                pe_item_finish(
                                    steps: array(cell.finish.map(bridged)), step_count: Int32(clamping: cell.finish.count))
                            ]))
                })
            result.cell_count = Int32(clamping: cells.count)
        }
        return result
    }

    private func bridged(_ options: ExportOptions) -> pe_export_options {
        var result = pe_export_options()
        result.deterministic_id = options.deterministicID ? 1 : 0
        result.user_password = options.encryption.map { copy($0.userPassword) }
        result.owner_password = options.encryption.map { copy($0.ownerPassword) }
        if let allowed = options.encryption?.allowed {
            result.denied = ExportPermission.allCases.filter { !allowed.contains($0) }.reduce(0) { $0 | $1.bridged }
        }
        result.keep_encryption = options.keepEncryptionOf.map { Int32(clamping: $0 + 1) } ?? 0
        result.labels =
            switch options.labels {
            case .keep: Int32(PE_LABELS_KEEP)
            case .renumber: Int32(PE_LABELS_RENUMBER)
            case .none: Int32(PE_LABELS_NONE)
            }
        result.title = options.title.map { copy($0) }
        result.author = options.author.map { copy($0) }
        result.subject = options.subject.map { copy($0) }
        result.keywords = options.keywords.map { copy($0) }
        if let labels = options.pageLabels {
            result.page_labels = array(labels.map(bridged))
        }
        result.max_stream_bytes = Int64(options.maxStreamBytes ?? 0)
        if let reporter {
            // The bridge calls it one at a time, from the thread writing.
            result.progress = { context, done, total in
                guard let context else { return }
                Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue().report(Int(done), Int(total))
            }
            result.progress_context = Unmanaged.passUnretained(reporter).toOpaque()
        }
        result.threads = Int32(clamping: options.threads ?? 0)
        result.keep_scripts = options.keepScripts ? 1 : 0
        if PhaseTiming.enabled {
            result.timing = { _, phase, milliseconds in
                guard let phase else { return }
                PhaseTiming.add(String(cString: phase), milliseconds: milliseconds)
            }
        }
        if let outline = options.outline {
            result.outline_given = 1
            result.outline = array(outline.map { bridged($0) })
            result.outline_count = Int32(clamping: outline.count)
        }
        result.cancel = cancel.map { UnsafePointer($0.storage) }
        if let finish = options.finish {
            // Redactions go apart (pe_item_redact): they are carried out before
            // the stamps, the other steps after everything else.
            result.finish = array(finish.map { all in
                let steps = all.filter { if case .redact = $0 { false } else { true } }
                return pe_item_finish(steps: array(steps.map(bridged)), step_count: Int32(clamping: steps.count))
            })
            let redactions = finish.map { steps in steps.compactMap { if case .redact(let r) = $0 { r } else { nil } } }
            if redactions.contains(where: { !$0.isEmpty }) {
                result.redact = array(redactions.map { regions in
                    pe_item_redact(
                        regions: array(regions.map { region in
                            let (red, green, blue) = region.fill.rgb
                            return pe_redact_region(
                                x0: region.rect.x0, y0: region.rect.y0, x1: region.rect.x1, y1: region.rect.y1,
                                red: red, green: green, blue: blue)
                        }), region_count: Int32(clamping: regions.count))
                })
            }
        }
        if !options.redactedTexts.isEmpty {
            result.redacted_texts = array(options.redactedTexts.map { Optional(copy($0)) })
            result.redacted_text_count = Int32(clamping: options.redactedTexts.count)
        }
        result.scrub = options.scrub ? 1 : 0
        result.strip = options.stripped.reduce(0) { bits, part in
            let bit: Int32 =
                switch part {
                case .javascript: Int32(PE_STRIP_JAVASCRIPT)
                case .attachments: Int32(PE_STRIP_ATTACHMENTS)
                case .metadata: Int32(PE_STRIP_METADATA)
                case .structure: Int32(PE_STRIP_STRUCTURE)
                }
            return bits | bit
        }
        result.compress = options.compress || options.images != nil ? 1 : 0
        result.linearize = options.linearize ? 1 : 0
        result.images_dpi = Int32(clamping: options.images?.dpi ?? 0)
        result.images_quality = Int32(clamping: options.images?.quality ?? 0)
        result.max_pixels = Int64(clamping: options.maxPixels ?? 0)
        if options.compress || options.images != nil {
            let report = UnsafeMutablePointer<pe_compress_report>.allocate(capacity: 1)
            report.initialize(to: pe_compress_report())
            blocks.append(UnsafeMutableRawPointer(report))
            compressReport = report
            result.compress_report = report
        }
        if !options.attachments.isEmpty {
            result.attachments = array(
                options.attachments.map { file in
                    pe_attachment(
                        name: copy(file.name),
                        data: UnsafeRawPointer(copy(bytes: file.data)).assumingMemoryBound(to: UInt8.self),
                        size: Int64(file.data.count), mime_type: copy(file.mimeType),
                        description: file.description.map { copy($0) }, relationship: file.relationship.map { copy($0) },
                        date: file.date.map { copy($0) }, item: Int32(clamping: file.item ?? -1))
                })
            result.attachment_count = Int32(clamping: options.attachments.count)
        }
        if !options.removedAttachments.isEmpty {
            result.removed_attachments = array(
                options.removedAttachments.map { pe_removed_attachment(source: Int32(clamping: $0.source), name: copy($0.name)) })
            result.removed_attachment_count = Int32(clamping: options.removedAttachments.count)
        }
        return result
    }

    private func bridged(_ step: PageFinish) -> pe_finish_step {
        switch step {
        case .flattenAnnotations: pe_finish_step(kind: Int32(PE_FINISH_FLATTEN_ANNOTATIONS), types: nil)
        case .flattenForms: pe_finish_step(kind: Int32(PE_FINISH_FLATTEN_FORMS), types: nil)
        case .stripAnnotations(let types):
            pe_finish_step(
                kind: Int32(PE_FINISH_STRIP_ANNOTATIONS), types: types.isEmpty ? nil : copy(types.joined(separator: " ")))
        case .stripThumbnails: pe_finish_step(kind: Int32(PE_FINISH_STRIP_THUMBNAILS), types: nil)
        case .redact: preconditionFailure("redactions are bridged as pe_item_redact")
        }
    }

    private func bridged(_ stamp: ExportStamp) -> pe_stamp {
        var result = pe_stamp()
        result.item = Int32(clamping: stamp.item)
        result.source = Int32(clamping: stamp.source)
        result.page = Int32(clamping: stamp.page)
        result.under = stamp.under ? 1 : 0
        result.opacity = stamp.opacity
        guard let m = stamp.matrix else {
            preconditionFailure("a stamp exported without its matrix: ExportStamp.place works it out")
        }
        result.matrix = (m.a, m.b, m.c, m.d, m.e, m.f)
        if let text = stamp.text {
            result.text = copy(bytes: text.bytes)
            result.text_length = Int32(clamping: text.bytes.count)
            result.font = Int32(text.font.code)
            result.size = text.size
            result.actual_text = text.actualText.map { copy($0) }
            func bridged(_ color: TextColor?) -> (Int32, (Double, Double, Double, Double)) {
                guard let color else { return (0, (0, 0, 0, 0)) }
                let c = color.components + [0]
                return (Int32(color.components.count), (c[0], c[1], c[2], c[3]))
            }
            (result.color_components, result.color) = bridged(text.color)
            (result.background_components, result.background) = bridged(text.background)
            (result.outline_components, result.outline) = bridged(text.outline)
            let box = text.font.box(of: text.bytes, size: text.size)
            let pad = text.padding
            result.box = (-pad, box.descent - pad, box.width + pad, box.ascent + pad)
        } else {
            result.actual_text = stamp.actualText.map { copy($0) }
        }
        return result
    }

    /// An item's own label; no label is an empty one (no style, no prefix).
    private func bridged(_ label: PageLabelValue?) -> pe_page_label {
        guard let label else { return pe_page_label(style: 0, number: 1, prefix: emptyString) }
        let style: CChar = label.style == .none ? 0 : CChar(label.style.rawValue.utf8.first ?? 0)
        return pe_page_label(style: style, number: Int64(label.number), prefix: copy(label.prefix))
    }

    private func bridged(_ entry: ExportedOutlineEntry) -> pe_outline_item {
        var item = pe_outline_item()
        item.level = Int32(clamping: entry.level)
        item.title = copy(entry.title)
        item.page = entry.item.map { Int32(clamping: $0) } ?? -1
        item.cell = entry.cell.map { Int32(clamping: $0 + 1) } ?? 0
        item.open = entry.isOpen ? 1 : 0
        item.view = entry.view.map { copy($0.joined(separator: "\n")) }
        if let color = entry.color, color.count == 3 {
            item.has_color = 1
            item.color = (color[0], color[1], color[2])
        }
        item.flags = entry.style.map { Int32(clamping: $0) } ?? -1
        item.uri = entry.uri.map { copy($0) }
        item.action = entry.action.map { copy($0) }
        return item
    }

    /// `text` as a C string freed with this object.
    private func copy(_ text: String) -> UnsafePointer<CChar> {
        guard let copied = strdup(text) else { fatalError("out of memory") }
        strings.append(copied)
        return UnsafePointer(copied)
    }

    /// `bytes` in C memory freed with this object (with a NUL after them).
    private func copy(bytes: [UInt8]) -> UnsafePointer<CChar> {
        let memory = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { memory[index] = CChar(bitPattern: byte) }
        memory[bytes.count] = 0
        blocks.append(UnsafeMutableRawPointer(memory))
        return UnsafePointer(memory)
    }

    /// `values` in C memory freed with this object; nil when there are none.
    private func array<T>(_ values: [T]) -> UnsafePointer<T>? {
        guard !values.isEmpty else { return nil }
        let memory = UnsafeMutablePointer<T>.allocate(capacity: values.count)
        memory.initialize(from: values, count: values.count)
        blocks.append(UnsafeMutableRawPointer(memory))
        return UnsafePointer(memory)
    }
}

/// Carries `ExportOptions.progress` through the bridge's C callback.
private final class ProgressBox {
    let report: @Sendable (Int, Int) -> Void

    init(_ report: @escaping @Sendable (Int, Int) -> Void) {
        self.report = report
    }
}

extension ExportPermission {
    /// The bit of `pe_export_options.denied`.
    fileprivate var bridged: Int32 {
        switch self {
        case .print: Int32(PE_ALLOW_PRINT)
        case .copy: Int32(PE_ALLOW_COPY)
        case .modify: Int32(PE_ALLOW_MODIFY)
        case .annotate: Int32(PE_ALLOW_ANNOTATE)
        case .form: Int32(PE_ALLOW_FORM)
        case .assemble: Int32(PE_ALLOW_ASSEMBLE)
        }
    }
}
