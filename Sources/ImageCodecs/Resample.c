/* See include/ImageCodecs.h: `--images`' JPEG decoder of untrusted bytes and
 * its resampler (cairo's box filter). */
#include "ImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <jpeglib.h>

static void copy_text(char *message, size_t size, const char *text) {
    if (message == NULL || size == 0) return;
    snprintf(message, size, "%s", text ? text : "unknown error");
}

/* libjpeg's error manager for decoding: errors jump back; any warning (data
 * that ends early, a corrupt entropy segment) marks the image unusable, since
 * libjpeg would otherwise fill the rest with gray and carry on. */
struct jpeg_reading {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    int warned;
    char text[JMSG_LENGTH_MAX];
};

static void reading_stop(j_common_ptr info) {
    struct jpeg_reading *reading = (struct jpeg_reading *)info->err;
    (*info->err->format_message)(info, reading->text);
    longjmp(reading->back, 1);
}

static void reading_message(j_common_ptr info, int level) {
    struct jpeg_reading *reading = (struct jpeg_reading *)info->err;
    if (level < 0 && !reading->warned) {
        reading->warned = 1;
        (*info->err->format_message)(info, reading->text);
    }
}

int pe_jpeg_decode(
    const uint8_t *data, size_t size, int width, int height, int components, size_t max_bytes, uint8_t **out,
    char *message, size_t message_size) {
    *out = NULL;
    if (components != 1 && components != 3) {
        copy_text(message, message_size, "only gray and RGB JPEG images are decoded");
        return 0;
    }
    struct jpeg_decompress_struct info;
    struct jpeg_reading reading;
    /* Written after setjmp, read after longjmp: kept in memory. */
    uint8_t *volatile pixels = NULL;
    info.err = jpeg_std_error(&reading.manager);
    reading.manager.error_exit = reading_stop;
    reading.manager.emit_message = reading_message;
    reading.warned = 0;
    reading.text[0] = 0;
    if (setjmp(reading.back)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        copy_text(message, message_size, reading.text);
        return 0;
    }
    jpeg_create_decompress(&info);
    /* libjpeg's own allocations (a progressive image's coefficients, 2 bytes a
     * sample) within about three times the samples' bytes: past it, libjpeg
     * fails ("backing store not supported") instead of allocating. */
    info.mem->max_memory_to_use = (long)(max_bytes < ((size_t)1 << 40) ? max_bytes * 3 + (1 << 20) : max_bytes);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    if ((int)info.image_width != width || (int)info.image_height != height || info.num_components != components) {
        jpeg_destroy_decompress(&info);
        copy_text(message, message_size, "the JPEG data's size or components differ from the image's");
        return 0;
    }
    size_t row = (size_t)width * (size_t)components;
    if (width <= 0 || height <= 0 || row / (size_t)components != (size_t)width ||
        (size_t)height > max_bytes / row) {
        jpeg_destroy_decompress(&info);
        copy_text(message, message_size, "the JPEG image is over the size limit");
        return 0;
    }
    info.out_color_space = components == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_start_decompress(&info);
    if ((int)info.output_components != components) {
        jpeg_destroy_decompress(&info);
        copy_text(message, message_size, "the JPEG data decodes to other components");
        return 0;
    }
    /* Grown as rows arrive, so a header that claims a large image over a few
     * bytes of data costs only the rows it really has. */
    size_t capacity = 0;
    while (info.output_scanline < info.output_height && !reading.warned) {
        size_t needed = ((size_t)info.output_scanline + 1) * row;
        if (needed > capacity) {
            size_t grown = capacity < row * 16 ? row * 16 : capacity * 2;
            size_t total = row * (size_t)height;
            if (grown > total) grown = total;
            uint8_t *bigger = realloc(pixels, grown);
            if (bigger == NULL) {
                copy_text(reading.text, sizeof reading.text, "out of memory");
                longjmp(reading.back, 1);
            }
            pixels = bigger;
            capacity = grown;
        }
        JSAMPROW target = (JSAMPROW)(pixels + (size_t)info.output_scanline * row);
        jpeg_read_scanlines(&info, &target, 1);
    }
    if (reading.warned) {
        copy_text(message, message_size, reading.text);
        jpeg_destroy_decompress(&info);
        free(pixels);
        return 0;
    }
    jpeg_finish_decompress(&info);
    int warned = reading.warned;
    jpeg_destroy_decompress(&info);
    if (warned) {
        copy_text(message, message_size, reading.text);
        free(pixels);
        return 0;
    }
    *out = pixels;
    return 1;
}

int pe_resample(
    const uint8_t *samples, int width, int height, int components, int new_width, int new_height, uint8_t **out) {
    *out = NULL;
    if (width <= 0 || height <= 0 || new_width <= 0 || new_height <= 0 || components < 1 || components > 4 ||
        width > 32767 || height > 32767 || new_width > 32767 || new_height > 32767) {
        return 0;
    }
    int source_stride = cairo_format_stride_for_width(CAIRO_FORMAT_A8, width);
    int target_stride = cairo_format_stride_for_width(CAIRO_FORMAT_A8, new_width);
    if (source_stride <= 0 || target_stride <= 0) return 0;
    uint8_t *plane = malloc((size_t)source_stride * (size_t)height);
    uint8_t *scaled = malloc((size_t)target_stride * (size_t)new_height);
    uint8_t *result = malloc((size_t)new_width * (size_t)new_height * (size_t)components);
    int done = plane != NULL && scaled != NULL && result != NULL;
    /* One sample plane at a time as cairo's 8-bit alpha image: no colour
     * conversion, no premultiplication, and any number of components. */
    for (int component = 0; done && component < components; component++) {
        for (int y = 0; y < height; y++) {
            const uint8_t *from = samples + ((size_t)y * (size_t)width) * (size_t)components + (size_t)component;
            uint8_t *to = plane + (size_t)y * (size_t)source_stride;
            for (int x = 0; x < width; x++) to[x] = from[(size_t)x * (size_t)components];
        }
        cairo_surface_t *source =
            cairo_image_surface_create_for_data(plane, CAIRO_FORMAT_A8, width, height, source_stride);
        cairo_surface_t *target =
            cairo_image_surface_create_for_data(scaled, CAIRO_FORMAT_A8, new_width, new_height, target_stride);
        cairo_t *cr = cairo_create(target);
        cairo_scale(cr, (double)new_width / width, (double)new_height / height);
        cairo_set_source_surface(cr, source, 0, 0);
        /* GOOD: cairo's box filter when shrinking (pixman's separable
         * convolution), so every source pixel counts; PAD keeps the edges from
         * fading into the transparent outside. */
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_paint(cr);
        done = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
        cairo_destroy(cr);
        cairo_surface_flush(target);
        cairo_surface_destroy(target);
        cairo_surface_destroy(source);
        for (int y = 0; done && y < new_height; y++) {
            const uint8_t *from = scaled + (size_t)y * (size_t)target_stride;
            uint8_t *to = result + ((size_t)y * (size_t)new_width) * (size_t)components + (size_t)component;
            for (int x = 0; x < new_width; x++) to[(size_t)x * (size_t)components] = from[x];
        }
    }
    free(plane);
    free(scaled);
    if (!done) {
        free(result);
        return 0;
    }
    *out = result;
    return 1;
}
