import CQPDF

extension QPDFDocument {
    /// Refuses (65, over a limit) a file with a tree nested deeper than
    /// `PageTree.maximumDepth` levels (the `Limits.treeDepth` default) among the
    /// ones poppler walks recursively when it loads or shows a file: the
    /// page-label number tree, the name trees under /Names, the form-field tree
    /// (/AcroForm /Fields → /Kids) and the outline (/First). A page-label tree
    /// nested 50,000 levels crashed poppler (SIGSEGV in `info`, `list`, `show`);
    /// 2,000 nested fields took `show` more than a minute. Checked here, with
    /// qpdf and without recursion, before any poppler document of the file exists:
    /// every file enters through a qpdf open, and a session's source is only
    /// handed to poppler after its fingerprint matched the file checked here.
    func checkTreeDepths() throws(EngineError) {
        let data = handle
        let root = qpdf_get_root(data)
        defer { qpdf_oh_release(data, root) }
        guard qpdf_has_error(data) == QPDF_FALSE, qpdf_oh_is_dictionary(data, root) != QPDF_FALSE else { return }
        let limit = PageTree.maximumDepth
        func refuse(_ tree: String) -> EngineError {
            .overLimit(file: path, page: nil, what: "its \(tree) is nested more than \(limit) levels deep")
        }
        if let labels = key(root, "/PageLabels") {
            defer { qpdf_oh_release(data, labels) }
            if !withinDepth([labels], limit: limit, links: [("/Kids", 1)]) { throw refuse("page-label tree") }
        }
        if let names = key(root, "/Names") {
            defer { qpdf_oh_release(data, names) }
            var trees: [qpdf_oh] = []
            if qpdf_oh_is_dictionary(data, names) != QPDF_FALSE {
                var keys: [String] = []
                qpdf_oh_begin_dict_key_iter(data, names)
                while qpdf_oh_dict_more_keys(data) != QPDF_FALSE {
                    if let name = qpdf_oh_dict_next_key(data) { keys.append(String(cString: name)) }
                }
                trees = keys.compactMap { key(names, $0) }
            }
            if !withinDepth(trees, limit: limit, links: [("/Kids", 1)]) { throw refuse("name tree") }
        }
        if let form = key(root, "/AcroForm") {
            defer { qpdf_oh_release(data, form) }
            if let fields = key(form, "/Fields") {
                defer { qpdf_oh_release(data, fields) }
                var tops: [qpdf_oh] = []
                if qpdf_oh_is_array(data, fields) != QPDF_FALSE {
                    let count = qpdf_oh_get_array_n_items(data, fields)
                    tops = (0..<count).map { qpdf_oh_get_array_item(data, fields, $0) }
                }
                if !withinDepth(tops, limit: limit, links: [("/Kids", 1)]) { throw refuse("form-field tree") }
            }
        }
        if let outlines = key(root, "/Outlines") {
            defer { qpdf_oh_release(data, outlines) }
            // /First goes one level down, /Next to a sibling on the same level.
            if !withinDepth([outlines], limit: limit, links: [("/First", 1), ("/Next", 0)]) {
                throw refuse("outline")
            }
        }
    }

    /// The value of `key` in a dictionary, nil when it is absent or null (the
    /// caller releases it).
    private func key(_ dictionary: qpdf_oh, _ key: String) -> qpdf_oh? {
        let data = handle
        guard qpdf_oh_is_dictionary(data, dictionary) != QPDF_FALSE,
            qpdf_oh_has_key(data, dictionary, key) != QPDF_FALSE
        else { return nil }
        let value = qpdf_oh_get_key(data, dictionary, key)
        if qpdf_oh_is_null(data, value) != QPDF_FALSE {
            qpdf_oh_release(data, value)
            return nil
        }
        return value
    }

    /// Whether no path from `roots` (level 1, released here) nests more than
    /// `limit` levels, following `links`: a key whose value (a dictionary, or an
    /// array of them) is `delta` levels further down; `enter` says which
    /// dictionaries count as nodes. Depth-first without recursion, as the bridge's
    /// `within_depth`: a node reached again by a deeper path is walked again from
    /// there (a node with two parents must not hide the deeper path the recursive
    /// readers follow), one on the current path is a loop and is not (qpdf reports
    /// loops itself). A node is re-entered only when its depth grows.
    func withinDepth(
        _ roots: [qpdf_oh], limit: Int, links: [(key: String, delta: Int)], enter: (qpdf_oh) -> Bool = { _ in true }
    ) -> Bool {
        let data = handle
        struct Frame {
            var node: qpdf_oh
            var id: Int
            var children: [(node: qpdf_oh, depth: Int)]
            var index = 0
        }
        var frames: [Frame] = []
        var waiting = roots[...]
        var deepest: [Int: Int] = [:]
        var onPath = Set<Int>()
        defer {
            for frame in frames {
                qpdf_oh_release(data, frame.node)
                for child in frame.children[frame.index...] { qpdf_oh_release(data, child.node) }
            }
            for root in waiting { qpdf_oh_release(data, root) }
        }
        /// Enters `node` (owned: released here or when its frame ends); false past the limit.
        func push(_ node: qpdf_oh, depth: Int) -> Bool {
            guard qpdf_has_error(data) == QPDF_FALSE, qpdf_oh_is_dictionary(data, node) != QPDF_FALSE, enter(node)
            else {
                qpdf_oh_release(data, node)
                return true
            }
            let id = Int(qpdf_oh_get_object_id(data, node))
            if id != 0 {
                if onPath.contains(id) || (deepest[id] ?? 0) >= depth {
                    qpdf_oh_release(data, node)
                    return true
                }
                deepest[id] = depth
                onPath.insert(id)
            }
            if depth > limit {
                qpdf_oh_release(data, node)
                return false
            }
            var children: [(node: qpdf_oh, depth: Int)] = []
            for link in links {
                guard let value = key(node, link.key) else { continue }
                if qpdf_oh_is_array(data, value) != QPDF_FALSE {
                    defer { qpdf_oh_release(data, value) }
                    for index in 0..<qpdf_oh_get_array_n_items(data, value) {
                        children.append((qpdf_oh_get_array_item(data, value, index), depth + link.delta))
                    }
                } else {
                    children.append((value, depth + link.delta))
                }
            }
            frames.append(Frame(node: node, id: id, children: children))
            return true
        }
        while let root = waiting.popFirst() {
            guard push(root, depth: 1) else { return false }
            while let last = frames.indices.last {
                if frames[last].index == frames[last].children.count {
                    let frame = frames.removeLast()
                    qpdf_oh_release(data, frame.node)
                    if frame.id != 0 { onPath.remove(frame.id) }
                    continue
                }
                let child = frames[last].children[frames[last].index]
                frames[last].index += 1
                guard push(child.node, depth: child.depth) else { return false }
            }
        }
        return true
    }
}
