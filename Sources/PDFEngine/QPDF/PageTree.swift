import QPDFCore

/// How deep a page tree may nest before it is refused.
///
/// qpdf walks the page tree recursively (`QPDF::getAllPages`,
/// `pushInheritedAttributesToPage`), a few hundred bytes of stack per level: a
/// crafted file whose /Pages nodes nest some 20,000 levels deep overflowed the
/// stack (SIGSEGV) at `open`, and less than 5,000 levels did at export under a
/// 1 MB stack (`ulimit -s 1024`). Real files nest a handful of levels; 1,024 is
/// also the limit PDFium enforces (`CPDF_Document::kMaxPageLevel`). The bridge
/// measures every file it opens against it, without recursion, before qpdf or
/// poppler walks it (`check_page_tree_depth`, `check_tree_depths` in PageTree.cpp).
package enum PageTree {
    /// The limit in force (`Limits.treeDepth`, 1,024 unless set): the one value
    /// of the bridge's walks (`pe_tree_depth_limit`).
    package static var maximumDepth: Int { Int(pe_tree_depth_limit()) }

    /// Sets the limit for this process (`PDFEDIT_MAX_DEPTH`); the kit calls it once.
    package static func setMaximumDepth(_ levels: Int) {
        pe_set_tree_depth_limit(Int32(clamping: levels))
    }
}
