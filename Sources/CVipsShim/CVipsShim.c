#include "CVipsShim.h"
#include "VipsAPI.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every libvips and GLib function the shim calls, reached through a pointer that
 * `load_library` fills with dlsym; types from VipsAPI.h. */
#define GALLERYKIT_DECLARE(name, result, parameters) static gallerykit_##name##_fn p_##name;
GALLERYKIT_VIPS_API(GALLERYKIT_DECLARE)

/* Why loading failed, for `gallerykit_vips_take_error` when there is no libvips to ask. */
static char load_failure[512];
static int load_status = -1;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void *open_library(void) {
    static const char *names[] = {"libvips.so.42", "libvips.so", "libvips.42.dylib", "libvips.dylib"};
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        void *handle = dlopen(names[index], RTLD_NOW | RTLD_GLOBAL);
        if (handle != NULL) {
            return handle;
        }
    }
    const char *reason = dlerror();
    snprintf(load_failure, sizeof load_failure,
             "cannot load libvips (libvips.so.42): %s; install libvips (Debian: libvips42)", reason ? reason : "not found");
    return NULL;
}

static int load_library(void) {
    void *handle = open_library();
    if (handle == NULL) {
        return -1;
    }
#define GALLERYKIT_LOAD(name, result, parameters)                                                 \
    p_##name = (gallerykit_##name##_fn) dlsym(handle, #name);                                     \
    if (p_##name == NULL) {                                                                       \
        snprintf(load_failure, sizeof load_failure, "libvips has no function %s (too old?)", #name); \
        return -1;                                                                                \
    }
    GALLERYKIT_VIPS_API(GALLERYKIT_LOAD)
    return 0;
}

static void ignore_message(const char *domain, int level, const char *message, void *data) {
    (void) domain; (void) level; (void) message; (void) data;
}

static void start_once(void) {
    if (load_library() != 0) {
        return;
    }
    if (p_vips_init("gallerykit") != 0) {
        return;
    }
    /* Decoder warnings ("Premature end of JPEG file") would go to stderr; a library must not
     * print. Errors still reach callers through the error buffer. */
    p_g_log_set_handler("VIPS", GALLERYKIT_G_LOG_LEVEL_WARNING | GALLERYKIT_G_LOG_LEVEL_MESSAGE | GALLERYKIT_G_LOG_LEVEL_INFO, ignore_message, NULL);
    p_vips_block_untrusted_set(1);
    /* Only the loaders ImageProbe accepts ever see untrusted bytes: block every loader, then
     * let these families back in. Blocked loaders are not even asked to sniff a file, which
     * also keeps probing to one open per file. */
    p_vips_operation_block_set("VipsForeignLoad", 1);
    static const char *allowed[] = {
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp",
        "VipsForeignLoadNsgif", "VipsForeignLoadTiff", "VipsForeignLoadHeif",
    };
    for (size_t index = 0; index < sizeof allowed / sizeof allowed[0]; index++) {
        p_vips_operation_block_set(allowed[index], 0);
    }
    p_vips_cache_set_max(0);
    /* Thumbnails run one per core in parallel; more threads per image only contend. */
    p_vips_concurrency_set(1);
    /* No run-time generated vector code (liborc): with thumbnails made on several threads at
     * once, `gallery create --cache` of four images crashed in liborc about once in 150 runs
     * (libvips 8.14, orc 0.4.33; a heap corruption, another thread in malloc_consolidate);
     * 0 in 300 with it off, as VIPS_NOVECTOR=1 does. */
    p_vips_vector_set_enabled(0);
    p_vips_cache_set_max_files(0);
    load_status = 0;
}

int gallerykit_vips_start(void) {
    pthread_once(&load_once, start_once);
    return load_status;
}

int gallerykit_vips_is_loaded(void) {
    return p_vips_init != NULL;
}

int gallerykit_vips_vector_is_enabled(void) {
    return load_status == 0 ? p_vips_vector_isenabled() : 0;
}

/* A source for the regular, non-empty file at `path`, or NULL with the error buffer set.
 *
 * A source made from a descriptor, not a file name: loaders sniff the bytes the source has
 * already read instead of each opening the file again, and loaders that work from a file name
 * (openslide opens it as an SQLite database, even when blocked) never get one. libvips treats a
 * source it cannot map as a pipe: an empty file then trips an assertion that aborts the process
 * (8.14), and a device such as /dev/zero would be read forever, so those are refused here. */
static struct _VipsSource *open_source(const char *path) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    if (descriptor < 0) {
        p_vips_error_system(errno, "gallerykit", "cannot open %s", path);
        return NULL;
    }
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size == 0) {
        p_vips_error("gallerykit", "%s", S_ISREG(status.st_mode) ? "the file is empty" : "not a regular file");
        close(descriptor);
        return NULL;
    }
    struct _VipsSource *source = p_vips_source_new_from_descriptor(descriptor);
    close(descriptor); /* the source holds its own duplicate */
    return source;
}

/* The image in the file at `path`, or when `path` is NULL in the `length` bytes at `bytes`, for
 * sequential access (header only until pixels are asked for), or NULL with the error buffer set.
 * The bytes are not copied: they must outlive the image. */
static struct _VipsImage *open_image(const char *path, const void *bytes, size_t length) {
    if (path == NULL && (bytes == NULL || length == 0)) {
        p_vips_error("gallerykit", "the image is empty");
        return NULL;
    }
    struct _VipsSource *source = path != NULL ? open_source(path) : p_vips_source_new_from_memory(bytes, length);
    if (source == NULL) {
        return NULL;
    }
    struct _VipsImage *image = p_vips_image_new_from_source(source, "", "access", GALLERYKIT_VIPS_ACCESS_SEQUENTIAL, NULL);
    p_g_object_unref(source);
    return image;
}

int gallerykit_vips_header(const char *path, const void *bytes, size_t length, int *width, int *height,
                           int *swaps_width_and_height, char *loader, size_t capacity) {
    struct _VipsImage *image = open_image(path, bytes, length);
    if (image == NULL) {
        return -1;
    }
    *width = p_vips_image_get_width(image);
    *height = p_vips_image_get_height(image);
    *swaps_width_and_height = p_vips_image_get_orientation_swap(image);
    const char *name = NULL;
    if (capacity > 0) {
        loader[0] = '\0';
        if (p_vips_image_get_string(image, "vips-loader", &name) == 0 && name != NULL) {
            strncpy(loader, name, capacity - 1);
            loader[capacity - 1] = '\0';
        }
    }
    p_g_object_unref(image);
    return 0;
}

int gallerykit_vips_metadata(const char *path, const void *bytes, size_t length, const char *const *names, int count,
                             void **values, size_t *lengths) {
    struct _VipsImage *image = open_image(path, bytes, length);
    if (image == NULL) {
        return -1;
    }
    for (int index = 0; index < count; index++) {
        values[index] = NULL;
        lengths[index] = 0;
        /* Asked for only when there: a getter of a missing field would fill the error buffer. */
        if (p_vips_image_get_typeof(image, names[index]) == 0) {
            continue;
        }
        const void *found = NULL;
        size_t size = 0;
        size_t name_length = strlen(names[index]);
        int is_blob = name_length > 5 && strcmp(names[index] + name_length - 5, "-data") == 0;
        if (is_blob) {
            if (p_vips_image_get_blob(image, names[index], &found, &size) != 0) {
                found = NULL;
            }
        } else {
            const char *text = NULL;
            if (p_vips_image_get_string(image, names[index], &text) == 0 && text != NULL) {
                found = text;
                size = strlen(text);
            }
        }
        if (found == NULL) {
            continue;
        }
        /* GLib's g_free is free (since 2.46): gallerykit_vips_free frees these too. */
        values[index] = malloc(size + 1);
        if (values[index] == NULL) {
            continue;
        }
        memcpy(values[index], found, size);
        ((char *) values[index])[size] = '\0';
        lengths[index] = size;
    }
    p_vips_error_clear();
    p_g_object_unref(image);
    return 0;
}

/* sRGB, three bands, no alpha: what a JPEG cell of a sheet expects. Takes `image`'s reference. */
static struct _VipsImage *to_opaque_srgb(struct _VipsImage *image) {
    struct _VipsImage *result = image;
    if (p_vips_image_hasalpha(result)) {
        struct _VipsArrayDouble *white = p_vips_array_double_newv(1, 255.0);
        struct _VipsImage *flat = NULL;
        int failed = p_vips_flatten(result, &flat, "background", white, NULL);
        p_vips_area_unref((struct _VipsArea *) white);
        p_g_object_unref(result);
        if (failed) {
            return NULL;
        }
        result = flat;
    }
    struct _VipsImage *srgb = NULL;
    int failed = p_vips_colourspace(result, &srgb, GALLERYKIT_VIPS_INTERPRETATION_SRGB, NULL);
    p_g_object_unref(result);
    return failed ? NULL : srgb;
}

/* `strip` drops every piece of metadata: EXIF (a location among it), XMP, IPTC and the ICC
 * profile, which the conversion to sRGB has already applied. */
static int save_jpeg(struct _VipsImage *image, int quality, int progressive, void **jpeg, size_t *jpeg_length) {
    return p_vips_jpegsave_buffer(image, jpeg, jpeg_length, "Q", quality, "strip", 1, "optimize_coding", 1, "interlace", progressive,
                                  NULL);
}

static struct _VipsImage *thumbnail(const char *path, const void *bytes, size_t length, int size) {
    struct _VipsImage *image = NULL;
    if (path != NULL) {
        struct _VipsSource *source = open_source(path);
        if (source == NULL) {
            return NULL;
        }
        int failed = p_vips_thumbnail_source(source, &image, size, "height", size, "size", GALLERYKIT_VIPS_SIZE_DOWN, NULL);
        p_g_object_unref(source);
        if (failed) {
            return NULL;
        }
    } else if (p_vips_thumbnail_buffer((void *) bytes, length, &image, size, "height", size, "size", GALLERYKIT_VIPS_SIZE_DOWN, NULL)) {
        return NULL;
    }
    return to_opaque_srgb(image);
}

int gallerykit_vips_thumbnail(const char *path, const void *bytes, size_t length, int size,
                              void **jpeg, size_t *jpeg_length) {
    struct _VipsImage *image = thumbnail(path, bytes, length, size);
    if (image == NULL) {
        return -1;
    }
    int failed = save_jpeg(image, 80, 0, jpeg, jpeg_length);
    p_g_object_unref(image);
    return failed ? -1 : 0;
}

int gallerykit_vips_renditions(const char *path, const void *bytes, size_t length, const int *edges, int count, int quality,
                               void **jpegs, size_t *lengths, int *widths, int *heights) {
    int largest = 0;
    for (int index = 0; index < count; index++) {
        if (edges[index] < 1) {
            p_vips_error("gallerykit", "a rendition of %d pixels is out of range", edges[index]);
            return -1;
        }
        largest = edges[index] > largest ? edges[index] : largest;
        jpegs[index] = NULL;
    }
    if (count < 1) {
        p_vips_error("gallerykit", "no rendition asked for");
        return -1;
    }
    /* The largest is decoded once (shrink-on-load); the smaller ones are shrunk from it in
     * memory, not decoded again: one decode, however many sizes. */
    struct _VipsImage *image = thumbnail(path, bytes, length, largest);
    if (image != NULL && count > 1) {
        struct _VipsImage *rendered = p_vips_image_copy_memory(image);
        p_g_object_unref(image);
        image = rendered;
    }
    if (image == NULL) {
        return -1;
    }
    for (int index = 0; index < count; index++) {
        struct _VipsImage *sized = image;
        if (edges[index] < largest &&
            p_vips_thumbnail_image(image, &sized, edges[index], "height", edges[index], "size", GALLERYKIT_VIPS_SIZE_DOWN, NULL)) {
            sized = NULL;
        }
        /* Progressive: 3 % smaller at these sizes, and a page shows the whole picture, coarse,
         * before all of it has come. */
        int failed = sized == NULL || save_jpeg(sized, quality, 1, &jpegs[index], &lengths[index]);
        if (sized != NULL) {
            widths[index] = p_vips_image_get_width(sized);
            heights[index] = p_vips_image_get_height(sized);
        }
        if (sized != NULL && sized != image) {
            p_g_object_unref(sized);
        }
        if (failed) {
            for (int made = 0; made <= index; made++) {
                p_g_free(jpegs[made]);
                jpegs[made] = NULL;
            }
            p_g_object_unref(image);
            return -1;
        }
    }
    p_g_object_unref(image);
    return 0;
}

/* Contact sheets: one canvas in memory that every cell is written into directly, not a libvips
 * pipeline of hundreds of inserts or composites. Cells are decoded and shrunk on the caller's
 * threads (one per core) and each writes only its own rectangle, so they need no lock; the
 * canvas is wrapped as a libvips image only to encode it. */
struct gallerykit_vips_sheet {
    unsigned char *pixels; /* RGB, row after row, no padding */
    int width;
    int height;
};

static const unsigned char sheet_tile_fill = 0xC8, sheet_tile_ink = 0x8C, sheet_text_ink = 0x30;

gallerykit_vips_sheet *gallerykit_vips_sheet_new(int width, int height) {
    if (width < 1 || height < 1 || width > 65535 || height > 65535) {
        p_vips_error("gallerykit", "a contact sheet of %d×%d pixels is out of range", width, height);
        return NULL;
    }
    size_t size = (size_t) width * (size_t) height * 3;
    gallerykit_vips_sheet *sheet = malloc(sizeof *sheet);
    unsigned char *pixels = malloc(size);
    if (sheet == NULL || pixels == NULL) {
        free(sheet);
        free(pixels);
        p_vips_error("gallerykit", "not enough memory for a contact sheet of %d×%d pixels", width, height);
        return NULL;
    }
    memset(pixels, 0xFF, size);
    *sheet = (gallerykit_vips_sheet) {pixels, width, height};
    return sheet;
}

void gallerykit_vips_sheet_free(gallerykit_vips_sheet *sheet) {
    if (sheet != NULL) {
        free(sheet->pixels);
        free(sheet);
    }
}

static int sheet_contains(const gallerykit_vips_sheet *sheet, int x, int y, int width, int height) {
    return x >= 0 && y >= 0 && width > 0 && height > 0 && width <= sheet->width - x && height <= sheet->height - y;
}

static unsigned char *sheet_pixel(gallerykit_vips_sheet *sheet, int x, int y) {
    return sheet->pixels + ((size_t) y * (size_t) sheet->width + (size_t) x) * 3;
}

/* Copies an RGB image of `source_width`×`source_height` pixels into the cell, repeating its last
 * row and column where libvips' rounding left it a pixel short of the cell. */
static void sheet_copy(gallerykit_vips_sheet *sheet, int x, int y, int width, int height,
                       const unsigned char *pixels, int source_width, int source_height) {
    int columns = source_width < width ? source_width : width;
    for (int line = 0; line < height; line++) {
        int from = line < source_height ? line : source_height - 1;
        const unsigned char *source = pixels + (size_t) from * (size_t) source_width * 3;
        unsigned char *target = sheet_pixel(sheet, x, y + line);
        memcpy(target, source, (size_t) columns * 3);
        for (int column = columns; column < width; column++) {
            memcpy(target + (size_t) column * 3, source + (size_t) (columns - 1) * 3, 3);
        }
    }
}

/* The pixels of `image` (released here) as 8-bit samples, `bands` to a pixel, with its size;
 * NULL with the error set if it cannot be rendered or is not in that format (never overrun). */
static unsigned char *take_pixels(struct _VipsImage *image, int bands, int *width, int *height) {
    *width = p_vips_image_get_width(image);
    *height = p_vips_image_get_height(image);
    size_t size = 0;
    unsigned char *pixels = p_vips_image_write_to_memory(image, &size);
    p_g_object_unref(image);
    if (pixels != NULL && size != (size_t) *width * (size_t) *height * (size_t) bands) {
        p_g_free(pixels);
        p_vips_error("gallerykit", "an image rendered in an unexpected format (not 8-bit, %d bands)", bands);
        return NULL;
    }
    return pixels;
}

/* Thumbnails are decoded whole up to this many pixels (a 256-pixel thumbnail has at most 65,536);
 * anything larger — a document's thumbnail entry can be any image — is shrunk on load first. */
#define GALLERYKIT_SHEET_WHOLE_DECODE_LIMIT (1 << 20)

int gallerykit_vips_sheet_draw_image(gallerykit_vips_sheet *sheet, const char *path, const void *bytes, size_t length,
                                     int x, int y, int width, int height) {
    if (!sheet_contains(sheet, x, y, width, height)) {
        p_vips_error("gallerykit", "a cell of %d×%d pixels at %d,%d is outside the sheet", width, height, x, y);
        return -1;
    }
    struct _VipsImage *image = open_image(path, bytes, length);
    if (image == NULL) {
        return -1;
    }
    if ((double) p_vips_image_get_width(image) * p_vips_image_get_height(image) > GALLERYKIT_SHEET_WHOLE_DECODE_LIMIT) {
        p_g_object_unref(image);
        image = thumbnail(path, bytes, length, width > height ? width : height);
    } else {
        image = to_opaque_srgb(image);
    }
    if (image == NULL) {
        return -1;
    }
    /* The linear kernel: cells are about a thumbnail's size, where it looks as good as Lanczos
     * and costs less (each cell is its own small libvips pipeline). */
    struct _VipsImage *resized = NULL;
    double across = (double) width / p_vips_image_get_width(image), down = (double) height / p_vips_image_get_height(image);
    int resize_failed = p_vips_resize(image, &resized, across, "vscale", down, "kernel", GALLERYKIT_VIPS_KERNEL_LINEAR, NULL);
    p_g_object_unref(image);
    if (resize_failed) {
        return -1;
    }
    int source_width = 0, source_height = 0;
    unsigned char *pixels = take_pixels(resized, 3, &source_width, &source_height);
    if (pixels == NULL) {
        return -1;
    }
    if (source_width < 1 || source_height < 1) {
        p_g_free(pixels);
        p_vips_error("gallerykit", "%s shrank to nothing", path != NULL ? path : "an image");
        return -1;
    }
    sheet_copy(sheet, x, y, width, height, pixels, source_width, source_height);
    p_g_free(pixels);
    return 0;
}

void gallerykit_vips_sheet_draw_error_tile(gallerykit_vips_sheet *sheet, int x, int y, int width, int height) {
    int left = x < 0 ? 0 : x, top = y < 0 ? 0 : y;
    int right = width > sheet->width - x ? sheet->width : x + width;
    int bottom = height > sheet->height - y ? sheet->height : y + height;
    if (width < 1 || height < 1 || left >= right || top >= bottom) {
        return;
    }
    int border = (width < height ? width : height) / 32 + 1;
    for (int row = top; row < bottom; row++) {
        unsigned char *pixel = sheet_pixel(sheet, left, row);
        /* The two diagonals of the tile, `border` pixels thick, at this row. */
        long down = x + (long) (row - y) * width / height;
        long up = x + width - 1 - (long) (row - y) * width / height;
        for (int column = left; column < right; column++, pixel += 3) {
            int edge = column - x < border || x + width - 1 - column < border || row - y < border || y + height - 1 - row < border;
            int cross = labs(column - down) < border || labs(column - up) < border;
            memset(pixel, edge || cross ? sheet_tile_ink : sheet_tile_fill, 3);
        }
    }
}

int gallerykit_vips_sheet_draw_text(gallerykit_vips_sheet *sheet, const char *text,
                                    int x, int y, int width, int height) {
    if (width < 1 || height < 1) {
        return 0;
    }
    /* vips_text always parses Pango markup; the text is the document's, so it is escaped. */
    char *escaped = p_g_markup_escape_text(text, -1);
    struct _VipsImage *mask = NULL;
    /* Width and height without dpi: libvips searches for the largest size that fits. */
    int failed = p_vips_text(&mask, escaped, "font", "sans", "width", width, "height", height, NULL);
    p_g_free(escaped);
    if (failed) {
        return -1;
    }
    int mask_width = 0, mask_height = 0;
    unsigned char *alpha = take_pixels(mask, 1, &mask_width, &mask_height);
    if (alpha == NULL) {
        return -1;
    }
    int top = y + (height > mask_height ? (height - mask_height) / 2 : 0);
    for (int row = 0; row < mask_height && row < height; row++) {
        if (top + row < 0 || top + row >= sheet->height) {
            continue;
        }
        for (int column = 0; column < mask_width && column < width; column++) {
            if (x + column < 0 || x + column >= sheet->width) {
                continue;
            }
            unsigned int coverage = alpha[(size_t) row * (size_t) mask_width + (size_t) column];
            unsigned char *pixel = sheet_pixel(sheet, x + column, top + row);
            for (int band = 0; band < 3; band++) {
                pixel[band] = (unsigned char) ((pixel[band] * (255 - coverage) + sheet_text_ink * coverage + 127) / 255);
            }
        }
    }
    p_g_free(alpha);
    return 0;
}

int gallerykit_vips_sheet_encode(gallerykit_vips_sheet *sheet, int png, int quality, void **buffer, size_t *length) {
    size_t size = (size_t) sheet->width * (size_t) sheet->height * 3;
    /* No copy: the image reads the canvas, which outlives it. */
    struct _VipsImage *image = p_vips_image_new_from_memory(sheet->pixels, size, sheet->width, sheet->height, 3,
                                                            GALLERYKIT_VIPS_FORMAT_UCHAR);
    if (image == NULL) {
        return -1;
    }
    /* Optimised Huffman tables only for small sheets (a preview): on a 2048×8500 sheet they took
     * 0.13 s more for 7% less. */
    int optimize = size <= ((size_t) 1 << 20) * 3;
    int failed = png ? p_vips_pngsave_buffer(image, buffer, length, "strip", 1, NULL)
                     : p_vips_jpegsave_buffer(image, buffer, length, "Q", quality, "strip", 1, "optimize_coding", optimize, NULL);
    p_g_object_unref(image);
    return failed ? -1 : 0;
}

void gallerykit_vips_free(void *buffer) {
    if (p_g_free == NULL) {
        return;
    }
    p_g_free(buffer);
}

void gallerykit_vips_take_error(char *buffer, size_t capacity) {
    if (p_vips_error_buffer == NULL) {
        snprintf(buffer, capacity, "%s", load_failure[0] ? load_failure : "libvips is not loaded");
        return;
    }
    const char *message = p_vips_error_buffer();
    if (capacity > 0) {
        strncpy(buffer, message ? message : "", capacity - 1);
        buffer[capacity - 1] = '\0';
    }
    p_vips_error_clear();
}
