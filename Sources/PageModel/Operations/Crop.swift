extension Session {
    /// `crop SEL --margins … | --rect … | --reset [--box KIND]`: sets box `box`
    /// of each selected item (content is never touched). Margins are measured on
    /// the page as displayed, inward from the item's current visible box (its
    /// crop, or the source's); `--rect` is absolute in default user space. The
    /// history stores one `rebox` per group of items with the same boxes before
    /// and after.
    mutating func executeCrop(
        _ selection: PageSelection, _ spec: CropSpec, box: PageBoxKind, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        var groups: [(from: PageBoxes, to: PageBoxes, indices: [Int])] = []
        var groupOf: [PageBoxes: [PageBoxes: Int]] = [:]
        var withoutInk = 0
        for index in selected {
            let item = document.items[index]
            var boxes = item.boxes
            switch spec {
            case .reset:
                boxes[box] = nil
            case .rect(let rect):
                guard rect.isValid else {
                    throw .invalidCrop("the rectangle \(rect) has no area (x0 < x1 and y0 < y1 are needed)")
                }
                boxes[box] = rect
            case .auto(let pad):
                guard pad.isFinite else { throw .invalidCrop("--pad must be a finite length") }
                switch Session.ink(of: item, context: context) {
                case nil:
                    switch item.content {
                    case .image, .placeholder:
                        throw .invalidCrop(
                            "position \(index + 1) is \(item.content.kindName == "image" ? "an image" : "a placeholder"): "
                                + "crop --auto finds the ink of PDF pages only (use --margins or --rect)")
                    default:
                        throw .invalidCrop("cannot find the ink of page \(index + 1) by rendering it")
                    }
                case .none?:
                    withoutInk += 1
                    continue  // a page without ink keeps its box
                case .box(let ink)?:
                    let rect = BoxRect(x0: ink.x0 - pad, y0: ink.y0 - pad, x1: ink.x1 + pad, y1: ink.y1 + pad)
                    guard rect.isValid else { throw .invalidCrop("--pad \(BoxRect.number(pad)) leaves nothing of page \(index + 1)") }
                    // A speck of ink still makes a page: at least the smallest side, around it.
                    boxes[box] = rect.grown(toAtLeast: PageSize.minimumSide)
                }
            case .margins(let margins):
                guard let frame = Session.frame(of: item, context: context) else {
                    throw .pageSizeUnknown(position: index + 1, document: name)
                }
                let visible = item.boxes.crop ?? frame.visibleBox
                let rect = margins.applied(to: visible, quarterTurns: frame.quarterTurns + item.rotation)
                guard rect.isValid else {
                    throw .invalidCrop(
                        "margins \(margins) leave nothing of page \(index + 1) "
                            + "(\(BoxRect.number(visible.width)) × \(BoxRect.number(visible.height)) pt)")
                }
                boxes[box] = rect
            }
            guard boxes != item.boxes else { continue }
            if spec != .reset, let problem = Session.sizeProblem(of: boxes, on: item, context: context) {
                throw .invalidCrop("page \(index + 1): \(problem)")
            }
            if let group = groupOf[item.boxes]?[boxes] {
                groups[group].indices.append(index)
            } else {
                groupOf[item.boxes, default: [:]][boxes] = groups.count
                groups.append((item.boxes, boxes, [index]))
            }
        }
        guard !groups.isEmpty else {
            throw .invalidCrop(
                spec == .reset
                    ? "none of the selected pages has its own \(box.rawValue) box"
                    : withoutInk == selected.count ? "none of the selected pages has ink to crop to"
                    : "the pages already have that box")
        }
        let changes: [Change] = groups.map {
            .rebox(document: name, at: IndexRuns(ascending: $0.indices), from: $0.from, to: $0.to)
        }
        try commit(changes)

        let result = try requireDocument(name)
        let changed = groups.flatMap(\.indices).sorted()
        let what: String
        switch spec {
        case .reset: what = "reset the \(box.rawValue) box of"
        case .rect(let rect): what = "set the \(box.rawValue) box \(rect) on"
        case .margins(let margins): what = "cropped (\(box.rawValue) box, margins \(margins) pt)"
        case .auto(let pad): what = "cropped to the ink (\(box.rawValue) box, pad \(BoxRect.number(pad)) pt)"
        }
        let skipped = withoutInk == 0 ? "" : "; \(countPhrase(withoutInk, "page")) without ink kept"
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: "crop",
                description: "\(what) \(countPhrase(changed.count, "page")) (\(pagesPhrase(result.pageCount)))\(skipped)",
                document: name, pageCount: result.pageCount, positions: changed.map { $0 + 1 },
                ids: changed.map { result.items[$0].id }))
    }

    /// Why the page an item's `boxes` make breaks the page-size rule
    /// (`PageSize.isValidPageSize`), nil when it does not: its crop box must be
    /// at least 3 units a side, and export grows the MediaBox to hold every box,
    /// which must stay within 14,400 units a side — or within the item's own
    /// MediaBox when that is larger (a blank page written with a /UserUnit). A
    /// crop cannot give a page a /UserUnit: that would scale its content too.
    static func sizeProblem(of boxes: PageBoxes, on item: PageItem, context: EditContext) -> String? {
        if let crop = boxes.crop, min(crop.width, crop.height) < PageSize.minimumSide {
            return "the crop box would be \(formatPoints(crop.width)) × \(formatPoints(crop.height)) pt; "
                + "a page is at least \(formatPoints(PageSize.minimumSide)) pt a side"
        }
        guard let frame = frame(of: item, context: context) else { return nil }
        let media = frame.mediaBox
        let grown = PageBoxKind.allCases.compactMap { boxes[$0] }.reduce(media) { $0.union($1) }
        let largest = max(PageSize.maximumUnits, media.width, media.height)
        guard max(grown.width, grown.height) > largest else { return nil }
        return "the boxes would make the page \(formatPoints(grown.width)) × \(formatPoints(grown.height)) units; "
            + "a page is at most \(formatPoints(largest)) units a side"
    }

    /// The source geometry of an item: blank pages, placeholders and resized
    /// items are `[0 0 W H]` unrotated; pages and images ask the context.
    static func frame(of item: PageItem, context: EditContext) -> PageFrame? {
        if let resize = item.resize {
            let box = BoxRect(x0: 0, y0: 0, x1: resize.size.width, y1: resize.size.height)
            return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: 0)
        }
        switch item.content {
        case .blank(let size), .placeholder(let size, _):
            let box = BoxRect(x0: 0, y0: 0, x1: size.width, y1: size.height)
            return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: 0)
        case .sheet(let sheet):
            let box = BoxRect(x0: 0, y0: 0, x1: sheet.size.width, y1: sheet.size.height)
            return PageFrame(mediaBox: box, visibleBox: box, quarterTurns: 0)
        case .page, .image:
            return context.pageFrame?(item)
        }
    }

    /// The ink of an item's page: blank pages and placeholders have none; a
    /// resized item's is its source page's placed by the resize, on the new page.
    static func ink(of item: PageItem, context: EditContext) -> PageInk? {
        switch item.content {
        case .blank, .placeholder: return PageInk.none
        case .sheet: return context.pageInk?(item)
        case .page, .image: break
        }
        guard let resize = item.resize else { return context.pageInk?(item) }
        guard let ink = context.pageInk?(item), let frame = context.pageFrame?(item) else { return nil }
        guard case .box(let box) = ink else { return ink }
        let shown = resize.shownBox(for: frame)
        let inside = BoxRect(
            x0: max(box.x0, shown.x0), y0: max(box.y0, shown.y0), x1: min(box.x1, shown.x1), y1: min(box.y1, shown.y1))
        guard inside.isValid else { return PageInk.none }
        let placed = resize.matrix(for: frame).apply(inside)
        let page = BoxRect(
            x0: max(placed.x0, 0), y0: max(placed.y0, 0), x1: min(placed.x1, resize.size.width),
            y1: min(placed.y1, resize.size.height))
        return page.isValid ? .box(page) : PageInk.none
    }

    /// Performs a `rebox` change on document `index` (bounds already checked).
    mutating func rebox(document index: Int, at: IndexRuns, from: PageBoxes, to: PageBoxes) throws(ChangeFailure) {
        for run in at.runs {
            for i in run where documents[index].items[i].boxes != from {
                throw ChangeFailure(
                    reason: "the boxes of \(documents[index].items[i].id) are not as the history recorded them")
            }
        }
        for run in at.runs {
            for i in run { documents[index].items[i].boxes = to }
        }
    }
}
