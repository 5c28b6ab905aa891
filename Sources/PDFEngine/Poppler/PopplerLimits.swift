extension PopplerPDF {
    /// Poppler inflates streams and decodes images without bounds: before it reads
    /// or draws page `index`, the bridge checks the page against `limits` (once per
    /// page), so a decompression bomb is refused (`.overLimit`, 65) instead of
    /// taking minutes and gigabytes.
    func checkForReader(page index: Int) throws(EngineError) {
        guard let limits, !checkedPages.contains(index) else { return }
        let opened: OpenedPDF
        if let checker {
            opened = checker
        } else {
            opened = try OpenedPDF(path: path, password: password)
            checker = opened
        }
        try opened.checkForReader(page: index, limits: limits)
        checkedPages.insert(index)
    }
}
