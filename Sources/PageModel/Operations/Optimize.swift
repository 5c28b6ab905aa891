extension Session {
    /// `optimize` in a session: the document's exports are written with
    /// `settings` (nil: as each export asks, `optimize --off`). One step; setting
    /// what is already set is refused, so a step always changes something.
    mutating func executeOptimize(_ settings: OptimizeSettings?, in name: String) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        guard document.optimize != settings else {
            throw .invalidFinish(
                settings == nil
                    ? "\(quoted(name)) has no export settings to clear"
                    : "\(quoted(name)) is already exported \(settings?.description ?? "")")
        }
        let changes: [Change] = [.reoptimize(document: name, from: document.optimize, to: settings)]
        try commit(changes)
        let description =
            settings.map { "exports of \(quoted(name)) will be written \($0.description)" }
            ?? "exports of \(quoted(name)) will be written as each export asks"
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(action: "optimize", description: description, document: name, pageCount: document.pageCount))
    }
}
