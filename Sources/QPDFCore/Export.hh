// Internal to QPDFBridge: the state of one output of an export, shared by the
// files that carry out its steps. Inputs.cpp: the plan and opening the sources
// (Source.hh); Assembly.cpp: placing pages; InPlace.cpp: an output made by
// rearranging its source; Writer.cpp: writing; Parts.cpp: split parts;
// ExportApi.cpp: the extern "C" entry points of exports. Annotations.cpp: annotations and
// links; Forms.cpp: the AcroForm; Outlines.cpp: bookmarks; Labels.cpp: page
// labels; Document.cpp: document information, catalog entries and what cannot
// follow pages; StructureTree.cpp (reading: StructureRead.cpp, writing:
// StructureWrite.cpp): the structure tree; Metadata.cpp: XMP, output intents, PDF/A and PDF/UA claims;
// EmbeddedFiles.cpp: embedded and associated files.
#ifndef PDFEDIT_QPDF_BRIDGE_EXPORT_HH
#define PDFEDIT_QPDF_BRIDGE_EXPORT_HH

#include "Source.hh"
#include "Status.hh"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFObjectHandle.hh>

#include <deque>
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

// The entries of the name tree `tree` (a destination, file or script name tree)
// in the order a depth-first walk meets them, keys as UTF-8: each node visited
// once however many /Kids arrays name it, with an explicit stack (no recursion),
// at most page_tree_maximum_depth levels deep. qpdf's QPDFNameTreeObjectHelper
// visits a node as often as it is named: a 1 KB file whose /Dests tree had
// /Kids [n n] at every level doubled the time of every export per level (22
// levels took minutes). A node that is not a dictionary is skipped.
std::vector<std::pair<std::string, QPDFObjectHandle>> name_tree_entries(QPDFObjectHandle tree);

// A new object owned by no QPDF with the same value as `value`: scalars, and
// arrays and dictionaries of them (indirect scalars are resolved). Anything that
// would need an indirect object (streams, indirect arrays or dictionaries) becomes
// null. qpdf refuses to put a source's objects, even direct ones, into the output.
QPDFObjectHandle fresh_copy(QPDFObjectHandle value);

// A new indirect object of `pdf` holding `direct` (pdf.makeIndirectObject). qpdf
// 11.3's makeIndirectObject asks getObjectCount for a free number, whose first
// call on a file read from disk resolves every object of the file
// (fixDanglingReferences): a fifth of the time of moving three pages of a
// 20,000-page file. While a NewNumbers for `pdf` lives on this thread, the number
// comes from its counter instead.
QPDFObjectHandle make_indirect(QPDF &pdf, QPDFObjectHandle direct);

// Makes `pdf` a new, empty document: a catalog (object 1) and a page tree with
// no pages (object 2), PDF 1.3, as qpdf's emptyPDF does. emptyPDF reads them
// with qpdf's parser from a file in memory (26-30 us, an eighth of a 2,000-part
// burst's instructions); here qpdf reads a file of no objects and the two are
// made as values (11 us).
void start_empty(QPDF &pdf);

// Whether closed documents are kept until the process exits
// (pe_keep_closed_documents: a one-command process, whose exit frees them
// without walking their objects).
bool closed_documents_are_kept();

// A new indirect object of `source` holding `direct`, numbered past its
// cross-reference table and past every object made in it before, without
// getObjectCount (through makeIndirectObject), whose first call parses every
// object of the file: 0.48 s of extracting 53 pages of a tagged 206-page book
// (85,000 objects) when the output's links were handed to qpdf's copier. A
// number is never made twice, even once its object was made null again: an
// output's copier knows what it copied by number, and a second object under
// one number would be taken for the first (annotations handed over twice for
// one output, pages then sheet cells, got the first batch's copies).
QPDFObjectHandle make_source_object(Source &source, QPDFObjectHandle direct);

// The first number from `from` (past the cross-reference table) on that names no
// object of `pdf`: such numbers are free unless qpdf made objects there when it
// repaired the file at open (a page given twice, or directly), numbered on from
// the table's end. Resolving a free number gives null and reads nothing, where
// getObjectCount would parse every object of the file.
int first_free_number(QPDF &pdf, int from);

// Every object number a file read from disk may use is below the returned one:
// the trailer's /Size, or more when qpdf's cross-reference table knows a higher
// number (at most 2^30). The second form takes the largest number of that table
// (qpdf's getXRefTable copies the whole table on every call).
int object_number_bound(QPDF &pdf);
int object_number_bound(QPDF &pdf, int largest_listed);

// Gives new objects of `pdf` made by make_indirect (on this thread) the numbers
// `first`, `first` + 1, ... while it lives; `first` must be above every number
// the file uses. One at a time per thread.
class NewNumbers {
  public:
    NewNumbers(QPDF &pdf, int first);
    ~NewNumbers();
    NewNumbers(NewNumbers const &) = delete;
    NewNumbers &operator=(NewNumbers const &) = delete;
};

// A source value as an object of `out` without making anything indirect in the
// source: indirect objects through copy_foreign_value (a page not copied
// before is null), direct arrays and dictionaries rebuilt around them, scalars
// as fresh copies.
QPDFObjectHandle import_direct(QPDF &out, QPDFObjectHandle value);

// `foreign`, an indirect object of a source, as an object of `out`, with
// everything it refers to (Copier.cpp), as qpdf's copyForeignObject copies it:
// once per output and source (a second call gives the first copy), stopping at
// /Pages nodes and at pages other than `foreign` (null where they were referred
// to, unless copied before), stream data read from the source when `out` is
// written. Null for a /Pages node itself: a damaged or hand-made file can point
// anything at its page tree (a /DR font, /Info, /Metadata, an outline action, a
// field). Without recursion; refuses (OverLimit, naming the source file) an
// object nested more than page_tree_maximum_depth levels deep, where qpdf's
// copier would have overflowed the stack. Use this, never copyForeignObject.
QPDFObjectHandle copy_foreign(QPDF &out, QPDFObjectHandle foreign);

// `foreign` as copy_foreign copies a value it meets below the object asked
// for: a page is its copy when it was copied before, else null, as a page tree
// node always is. For a source value that is not a page (a catalog entry,
// /Info, an inherited attribute, a form's entry), where a hostile file may
// point at a page the output leaves out: copied whole, it would carry that
// page's content into the output.
QPDFObjectHandle copy_foreign_value(QPDF &out, QPDFObjectHandle foreign);

// Whether `value` is an indirect page or page tree node, as the copier knows
// them (by /Type): where it stops.
bool is_page_tree_object(QPDFObjectHandle value);

// Whether `out` has streams copied (copy_foreign, on this thread) whose data is
// read from `from` when `out` is written: `from` must live until then.
bool reads_streams_of(QPDF &out, QPDF &from);

// Drops what copy_foreign keeps on this thread for `out` (each copied object's
// copy, by source), which would otherwise keep `out`'s objects alive until the
// thread's next output: call when `out` is built. Its copied streams keep what
// they read their data from themselves.
void forget_copies(QPDF &out);

// A source value as an object of `out`: indirect objects through
// copy_foreign_value (a page not copied before is null); a direct array or dictionary becomes an indirect object of
// `out` rebuilt around the copies of what it refers to (import_direct); nothing
// is added to the source.
QPDFObjectHandle import_value(QPDF &out, QPDFObjectHandle value);

// A destination of `source` as an explicit array: arrays as they are, a name
// looked up in the catalog's /Dests, a string in the /Names /Dests name tree
// (Source::named_destination; their values may be arrays or dictionaries with
// /D). Null when it cannot be resolved.
QPDFObjectHandle explicit_destination(Source &source, QPDFObjectHandle dest);

// The open action of `source` as the output keeps it: when it only shows a
// page of the output (an explicit or named destination, or a GoTo action), an
// explicit destination on that page's first copy (source.first_copy); else null.
QPDFObjectHandle kept_open_destination(Source &source);

// The sources the pages of `items` come from (a sheet's: its cells'), in order
// of first use, each once.
std::vector<int> page_sources(pe_item const *items, int item_count);

// The 0-based page of `source` the first element of an explicit destination
// names: a page object of the source, or a page number where a page object
// belongs (seen in the wild); -1 when it names none.
int destination_page(Source &source, QPDFObjectHandle target);

// The file name of a path, for messages ("dir/a.pdf" -> "a.pdf").
std::string file_name(char const *path);

// ---- One output ------------------------------------------------------------------

// One output page, in output order. A blank page has source -1 and no `from`.
struct PlacedPage {
    int source;
    int page;              // 0-based in the source
    QPDFObjectHandle from; // the source page
    QPDFObjectHandle to;   // its page object in the output
    bool first;            // `to` is first_copy of `from`
};

// Keys by which an annotation points at another annotation of the same page
// (a markup's popup, a popup's parent, a reply's original).
extern char const *const sibling_keys[3];

// Widgets, and annotations that look like fields without saying they are widgets.
bool is_field_like(QPDFObjectHandle annot);

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
// the copies of widgets to `widgets`, and of every indirect annotation (widgets
// too) to `all` (the structure tree's object references follow them).
void copy_annotations(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    Where &where,
    std::vector<CopiedAnnotation> &widgets,
    std::vector<CopiedAnnotation> &all);

// For an output that is its one source rearranged in place (InPlace.cpp;
// `placed[i].to` is `from` itself at a page's first placement, and
// source.first_copy maps every kept page to itself): the annotations as
// copy_annotations leaves them, without copying: internal links to pages not
// in the output leave /Annots, named destinations become explicit, each
// annotation gets /P; a page placed again gets new objects (twins), as does an
// annotation a second page holds.
void keep_annotations(
    QPDF &pdf,
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    Where &where);

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
    int cell = 0;           // 1-based cell of a sheet `item` whose page it aims at; 0 none
    int first_item = -1;    // smallest position in the subtree; -1 none
    std::vector<OutlineNode> kids;
};

// The bookmarks of the output made of `items` (see Outlines.cpp).
std::vector<OutlineNode> arrange_outline(
    std::vector<Source> &sources, pe_source const *args, pe_item const *items, int item_count);

// Writes `nodes` as the output's /Outlines (nothing when empty). `placed` are the
// output pages, in item order.
// The bookmarks the caller gave (pe_export_options.outline) as nodes; their
// entries live in `storage`. A level that does not follow its parent's is
// std::invalid_argument.
std::vector<OutlineNode> given_outline(
    pe_outline_item const *given, int count, int item_count, std::deque<OutlineEntry> &storage);

class Dropped;

// A bookmark's action that leaves its document (GoToR, Launch, Named, JavaScript,
// ...) as self-contained PDF syntax, every reference resolved, for the session to
// keep; "" when it cannot stand alone (it refers to a page of its file, loops,
// nests or weighs too much).
std::string portable_action(QPDFObjectHandle action);

// Whether `action` or an action of its /Next chain runs JavaScript.
bool runs_script(QPDFObjectHandle action);

// The page objects of sheets' cells ({item, 1-based cell} -> the cell's page
// copy, Sheets.cpp): an entry aiming at a cell's page is written aiming at it,
// then moved onto its sheet with the destinations aiming there.
using CellPages = std::map<std::pair<int, int>, QPDFObjectHandle>;

// Bookmarks whose action runs JavaScript lose the action unless `keep_scripts`
// (noted in `dropped`, naming the bookmark).
void write_outline(
    QPDF &out,
    std::vector<OutlineNode> const &nodes,
    std::vector<PlacedPage> const &placed,
    bool keep_scripts,
    Dropped &dropped,
    CellPages const *cell_pages = nullptr);

// The /Nums of the output's /PageLabels for `mode` (PE_LABELS_*); false when the
// output needs no /PageLabels (no source of its pages has labels, or none asked
// for).
// `own`: nullptr, or the items' labels from their document's own ranges (used
// with PE_LABELS_KEEP instead of the sources').
bool label_numbers(
    std::vector<Source> &sources,
    pe_item const *items,
    int item_count,
    int mode,
    pe_page_label const *own,
    std::vector<QPDFObjectHandle> &nums);

// Writes the output's /PageLabels for `mode` (PE_LABELS_*).
void write_labels(
    QPDF &out,
    std::vector<Source> &sources,
    pe_item const *items,
    int item_count,
    int mode,
    pe_page_label const *own);

// The first of `name`, name_2, name_3, ... (`spaced`: "name (2)", "name (3)",
// ...) that `taken` (a predicate on a name) says is free.
template <typename Taken>
std::string unique_name(std::string const &name, bool spaced, Taken const &taken)
{
    std::string candidate = name;
    for (int n = 2; taken(candidate); ++n) {
        candidate = name + (spaced ? " (" + std::to_string(n) + ")" : "_" + std::to_string(n));
    }
    return candidate;
}

// `items` joined with ", " for a message, at most ten of them and the rest
// counted ("a, b, … and 716 more"), as the kit's cappedList writes lists.
std::string capped_list(std::vector<std::string> const &items);

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

// The metadata an export sets (pe_export_options title, author, subject,
// keywords): nullptr keeps the source's, "" removes it, else it replaces it.
struct MetadataFields {
    char const *title = nullptr;
    char const *author = nullptr;
    char const *subject = nullptr;
    char const *keywords = nullptr;
    // PE_STRIP_METADATA: nothing of the sources' /Info and XMP is kept.
    bool strip_sources = false;
    // PE_STRIP_STRUCTURE: the output is not tagged, so a PDF/UA claim goes.
    bool untagged = false;

    static MetadataFields of(pe_export_options const *options);
    // Whether any field is given (then the output gets an XMP packet).
    bool any() const;
};

// Makes `info` (uninitialised: none) the document information of `pdf`, with
// /Title, /Author, /Subject and /Keywords set or removed as `fields` say (a new
// dictionary if there was none and one is set).
void attach_info(QPDF &pdf, QPDFObjectHandle info, MetadataFields const &fields);

// A new XMP metadata stream of `pdf` holding an empty packet (for update_xmp).
QPDFObjectHandle new_xmp_stream(QPDF &pdf);

// How an output's XMP packet is updated (see Metadata.cpp).
struct XmpUpdate {
    MetadataFields fields; // dc:title, dc:creator, dc:description, pdf:Keywords
    long long time;    // xmp:ModifyDate and xmp:MetadataDate, seconds since 1970 (UTC)
    bool drop_pdfa;    // remove the pdfaid: identification
    bool drop_pdfua;   // remove the pdfuaid: identification
};

// Sets pdf:Producer, the dates and the title and removes the identifications
// asked for; false (packet unchanged) when it is not in a form this can edit.
bool update_xmp(std::string &xmp, XmpUpdate const &update);

// Sets /Producer and /ModDate (`time`) of `pdf`'s document information, if it has one.
void update_info(QPDF &pdf, long long time);

// The modification time of a file (seconds since 1970), 0 when unknown.
long long file_modified(char const *path);

// /Metadata (updated) and /OutputIntents of the source of the first page
// (order.front()); the PDF/A and PDF/UA claims removed when `dropped` is not
// empty or another source of the pages lacks them. Call after every step that
// may drop something (see Metadata.cpp).
void copy_metadata(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<int> const &order,
    MetadataFields const &fields,
    long long limit,
    Dropped &dropped,
    Where &where);

// /Names /EmbeddedFiles, /AF and /Collection of the sources in `order`, merged,
// without options' removed attachments, with options' attachments added (the
// page-level ones on the pages of items [first_item, first_item + item_count),
// the output's pages in order); see EmbeddedFiles.cpp.
void copy_embedded_files(
    QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, pe_export_options const *options,
    int first_item, int item_count, Dropped &dropped, Where &where);

// One embedded file of an output, named by THE naming rule (plan_embedded_files).
struct PlannedFile {
    std::string name;       // its name in the output (UTF-8)
    int source = -1;        // the index given with its source; -1: an added file
    std::string original;   // its name in that source's tree
    int added = -1;         // index into the added names; -1: a source's
    QPDFObjectHandle spec;  // the source's file specification (uninitialised for an added one)
};

// The embedded files of an output of `in_order` (each source with the index
// it is known by, in order of first appearance): every source's /Names
// /EmbeddedFiles entries except the (index, name) pairs of `removed`, then the
// `added` names; a name already taken gets " (2)", " (3)", ... (the first free
// one), so the first source keeps its names. The one rule of the export and of
// `attach list`.
std::vector<PlannedFile> plan_embedded_files(
    std::vector<std::pair<int, Source *>> const &in_order, std::set<std::pair<int, std::string>> const &removed,
    std::vector<std::string> const &added, Where &where);

// Gives `out` one /OCProperties holding the layers its objects use, from every
// source that has them (`order`: the sources of pages in order of first use;
// sources used only for stamps come after them), with their default states,
// order and usage (see OptionalContent.cpp). Returns false, writing nothing, when
// the output uses no layer. Call once the output holds everything else that
// might use a layer.
bool merge_optional_content(
    QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, Dropped &dropped, Where &where);

// The /Names /JavaScript trees of the sources of pages (`order`, in order of
// first use) merged under unique names, and the first source's /OpenAction
// (unless it only shows a page) and /AA; the other sources' actions are noted in
// `dropped` (see Scripts.cpp).
void copy_scripts(QPDF &out, std::vector<Source> &sources, std::vector<int> const &order, Dropped &dropped, Where &where);

// The output's structure tree: the elements of every tagged source in `order`
// with content on the output's pages, joined under one root, with fresh parent-
// tree numbers (see StructureTree.cpp). `annotations`: every annotation copy
// (copy_annotations). A source whose tree cannot be kept is noted in `dropped`.
void build_structure_tree(
    QPDF &out,
    std::vector<Source> &sources,
    std::vector<int> const &order,
    std::vector<PlacedPage> const &placed,
    std::vector<CopiedAnnotation> const &annotations,
    Dropped &dropped,
    Where &where);

// Redaction (Redact.cpp): what `page` (an output page, already placed) draws
// inside `regions` (its default user space) taken out of its content, its
// forms and images (copies of its own), the fill boxes drawn over it, its
// /Thumb removed. RedactRefused (Status.hh) when the page holds what cannot be judged.
// Returns the MCIDs of the page's marked-content spans that lost something,
// and the XObjects it drew that were replaced by redacted copies.
struct RedactedPage {
    std::set<long long> cut_marks;
    std::map<QPDFObjGen, QPDFObjectHandle> replaced; // original -> the page's copy
};
RedactedPage redact_page(
    QPDF &out, QPDFObjectHandle page, std::vector<pe_redact_region> const &regions, long long stream_limit);
// The MCIDs that lost something, and the XObjects replaced, by output page.
using CutMarks = std::map<QPDFObjGen, std::set<long long>>;
using ReplacedObjects = std::map<QPDFObjGen, std::map<QPDFObjGen, QPDFObjectHandle>>;
struct RedactedPages {
    CutMarks cut;
    ReplacedObjects replaced;
};
// Once the output's structure tree is written (copy_document_data): the
// elements owning `cut` marked content, and every element above them, lose
// their /ActualText, /Alt and /E, which would read the removed content out;
// a marked-content reference (/Stm) or object reference (/Obj) to a replaced
// XObject points at the page's redacted copy, its element losing them too (the
// original, unredacted, is then written only if something else draws it).
void forget_cut_replacement_texts(QPDF &out, CutMarks const &cut, ReplacedObjects const &replaced);
// The same for the element that refers to `object` (an annotation a region
// removed) through its /StructParent.
void forget_object_replacement_texts(QPDF &out, QPDFObjectHandle object);
// Whether an annotation's /Rect meets one of the regions.
bool annotation_meets(QPDFObjectHandle annotation, std::vector<pe_redact_region> const &regions);
// Where `out` still writes one of `texts` (redacted by text) outside the
// pages' content, one line each (RedactLeftovers.cpp): link URIs, annotation
// /Contents, file attachment annotations and embedded files by name, page
// label prefixes; with `scrub` each is removed and its line says so.
std::vector<std::string> redaction_leftovers(
    QPDF &out, std::vector<std::string> const &texts, bool scrub, long long stream_limit);
// Every placed page that carries regions (`redact`: one per item, NULL: none)
// redacted; the annotations meeting them go in finish_pages.
RedactedPages redact_pages(
    QPDF &out, std::vector<PlacedPage> const &placed, pe_item_redact const *redact, long long stream_limit, Where &where);

// What `flatten` and `strip` do to the output's pages (`finish`: NULL, or one
// per entry of `placed`) and the page-level part of the document-level strips
// (`strip`: PE_STRIP_* bits), the form pruned to the widgets left, and with
// PE_STRIP_JAVASCRIPT the catalog's scripts and actions (see Finishing.cpp).
void finish_pages(
    QPDF &out, std::vector<PlacedPage> const &placed, pe_item_finish const *finish, int strip, Where &where,
    pe_item_redact const *redact = nullptr);

// What flattening a sheet cell's page draws: content in the page's user space,
// with the appearances it names (`prefix` and a number) in `xobjects`.
struct FlattenedDrawing {
    std::string content;
    QPDFObjectHandle xobjects = QPDFObjectHandle::newDictionary();
};

// `finish` run on `page`, a sheet cell's page copy holding its copied
// annotations: those flattened or stripped leave its /Annots (so they are not
// placed on the sheet); what flattening draws is given back, not added to the
// page, whose content the cell's form already holds. `source_form` is the
// cell's source's /AcroForm: the output has none yet when cells are placed,
// and widgets get their appearances from its /DA, /DR and /NeedAppearances.
FlattenedDrawing finish_cell_page(
    QPDF &out, QPDFObjectHandle page, pe_item_finish const &finish, std::string const &prefix,
    QPDFObjectHandle source_form);

// Document information, XMP metadata and catalog entries of the first source, the
// title override, the structure tree (build_structure_tree; `annotations`: every
// annotation copy), and what had to be dropped (see Document.cpp).
void copy_document_data(
    QPDF &out,
    std::vector<Source> &sources,
    pe_item const *items,
    int first_item,
    int item_count,
    std::vector<PlacedPage> const &placed,
    std::vector<CopiedAnnotation> const &annotations,
    pe_export_options const *options,
    bool has_outline,
    Dropped &dropped,
    Where &where);

} // namespace pe

#endif
