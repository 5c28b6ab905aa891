// libFuzzer harness over the code of ours that reads untrusted PDF bytes: the
// bridge's open (page tree walk, depth limits, inherited attributes), the page
// check (PageWork.cpp: content tokenizer, forms, images, bounded inflate) and an
// export through the copier (Copier.cpp), the structure, outline, form and label
// code, and half the time `--images` (Images.cpp with ImageCodecs' JPEG decoder
// and resampler), a fifth of the time a redaction (Redact.cpp, RedactLeftovers.cpp)
// and every font's /ToUnicode map (ToUnicode.cpp), as `pdfedit` runs them. Built by scripts/fuzz.sh with clang++
// -fsanitize=fuzzer,address over Sources/QPDFCore and the system libqpdf.
//
// A run fails (trap) when:
// - an export of a file qpdf opens reports success but its output cannot be
//   opened by qpdf, or has another number of pages than items were exported;
// - the input passes the check `qpdf --check` makes (no error, no warning) and
//   the output does not: what we write from a sound file is sound.
// Crashes, leaks of the sanitizer's kind and hangs (libFuzzer's -timeout) are
// found by libFuzzer itself. A refusal (any PE_E_* status) is a good answer.
#include "QPDFBridge.h"
#include "ToUnicode.hh"

#include <qpdf/Pl_Discard.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

// What `qpdf --check` finds: the file opens, every page is found, and writing
// it with every stream decoded raises no error. Returns 0 for a clean file, 1 for
// warnings only, 2 for an error.
int check_like_qpdf(const std::string &path) {
    try {
        QPDF pdf;
        pdf.setSuppressWarnings(true);
        pdf.processFile(path.c_str());
        QPDFPageDocumentHelper(pdf).getAllPages();
        QPDFWriter writer(pdf);
        Pl_Discard discard;
        writer.setOutputPipeline(&discard);
        writer.setDecodeLevel(qpdf_dl_generalized);
        writer.write();
        return pdf.anyWarnings() ? 1 : 0;
    } catch (...) {
        return 2;
    }
}

// The pages a file shows, and how many page objects (/Type /Page, or the string
// qpdf takes as one) it holds, reachable or not: an output holds no page but its
// own, and a page of the source it leaves out (reached through a kept link's
// action, /Info, a page's private key...) would be one more. -1: unreadable.
struct PagesOf {
    int shown = -1;
    int objects = -1;
};

PagesOf pages_of(const std::string &path) {
    PagesOf found;
    try {
        QPDF pdf;
        pdf.setSuppressWarnings(true);
        pdf.processFile(path.c_str());
        found.shown = int(QPDFPageDocumentHelper(pdf).getAllPages().size());
        found.objects = 0;
        for (QPDFObjectHandle &object : pdf.getAllObjects()) {
            if (!object.isDictionary()) continue;
            QPDFObjectHandle type = object.getKey("/Type");
            if (type.isNameAndEquals("/Page") || (type.isString() && type.getStringValue() == "Page")) found.objects++;
        }
    } catch (...) {
    }
    return found;
}

// Every /ToUnicode map the fonts of the first pages name, read by ToUnicode.cpp
// (what redaction's leftover search reads appearance text with) and used once.
void read_text_maps(const std::string &path) {
    try {
        QPDF pdf;
        pdf.setSuppressWarnings(true);
        pdf.processFile(path.c_str());
        std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(pdf).getAllPages();
        for (size_t page = 0; page < pages.size() && page < 20; page++) {
            QPDFObjectHandle fonts = pages[page].getAttribute("/Resources", false).getKey("/Font");
            if (!fonts.isDictionary()) continue;
            for (auto const &entry : fonts.ditems()) {
                QPDFObjectHandle font = entry.second;
                if (!font.isDictionary()) continue;
                pe::ToUnicode map = pe::ToUnicode::read(font.getKey("/ToUnicode"), 16 << 20);
                std::string const codes("\x00\x41\x01\x20\xff\xfe Secret", 13);
                (void)map.text(codes, true);
                (void)map.text(codes, false);
            }
        }
    } catch (...) {
        // a refusal (a damaged file, a map over the limit) is a good answer
    }
}

void fail(const char *what, const std::string &detail) {
    std::fprintf(stderr, "FuzzPDF: %s%s\n", what, detail.c_str());
    __builtin_trap();
}

const std::string &scratch() {
    static const std::string folder = [] {
        char name[] = "/tmp/pdfedit-fuzz-XXXXXX";
        const char *made = mkdtemp(name);
        if (made == nullptr) std::abort();
        return std::string(made);
    }();
    return folder;
}

} // namespace

namespace {

// An export's outcome: a failure leaves no output; a success has `count`
// pages, no other page object, and passes qpdf --check where the input does.
void check_export(int code, pe_status const &status, std::string const &input, std::string const &output, int count) {
    if (code != PE_OK) {
        if (access(output.c_str(), F_OK) == 0) fail("a failed export left its output behind: ", status.message);
        return;
    }
    const PagesOf written = pages_of(output);
    if (written.shown != count)
        fail("the output's page count is not the items': ", std::to_string(written.shown) + " for " + std::to_string(count));
    if (check_like_qpdf(output) != 0 && check_like_qpdf(input) == 0)
        fail("a sound input gave an output qpdf --check does not pass", "");
    if (written.objects > count)
        fail("the output holds a page it does not show: ", std::to_string(written.objects) + " page objects for " +
                                                              std::to_string(count) + " pages");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    // The limits `pdfedit` runs with, small enough that a mutant cannot make a run
    // take minutes: a fuzzer is after crashes and wrong answers, not slow files.
    pe_set_tree_depth_limit(64);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string input = scratch() + "/in.pdf";
    const std::string output = scratch() + "/out.pdf";
    FILE *file = std::fopen(input.c_str(), "wb");
    if (file == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
    std::fclose(file);
    std::remove(output.c_str());

    pe_status status{};
    pe_document *document = nullptr;
    int pages = 0;
    if (pe_document_open(input.c_str(), nullptr, PE_OPEN_EXPORT, &document, &pages, nullptr, nullptr, &status) != PE_OK)
        return 0;
    const int used = pages < 20 ? pages : 20;

    // The page check `info`, `empty` and the renderer's guard run.
    for (int page = 0; page < used; page++) {
        pe_page_check check{};
        pe_status page_status{};
        pe_document_check_page(document, page, 16 << 20, 4 << 20, 200000, &check, &page_status);
        // What `dup` and `annotated` read: every object the page reaches, by value.
        char digest[65];
        char clicks[65];
        int annotations = 0;
        pe_status fingerprint_status{};
        pe_document_page_fingerprint(document, page, digest, clicks, &annotations, &fingerprint_status);
    }

    read_text_maps(input);

    // What `info` and `list` read of signatures: the field tree walked, each
    // /ByteRange checked against the file's size (here the input's).
    pe_status signature_status{};
    pe_document_read_signatures(
        document, static_cast<long long>(size), [](void *, const pe_signature *) {}, nullptr, &signature_status);

    // An export that moves, turns, duplicates and adds a blank: the full path.
    std::vector<pe_item> items;
    for (int page = used - 1; page >= 0; page--) {
        pe_item item{};
        item.kind = PE_ITEM_PAGE;
        item.page = page;
        item.quarter_turns = page % 4;
        items.push_back(item);
    }
    if (used > 0) items.push_back(items.front());
    pe_item blank{};
    blank.kind = PE_ITEM_BLANK;
    blank.width = 612;
    blank.height = 792;
    blank.user_unit = 1; // the caller's (PageModel's PageSize.userUnit); 0 is refused as a plan error
    items.push_back(blank);

    pe_source source{};
    source.path = input.c_str();
    source.name = "in";
    source.document = document;
    pe_export_options options{};
    options.deterministic_id = 1;
    // Half the inputs through --compress (sharing, recompression; Compress.cpp),
    // a third linearized: the input's size decides, so a crash reproduces.
    options.compress = size % 2;
    // Its recompression on 1, 2 or 3 threads (Compress.cpp's pool).
    options.threads = static_cast<int>(size / 2 % 3) + 1;
    options.linearize = size % 3 == 0;
    options.max_stream_bytes = 16 << 20;
    // Half the inputs through --images at 36 dpi (Images.cpp: the drawn sizes, the
    // JPEG decoder and the resampler on whatever images the mutant holds).
    options.images_dpi = size % 4 < 2 ? 36 : 0;
    options.images_quality = 50;
    options.max_pixels = 4 << 20;
    // A fifth of the inputs redacted (Redact.cpp's content interpreter on every
    // page, the structure tree's replacement texts), with the leftover search
    // (RedactLeftovers.cpp: annotation strings, appearance text through
    // ToUnicode.cpp's map reader), scrubbing every other time.
    const pe_redact_region region{100, 100, 400, 500, 0, 0, 0};
    std::vector<pe_item_redact> redact(items.size());
    const char *const texts[] = {"e", "Secret"};
    if (size % 5 == 0) {
        for (size_t i = 0; i + 1 < items.size(); i++) redact[i] = pe_item_redact{&region, 1};
        options.redact = redact.data();
        options.redacted_texts = texts;
        options.redacted_text_count = 2;
        options.scrub = size % 2;
    }
    pe_status export_status{};
    const int code = pe_export(&source, 1, items.data(), int(items.size()), nullptr, 0, output.c_str(), &options,
                               nullptr, nullptr, &export_status);
    check_export(code, export_status, input, output, int(items.size()));

    // What the kit reads of a file to choose the in-place rewrite, and that
    // rewrite with the file's links, bookmarks and open action (InPlace.cpp,
    // Annotations.cpp's keep_annotations): every page but the last, the
    // document changed in memory (its last use).
    pe_document_contents contents{};
    pe_status contents_status{};
    pe_document_read_contents(
        document, 1, &contents, [](void *, const char *, const char *) {}, nullptr, &contents_status);
    // What the kit reads to choose writing the whole file as its own document
    // (WholeFile.cpp), and that strategy for every other input its facts allow
    // (as ExportStrategy's WholeFileFacts.keptWhole): every page, compressed,
    // the document changed in memory (its last use); else the in-place rewrite.
    pe_whole_file_facts facts{};
    pe_status facts_status{};
    const bool whole = pe_document_read_whole_file_facts(document, &facts, &facts_status) == PE_OK &&
        size % 2 == 1 && pages >= 1 && facts.repaired == 0 && facts.page_tree_count == pages && facts.structure != 2 &&
        facts.scripts == 0 && facts.xfa == 0 && facts.optional_content == 0 && facts.shared_annotations == 0;
    if (whole) {
        std::vector<pe_item> every;
        for (int page = 0; page < pages; page++) {
            pe_item item{};
            item.kind = PE_ITEM_PAGE;
            item.page = page;
            every.push_back(item);
        }
        source.document_last_use = 1;
        pe_export_options whole_file{};
        whole_file.deterministic_id = 1;
        whole_file.max_stream_bytes = 16 << 20;
        whole_file.compress = 1;
        whole_file.linearize = size % 3 == 0;
        whole_file.strategies = PE_STRATEGY_WHOLE_FILE;
        std::remove(output.c_str());
        pe_status whole_status{};
        const int written = pe_export(&source, 1, every.data(), int(every.size()), nullptr, 0, output.c_str(),
                                      &whole_file, nullptr, nullptr, &whole_status);
        check_export(written, whole_status, input, output, int(every.size()));
    } else if (pages >= 2) {
        std::vector<pe_item> kept;
        for (int page = 0; page + 1 < pages; page++) {
            pe_item item{};
            item.kind = PE_ITEM_PAGE;
            item.page = page;
            kept.push_back(item);
        }
        source.document_last_use = 1;
        pe_export_options in_place{};
        in_place.deterministic_id = 1;
        in_place.max_stream_bytes = 16 << 20;
        in_place.strategies = PE_STRATEGY_IN_PLACE;
        std::remove(output.c_str());
        pe_status in_place_status{};
        const int rearranged = pe_export(&source, 1, kept.data(), int(kept.size()), nullptr, 0, output.c_str(),
                                         &in_place, nullptr, nullptr, &in_place_status);
        check_export(rearranged, in_place_status, input, output, int(kept.size()));
    }
    // A split of the first pages (one per part) on two threads, each with its
    // own opening of the file: a tagged input's structure tree is read by the
    // threads together (StructureShare in StructureRead.cpp) and each part
    // checked as an export of its own.
    if (pages >= 2) {
        const int count = pages < 4 ? pages : 4;
        std::vector<pe_item> split_items;
        std::vector<std::string> part_paths;
        for (int page = 0; page < count; page++) {
            pe_item item{};
            item.kind = PE_ITEM_PAGE;
            item.page = page;
            split_items.push_back(item);
            part_paths.push_back(output + ".part" + std::to_string(page) + ".pdf");
        }
        std::vector<pe_part> parts;
        for (int page = 0; page < count; page++) {
            pe_part part{};
            part.first_item = page;
            part.item_count = 1;
            part.out_path = part_paths[size_t(page)].c_str();
            parts.push_back(part);
        }
        pe_source from_path{};
        from_path.path = input.c_str();
        from_path.name = "in";
        pe_export_options split{};
        split.deterministic_id = 1;
        split.max_stream_bytes = 16 << 20;
        split.threads = 2;
        pe_status split_status{};
        const int code_split = pe_export_parts(&from_path, 1, split_items.data(), count, nullptr, 0, parts.data(),
                                               count, &split, nullptr, nullptr, &split_status);
        for (std::string const &path : part_paths) {
            check_export(code_split, split_status, input, path, 1);
            std::remove(path.c_str());
        }
    }
    pe_document_close(document);
    return 0;
}
