#ifndef PDFEDIT_QPDF_BRIDGE_READER_H
#define PDFEDIT_QPDF_BRIDGE_READER_H
/* Reading an opened PDF for what it is (info, list, page sizes) and writing the
 * one-page PDF of an image. Included by QPDFBridge.h, whose pe_document,
 * pe_status, PE_E_* codes and pe_warning_fn these use. Every function catches
 * every C++ exception and reports it through pe_status (message: qpdf's detail,
 * without file name or offset, as pe_document_open words it); nothing here
 * prints. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Document-level facts. */
typedef struct pe_document_facts {
    int page_count;
    int encrypted;
    int allows_assembly; /* the permissions let pages be inserted, rotated, removed */
    int has_form;        /* /AcroForm /Fields is a non-empty array */
    int has_outlines;    /* /Outlines has a /First entry */
    int has_page_labels; /* the catalog has /PageLabels */
    int tagged;          /* the catalog has /StructTreeRoot */
} pe_document_facts;

/* Receives one named text: `key` and its value as UTF-8, NUL-terminated. */
typedef void (*pe_text_fn)(void *context, const char *key, const char *text);

/* Fills *facts with `document`'s facts and passes `text` its texts: "Version"
 * (the PDF version of its header, always) and the document information
 * dictionary's "Producer", "Creator", "Title", "Author", "Subject", "Keywords",
 * "CreationDate" and "ModDate" when they are strings (decoded
 * from PDFDocEncoding or UTF-16; cut at a NUL character). Returns status->code. */
int pe_document_read_facts(pe_document *document, pe_document_facts *facts, pe_text_fn text, void *context,
                           pe_status *status);

/* What a document holds besides its pages that an output of it carries or
 * leaves out, as facts: PDFEngine's ExportStrategy (SourceContents) judges
 * from them whether its pages may be rearranged in place, and the bridge then
 * carries its links, bookmarks and open action as copying does. */
typedef struct pe_document_contents {
    int annotations; /* dictionaries in the pages' /Annots arrays, over every page (0
                        when the pages are not read) */
    int form_fields; /* /AcroForm /Fields is a non-empty array */
    int xfa;         /* /AcroForm has /XFA */
} pe_document_contents;

/* Fills *contents and passes `each` (when not NULL) what the document holds,
 * each distinct text once, as (kind, text) — with `pages` 0 only what the
 * catalog holds ("catalog", "names", "open"; no walk over every page and
 * annotation, which a book's thousands of links make cost a tenth of an edit):
 *   ("catalog", key) and ("names", key): the keys of the catalog and of its
 *     /Names dictionary ("/Type");
 *   ("page", key): every key of some page dictionary;
 * (keys as written, their values not resolved: a key whose value is null is
 * listed, and nothing else of the file is parsed for it);
 *   ("annotation", page TAB shape TAB action): each distinct shape of an
 *     annotation dictionary (its kind the /Subtype) and of its /A action (its
 *     kind the /S; "none" when it has no /A) on each page (0-based, decimal);
 *   ("open", shape): the catalog's /OpenAction when it has one (kind /S);
 *   ("outline action", shape): the action of a bookmark that is not a
 *     destination in this file (as pe_document_read_outline reads them:
 *     URI, GoToR, named, JavaScript ...; kind /S).
 * A shape is "dict KIND KEY..." for a dictionary (or a stream's), KIND its
 * kind entry when a name, "-" when not, then its keys, each word PDF syntax
 * ("/Link", "/A#20B": no space or tab in a word) and one space between
 * words; "array", "name", "string" or "other" for any other value. Returns
 * status->code. */
int pe_document_read_contents(pe_document *document, int pages, pe_document_contents *contents, pe_text_fn each,
                              void *context, pe_status *status);

/* What decides whether a document may be written whole (PE_STRATEGY_WHOLE_FILE)
 * rather than copied: what copying drops with a warning, or writes otherwise
 * than the file has it. */
typedef struct pe_whole_file_facts {
    int repaired;         /* qpdf recovered damage when it opened the file */
    int page_tree_count;  /* the root /Pages node's /Count; -1 when it is no integer */
    int structure;        /* 0: no /StructTreeRoot dictionary; 1: a structure tree
                             copying reads; 2: one it cannot read and drops with a
                             warning (nested deeper than the page tree limit) */
    int scripts;          /* what copying drops without keep_scripts, naming it:
                             /Names /JavaScript, the catalog's /AA, an /OpenAction
                             that is neither an array nor a GoTo action, a bookmark
                             whose action runs JavaScript */
    int xfa;              /* /AcroForm has /XFA (always dropped by copying) */
    int optional_content; /* the catalog has /OCProperties (copying rebuilds it
                             from the layers the pages use) */
    int shared_annotations; /* an annotation dictionary listed twice in the pages'
                               /Annots, or given directly (copying gives such
                               placements new objects) */
} pe_whole_file_facts;

/* Fills *facts for a document opened for export (PE_OPEN_EXPORT); walks its
 * structure tree as copying would read it. Returns status->code. */
int pe_document_read_whole_file_facts(pe_document *document, pe_whole_file_facts *facts, pe_status *status);

/* Receives one bookmark; items come depth first, each after its parent. */
typedef void (*pe_outline_item_fn)(void *context, const pe_outline_item *item);

/* Passes `each` every bookmark of `document` (its /Outlines tree, read as
 * export reads it: named destinations resolved, GoTo actions followed, loops
 * cut, at most 64 levels). Returns status->code. */
int pe_document_read_outline(pe_document *document, pe_outline_item_fn each, void *context, pe_status *status);

/* One entry of a document's /PageLabels number tree, in key order. */
typedef struct pe_label_range {
    long long first;    /* its key: the 0-based page where the range starts */
    int usable;         /* the value is a dictionary; 0: its pages are labelled as if
                           the tree had no range for them */
    char style;         /* /S: 'D', 'r', 'R', 'a' or 'A'; 0: none (absent, or another name) */
    long long start;    /* /St when an integer of at least 1, else 1 */
    const char *prefix; /* /P as UTF-8 (QPDFObjectHandle::getUTF8Value: PDFDocEncoding,
                           UTF-16BE or UTF-8 with their marks; cut at a NUL character);
                           NULL when absent */
} pe_label_range;

typedef void (*pe_label_range_fn)(void *context, const pe_label_range *range);

/* Sets *has_labels to 1 when the catalog's /PageLabels is a dictionary (0 else) and
 * passes `each` its entries in order. Returns status->code. */
int pe_document_read_page_labels(pe_document *document, int *has_labels, pe_label_range_fn each, void *context,
                                 pe_status *status);

/* How page `page` (0-based) looks, its inherited /MediaBox, /CropBox and
 * /Rotate resolved by a bounded /Parent walk (PDF 32000-1 §7.7.3.4). Boxes are
 * [x0 y0 x1 y1], normalised. */
typedef struct pe_page_geometry {
    double media_box[4];   /* the MediaBox; US Letter when it has none usable */
    double crop_box[4];    /* the CropBox clipped to the MediaBox; the MediaBox when absent */
    int rotation;          /* pe_displayed_rotation of /Rotate: 0, 90, 180 or 270 */
    double user_unit;      /* /UserUnit when finite and positive, else 1 */
} pe_page_geometry;

/* Fills *geometry for page `page` (0-based) of `document`. A page out of range
 * is PE_E_PLAN with status->page_count the document's page count. Returns
 * status->code. */
int pe_document_page_geometry(pe_document *document, int page, pe_page_geometry *geometry, pe_status *status);

/* What page `page` (0-based) of `document` draws, for comparing pages: `hex`
 * (65 bytes) receives the SHA-256, in hex, of its content streams, resources,
 * annotations and geometry written by value (streams as stored, objects never by
 * number; an annotation's /A, /AA, /Dest and /PA, what a click does, left out),
 * equal for copies of a page in one file or two; `clicks_hex` (65 bytes) the
 * SHA-256 of what its annotations' clicks do (those /A, /AA, /Dest, /PA, in
 * order), so that `dup` can require both to be equal while `diff` pairs pages
 * whose links an export rewrote; *annotations its annotations other than
 * popups. A page past a million objects or 4 GB of streams is PE_E_LIMIT; one
 * out of range PE_E_PLAN. Returns status->code. */
int pe_document_page_fingerprint(pe_document *document, int page, char *hex, char *clicks_hex, int *annotations,
                                 pe_status *status);

/* One signed signature field of a document (its /V a signature dictionary). */
typedef struct pe_signature {
    const char *field;      /* the fully qualified field name (UTF-8; "" when no /T) */
    const char *name;       /* the dictionary's /Name as UTF-8; NULL when absent */
    const char *time;       /* its /M as written (a PDF date); NULL when absent */
    const char *sub_filter; /* its /SubFilter without the slash; NULL when absent */
    long long byte_range[4];
    int byte_range_valid;   /* /ByteRange is four integers: two ranges in order inside the file */
    int covers_file;        /* ... the first at offset 0 and the second ending at the file's end */
    int doc_mdp;            /* the DocMDP permission of its /Reference (1, 2 or 3), or 2 when
                               the catalog's /Perms /DocMDP names it without one; 0: none */
    int certification;      /* the catalog's /Perms /DocMDP is this signature */
} pe_signature;

typedef void (*pe_signature_fn)(void *context, const pe_signature *signature);

/* Passes `each` every signed signature field of `document`'s /AcroForm /Fields
 * tree, in tree order (depth first; at most 32 levels and 100,000 fields, each
 * node once), `file_size` being the size of its file in bytes (for
 * covers_file). Returns status->code. */
int pe_document_read_signatures(pe_document *document, long long file_size, pe_signature_fn each, void *context,
                                pe_status *status);

/* One stream of an image page: an image XObject or its soft mask. */
typedef struct pe_image_stream {
    /* PDF syntax of the stream dictionary's entries other than /Length,
     * /Filter, /DecodeParms and /SMask: "<< /Type /XObject /Subtype /Image ... >>". */
    const char *dictionary;
    const unsigned char *data;
    size_t size;
    const char *filter;       /* NULL: raw data (written Flate-compressed); else e.g. "/DCTDecode" */
    const char *decode_parms; /* NULL, or PDF syntax of /DecodeParms */
} pe_image_stream;

/* Receives bytes written (the whole file at once). */
typedef void (*pe_bytes_fn)(void *context, const unsigned char *bytes, size_t size);

/* Builds a one-page PDF showing `image` (with `mask` as its /SMask when not
 * NULL) as /Im0, the page's content being `content` and its /MediaBox
 * `media_box` (PDF syntax, "[0 0 W H]"), with
 * /UserUnit `user_unit` (PDF syntax) when not NULL; writes it deterministically
 * (/ID from the content; filtered streams as they are, raw ones Flate-compressed;
 * at least PDF `minimum_version`, e.g. "1.3") into memory and hands the bytes to
 * `out`. A failure while building is status->source_index 0, one while writing
 * -1. Returns status->code. */
int pe_write_image_page(const pe_image_stream *image, const pe_image_stream *mask, const char *media_box,
                        const char *user_unit, const char *content, const char *minimum_version,
                        pe_bytes_fn out, void *out_context, pe_status *status);

/* One embedded file of the merged list pe_documents_read_attachments hands over. */
typedef struct pe_listed_attachment {
    const char *name;         /* UTF-8: the name an export of these documents gives it */
    int source;               /* index into the documents; -1: one of `added` */
    const char *original;     /* the name in that source's tree (UTF-8); NULL for an added one */
    int added;                /* index into `added`; -1 for a source's */
    const char *description;  /* /Desc as UTF-8; NULL: none */
    const char *mime_type;    /* /Subtype of the embedded file stream (#xx decoded); NULL: none */
    const char *relationship; /* /AFRelationship without the slash; NULL: none */
    long long size;           /* /Params /Size; -1: not given */
    const unsigned char *data; /* with `with_data`: the decoded bytes (NULL when they cannot
                                  be decoded, or for an added one) */
    long long data_size;
} pe_listed_attachment;

typedef void (*pe_attachment_fn)(void *context, const pe_listed_attachment *entry);

/* The document-level embedded files an export of `documents` (in this order:
 * the sources of its pages in order of first appearance) writes: every
 * document's /Names /EmbeddedFiles entries but the `removed` ones (`source` an
 * index into `documents`), then the `added` names, each made unique as an export
 * makes it (" (2)", " (3)", ... for a name already taken), passed to `each` in
 * that order. With `with_data`, each source file's bytes are decoded (at most
 * `max_stream_bytes` each, 0: no limit; more is PE_E_LIMIT). Returns status->code. */
int pe_documents_read_attachments(pe_document *const *documents, int document_count,
                                  const pe_removed_attachment *removed, int removed_count,
                                  const char *const *added, int added_count, int with_data,
                                  long long max_stream_bytes, pe_attachment_fn each, void *context,
                                  pe_status *status);

#ifdef __cplusplus
}
#endif
#endif
