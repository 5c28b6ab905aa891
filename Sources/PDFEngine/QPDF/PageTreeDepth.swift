import CQPDF
import QPDFBridge

/// How deep a page tree may nest before it is refused.
///
/// qpdf walks the page tree recursively (`QPDF::getAllPages`,
/// `pushInheritedAttributesToPage`), a few hundred bytes of stack per level: a
/// crafted file whose /Pages nodes nest some 20,000 levels deep overflowed the
/// stack (SIGSEGV) at `open`, and less than 5,000 levels did at export under a
/// 1 MB stack (`ulimit -s 1024`). Real files nest a handful of levels; 1,024 is
/// also the limit PDFium enforces (`CPDF_Document::kMaxPageLevel`). The bridge
/// checks the same limit for the files it opens (`page_tree_maximum_depth`).
public enum PageTree {
    /// The limit in force (`Limits.treeDepth`, 1,024 unless set): one value for the
    /// bridge's walks and these (`pe_tree_depth_limit`).
    public static var maximumDepth: Int { Int(pe_tree_depth_limit()) }

    /// Sets the limit for this process (`PDFEDIT_MAX_DEPTH`); the kit calls it once.
    public static func setMaximumDepth(_ levels: Int) {
        pe_set_tree_depth_limit(Int32(clamping: levels))
    }
}

extension QPDFDocument {
    /// The number of /Pages levels on the deepest path of the page tree, found
    /// without recursion (and without qpdf's recursive walk), or nil once it is
    /// more than `PageTree.maximumDepth`. Nodes already seen are not entered
    /// again, so a loop ends the walk (qpdf reports the loop itself afterwards).
    /// Handles are released as the walk goes, so a 100,000-page tree does not
    /// leave 100,000 handles behind. A qpdf error met on the way stops the walk and
    /// is left for the caller's next check to report.
    func pageTreeDepth() -> Int? {
        let data = handle
        let root = qpdf_get_root(data)
        defer { qpdf_oh_release(data, root) }
        guard qpdf_has_error(data) == QPDF_FALSE, qpdf_oh_is_dictionary(data, root) != QPDF_FALSE,
            qpdf_oh_has_key(data, root, "/Pages") != QPDF_FALSE
        else { return 0 }
        var pending: [(node: qpdf_oh, depth: Int)] = [(qpdf_oh_get_key(data, root, "/Pages"), 1)]
        var seen = Set<Int>()
        var deepest = 0
        defer { for entry in pending { qpdf_oh_release(data, entry.node) } }
        while let (node, depth) = pending.popLast() {
            defer { qpdf_oh_release(data, node) }
            guard qpdf_has_error(data) == QPDF_FALSE, qpdf_oh_is_dictionary(data, node) != QPDF_FALSE,
                qpdf_oh_has_key(data, node, "/Kids") != QPDF_FALSE
            else { continue }
            let id = Int(qpdf_oh_get_object_id(data, node))
            if id != 0 {
                guard seen.insert(id).inserted else { continue }
            }
            deepest = max(deepest, depth)
            if deepest > PageTree.maximumDepth { return nil }
            let kids = qpdf_oh_get_key(data, node, "/Kids")
            defer { qpdf_oh_release(data, kids) }
            guard qpdf_oh_is_array(data, kids) != QPDF_FALSE else { continue }
            for index in 0..<qpdf_oh_get_array_n_items(data, kids) {
                let kid = qpdf_oh_get_array_item(data, kids, index)
                if qpdf_oh_is_dictionary(data, kid) != QPDF_FALSE, qpdf_oh_has_key(data, kid, "/Kids") != QPDF_FALSE {
                    pending.append((kid, depth + 1))
                } else {
                    qpdf_oh_release(data, kid)
                }
            }
        }
        return deepest
    }
}
