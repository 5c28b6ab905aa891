// Internal to QPDFBridge: a clean file's objects read from their bytes
// (PlainObjects.cpp), for the copier (Copier.cpp) to copy without qpdf's parser,
// which costs about 27,000 instructions for a page's content-stream dictionary.
#ifndef PDFEDIT_QPDF_BRIDGE_PLAIN_OBJECTS_HH
#define PDFEDIT_QPDF_BRIDGE_PLAIN_OBJECTS_HH

#include "PlainSyntax.hh"
#include "Source.hh"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/QPDFXRefEntry.hh>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pe {

// A source whose objects may be read from their bytes: clean (qpdf read it
// without a warning, and its page list was read from the page tree's bytes),
// unencrypted, opened for one export. Its file and cross-reference table.
struct RawSource {
    std::shared_ptr<ReadInputSource> file;
    std::map<QPDFObjGen, QPDFXRefEntry> xref;
};

// Registers `raw` as `pdf`'s for the copier (held weakly: the Source that opened
// `pdf` holds it), and finds it again.
void register_raw_source(QPDF &pdf, std::shared_ptr<RawSource> const &raw);
std::shared_ptr<RawSource> raw_source_of(QPDF &pdf);

// One PDF value read from a file's bytes, as qpdf's parser would make it.
struct PlainValue {
    enum class Kind : unsigned char { null, boolean, integer, real, name, string, reference, array, dictionary };
    Kind kind = Kind::null;
    bool flag = false;                                       // boolean
    long long number = 0;                                    // integer
    std::string text;                                        // real as written, name with its slash, string's bytes
    QPDFObjGen reference;                                    // reference
    std::vector<PlainValue> items;                           // array
    std::vector<std::pair<std::string, PlainValue>> entries; // dictionary: by key, null values left out

    // A dictionary's value for `key`, or null.
    PlainValue const *find(char const *key) const;
};

// An indirect object read from its bytes; for a stream, where its data lies.
struct PlainObject {
    PlainValue value;
    bool stream = false;
    qpdf_offset_t data_offset = 0;
    size_t length = 0;
};

// Object `og` of `raw` read from its bytes through `window`, or null where any
// of it is not plain (PlainSyntax.hh), it is not stored as itself in the file (in
// an object stream, or not in the table), or qpdf would warn reading it (a
// header that names another object, a key given twice, a stream without a line
// break after `stream` or without `endstream` /Length bytes later, no `endobj`),
// or a dictionary's /Type is a reference (the copier's stops depend on it).
std::unique_ptr<PlainObject> read_plain_object(RawSource const &raw, QPDFObjGen og, FileWindow &window);

} // namespace pe

#endif
