/* Stand-ins for QPDFCore's functions (include/QPDFBridge.h): each loads
 * libpdfedit-qpdf.so on its first call (Loader.c) and forwards to the library's
 * own. They are weak: where QPDFCore is linked in (the tests, the kit's users),
 * its definitions take their place and nothing is loaded. The compiler checks
 * each against its declaration in the headers. */
#include "QPDFBridge.h"
#include "QPDFBridgeReader.h"
#include "Loader.h"

#include <stdatomic.h>

#define FORWARD(result, name, parameters, arguments)                                         \
    __attribute__((weak)) result name parameters                                             \
    {                                                                                        \
        typedef result(*function) parameters;                                                \
        static function _Atomic resolved;                                                    \
        function real = atomic_load_explicit(&resolved, memory_order_acquire);               \
        if (real == 0) {                                                                     \
            real = (function)pe_core_symbol(#name);                                          \
            atomic_store_explicit(&resolved, real, memory_order_release);                    \
        }                                                                                    \
        return real arguments;                                                               \
    }

FORWARD(const char *, pe_qpdf_version, (void), ())
FORWARD(int, pe_tree_depth_limit, (void), ())
FORWARD(int, pe_displayed_rotation, (int is_integer, long long value), (is_integer, value))
FORWARD(double, pe_user_unit_for, (double width, double height), (width, height))
FORWARD(void, pe_placement_matrix,
        (double llx, double lly, double urx, double ury, int rotation, double target_width, double target_height,
         int fill, double matrix[6]),
        (llx, lly, urx, ury, rotation, target_width, target_height, fill, matrix))
FORWARD(void, pe_stamp_matrix, (const pe_stamp_geometry *geometry, double matrix[6]), (geometry, matrix))
FORWARD(int, pe_export,
        (const pe_source *sources, int source_count, const pe_item *items, int item_count, const pe_stamp *stamps,
         int stamp_count, const char *out_path, const pe_export_options *options, pe_warning_fn warn,
         void *warn_context, pe_status *status),
        (sources, source_count, items, item_count, stamps, stamp_count, out_path, options, warn, warn_context, status))
FORWARD(int, pe_export_parts,
        (const pe_source *sources, int source_count, const pe_item *items, int item_count, const pe_stamp *stamps,
         int stamp_count, const pe_part *parts, int part_count, const pe_export_options *options, pe_warning_fn warn,
         void *warn_context, pe_status *status),
        (sources, source_count, items, item_count, stamps, stamp_count, parts, part_count, options, warn, warn_context,
         status))
FORWARD(int, pe_document_open,
        (const char *path, const char *password, int use, pe_document **document, int *page_count, pe_warning_fn warn,
         void *warn_context, pe_status *status),
        (path, password, use, document, page_count, warn, warn_context, status))
FORWARD(int, pe_document_check_page,
        (pe_document * document, int page, long long max_stream_bytes, long long max_pixels, long long max_operators,
         pe_page_check *result, pe_status *status),
        (document, page, max_stream_bytes, max_pixels, max_operators, result, status))
FORWARD(void, pe_document_close, (pe_document * document), (document))
FORWARD(int, pe_write_stamped,
        (const char *path, const unsigned char *const *pieces, const size_t *lengths, int count, char *message,
         size_t message_size),
        (path, pieces, lengths, count, message, message_size))
FORWARD(int, pe_inflate,
        (const unsigned char *input, size_t input_size, unsigned char *output, size_t output_capacity,
         size_t *output_size, pe_status *status),
        (input, input_size, output, output_capacity, output_size, status))
FORWARD(int, pe_outline_starts,
        (const pe_source *sources, int source_count, const pe_item *items, int item_count, pe_outline_fn each,
         void *context, pe_status *status),
        (sources, source_count, items, item_count, each, context, status))
FORWARD(int, pe_document_read_facts,
        (pe_document * document, pe_document_facts *facts, pe_text_fn text, void *context, pe_status *status),
        (document, facts, text, context, status))
FORWARD(int, pe_document_read_outline,
        (pe_document * document, pe_outline_item_fn each, void *context, pe_status *status),
        (document, each, context, status))
FORWARD(int, pe_document_read_page_labels,
        (pe_document * document, int *has_labels, pe_label_range_fn each, void *context, pe_status *status),
        (document, has_labels, each, context, status))
FORWARD(int, pe_document_page_geometry,
        (pe_document * document, int page, pe_page_geometry *geometry, pe_status *status),
        (document, page, geometry, status))
FORWARD(int, pe_write_image_page,
        (const pe_image_stream *image, const pe_image_stream *mask, const char *media_box, const char *user_unit,
         const char *content, const char *minimum_version, pe_bytes_fn out, void *out_context, pe_status *status),
        (image, mask, media_box, user_unit, content, minimum_version, out, out_context, status))

/* Settings: kept until the library is loaded (a command that never loads it
 * never pays for them), given to it then, or at once when it is. */
__attribute__((weak)) void pe_set_tree_depth_limit(int levels)
{
    pe_core_defer_depth_limit(levels);
    void (*real)(int) = (void (*)(int))pe_core_symbol_if_loaded("pe_set_tree_depth_limit");
    if (real != 0) {
        real(levels);
    }
}

__attribute__((weak)) void pe_keep_closed_documents(int keep)
{
    pe_core_defer_keep_closed(keep);
    void (*real)(int) = (void (*)(int))pe_core_symbol_if_loaded("pe_keep_closed_documents");
    if (real != 0) {
        real(keep);
    }
}

/* Async-signal-safe: when the library is not loaded, no export is running and
 * there is nothing to cancel. */
__attribute__((weak)) void pe_cancel(void)
{
    pe_core_cancel();
}
