// Internal to QPDFBridge: one output written as its only source's bytes followed
// by an incremental update (Appended.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_APPENDED_HH
#define PDFEDIT_QPDF_BRIDGE_APPENDED_HH

#include "Inputs.hh"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pe {

struct SourceStructure; // StructureTree.hh

// Where a file's last cross-reference section is (read from its last bytes).
struct FileTail {
    long long size = 0;       // of the file
    long long last_xref = 0;  // the offset its last startxref gives
    bool xref_stream = false; // that section is a cross-reference stream (else a table)
    bool ends_line = false;   // the file ends with an end-of-line
};

// An output that keeps every page of its only source, each at least once
// (reorder, rotate, relabel, bookmarks added, duplicate, the file inserted into
// itself): the source's file unchanged, byte for byte, followed by an
// incremental update (PDF 32000-1 7.5.6) holding only what the edit changed:
// when the order changed, a new page tree of one node and every page (its
// /Parent, rotation and the attributes it inherited), else only the turned
// pages; a further placement of a page as a new page object sharing the page's
// content, with new objects for its annotations (twin); the catalog (labels,
// bookmarks, XMP), the document information; then a cross-reference section of
// the kind the file's last one is, whose /Prev is that one (after a stream, the
// update's objects but streams packed in object streams). Everything else the
// source has stays, by construction, unparsed: rotating the even pages of a
// 327-page book with 2,038 links (TeXbyTopic) took 94 ms of CPU instead of the
// copying export's 287, and 0.55x qpdf's time (BENCHMARKS.md). A structure tree
// stays as it is (every page stays the object it was); a page used again gets
// the structure of its content cloned (clone_structure).
//
// Written when the caller allows it (PE_STRATEGY_APPENDED_UPDATE, decided in
// Swift by ExportStrategy.allowed from what the edit does and what the file
// holds: scripts the output drops, XFA, a portfolio, form fields on a page used
// twice keep it away) and the file can take it (for_file): never for a source
// qpdf read with warnings (damage: the update would point into it) or whose
// cross-reference table points outside the file, an encrypted one, one with a
// structure tree copying could not read, nor one whose bookmarks the given
// outline removes or renames; Assembly copies those.
class Appended {
  public:
    // The output made this way, for a plan the caller allowed it for; nullptr
    // when the file cannot take an update (see above).
    // nullptr when it cannot; `why` (when given) then says why, in words.
    static std::unique_ptr<Appended> for_file(Inputs &inputs, std::string *why = nullptr);

    // Changes the source in memory into the output (nothing is written yet).
    void build(Dropped &dropped);

    // Writes the source's bytes and the update to `out_path`; `started` is set
    // once the file may exist.
    void write(char const *out_path, bool &started);

    Appended(Inputs &opened, int source, FileTail const &tail, int original_objects);

  private:
    Inputs &inputs;
    int source_index;
    Source &source;
    Where &where;
    FileTail tail;
    int original_objects; // every object number of the file is below this
    std::deque<OutlineEntry> given_entries;
    std::vector<OutlineNode> given_outline_nodes;
    bool outline_given = false;
    std::vector<QPDFObjectHandle> changed; // the objects the update holds
    // New objects the update holds whose references all lead to objects of the
    // source, of `changed` or of this list (the structure's clones): written
    // without walking their content for more.
    std::vector<QPDFObjectHandle> settled;

    // A further placement of a page: its page object and, by source
    // annotation, its annotations.
    struct Twin {
        QPDFObjectHandle page;
        std::map<QPDFObjGen, QPDFObjectHandle> annotations;
    };
    // (source page, k >= 1) -> the twin of the page's (k+1)-th placement.
    std::map<std::pair<int, int>, Twin> twins;
    std::vector<int> uses; // placements of each source page
    // A tagged source's tree when a page is used twice; else null.
    std::shared_ptr<SourceStructure const> structure;
    // The first /StructParents number the twins can take (free_structure_numbers).
    long long first_structure_number = 0;

    // The first number above every key of the tree root's parent tree and its
    // /ParentTreeNextKey; -1 when that leaves too little room below PDF's
    // largest integer (copying renumbers such a tree).
    static long long free_structure_numbers(QPDFObjectHandle tree_root);

    // A new page object for a further placement of `page` (its first placement,
    // already changed): the page's entries, and its annotations as new objects
    // on it (/P the copy, popups and replies linked within the copy), sharing
    // their appearances, actions and the page's content.
    Twin twin(QPDFObjectHandle page);

    // The structure of the twins' content (AppendedStructure.cpp): for the k-th
    // further placements, a clone of each element with content on them, and
    // their ancestors (as copying's instance k), added after the root's kids;
    // new /StructParents and /StructParent numbers for the twins and their
    // annotations, in a new parent-tree leaf. Adds what it changes to `changed`
    // and the clones to `settled`.
    void clone_structure();

    std::string update_bytes();
};

} // namespace pe

#endif
