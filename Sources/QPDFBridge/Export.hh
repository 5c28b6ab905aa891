// Internal to QPDFBridge: the state of an export, shared by the files that carry
// out its steps. Export.cpp: plan, opening the sources, placing pages, writing,
// split parts; Annotations.cpp: annotations and links; Forms.cpp: the AcroForm;
// Outlines.cpp: bookmarks; Labels.cpp: page labels; Document.cpp: document
// information, XMP, structure tree and what cannot follow pages.
#ifndef PDFEDIT_QPDF_BRIDGE_EXPORT_HH
#define PDFEDIT_QPDF_BRIDGE_EXPORT_HH

#include "Status.hh"

#include <qpdf/InputSource.hh>
#include <qpdf/PDFVersion.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pe {

// ---- Values that cross from a source to the output ----------------------------

// The dictionary value of `key`, or null: getKey on a non-dictionary would make
// qpdf warn.
QPDFObjectHandle dict_key(QPDFObjectHandle object, std::string const &key);

// A new object owned by no QPDF with the same value as `value`: scalars, and
// arrays and dictionaries of them (indirect scalars are resolved). Anything that
// would need an indirect object (streams, indirect arrays or dictionaries) becomes
// null. qpdf refuses to put a source's objects, even direct ones, into the output.
QPDFObjectHandle fresh_copy(QPDFObjectHandle value);

// A source value as an object of `out` without making anything indirect in the
// source: indirect objects through copyForeignObject, direct arrays and
// dictionaries rebuilt around them, scalars as fresh copies.
QPDFObjectHandle import_direct(QPDF &out, QPDFObjectHandle value);

// out.copyForeignObject(foreign), or null when qpdf hands back an uninitialised
// handle: qpdf 11.3 does not copy a /Pages node (it stops at the page tree) and
// returns one then, which makes QPDFWriter throw and ~QPDF crash (SIGSEGV). A
// damaged or hand-made file can point anything at its page tree: a /DR font,
// /Info, /Metadata, an outline action, a field. Use this, never copyForeignObject.
QPDFObjectHandle copy_foreign(QPDF &out, QPDFObjectHandle foreign);

// A source value as an object of `out`: indirect objects through
// copyForeignObject; a direct array or dictionary that refers to indirect objects
// is first made an indirect object of its source.
QPDFObjectHandle import_value(QPDF &out, QPDF &from, QPDFObjectHandle value);

// A destination as an explicit array: arrays as they are, a name looked up in
// the catalog's /Dests, a string in the /Names /Dests name tree (their values
// may be arrays or dictionaries with /D). Null when it cannot be resolved.
QPDFObjectHandle explicit_destination(QPDF &pdf, QPDFObjectHandle dest);

// The file name of a path, for messages ("dir/a.pdf" -> "a.pdf").
std::string file_name(char const *path);

// ---- Reading inputs ----------------------------------------------------------------

// A file as qpdf input with a position kept in memory and pread through a small
// window (see InputFile.cpp): qpdf's FileInputSource makes system calls for every
// tell and seek.
class ReadInputSource : public InputSource {
  public:
    explicit ReadInputSource(char const *path); // throws QPDFSystemError like qpdf's
    ~ReadInputSource() override;
    ReadInputSource(ReadInputSource const &) = delete;
    ReadInputSource &operator=(ReadInputSource const &) = delete;

    qpdf_offset_t findAndSkipNextEOL() override;
    std::string const &getName() const override;
    qpdf_offset_t tell() override;
    void seek(qpdf_offset_t offset, int whence) override;
    void rewind() override;
    size_t read(char *buffer, size_t length) override;
    void unreadCh(char ch) override;

  private:
    static constexpr size_t kWindow = 16384;
    size_t read_at(qpdf_offset_t offset, char *into, size_t length);
    bool window_at(qpdf_offset_t offset);

    std::string name;
    int descriptor = -1;
    qpdf_offset_t size = 0;
    qpdf_offset_t position = 0;
    qpdf_offset_t window_start = 0;
    size_t window_length = 0;
    char window[kWindow];
};

// Sets glibc malloc up for qpdf's many small objects (see Allocator.cpp); once
// per process, before the first qpdf object of a bridge call.
void tune_allocator();

// QPDF::processFile through a ReadInputSource.
void open_pdf(QPDF &pdf, char const *path, char const *password);

// ---- Sources -------------------------------------------------------------------

// One bookmark of a source, read once however many outputs use it.
struct OutlineEntry {
    std::string title;      // the /Title string's bytes, as in the file
    std::string title_utf8; // the same as UTF-8
    int page = -1;          // 0-based target page in the source; -1 none
    // The destination's parameters after the page ([/XYZ l t z], [/Fit], ...),
    // fresh objects (cloned again for each output).
    std::vector<QPDFObjectHandle> view;
    // An action that does not go to a page of this file (URI, GoToR, named, ...),
    // an indirect object of the source; uninitialised when none.
    QPDFObjectHandle action;
    bool open = false;
    QPDFObjectHandle color; // /C, fresh; uninitialised when none
    QPDFObjectHandle flags; // /F, fresh; uninitialised when none
    std::vector<OutlineEntry> kids;
};

// A source's interactive form field tree, read once: nodes are the fields (and
// widgets) reachable from /AcroForm /Fields, each with its place in the tree.
struct FieldTree {
    struct Node {
        QPDFObjectHandle object; // in the source
        int parent = -1;         // node index; -1 for a root field
        std::vector<int> kids;   // node indices, in /Kids order
    };
    QPDFObjectHandle acroform; // the source's /AcroForm dictionary, or null
    std::vector<Node> nodes;
    std::vector<int> roots; // in /Fields order
    std::map<QPDFObjGen, int> index;
};

// The inheritable page attributes a page gets from its /Pages ancestors: for each
// of inheritable_keys, the nearest ancestor's value (uninitialised when none) and
// the node that holds it.
constexpr int inheritable_count = 4;
extern char const *const inheritable_keys[inheritable_count]; // /MediaBox /CropBox /Resources /Rotate
constexpr int inherited_rotate = 3;
struct InheritedFrame {
    QPDFObjectHandle values[inheritable_count];
    QPDFObjGen holders[inheritable_count];
};

// One opened input.
struct Source {
    // null when no item uses this source; shared with a pe_document when the
    // caller opened the file beforehand
    std::shared_ptr<QPDF> pdf;
    std::vector<QPDFObjectHandle> pages;
    // What each page inherits, found by one walk of the page tree in qpdf's page
    // order, without changing the source (qpdf's pushInheritedAttributesToPage
    // rewrites every page and, in qpdf 11.3, first parses every object of the
    // file). page_frame[i] indexes frames; both are empty when no /Pages node
    // holds an inheritable attribute (or the attributes were pushed onto the pages
    // because the tree did not look as getAllPages left it).
    std::vector<InheritedFrame> frames;
    std::vector<int> page_frame;
    // The file's PDF version, read once: qpdf 11.3's getVersionAsPDFVersion
    // compiles a std::regex on every call (a third of the time of a 2,000-part
    // split when it was asked once per part).
    PDFVersion version;
    // Whether the file keeps objects in object streams: an output written from
    // such files gets object streams too (as qpdf's default, preserve, would).
    bool object_streams = false;
    std::string label; // its file name, for messages
    // Source page -> its first copy in the output being assembled (qpdf's
    // foreign-object map resolves references to the source page to that same
    // copy). Cleared for each output.
    std::map<QPDFObjGen, QPDFObjectHandle> first_copy;

    // 0-based index of a page object of this source, -1 when it is not one.
    int index_of_page(QPDFObjectHandle page);
    // Fills frames and page_frame (after `pages` is set).
    void find_inherited();
    // Gives page `index` of the source the attributes it inherits and lacks, as
    // qpdf's pushInheritedAttributesToPage would (for code that reads a source
    // page's own keys, such as a stamp's box and rotation).
    void push_inherited(int index);
    // What page `index` inherits (nullptr when nothing).
    InheritedFrame const *inherited(int index) const
    {
        return page_frame.empty() ? nullptr : &frames[static_cast<size_t>(page_frame[static_cast<size_t>(index)])];
    }
    // The source's bookmarks (read on first use).
    std::vector<OutlineEntry> const &outline();
    // The source's form fields (read on first use).
    FieldTree const &fields();

  private:
    bool page_index_built = false;
    std::map<QPDFObjGen, int> page_index;
    std::unique_ptr<std::vector<OutlineEntry>> outline_entries;
    std::unique_ptr<FieldTree> field_tree;
};

// Opens `path` into `source`: pdf (with recovery), pages, what pages inherit.
// Throws what qpdf throws; warnings stay in source.pdf.
void open_source_file(Source &source, char const *path, char const *password);

// How deep /Pages nodes may nest. qpdf walks the page tree recursively
// (QPDF::getAllPages, pushInheritedAttributesToPage), a few hundred bytes of stack
// per level: some 20,000 levels overflowed the stack (SIGSEGV), less than 5,000
// under a 1 MB stack. Real files nest a handful of levels; 1,024 is PDFium's limit
// too (CPDF_Document::kMaxPageLevel). PDFEngine's PageTree.maximumDepth is the same
// limit for files opened through qpdf's C API.
// The limit in force: 1,024 unless the kit set another (PDFEDIT_MAX_DEPTH, through
// pe_set_tree_depth_limit once at start-up).
int page_tree_maximum_depth();

// Throws QPDFExc (qpdf_e_pages) when the page tree nests deeper than
// page_tree_maximum_depth; walks it without recursion. Call before getAllPages.
void check_page_tree_depth(QPDF &pdf);

// Throws QPDFExc (qpdf_e_pages) when a tree poppler walks recursively (page-label
// number tree, name trees, form fields, outline) nests deeper than
// page_tree_maximum_depth; PDFEngine's QPDFDocument.checkTreeDepths is the same
// check for files opened through qpdf's C API.
void check_tree_depths(QPDF &pdf);

// Refuses (OverLimit, naming the source file) to hand `foreign` to
// out.copyForeignObject when qpdf 11.3's copy would recurse more than
// page_tree_maximum_depth levels: its reserveObjects calls itself once for each
// array, dictionary, stream and stream dictionary it descends into, without a
// bound, and a long chain of objects (50,000 nested form XObjects) overflows the
// stack (SIGSEGV). Walks what qpdf will walk, in its order, without recursion:
// it stops at /Pages nodes and at pages other than `foreign`, and enters each
// object once per output and source, as qpdf's copier does (objects copied by an
// earlier call for the same output are not walked again). copy_foreign calls it.
void check_copy_depth(QPDF &out, QPDFObjectHandle foreign);

// Throws QPDFExc (qpdf_e_damaged_pdf) naming the first "page" that is not a
// dictionary: qpdf's recovery takes whatever a damaged /Kids holds as a page, even
// a number or a string, which would be written out as it is.
void check_pages_are_dictionaries(QPDF &pdf, std::vector<QPDFObjectHandle> &pages);

// ---- One output ------------------------------------------------------------------

// One output page, in output order. A blank page has source -1 and no `from`.
struct PlacedPage {
    int source;
    int page;              // 0-based in the source
    QPDFObjectHandle from; // the source page
    QPDFObjectHandle to;   // its page object in the output
    bool first;            // `to` is first_copy of `from`
};

// An annotation of a source page and its copy on an output page (reported for
// widgets and field-like annotations, which Forms.cpp assembles into fields).
struct CopiedAnnotation {
    size_t placed;            // index into the placed pages
    QPDFObjGen original;      // the source annotation
    QPDFObjectHandle copy;    // in the output
};

// Copies the annotations of every placed page onto its output page, in output
// order, after all pages exist in `out` so that link destinations can resolve:
// each output page gets its own annotation objects; internal links to pages not
// in the output are left out; named destinations become explicit ones. Appends
// the copies of widgets to `widgets`.
void copy_annotations(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    Where &where,
    std::vector<CopiedAnnotation> &widgets);

// Gives `out` one /AcroForm holding the fields of the copied widgets (see
// Forms.cpp). Does nothing when no widget belongs to a field.
void build_form(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<CopiedAnnotation> const &widgets,
    std::vector<PlacedPage> const &placed,
    Where &where);

// One bookmark of an output: a source's entry (pruned to the output) or, when
// several sources contribute bookmarks, the entry standing for a source.
struct OutlineNode {
    OutlineEntry const *entry = nullptr; // null: a source's own entry
    int source = -1;
    std::string title_utf8; // a source's entry: its name
    int item = -1;          // output position the node goes to; -1 none (a heading)
    int first_item = -1;    // smallest position in the subtree; -1 none
    std::vector<OutlineNode> kids;
};

// The bookmarks of the output made of `items` (see Outlines.cpp).
std::vector<OutlineNode> arrange_outline(
    std::vector<Source> &sources, pe_source const *args, pe_item const *items, int item_count);

// Writes `nodes` as the output's /Outlines (nothing when empty). `placed` are the
// output pages, in item order.
void write_outline(
    QPDF &out,
    std::vector<OutlineNode> const &nodes,
    std::vector<PlacedPage> const &placed);

// The /Nums of the output's /PageLabels for `mode` (PE_LABELS_*); false when the
// output needs no /PageLabels (no source of its pages has labels, plain 1..n, or
// none asked for).
bool label_numbers(
    std::vector<Source> &sources,
    pe_item const *items,
    int item_count,
    int mode,
    std::vector<QPDFObjectHandle> &nums);

// Writes the output's /PageLabels for `mode` (PE_LABELS_*).
void write_labels(
    QPDF &out, std::vector<Source> &sources, pe_item const *items, int item_count, int mode);

// Document-level data that cannot follow pages, collected for one warning line:
// "dropped document-level data that cannot follow pages: embedded files (a.pdf), ...".
class Dropped {
  public:
    // Notes that `what` ("embedded files", ...) of source `index` was left out.
    void add(std::string const &what, int index, std::string const &source_name);
    bool empty() const { return kinds.empty(); }
    std::string line() const;
    // The one source everything dropped came from; -1 when several.
    int source() const { return several ? -1 : single; }
    // Adds what `other` noted, in the order it noted it (parts written by
    // several threads, merged in part order).
    void merge(Dropped const &other);

  private:
    struct Noted {
        std::string what;
        int index;
        std::string source_name;
    };
    std::vector<Noted> noted;
    std::vector<std::pair<std::string, std::vector<std::string>>> kinds;
    int single = -1;
    bool several = false;
};

// Whether a source's catalog has only entries that an output written by
// rearranging that source in place (Export.cpp, InPlace) carries as the copying
// export does: page labels, XMP, /Lang, /PageLayout, /PageMode,
// /ViewerPreferences, and entries the copying export leaves out without a word.
bool catalog_allows_in_place(QPDFObjectHandle root);

// For an output that is its source rearranged in place, with `pdf.getRoot()`
// already the new catalog: the document information (old_info, from the old
// trailer), XMP and catalog entries of `old_root`, as copy_document_data gives
// them to a copy (options->title included).
void settle_in_place(
    QPDF &pdf, QPDFObjectHandle old_root, QPDFObjectHandle old_info, pe_export_options const *options);

// Document information, XMP metadata and catalog entries of the first source, the
// title override, the structure tree (kept only when the output is exactly one
// tagged source's pages in order), and what had to be dropped (see Document.cpp).
void copy_document_data(
    QPDF &out,
    std::vector<Source> &sources,
    pe_item const *items,
    int item_count,
    std::vector<PlacedPage> const &placed,
    pe_export_options const *options,
    bool has_outline,
    Dropped &dropped,
    Where &where);

} // namespace pe

#endif
