#ifndef GALLERYKIT_CVIPSSHIM_H
#define GALLERYKIT_CVIPSSHIM_H

#include <stddef.h>

/* libvips is loaded with dlopen the first time an image is probed or thumbnailed, not linked:
 * its ~120 shared libraries and their constructors cost ~25 ms at every start, and most
 * commands never decode an image. This header therefore exposes plain C types only. */

/// Loads and starts libvips once for the process: blocks loaders marked untrusted and
/// shrinks the operation cache so a replaced file is never served stale.
/// Returns 0 on success; otherwise `gallerykit_vips_take_error` says why (e.g. the library
/// cannot be found).
int gallerykit_vips_start(void);

/// Reads the header of the image file at `path` or, when `path` is NULL, of the `length` bytes at
/// `bytes` (`access=sequential`: no pixel decode for JPEG, PNG and WebP). On success returns 0
/// and sets the stored size, whether EXIF orientation swaps width and height, and the loader's
/// name (e.g. `jpegload_source`, truncated to `capacity`).
int gallerykit_vips_header(const char *path, const void *bytes, size_t length, int *width, int *height,
                           int *swaps_width_and_height, char *loader, size_t capacity);

/// Reads the metadata fields `names` (`count` of them) of the image file at `path` or, when
/// `path` is NULL, of the `length` bytes at `bytes`, from its header alone: a name ending in
/// `-data` (`xmp-data`, `iptc-data`, `exif-data`) as the bytes of its blob, any other
/// (`exif-ifd0-Artist`) as libvips' text for it. Sets `values[i]` to a copy, NUL-terminated (free
/// it with `gallerykit_vips_free`), and `lengths[i]` to its length without the NUL; a field the
/// image does not have is NULL. Returns 0, or -1 with the error set if the image cannot be read.
int gallerykit_vips_metadata(const char *path, const void *bytes, size_t length, const char *const *names, int count,
                             void **values, size_t *lengths);

/// Makes a JPEG thumbnail whose long edge is at most `size` pixels (shrink-on-load, EXIF
/// orientation applied, alpha flattened on white, sRGB), from the file at `path` or, when
/// `path` is NULL, from `length` bytes at `bytes`. On success returns 0 and sets `*jpeg` (free
/// it with `gallerykit_vips_free`) and `*jpeg_length`.
int gallerykit_vips_thumbnail(const char *path, const void *bytes, size_t length, int size,
                              void **jpeg, size_t *jpeg_length);

/// Makes `count` progressive JPEG renditions of an image for display, of quality `quality`: each shrunk so its
/// long edge is at most `edges[i]` pixels (never enlarged), EXIF orientation applied, alpha
/// flattened on white, converted to sRGB and every piece of metadata stripped (no EXIF, so no
/// location). The image, the file at `path` or, when `path` is NULL, the `length` bytes at
/// `bytes`, is decoded once, shrunk on load to the largest edge; the smaller ones are shrunk from
/// that. On success returns 0 and sets each `jpegs[i]` (free each with `gallerykit_vips_free`),
/// `lengths[i]`, `widths[i]` and `heights[i]`; on failure returns -1 with the error set and nothing
/// to free.
int gallerykit_vips_renditions(const char *path, const void *bytes, size_t length, const int *edges, int count, int quality,
                               void **jpegs, size_t *lengths, int *widths, int *heights);

/// A contact sheet being drawn: an 8-bit RGB canvas in memory, white until drawn on. Opaque.
typedef struct gallerykit_vips_sheet gallerykit_vips_sheet;

/// A white `width`×`height` canvas (each side 1 to 65535), or NULL with the error set if the
/// size is out of range or the memory cannot be had (3 bytes a pixel). Free it with
/// `gallerykit_vips_sheet_free`.
gallerykit_vips_sheet *gallerykit_vips_sheet_new(int width, int height);

/// Draws the image file at `path`, or when `path` is NULL the `length` bytes at `bytes` (a
/// thumbnail, already upright), resized to exactly
/// `width`×`height` pixels by vips_resize (linear kernel), its top-left corner at `x`, `y` (alpha
/// flattened on white, sRGB). A file of more than 2²⁰ pixels is shrunk on load first. Returns 0;
/// or -1 with the error set and nothing drawn if libvips cannot read the file or the rectangle is
/// not inside the canvas. Calls that draw rectangles that do not overlap may run on several
/// threads at once: each writes only its own pixels.
int gallerykit_vips_sheet_draw_image(gallerykit_vips_sheet *sheet, const char *path, const void *bytes, size_t length,
                                     int x, int y, int width, int height);

/// Draws the error tile (light grey, a darker border and diagonal cross) in the rectangle, cut to
/// the canvas. Never fails; thread-safe as above.
void gallerykit_vips_sheet_draw_error_tile(gallerykit_vips_sheet *sheet, int x, int y, int width, int height);

/// Draws `text` (UTF-8, plain text: characters such as `<` and `&` are escaped, never read as
/// Pango markup) in dark grey, at the largest size that fits the rectangle (wrapping at words if
/// it must), left-aligned and centred vertically; cut to the canvas. Returns 0, or -1 with the
/// error set.
int gallerykit_vips_sheet_draw_text(gallerykit_vips_sheet *sheet, const char *text,
                                    int x, int y, int width, int height);

/// Encodes the canvas as a JPEG of this `quality` (1 to 100) or, when `png` is non-zero, a PNG.
/// On success returns 0 and sets `*buffer` (free it with `gallerykit_vips_free`) and `*length`.
int gallerykit_vips_sheet_encode(gallerykit_vips_sheet *sheet, int png, int quality, void **buffer, size_t *length);

/// Frees a canvas (NULL is ignored).
void gallerykit_vips_sheet_free(gallerykit_vips_sheet *sheet);

/// Frees a buffer libvips allocated.
void gallerykit_vips_free(void *buffer);

/// Copies the last error (libvips' error buffer, or why libvips could not be loaded) into
/// `buffer` and clears it.
void gallerykit_vips_take_error(char *buffer, size_t capacity);

/// Whether libvips has been loaded into this process (for tests of lazy loading).
int gallerykit_vips_is_loaded(void);

/* Whether libvips runs generated vector code (liborc); the shim turns it off at start. */
int gallerykit_vips_vector_is_enabled(void);

#endif
