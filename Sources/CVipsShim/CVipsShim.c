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
    vips_cache_set_max_files(0);
    return 0;
}

VipsImage *gallerykit_vips_open_header(const char *path) {
    /* Through a source made from a descriptor, not vips_image_new_from_file: loaders sniff the
     * bytes the source has already read instead of each opening the file again, and loaders that
     * work from a file name (openslide opens it as an SQLite database, even when blocked) never
     * get one. 17 opens per probe before, 1 now. */
    int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    if (descriptor < 0) {
        vips_error_system(errno, "gallerykit", "cannot open %s", path);
        return NULL;
    }
    /* libvips treats a source it cannot map as a pipe: an empty file then trips an assertion
     * that aborts the process (8.14), and a device such as /dev/zero would be read forever. */
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size == 0) {
        vips_error("gallerykit", "%s", S_ISREG(status.st_mode) ? "the file is empty" : "not a regular file");
        close(descriptor);
        return NULL;
    }
    VipsSource *source = vips_source_new_from_descriptor(descriptor);
    close(descriptor); /* the source holds its own duplicate */
    if (source == NULL) {
        return NULL;
    }
    VipsImage *image = vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    g_object_unref(source);
    return image;
}

VipsImage *gallerykit_vips_open_header_buffer(const void *bytes, size_t length) {
    return vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

void gallerykit_vips_take_error(char *buffer, size_t capacity) {
    const char *message = vips_error_buffer();
    if (capacity > 0) {
        strncpy(buffer, message ? message : "", capacity - 1);
        buffer[capacity - 1] = '\0';
    }
    vips_error_clear();
}
