#ifndef PDFEDIT_QPDF_BRIDGE_H
#define PDFEDIT_QPDF_BRIDGE_H
#include <stddef.h>
/* PDFEngine's one way to qpdf: an extern "C" layer over qpdf's C++ API (Swift
 * uses no qpdf header). It opens and checks files (pe_document_open), reads what
 * they are (QPDFBridgeReader.h: facts, page geometry) and carries out exports:
 * copying pages across files with their annotations, forms, outlines and labels,
 * stamps as form XObjects. Swift decides *what* goes where (the plan); this layer
 * only carries it out. Every function catches every C++ exception and reports it
 * through pe_status; nothing here prints. */
#ifdef __cplusplus
extern "C" {
#endif

/* The version of the libqpdf in use (QPDF::QPDFVersion). */
const char *pe_qpdf_version(void);

/* How many levels any tree read from a file (page tree, page-label and name
 * trees, form fields, outline) may nest: 1,024 until the kit sets the process's
 * limit (PDFEDIT_MAX_DEPTH) once; a value below 1 is ignored. The one home of the
 * depth limit: every walk of a tree is the bridge's (PageTree.cpp). */
void pe_set_tree_depth_limit(int levels);
int pe_tree_depth_limit(void);

/* PROCESS-WIDE: the zlib level (1 fastest .. 9 smallest; -1 zlib's default, 6)
 * at which qpdf deflates what its writer compresses itself — object streams,
 * cross-reference streams, unfiltered streams — in every output this process
 * writes from then on. It is qpdf's Pl_Flate::setCompressionLevel, a static of
 * the library (qpdf 11 has no per-writer level); the bridge itself never calls
 * it (a library leaves process-wide settings to its host: PDFEditKit's
 * ProcessSettings.setWriterFlateLevel), and a host calls it once at start-up,
 * before any thread writes. A value outside -1..9 is ignored. --compress
 * deflates the streams it rewrites at level 9 whatever this is (zlib's own
 * argument, Compress.cpp). */
void pe_set_process_flate_level(int level);

/* The clockwise turn, 0, 90, 180 or 270, a viewer gives a page whose /Rotate is
 * the integer `value` (`is_integer` nonzero) or a non-integer (`is_integer` zero):
 * an integer multiple of 90 normalised into 0..270 (-90 is 270, 450 is 90); any
 * other value (45, 135, a real such as 90.0) counts as 0, as poppler (which
 * renders our pages) and pdf.js show 45 and 135, and poppler a real. The one home of this rule: info, list, export, stamps and rendering
 * all read /Rotate through it. */
int pe_displayed_rotation(int is_integer, long long value);

/* Outcome of a bridge call. code: 0 success, otherwise one of PE_E_*. */
enum {
    PE_OK = 0,
    PE_E_INTERNAL = 1,   /* a bug or an unexpected library error */
    PE_E_SYSTEM = 2,     /* I/O: cannot read an input / write the output */
    PE_E_UNSUPPORTED = 3,
    PE_E_PASSWORD = 4,   /* wrong or missing password */
    PE_E_DAMAGED = 5,    /* damaged beyond repair */
    PE_E_PAGES = 6,      /* unusable page tree */
    PE_E_PLAN = 7,       /* the plan itself is inconsistent (bad source index, page out of range) */
    PE_E_LIMIT = 8       /* an input over a documented limit (status->message says which) */
};

typedef struct pe_status {
    int code;
    int source_index;  /* the source the error belongs to, -1 for the output / none */
    int page;          /* 1-based page of that source, 0 when unknown */
    char message[1024];
    int page_count;    /* PE_E_PLAN for a page out of range: that source's page count, else 0 */
} pe_status;

/* A PDF the bridge has opened and checked (pe_document_open), kept so that an
 * export in the same process need not read and check it again. */
typedef struct pe_document pe_document;

typedef struct pe_source {
    const char *path;
    const char *password; /* NULL or "" when none */
    /* Further passwords to try, in order, when `password` is refused (so the
     * caller need not open the file once more just to find the right one). */
    const char *const *alternatives;
    int alternative_count;
    /* A short name for the source (its file stem): the title of its top-level
     * outline entry when several sources contribute outlines. */
    const char *name;
    /* NULL, or `path` as opened by pe_document_open: used instead of opening the
     * file (no password needed). A call may change the document in memory as it
     * copies from it, so give it to one call at a time, never to two threads. */
    pe_document *document;
    /* Nonzero: this pe_export call is the document's last use, so it may free
     * what it read before writing (less memory; not when there are stamps);
     * pe_document_close is still needed. Ignored without a document and by
     * pe_export_parts. */
    int document_last_use;
    /* NULL, or the file whose modification time dates the output instead of
     * `path`'s (an image's own file, not the one-page PDF made of it). */
    const char *dated_path;
} pe_source;

enum { PE_ITEM_PAGE = 0, PE_ITEM_BLANK = 1, PE_ITEM_SHEET = 2 };

/* A box an item sets on its output page (`crop`), in the page's default user
 * space (points for a blank page); `set` 0: the page keeps its own. */
typedef struct pe_box {
    int set;
    double x0, y0, x1, y1;
} pe_box;

/* A source page drawn onto a new page as a form XObject whose /BBox is the
 * page's visible box (its CropBox clipped to its MediaBox): `matrix` [a b c d
 * e f] (as `cm` takes it) from the page's default user space to the new
 * page's, and, when `clip` is nonzero, the box `clip_box` [x0 y0 x1 y1] (the
 * page's space) the drawing is clipped to. Computed by the caller (PageModel's
 * FormPlacement); the bridge only writes it. */
typedef struct pe_placement {
    double matrix[6];
    int clip;
    double clip_box[4];
} pe_placement;

/* A page made anew by `resize` (pe_item.resize): MediaBox [0 0 width height]
 * in its own units, /UserUnit `user_unit` when it is not 1, drawing the item's
 * source page at `placement`. */
typedef struct pe_resize {
    double width;     /* user space units */
    double height;
    double user_unit; /* points per unit: 1, or more for a side over 14,400 points (PageSize.userUnit) */
    pe_placement placement;
} pe_resize;

/* One cell of a sheet: kind PE_ITEM_PAGE draws page `page` (0-based) of
 * sources[source] as one form XObject per source page per output, at
 * `placement` (sheet user space); its annotations move with it (links keep
 * working, destinations into it point at the sheet) and its form fields are
 * dropped with one warning naming them. PE_ITEM_BLANK: an empty cell (nothing
 * drawn). `stamps` (their `item`: the sheet's index) are drawn onto the cell's
 * page as onto an item's, before it is placed (see pe_stamp below): on a copy
 * of the page turned by `quarter_turns` more than its own /Rotate, with `crop`
 * as its crop box when set, which becomes the form (the placement then draws
 * that copy's visible box). */
typedef struct pe_sheet_cell {
    int kind;
    int source;
    int page;
    int quarter_turns;
    pe_box crop;
    pe_placement placement;
    const struct pe_stamp *stamps;
    int stamp_count;
    /* NULL, or the cell's item's `flatten`/`strip` steps (pe_item_finish), run
     * on the cell's page copy once its annotations are copied: what flattening
     * draws goes onto the sheet over the cell, what it removes stays off it. */
    const struct pe_item_finish *finish;
} pe_sheet_cell;

/* Indices of pe_item.boxes. */
enum { PE_BOX_CROP = 0, PE_BOX_TRIM = 1, PE_BOX_BLEED = 2, PE_BOX_ART = 3 };

typedef struct pe_item {
    int kind;          /* PE_ITEM_* */
    int source;        /* PE_ITEM_PAGE: index into sources */
    int page;          /* PE_ITEM_PAGE: 0-based page index in that source */
    double width;      /* PE_ITEM_BLANK, PE_ITEM_SHEET: size in points */
    double height;
    /* PE_ITEM_BLANK, PE_ITEM_SHEET: points per user space unit of the new page
     * (1, or more for a side over 14,400 points: PageModel's PageSize.userUnit);
     * its MediaBox is [0 0 width/user_unit height/user_unit]. */
    double user_unit;
    int quarter_turns; /* clockwise quarter turns added to the page's own /Rotate */
    /* NULL, or four PE_BOX_* boxes written on the page, never touching its
     * content; the MediaBox grows to hold any that reaches outside it (negative
     * margins). Items may share one array. Pointers rather than values: most
     * items have neither boxes nor a resize, and 20,000 items carried them as
     * 4 MB of zeros. */
    const pe_box *boxes;
    /* NULL, or `resize`'s: a nonzero width and height make the page a new
     * one (see pe_resize) drawing the source page through a form XObject of it;
     * its annotations and the destinations aiming at it move with it by the
     * placement's matrix. `quarter_turns` and `boxes` above then apply to the
     * resized page (boxes in points). */
    const pe_resize *resize;
    /* PE_ITEM_SHEET (`nup`, `booklet`): a new page of width x height points
     * whose `cell_count` cells each show a source page (see pe_sheet_cell);
     * quarter_turns and boxes above apply to the sheet. */
    const pe_sheet_cell *cells;
    int cell_count;
} pe_item;

/* Permissions of an encrypted output (pe_export_options.denied), as qpdf's R6 setters name them. */
enum {
    PE_ALLOW_PRINT = 1,     /* print (high resolution) */
    PE_ALLOW_COPY = 2,      /* extract text and images */
    PE_ALLOW_MODIFY = 4,    /* other modifications */
    PE_ALLOW_ANNOTATE = 8,  /* add or change annotations (and fill forms) */
    PE_ALLOW_FORM = 16,     /* fill in form fields */
    PE_ALLOW_ASSEMBLE = 32  /* insert, rotate, delete pages */
};

/* The message of the warning sent (with that source's index) once for each
 * encrypted source whose pages go into an output written unencrypted (neither
 * passwords nor keep_encryption): the caller words it, e.g. one line naming them all. */
#define PE_WARNING_DECRYPTED "encrypted source written unencrypted"

/* The message of the warning sent (with the source's index) when pe_export wrote
 * the output as that source's bytes followed by an appended update (its signed
 * bytes intact): the caller words it, never prints it as it is. */
#define PE_WARNING_APPENDED "written as an appended update"

/* How the message of a PE_E_PLAN failure starts when the output had to be an
 * appended update (PE_STRATEGY_REQUIRED) and the file cannot take one; the
 * reason follows. */
#define PE_MESSAGE_NOT_APPENDED "cannot be written as an appended update: "

enum { PE_LABELS_KEEP = 0, PE_LABELS_RENUMBER = 1, PE_LABELS_NONE = 2 };

/* How pe_export may write an output besides copying its pages
 * (pe_export_options.strategies), allowed by the caller (PDFEngine's
 * ExportStrategy.allowed) only for a plan of one source's plain pages, no
 * stamps, whose changes that strategy writes as copying would, its document
 * (if any) at its last use. APPENDED_UPDATE: the source's bytes followed by an
 * update, so nothing may be taken out; IN_PLACE: the source rearranged in
 * memory and written whole, its links, bookmarks, named destinations and
 * destination open action carried as copying carries them (links to pages
 * left out removed, named destinations made explicit, the outline written new)
 * — the caller read what the file holds (pe_document_read_contents) and judged
 * it. The bridge falls back to copying only when the file cannot be opened. */
enum { PE_STRATEGY_APPENDED_UPDATE = 1, PE_STRATEGY_IN_PLACE = 2 };
/* With PE_STRATEGY_APPENDED_UPDATE: the output must be the appended update (a
 * signed file's bytes kept, `--keep-signatures`); a file that cannot take one
 * fails with PE_E_PLAN, PE_MESSAGE_NOT_APPENDED and why, instead of falling
 * back to another way. */
enum { PE_STRATEGY_REQUIRED = 4 };
/* The source written whole (every page, in its order, with its own catalog
 * entries, structure tree, form and names), without copying its pages: only
 * for a plan of every page of one source in order, unrotated, with at most the
 * document information, page labels, encryption, compression, linearization
 * or image resampling changed, the source at its document's last use, and only
 * when the caller read the file's facts (pe_document_read_whole_file_facts)
 * and found nothing copying would drop or change (PDFEngine's
 * ExportStrategy.allowed). The bridge leaves out of the catalog what copying
 * does not write, as copying does, and judges nothing else. Tried after
 * PE_STRATEGY_APPENDED_UPDATE, before PE_STRATEGY_IN_PLACE. */
enum { PE_STRATEGY_WHOLE_FILE = 16 };

/* One item's label from its document's own label ranges (`pdfedit labels`). */
typedef struct pe_page_label {
    char style;         /* 'D', 'r', 'R', 'a', 'A'; 0: no number (the prefix alone) */
    long long number;   /* the page's number in its range, >= 1 */
    const char *prefix; /* UTF-8, "" for none */
} pe_page_label;

/* One bookmark: as pe_document_read_outline hands it over (`page` a page of
 * the document), and as pe_export_options.outline gives it (`page` an index
 * into the export's items). */
typedef struct pe_outline_item {
    int level;          /* 0 for a top-level entry, 1 for its children, ... */
    const char *title;  /* UTF-8, NUL-terminated (cut at a NUL character) */
    int page;           /* 0-based target page; -1: none (no destination, one elsewhere, a missing page) */
    int open;           /* its /Count is positive */
    const char *view;   /* the destination after the page in PDF syntax, one value a line
                         * ("/XYZ\n72\n700\nnull"); NULL when there is none */
    int has_color;
    double color[3];    /* /C when has_color */
    int flags;          /* /F; -1 when absent */
    const char *uri;    /* a URI action's address (page -1 then); NULL when none */
    const char *action; /* another action that leaves the document (GoToR, Launch, Named,
                         * JavaScript, ...: page -1 then) as a self-contained dictionary in
                         * PDF syntax; NULL when none, or when it cannot travel (it refers
                         * to a page of its file, or nests too deep) */
    int cell;           /* given outline: 1-based cell of a sheet item `page` whose page the entry
                         * aims at (its view is that page's, moved onto the sheet); 0: none */
} pe_outline_item;

/* A caller's request to stop one export (pe_export_options.cancel): raised from
 * any thread, read by pe_export_parts before each part. Both calls are atomic. */
typedef struct pe_flag {
    int raised;
} pe_flag;
void pe_flag_raise(pe_flag *flag);
int pe_flag_is_raised(const pe_flag *flag);

/* A file the caller attaches to an output (`pdfedit attach add`): written as an
 * embedded file stream (/Type /EmbeddedFile, /Subtype its MIME type, /Params
 * /Size, /CreationDate, /ModDate and /CheckSum, the MD5 of the bytes) in a file
 * specification (/F and /UF the name, /Desc, /AFRelationship). Document level
 * (`item` -1): an entry of /Names /EmbeddedFiles and of the catalog's /AF;
 * page level: a FileAttachment annotation on the page of items[item] (an index
 * into the whole `items` list; a part without that item leaves it out). */
typedef struct pe_attachment {
    const char *name;                 /* UTF-8; made unique among the output's files as
                                         the sources' are (" (2)", ...) */
    const unsigned char *data;
    long long size;
    const char *mime_type;            /* e.g. "application/pdf" */
    const char *description;          /* UTF-8; NULL: none */
    const char *relationship;         /* "Source", "Data", "Alternative", "Supplement",
                                         "Unspecified"; NULL: none */
    const char *date;                 /* a PDF date ("D:20240131120000Z") for /CreationDate
                                         and /ModDate; NULL: none */
    int item;                         /* -1: document level; else an index into items */
} pe_attachment;

/* A source's embedded file left out of an output (`pdfedit attach remove`): the
 * entry named `name` (as the source's own name tree has it, UTF-8) of the
 * /EmbeddedFiles tree of sources[source], and its /AF entry. */
typedef struct pe_removed_attachment {
    int source;
    const char *name;
} pe_removed_attachment;

/* One region of pe_item_redact: a rectangle in the output page's default user
 * space (x0 < x1, y0 < y1) and its fill colour (0..1 each). */
typedef struct pe_redact_region {
    double x0, y0, x1, y1;
    double red, green, blue;
} pe_redact_region;

typedef struct pe_item_redact {
    const pe_redact_region *regions; /* NULL when region_count is 0 */
    int region_count;
} pe_item_redact;

typedef struct pe_export_options {
    int deterministic_id;       /* nonzero: QPDFWriter::setDeterministicID */
    const char *user_password;  /* both non-NULL: encrypt with AES-256 (R6) */
    const char *owner_password;
    int denied;                 /* with the passwords: PE_ALLOW_* bits NOT granted (0: all) */
    int keep_encryption;        /* > 0 and no passwords: the output keeps the encryption of
                                   sources[keep_encryption - 1] when that source is
                                   encrypted (method, permissions, both passwords, its
                                   first /ID: QPDFWriter::copyEncryptionParameters) */
    int labels;                 /* PE_LABELS_*: keep each page's source label (default;
                                   no /PageLabels when no source has any), plain 1..n,
                                   or no /PageLabels */
    const char *title;          /* non-NULL: the output's title (Info /Title and XMP dc:title);
                                   "": none (removed from both) */
    const char *author;         /* non-NULL: Info /Author and XMP dc:creator; "": removed */
    const char *subject;        /* non-NULL: Info /Subject and XMP dc:description; "": removed */
    const char *keywords;       /* non-NULL: Info /Keywords and XMP pdf:Keywords; "": removed.
                                   When any of these four is given and the output would
                                   have no XMP packet, one is made */
    const pe_page_label *page_labels; /* non-NULL: one per item of the plan, the document's
                                   own labels, which replace the sources' with
                                   PE_LABELS_KEEP (none written when every one is
                                   empty: no style, no prefix) */
    long long max_stream_bytes; /* > 0: what one stream the export decodes (a stamp page's
                                   contents, XMP metadata) may inflate to; more is
                                   PE_E_LIMIT naming the source and page. 0: no limit */
    /* NULL, or told how far the writing got, `done` of `total`: the percent of the
     * file written (pe_export) or the parts written (pe_export_parts, from its
     * worker threads, one call at a time). */
    void (*progress)(void *context, int done, int total);
    void *progress_context;
    int threads;                /* pe_export_parts: write parts on this many threads, 1
                                   (none) to 64; any other value: as many as the CPUs
                                   this process may run on, at most 4 (the kit sets it
                                   from PDFEDIT_THREADS). pe_export with compress, and
                                   pe_export_parts on one thread: recompress streams on
                                   this many (the same bytes whatever the number) */
    int strategies;             /* PE_STRATEGY_* bits: the ways pe_export may write the
                                   output besides copying (0: copy), as the caller
                                   decided them from the edit; pe_export_parts
                                   always copies */
    int keep_scripts;           /* nonzero: keep the sources' JavaScript (/Names
                                   /JavaScript, merged under unique names) and the first
                                   source's /OpenAction and /AA; zero: leave them out,
                                   named in the dropped-data warning (an open action
                                   that only shows a page is kept either way) */
    int outline_given;          /* nonzero: pe_export writes `outline` (`outline_count`
                                   bookmarks, depth first, each after its parent,
                                   `page` an index into items or -1 for a heading,
                                   `view` NULL for [/XYZ null null null]; none when
                                   the count is 0) instead of the sources' merged
                                   bookmarks (pe_export_parts: each pe_part's own);
                                   zero: the sources' (pe_outline_starts always
                                   uses the sources') */
    const pe_outline_item *outline;
    int outline_count;
    /* NULL, or told where the export's time went when it ends (also after a
     * failure): one call per phase that ran ("open", "plan", "pages", "stamps",
     * "links", "fields", "outlines", "labels", "document", "structure", "layers",
     * "metadata", "write"), with its wall milliseconds (pe_export_parts: summed over
     * parts and threads), from the calling thread (the kit sets it when
     * PDFEDIT_TIMING is in the environment) */
    void (*timing)(void *context, const char *phase, double milliseconds);
    void *timing_context;
    /* NULL, or a flag the caller may raise (pe_flag_raise) from another thread:
     * pe_export_parts then starts no further part and fails with PE_E_PLAN
     * "cancelled", leaving no part behind */
    const pe_flag *cancel;
    /* Nonzero (`--compress`): the output is made as small as it losslessly can:
     * identical streams written once, Flate streams recompressed at zlib's best
     * level, object streams (see compress_streams in Compress.hh). Only the
     * copying path writes it: the caller allows no other strategy with it. */
    int compress;
    /* Nonzero (`--linearize`): QPDFWriter::setLinearization (fast web view);
     * copying path only, as compress. */
    int linearize;
    /* NULL, or filled by pe_export with what `compress` did (pe_export_parts
     * leaves it alone). */
    struct pe_compress_report *compress_report;
    /* NULL, or one per item of the plan: what `flatten` and `strip` do to that
     * item's output page, in order, once its annotations and the form are in
     * place (Finishing.cpp). Only the copying path writes it: the caller allows
     * no other strategy with it. */
    const struct pe_item_finish *finish;
    int strip; /* PE_STRIP_* bits: document-level parts every output leaves out */
    /* Files attached to the output after the sources' own are merged (see
     * pe_attachment), and sources' files left out. */
    const pe_attachment *attachments;
    int attachment_count;
    const pe_removed_attachment *removed_attachments;
    int removed_attachment_count;
    /* NULL, or one per item of the plan: the regions redacted on that item's
     * output page (Redact.cpp), before its stamps are drawn; annotations meeting
     * one are removed with the finishing steps. A page that cannot be redacted
     * fails the export with PE_E_UNSUPPORTED, the message starting "cannot
     * redact: ". Only the copying path writes it. */
    const struct pe_item_redact *redact;
    /* > 0 (`--images DPI[:QUALITY]`): before `compress` (which it implies), raster
     * images drawn finer than images_dpi are resampled to it, photographs written
     * as JPEG at images_quality (1-100), the rest with Flate (see Images.hh);
     * copying path only, as compress. `max_pixels` (> 0) bounds the samples of an
     * image the pass decodes (0: no bound). */
    int images_dpi;
    int images_quality;
    long long max_pixels;
    /* The texts `redact --text` removed from the pages (UTF-8): where the
     * output still writes one outside the pages' content — a link's URI, an
     * annotation's /Contents, a file attachment annotation's or an embedded
     * file's name, a page label's prefix — a warning line says so (source
     * index -1, starting PE_REDACTED_LEFTOVER); with `scrub` non-zero that URI
     * action, /Contents, attachment or prefix is removed and the line says so. */
    const char *const *redacted_texts;
    int redacted_text_count;
    int scrub;
} pe_export_options;

/* How each warning line of pe_export_options.redacted_texts starts. In a
 * split (pe_export_parts) the prefix is followed by the part's index (from 0)
 * and ": ", so that the line names the part's file. */
#define PE_REDACTED_LEFTOVER "redacted text: "

/* One step of pe_item_finish. */
enum {
    PE_FINISH_FLATTEN_ANNOTATIONS = 1, /* annotations with an appearance drawn into the page and removed */
    PE_FINISH_FLATTEN_FORMS = 2,       /* widgets only; appearances generated first where missing */
    PE_FINISH_STRIP_ANNOTATIONS = 3,   /* annotations of `types` removed (with their pop-ups) */
    PE_FINISH_STRIP_THUMBNAILS = 4     /* the page's /Thumb removed */
};

typedef struct pe_finish_step {
    int kind;          /* PE_FINISH_* */
    const char *types; /* PE_FINISH_STRIP_ANNOTATIONS: subtypes without the slash, separated by
                          spaces (e.g. "Link Highlight"); NULL or "": every annotation */
} pe_finish_step;

typedef struct pe_item_finish {
    const pe_finish_step *steps; /* NULL when step_count is 0 */
    int step_count;
} pe_item_finish;

/* pe_export_options.strip: what `strip` leaves out of the whole output. */
enum {
    PE_STRIP_JAVASCRIPT = 1,  /* /Names /JavaScript, /OpenAction and /AA of the catalog, and the
                                 JavaScript actions of pages, annotations and fields (not
                                 named in the dropped-data warning: the caller asked) */
    PE_STRIP_ATTACHMENTS = 2, /* embedded files, /AF, /Collection, file attachment annotations */
    PE_STRIP_METADATA = 4,    /* /Info and the XMP of the document and its pages (the title,
                                 author, subject and keywords given are still written) */
    PE_STRIP_STRUCTURE = 8    /* the structure tree, /MarkInfo, /StructParents; a PDF/UA claim goes */
};

/* What pe_export_options.compress did to one output. */
typedef struct pe_compress_report {
    long long duplicates;         /* copies of identical objects left out (streams, and the
                                     resource objects of Compress.cpp's `shareable`) */
    long long duplicate_bytes;    /* their bytes: a stream's raw data as the sources had it,
                                     another object's text */
    long long recompressed;       /* streams whose data got smaller at zlib's best level (or
                                     without a predictor), and XMP packets without padding */
    long long recompressed_saved; /* bytes that saved */
    long long images;             /* with images_dpi: images resampled and written again */
    long long images_saved;       /* bytes that saved (their soft masks' included) */
} pe_compress_report;

/* One output file of a split export: items [first_item, first_item + item_count). */
typedef struct pe_part {
    int first_item;
    int item_count;
    const char *out_path;
    /* With pe_export_options.outline_given: this part's bookmarks (`page` an
     * index into the part's own items), as pe_export_options.outline is given. */
    const pe_outline_item *outline;
    int outline_count;
} pe_part;

/* Receives each warning line (damage recovered, data dropped, ...). qpdf's own
 * warnings about a damaged input it recovered from arrive prefixed "qpdf: ", so the
 * caller can report them as one line per file; the bridge's own do not. */
typedef void (*pe_warning_fn)(void *context, int source_index, const char *message);

/* A page drawn onto an output page by pe_export / pe_export_parts (`pdfedit
 * stamp`). Each stamp page becomes ONE form XObject per output, shared by
 * every page it is drawn on (the stamp page's annotations are not copied). It is
 * drawn over the page's content (wrapped in q ... Q) or, with `under`, beneath it;
 * at `matrix` (the caller's: PageModel's StampPlacement.matrix places it on the
 * page as displayed, upright for the reader). Stamps of one item are
 * drawn in the order they come in the list. Resource names are fixed
 * (/PdfeditStamp0, /PdfeditStampGS0, /PdfeditFont0, ... per page; a suffix only when the page
 * already uses the name), so outputs stay deterministic. A stamped page gets its
 * own /Contents array and /Resources dictionary: a page exported twice, once
 * stamped and once not, shares nothing that the stamp changed. */
typedef struct pe_stamp {
    int item;       /* index into items of the page it is drawn on */
    int source;     /* index into sources (ignored for a text) */
    int page;       /* 0-based page of that source (ignored for a text) */
    int under;      /* nonzero: beneath the page's content; zero: over it */
    double opacity; /* 0 < opacity <= 1: /CA and /ca of an ExtGState when below 1 */
    double matrix[6]; /* the `cm` it is drawn with: from the stamp page's default user space
                       * (a text's: its baseline origin) to the page's */
    /* A generated text instead of a page (`number`, `bates`, `watermark`): when
     * `text` is not NULL, its `text_length` bytes (WinAnsi, already resolved for
     * this item) are shown in standard font `font` (0 Helvetica, 1 Times-Roman,
     * 2 Courier; /WinAnsiEncoding, one shared font dictionary per output, resource
     * /PdfeditFont0..2) at `size` points from the origin `matrix` places; one
     * small content stream per page. `actual_text` (UTF-8, NULL for
     * none) is written as the /ActualText of a marked-content span around it, so
     * text extraction keeps slanted words whole; for a page stamp (a text drawn
     * in a real font onto a page of its own) around the form's `Do`. */
    const char *text;
    int text_length;
    int font;
    double size;
    const char *actual_text;
    /* A text's colours (`*_components` 3 for RGB, 4 for CMYK, each 0..1; 0 for
     * none): the text's own (none: black), a box `box` (x0 y0 x1 y1 from the
     * baseline origin) filled behind it, and that box's edge (size / 20 wide). */
    int color_components;
    double color[4];
    int background_components;
    double background[4];
    int outline_components;
    double outline[4];
    double box[4];
} pe_stamp;

/* Writes the pages of `items`, in order, to `out_path` (which the caller makes a
 * temporary name; it never names an input). Returns status->code.
 * Only the sources that items refer to are opened, each once. Every output page is
 * its own page object with its own annotation objects, inherited attributes made
 * explicit. Internal links to pages not in the output are removed; links to pages
 * in it point at the first output copy of their target. The output has one
 * /AcroForm with the fields of every source (a field copied twice renamed), the
 * outlines of every source pruned to the output, page labels per
 * options->labels, the first source's document information and XMP, the
 * optional content groups the output uses (merged under one /OCProperties with
 * their default states, order and usage), the sources' JavaScript and actions
 * with options->keep_scripts, and the structure tree of every tagged source
 * pruned to the output's pages (joined under one root, parent tree renumbered,
 * role and class maps merged). `stamps` (`stamp_count` of them; NULL and 0 for none) are drawn onto
 * the pages of the items they name. Warnings (recovered damage, and one line
 * naming the document-level data that was dropped) go to `warn` (may be NULL).
 * On failure a partly written `out_path` is removed.
 * The output is encrypted with options' passwords, or keeps the encryption of
 * options->keep_encryption's source, or is not encrypted (see PE_WARNING_DECRYPTED).
 * options->strategies says whether the output may instead be written as its
 * source's bytes plus an incremental update, or as its source rearranged in
 * place (the same document, object for object, as `qpdf --qdf` shows it); the
 * first of those the file can take (Appended.hh, InPlace.hh: clean, unencrypted,
 * nothing in it that copying carries differently) is used, else the pages are
 * copied. */
int pe_export(const pe_source *sources, int source_count,
              const pe_item *items, int item_count,
              const pe_stamp *stamps, int stamp_count,
              const char *out_path, const pe_export_options *options,
              pe_warning_fn warn, void *warn_context, pe_status *status);

/* Like pe_export (without rearranging in place), once per part, opening every
 * source only once; `item` of a stamp indexes the whole `items` list. Each part keeps
 * what applies to its own pages (fields, annotations, labels, outlines pruned to
 * the part, links within the part). On failure no part file is left behind; when
 * the failure is a part's output (status->source_index -1), status->page is that
 * part's 1-based number. The warning about dropped document-level data comes once
 * for all parts.
 * Parts are written by options->threads threads (by default as many as the
 * process may use CPUs, at most 4), each thread with its own opening
 * of the sources (a pe_document goes to the first thread only); each part's file
 * is the same whichever thread writes it, and warnings come in part order. */
int pe_export_parts(const pe_source *sources, int source_count,
                    const pe_item *items, int item_count,
                    const pe_stamp *stamps, int stamp_count,
                    const pe_part *parts, int part_count,
                    const pe_export_options *options,
                    pe_warning_fn warn, void *warn_context, pe_status *status);

/* What a document is opened for (pe_document_open's `use`). */
enum {
    /* To be an export's source (pe_source.document) and to be read: every page
     * must be a dictionary (else PE_E_DAMAGED, "page N: the page tree holds
     * something that is not a page"), and what pages inherit is found once. */
    PE_OPEN_EXPORT = 0,
    /* To be read only (facts, page geometry, page checks), as info shows a file:
     * the page list stays as qpdf builds it, whatever /Kids holds. An export
     * given such a document fails (PE_E_INTERNAL). */
    PE_OPEN_READ = 1
};

/* Opens `path` (qpdf with recovery; `password` may be NULL) for `use`
 * (PE_OPEN_*), with these checks before qpdf walks anything recursively: the
 * page tree nested deeper than pe_tree_depth_limit is PE_E_PAGES ("the page tree
 * is nested more than N levels deep"); a page-label, name, form-field or outline
 * tree nested deeper is PE_E_PAGES with a message starting "over a limit: ".
 * Then builds its page list, which is where a broken page tree shows. On success
 * stores the document in *document (free it with pe_document_close) and its page
 * count in *page_count. Warnings (damage qpdf recovered from) go to `warn` with
 * source_index -1, each as qpdf's full text ("FILE (offset N): detail"). On
 * failure status->message is qpdf's detail alone; status->code PE_E_*. Not for
 * use by two threads at once. */
int pe_document_open(const char *path, const char *password, int use,
                     pe_document **document, int *page_count,
                     pe_warning_fn warn, void *warn_context, pe_status *status);

/* What drawing a page costs a reader (pe_document_check_page). */
typedef struct pe_page_check {
    long long largest_image; /* samples of the page's largest image at any depth (0: none): the memory drawing it needs */
    long long operators;     /* content operators drawing it runs, each form counted as often as it is drawn */
    int skipped;             /* nonzero: it holds what a renderer skips without a word (an image wider or
                                taller than 32,767 pixels, a stream that cannot be decoded) */
} pe_page_check;

/* Checks page `page` (0-based) of `document` before a reader (poppler) decodes
 * it: every stream it draws (its contents, form XObjects at any depth,
 * annotation appearances, tiling patterns, its fonts' programs and maps)
 * inflates to at most `max_stream_bytes` bytes, every image there (XObject or
 * inline) has at most `max_pixels` pixels, and drawing it runs at most
 * `max_operators` content operators (a limit <= 0 is not checked). Returns
 * PE_OK, or PE_E_LIMIT with status->message saying what (other PE_E_* for a
 * page out of range or a library error). Decoding stops at the limit. On PE_OK,
 * *result (when not NULL) says what was found. */
int pe_document_check_page(pe_document *document, int page, long long max_stream_bytes,
                           long long max_pixels, long long max_operators, pe_page_check *result,
                           pe_status *status);

/* Frees a document from pe_document_open (NULL is ignored), unless
 * pe_keep_closed_documents said not to (then a document marked by
 * pe_document_free_on_close is kept only until the next such one is closed). */
void pe_document_close(pe_document *document);

/* Marks `document` as opened for one export among many (a session's export
 * opens each source for the decision): however pe_keep_closed_documents is
 * set, at most one such document is kept after it is closed, and an export
 * from it keeps nothing until exit. */
void pe_document_free_on_close(pe_document *document);

/* Nonzero: from now on pe_document_close keeps what it is given, reachable,
 * until the process exits, instead of freeing it: for a process that ends after
 * one command, freeing qpdf's objects of a large file is a tenth of its run and
 * the system frees them at exit anyway. Never for a process that opens file after
 * file (a batch, a server): its memory would only grow. */
void pe_keep_closed_documents(int keep);

/* Async-signal-safe (one atomic store), for a SIGINT/SIGTERM handler: the process
 * is about to remove its temporary files and exit. Exports running on other
 * threads start no further part, and an output file opened from now on is
 * removed again at once, so that none appears after the handler removed the
 * temporary files it knows of. There is no way back. */
void pe_cancel(void);

/* SHA-256 of what remains to be read from `fd` (read to its end), as 64
 * lowercase hex digits and a terminating NUL in `hex` (65 bytes), and the number
 * of bytes read in *size. Returns 0, an errno value when reading failed, or -1
 * when qpdf's crypto provider, which it hashes with, failed (Hash.cpp). */
int pe_sha256_fd(int fd, char *hex, long long *size);

/* SHA-256 of `count` bytes at `bytes`, as pe_sha256_fd writes it into `hex`
 * (65 bytes). Returns 0, or -1 when qpdf's crypto provider failed. */
int pe_sha256_bytes(const unsigned char *bytes, size_t count, char *hex);

/* Inflates the zlib stream `input` (with zlib) into `output`, which the caller
 * allocated: the first `output_capacity` bytes are kept, the rest is dropped.
 * *output_size is how many bytes the stream inflated to (more than
 * output_capacity when it holds extra data). Corrupt data, a wrong Adler-32
 * checksum or a stream cut short is PE_E_DAMAGED with zlib's text. */
int pe_inflate(const unsigned char *input, size_t input_size, unsigned char *output, size_t output_capacity,
               size_t *output_size, pe_status *status);

/* Deflates `input` into one zlib stream with zlib, level 6 and the Z_RLE
 * strategy (matches of runs only, as zlib's manual suggests for PNG image data),
 * into a buffer allocated with malloc that the caller frees; *output_size is its
 * length. NULL when zlib or the allocation failed. */
unsigned char *pe_deflate_rle(const unsigned char *input, size_t input_size, size_t *output_size);

/* zlib's crc32: `crc` (0 to start) continued over `count` bytes (PNG's chunk CRC). */
unsigned long pe_crc32(unsigned long crc, const unsigned char *bytes, size_t count);

/* Receives one top-level outline entry of the output an export of `items` would
 * write: its title (UTF-8) and the index of the first item it points to. */
typedef void (*pe_outline_fn)(void *context, const char *title, int item_index);

/* The top-level bookmarks of the exported order (for `export --split --at-outlines`),
 * in outline order; entries whose target (and whose descendants' targets) are not
 * exported are skipped. Returns status->code. */
int pe_outline_starts(const pe_source *sources, int source_count,
                      const pe_item *items, int item_count,
                      pe_outline_fn each, void *context, pe_status *status);

#ifdef __cplusplus
}
#endif
#include "QPDFBridgeReader.h"
#endif
