import CPango
import PageModel

extension RasterImage {
    /// Draws `picture` onto this image as export places its page: its box
    /// (`box`, from `TextPicture.box()`) scaled by `scale` (pixels per point),
    /// centred on (`centreX`, `centreY`) (pixels from the top-left), turned
    /// `degrees` counter-clockwise, in its colours with `opacity`: the real font, as
    /// the exported page shows it.
    package func drawPicture(
        _ picture: TextPicture, box: PageSize, scale: Double, centreX: Double, centreY: Double, degrees: Double,
        opacity: Double
    ) throws(EngineError) {
        guard scale > 0, scale.isFinite else { return }
        try drawing { (cairo) throws(EngineError) in
            if opacity < 1 { cairo_push_group(cairo) }
            cairo_save(cairo)
            cairo_translate(cairo, centreX, centreY)
            cairo_rotate(cairo, -degrees * Double.pi / 180)
            cairo_scale(cairo, scale, scale)
            cairo_translate(cairo, -box.width / 2, -box.height / 2)
            do throws(EngineError) {
                try picture.draw(on: cairo)
            } catch {
                cairo_restore(cairo)
                if opacity < 1 { cairo_pattern_destroy(cairo_pop_group(cairo)) }
                throw error
            }
            cairo_restore(cairo)
            if opacity < 1 {
                cairo_pop_group_to_source(cairo)
                cairo_paint_with_alpha(cairo, opacity)
            }
        }
    }
}
