// Internal to QPDFBridge: an opened input of an export (Source) and how it is
// read: the file as qpdf input (InputFile.cpp), the checks of its trees
// (PageTree.cpp), what its pages inherit (Values.cpp, Geometry.cpp), its
// bookmarks and form fields read once (Outlines.cpp, Forms.cpp). Opening one for
// an export is Inputs.cpp's.
#ifndef PDFEDIT_QPDF_BRIDGE_SOURCE_HH
#define PDFEDIT_QPDF_BRIDGE_SOURCE_HH

#include "Geometry.hh"
#include "Status.hh"

#include <qpdf/PDFVersion.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// QPDF::processInputSource through the bridge's own input source (a position
// kept in memory, the file read with pread through a small window: see
// InputFile.cpp). Throws what qpdf throws.
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
    // An action that does not go to a page of this file (URI, GoToR, named, ...):
    // read, an indirect object of the source; given, a direct object parsed from
    // pe_outline_item.action; uninitialised when none.
    QPDFObjectHandle action;
    std::string uri; // the address of a URI action (read), or of a given entry's (written)
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

struct SourceStructure; // StructureTree.hh
class StructureShare;   // StructureTree.hh

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
    // What its cross-reference table says, read once when it is opened for an
    // export (qpdf's getXRefTable copies the whole table on every call: 85,000
    // entries for a tagged book).
    struct XRefSummary {
        int object_bound = 1; // object_number_bound
        // The offsets of the objects stored uncompressed (none: highest < lowest).
        long long lowest_offset = LLONG_MAX;
        long long highest_offset = LLONG_MIN;
    };
    XRefSummary xref;
    // Whether qpdf read the file without a warning (no damage recovered): only
    // such a file can have an update appended to its own bytes (Appended.cpp).
    bool opened_clean = false;
    std::string label; // its file name, for messages
    // Its file's modification time (seconds since 1970; 0 unknown): the date an
    // output's metadata is given (see Metadata.cpp).
    long long modified = 0;
    // Source page -> its first copy in the output being assembled (qpdf's
    // foreign-object map resolves references to the source page to that same
    // copy). Cleared for each output.
    std::map<QPDFObjGen, QPDFObjectHandle> first_copy;
    // Source page -> the box keys of its first copy before an item's boxes
    // changed them: later copies (shallow copies of the first) start from these.
    // Only pages whose first copy's boxes an item changed are here.
    std::map<QPDFObjGen, BoxKeys> first_copy_boxes;
    // Source page -> an indirect copy of it in the output that is on no page
    // list, as it was copied: the page a form XObject of it is made from
    // (resize), and what later copies start from once the first copy was resized.
    std::map<QPDFObjGen, QPDFObjectHandle> plain_copy;
    // Its structure tree as read once for every output (StructureTree.cpp); null
    // until an output of a tagged source's pages needs it.
    std::shared_ptr<SourceStructure const> structure;
    // Set for each thread's copy of a source of a split: the tree is read once
    // by the threads together (StructureShare), not by each of them.
    std::shared_ptr<StructureShare> structure_share;
    // With a share, once the tree is taken: the pages with content in the
    // subtrees this thread read itself (their objects are in its opening), by
    // 0-based page. The split gives the thread parts of these pages first.
    std::vector<bool> structure_pages;
    // The number the next object made in it gets (make_source_object), at
    // least; 0 until the first is made.
    int made_objects_from = 0;

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
    // The value of a string-named destination in the catalog's /Names /Dests
    // tree (uninitialised when there is none): the tree read once into a map on
    // first use, instead of a walk of the tree per link (4,000 per merge of
    // TeXbyTopic with itself).
    QPDFObjectHandle named_destination(std::string const &name);
    // The catalog's value for `key`, null when it has none. Every output asks
    // the catalog of each of its sources for a dozen keys most files lack, and
    // qpdf makes a described null object for each key a dictionary lacks (about
    // 1,400 instructions: a tenth of a 2,000-part split): the catalog's keys are
    // listed on first use instead. A Source lives for one export, and an export
    // that copies pages never changes a source's catalog (the appended and
    // in-place writers change their own file's, and do not ask this).
    QPDFObjectHandle catalog(char const *key);

  private:
    bool page_index_built = false;
    std::map<QPDFObjGen, int> page_index;
    std::unique_ptr<std::vector<OutlineEntry>> outline_entries;
    std::unique_ptr<FieldTree> field_tree;
    std::unique_ptr<std::map<std::string, QPDFObjectHandle>> destination_names;
    std::unique_ptr<std::set<std::string, std::less<>> const> catalog_keys;
};

// Opens `path` into `source`: pdf (with recovery), the depth checks, pages. For
// an export (`for_export`) also refuses pages that are not dictionaries and finds
// what pages inherit, the version and whether the file has object streams; for
// reading alone (info, page sizes) the pages are left as qpdf lists them.
// Throws what qpdf throws; warnings stay in source.pdf.
void open_source_file(Source &source, char const *path, char const *password, bool for_export = true);

// How deep /Pages nodes may nest. qpdf walks the page tree recursively
// (QPDF::getAllPages, pushInheritedAttributesToPage), a few hundred bytes of stack
// per level: some 20,000 levels overflowed the stack (SIGSEGV), less than 5,000
// under a 1 MB stack. Real files nest a handful of levels; 1,024 is PDFium's limit
// too (CPDF_Document::kMaxPageLevel).
// The limit in force: 1,024 unless the kit set another (PDFEDIT_MAX_DEPTH, through
// pe_set_tree_depth_limit once at start-up).
int page_tree_maximum_depth();

// Throws QPDFExc (qpdf_e_pages) when the page tree nests deeper than
// page_tree_maximum_depth; walks it without recursion. Call before getAllPages.
void check_page_tree_depth(QPDF &pdf);

// Throws QPDFExc (qpdf_e_pages) when a tree poppler walks recursively (page-label
// number tree, name trees, form fields, outline) nests deeper than
// page_tree_maximum_depth; walks them without recursion.
void check_tree_depths(QPDF &pdf);

// Throws QPDFExc (qpdf_e_damaged_pdf) naming the first "page" that is not a
// dictionary: qpdf's recovery takes whatever a damaged /Kids holds as a page, even
// a number or a string, which would be written out as it is.
void check_pages_are_dictionaries(QPDF &pdf, std::vector<QPDFObjectHandle> &pages);

} // namespace pe

#endif
