// Internal to QPDFBridge: the work behind the reader entry points of
// QPDFBridgeReader.h (Reader.cpp, ImagePage.cpp), whose extern "C" shells are in
// ExportApi.cpp with every other entry point.
#ifndef PDFEDIT_QPDF_BRIDGE_READER_HH
#define PDFEDIT_QPDF_BRIDGE_READER_HH

#include "Source.hh"
#include "Status.hh"

namespace pe {

// The document-level facts of an opened source, and its texts through `text`
// (may be NULL), as pe_document_read_facts describes.
void read_facts(Source &source, pe_document_facts &facts, pe_text_fn text, void *context);

// Every bookmark of an opened source through `each`, as
// pe_document_read_outline describes.
void read_outline(Source &source, pe_outline_item_fn each, void *context);

// The /PageLabels entries of an opened source through `each`, as
// pe_document_read_page_labels describes.
void read_page_labels(Source &source, int &has_labels, pe_label_range_fn each, void *context);

// The geometry of page `page` (0-based) of an opened source; PlanError with the
// page count when there is no such page.
void read_page_geometry(Source const &source, int page, pe_page_geometry &geometry);

// Builds and writes the one-page PDF of an image (pe_write_image_page). `where`
// is source 0 while building, -1 while writing.
void write_image_page(
    pe_image_stream const *image,
    pe_image_stream const *mask,
    char const *media_box,
    char const *user_unit,
    char const *content,
    char const *minimum_version,
    pe_bytes_fn out,
    void *out_context,
    Where &where);

} // namespace pe

#endif
