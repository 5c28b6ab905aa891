// Internal to QPDFBridge: drawing a page of a source onto another page at a
// matrix — `resize` (one page on a new paper) and the sheets of `nup`/`booklet`
// (several pages on one) — and carrying its annotations along. The matrix is
// the caller's (pe_placement: PageModel computes every placement); this side
// only writes it and moves what the page carries by it.
//
// How to use (one output):
//   PageForms forms;
//   Form const &form = forms.form(key, page_copy);       // one per source page
//   Matrix m = placement_of(placement, clip, clipped);
//   page /Resources /XObject /Name -> form.object; content: draw_form(m, "/Name", clip)
//   ... after copy_annotations put the source page's annotations on some output
//   page object `holder`:
//   place_annotations(holder, sheet, m, drop_widgets, &dropped_fields);
//   ... once all pages and outlines are written:
//   transform_destinations(out, {resized page -> m});
#ifndef PDFEDIT_QPDF_BRIDGE_PLACEMENT_HH
#define PDFEDIT_QPDF_BRIDGE_PLACEMENT_HH

#include "Geometry.hh"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pe {

// An affine transformation as a PDF `cm` writes it:
// (x, y) -> (a x + c y + e, b x + d y + f).
struct Matrix {
    double a = 1;
    double b = 0;
    double c = 0;
    double d = 1;
    double e = 0;
    double f = 0;

    void apply(double x, double y, double &to_x, double &to_y) const
    {
        to_x = a * x + c * y + e;
        to_y = b * x + d * y + f;
    }
    // This matrix applied after `first` (a point goes through `first`, then this).
    Matrix after(Matrix const &first) const;
    // The counter-clockwise quarter turns (0..3) of its linear part; placements
    // only ever turn by multiples of 90 degrees.
    int quarter_turns() const;
    // Its linear part without the scale (a pure quarter turn, no translation).
    Matrix turn() const;
    // The six `cm` operands, "a b c d e f" (at most 6 decimals, never "-0").
    std::string operands() const;
};

// The matrix of a placement the caller gave, and its clip box (`clipped` when
// there is one).
Matrix placement_of(pe_placement const &placement, Rect &clip, bool &clipped);

// Whether every number of `placement` is finite (a plan check).
bool is_finite(pe_placement const &placement);

// A number for a content stream: at most 6 decimals, no trailing zeros, never
// "-0", whatever the C locale says about decimal points.
std::string content_number(double value);

// The bounding box of `rect` transformed by `m`.
Rect transform_rect(Rect const &rect, Matrix const &m);

// A source page as a form XObject of the output.
struct Form {
    QPDFObjectHandle object; // the form XObject, indirect, in the output
    Rect box;                // its /BBox: the page's visible box
    int rotation = 0;        // the page's own displayed /Rotate
};

// The form XObjects of one output: one per source page however often it is
// placed.
class PageForms {
  public:
    // What one content stream of a page made into a form may inflate to (the
    // export's max_stream_bytes; 0: no limit).
    void set_stream_limit(long long limit) { stream_limit = limit; }

    // The form of source page `key` ({source index, page index}) made from
    // `page`, an indirect page object OF THE OUTPUT holding that page's copy with
    // its inherited attributes pushed (its /Contents and /Resources must stay as
    // they are until the output is written: the form's content is read from them
    // then). The first call for a key makes it; later calls return it.
    Form const &form(std::pair<int, int> key, QPDFObjectHandle page);

  private:
    long long stream_limit = 0;
    std::map<std::pair<int, int>, Form> forms;
};

// Content that draws form `name` ("/PdfeditPage") at `m`, clipped first (in the
// form's space) to `clip` when given: "q m cm [x y w h re W n] /Name Do Q\n".
std::string draw_form(Matrix const &m, std::string const &name, Rect const *clip = nullptr);

// `rect` as a PDF array [llx lly urx ury] (four decimals, -0 written 0).
QPDFObjectHandle rect_array(Rect const &rect);

// Moves one annotation (an output object) by `m`: /Rect (the bounding box of the
// transformed rectangle), /QuadPoints, /InkList, /Vertices, /L, /CL; for a matrix
// that turns, its appearance streams' /Matrix (a copy of each stream, as streams
// may be shared) and a widget's /MK /R. Annotations flagged NoRotate or NoZoom
// keep their size: only their corner moves.
void transform_annotation(QPDFObjectHandle annot, Matrix const &m);

// The full names (T of the field and its parents, dot-joined) of field-like
// annotations (widgets) in `annots`, for a warning line.
std::string field_name(QPDFObjectHandle widget);

// Transforms the annotations of `from` (an output page object, e.g. one
// copy_annotations filled) by `m` and puts them on output page `to` (appended to
// its /Annots, /P set to `to`); `from` then has none (unless from == to: then they
// are transformed in place). With `drop_widgets`, field-like annotations are left
// out instead and their names appended to `dropped` (may be nullptr).
void place_annotations(
    QPDFObjectHandle from,
    QPDFObjectHandle to,
    Matrix const &m,
    bool drop_widgets,
    std::vector<std::string> *dropped);

// A destination (an explicit array [page /XYZ left top zoom], /Fit, /FitH top,
// /FitV left, /FitR l b r t, /FitB, /FitBH, /FitBV) with its view moved by `m`
// (a new array; the page element is kept). A horizontal fit under a quarter turn
// becomes a vertical one and the other way round.
QPDFObjectHandle transform_destination(QPDFObjectHandle dest, Matrix const &m);

// Calls `visit` once with each link annotation of the pages of `out` and each
// item of its outline: what holds a destination aiming at a page (/Dest, /A /D).
void for_each_destination_holder(QPDF &out, std::function<void(QPDFObjectHandle)> const &visit);

// Every explicit destination in `out` aiming at a page of `moved` (output page
// -> the matrix its content was placed with): link annotations' /Dest and
// /A /D on every page, the outline's /Dest and /A /D, and the /OpenAction. Call
// once the pages, annotations, outline and document data are in `out`.
void transform_destinations(QPDF &out, std::map<QPDFObjGen, Matrix> const &moved);

} // namespace pe

#endif
