/* See include/ImageCodecs.h. */
#include "ImageCodecs.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <tiffio.h>

size_t pe_pixels_row_bytes(pe_pixel_layout layout, int width) {
    size_t w = width > 0 ? (size_t)width : 0;
    switch (layout) {
    case PE_PIXELS_RGB: return 3 * w;
    case PE_PIXELS_RGBA: return 4 * w;
    case PE_PIXELS_GRAY: return w;
    case PE_PIXELS_GRAY_ALPHA: return 2 * w;
    case PE_PIXELS_MONO: return (w + 7) / 8;
    }
    return 0;
}

int pe_pixels_samples(pe_pixel_layout layout) {
    switch (layout) {
    case PE_PIXELS_RGB: return 3;
    case PE_PIXELS_RGBA: return 4;
    case PE_PIXELS_GRAY_ALPHA: return 2;
    case PE_PIXELS_GRAY:
    case PE_PIXELS_MONO: return 1;
    }
    return 1;
}

int pe_pixels_bits(pe_pixel_layout layout) { return layout == PE_PIXELS_MONO ? 1 : 8; }

/* A premultiplied sample back to its colour: c * 255 / a, rounded. */
static inline uint8_t unpremultiplied(uint32_t c, uint32_t a) {
    if (a == 0) return 0;
    if (a == 255) return (uint8_t)c;
    uint32_t v = (c * 255 + a / 2) / a;
    return (uint8_t)(v > 255 ? 255 : v);
}

/* Rec. 601 luminance, the weights pdfedit's `empty` uses (RasterImage.forEachDarkPixel). */
static inline uint8_t luminance(uint32_t r, uint32_t g, uint32_t b) {
    return (uint8_t)((r * 299 + g * 587 + b * 114 + 500) / 1000);
}

void pe_pixels_convert(const uint8_t *argb, int width, int height, int stride, pe_pixel_layout layout, uint8_t *out) {
    size_t row_bytes = pe_pixels_row_bytes(layout, width);
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(argb + (size_t)y * (size_t)stride);
        uint8_t *target = out + (size_t)y * row_bytes;
        if (layout == PE_PIXELS_MONO) memset(target, 0, row_bytes);
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            uint32_t a = p >> 24, r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            switch (layout) {
            case PE_PIXELS_RGB:
                target[0] = (uint8_t)r;
                target[1] = (uint8_t)g;
                target[2] = (uint8_t)b;
                target += 3;
                break;
            case PE_PIXELS_RGBA:
                target[0] = unpremultiplied(r, a);
                target[1] = unpremultiplied(g, a);
                target[2] = unpremultiplied(b, a);
                target[3] = (uint8_t)a;
                target += 4;
                break;
            case PE_PIXELS_GRAY:
                *target++ = luminance(r, g, b);
                break;
            case PE_PIXELS_GRAY_ALPHA:
                target[0] = luminance(unpremultiplied(r, a), unpremultiplied(g, a), unpremultiplied(b, a));
                target[1] = (uint8_t)a;
                target += 2;
                break;
            case PE_PIXELS_MONO:
                if (luminance(r, g, b) >= 128) target[x >> 3] |= (uint8_t)(0x80 >> (x & 7));
                break;
            }
        }
    }
}

static void copy_message(char *message, size_t size, const char *text) {
    if (message == NULL || size == 0) return;
    snprintf(message, size, "%s", text ? text : "unknown error");
}

/* libjpeg's error manager, extended with where to jump back to. */
struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    char text[JMSG_LENGTH_MAX];
};

static void jpeg_stop(j_common_ptr info) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    (*info->err->format_message)(info, failure->text);
    longjmp(failure->back, 1);
}

/* Warnings (libjpeg's emit_message) are not printed: the process's stderr is not the library's. */
static void jpeg_quiet(j_common_ptr info, int level) {
    (void)info;
    (void)level;
}

int pe_jpeg_encode(
    const uint8_t *rows, int width, int height, pe_pixel_layout layout, int quality, double dpi, uint8_t **out,
    unsigned long *size, char *message, size_t message_size) {
    if (layout != PE_PIXELS_RGB && layout != PE_PIXELS_GRAY) {
        copy_message(message, message_size, "JPEG takes RGB or gray pixels only");
        return 0;
    }
    struct jpeg_compress_struct info;
    struct jpeg_failure failure;
    /* Filled by libjpeg through its address, so it is read from memory after longjmp. */
    unsigned char *target = NULL;
    unsigned long buffer_size = 0;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_stop;
    failure.manager.emit_message = jpeg_quiet;
    failure.text[0] = 0;
    if (setjmp(failure.back)) {
        jpeg_destroy_compress(&info);
        free(target);
        copy_message(message, message_size, failure.text);
        return 0;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &target, &buffer_size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = layout == PE_PIXELS_RGB ? 3 : 1;
    info.in_color_space = layout == PE_PIXELS_RGB ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    /* Huffman tables made for this image instead of the standard ones: a few
     * per cent smaller, the same pixels, one more pass over the coefficients. */
    info.optimize_coding = TRUE;
    if (dpi > 0 && dpi < 65535) {
        info.density_unit = 1; /* dots per inch */
        info.X_density = (UINT16)(dpi + 0.5);
        info.Y_density = (UINT16)(dpi + 0.5);
    }
    jpeg_start_compress(&info, TRUE);
    size_t row_bytes = pe_pixels_row_bytes(layout, width);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rows + (size_t)info.next_scanline * row_bytes);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = target;
    *size = buffer_size;
    return 1;
}

struct pe_tiff {
    TIFF *file;
    int failed;
    char text[512];
};

/* libtiff's errors of this file, kept for the caller (never the process-wide handler). */
static int tiff_error(TIFF *file, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)file;
    struct pe_tiff *tiff = (struct pe_tiff *)user_data;
    if (tiff != NULL && !tiff->failed) {
        char text[400];
        vsnprintf(text, sizeof text, format, arguments);
        snprintf(tiff->text, sizeof tiff->text, "%s%s%s", module ? module : "", module ? ": " : "", text);
        tiff->failed = 1;
    }
    return 1;
}

static int tiff_warning(TIFF *file, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)file;
    (void)user_data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}

pe_tiff *pe_tiff_open(const char *path, char *message, size_t message_size) {
    pe_tiff *tiff = calloc(1, sizeof *tiff);
    if (tiff == NULL) {
        copy_message(message, message_size, "out of memory");
        return NULL;
    }
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        free(tiff);
        copy_message(message, message_size, "out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_error, tiff);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_warning, tiff);
    tiff->file = TIFFOpenExt(path, "w", options);
    TIFFOpenOptionsFree(options);
    if (tiff->file == NULL) {
        copy_message(message, message_size, tiff->failed ? tiff->text : "libtiff cannot create the file");
        free(tiff);
        return NULL;
    }
    return tiff;
}

int pe_tiff_add_page(
    pe_tiff *tiff, const uint8_t *rows, int width, int height, pe_pixel_layout layout, double dpi, char *message,
    size_t message_size) {
    TIFF *file = tiff->file;
    int samples = pe_pixels_samples(layout);
    int mono = layout == PE_PIXELS_MONO;
    TIFFSetField(file, TIFFTAG_IMAGEWIDTH, (uint32_t)width);
    TIFFSetField(file, TIFFTAG_IMAGELENGTH, (uint32_t)height);
    TIFFSetField(file, TIFFTAG_BITSPERSAMPLE, (uint16_t)pe_pixels_bits(layout));
    TIFFSetField(file, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)samples);
    TIFFSetField(file, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(
        file, TIFFTAG_PHOTOMETRIC,
        (layout == PE_PIXELS_RGB || layout == PE_PIXELS_RGBA) ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    if (layout == PE_PIXELS_RGBA || layout == PE_PIXELS_GRAY_ALPHA) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(file, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    if (mono) {
        TIFFSetField(file, TIFFTAG_COMPRESSION, COMPRESSION_CCITTFAX4);
    } else {
        TIFFSetField(file, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
        TIFFSetField(file, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    }
    if (dpi > 0) {
        TIFFSetField(file, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
        TIFFSetField(file, TIFFTAG_XRESOLUTION, (float)dpi);
        TIFFSetField(file, TIFFTAG_YRESOLUTION, (float)dpi);
    }
    TIFFSetField(file, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(file, 0));
    size_t row_bytes = pe_pixels_row_bytes(layout, width);
    for (int y = 0; y < height && !tiff->failed; y++) {
        if (TIFFWriteScanline(file, (void *)(rows + (size_t)y * row_bytes), (uint32_t)y, 0) < 0) break;
    }
    if (!tiff->failed && !TIFFWriteDirectory(file) && !tiff->failed) {
        snprintf(tiff->text, sizeof tiff->text, "cannot write the page");
        tiff->failed = 1;
    }
    if (tiff->failed) {
        copy_message(message, message_size, tiff->text);
        return 0;
    }
    return 1;
}

int pe_tiff_close(pe_tiff *tiff, char *message, size_t message_size) {
    if (tiff == NULL) return 0;
    TIFFClose(tiff->file);
    int ok = !tiff->failed;
    if (!ok) copy_message(message, message_size, tiff->text);
    free(tiff);
    return ok;
}

void pe_pixels_gray_in_place(uint8_t *argb, int width, int height, int stride) {
    for (int y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)(argb + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            uint32_t l = luminance((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF);
            row[x] = (p & 0xFF000000u) | (l << 16) | (l << 8) | l;
        }
    }
}
