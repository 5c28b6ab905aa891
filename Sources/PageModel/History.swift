/// The undo/redo history: a list of steps, the last `undoneCount` of which
/// are undone (the redo tail). A step keeps the primitive changes it made,
/// which undo inverts and redo replays, so ids, rotations, counters and the
/// current document come back exactly.
package struct History: Equatable, Sendable {
    var steps: [HistoryStep]
    /// How many steps at the end are undone and can be redone.
    package internal(set) var undoneCount: Int

    package init() {
        steps = []
        undoneCount = 0
    }

    init(steps: [HistoryStep], undoneCount: Int) {
        self.steps = steps
        self.undoneCount = undoneCount
    }

    /// Steps that `undo` can take back.
    package var undoableCount: Int { steps.count - undoneCount }
    package var redoableCount: Int { undoneCount }

    /// For the `history` command, oldest first.
    package var entries: [HistoryEntry] {
        steps.enumerated().map { offset, step in
            HistoryEntry(index: offset + 1, label: step.label, isUndone: offset >= undoableCount)
        }
    }

    /// A new step; the redo tail is dropped, as in every editor.
    mutating func record(_ step: HistoryStep) {
        steps.removeLast(undoneCount)
        undoneCount = 0
        steps.append(step)
    }
}

/// One line of `history`.
package struct HistoryEntry: Codable, Equatable, Sendable {
    /// 1-based, oldest first.
    package var index: Int
    /// The command line that made the step.
    package var label: String
    /// Whether the step is undone (and can be redone).
    package var isUndone: Bool

    package init(index: Int, label: String, isUndone: Bool) {
        self.index = index
        self.label = label
        self.isUndone = isUndone
    }
}

/// One undo step: what one command (or one script) changed.
struct HistoryStep: Equatable, Sendable {
    var label: String
    var changes: [Change]
    /// The current document before and after the step: undo and redo put it
    /// back, whatever `use` did in between.
    var currentBefore: String
    var currentAfter: String
}

extension Session {
    /// For the `history` command, oldest first.
    package var historyEntries: [HistoryEntry] { history.entries }

    /// Takes back the last `steps` steps, newest first; returns their labels
    /// in that order. All or nothing.
    package mutating func undo(_ steps: Int = 1) throws(EditError) -> [String] {
        guard steps >= 1 else { throw .invalidStepCount(steps) }
        let available = history.undoableCount
        guard steps <= available else { throw .nothingToUndo(requested: steps, available: available) }
        var working = self
        var labels: [String] = []
        for offset in 0..<steps {
            let step = history.steps[available - 1 - offset]
            for change in step.changes.reversed() {
                try working.performRecorded(change.inverse)
            }
            try working.setCurrentRecorded(step.currentBefore)
            labels.append(step.label)
        }
        working.history.undoneCount += steps
        try working.checkAfterHistoryReplay()
        self = working
        return labels
    }

    /// Replays the next `steps` undone steps, oldest first; returns their
    /// labels in that order. All or nothing.
    package mutating func redo(_ steps: Int = 1) throws(EditError) -> [String] {
        guard steps >= 1 else { throw .invalidStepCount(steps) }
        let available = history.redoableCount
        guard steps <= available else { throw .nothingToRedo(requested: steps, available: available) }
        var working = self
        var labels: [String] = []
        let first = history.undoableCount
        for index in first..<(first + steps) {
            let step = history.steps[index]
            for change in step.changes {
                try working.performRecorded(change)
            }
            try working.setCurrentRecorded(step.currentAfter)
            labels.append(step.label)
        }
        working.history.undoneCount -= steps
        try working.checkAfterHistoryReplay()
        self = working
        return labels
    }

    private mutating func performRecorded(_ change: Change) throws(EditError) {
        do {
            try perform(change)
        } catch {
            throw .historyCorrupt(error.reason)
        }
    }

    private mutating func setCurrentRecorded(_ name: String) throws(EditError) {
        guard documentIndex(name) != nil else { throw .historyCorrupt("no document \(quoted(name)) to make current") }
        current = name
    }

    /// A hand-edited history could break what the changes themselves do not check.
    private func checkAfterHistoryReplay() throws(EditError) {
        if let problem = firstInconsistency() {
            throw .historyCorrupt(problem.description)
        }
    }
}

extension Session {
    /// The session as it was after step `step` of its history (0: before the
    /// first), undone or redone from this one, for `diff --history`; its
    /// history is this one's. `nil` for a step the history does not have.
    package func state(afterStep step: Int) throws(EditError) -> Session? {
        guard step >= 0, step <= history.steps.count else { return nil }
        var state = self
        let done = history.undoableCount
        if step < done { _ = try state.undo(done - step) }
        if step > done { _ = try state.redo(step - done) }
        return state
    }
}
