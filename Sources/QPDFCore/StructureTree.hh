// Internal to QPDFBridge: a source's structure tree as read once
// (StructureRead.cpp), from which StructureTree.cpp builds the tree of each
// output: the elements with content on the output's pages, new objects pointing
// at the output's pages and annotations; StructureWrite.cpp numbers and writes it.
#ifndef PDFEDIT_QPDF_BRIDGE_STRUCTURE_TREE_HH
#define PDFEDIT_QPDF_BRIDGE_STRUCTURE_TREE_HH

#include "Export.hh"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
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
    // The objects stream and target are (both always indirect), kept so that
    // another opening of the same file can find them (StructureShare).
    QPDFObjGen stream_og;
    QPDFObjGen target_og;
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
    // Where another opening of the same file finds dict (StructureShare): its
    // object when it is indirect, else its index in its parent's /K list (the
    // root's for a top-level element).
    QPDFObjGen og;
    int raw = -1;
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

// One source's structure tree read once by the threads of a split together,
// each with its own opening of the file (Parts.cpp gives every worker's Source
// the same share). Each thread that needs the tree reads its upper levels (the
// root's kids, then level by level until some dozens of elements wait to be
// read: the frontier), then reads the subtrees of the frontier no thread has
// taken yet, one at a time, waits for the others, and makes its own
// SourceStructure of all of them (the other threads' elements found again in
// its own opening by object number, read when an output uses them). The result
// is the tree read_structure gives: when an element is reached twice (which
// one a lone reader keeps depends on the order it walks the subtrees in) or a
// subtree cannot be read, every thread reads the whole tree itself instead.
class StructureShare {
  public:
    // `threads`: how many threads may take the tree; the subtrees as read are
    // freed once that many took it.
    explicit StructureShare(size_t threads) : takers(threads) {}

    // The tree of `source` (this thread's opening of the shared file).
    std::shared_ptr<SourceStructure const> take(Source &source);

    struct Piece; // one subtree as read by one thread, without its objects

  private:
    static constexpr size_t pieces_wanted = 64;
    static constexpr int upper_levels = 8;
    std::mutex lock;
    std::condition_variable finished;
    bool begun = false;
    bool whole = false;       // each thread reads the whole tree (read_structure)
    size_t upper = 0;         // elements in the upper tree
    std::vector<int> tops;    // the frontier: node indices of the subtrees to read
    std::vector<std::shared_ptr<Piece>> pieces; // by frontier element
    size_t next = 0;          // the next subtree nobody took
    size_t done = 0;          // the subtrees read
    bool checked = false;     // pieces checked for elements reached twice
    size_t takers;            // threads that have yet to take the tree
};

// What read_structure would make of `source`'s tree, by the same walk over its
// elements only: 0 no /StructTreeRoot dictionary, 1 readable, 2 unusable (too
// deep, or the walk failed), which copying drops with a warning.
int structure_readability(Source &source);

} // namespace pe

#endif
