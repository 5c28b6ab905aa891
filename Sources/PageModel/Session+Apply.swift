extension Edit {
    /// Whether carrying out this edit is recorded as an undo step: choosing the
    /// current document (`use`) is not, alone or in a script of nothing else.
    var isUndoStep: Bool {
        if case .useDocument = self { return false }
        return true
    }
}

/// The result of carrying out one edit on a working copy.
struct EditOutcome {
    var changes: [Change]
    var summary: ChangeSummary
}

extension Session {
    /// Applies one edit to document `doc` (nil: the current one) as one undo
    /// step labelled `label` (the command line, shown by `history`). All or
    /// nothing: on error the session is unchanged. A lone `useDocument` is
    /// not an undo step.
    @discardableResult
    package mutating func apply(
        _ edit: Edit, doc: String? = nil, label: String, context: EditContext = EditContext()
    ) throws(EditError) -> ChangeSummary {
        var working = self
        let currentBefore = current
        let outcome = try working.execute(edit, doc: doc, context: context)
        // A selection of the pages' contents that matched nothing changed nothing: no step.
        if outcome.summary.unmatched != nil { return outcome.summary }
        if edit.isUndoStep {
            working.history.record(
                HistoryStep(
                    label: label, changes: outcome.changes, currentBefore: currentBefore,
                    currentAfter: working.current))
        }
        self = working
        return outcome.summary
    }

    /// Applies edits in order, each seeing the result of the one before, as
    /// ONE undo step (for `pdfedit run SCRIPT`). All or nothing: the first
    /// failing edit is reported as `.batch(index:_:)` and nothing is applied.
    /// An empty list changes nothing and records no step.
    @discardableResult
    package mutating func applyAll(
        _ edits: [(edit: Edit, doc: String?)], label: String, context: EditContext = EditContext()
    ) throws(EditError) -> [ChangeSummary] {
        guard !edits.isEmpty else { return [] }
        var working = self
        // As on the command line, a `use` is not undone: the step starts at the
        // current document of its first undoable edit.
        var currentBefore: String?
        var changes: [Change] = []
        var summaries: [ChangeSummary] = []
        for (index, entry) in edits.enumerated() {
            if currentBefore == nil, entry.edit.isUndoStep { currentBefore = working.current }
            do {
                let outcome = try working.execute(entry.edit, doc: entry.doc, context: context)
                changes += outcome.changes
                summaries.append(outcome.summary)
            } catch {
                throw .batch(index: index, error)
            }
        }
        if let currentBefore {
            working.history.record(
                HistoryStep(label: label, changes: changes, currentBefore: currentBefore, currentAfter: working.current))
        }
        self = working
        return summaries
    }

    /// Carries out an edit on this (working) session without recording history,
    /// then checks that no document holds more items than `context.limits`
    /// allows (the one place every way of adding items passes).
    mutating func execute(_ edit: Edit, doc: String?, context: EditContext) throws(EditError) -> EditOutcome {
        let labelled = documents.filter { $0.labelRanges?.isEmpty == false }
        var outcome: EditOutcome
        let before = self
        do throws(EditError) {
            outcome = try carryOut(edit, doc: doc, context: context)
        } catch {
            // `text:`/`empty` matched no page: the edit changes nothing and succeeds.
            guard case .selection(.matchedNothing(let tokens, let count)) = error else { throw error }
            self = before
            let name = doc ?? current
            let words = tokens.map { "\"\(escapingControlCharacters($0))\"" }.joined(separator: ", ")
            var summary = ChangeSummary(
                action: "nothing", description: "\(words) matches no page of \"\(name)\": nothing changed",
                document: name, pageCount: count)
            summary.unmatched = tokens
            return EditOutcome(changes: [], summary: summary)
        }
        let fixes = labelRangeFixes(before: labelled)
        try commit(fixes)
        outcome.changes += fixes
        outcome.changes += try pruneOutlines()
        let limit = context.limits.itemsPerDocument
        if let document = documents.first(where: { $0.items.count > limit }) {
            throw .tooManyItems(document: document.name, count: document.items.count, limit: limit)
        }
        return outcome
    }

    private mutating func carryOut(_ edit: Edit, doc: String?, context: EditContext) throws(EditError) -> EditOutcome {
        let name = doc ?? current
        switch edit {
        case .move(let selection, let destination, let into):
            return try executeMove(selection, to: destination, into: into, in: name, context: context)
        case .copy(let selection, let destination, let into):
            return try executeCopy(selection, to: destination, into: into, in: name, context: context)
        case .duplicate(let selection):
            return try executeDuplicate(selection, in: name, context: context)
        case .remove(let selection):
            return try executeRemove(selection, in: name, context: context)
        case .rotate(let selection, let quarterTurns):
            return try executeRotate(selection, quarterTurns: quarterTurns, in: name, context: context)
        case .reverse(let selection):
            return try executeReverse(selection, in: name, context: context)
        case .interleave(let other, let reversed):
            return try executeInterleave(other: other, reversed: reversed, into: name)
        case .blank(let destination, let count, let size):
            return try executeBlank(at: destination, count: count, size: size, in: name, context: context)
        case .placeholder(let destination, let count, let size, let label):
            return try executePlaceholder(
                at: destination, count: count, size: size, label: label, in: name, context: context)
        case .insertItems(let contents, let destination, let newSources, let outlines):
            return try executeInsert(contents, at: destination, newSources: newSources, outlines: outlines, in: name)
        case .fill(let position, let contents, let newSources, let outlines):
            return try executeFill(position, contents: contents, newSources: newSources, outlines: outlines, in: name)
        case .newDocument(let newName):
            return try executeNewDocument(newName)
        case .renameDocument(let from, let to):
            return try executeRename(from: from, to: to)
        case .closeDocument(let closed):
            return try executeClose(closed)
        case .useDocument(let used):
            return try executeUse(used)
        case .relink(let source, let path, let size, let sha256, let pageCount):
            return try executeRelink(source, path: path, size: size, sha256: sha256, pageCount: pageCount)
        case .stamp(let selection, let stamp, let newSources, let each):
            return try executeStamp(selection, stamp, newSources: newSources, each: each, in: name, context: context)
        case .textStamp(let selection, let stamp):
            return try executeTextStamp(selection, stamp, in: name, context: context)
        case .unstamp(let selection):
            return try executeUnstamp(selection, in: name, context: context)
        case .labels(let specs):
            return try executeLabels(specs, in: name)
        case .metadata(let changes):
            return try executeMetadata(changes, in: name)
        case .outline(let outlineEdit, let sources):
            return try executeOutline(outlineEdit, sources: sources, in: name, context: context)
        case .crop(let selection, let spec, let box):
            return try executeCrop(selection, spec, box: box, in: name, context: context)
        case .nup(let selection, let columns, let rows, let size, let order, let gutter):
            return try executeNup(
                selection, columns: columns, rows: rows, size: size, order: order, gutter: gutter, in: name,
                context: context)
        case .booklet(let selection, let size):
            return try executeBooklet(selection, size: size, in: name, context: context)
        case .rearrange(let lines):
            return try executeRearrange(lines, in: name, context: context)
        case .splitPage(let selection, let columns, let rows):
            return try executeSplitPage(selection, columns: columns, rows: rows, in: name, context: context)
        case .pad(let multiple, let perSource, let size):
            return try executePad(multipleOf: multiple, perSource: perSource, size: size, in: name, context: context)
        case .blankAfterEach(let selection, let size):
            return try executeBlankAfterEach(selection, size: size, in: name, context: context)
        case .resize(let selection, let size, let mode):
            return try executeResize(selection, to: size, mode: mode, in: name, context: context)
        case .finish(let selection, let finish):
            return try executeFinish(selection, finish, in: name, context: context)
        case .strip(let part):
            return try executeStrip(part, in: name)
        case .attach(let files, let page):
            return try executeAttach(files, page: page, in: name, context: context)
        case .detach(let names):
            return try executeDetach(names, in: name, context: context)
        case .redact(let selection, let target, let fill, let label):
            return try executeRedact(selection, target, fill: fill, label: label, in: name, context: context)
        case .optimize(let settings):
            return try executeOptimize(settings, in: name)
        }
    }

    /// Performs changes an edit has just built and checked.
    mutating func commit(_ changes: [Change]) throws(EditError) {
        for change in changes {
            do {
                try perform(change)
            } catch {
                // Edits check everything before building changes; reaching this is a bug.
                throw .historyCorrupt("internal: \(error.reason)")
            }
        }
    }
}
