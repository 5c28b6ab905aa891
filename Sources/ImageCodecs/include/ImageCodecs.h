/* Writing rendered pages as JPEG (libjpeg-turbo) and TIFF (libtiff), and the
 * pixel layouts PNG, JPEG and TIFF take, made from cairo's ARGB32 images.
 *
 * C, not Swift, because libjpeg stops on an error by calling its error_exit,
 * which must not return: the only way back is longjmp, which Swift cannot
 * express (and libjpeg's default error_exit ends the process, which library
 * code never does). libtiff's errors go to a handler given per file
 * (TIFFOpenExt), never to the process-wide one. */
#ifndef PDFEDIT_IMAGE_CODECS_H
#define PDFEDIT_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows of pixels, packed (no padding between rows), 8 bits a sample unless said. */
typedef enum {
    PE_PIXELS_RGB = 0,        /* R G B */
    PE_PIXELS_RGBA = 1,       /* R G B A, not premultiplied */
    PE_PIXELS_GRAY = 2,       /* luminance (Rec. 601 weights) */
    PE_PIXELS_GRAY_ALPHA = 3, /* luminance, alpha (not premultiplied) */
    PE_PIXELS_MONO = 4        /* 1 bit a pixel, most significant bit first, 1 = white (luminance >= 128) */
} pe_pixel_layout;

/* Bytes of one packed row of `width` pixels in `layout`. */
size_t pe_pixels_row_bytes(pe_pixel_layout layout, int width);

/* Samples per pixel of `layout` (mono: 1) and bits per sample (mono: 1). */
int pe_pixels_samples(pe_pixel_layout layout);
int pe_pixels_bits(pe_pixel_layout layout);

/* Converts a cairo ARGB32 image (premultiplied, native-endian 32-bit pixels,
 * `stride` bytes a row) into `height` packed rows of `layout` at `out`, which
 * holds pe_pixels_row_bytes(layout, width) * height bytes. */
void pe_pixels_convert(const uint8_t *argb, int width, int height, int stride, pe_pixel_layout layout, uint8_t *out);

/* Turns a cairo ARGB32 image gray where it lies (each pixel's R, G and B set
 * to its luminance), so that cairo's PDF surface writes it as DeviceGray. */
void pe_pixels_gray_in_place(uint8_t *argb, int width, int height, int stride);

/* A baseline JPEG of packed RGB or GRAY rows at `quality` (1-100), its density
 * `dpi` (0: none). On success returns 1 and a malloc'd buffer in *out of *size
 * bytes (the caller frees it); on failure 0 and libjpeg's message. */
int pe_jpeg_encode(
    const uint8_t *rows, int width, int height, pe_pixel_layout layout, int quality, double dpi, uint8_t **out,
    unsigned long *size, char *message, size_t message_size);

/* Decodes JPEG `data` (untrusted bytes from a PDF's /DCTDecode image) into
 * packed 8-bit rows of `components` (1: gray, 3: RGB) samples, refusing data
 * whose size or components differ from `width` x `height` x `components`, an
 * image of more than `max_bytes` decoded bytes (checked from the header before
 * anything is decoded; libjpeg's own allocations are bounded by it too), and
 * data libjpeg warns about (ends early, corrupt). On success returns 1 and a
 * malloc'd buffer of width * height * components bytes in *out (the caller
 * frees it); on failure 0 and the reason. */
int pe_jpeg_decode(
    const uint8_t *data, size_t size, int width, int height, int components, size_t max_bytes, uint8_t **out,
    char *message, size_t message_size);

/* Resamples packed 8-bit rows of `components` (1 to 4) interleaved samples from
 * width x height to new_width x new_height (each side at most 32,767) with
 * cairo's GOOD filter (a box filter when shrinking), one sample plane at a
 * time. Returns 1 and a malloc'd buffer of new_width * new_height * components
 * bytes in *out (the caller frees it), or 0. */
int pe_resample(
    const uint8_t *samples, int width, int height, int components, int new_width, int new_height, uint8_t **out);

/* A TIFF file being written, one page (directory) after another. */
typedef struct pe_tiff pe_tiff;

/* Creates (truncates) `path` for writing; NULL and libtiff's message on failure. */
pe_tiff *pe_tiff_open(const char *path, char *message, size_t message_size);

/* Appends a page of packed rows: Deflate-compressed (CCITT Group 4 for mono),
 * alpha as unassociated extra sample, resolution `dpi` (0: none). Returns 1,
 * or 0 and libtiff's message. */
int pe_tiff_add_page(
    pe_tiff *tiff, const uint8_t *rows, int width, int height, pe_pixel_layout layout, double dpi, char *message,
    size_t message_size);

/* Finishes and closes the file (and frees `tiff`); 1, or 0 and the message. */
int pe_tiff_close(pe_tiff *tiff, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
