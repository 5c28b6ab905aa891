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
    /// Whether no path of the page tree nests more than `PageTree.maximumDepth`
    /// /Pages levels, measured without recursion (and without qpdf's recursive
    /// walk) by `withinDepth`, which follows every path (a node with two parents
    /// is measured by the deeper one) and leaves loops to qpdf. A qpdf error met on
    /// the way stops the walk and is left for the caller's next check to report.
    func pageTreeIsWithinDepth() -> Bool {
        let data = handle
        let root = qpdf_get_root(data)
        defer { qpdf_oh_release(data, root) }
        guard qpdf_has_error(data) == QPDF_FALSE, qpdf_oh_is_dictionary(data, root) != QPDF_FALSE,
            qpdf_oh_has_key(data, root, "/Pages") != QPDF_FALSE
        else { return true }
        return withinDepth(
            [qpdf_oh_get_key(data, root, "/Pages")], limit: PageTree.maximumDepth, links: [("/Kids", 1)],
            enter: { qpdf_oh_has_key(data, $0, "/Kids") != QPDF_FALSE })
    }
}
