// Internal to QPDFBridge: one output made by rearranging its only source where
// it is (InPlace.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_IN_PLACE_HH
#define PDFEDIT_QPDF_BRIDGE_IN_PLACE_HH

#include "Export.hh"
#include "Inputs.hh"

namespace pe {

// One output made by rearranging its only source where it is, then writing that
// source: its pages become the output's page tree, in item order, with the
// inherited attributes and rotations a copy would get; a page used again is a
// shallow copy of its first use, as Assembly makes it. Nothing is copied: moving
// 3 pages of a 20,000-page file took 0.65 s and 111 MB instead of 1.05 s and
// 151 MB. Links, bookmarks and a destination open action are kept as copying
// keeps them (keep_annotations, write_outline, kept_open_destination): links
// to pages left out removed, named destinations made explicit, the outline
// written new. Only where the caller allows it (Swift's ExportStrategy.allowed,
// from what the file holds, pe_document_read_contents); everything else is
// copied by Assembly.
class InPlace {
  public:
    InPlace(Inputs &opened, int source);

    // The source of a plan the caller allowed this strategy for
    // (PE_STRATEGY_IN_PLACE); -1 when it could not be opened (copying then
    // reports why). The caller judged what the file holds: nothing is judged here.
    static int for_file(Inputs &inputs);

    // Rearranges the source into the output; notes in `dropped` a given
    // bookmark's script it leaves out, as copying does.
    void build(Dropped &dropped);

    // Writes it to `out_path`; `started` is set once the file may exist.
    void write(char const *out_path, bool &started);

  private:
    Inputs &inputs;
    Source &source;
    Where &where;
    size_t page_count = 0;
};

// What an output changing its source where it is (InPlace, Appended) reads from
// that source before anything changes: the page labels to write (`nums`, when
// `labelled`) and the rotation of each item's page.
struct BeforeChange {
    bool labelled = false;
    std::vector<QPDFObjectHandle> nums;
    std::vector<int> rotations;

    static BeforeChange read(Inputs &inputs, Source &source);
    // Gives the catalog `root` the labels read (`nums`), or no /PageLabels.
    void set_page_labels(QPDFObjectHandle root) const;
};

// What copying carries of the links and bookmarks of an output that is its
// source changed where it is (InPlace, WholeFile), read while the catalog is
// still the file's (named destinations, bookmarks): the links kept as copying
// keeps them (keep_annotations), and the outline to write new: the given one
// (its entries in `given`, which the nodes point into) or the sources' pruned
// to the output's pages.
std::vector<OutlineNode> keep_links_and_outline(
    QPDF &pdf, Inputs &inputs, std::vector<PlacedPage> &placed, std::deque<OutlineEntry> &given, Where &where);

// Writes `source`, changed where it is into an output of `page_count` pages
// (InPlace, WholeFile), to `out_path` with its own objects' encryption kept
// where asked; `started` is set once the file may exist.
void write_source_output(Inputs &inputs, Source &source, size_t page_count, char const *out_path, bool &started);

// A new page tree of `pdf` of one node holding `kids`, each given it as /Parent.
QPDFObjectHandle one_node_page_tree(QPDF &pdf, std::vector<QPDFObjectHandle> &kids);

// For an output that is its source changed where it is (InPlace, Appended): the
// document information (`old_info`, from the source's trailer, made indirect)
// and the XMP packet (`metadata`, the source's stream or none) as
// copy_document_data gives them to a copy: producer, dates and the fields of
// `options` set; `modified` is the date. Sets the catalog's /Metadata.
void settle_metadata(
    QPDF &pdf, QPDFObjectHandle metadata, QPDFObjectHandle old_info, pe_export_options const *options, long long modified);

// inherit_attributes within the source: the attributes page gets from its
// /Pages nodes, set on it; an inherited array or dictionary becomes one indirect
// object the pages share.
void inherit_in_place(QPDF &pdf, QPDFObjectHandle page, InheritedFrame const *inherited, SharedInherited &shared);

} // namespace pe

#endif
