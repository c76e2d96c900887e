#include "CVipsShim.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void ignore_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

int gallerykit_vips_start(void) {
    if (vips_init("gallerykit") != 0) {
        return -1;
    }
    /* Decoder warnings ("Premature end of JPEG file") would go to stderr; a library must not
     * print. Errors still reach callers through the error buffer. */
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, ignore_message, NULL);
    vips_block_untrusted_set(TRUE);
    /* Only the loaders ImageProbe accepts ever see untrusted bytes: block every loader, then
     * let these families back in. Blocked loaders are not even asked to sniff a file, which
     * also keeps probing to one open per file. */
    vips_operation_block_set("VipsForeignLoad", TRUE);
    static const char *allowed[] = {
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp",
        "VipsForeignLoadNsgif", "VipsForeignLoadTiff", "VipsForeignLoadHeif",
    };
    for (size_t index = 0; index < sizeof allowed / sizeof allowed[0]; index++) {
        vips_operation_block_set(allowed[index], FALSE);
    }
    vips_cache_set_max(0);
    /* Thumbnails run one per core in parallel; more threads per image only contend. */
    vips_concurrency_set(1);
    vips_cache_set_max_files(0);
    return 0;
}

/* A source for the regular, non-empty file at `path`, or NULL with the error buffer set.
 *
 * A source made from a descriptor, not a file name: loaders sniff the bytes the source has
 * already read instead of each opening the file again, and loaders that work from a file name
 * (openslide opens it as an SQLite database, even when blocked) never get one. libvips treats a
 * source it cannot map as a pipe: an empty file then trips an assertion that aborts the process
 * (8.14), and a device such as /dev/zero would be read forever, so those are refused here. */
static VipsSource *open_source(const char *path) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    if (descriptor < 0) {
        vips_error_system(errno, "gallerykit", "cannot open %s", path);
        return NULL;
    }
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size == 0) {
        vips_error("gallerykit", "%s", S_ISREG(status.st_mode) ? "the file is empty" : "not a regular file");
        close(descriptor);
        return NULL;
    }
    VipsSource *source = vips_source_new_from_descriptor(descriptor);
    close(descriptor); /* the source holds its own duplicate */
    return source;
}

VipsImage *gallerykit_vips_open_header(const char *path) {
    VipsSource *source = open_source(path);
    if (source == NULL) {
        return NULL;
    }
    VipsImage *image = vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    g_object_unref(source);
    return image;
}

/* sRGB, three bands, no alpha: what a JPEG cell of a sheet expects. Takes `image`'s reference. */
static VipsImage *to_opaque_srgb(VipsImage *image) {
    VipsImage *result = image;
    if (vips_image_hasalpha(result)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        VipsImage *flat = NULL;
        int failed = vips_flatten(result, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        g_object_unref(result);
        if (failed) {
            return NULL;
        }
        result = flat;
    }
    VipsImage *srgb = NULL;
    int failed = vips_colourspace(result, &srgb, VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(result);
    return failed ? NULL : srgb;
}

static int save_jpeg(VipsImage *image, void **jpeg, size_t *jpeg_length) {
    return vips_jpegsave_buffer(image, jpeg, jpeg_length, "Q", 80, "strip", TRUE, "optimize_coding", TRUE, NULL);
}

static VipsImage *thumbnail(const char *path, const void *bytes, size_t length, int size) {
    VipsImage *image = NULL;
    if (path != NULL) {
        VipsSource *source = open_source(path);
        if (source == NULL) {
            return NULL;
        }
        int failed = vips_thumbnail_source(source, &image, size, "height", size, "size", VIPS_SIZE_DOWN, NULL);
        g_object_unref(source);
        if (failed) {
            return NULL;
        }
    } else if (vips_thumbnail_buffer((void *) bytes, length, &image, size, "height", size, "size", VIPS_SIZE_DOWN, NULL)) {
        return NULL;
    }
    return to_opaque_srgb(image);
}

int gallerykit_vips_thumbnail(const char *path, const void *bytes, size_t length, int size,
                              void **jpeg, size_t *jpeg_length) {
    VipsImage *image = thumbnail(path, bytes, length, size);
    if (image == NULL) {
        return -1;
    }
    int failed = save_jpeg(image, jpeg, jpeg_length);
    g_object_unref(image);
    return failed ? -1 : 0;
}

int gallerykit_vips_contact_sheet(const void *const *jpegs, const size_t *lengths, int count,
                                  int across, int cell, void **jpeg, size_t *jpeg_length) {
    if (count < 1 || count > 16 || across < 1) {
        vips_error("gallerykit", "a contact sheet holds 1 to 16 images");
        return -1;
    }
    VipsImage *cells[16] = {NULL};
    VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
    int failed = 0;
    for (int index = 0; index < count && !failed; index++) {
        VipsImage *small = thumbnail(NULL, jpegs[index], lengths[index], cell);
        failed = small == NULL || vips_gravity(small, &cells[index], VIPS_COMPASS_DIRECTION_CENTRE, cell, cell,
                                               "extend", VIPS_EXTEND_BACKGROUND, "background", white, NULL);
        if (small != NULL) {
            g_object_unref(small);
        }
    }
    VipsImage *sheet = NULL;
    if (!failed) {
        failed = vips_arrayjoin(cells, &sheet, count, "across", across, "background", white, NULL);
    }
    if (!failed) {
        failed = save_jpeg(sheet, jpeg, jpeg_length);
        g_object_unref(sheet);
    }
    for (int index = 0; index < count; index++) {
        if (cells[index] != NULL) {
            g_object_unref(cells[index]);
        }
    }
    vips_area_unref(VIPS_AREA(white));
    return failed ? -1 : 0;
}

void gallerykit_vips_free(void *buffer) {
    g_free(buffer);
}

void gallerykit_vips_take_error(char *buffer, size_t capacity) {
    const char *message = vips_error_buffer();
    if (capacity > 0) {
        strncpy(buffer, message ? message : "", capacity - 1);
        buffer[capacity - 1] = '\0';
    }
    vips_error_clear();
}
