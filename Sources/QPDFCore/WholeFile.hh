// Internal to QPDFBridge: one output that is its only source written whole
// (WholeFile.cpp).
#ifndef PDFEDIT_QPDF_BRIDGE_WHOLE_FILE_HH
#define PDFEDIT_QPDF_BRIDGE_WHOLE_FILE_HH

#include "Inputs.hh"

namespace pe {

// Every page of one source, in its order, written as the source's own QPDF
// object rather than copied into a new document (PE_STRATEGY_WHOLE_FILE): the
// page tree, structure tree, form and annotations stay the objects they are.
// The catalog keeps what copying writes and loses what copying leaves out
// without a word (an entry it does not know, a form without fields, a
// /PageMode it does not carry, name trees other than embedded files and kept
// scripts, named destinations); links, bookmarks, the open action, document
// information, XMP packet and page labels are settled as the in-place rewrite
// settles them; the trailer is a new file's. Whatever copying would drop with a warning, or could not read
// (scripts without keep_scripts, XFA, a structure tree too deep, optional
// content it rebuilds, an annotation on two pages, a repaired file), the caller sent to copying before
// (Swift's ExportStrategy.allowed, from pe_document_read_whole_file_facts).
class WholeFile {
  public:
    WholeFile(Inputs &opened, int source);

    // Settles the source as the output; notes in `dropped` a given bookmark's
    // script it leaves out, as copying does (the caller allowed this strategy
    // only where copying drops nothing else).
    void build(Dropped &dropped);

    // Writes it to `out_path`; `started` is set once the file may exist.
    void write(char const *out_path, bool &started);

  private:
    Inputs &inputs;
    Source &source;
    Where &where;
};

} // namespace pe

#endif
