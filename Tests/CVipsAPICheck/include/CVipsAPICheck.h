#ifndef GALLERYKIT_CVIPSAPICHECK_H
#define GALLERYKIT_CVIPSAPICHECK_H

/// The number of libvips functions whose declarations in Sources/CVipsShim/VipsAPI.h were
/// checked against libvips' own headers when this target compiled.
int gallerykit_vips_api_checked_count(void);

#endif
