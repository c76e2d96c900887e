#ifndef GALLERYKIT_CVIPS_SHIM_H
#define GALLERYKIT_CVIPS_SHIM_H
#include <vips/vips.h>
#endif
