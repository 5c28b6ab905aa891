/// What of an item `resize` freezes and `reshape` changes and undoes.
package struct ItemShape: Codable, Equatable, Hashable, Sendable {
    package var rotation: Int
    package var boxes: PageBoxes
    package var resize: PageResize?

    package init(rotation: Int, boxes: PageBoxes, resize: PageResize?) {
        self.rotation = rotation
        self.boxes = boxes
        self.resize = resize
    }
}

extension PageItem {
    var shape: ItemShape {
        get { ItemShape(rotation: rotation, boxes: boxes, resize: resize) }
        set {
            rotation = newValue.rotation
            boxes = newValue.boxes
            resize = newValue.resize
        }
    }
}

extension Session {
    /// `resize SEL --to SIZE [--fit|--fill]`: each selected item's page becomes
    /// SIZE, showing what the item showed — its rotation and crop are frozen into
    /// the resize and the item gets rotation 0 and no boxes, so a later `rotate`
    /// or `crop` acts on the resized page. Resizing a resized item again re-fits
    /// what it shows now to the new size: its later turns and crop are folded
    /// into the frozen ones (the crop mapped back onto the source page), and the
    /// first resize's margins are not kept (no page within a page). Blank pages
    /// and placeholders simply become SIZE. One `reshape` per group of items with
    /// the same shape before and after.
    mutating func executeResize(
        _ selection: PageSelection, to size: PageSize, mode: ResizeMode, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        guard size.isValidPageSize else {
            throw .invalidResize("\(size) is not a page size (each side 3 pt to 15,000,000 in)")
        }
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        var groups: [(from: ItemShape, to: ItemShape, indices: [Int])] = []
        var groupOf: [ItemShape: [ItemShape: Int]] = [:]
        for index in selected {
            let item = document.items[index]
            let shape = try Session.resized(item, to: size, mode: mode, context: context, position: index + 1, in: name)
            guard shape != item.shape else { continue }
            if let group = groupOf[item.shape]?[shape] {
                groups[group].indices.append(index)
            } else {
                groupOf[item.shape, default: [:]][shape] = groups.count
                groups.append((item.shape, shape, [index]))
            }
        }
        guard !groups.isEmpty else { throw .invalidResize("the pages are already \(size), \(mode.rawValue)") }
        var changes: [Change] = groups.map {
            .reshape(document: name, at: IndexRuns(ascending: $0.indices), from: $0.from, to: $0.to)
        }
        // Pending redactions move with the content onto the new paper, in the
        // same undo step.
        for group in groups {
            for index in group.indices {
                let item = document.items[index]
                guard let moved = try Session.regions(of: item, reshapedTo: group.to, context: context, position: index + 1, in: name)
                else { continue }
                changes.append(.refinish(document: name, at: IndexRuns(ascending: [index]), from: item.finish, to: moved))
            }
        }
        try commit(changes)

        let result = try requireDocument(name)
        let changed = groups.flatMap(\.indices).sorted()
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "resize",
                description: "resized \(countPhrase(changed.count, "page")) to \(size) (\(mode.rawValue)) "
                    + "(\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: changed.map { $0 + 1 },
                ids: changed.map { result.items[$0].id }))
    }

    /// `item`'s finishing steps with its pending regions (`redact`) carried
    /// from the page it has to the page `shape` gives it: a region is kept in
    /// the default user space of the page export writes, and a resize scales
    /// and moves the content onto new paper (rotations and crops leave that
    /// space alone). Nil when the item has no region or no content to scale.
    static func regions(
        of item: PageItem, reshapedTo shape: ItemShape, context: EditContext, position: Int, in name: String
    ) throws(EditError) -> [PageFinish]? {
        guard item.finish.contains(where: { if case .redact = $0 { true } else { false } }) else { return nil }
        switch item.content {
        case .page, .image: break
        case .blank, .placeholder, .sheet: return nil  // no content is scaled (a blank simply becomes the size)
        }
        guard let frame = context.pageFrame?(item), let to = shape.resize?.matrix(for: frame) else {
            throw .pageSizeUnknown(position: position, document: name)
        }
        // The old page's user space back onto the source page, then onto the new paper.
        let back = item.resize.map { $0.matrix(for: frame).inverse } ?? PlacementMatrix.identity
        guard let back else { throw .pageSizeUnknown(position: position, document: name) }
        return item.finish.map { step in
            guard case .redact(var region) = step else { return step }
            region.rect = to.apply(back.apply(region.rect))
            return .redact(region)
        }
    }

    /// The shape `item` gets from `resize --to size`.
    static func resized(
        _ item: PageItem, to size: PageSize, mode: ResizeMode, context: EditContext, position: Int, in name: String
    ) throws(EditError) -> ItemShape {
        switch item.content {
        case .blank, .placeholder:
            // Nothing to scale: the page is simply SIZE (the blank's own size is kept
            // in its content; the resize says what it shows).
            return ItemShape(rotation: 0, boxes: PageBoxes(), resize: PageResize(size: size, mode: mode))
        case .sheet:
            throw .invalidSheet(
                "the item at position \(position) is a sheet: its paper is set by nup or booklet --size "
                    + "(undo it and impose again with --size)")
        case .page, .image:
            break
        }
        guard let previous = item.resize else {
            return ItemShape(
                rotation: 0, boxes: PageBoxes(),
                resize: PageResize(size: size, mode: mode, quarterTurns: item.rotation, crop: item.boxes.crop))
        }
        var crop = previous.crop
        if let later = item.boxes.crop {
            // The later crop, on the resized page, mapped back onto the source page.
            guard let frame = context.pageFrame?(item), let back = previous.matrix(for: frame).inverse else {
                throw .pageSizeUnknown(position: position, document: name)
            }
            let shown = previous.shownBox(for: frame)
            let mapped = back.apply(later)
            let inside = BoxRect(
                x0: max(mapped.x0, shown.x0), y0: max(mapped.y0, shown.y0),
                x1: min(mapped.x1, shown.x1), y1: min(mapped.y1, shown.y1))
            guard inside.isValid else {
                throw .invalidResize("the crop of page \(position) shows nothing of its content to resize")
            }
            crop = inside
        }
        return ItemShape(
            rotation: 0, boxes: PageBoxes(),
            resize: PageResize(
                size: size, mode: mode, quarterTurns: (previous.quarterTurns + item.rotation) % 4, crop: crop))
    }

    /// Performs a `reshape` change on document `index` (bounds already checked).
    mutating func reshape(document index: Int, at: IndexRuns, from: ItemShape, to: ItemShape) throws(ChangeFailure) {
        for run in at.runs {
            for i in run where documents[index].items[i].shape != from {
                throw ChangeFailure(
                    reason: "the shape of \(documents[index].items[i].id) is not as the history recorded it")
            }
        }
        for run in at.runs {
            for i in run { documents[index].items[i].shape = to }
        }
    }
}
