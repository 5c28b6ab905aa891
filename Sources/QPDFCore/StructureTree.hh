// Internal to QPDFBridge: a source's structure tree as read once
// (StructureRead.cpp), from which StructureTree.cpp builds the tree of each
// output: the elements with content on the output's pages, new objects pointing
// at the output's pages and annotations; StructureWrite.cpp numbers and writes it.
#ifndef PDFEDIT_QPDF_BRIDGE_STRUCTURE_TREE_HH
#define PDFEDIT_QPDF_BRIDGE_STRUCTURE_TREE_HH

#include "Export.hh"

#include <map>
#include <string>
#include <vector>

namespace pe {

// One entry of an element's /K, in order.
struct StructureItem {
    enum Kind {
        element,   // a child element (node)
        marked,    // an integer (an MCID): marked content on the element's page
        reference, // a marked-content reference (/Type /MCR), maybe in a form XObject (/Stm)
        object,    // an object reference (/Type /OBJR): an annotation or an XObject
    };
    Kind kind = element;
    int node = -1;           // element: its node index
    int page = -1;           // content: 0-based source page; -1 none (never kept)
    long long mcid = -1;     // marked, reference
    QPDFObjectHandle stream; // reference: the form XObject (/Stm); uninitialised: the page
    QPDFObjectHandle target; // object: /Obj
};

// One structure element of a source.
struct StructureNode {
    QPDFObjectHandle dict;
    int parent = -1;         // node index; -1: a child of the root
    int position = 0;        // its index among its parent's items (or the root's kids)
    int page = -1;           // its own /Pg as a 0-based source page; -1 none
    bool contentless = true; // no content item anywhere in its subtree
    std::vector<StructureItem> items;
    std::vector<int> empty_kids; // positions of its contentless child elements
};

// Where a content item is: node and item index.
struct ContentPlace {
    int node;
    int item;
};

// A source's structure tree, read once however many outputs use it.
struct SourceStructure {
    bool usable = false; // false: absent or malformed (error says why)
    std::string error;
    std::vector<StructureNode> nodes;
    std::vector<int> top;         // the root's child elements (node indices), in order
    std::vector<int> empty_top;   // positions in `top` of contentless ones
    std::map<int, std::vector<ContentPlace>> on_page; // content items by source page
    std::map<QPDFObjGen, int> index; // node of an indirect element
};

// An entry of a merged /RoleMap or /ClassMap: its value in the output and, to
// compare it with other sources' values, its source value written out.
struct MapEntry {
    std::string signature;
    QPDFObjectHandle value;
};

// What the tagged sources built so far give the output (StructureTree.cpp), for
// write_tree.
struct Merged {
    std::vector<QPDFObjectHandle> top; // the root's kids
    std::map<size_t, std::map<long long, QPDFObjectHandle>> page_marks; // placed page -> MCID -> element
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> annotations; // copy, element
    std::vector<std::pair<QPDFObjectHandle, std::map<long long, QPDFObjectHandle>>> forms;
    std::vector<std::pair<QPDFObjectHandle, QPDFObjectHandle>> objects; // XObject, element
    std::map<std::string, MapEntry> roles;   // /RoleMap
    std::map<std::string, MapEntry> classes; // /ClassMap
    std::map<std::string, QPDFObjectHandle> ids;
    std::vector<QPDFObjectHandle> namespaces;
    // The element made for each kept source element (first instance), by source.
    std::map<std::pair<int, QPDFObjGen>, QPDFObjectHandle> elements;
    QPDFObjectHandle mark_info; // of the first kept source that has one; uninitialised none
    bool marked = false;        // a kept source's /MarkInfo says /Marked true
};

// How deep a value copied from a source (an attribute, a class map entry) and the
// form XObjects searched for stale numbers may nest.
constexpr int max_value_depth = 32;

// Removes the /StructParents and /StructParent numbers the output's pages, their
// annotations and the form XObjects they use (searched max_value_depth deep)
// kept from their sources: each is given anew.
void strip_structure_numbers(std::vector<PlacedPage> const &placed);

// Points the structure destinations (/A /SD) of the copied links at the output's
// elements (see StructureWrite.cpp).
void retarget_structure_destinations(
    std::vector<Source> &sources,
    std::vector<PlacedPage> const &placed,
    std::vector<CopiedAnnotation> const &copied,
    Merged const &merged);

// Gives the output's pages, annotations and XObjects their numbers, `root` its
// entries, and makes it the output's /StructTreeRoot (with /MarkInfo).
void write_tree(QPDF &out, QPDFObjectHandle root, Merged &merged, std::vector<PlacedPage> const &placed);

// Reads `source`'s /StructTreeRoot /K (bounded by page_tree_maximum_depth, each
// element once, anything that is not an element, MCID, MCR or OBJR ignored).
// Never throws: a tree it cannot read comes back unusable.
SourceStructure read_structure(Source &source);

// What read_structure would make of `source`'s tree, by the same walk over its
// elements only: 0 no /StructTreeRoot dictionary, 1 readable, 2 unusable (too
// deep, or the walk failed), which copying drops with a warning.
int structure_readability(Source &source);

} // namespace pe

#endif
