import CPoppler

/// What `diff` reads of a rendered page and draws on one.
extension RasterImage {
    /// Every pixel's luminance (0…255, the Rec. 601 weights of the dark-pixel
    /// test), row by row; alpha is ignored (pages are rendered on white).
    package func grayPixels() -> [UInt8] {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var gray = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            let row = data.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in 0..<width {
                let pixel = Int(row[x])
                let value = (((pixel >> 16) & 0xFF) * 299 + ((pixel >> 8) & 0xFF) * 587 + (pixel & 0xFF) * 114) / 1000
                gray[y * width + x] = UInt8(value)
            }
        }
        return gray
    }

    /// Outlines each rectangle (pixels, from the top-left corner) in red, `lineWidth` pixels wide.
    package func outline(_ rectangles: [(x: Double, y: Double, width: Double, height: Double)], lineWidth: Double)
        throws(EngineError)
    {
        guard !rectangles.isEmpty else { return }
        try drawing { cairo in
            cairo_set_source_rgb(cairo, 0.9, 0.05, 0.05)
            cairo_set_line_width(cairo, lineWidth)
            for rect in rectangles {
                cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
            }
            cairo_stroke(cairo)
        }
    }
}
