// Internal to QPDFBridge: a source's structure tree as read once
// (StructureRead.cpp), from which StructureTree.cpp builds the tree of each
// output: the elements with content on the output's pages, new objects pointing
// at the output's pages and annotations.
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

// Reads `source`'s /StructTreeRoot /K (bounded by page_tree_maximum_depth, each
// element once, anything that is not an element, MCID, MCR or OBJR ignored).
// Never throws: a tree it cannot read comes back unusable.
SourceStructure read_structure(Source &source);

} // namespace pe

#endif
