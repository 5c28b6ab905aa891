internal import PDFEngine
import PageModel

/// What an insert did beside its edit: the files a `keepGoing` insert skipped,
/// and the damage it got past.
package struct InsertOutcome {
    /// Why each skipped file could not be used, in argument order.
    package var skipped: [PDFEditError] = []
    /// How many files the insert was given.
    package var given = 0
    /// One per damaged file that was inserted anyway.
    package var warnings: [Warning] = []

    /// The error that ends a command whose edit succeeded but skipped files (exit 3).
    package var partialImport: PDFEditError? {
        skipped.isEmpty ? nil : .partialImport(skipped: skipped, total: given)
    }
}

/// The edits that bring files in: each loads its files through the one loader
/// and says, as the model's `Edit`, where their pages go.
extension Importer {
    /// `insert FILE... [--at N] [--fit SIZE] [--keep-going]`: every file becomes
    /// items (a PDF all its pages, an image one page), in argument order. One
    /// unusable file fails the insert and every bad file is named; with
    /// `keepGoing` the usable ones are inserted and the skipped ones reported in
    /// the outcome — unless none is usable, which fails like a plain insert.
    package func insertEdit(
        _ paths: [String], at destination: Destination?, fit: PageSize?, keepGoing: Bool,
        progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> (edit: Edit, outcome: InsertOutcome) {
        var loaded: [ImportedFile] = []
        var failed: [PDFEditError] = []
        for result in loadEach(paths, fit: fit, progress: progress) {
            switch result {
            case .success(let file): loaded.append(file)
            case .failure(let error): failed.append(.engine(error))
            }
        }
        var outcome = InsertOutcome(given: paths.count)
        if !failed.isEmpty {
            guard keepGoing, !loaded.isEmpty else { throw failed.count == 1 ? failed[0] : .several(failed) }
            outcome.skipped = failed
        }
        outcome.warnings = loaded.flatMap { Warning.damage(of: $0.source.path, messages: $0.warnings) }
        let edit = Edit.insertItems(
            contents: loaded.flatMap(\.contents), at: destination, newSources: loaded.map(\.source),
            outlines: loaded.compactMap(\.sourceOutline))
        return (edit, outcome)
    }

    /// `fill P FILE [--fit SIZE]`: the placeholder at `position` becomes the file's pages.
    package func fillEdit(_ position: Position, file: String, fit: PageSize?) throws(PDFEditError) -> Edit {
        let loaded = try load([file], fit: fit)
        return .fill(
            position, contents: loaded.flatMap(\.contents), newSources: loaded.map(\.source),
            outlines: loaded.compactMap(\.sourceOutline))
    }

    /// `stamp SEL FILE [--page K] …`: page `page` of `file` drawn on the selected
    /// pages. The page must exist: an image has only page 1.
    package func stampEdit(
        _ selection: PageSelection, file: String, page: Int, under: Bool, fit: Bool, opacity: Double,
        placement: StampPlacement = StampPlacement(), each: StampEach? = nil
    ) throws(PDFEditError) -> Edit {
        guard page >= 1 else { throw PDFEditError.usage("--page takes a page number from 1, not \(page)") }
        guard let loaded = try load([file]).first else {
            throw PDFEditError.usage("\(file): nothing to stamp with")
        }
        if loaded.source.kind == .image && page != 1 {
            throw PDFEditError.usage("\(file) is an image: it has only page 1")
        }
        if page > loaded.source.pageCount {
            throw PDFEditError.usage(
                "\(file) has \(loaded.source.pageCount) page\(loaded.source.pageCount == 1 ? "" : "s"): "
                    + "there is no page \(page)")
        }
        return .stamp(
            selection, Stamp(
                source: loaded.source.id, page: page, under: under, fit: fit, opacity: opacity, placement: placement),
            newSources: [loaded.source], each: each)
    }
}
