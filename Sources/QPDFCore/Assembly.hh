// Internal to QPDFBridge: one output assembled by copying pages (Assembly.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_ASSEMBLY_HH
#define PDFEDIT_QPDF_BRIDGE_ASSEMBLY_HH

#include "Inputs.hh"
#include "Placement.hh"

#include <qpdf/PDFVersion.hh>
#include <qpdf/QPDF.hh>

#include <memory>
#include <vector>

namespace pe {

// One output: the pages of items [first, first + count) with everything that
// follows them (stamps, annotations, form, bookmarks, labels, document data).
class Assembly {
  public:
    Assembly(Inputs &opened, int first, int count);
    ~Assembly() { forget_copies(out); }
    Assembly(Assembly const &) = delete;
    Assembly &operator=(Assembly const &) = delete;

    // Places the pages in a new QPDF and has the other steps copy what follows
    // them; what had to be left out is noted in `dropped`.
    void build(Dropped &dropped);

    // A part's own bookmarks, written instead of options->outline when the
    // options give an outline (pe_part.outline).
    void give_outline(pe_outline_item const *outline, int count)
    {
        part_outline = outline;
        part_outline_count = count;
    }

    // Frees the sources the output no longer needs once it holds its copies: those
    // it reads no stream data from when it is written (copied streams read theirs
    // from their source, decrypted, as the writer asks: reads_streams_of). A
    // document the caller opened (pe_document) is freed too when this call is
    // its last use. Only for an output written on its own: the parts of a split
    // share the sources.
    void release_sources();

    // Writes the output to `out_path`; `started` is set once the file may exist.
    // `sync`: fsync the file (else the caller syncs its file system later).
    // `report`: tell options->progress how far the writing got (one output on
    // its own; a split reports parts instead).
    void write(char const *out_path, bool &started, bool sync, bool report);

    // The output document, written or not.
    std::shared_ptr<QPDF> output() const { return out_pdf; }

  private:
    Inputs &inputs;
    pe_outline_item const *part_outline = nullptr;
    int part_outline_count = -1; // -1: not a part's
    std::vector<Source> &sources;
    Where &where;
    pe_item const *items;
    int item_count;
    // The output (shared, so that a one-command process can keep it until it
    // exits rather than destroy it: see keep_until_exit).
    std::shared_ptr<QPDF> out_pdf = std::make_shared<QPDF>();
    QPDF &out = *out_pdf;
    std::vector<PlacedPage> placed;
    PDFVersion version; // of the output, once release_sources ran
    bool versioned = false;
    size_t placed_count = 0; // pages of the output (placed is cleared by release_sources)
    bool object_streams = false; // a source of its pages has object streams (place_pages)
    // Inherited values already in `out`, by the /Pages node holding them and key.
    SharedInherited shared_values;
    bool needs_user_unit = false; // a blank page was given a /UserUnit
    PageForms forms;              // source pages drawn by resized pages
    // Resized output pages -> the matrix their source page is drawn with, for
    // their annotations and the destinations aiming at them.
    std::map<QPDFObjGen, Matrix> resized;
    // The source pages shown in sheets' cells (Sheets.cpp), each on a page object
    // of its own that is on no page list and holds its annotations until they
    // are moved onto the sheet; with the cell's matrix and its sheet.
    struct Cell {
        PlacedPage page;
        Matrix matrix;
        QPDFObjectHandle sheet;
        int item; // index of the sheet among this output's items
        int cell; // 1-based
        Rect box; // the cell form's /BBox, in the page's user space
        Rect clip; // the clip the cell is drawn with, when `clipped`
        bool clipped = false;
    };
    std::vector<Cell> cells;

    PDFVersion output_version() const;
    void place_pages();
    QPDFObjectHandle blank_page(pe_item const &item);
    QPDFObjectHandle sheet_page(pe_item const &item);
    void draw_cell_finish(Cell const &cell, pe_item_finish const &finish);
    void draw_cell(QPDFObjectHandle sheet, pe_item const &item, int index, std::string &content,
                   QPDFObjectHandle xobjects);
    void place_cell_annotations();
    bool has_cell_stamps() const;
    void retarget_cell_destinations();
    QPDFObjectHandle page_copy(Source &source, int page, bool &first);
    QPDFObjectHandle copied_page(pe_item const &item);
    QPDFObjectHandle plain_copy(Source &source, QPDFObjGen og, QPDFObjectHandle first_copy);
    static void restore_first_boxes(Source const &source, QPDFObjGen og, QPDFObjectHandle page);
    void resize_page(QPDFObjectHandle page, QPDFObjectHandle plain, pe_item const &item);
    QPDFObjectHandle copy_without_annotations(QPDFObjectHandle from);
};

} // namespace pe

#endif
